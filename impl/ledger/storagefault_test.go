package ledger

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"testing"
	"time"

	"github.com/cockroachdb/pebble/vfs"

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

	fs.SetFull(true)
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

	fs.SetFull(false)
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

	// Four-byte flips across the oldest table, one copy each: a start may refuse a copy (its checks read the
	// recent blocks); on every copy it accepts, each read is right or an error.
	ssts, _ := filepath.Glob(filepath.Join(dir, "accounts", "*.sst"))
	sort.Strings(ssts)
	if len(ssts) == 0 {
		t.Fatal("no tables")
	}
	info, err := os.Stat(ssts[0])
	if err != nil {
		t.Fatal(err)
	}
	var accountErrs, listErrs, blockErrs, started int
	const steps = 24
	for step := range int64(steps) {
		cp := copyDir(t, dir)
		flipBytes(t, filepath.Join(cp, "accounts", filepath.Base(ssts[0])), 64+step*(info.Size()-128)/steps, 4)
		a, l, b, ok := checkDamagedCopy(t, cp, funded)
		accountErrs, listErrs, blockErrs = accountErrs+a, listErrs+l, blockErrs+b
		if ok {
			started++
		}
	}
	t.Logf("%d of %d damaged copies started; reads that failed: %d accounts, %d account lists, %d block lists",
		started, steps, accountErrs, listErrs, blockErrs)
	if accountErrs == 0 || listErrs == 0 || blockErrs == 0 {
		t.Fatal("the flipped bytes damaged nothing some read needs; the test no longer tests everything")
	}
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
	_, c, _ := l.Slots()
	time.Sleep(20 * time.Millisecond)
	if _, c2, _ := l.Slots(); c2 != c {
		t.Fatalf("the producer built slots %d..%d on a damaged store", c+1, c2)
	}
	_, err = l.Airdrop(context.Background(), funded[0], 1)
	wantStorageError(t, "airdrop on a damaged store", err)
	return accountErrs, listErrs, blockErrs, true
}
