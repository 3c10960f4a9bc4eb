package ledger

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"ledgerd/impl/core"
	"ledgerd/impl/runtime"
)

// fakeRemote is an AccountSource over a map, counting what it is asked; fail makes every request fail.
type fakeRemote struct {
	mu       sync.Mutex
	accounts map[core.Pubkey]runtime.Account
	asked    []core.Pubkey
	requests int
	fail     error
	delay    time.Duration
}

func (f *fakeRemote) String() string { return "fake://remote" }

func (f *fakeRemote) Accounts(ctx context.Context, keys []core.Pubkey) ([]*runtime.Account, error) {
	time.Sleep(f.delay)
	f.mu.Lock()
	defer f.mu.Unlock()
	f.requests++
	if f.fail != nil {
		return nil, f.fail
	}
	f.asked = append(f.asked, keys...)
	out := make([]*runtime.Account, len(keys))
	for i, k := range keys {
		if a, ok := f.accounts[k]; ok {
			out[i] = &a
		}
	}
	return out, nil
}

func (f *fakeRemote) count() (requests int, asked map[core.Pubkey]int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	asked = map[core.Pubkey]int{}
	for _, k := range f.asked {
		asked[k]++
	}
	return f.requests, asked
}

func openFork(t *testing.T, dir string, src AccountSource) *Ledger {
	t.Helper()
	l, err := Open(Config{Dir: dir, SlotDuration: 5 * time.Millisecond, FinalityDepth: 2,
		BlockProduction: ProduceOnRequest, Fork: &ForkConfig{Source: src}})
	if err != nil {
		t.Fatal(err)
	}
	return l
}

func mustAccount(t *testing.T, l *Ledger, c Commitment, k core.Pubkey) (runtime.Account, bool) {
	t.Helper()
	a, ok, err := l.Bank(c).Account(k)
	if err != nil {
		t.Fatalf("%s at %s: %v", k, c, err)
	}
	return a, ok
}

// An account read at any commitment is asked of the remote once, a missing one too; a token account comes with
// its mint in the same read; the fetched account is written into the working slot and reaches every commitment
// level; deleted here, it stays deleted after pruning and a restart, which asks the remote nothing again.
func TestForkFetchesOnceAndKeeps(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	a, tok, mint, missing := core.Pubkey{0xF1}, core.Pubkey{0xF2}, core.Pubkey{0xF3}, core.Pubkey{0xF4}
	tokData := make([]byte, 165)
	copy(tokData, mint[:])
	remote := &fakeRemote{accounts: map[core.Pubkey]runtime.Account{
		a:    {Lamports: 777, Owner: core.SystemProgramID, RentEpoch: ^uint64(0)},
		tok:  {Lamports: 2_039_280, Owner: core.TokenProgramID, Data: tokData},
		mint: {Lamports: 1_461_600, Owner: core.TokenProgramID, Data: make([]byte, 82)},
	}}
	l := openFork(t, dir, remote)
	ctx := context.Background()

	for _, c := range []Commitment{Finalized, Confirmed, Processed} {
		if got, ok := mustAccount(t, l, c, a); !ok || got.Lamports != 777 {
			t.Fatalf("%s: %+v %v", c, got, ok)
		}
		if _, ok := mustAccount(t, l, c, missing); ok {
			t.Fatalf("%s: the missing account exists", c)
		}
	}
	if _, ok := mustAccount(t, l, Confirmed, tok); !ok {
		t.Fatal("token account not fetched")
	}
	// The mint comes with the token account, in the same fetch, before anything reads it.
	if requests, asked := remote.count(); requests != 4 || asked[mint] != 1 {
		t.Fatalf("after the token account: %d requests, asked %v", requests, asked)
	}
	if _, ok := mustAccount(t, l, Processed, mint); !ok {
		t.Fatal("mint not fetched")
	}
	requests, asked := remote.count()
	if requests != 4 || asked[a] != 1 || asked[missing] != 1 || asked[tok] != 1 || asked[mint] != 1 {
		t.Fatalf("%d requests, asked %v", requests, asked)
	}

	// The producer writes what was fetched into its slot: stored, it reads the same at every level.
	capBefore := l.Bank(Processed).Capitalization()
	if _, err := l.AdvanceSlots(ctx, 3); err != nil {
		t.Fatal(err)
	}
	// The fetched lamports join the capitalization; the slots' votes burn half their fees (5,000 a slot at most).
	fetched := uint64(777 + 2_039_280 + 1_461_600)
	if got := l.Bank(Processed).Capitalization() - capBefore; got > fetched || got < fetched-3*5000 {
		t.Errorf("capitalization grew by %d, want %d less the votes' burn", got, fetched)
	}
	if got, ok := mustAccount(t, l, Finalized, a); !ok || got.Lamports != 777 {
		t.Fatalf("finalized after the slot: %+v %v", got, ok)
	}
	found := false
	if err := l.Bank(Finalized).ProgramAccounts(core.TokenProgramID, func(k core.Pubkey, _ runtime.Account) bool {
		found = found || k == tok
		return true
	}); err != nil || !found {
		t.Fatalf("the fetched token account is not in the owner index: %v", err)
	}

	// Deleted here: pruned past, and after a restart, it reads as deleted and the remote is not asked.
	if _, err := l.Cheat(ctx, func(read AccountReader, _ func(core.Pubkey) ([]core.Pubkey, error)) ([]runtime.AccountWrite, error) {
		return []runtime.AccountWrite{{Pubkey: a}}, nil
	}); err != nil {
		t.Fatal(err)
	}
	if _, err := l.AdvanceSlots(ctx, pruneLag+10); err != nil {
		t.Fatal(err)
	}
	if _, ok := mustAccount(t, l, Finalized, a); ok {
		t.Fatal("the deleted account came back")
	}
	l.Close()
	remote2 := &fakeRemote{accounts: remote.accounts}
	l = openFork(t, dir, remote2)
	defer l.Close()
	for _, k := range []core.Pubkey{a, missing} {
		if _, ok := mustAccount(t, l, Processed, k); ok {
			t.Fatalf("%s exists after the restart", k)
		}
	}
	if got, ok := mustAccount(t, l, Processed, tok); !ok || got.Lamports != 2_039_280 {
		t.Fatalf("token account after the restart: %+v %v", got, ok)
	}
	if requests, _ := remote2.count(); requests != 0 {
		t.Fatalf("after the restart the remote was asked %d times", requests)
	}
}

// A remote that cannot answer is a ForkError (JSON-RPC -32603), never a missing account, and nothing is
// remembered: the next read asks again. Offline accounts, and accounts owned by an offline program, are never
// fetched or kept. A revert forgets what was fetched after its snapshot.
func TestForkFailuresOfflineRevert(t *testing.T) {
	t.Parallel()
	prog, owned, plain, later := core.Pubkey{0xE1}, core.Pubkey{0xE2}, core.Pubkey{0xE3}, core.Pubkey{0xE4}
	remote := &fakeRemote{accounts: map[core.Pubkey]runtime.Account{
		owned: {Lamports: 5, Owner: prog},
		plain: {Lamports: 6, Owner: core.SystemProgramID},
		later: {Lamports: 7, Owner: core.SystemProgramID},
	}}
	l := openFork(t, t.TempDir(), remote)
	defer l.Close()
	ctx := context.Background()

	remote.fail = errors.New("connection refused")
	_, _, err := l.Bank(Processed).Account(plain)
	var fe *ForkError
	if !errors.As(err, &fe) || fe.ErrorCode() != -32603 {
		t.Fatalf("a failing remote: %v", err)
	}
	remote.mu.Lock()
	remote.fail = nil
	remote.mu.Unlock()
	if got, ok := mustAccount(t, l, Processed, plain); !ok || got.Lamports != 6 {
		t.Fatalf("after the remote came back: %+v %v", got, ok)
	}

	l.OfflineAccount(prog, true)
	l.OfflineAccount(later, false)
	for _, k := range []core.Pubkey{prog, owned, later} {
		if _, ok := mustAccount(t, l, Processed, k); ok {
			t.Fatalf("offline %s was fetched", k)
		}
	}
	if _, asked := remote.count(); asked[prog] != 0 || asked[later] != 0 || asked[owned] != 1 {
		t.Fatalf("asked %v", asked)
	}

	// Fetched after a snapshot, forgotten by the revert, asked again.
	l.fork.mu.Lock()
	delete(l.fork.offline, later)
	l.fork.mu.Unlock()
	id, _, err := l.Snapshot(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := mustAccount(t, l, Processed, later); !ok {
		t.Fatal("not fetched")
	}
	if _, err := l.AdvanceSlots(ctx, 2); err != nil {
		t.Fatal(err)
	}
	if ok, err := l.Revert(ctx, id); !ok || err != nil {
		t.Fatalf("revert %v %v", ok, err)
	}
	if got, ok := mustAccount(t, l, Confirmed, later); !ok || got.Lamports != 7 {
		t.Fatalf("after the revert: %+v %v", got, ok)
	}
	if _, asked := remote.count(); asked[later] != 2 {
		t.Fatalf("asked for the reverted account %d times, want 2", asked[later])
	}
}

// A network reset on a fork makes a fetched account the cluster's again, as the cluster has it now.
func TestForkResetNetwork(t *testing.T) {
	t.Parallel()
	k := core.Pubkey{0xD1}
	remote := &fakeRemote{accounts: map[core.Pubkey]runtime.Account{k: {Lamports: 10, Owner: core.SystemProgramID}}}
	l := openFork(t, t.TempDir(), remote)
	defer l.Close()
	ctx := context.Background()
	if got, ok := mustAccount(t, l, Processed, k); !ok || got.Lamports != 10 {
		t.Fatalf("fetched %+v %v", got, ok)
	}
	if _, err := l.AdvanceSlots(ctx, 2); err != nil {
		t.Fatal(err)
	}
	remote.mu.Lock()
	remote.accounts[k] = runtime.Account{Lamports: 20, Owner: core.SystemProgramID}
	remote.mu.Unlock()
	if _, err := l.ResetNetwork(ctx); err != nil {
		t.Fatal(err)
	}
	for _, c := range []Commitment{Processed, Confirmed} {
		if got, ok := mustAccount(t, l, c, k); !ok || got.Lamports != 20 {
			t.Fatalf("%s after the reset: %+v %v", c, got, ok)
		}
	}
}

// Concurrent first reads of one account ask the remote once.
func TestForkConcurrentFirstReads(t *testing.T) {
	t.Parallel()
	k := core.Pubkey{0xC1}
	remote := &fakeRemote{accounts: map[core.Pubkey]runtime.Account{k: {Lamports: 3, Owner: core.SystemProgramID}},
		delay: 20 * time.Millisecond}
	l := openFork(t, t.TempDir(), remote)
	defer l.Close()
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			if a, ok, err := l.Bank(Confirmed).Account(k); err != nil || !ok || a.Lamports != 3 {
				t.Errorf("%+v %v %v", a, ok, err)
			}
		})
	}
	wg.Wait()
	if _, asked := remote.count(); asked[k] != 1 {
		t.Fatalf("asked %d times", asked[k])
	}
}
