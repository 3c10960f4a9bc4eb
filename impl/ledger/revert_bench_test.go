package ledger

import (
	"context"
	"fmt"
	"testing"
	"time"

	"ledgerd/impl/core"
	"ledgerd/impl/runtime"
)

// BenchmarkSnapshotRevert measures a snapshot and a revert of a chain of 1,000 and of 100,000 accounts, with
// ten accounts changed over two slots between them: both follow the changes since the snapshot and the fixed
// number of recent blocks a restart replays, not the number of accounts.
func BenchmarkSnapshotRevert(b *testing.B) {
	for _, n := range []int{1_000, 100_000} {
		b.Run(fmt.Sprintf("accounts=%d", n), func(b *testing.B) {
			l, err := Open(Config{Dir: b.TempDir(), SlotDuration: time.Second, BlockProduction: ProduceOnRequest})
			if err != nil {
				b.Fatal(err)
			}
			defer l.Close()
			ctx := context.Background()
			keys := make([]core.Pubkey, n)
			for i := range keys {
				keys[i] = core.Pubkey{byte(i), byte(i >> 8), byte(i >> 16), 0xbe}
			}
			set := func(ks []core.Pubkey, lamports uint64) {
				if _, err := l.Cheat(ctx, func(AccountReader, func(core.Pubkey) ([]core.Pubkey, error)) ([]runtime.AccountWrite, error) {
					w := make([]runtime.AccountWrite, len(ks))
					for i, k := range ks {
						w[i] = runtime.AccountWrite{Pubkey: k, Account: runtime.Account{Lamports: lamports,
							Owner: core.SystemProgramID, Data: make([]byte, 64)}}
					}
					return w, nil
				}); err != nil {
					b.Fatal(err)
				}
			}
			set(keys, 1_000_000)
			if _, err := l.AdvanceSlots(ctx, DefaultFinalityDepth+2); err != nil {
				b.Fatal(err)
			}
			mutate := func(i int) {
				set(keys[:5], uint64(2_000_000+i))
				if _, err := l.AdvanceSlots(ctx, 1); err != nil {
					b.Fatal(err)
				}
				set(keys[n-5:], uint64(3_000_000+i))
				if _, err := l.AdvanceSlots(ctx, 1); err != nil {
					b.Fatal(err)
				}
			}
			b.Run("snapshot", func(b *testing.B) {
				for i := 0; b.Loop(); i++ {
					id, _, err := l.Snapshot(ctx)
					if err != nil {
						b.Fatal(err)
					}
					b.StopTimer()
					mutate(i)
					if ok, err := l.Revert(ctx, id); !ok || err != nil {
						b.Fatal(ok, err)
					}
					b.StartTimer()
				}
			})
			b.Run("revert", func(b *testing.B) {
				for i := 0; b.Loop(); i++ {
					b.StopTimer()
					id, _, err := l.Snapshot(ctx)
					if err != nil {
						b.Fatal(err)
					}
					mutate(i)
					b.StartTimer()
					if ok, err := l.Revert(ctx, id); !ok || err != nil {
						b.Fatal(ok, err)
					}
				}
			})
			a, _ := l.Bank(Confirmed).GetAccount(keys[0])
			if a.Lamports != 1_000_000 {
				b.Fatalf("after the reverts the first account holds %d", a.Lamports)
			}
		})
	}
}
