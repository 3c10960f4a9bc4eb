package store

import (
	"context"
	"encoding/binary"
	"io/fs"
	"math/rand/v2"
	"path/filepath"
	"testing"
)

// benchKey spreads n over the key space the way real (hash-like) pubkeys are spread.
func benchKey(tag byte, n uint64) Pubkey {
	var p Pubkey
	binary.LittleEndian.PutUint64(p[:], n*0x9E3779B97F4A7C15)
	p[8] = tag
	binary.BigEndian.PutUint64(p[24:], n)
	return p
}

// settle flushes and compacts everything, so the measurement sees a steady LSM and no background work.
func settle(b *testing.B, s *Store) {
	b.Helper()
	if err := s.db.Flush(); err != nil {
		b.Fatal(err)
	}
	if err := s.db.Compact(context.Background(), []byte{0}, []byte{0xff}, true); err != nil {
		b.Fatal(err)
	}
}

func openBench(b *testing.B) *Store {
	b.Helper()
	s, err := Open(b.TempDir(), Options{})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = s.Close() })
	return s
}

// BenchmarkGetAccount reads from 200,000 token-sized accounts (about 40 MB, five times the block cache) that
// were flushed to sstables and hold two versions each. hot: the same 64 accounts (block cache hits);
// cold: uniformly random accounts (mostly block cache misses, served from the OS page cache).
func BenchmarkGetAccount(b *testing.B) {
	const n = 200_000
	s := openBench(b)
	owner := benchKey(0xEE, 0)
	data := make([]byte, 165)
	for slot := uint64(1); slot <= 2; slot++ {
		for start := uint64(0); start < n; start += 10_000 {
			batch := s.NewBatch()
			for i := start; i < start+10_000; i++ {
				batch.PutAccount(benchKey(1, i), slot, Account{Lamports: 2_039_280, Owner: owner, RentEpoch: ^uint64(0), Data: data})
			}
			if err := batch.Commit(false); err != nil {
				b.Fatal(err)
			}
		}
	}
	settle(b, s)
	rng := rand.New(rand.NewPCG(3, 4))
	run := func(b *testing.B, pick func() uint64) {
		b.ReportAllocs()
		for b.Loop() {
			_, _, found, err := s.GetAccount(benchKey(1, pick()), 2)
			if err != nil || !found {
				b.Fatal(found, err)
			}
		}
	}
	b.Run("hot", func(b *testing.B) { run(b, func() uint64 { return rng.Uint64N(64) }) })
	b.Run("cold", func(b *testing.B) { run(b, func() uint64 { return rng.Uint64N(n) }) })
	b.Run("older-version", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, slot, _, err := s.GetAccount(benchKey(1, rng.Uint64N(n)), 1); err != nil || slot != 1 {
				b.Fatal(slot, err)
			}
		}
	})
}

// BenchmarkGetProgramData reads a 134,125-byte upgradeable program data account (SPL Token 3.5.0's), flushed to
// an sstable, as every execution of the program does twice. cached: from the read cache, as between commits;
// uncached: the read cache emptied before each read, as the first read after a commit (a seek and a copy).
func BenchmarkGetProgramData(b *testing.B) {
	s := openBench(b)
	key := benchKey(2, 1)
	data := make([]byte, 134_125)
	batch := s.NewBatch()
	batch.PutAccount(key, 1, Account{Lamports: 934_000_000, Owner: benchKey(0xEE, 1), RentEpoch: ^uint64(0), Data: data})
	if err := batch.Commit(false); err != nil {
		b.Fatal(err)
	}
	settle(b, s)
	run := func(b *testing.B, empty bool) {
		b.ReportAllocs()
		for b.Loop() {
			if empty {
				s.reads.invalidate()
			}
			if a, _, found, err := s.GetAccount(key, 5); err != nil || !found || len(a.Data) != len(data) {
				b.Fatal(found, err)
			}
		}
	}
	b.Run("cached", func(b *testing.B) { run(b, false) })
	b.Run("uncached", func(b *testing.B) { run(b, true) })
}

// BenchmarkCommitSlot commits one busy slot: 100 account writes, 50 transactions (each filed under 3
// addresses), the block and 3 metadata values. commit: without sync, as every frozen slot; commit+root: also
// Root(slot-32) with its fsync, as every slot once the chain is deeper than the finalization depth.
func BenchmarkCommitSlot(b *testing.B) {
	for _, withRoot := range []bool{false, true} {
		name := "commit"
		if withRoot {
			name = "commit+root"
		}
		b.Run(name, func(b *testing.B) {
			s := openBench(b)
			rng := rand.New(rand.NewPCG(5, 6))
			data := make([]byte, 165)
			tx := make([]byte, 600)
			block := make([]byte, 2000)
			owner := benchKey(0xEE, 0)
			slot := uint64(0)
			b.ReportAllocs()
			for b.Loop() {
				slot++
				batch := s.NewBatch()
				for i := 0; i < 100; i++ {
					batch.PutAccount(benchKey(1, rng.Uint64N(10_000)), slot, Account{Lamports: slot, Owner: owner, RentEpoch: ^uint64(0), Data: data})
				}
				for i := uint32(0); i < 50; i++ {
					var sig Signature
					binary.LittleEndian.PutUint64(sig[:], slot<<8|uint64(i))
					binary.LittleEndian.PutUint64(sig[56:], rng.Uint64())
					batch.PutTransaction(sig, slot, i, tx)
					for a := 0; a < 3; a++ {
						batch.AddSignatureForAddress(benchKey(2, rng.Uint64N(1_000)), slot, i, sig)
					}
				}
				batch.PutBlock(slot, block)
				batch.SetMetaU64(MetaFrozen, slot)
				batch.SetMetaU64(MetaBlockHeight, slot)
				batch.SetMetaU64(MetaTransactionCount, slot*50)
				if err := batch.Commit(false); err != nil {
					b.Fatal(err)
				}
				if withRoot && slot > 32 {
					if err := s.Root(slot - 32); err != nil {
						b.Fatal(err)
					}
				}
			}
		})
	}
}

// BenchmarkProgramAccounts lists the accounts of a program owning 100,000 of them and of one owning 10, in the
// same database: the cost per op follows the matches (ns/match stays flat), not the size of the ledger.
func BenchmarkProgramAccounts(b *testing.B) {
	s := openBench(b)
	big, small := benchKey(0xB1, 0), benchKey(0x51, 0)
	data := make([]byte, 165)
	for start := uint64(0); start < 100_000; start += 10_000 {
		batch := s.NewBatch()
		for i := start; i < start+10_000; i++ {
			batch.PutAccount(benchKey(1, i), 1, Account{Lamports: 1, Owner: big, RentEpoch: ^uint64(0), Data: data})
			if i < 10 {
				batch.PutAccount(benchKey(3, i), 1, Account{Lamports: 1, Owner: small, RentEpoch: ^uint64(0), Data: data})
			}
		}
		if err := batch.Commit(false); err != nil {
			b.Fatal(err)
		}
	}
	settle(b, s)
	for _, tt := range []struct {
		name  string
		owner Pubkey
		want  int
	}{{"owner-of-100000", big, 100_000}, {"owner-of-10", small, 10}} {
		b.Run(tt.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				n := 0
				if err := s.ProgramAccounts(tt.owner, 1, func(Pubkey, Account) bool { n++; return true }); err != nil || n != tt.want {
					b.Fatal(n, err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(tt.want), "ns/match")
		})
	}
}

// BenchmarkIdleHour commits two hours of idle slots (9,000 an hour at 400 ms): each writes its block (300
// bytes), the clock and slot-hashes sysvars and the validator's vote account, and roots 32 slots back. It
// reports the disk held after the first hour (fixed costs included: write-ahead logs kept for recycling, the
// manifest), the growth over the second hour, and the bytes written to disk per slot (WAL, flushes, compactions).
func BenchmarkIdleHour(b *testing.B) {
	const hour = 9_000
	clock, slotHashes, vote := make([]byte, 40), make([]byte, 20_488), make([]byte, 3_762)
	block := make([]byte, 300)
	var sysvar, voteProgram Pubkey
	sysvar[0], voteProgram[0] = 6, 7
	b.ReportAllocs()
	for b.Loop() {
		dir := b.TempDir()
		s, err := Open(dir, Options{})
		if err != nil {
			b.Fatal(err)
		}
		var afterFirst int64
		for slot := uint64(1); slot <= 2*hour; slot++ {
			batch := s.NewBatch()
			batch.PutBlock(slot, block)
			batch.PutAccount(benchKey(6, 1), slot, Account{Lamports: 1, Owner: sysvar, RentEpoch: ^uint64(0), Data: clock})
			batch.PutAccount(benchKey(6, 2), slot, Account{Lamports: 1, Owner: sysvar, RentEpoch: ^uint64(0), Data: slotHashes})
			batch.PutAccount(benchKey(7, 1), slot, Account{Lamports: 1, Owner: voteProgram, RentEpoch: ^uint64(0), Data: vote})
			batch.SetMetaU64(MetaFrozen, slot)
			if err := batch.Commit(false); err != nil {
				b.Fatal(err)
			}
			if slot > 32 {
				if err := s.Root(slot - 32); err != nil {
					b.Fatal(err)
				}
			}
			if slot == hour {
				afterFirst = dirSize(b, dir)
			}
		}
		afterSecond := dirSize(b, dir)
		m := s.db.Metrics()
		written := m.WAL.BytesWritten + m.Total().TableBytesFlushed + m.Total().TableBytesCompacted
		if err := s.Close(); err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(float64(afterFirst)/(1<<20), "disk-MB@1h")
		b.ReportMetric(float64(afterSecond-afterFirst)/(1<<20), "growth-MB/h")
		b.ReportMetric(float64(written)/(2*hour), "written-B/slot")
	}
}

func dirSize(b *testing.B, dir string) int64 {
	var total int64
	err := filepath.WalkDir(dir, func(_ string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		info, err := d.Info()
		if err == nil {
			total += info.Size()
		}
		return err
	})
	if err != nil {
		b.Fatal(err)
	}
	return total
}
