package ledger

import (
	"context"
	"encoding/binary"
	"errors"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/cockroachdb/pebble/v2/vfs"

	"ledgerd/impl/core"
	"ledgerd/impl/runtime"
	"ledgerd/impl/store"
)

// wantStorageError checks that err is the -32603 a JSON-RPC caller gets for a store failure.
func wantStorageError(t *testing.T, what string, err error) {
	t.Helper()
	var se *StorageError
	if !errors.As(err, &se) || se.ErrorCode() != -32603 {
		t.Fatalf("%s: %v, want a storage error (-32603)", what, err)
	}
}

// A full disk: the producer's persist fails, the slot it froze is not reported confirmed (nor anything rooted),
// the node reports the fault, writes fail at once with a clear error, nothing panics while idle, and once
// there is room again production resumes with nothing lost, across a restart too.
func TestDiskFullHoldsTheSlotAndResumes(t *testing.T) {
	dir := t.TempDir()
	fs := store.NewFullFS(vfs.Default)
	l, err := Open(Config{Dir: dir, SlotDuration: 5 * time.Millisecond, FinalityDepth: 2, StoreFS: fs})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	ctx := context.Background()
	alice := newKey(t).PublicKey()
	if _, err := l.Airdrop(ctx, alice, LamportsPerSOL); err != nil {
		t.Fatal(err)
	}

	fs.SetLow(true)
	waitFor(t, "the fault", func() bool { return l.StorageFault() != nil })
	_, confirmed, root := l.Slots()
	start := time.Now()
	_, err = l.Airdrop(ctx, alice, LamportsPerSOL)
	wantStorageError(t, "airdrop on a full disk", err)
	tx := core.NewTransferTx(l.Genesis.Faucet, alice, 1, l.Bank(Processed).LastBlockhash())
	_, err = l.Execute(ctx, tx)
	wantStorageError(t, "transfer on a full disk", err)
	if d := time.Since(start); d > time.Second {
		t.Errorf("refusing two writes took %v", d)
	}
	time.Sleep(100 * time.Millisecond) // 20 slot intervals of an idle node on a full disk
	if _, c, r := l.Slots(); c != confirmed || r != root {
		t.Fatalf("on a full disk the confirmed/finalized slots moved from %d/%d to %d/%d", confirmed, root, c, r)
	}
	if l.StorageFault() == nil {
		t.Fatal("the fault cleared while the disk is still full")
	}

	fs.SetLow(false)
	waitFor(t, "production to resume", func() bool { _, c, _ := l.Slots(); return c > confirmed+3 })
	if err := l.StorageFault(); err != nil {
		t.Fatalf("fault after space returned: %v", err)
	}
	if _, err := l.Airdrop(ctx, alice, 2*LamportsPerSOL); err != nil {
		t.Fatalf("airdrop once there is room: %v", err)
	}
	waitFor(t, "the airdrop to finalize", func() bool { return balance(l, Finalized, alice) == 3*LamportsPerSOL })
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	l2 := openTest(t, dir, 2)
	if got := balance(l2, Finalized, alice); got != 3*LamportsPerSOL {
		t.Fatalf("after a restart alice has %d, want %d", got, 3*LamportsPerSOL)
	}
}

// Corruption of old tables on a copy of a real ledger: every read that touches a damaged block is an error
// (never a zero balance, a shorter account list or missing slots), the node reports the fault and produces no
// more slots.
func TestCorruptTablesReadAsErrors(t *testing.T) {
	dir := t.TempDir()
	l, err := Open(Config{Dir: dir, SlotDuration: 2 * time.Millisecond, FinalityDepth: 2})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	var funded []core.Pubkey
	for i := 0; i < 36; i++ {
		k := newKey(t).PublicKey()
		if _, err := l.Airdrop(ctx, k, uint64(i+1)*LamportsPerSOL); err != nil {
			t.Fatal(err)
		}
		funded = append(funded, k)
	}
	waitFor(t, "the airdrops to finalize", func() bool { return balance(l, Finalized, funded[35]) > 0 })
	if err := l.st.Flush(); err != nil { // the funded accounts and the first blocks into a table: old history
		t.Fatal(err)
	}
	// Past the replay window of a start (which would refuse a damaged recent block), so the start succeeds.
	_, _, root := l.Slots()
	for deadline := time.Now().Add(time.Minute); ; time.Sleep(10 * time.Millisecond) {
		if _, _, r := l.Slots(); r > root+slotHashesKept+64 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("timed out waiting for newer slots")
		}
	}
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}

	// Each copy gets four flipped bytes in one data block of the oldest table, found from the table's layout:
	// one block of funded accounts, one of old blocks (below the replay window, which a start checks), and a
	// sweep of offsets across the table. A start may refuse a copy; on every copy it accepts, each read is right
	// or an error.
	ssts, _ := filepath.Glob(filepath.Join(dir, "accounts", "*.sst"))
	sort.Strings(ssts)
	if len(ssts) == 0 {
		t.Fatal("no tables")
	}
	table := filepath.Base(ssts[0])
	blocks := dataBlocks(t, ssts[0])
	_, _, tip := l.Slots()
	pick := func(want func(b dataBlock) bool) int64 {
		for _, b := range blocks {
			if want(b) {
				return b.offset + b.length/2
			}
		}
		t.Fatalf("no such data block in %s", table)
		return 0
	}
	// A block holding a funded account's only version, so reading that account must touch the damage (a block of
	// the faucet's older versions is shadowed by newer tables, and whether the oldest table holds one depends on
	// when pebble flushed).
	accountBlock := pick(func(b dataBlock) bool {
		return b.spaces == "a" && slices.ContainsFunc(funded, func(k core.Pubkey) bool { return b.keys[k] })
	})
	oldBlock := pick(func(b dataBlock) bool { return b.spaces == "b" && b.lastSlot+slotHashesKept+32 < tip })
	damaged := func(at int64) (int, int, int, bool) {
		cp := copyDir(t, dir)
		flipBytes(t, filepath.Join(cp, "accounts", table), at, 4)
		return checkDamagedCopy(t, cp, funded)
	}
	if a, pa, _, ok := damaged(accountBlock); !ok || a == 0 || pa == 0 {
		t.Fatalf("a damaged block of accounts: started %v, %d account reads and %d lists failed", ok, a, pa)
	}
	if _, _, b, ok := damaged(oldBlock); !ok || b == 0 {
		t.Fatalf("a damaged block of old blocks: started %v, %d block lists failed", ok, b)
	}
	size := blocks[len(blocks)-1].offset + blocks[len(blocks)-1].length
	for step := range int64(8) {
		damaged(32 + step*size/8)
	}
}

// dataBlock is one data block of a table: where it is, and what its keys are.
type dataBlock struct {
	offset, length int64
	spaces         string               // the key spaces of its keys, in order, each once
	accounts       int                  // account keys
	lastSlot       uint64               // the highest slot of its block keys
	keys           map[core.Pubkey]bool // the accounts of its account keys
}

// dataBlocks lists the data blocks of the table at path, in order.
func dataBlocks(t *testing.T, path string) []dataBlock {
	t.Helper()
	blocks, err := store.TableBlocks(path)
	if err != nil {
		t.Fatal(err)
	}
	var out []dataBlock
	for _, tb := range blocks {
		b := dataBlock{offset: tb.Offset, length: tb.Length, keys: map[core.Pubkey]bool{}}
		for _, k := range tb.Keys {
			if len(k) == 0 {
				continue
			}
			space := string(k[:1])
			if !strings.HasSuffix(b.spaces, space) {
				b.spaces += space
			}
			switch {
			case space == "a":
				b.accounts++
				if len(k) >= 1+len(core.Pubkey{}) {
					b.keys[core.Pubkey(k[1:1+len(core.Pubkey{})])] = true
				}
			case space == "b" && len(k) == 9:
				b.lastSlot = max(b.lastSlot, binary.BigEndian.Uint64(k[1:]))
			}
		}
		out = append(out, b)
	}
	return out
}

// checkDamagedCopy opens a damaged copy and reads the funded accounts, the system program's accounts and the
// block list; it returns how many of those reads failed, and whether the copy started at all.
func checkDamagedCopy(t *testing.T, dir string, funded []core.Pubkey) (accountErrs, listErrs, blockErrs int, started bool) {
	t.Helper()
	l, err := Open(Config{Dir: dir, SlotDuration: 2 * time.Millisecond, FinalityDepth: 2})
	if err != nil {
		return 0, 0, 0, false
	}
	defer l.Close()
	bank := l.Bank(Finalized)
	for i, k := range funded {
		a, ok, err := bank.Account(k)
		switch {
		case err != nil:
			wantStorageError(t, "account read", err)
			accountErrs++
		case !ok || a.Lamports != uint64(i+1)*LamportsPerSOL:
			t.Fatalf("account %d reads %d lamports (found %v) without an error", i, a.Lamports, ok)
		}
	}
	var listed []core.Pubkey
	err = bank.ProgramAccounts(core.SystemProgramID, func(k core.Pubkey, _ runtime.Account) bool {
		listed = append(listed, k)
		return true
	})
	if err != nil {
		wantStorageError(t, "getProgramAccounts", err)
		listErrs++
	} else {
		for _, k := range funded {
			if !slices.Contains(listed, k) {
				t.Fatalf("getProgramAccounts left out a funded account without an error")
			}
		}
	}
	_, _, root := l.Slots()
	slots, err := l.Blocks(0, root, 0, Finalized)
	if err != nil {
		wantStorageError(t, "getBlocks", err)
		blockErrs++
	} else if uint64(len(slots)) != root+1 {
		t.Fatalf("getBlocks listed %d slots of %d without an error", len(slots), root+1)
	}
	if accountErrs+listErrs+blockErrs == 0 {
		return 0, 0, 0, true
	}
	if l.StorageFault() == nil {
		t.Fatal("read errors but no storage fault")
	}
	// A slot whose commit was already under way when the fault was found may still land; none after it.
	time.Sleep(20 * time.Millisecond)
	_, c, _ := l.Slots()
	time.Sleep(20 * time.Millisecond)
	if _, c2, _ := l.Slots(); c2 != c {
		t.Fatalf("the producer built slots %d..%d on a damaged store", c+1, c2)
	}
	tx := core.NewTransferTx(l.Genesis.Faucet, funded[0], 1, l.Bank(Processed).LastBlockhash())
	_, err = l.Execute(context.Background(), tx)
	wantStorageError(t, "transfer on a damaged store", err)
	return accountErrs, listErrs, blockErrs, true
}
