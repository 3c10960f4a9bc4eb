package store

import (
	"bytes"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"sync"
	"testing"

	"github.com/cockroachdb/pebble/v2/vfs"
)

func pk(b ...byte) Pubkey {
	var p Pubkey
	copy(p[:], b)
	return p
}

func sigOf(b ...byte) Signature {
	var s Signature
	copy(s[:], b)
	return s
}

func openMem(t testing.TB) *Store {
	t.Helper()
	s, err := Open("mem", Options{InMemory: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Close() })
	return s
}

func commit(t testing.TB, b *Batch, sync bool) {
	t.Helper()
	if err := b.Commit(sync); err != nil {
		t.Fatal(err)
	}
}

func acct(lamports uint64, owner Pubkey, data string) Account {
	var d []byte
	if data != "" {
		d = []byte(data)
	}
	return Account{Lamports: lamports, Owner: owner, RentEpoch: math.MaxUint64, Data: d}
}

func TestAccountEncoding(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		a    Account
	}{
		{"system owned, rent exempt, no data", Account{Lamports: 1, RentEpoch: math.MaxUint64}},
		{"program owned with data", Account{Lamports: 1_000_000_000, Owner: pk(9, 9), RentEpoch: math.MaxUint64, Data: []byte{1, 2, 3}}},
		{"executable", Account{Lamports: 1, Owner: pk(2), Executable: true, RentEpoch: 0, Data: []byte("elf")}},
		{"max lamports, small rent epoch", Account{Lamports: math.MaxUint64, RentEpoch: 361}},
		{"rent epoch max-1", Account{Lamports: 5, RentEpoch: math.MaxUint64 - 1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			enc := appendAccount(nil, &tt.a)
			got, deleted, err := decodeAccount(enc)
			if err != nil || deleted {
				t.Fatalf("decode(%x) = deleted %v, err %v", enc, deleted, err)
			}
			if !reflect.DeepEqual(got, tt.a) {
				t.Errorf("round trip: got %+v, want %+v", got, tt.a)
			}
		})
	}

	if enc := appendAccount(nil, &Account{Owner: pk(1), Data: []byte("x")}); !bytes.Equal(enc, []byte{formatTombstone}) {
		t.Errorf("zero lamports encodes as %x, want a bare tombstone", enc)
	}
	if small := appendAccount(nil, &Account{Lamports: 1, RentEpoch: math.MaxUint64}); len(small) != 3 {
		t.Errorf("a plain system account takes %d bytes, want 3", len(small))
	}

	corrupt := []struct {
		name string
		v    []byte
	}{
		{"empty", nil},
		{"unknown format", []byte{7}},
		{"tombstone with payload", []byte{formatTombstone, 1}},
		{"no flags", []byte{formatAccount}},
		{"unknown flag", []byte{formatAccount, 0x80, 1}},
		{"zero lamports", []byte{formatAccount, flagSystemOwner | flagRentEpochMax, 0}},
		{"truncated lamports", []byte{formatAccount, flagSystemOwner | flagRentEpochMax, 0x80}},
		{"truncated owner", []byte{formatAccount, flagRentEpochMax, 1, 1, 2, 3}},
		{"missing rent epoch", []byte{formatAccount, flagSystemOwner, 1}},
	}
	for _, tt := range corrupt {
		if _, _, err := decodeAccount(tt.v); err == nil {
			t.Errorf("%s: decode(%x) succeeded, want an error", tt.name, tt.v)
		}
	}
}

func FuzzDecodeAccount(f *testing.F) {
	f.Add([]byte{formatTombstone})
	f.Add(appendAccount(nil, &Account{Lamports: 7, Owner: pk(1), RentEpoch: 3, Data: []byte("data")}))
	f.Add(appendAccount(nil, &Account{Lamports: 7, Executable: true, RentEpoch: math.MaxUint64}))
	f.Fuzz(func(t *testing.T, v []byte) {
		a, deleted, err := decodeAccount(v)
		if err != nil || deleted {
			return
		}
		again, deleted, err := decodeAccount(appendAccount(nil, &a))
		if err != nil || deleted || !reflect.DeepEqual(a, again) {
			t.Fatalf("re-encoding %+v gives %+v, %v, %v", a, again, deleted, err)
		}
	})
}

func TestGetAccountVersions(t *testing.T) {
	t.Parallel()
	s := openMem(t)
	p := pk(5)
	before, after := pk(4, 0xff), pk(5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1)
	b := s.NewBatch()
	b.PutAccount(before, 1, acct(1, Pubkey{}, ""))
	b.PutAccount(after, 20, acct(2, Pubkey{}, ""))
	b.PutAccount(p, 5, acct(10, pk(1), "five"))
	b.PutAccount(p, 8, acct(20, pk(1), "eight"))
	b.PutAccount(p, 12, Account{}) // deleted
	b.PutAccount(p, 15, acct(30, pk(2), ""))
	commit(t, b, false)

	tests := []struct {
		at       uint64
		lamports uint64
		slot     uint64
		found    bool
	}{
		{0, 0, 0, false},
		{4, 0, 0, false},
		{5, 10, 5, true},
		{7, 10, 5, true},
		{8, 20, 8, true},
		{11, 20, 8, true},
		{12, 0, 12, false},
		{14, 0, 12, false},
		{15, 30, 15, true},
		{math.MaxUint64, 30, 15, true},
	}
	for _, tt := range tests {
		a, slot, found, err := s.GetAccount(p, tt.at)
		if err != nil {
			t.Fatal(err)
		}
		if found != tt.found || slot != tt.slot || a.Lamports != tt.lamports {
			t.Errorf("GetAccount(at %d) = %d lamports @%d found %v, want %d @%d found %v",
				tt.at, a.Lamports, slot, found, tt.lamports, tt.slot, tt.found)
		}
	}
	if a, _, _, _ := s.GetAccount(p, 9); string(a.Data) != "eight" || a.Owner != pk(1) {
		t.Errorf("GetAccount(at 9) = %+v, want the slot 8 version", a)
	}
	if _, _, found, _ := s.GetAccount(pk(6), math.MaxUint64); found {
		t.Error("an account never written was found")
	}
}

func TestScanAccounts(t *testing.T) {
	t.Parallel()
	s := openMem(t)
	b := s.NewBatch()
	b.PutAccount(pk(1), 1, acct(1, Pubkey{}, ""))
	b.PutAccount(pk(1), 9, acct(9, Pubkey{}, ""))
	b.PutAccount(pk(2), 9, acct(2, Pubkey{}, "")) // only above 5
	b.PutAccount(pk(3), 2, acct(3, Pubkey{}, ""))
	b.PutAccount(pk(3), 4, Account{}) // deleted at 4
	b.PutAccount(pk(4), 3, acct(4, Pubkey{}, ""))
	commit(t, b, false)

	scan := func(at uint64, stopAfter int) []string {
		var got []string
		err := s.ScanAccounts(at, func(p Pubkey, slot uint64, a Account) bool {
			got = append(got, fmt.Sprintf("%d:%d@%d", p[0], a.Lamports, slot))
			return len(got) != stopAfter
		})
		if err != nil {
			t.Fatal(err)
		}
		return got
	}
	tests := []struct {
		at        uint64
		stopAfter int
		want      []string
	}{
		{0, 0, nil},
		{3, 0, []string{"1:1@1", "3:3@2", "4:4@3"}},
		{5, 0, []string{"1:1@1", "4:4@3"}},
		{9, 0, []string{"1:9@9", "2:2@9", "4:4@3"}},
		{9, 2, []string{"1:9@9", "2:2@9"}},
	}
	for _, tt := range tests {
		if got := scan(tt.at, tt.stopAfter); !slices.Equal(got, tt.want) {
			t.Errorf("ScanAccounts(%d) = %v, want %v", tt.at, got, tt.want)
		}
	}
}

// model is the reference the pruning test compares against: every version ever written.
type model map[Pubkey]map[uint64]Account

func (m model) at(p Pubkey, slot uint64) (Account, uint64, bool) {
	best, ok := uint64(0), false
	for s := range m[p] {
		if s <= slot && (!ok || s > best) {
			best, ok = s, true
		}
	}
	if !ok {
		return Account{}, 0, false
	}
	a := m[p][best]
	return a, best, a.Lamports != 0
}

// TestRootPruning writes random histories and roots with a lag, checking after every root that reads at and
// above the root are unchanged, that nothing shadowed remains below it, and that Root only visits the accounts
// written since the previous root.
func TestRootPruning(t *testing.T) {
	t.Parallel()
	const (
		accounts = 24
		slots    = 80
		lag      = 5
	)
	rng := rand.New(rand.NewPCG(1, 2))
	s := openMem(t)
	m := model{}
	owners := []Pubkey{pk(0xA1), pk(0xA2), pk(0xA3)}
	dirtySince := map[uint64]map[Pubkey]bool{}
	lastRoot := int64(-1)

	for slot := uint64(1); slot <= slots; slot++ {
		b := s.NewBatch()
		dirtySince[slot] = map[Pubkey]bool{}
		for i := 0; i < accounts; i++ {
			if rng.IntN(3) != 0 {
				continue
			}
			p := pk(byte(i), 0x77)
			a := acct(uint64(rng.IntN(4)), owners[rng.IntN(len(owners))], fmt.Sprint(slot)) // 1 in 4 deletes
			if a.Lamports == 0 {
				a = Account{}
			}
			b.PutAccount(p, slot, a)
			if m[p] == nil {
				m[p] = map[uint64]Account{}
			}
			m[p][slot] = a
			dirtySince[slot][p] = true
		}
		commit(t, b, false)

		if slot <= lag {
			continue
		}
		root := slot - lag
		if err := s.Root(root); err != nil {
			t.Fatal(err)
		}
		wantVisited := map[Pubkey]bool{}
		for sl := uint64(lastRoot + 1); sl <= root; sl++ {
			for p := range dirtySince[sl] {
				wantVisited[p] = true
			}
		}
		if s.rootStats.accounts != len(wantVisited) {
			t.Fatalf("Root(%d) visited %d accounts, want the %d written since the previous root", root, s.rootStats.accounts, len(wantVisited))
		}
		lastRoot = int64(root)

		for i := 0; i < accounts; i++ {
			p := pk(byte(i), 0x77)
			for at := root; at <= slot+1; at++ {
				wantA, wantSlot, wantFound := m.at(p, at)
				gotA, gotSlot, gotFound, err := s.GetAccount(p, at)
				if err != nil {
					t.Fatal(err)
				}
				if gotFound != wantFound || (wantFound && (gotSlot != wantSlot || !reflect.DeepEqual(gotA, wantA))) {
					t.Fatalf("root %d: account %d at %d = %+v @%d %v, want %+v @%d %v",
						root, i, at, gotA, gotSlot, gotFound, wantA, wantSlot, wantFound)
				}
			}
			// Below the root at most one version may remain, and never a deletion.
			var below []uint64
			rawVersions(t, s, p, func(slot uint64, deleted bool) {
				if slot <= root {
					below = append(below, slot)
					if deleted {
						t.Errorf("root %d: account %d keeps a deletion at %d", root, i, slot)
					}
				}
			})
			if len(below) > 1 {
				t.Errorf("root %d: account %d keeps versions %v at or below the root", root, i, below)
			}
		}
		for _, owner := range owners {
			checkProgramAccounts(t, s, m, owner, root, slot)
		}
	}

	// Root everything: then the owner index holds exactly the live accounts under their owners.
	if err := s.Root(slots); err != nil {
		t.Fatal(err)
	}
	for _, owner := range owners {
		var candidates []Pubkey
		if err := s.IndexScan(IndexProgramOwner, owner, func(p Pubkey) bool { candidates = append(candidates, p); return true }); err != nil {
			t.Fatal(err)
		}
		var want []Pubkey
		for i := 0; i < accounts; i++ {
			p := pk(byte(i), 0x77)
			if a, _, found := m.at(p, slots); found && a.Owner == owner {
				want = append(want, p)
			}
		}
		if !slices.Equal(candidates, want) {
			t.Errorf("owner %x: index holds %d candidates after rooting everything, want exactly the %d live ones",
				owner[0], len(candidates), len(want))
		}
	}
	// A second Root at the same slot is a no-op.
	if err := s.Root(slots); err != nil {
		t.Fatal(err)
	}
	if root, _, _ := s.LatestRoot(); root != slots {
		t.Errorf("LatestRoot = %d, want %d", root, slots)
	}
}

func checkProgramAccounts(t *testing.T, s *Store, m model, owner Pubkey, from, to uint64) {
	t.Helper()
	for at := from; at <= to; at++ {
		var got []Pubkey
		err := s.ProgramAccounts(owner, at, func(p Pubkey, a Account) bool {
			if a.Owner != owner {
				t.Errorf("ProgramAccounts(%x) yielded an account of %x", owner[0], a.Owner[0])
			}
			got = append(got, p)
			return true
		})
		if err != nil {
			t.Fatal(err)
		}
		var want []Pubkey
		for p := range m {
			if a, _, found := m.at(p, at); found && a.Owner == owner {
				want = append(want, p)
			}
		}
		slices.SortFunc(want, func(a, b Pubkey) int { return bytes.Compare(a[:], b[:]) })
		if !slices.Equal(got, want) {
			t.Fatalf("ProgramAccounts(%x, at %d) = %d accounts, want %d", owner[0], at, len(got), len(want))
		}
	}
}

// rawVersions calls fn with every stored version of p, newest first.
func rawVersions(t *testing.T, s *Store, p Pubkey, fn func(slot uint64, deleted bool)) {
	t.Helper()
	prefix := append([]byte{spaceAccount}, p[:]...)
	it, err := s.db.NewIter(nil)
	if err != nil {
		t.Fatal(err)
	}
	defer it.Close()
	for valid := it.SeekGE(prefix); valid && bytes.HasPrefix(it.Key(), prefix); valid = it.Next() {
		fn(accountKeySlot(it.Key()), it.Value()[0] == formatTombstone)
	}
}

func TestIndexRecheck(t *testing.T) {
	t.Parallel()
	s := openMem(t)
	progX, progY := pk(0xE1), pk(0xE2)
	mintA, mintB, wallet := pk(0xC1), pk(0xC2), pk(0xD1)
	moved, tok, gone, later := pk(1), pk(2), pk(3), pk(4)

	b := s.NewBatch()
	b.PutAccount(moved, 1, acct(5, progX, ""))
	b.PutAccount(tok, 1, acct(5, progX, "token"))
	b.AddIndex(IndexTokenMint, mintA, tok)
	b.AddIndex(IndexTokenOwner, wallet, tok)
	b.PutAccount(gone, 1, acct(5, progX, "token"))
	b.AddIndex(IndexTokenMint, mintA, gone)
	b.PutAccount(later, 1, acct(5, progX, ""))
	commit(t, b, false)

	b = s.NewBatch()
	b.PutAccount(moved, 3, acct(5, progY, ""))     // changes owner
	b.AddIndex(IndexTokenOwner, wallet, tok)       // asserted before the write below: still this version's
	b.PutAccount(tok, 3, acct(6, progX, "token2")) // same owner, moves to mint B
	b.AddIndex(IndexTokenMint, mintB, tok)
	b.PutAccount(gone, 3, Account{}) // deleted
	commit(t, b, false)

	b = s.NewBatch()
	b.PutAccount(later, 5, acct(5, progY, "")) // changes owner above the root used below
	commit(t, b, false)

	programAccounts := func(owner Pubkey, at uint64) []byte {
		var got []byte
		if err := s.ProgramAccounts(owner, at, func(p Pubkey, _ Account) bool { got = append(got, p[0]); return true }); err != nil {
			t.Fatal(err)
		}
		return got
	}
	scan := func(kind IndexKind, key Pubkey) []byte {
		var got []byte
		if err := s.IndexScan(kind, key, func(p Pubkey) bool { got = append(got, p[0]); return true }); err != nil {
			t.Fatal(err)
		}
		return got
	}

	type check struct {
		name string
		got  func() []byte
		want []byte
	}
	before := []check{
		{"program X at 2", func() []byte { return programAccounts(progX, 2) }, []byte{1, 2, 3, 4}},
		{"program X at 3 drops stale candidates", func() []byte { return programAccounts(progX, 3) }, []byte{2, 4}},
		{"program Y at 3", func() []byte { return programAccounts(progY, 3) }, []byte{1}},
		{"program Y at 5", func() []byte { return programAccounts(progY, 5) }, []byte{1, 4}},
		{"candidates of X before root", func() []byte { return scan(IndexProgramOwner, progX) }, []byte{1, 2, 3, 4}},
		{"candidates of mint A before root", func() []byte { return scan(IndexTokenMint, mintA) }, []byte{2, 3}},
	}
	after := []check{
		{"program X at 3", func() []byte { return programAccounts(progX, 3) }, []byte{2, 4}},
		{"program Y at 5", func() []byte { return programAccounts(progY, 5) }, []byte{1, 4}},
		{"candidates of X", func() []byte { return scan(IndexProgramOwner, progX) }, []byte{2, 4}},
		{"candidates of Y", func() []byte { return scan(IndexProgramOwner, progY) }, []byte{1, 4}},
		{"candidates of mint A", func() []byte { return scan(IndexTokenMint, mintA) }, nil},
		{"candidates of mint B", func() []byte { return scan(IndexTokenMint, mintB) }, []byte{2}},
		{"candidates of the wallet", func() []byte { return scan(IndexTokenOwner, wallet) }, []byte{2}},
	}
	for _, c := range before {
		if got := c.got(); !bytes.Equal(got, c.want) {
			t.Errorf("before root: %s = %v, want %v", c.name, got, c.want)
		}
	}
	if err := s.Root(3); err != nil {
		t.Fatal(err)
	}
	for _, c := range after {
		if got := c.got(); !bytes.Equal(got, c.want) {
			t.Errorf("after root 3: %s = %v, want %v", c.name, got, c.want)
		}
	}
	if err := s.IndexScan(IndexKind('?'), mintA, func(Pubkey) bool { return true }); err == nil {
		t.Error("IndexScan of an unknown kind succeeded")
	}
}

func TestSignaturesForAddress(t *testing.T) {
	t.Parallel()
	s := openMem(t)
	addr, other := pk(0xAA), pk(0xAB)
	// (slot, index) pairs, written out of order.
	writes := [][2]uint64{{3, 0}, {1, 0}, {1, 1}, {3, 2}, {2, 0}, {3, 1}, {7, 0}}
	b := s.NewBatch()
	for _, w := range writes {
		b.AddSignatureForAddress(addr, w[0], uint32(w[1]), sigOf(byte(w[0]), byte(w[1])))
	}
	b.AddSignatureForAddress(other, 5, 0, sigOf(0xFF))
	commit(t, b, false)

	tests := []struct {
		name   string
		before *SigCursor
		limit  int
		want   [][2]uint64
	}{
		{"all", nil, 0, [][2]uint64{{7, 0}, {3, 2}, {3, 1}, {3, 0}, {2, 0}, {1, 1}, {1, 0}}},
		{"limit", nil, 3, [][2]uint64{{7, 0}, {3, 2}, {3, 1}}},
		{"before a middle entry", &SigCursor{3, 1}, 2, [][2]uint64{{3, 0}, {2, 0}}},
		{"before the newest", &SigCursor{7, 0}, 1, [][2]uint64{{3, 2}}},
		{"before the oldest", &SigCursor{1, 0}, 0, nil},
		{"commitment cut at slot 3", &SigCursor{4, 0}, 0, [][2]uint64{{3, 2}, {3, 1}, {3, 0}, {2, 0}, {1, 1}, {1, 0}}},
		{"cursor not in the list", &SigCursor{3, 5}, 0, [][2]uint64{{3, 2}, {3, 1}, {3, 0}, {2, 0}, {1, 1}, {1, 0}}},
	}
	for _, tt := range tests {
		got, err := s.SignaturesForAddress(addr, tt.before, tt.limit)
		if err != nil {
			t.Fatal(err)
		}
		var gotPairs [][2]uint64
		for _, e := range got {
			if e.Signature != sigOf(byte(e.Slot), byte(e.Index)) {
				t.Errorf("%s: entry %d/%d carries the wrong signature", tt.name, e.Slot, e.Index)
			}
			gotPairs = append(gotPairs, [2]uint64{e.Slot, uint64(e.Index)})
		}
		if !slices.Equal(gotPairs, tt.want) {
			t.Errorf("%s: got %v, want %v", tt.name, gotPairs, tt.want)
		}
	}
	got, _ := s.SignaturesForAddress(other, nil, 10)
	if len(got) != 1 || got[0].Signature != sigOf(0xFF) {
		t.Errorf("other address: got %v, want its single entry", got)
	}
	if got, _ := s.SignaturesForAddress(pk(0xAC), nil, 10); len(got) != 0 {
		t.Errorf("unused address: got %v, want none", got)
	}
}

func TestBlocksAndTransactions(t *testing.T) {
	t.Parallel()
	s := openMem(t)
	if _, found, err := s.FirstBlock(); found || err != nil {
		t.Fatalf("FirstBlock of an empty store = %v, %v", found, err)
	}
	b := s.NewBatch()
	for _, slot := range []uint64{4, 5, 7, 10, 11, 300} {
		b.PutBlock(slot, []byte(fmt.Sprint("block", slot)))
	}
	b.PutTransaction(sigOf(1), 7, 3, []byte("tx"))
	b.PutTransaction(sigOf(2), 7, 4, nil)
	commit(t, b, false)

	ranges := []struct {
		start, end uint64
		limit      int
		want       []uint64
	}{
		{0, math.MaxUint64, 0, []uint64{4, 5, 7, 10, 11, 300}},
		{5, 10, 0, []uint64{5, 7, 10}},
		{6, 6, 0, nil},
		{5, 300, 2, []uint64{5, 7}},
		{11, 4, 0, nil},
		{301, 400, 0, nil},
	}
	for _, tt := range ranges {
		got, err := s.BlocksInRange(tt.start, tt.end, tt.limit)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("BlocksInRange(%d, %d, %d) = %v, want %v", tt.start, tt.end, tt.limit, got, tt.want)
		}
	}
	if first, found, _ := s.FirstBlock(); !found || first != 4 {
		t.Errorf("FirstBlock = %d %v, want 4", first, found)
	}
	if last, found, _ := s.LastBlock(); !found || last != 300 {
		t.Errorf("LastBlock = %d %v, want 300", last, found)
	}
	if blk, found, _ := s.GetBlock(10); !found || string(blk) != "block10" {
		t.Errorf("GetBlock(10) = %q %v", blk, found)
	}
	if _, found, _ := s.GetBlock(6); found {
		t.Error("GetBlock(6) found a block never written")
	}
	if rec, found, _ := s.GetTransaction(sigOf(1)); !found || rec.Slot != 7 || rec.Index != 3 || string(rec.Data) != "tx" {
		t.Errorf("GetTransaction(1) = %+v %v", rec, found)
	}
	if rec, found, _ := s.GetTransaction(sigOf(2)); !found || rec.Index != 4 || len(rec.Data) != 0 {
		t.Errorf("GetTransaction(2) = %+v %v", rec, found)
	}
	if _, found, _ := s.GetTransaction(sigOf(3)); found {
		t.Error("GetTransaction found a signature never written")
	}
}

func TestMeta(t *testing.T) {
	t.Parallel()
	s := openMem(t)
	b := s.NewBatch()
	b.SetMeta(MetaGenesis, []byte("genesis"))
	b.SetMeta("empty", nil)
	b.SetMetaU64(MetaBlockHeight, 42)
	commit(t, b, false)
	if v, found, _ := s.GetMeta(MetaGenesis); !found || string(v) != "genesis" {
		t.Errorf("GetMeta(genesis) = %q %v", v, found)
	}
	if v, found, _ := s.GetMeta("empty"); !found || len(v) != 0 {
		t.Errorf("GetMeta(empty) = %q %v, want found and empty", v, found)
	}
	if v, found, _ := s.GetMetaU64(MetaBlockHeight); !found || v != 42 {
		t.Errorf("GetMetaU64(block-height) = %d %v", v, found)
	}
	if _, found, err := s.GetMetaU64(MetaFrozen); found || err != nil {
		t.Errorf("GetMetaU64 of a missing name = %v, %v", found, err)
	}
	if _, _, err := s.GetMetaU64(MetaGenesis); err == nil {
		t.Error("GetMetaU64 of a non-u64 value succeeded")
	}
}

func TestBatchMisuse(t *testing.T) {
	t.Parallel()
	s := openMem(t)
	b := s.NewBatch()
	b.PutBlock(1, nil)
	commit(t, b, false)
	if err := b.Commit(false); err != ErrBatchDone {
		t.Errorf("second Commit = %v, want ErrBatchDone", err)
	}
	b = s.NewBatch()
	b.AddIndex(IndexKind(0), pk(1), pk(2))
	b.PutBlock(2, nil)
	if err := b.Commit(false); err == nil {
		t.Error("Commit with an unknown index kind succeeded")
	}
	if _, found, _ := s.GetBlock(2); found {
		t.Error("a failed batch was partly applied")
	}
	b = s.NewBatch()
	b.PutBlock(3, nil)
	b.Discard()
	if _, found, _ := s.GetBlock(3); found {
		t.Error("a discarded batch was applied")
	}
}

// fill writes a small ledger and returns a function that checks it.
func fill(t *testing.T, s *Store) func(t *testing.T, s *Store) {
	b := s.NewBatch()
	b.PutAccount(pk(1), 1, acct(10, pk(9), "one"))
	b.PutAccount(pk(1), 2, acct(11, pk(9), "two"))
	b.PutBlock(2, []byte("b2"))
	b.PutTransaction(sigOf(7), 2, 0, []byte("t"))
	b.AddSignatureForAddress(pk(1), 2, 0, sigOf(7))
	b.AddIndex(IndexTokenMint, pk(8), pk(1))
	b.SetMetaU64(MetaFrozen, 2)
	commit(t, b, true)
	return func(t *testing.T, s *Store) {
		t.Helper()
		if a, slot, found, err := s.GetAccount(pk(1), 2); err != nil || !found || slot != 2 || string(a.Data) != "two" {
			t.Errorf("account at 2 = %+v @%d %v %v", a, slot, found, err)
		}
		if a, _, found, _ := s.GetAccount(pk(1), 1); !found || string(a.Data) != "one" {
			t.Errorf("account at 1 = %+v %v", a, found)
		}
		if blk, found, _ := s.GetBlock(2); !found || string(blk) != "b2" {
			t.Errorf("block 2 = %q %v", blk, found)
		}
		if rec, found, _ := s.GetTransaction(sigOf(7)); !found || string(rec.Data) != "t" {
			t.Errorf("transaction = %+v %v", rec, found)
		}
		if sigs, _ := s.SignaturesForAddress(pk(1), nil, 0); len(sigs) != 1 {
			t.Errorf("signatures = %v", sigs)
		}
		var n int
		_ = s.IndexScan(IndexTokenMint, pk(8), func(Pubkey) bool { n++; return true })
		if n != 1 {
			t.Errorf("mint index holds %d candidates, want 1", n)
		}
		if v, found, _ := s.GetMetaU64(MetaFrozen); !found || v != 2 {
			t.Errorf("frozen = %d %v", v, found)
		}
	}
}

func TestReopen(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	s, err := Open(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	check := fill(t, s)
	if err := s.Root(1); err != nil {
		t.Fatal(err)
	}
	b := s.NewBatch()
	b.PutAccount(pk(1), 3, acct(12, pk(9), "three"))
	commit(t, b, false) // not synced: Close must still keep it
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Errorf("second Close = %v", err)
	}

	s, err = Open(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	check(t, s)
	if a, _, found, _ := s.GetAccount(pk(1), 3); !found || string(a.Data) != "three" {
		t.Errorf("account at 3 after reopen = %+v %v", a, found)
	}
	// The dirty floor survived: the next Root visits only the account written after root 1.
	if err := s.Root(3); err != nil {
		t.Fatal(err)
	}
	// Versions 1 and 2 are shadowed; the mint entry was not asserted again at 3; the owner entry was.
	if want := (rootStats{accounts: 1, versionsDeleted: 2, indexesDeleted: 1}); s.rootStats != want {
		t.Errorf("Root(3) after reopen: %+v, want %+v", s.rootStats, want)
	}
}

// TestCrashWithoutClose takes a copy of the directory of a store that was never closed, as a SIGKILL would leave
// it, and opens the copy: what was committed with sync is there.
func TestCrashWithoutClose(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	s, err := Open(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	check := fill(t, s) // commits with sync
	b := s.NewBatch()
	b.PutBlock(3, []byte("b3"))
	commit(t, b, false)
	if err := s.Root(1); err != nil { // syncs, and so makes block 3 durable too
		t.Fatal(err)
	}

	crashed := t.TempDir()
	copyDir(t, dir, crashed)
	// The handle is dropped without Close; it is closed only after the copy has been opened and read.
	defer s.Close()

	c, err := Open(crashed, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	check(t, c)
	if blk, found, _ := c.GetBlock(3); !found || string(blk) != "b3" {
		t.Errorf("block 3 (before a synced Root) = %q %v", blk, found)
	}
	if root, found, _ := c.LatestRoot(); !found || root != 1 {
		t.Errorf("LatestRoot = %d %v, want 1", root, found)
	}
}

func copyDir(t *testing.T, from, to string) {
	t.Helper()
	entries, err := os.ReadDir(from)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if e.IsDir() || e.Name() == "LOCK" {
			continue
		}
		src, err := os.Open(filepath.Join(from, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		dst, err := os.Create(filepath.Join(to, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := io.Copy(dst, src); err != nil {
			t.Fatal(err)
		}
		src.Close()
		if err := dst.Close(); err != nil {
			t.Fatal(err)
		}
	}
}

// TestCrashLosesOnlyUnsynced uses a file system that forgets every write not synced, as power loss would.
func TestCrashLosesOnlyUnsynced(t *testing.T) {
	t.Parallel()
	fs := vfs.NewCrashableMem()
	open := func() *Store {
		s, err := Open("db", Options{FS: fs})
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	s := open()
	b := s.NewBatch()
	b.PutBlock(1, []byte("synced"))
	commit(t, b, true)
	b = s.NewBatch()
	b.PutBlock(2, []byte("unsynced"))
	commit(t, b, false)

	crashed := fs.CrashClone(vfs.CrashCloneCfg{}) // only what was synced: power lost here
	_ = s.Close()
	fs = crashed

	s = open()
	if _, found, _ := s.GetBlock(1); !found {
		t.Error("a block committed with sync was lost")
	}
	if _, found, _ := s.GetBlock(2); found {
		t.Error("a block committed without sync survived a crash that dropped unsynced writes; the test no longer tests anything")
	}

	// Root is the durability point of what came before it.
	b = s.NewBatch()
	b.PutBlock(4, []byte("rooted"))
	b.PutAccount(pk(1), 4, acct(1, Pubkey{}, ""))
	commit(t, b, false)
	if err := s.Root(4); err != nil {
		t.Fatal(err)
	}
	crashed = fs.CrashClone(vfs.CrashCloneCfg{})
	_ = s.Close()
	fs = crashed

	s = open()
	defer s.Close()
	if _, found, _ := s.GetBlock(4); !found {
		t.Error("a block committed before a Root was lost")
	}
	if _, _, found, _ := s.GetAccount(pk(1), 4); !found {
		t.Error("an account committed before a Root was lost")
	}
	if root, _, _ := s.LatestRoot(); root != 4 {
		t.Errorf("LatestRoot = %d, want 4", root)
	}
}

// TestConcurrentReaders reads while the writer commits and roots (run with -race).
func TestConcurrentReaders(t *testing.T) {
	t.Parallel()
	s := openMem(t)
	const slots = 40
	var wg sync.WaitGroup
	done := make(chan struct{})
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
				root, _, err := s.LatestRoot()
				if err != nil {
					t.Error(err)
					return
				}
				// Every account holds lamports = the slot that wrote it: a read at the root sees exactly that.
				for i := byte(0); i < 8; i++ {
					a, slot, found, err := s.GetAccount(pk(i), root)
					if err != nil || (found && a.Lamports != slot) {
						t.Errorf("account %d at %d = %+v @%d, %v", i, root, a, slot, err)
						return
					}
				}
				_ = s.ProgramAccounts(pk(0xEE), root, func(Pubkey, Account) bool { return true })
				_, _ = s.SignaturesForAddress(pk(0), nil, 5)
			}
		}()
	}
	for slot := uint64(1); slot <= slots; slot++ {
		b := s.NewBatch()
		for i := byte(0); i < 8; i++ {
			b.PutAccount(pk(i), slot, acct(slot, pk(0xEE), ""))
			b.AddSignatureForAddress(pk(i), slot, uint32(i), sigOf(i))
		}
		commit(t, b, false)
		if slot > 2 {
			if err := s.Root(slot - 2); err != nil {
				t.Fatal(err)
			}
		}
	}
	close(done)
	wg.Wait()
}
