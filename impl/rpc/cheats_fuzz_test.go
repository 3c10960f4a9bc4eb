package rpc

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"ledgerd/generated/rpcapi"
	"ledgerd/impl/core"
	"ledgerd/impl/ledger"
)

// FuzzCheatParams feeds arbitrary params to surfnet_setAccount, surfnet_setTokenAccount and surfnet_resetAccount
// as the dispatcher hands them over (decoded, validated) and runs them on a live ledger in manual mode: every
// input ends in a result or an error, never a panic, and a written account reads back.
func FuzzCheatParams(f *testing.F) {
	l, err := ledger.Open(ledger.Config{Dir: f.TempDir(), SlotDuration: time.Second, BlockProduction: ledger.ProduceOnRequest})
	if err != nil {
		f.Fatal(err)
	}
	defer l.Close()
	s := NewServer(Node{Ledger: l, Cheats: true})
	ctx := context.Background()
	mint := core.Pubkey{7}
	mintData := make([]byte, 82)
	mintData[45] = 1
	if _, err := s.SurfnetSetAccount(ctx, &rpcapi.SurfnetSetAccountParams{Pubkey: mint,
		Update: rpcapi.AccountUpdate{Lamports: ptr(uint64(1461600)), Owner: ptr(rpcapi.Pubkey(core.TokenProgramID.String())),
			Data: ptr(hexString(mintData))}}); err != nil {
		f.Fatal(err)
	}
	owner := core.Pubkey{8}.String()
	f.Add(0, `["`+owner+`",{"lamports":5,"data":"00ff"}]`)
	f.Add(0, `["`+owner+`",{"lamports":0}]`)
	f.Add(0, `["`+owner+`",{"data":"0"}]`)
	f.Add(0, `["SysvarC1ock11111111111111111111111111111111",{"lamports":1}]`)
	f.Add(1, `["`+owner+`","`+mint.String()+`",{"amount":5,"delegate":"null","state":"frozen","closeAuthority":"`+owner+`"}]`)
	f.Add(1, `["`+owner+`","`+mint.String()+`",{"delegate":"xyz"},"`+core.Token2022ProgramID.String()+`"]`)
	f.Add(2, `["`+mint.String()+`",{"includeOwnedAccounts":true}]`)
	f.Fuzz(func(t *testing.T, method int, params string) {
		switch method % 3 {
		case 0:
			var p rpcapi.SurfnetSetAccountParams
			if json.Unmarshal([]byte(params), &p) != nil || p.Validate() != nil {
				return
			}
			r, err := s.SurfnetSetAccount(ctx, &p)
			if err != nil || p.Update.Lamports == nil || *p.Update.Lamports == 0 {
				return
			}
			k := p.Pubkey
			if a, ok := l.Bank(ledger.Processed).GetAccount(k); !ok || a.Lamports != *p.Update.Lamports || r.Context.Slot == 0 {
				t.Fatalf("%s: read back %+v %v", params, a, ok)
			}
		case 1:
			var p rpcapi.SurfnetSetTokenAccountParams
			if json.Unmarshal([]byte(params), &p) != nil || p.Validate() != nil {
				return
			}
			_, _ = s.SurfnetSetTokenAccount(ctx, &p)
		default:
			var p rpcapi.SurfnetResetAccountParams
			if json.Unmarshal([]byte(params), &p) != nil || p.Validate() != nil {
				return
			}
			_, _ = s.SurfnetResetAccount(ctx, &p)
		}
	})
}

func ptr[T any](v T) *T { return &v }

func hexString(b []byte) string {
	const digits = "0123456789abcdef"
	out := make([]byte, 0, 2*len(b))
	for _, c := range b {
		out = append(out, digits[c>>4], digits[c&15])
	}
	return string(out)
}
