package rpc

import (
	"bytes"
	"context"
	"encoding/hex"
	"encoding/json"
	"testing"
	"time"

	"ledgerd/generated/rpcapi"
	"ledgerd/impl/core"
	"ledgerd/impl/ledger"
)

// FuzzProgramCheatParams feeds arbitrary params to surfnet_writeProgram, surfnet_setProgramAuthority,
// surfnet_cloneProgramAccount, surfnet_setSupply and ledgerd_impersonate as the dispatcher hands them over
// (decoded, validated) on a live ledger: every input ends in a result or an error, never a panic, and a chunk
// written reads back at its offset.
func FuzzProgramCheatParams(f *testing.F) {
	l, err := ledger.Open(ledger.Config{Dir: f.TempDir(), SlotDuration: time.Second, BlockProduction: ledger.ProduceOnRequest})
	if err != nil {
		f.Fatal(err)
	}
	defer l.Close()
	s := NewServer(Node{Ledger: l, Cheats: true})
	ctx := context.Background()
	prog, other := core.Pubkey{9}.String(), core.Pubkey{10}.String()
	f.Add(0, `["`+prog+`","7f454c46",0]`)
	f.Add(0, `["`+prog+`","00ff",100,"`+other+`"]`)
	f.Add(0, `["`+prog+`","0",0]`)
	f.Add(0, `["`+prog+`","00",10485715]`)
	f.Add(1, `["`+prog+`","`+other+`"]`)
	f.Add(1, `["`+prog+`"]`)
	f.Add(2, `["`+prog+`","`+other+`"]`)
	f.Add(2, `["`+prog+`","`+prog+`"]`)
	f.Add(3, `[{"total":5,"non_circulating_accounts":["`+other+`"]}]`)
	f.Add(4, `["`+other+`"]`)
	f.Fuzz(func(t *testing.T, method int, params string) {
		switch method % 5 {
		case 0:
			var p rpcapi.SurfnetWriteProgramParams
			if json.Unmarshal([]byte(params), &p) != nil || p.Validate() != nil {
				return
			}
			if _, err := s.SurfnetWriteProgram(ctx, &p); err != nil {
				return
			}
			k := p.ProgramId
			a, ok := l.Bank(ledger.Processed).GetAccount(k)
			if !ok || len(a.Data) < upgradeableProgramLen {
				t.Fatalf("%s: program %+v %v", params, a, ok)
			}
			pd, ok := l.Bank(ledger.Processed).GetAccount(core.Pubkey(a.Data[4:36]))
			chunk, _ := hex.DecodeString(p.Data)
			at := programDataHeaderLen + int(p.Offset)
			if !ok || len(pd.Data) < at+len(chunk) || !bytes.Equal(pd.Data[at:at+len(chunk)], chunk) {
				t.Fatalf("%s: the chunk does not read back", params)
			}
		case 1:
			var p rpcapi.SurfnetSetProgramAuthorityParams
			if json.Unmarshal([]byte(params), &p) != nil || p.Validate() != nil {
				return
			}
			_, _ = s.SurfnetSetProgramAuthority(ctx, &p)
		case 2:
			var p rpcapi.SurfnetCloneProgramAccountParams
			if json.Unmarshal([]byte(params), &p) != nil || p.Validate() != nil {
				return
			}
			_, _ = s.SurfnetCloneProgramAccount(ctx, &p)
		case 3:
			var p rpcapi.SurfnetSetSupplyParams
			if json.Unmarshal([]byte(params), &p) != nil || p.Validate() != nil {
				return
			}
			_, _ = s.SurfnetSetSupply(ctx, &p)
		default:
			var p rpcapi.LedgerdImpersonateParams
			if json.Unmarshal([]byte(params), &p) != nil || p.Validate() != nil {
				return
			}
			_, _ = s.LedgerdImpersonate(ctx, &p)
		}
	})
}
