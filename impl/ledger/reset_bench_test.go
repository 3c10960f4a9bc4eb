package ledger

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"ledgerd/impl/core"
	"ledgerd/impl/runtime"
)

// benchChain opens a chain producing on request with n accounts written by a cheat and rooted.
func benchChain(b *testing.B, n int) (*Ledger, []core.Pubkey) {
	b.Helper()
	l, err := Open(Config{Dir: b.TempDir(), SlotDuration: time.Second, BlockProduction: ProduceOnRequest})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { l.Close() })
	keys := make([]core.Pubkey, n)
	for i := range keys {
		keys[i] = core.Pubkey{byte(i), byte(i >> 8), byte(i >> 16), 0xbe}
	}
	writeAll(b, l, keys, 1_000_000)
	return l, keys
}

func writeAll(b *testing.B, l *Ledger, keys []core.Pubkey, lamports uint64) {
	b.Helper()
	ctx := context.Background()
	if _, err := l.Cheat(ctx, func(AccountReader, func(core.Pubkey) ([]core.Pubkey, error)) ([]runtime.AccountWrite, error) {
		w := make([]runtime.AccountWrite, len(keys))
		for i, k := range keys {
			w[i] = runtime.AccountWrite{Pubkey: k, Account: runtime.Account{Lamports: lamports, Owner: core.SystemProgramID,
				Data: make([]byte, 64)}}
		}
		return w, nil
	}); err != nil {
		b.Fatal(err)
	}
	if _, err := l.AdvanceSlots(ctx, DefaultFinalityDepth+2); err != nil {
		b.Fatal(err)
	}
}

// BenchmarkResetNetwork measures surfnet_resetNetwork of a chain holding 1,000 and 100,000 accounts beyond its
// genesis: unlike a revert it scans every account (each may differ from the genesis) and writes the deletion of
// each one the genesis lacks into the slot that notifies subscribers, so it follows the number of accounts.
func BenchmarkResetNetwork(b *testing.B) {
	for _, n := range []int{1_000, 100_000} {
		b.Run(fmt.Sprintf("accounts=%d", n), func(b *testing.B) {
			l, keys := benchChain(b, n)
			ctx := context.Background()
			for b.Loop() {
				b.StopTimer()
				writeAll(b, l, keys, 1_000_000)
				b.StartTimer()
				if _, err := l.ResetNetwork(ctx); err != nil {
					b.Fatal(err)
				}
			}
			if _, ok := l.Bank(Processed).GetAccount(keys[0]); ok {
				b.Fatal("an account survived the reset")
			}
		})
	}
}

// BenchmarkDumpState measures ledgerd_dumpState of a chain of 1,000 and 100,000 accounts: one frozen slot and a
// pebble checkpoint, whose table files are hard links.
func BenchmarkDumpState(b *testing.B) {
	for _, n := range []int{1_000, 100_000} {
		b.Run(fmt.Sprintf("accounts=%d", n), func(b *testing.B) {
			l, _ := benchChain(b, n)
			ctx := context.Background()
			dir := b.TempDir()
			for i := 0; b.Loop(); i++ {
				path := filepath.Join(dir, fmt.Sprint(i))
				if _, _, err := l.DumpState(ctx, path); err != nil {
					b.Fatal(err)
				}
				b.StopTimer()
				if err := os.RemoveAll(path); err != nil {
					b.Fatal(err)
				}
				b.StartTimer()
			}
		})
	}
}
