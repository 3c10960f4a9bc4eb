package rpc

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"testing"
	"time"

	"ledgerd/generated/rpcapi"
	"ledgerd/impl/core"
	"ledgerd/impl/ledger"
	"ledgerd/impl/programs/system"
)

// FuzzProfileAndExportParams feeds arbitrary params to surfnet_profileTransaction (with signature verification
// off, so arbitrary transactions reach the runtime and its instruction observer), surfnet_getTransactionProfile
// and surfnet_exportSnapshot as the dispatcher hands them over (decoded, validated) on a live ledger: every input
// ends in a result or an error, never a panic; a profile's instructions are at most the message's, and the chain
// is unchanged by it.
func FuzzProfileAndExportParams(f *testing.F) {
	l, err := ledger.Open(ledger.Config{Dir: f.TempDir(), SlotDuration: time.Second, BlockProduction: ledger.ProduceOnRequest})
	if err != nil {
		f.Fatal(err)
	}
	defer l.Close()
	l.SetSigVerify(false)
	s := NewServer(Node{Ledger: l, Cheats: true})
	ctx := context.Background()
	payer, _ := core.NewKeypair()
	to := core.Pubkey{7}
	tx, err := core.NewTransaction(payer.PublicKey(), []core.Instruction{system.Transfer(payer.PublicKey(), to, 5),
		system.Transfer(payer.PublicKey(), to, 1<<62)}, l.Bank(ledger.Processed).LastBlockhash(), payer)
	if err != nil {
		f.Fatal(err)
	}
	wire := base64.StdEncoding.EncodeToString(tx.Serialize())
	f.Add(0, `["`+wire+`","t",{"encoding":"base64"}]`)
	f.Add(0, `["`+wire+`",null,{"encoding":"jsonParsed","depth":"transaction"}]`)
	f.Add(0, `["AQAAAA=="]`)
	f.Add(1, `["00000000-0000-4000-8000-000000000000",{"encoding":"base58"}]`)
	f.Add(2, `[{"includeParsedAccounts":true,"filter":{"includeProgramAccounts":true},"scope":"network"}]`)
	f.Add(2, `[{"scope":{"preTransaction":"x"}}]`)
	f.Fuzz(func(t *testing.T, method int, params string) {
		switch method % 3 {
		case 0:
			var p rpcapi.SurfnetProfileTransactionParams
			if json.Unmarshal([]byte(params), &p) != nil || p.Validate() != nil {
				return
			}
			r, err := s.SurfnetProfileTransaction(ctx, &p)
			if err != nil {
				return
			}
			raw, _ := base64.StdEncoding.DecodeString(p.TransactionData)
			decoded, derr := core.DecodeTransaction(raw)
			if derr == nil && r.Value.InstructionProfiles != nil && len(*r.Value.InstructionProfiles) > len(decoded.Message.Instructions) {
				t.Fatalf("%s: %d instruction profiles", params, len(*r.Value.InstructionProfiles))
			}
			if a, ok := l.Bank(ledger.Processed).GetAccount(to); ok {
				t.Fatalf("%s: a profile wrote %+v", params, a)
			}
		case 1:
			var p rpcapi.SurfnetGetTransactionProfileParams
			if json.Unmarshal([]byte(params), &p) != nil || p.Validate() != nil {
				return
			}
			_, _ = s.SurfnetGetTransactionProfile(ctx, &p)
		case 2:
			var p rpcapi.SurfnetExportSnapshotParams
			if json.Unmarshal([]byte(params), &p) != nil || p.Validate() != nil {
				return
			}
			_, _ = s.SurfnetExportSnapshot(ctx, &p)
		}
	})
}
