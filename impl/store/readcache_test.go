package store

import (
	"bytes"
	"math"
	"sync"
	"testing"
	"unsafe"
)

func bigAcct(lamports uint64, fill byte) Account {
	return Account{Lamports: lamports, Owner: pk(0xB1), RentEpoch: math.MaxUint64,
		Data: bytes.Repeat([]byte{fill}, readCacheMinData)}
}

func mustGet(t *testing.T, s *Store, p Pubkey, at uint64) (Account, uint64) {
	t.Helper()
	a, slot, found, err := s.GetAccount(p, at)
	if err != nil || !found {
		t.Fatalf("GetAccount(%x, %d): found %v, %v", p[:2], at, found, err)
	}
	return a, slot
}

// A large account is read from memory once read: the same bytes for every reader, never a stale version.
func TestReadCache(t *testing.T) {
	s := openMem(t)
	big, small, prog := pk(1), pk(2), pk(3)
	b := s.NewBatch()
	b.PutAccount(big, 5, bigAcct(10, 'a'))
	b.PutAccount(small, 5, acct(10, pk(0xB1), "small"))
	exe := acct(10, pk(0xB1), "program")
	exe.Executable = true
	b.PutAccount(prog, 5, exe)
	commit(t, b, false)

	a1, slot := mustGet(t, s, big, 7)
	a2, _ := mustGet(t, s, big, 9)
	if slot != 5 || unsafe.SliceData(a1.Data) != unsafe.SliceData(a2.Data) {
		t.Fatalf("large account read twice: slot %d, shared %v; want slot 5 and the same bytes", slot,
			unsafe.SliceData(a1.Data) == unsafe.SliceData(a2.Data))
	}
	if cap(a1.Data) != len(a1.Data) {
		t.Fatalf("shared data has spare capacity %d > %d: an append would write into it", cap(a1.Data), len(a1.Data))
	}
	p1, _ := mustGet(t, s, prog, 7)
	p2, _ := mustGet(t, s, prog, 7)
	if unsafe.SliceData(p1.Data) != unsafe.SliceData(p2.Data) {
		t.Fatal("executable account not cached")
	}
	s1, _ := mustGet(t, s, small, 7)
	s2, _ := mustGet(t, s, small, 7)
	if unsafe.SliceData(s1.Data) == unsafe.SliceData(s2.Data) {
		t.Fatal("small account cached")
	}
	if _, _, found, _ := s.GetAccount(big, 4); found {
		t.Fatal("read below the cached version's slot found it")
	}

	// A new version replaces it for reads at or above its slot; reads below still see the old one.
	b = s.NewBatch()
	b.PutAccount(big, 8, bigAcct(11, 'b'))
	commit(t, b, false)
	if a, slot := mustGet(t, s, big, 9); slot != 8 || a.Data[0] != 'b' || a.Lamports != 11 {
		t.Fatalf("after a new version: slot %d %q", slot, a.Data[:1])
	}
	// A read below the newest version finds the older one and must not cache it for the reads above.
	if a, slot := mustGet(t, s, big, 7); slot != 5 || a.Data[0] != 'a' {
		t.Fatalf("read at 7: slot %d %q", slot, a.Data[:1])
	}
	if a, slot := mustGet(t, s, big, 100); slot != 8 || a.Data[0] != 'b' {
		t.Fatalf("read at 100 after a read at 7: slot %d %q", slot, a.Data[:1])
	}

	// A deletion hides it.
	b = s.NewBatch()
	b.PutAccount(big, 12, Account{})
	commit(t, b, false)
	if _, slot, found, _ := s.GetAccount(big, 12); found || slot != 12 {
		t.Fatalf("deleted account: found %v at %d", found, slot)
	}

	// A revert brings the older version back.
	if _, err := s.RevertAbove(8, nil, nil); err != nil {
		t.Fatal(err)
	}
	if a, slot := mustGet(t, s, big, 100); slot != 8 || a.Data[0] != 'b' {
		t.Fatalf("after revert to 8: slot %d %q", slot, a.Data[:1])
	}
	if _, err := s.RevertAbove(5, nil, nil); err != nil {
		t.Fatal(err)
	}
	if a, slot := mustGet(t, s, big, 100); slot != 5 || a.Data[0] != 'a' {
		t.Fatalf("after revert to 5: slot %d %q", slot, a.Data[:1])
	}
}

// A read that began before a commit cannot put back the version the commit replaced.
func TestReadCacheRace(t *testing.T) {
	t.Parallel()
	s := openMem(t)
	const slots = 60
	keys := []Pubkey{pk(1), pk(2), pk(3)}
	var wg sync.WaitGroup
	done := make(chan struct{})
	var mu sync.Mutex
	committed := uint64(0) // the newest slot whose commit returned
	for r := 0; r < 4; r++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				select {
				case <-done:
					return
				default:
				}
				mu.Lock()
				at := committed
				mu.Unlock()
				for _, k := range keys {
					a, slot, found, err := s.GetAccount(k, math.MaxUint64)
					if err != nil || (found && (slot < at || a.Lamports != slot || a.Data[0] != byte(slot))) {
						t.Errorf("account %x after the commit of %d: lamports %d @%d, %v", k[:1], at, a.Lamports, slot, err)
						return
					}
				}
			}
		}()
	}
	for slot := uint64(1); slot <= slots; slot++ {
		b := s.NewBatch()
		for _, k := range keys {
			b.PutAccount(k, slot, bigAcct(slot, byte(slot)))
		}
		commit(t, b, false)
		mu.Lock()
		committed = slot
		mu.Unlock()
	}
	close(done)
	wg.Wait()
}
