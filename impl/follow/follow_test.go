package follow_test

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"ledgerd/generated/rpcapi"
	"ledgerd/generated/rpcclient"
	"ledgerd/impl/core"
	"ledgerd/impl/follow"
	"ledgerd/impl/health"
	"ledgerd/impl/ledger"
	"ledgerd/impl/node"
	"ledgerd/impl/snapshot"
)

var quiet = slog.New(slog.NewTextHandler(io.Discard, nil))

// startLeader starts a leader in manual block production (slots only when the test asks), so that leader and
// followers can be compared at the same slots.
func startLeader(t *testing.T, dir string, port int) *node.Node {
	t.Helper()
	n, err := node.Start(node.Config{LedgerDir: dir, RPCPort: port, WSPort: -1, Logger: quiet, FinalityDepth: 2,
		BlockProduction: ledger.ProduceOnRequest, NoSnapshots: true})
	if err != nil {
		t.Fatal(err)
	}
	return n
}

func startFollower(t *testing.T, leader string) *node.Node {
	t.Helper()
	n, err := node.Start(node.Config{LedgerDir: t.TempDir(), RPCPort: -1, WSPort: -1, Logger: quiet, NoSnapshots: true,
		Follow:  &node.FollowOptions{URL: leader, PollInterval: 5 * time.Millisecond, Timeout: 2 * time.Second},
		Health:  health.Config{PollInterval: 20 * time.Millisecond, StaleAfter: 300 * time.Millisecond},
		Genesis: ledger.GenesisOptions{SlotsPerEpoch: 64}, // ignored: the leader's genesis is the follower's
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { n.Close(context.Background()) })
	return n
}

// call posts one JSON-RPC request and returns the reply's body as it came.
func call(t *testing.T, url, method string, params ...any) []byte {
	t.Helper()
	p, _ := json.Marshal(params)
	body := fmt.Sprintf(`{"jsonrpc":"2.0","id":1,"method":%q,"params":%s}`, method, p)
	resp, err := http.Post(url, "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	out, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// result decodes a reply's result into v, failing on an error reply.
func result(t *testing.T, reply []byte, v any) {
	t.Helper()
	var r struct {
		Result json.RawMessage `json:"result"`
		Error  json.RawMessage `json:"error"`
	}
	if err := json.Unmarshal(reply, &r); err != nil || r.Error != nil {
		t.Fatalf("reply %s: %v", reply, err)
	}
	if err := json.Unmarshal(r.Result, v); err != nil {
		t.Fatalf("result %s: %v", r.Result, err)
	}
}

func advance(t *testing.T, leader *node.Node, n uint64) {
	t.Helper()
	if _, err := leader.Ledger.AdvanceSlots(context.Background(), n); err != nil {
		t.Fatal(err)
	}
}

// caughtUp waits until every follower holds the leader's confirmed and finalized slots.
func caughtUp(t *testing.T, leader *node.Node, followers ...*node.Node) {
	t.Helper()
	_, lc, lf := leader.Ledger.Slots()
	deadline := time.Now().Add(10 * time.Second)
	for _, f := range followers {
		for {
			_, c, fin := f.Ledger.Slots()
			if c == lc && fin == lf {
				break
			}
			if err := f.Follower.Fatal(); err != nil {
				t.Fatalf("follower stopped: %v", err)
			}
			if time.Now().After(deadline) {
				t.Fatalf("follower at confirmed %d finalized %d, leader %d %d", c, fin, lc, lf)
			}
			time.Sleep(2 * time.Millisecond)
		}
	}
}

func transfer(t *testing.T, url string, from core.Keypair, to core.Pubkey, lamports uint64) string {
	t.Helper()
	var bh struct {
		Value struct{ Blockhash string } `json:"value"`
	}
	result(t, call(t, url, rpcapi.MethodGetLatestBlockhash, map[string]string{"commitment": "confirmed"}), &bh)
	h, err := core.ParseHash(bh.Value.Blockhash)
	if err != nil {
		t.Fatal(err)
	}
	tx := core.NewTransferTx(from, to, lamports, h)
	var sig string
	result(t, call(t, url, rpcapi.MethodSendTransaction, base64.StdEncoding.EncodeToString(tx.Serialize()),
		map[string]any{"encoding": "base64", "preflightCommitment": "processed"}), &sig)
	return sig
}

func newKey(t *testing.T) core.Keypair {
	k, err := core.NewKeypair()
	if err != nil {
		t.Fatal(err)
	}
	return k
}

// Two followers and their leader answer getBlock, getAccountInfo and getSignaturesForAddress byte for byte the
// same at confirmed and finalized; a transaction sent through a follower lands on the leader and is seen on the
// other follower; a follower refuses the developer's writes.
func TestFollowersAgreeWithLeader(t *testing.T) {
	t.Parallel()
	leader := startLeader(t, t.TempDir(), -1)
	t.Cleanup(func() { leader.Close(context.Background()) })
	alice, bob := newKey(t), newKey(t)
	var sig string
	result(t, call(t, leader.HTTPURL, rpcapi.MethodRequestAirdrop, alice.PublicKey().String(), 10*ledger.LamportsPerSOL), &sig)
	advance(t, leader, 1)
	f1 := startFollower(t, leader.HTTPURL)
	for i := range 3 {
		transfer(t, leader.HTTPURL, alice, bob.PublicKey(), uint64(1_000_000+i))
	}
	advance(t, leader, 1)
	f2 := startFollower(t, leader.HTTPURL)

	// A subscription on a follower hears of the leader's transactions as the follower replays them.
	wctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	ws, err := rpcclient.Dial(wctx, f2.WSURL)
	if err != nil {
		t.Fatal(err)
	}
	defer ws.Close()
	confirmedLevel := rpcapi.Commitment(rpcapi.CommitmentConfirmed)
	sub, err := ws.AccountSubscribe(wctx, &rpcapi.AccountSubscribeParams{Pubkey: bob.PublicKey(),
		Config: rpcapi.Some(rpcapi.AccountInfoConfig{Commitment: &confirmedLevel})})
	if err != nil {
		t.Fatal(err)
	}

	// Through a follower: a transfer and an airdrop land on the leader.
	viaFollower := transfer(t, f1.HTTPURL, alice, bob.PublicKey(), 7_000_000)
	var airdrop string
	result(t, call(t, f2.HTTPURL, rpcapi.MethodRequestAirdrop, bob.PublicKey().String(), ledger.LamportsPerSOL), &airdrop)
	advance(t, leader, 4) // past the finality depth
	var st struct {
		Value []*struct{ Slot uint64 } `json:"value"`
	}
	result(t, call(t, leader.HTTPURL, rpcapi.MethodGetSignatureStatuses, []string{viaFollower, airdrop}), &st)
	if st.Value[0] == nil || st.Value[1] == nil {
		t.Fatalf("the leader does not hold what was sent through the followers: %+v", st.Value)
	}
	caughtUp(t, leader, f1, f2)
	result(t, call(t, f2.HTTPURL, rpcapi.MethodGetSignatureStatuses, []string{viaFollower}), &st)
	if st.Value[0] == nil {
		t.Fatal("the transfer sent through follower 1 is not seen on follower 2")
	}
	for heard := uint64(0); heard < 10_000_003; { // the three transfers from the leader and the one via follower 1
		select {
		case n := <-sub.C:
			heard = n.Value.Lamports
		case <-wctx.Done():
			t.Fatalf("follower 2 notified bob's balance %d, not the transfer sent through follower 1", heard)
		}
	}

	_, confirmed, finalized := leader.Ledger.Slots()
	var compared int
	for _, c := range []string{"confirmed", "finalized"} {
		var reqs [][]any
		top := confirmed
		if c == "finalized" {
			top = finalized
		}
		for s := uint64(0); s <= top; s++ {
			reqs = append(reqs,
				[]any{rpcapi.MethodGetBlock, s, map[string]any{"commitment": c, "maxSupportedTransactionVersion": 0}},
				[]any{rpcapi.MethodGetBlock, s, map[string]any{"commitment": c, "encoding": "base64", "maxSupportedTransactionVersion": 0}})
		}
		for _, k := range []core.Pubkey{alice.PublicKey(), bob.PublicKey(), leader.Ledger.VoteAccount(), leader.Genesis.Identity.PublicKey()} {
			reqs = append(reqs,
				[]any{rpcapi.MethodGetAccountInfo, k.String(), map[string]any{"commitment": c, "encoding": "base64"}},
				[]any{rpcapi.MethodGetSignaturesForAddress, k.String(), map[string]any{"commitment": c}})
		}
		for _, r := range reqs {
			want := call(t, leader.HTTPURL, r[0].(string), r[1:]...)
			if bytes.Contains(want, []byte(`"error"`)) {
				t.Fatalf("%v on the leader: %s", r, want)
			}
			for i, f := range []*node.Node{f1, f2} {
				if got := call(t, f.HTTPURL, r[0].(string), r[1:]...); !bytes.Equal(got, want) {
					t.Errorf("%v: follower %d answers\n%s\nthe leader\n%s", r, i+1, got, want)
				}
			}
			compared++
		}
	}
	if compared < 20 {
		t.Fatalf("only %d answers compared", compared)
	}

	// The developer's writes are the leader's to make.
	reply := call(t, f1.HTTPURL, rpcapi.MethodSurfnetSetAccount, bob.PublicKey().String(), map[string]any{"lamports": 5})
	if !bytes.Contains(reply, []byte(`-32601`)) || !bytes.Contains(reply, []byte(leader.HTTPURL)) {
		t.Errorf("surfnet_setAccount on a follower: %s", reply)
	}
	if reply := call(t, f1.HTTPURL, rpcapi.MethodGetHealth); !bytes.Contains(reply, []byte(`"ok"`)) {
		t.Errorf("a caught-up follower's health: %s", reply)
	}
	if reply := call(t, f1.HTTPURL, rpcapi.MethodGetIdentity); bytes.Contains(reply, []byte(leader.Genesis.IdentityPubkey())) {
		t.Errorf("a follower answers the leader's identity: %s", reply)
	}
}

// A leader that goes away leaves the follower serving what it holds, unhealthy once the leader's last answer is
// stale; when the leader returns the follower resumes where it stopped, with no slot missing.
func TestFollowerResumesAfterLeaderReturns(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	leader := startLeader(t, dir, -1)
	port := strings.TrimPrefix(leader.HTTPURL, "http://127.0.0.1:")
	alice := newKey(t)
	var sig string
	result(t, call(t, leader.HTTPURL, rpcapi.MethodRequestAirdrop, alice.PublicKey().String(), ledger.LamportsPerSOL), &sig)
	advance(t, leader, 3)
	f := startFollower(t, leader.HTTPURL)
	caughtUp(t, leader, f)
	// Health is known once the follower's checker has polled the leader (every 20 ms here), not at once.
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		reply := call(t, f.HTTPURL, rpcapi.MethodGetHealth)
		if bytes.Contains(reply, []byte(`"ok"`)) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("health with the leader up: %s", reply)
		}
	}
	if err := leader.Close(context.Background()); err != nil {
		t.Fatal(err)
	}

	deadline := time.Now().Add(5 * time.Second)
	for f.Follower.StreamError() == nil || !bytes.Contains(call(t, f.HTTPURL, rpcapi.MethodGetHealth), []byte(`-32005`)) {
		if time.Now().After(deadline) {
			t.Fatalf("the leader is gone but the follower reports stream error %v, health %s", f.Follower.StreamError(),
				call(t, f.HTTPURL, rpcapi.MethodGetHealth))
		}
		time.Sleep(10 * time.Millisecond)
	}
	if reply := call(t, f.HTTPURL, rpcapi.MethodGetBalance, alice.PublicKey().String()); !bytes.Contains(reply, []byte(`"value":1000000000`)) {
		t.Errorf("reads while the leader is gone: %s", reply)
	}
	reply := call(t, f.HTTPURL, rpcapi.MethodRequestAirdrop, alice.PublicKey().String(), 1)
	if !bytes.Contains(reply, []byte(`-32603`)) || !bytes.Contains(reply, []byte("did not answer")) {
		t.Errorf("an airdrop while the leader is gone: %s", reply)
	}
	// Restarted while the leader is away, the follower serves what it holds.
	fdir := f.Ledger.Genesis.Dir
	if err := f.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
	f, err := node.Start(node.Config{LedgerDir: fdir, RPCPort: -1, WSPort: -1, Logger: quiet, NoSnapshots: true,
		Follow: &node.FollowOptions{URL: leader.HTTPURL, PollInterval: 5 * time.Millisecond, Timeout: 2 * time.Second},
		Health: health.Config{PollInterval: 20 * time.Millisecond, StaleAfter: 300 * time.Millisecond}})
	if err != nil {
		t.Fatalf("a follower restarted while its leader is away: %v", err)
	}
	t.Cleanup(func() { f.Close(context.Background()) })
	if reply := call(t, f.HTTPURL, rpcapi.MethodGetBalance, alice.PublicKey().String()); !bytes.Contains(reply, []byte(`"value":1000000000`)) {
		t.Errorf("reads of a follower restarted while the leader is gone: %s", reply)
	}

	var port0 int
	fmt.Sscan(port, &port0)
	leader = startLeader(t, dir, port0)
	t.Cleanup(func() { leader.Close(context.Background()) })
	transfer(t, leader.HTTPURL, alice, newKey(t).PublicKey(), 5_000_000)
	advance(t, leader, 3)
	caughtUp(t, leader, f)
	_, confirmed, _ := leader.Ledger.Slots()
	for s := uint64(0); s <= confirmed; s++ {
		a, _ := leader.Ledger.RawBlock(s)
		b, _ := f.Ledger.RawBlock(s)
		if a == nil || !bytes.Equal(a, b) {
			t.Fatalf("slot %d: the follower's block differs from the leader's (or is missing)", s)
		}
	}
	if f.Follower.StreamError() != nil {
		t.Errorf("the stream still reports %v", f.Follower.StreamError())
	}
	deadline = time.Now().Add(5 * time.Second)
	for !bytes.Contains(call(t, f.HTTPURL, rpcapi.MethodGetHealth), []byte(`"ok"`)) {
		if time.Now().After(deadline) {
			t.Fatalf("health after the leader returned: %s", call(t, f.HTTPURL, rpcapi.MethodGetHealth))
		}
		time.Sleep(10 * time.Millisecond)
	}
	metrics, err := http.Get(f.HTTPURL + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	text, _ := io.ReadAll(metrics.Body)
	metrics.Body.Close()
	if !bytes.Contains(text, []byte("ledgerd_follower_lag_slots 0")) || !bytes.Contains(text, []byte("ledgerd_follower_stopped 0")) {
		t.Errorf("metrics lack the follower's lag:\n%s", text)
	}
}

// A leader that wrote accounts without a transaction (a cheat) cannot be followed past that slot: the follower
// stops there, says why, reports unhealthy and stops answering reads.
func TestFollowerStopsAtCheatWrites(t *testing.T) {
	t.Parallel()
	leader := startLeader(t, t.TempDir(), -1)
	t.Cleanup(func() { leader.Close(context.Background()) })
	advance(t, leader, 2)
	f := startFollower(t, leader.HTTPURL)
	caughtUp(t, leader, f)
	_, before, _ := f.Ledger.Slots()
	call(t, leader.HTTPURL, rpcapi.MethodSurfnetSetAccount, newKey(t).PublicKey().String(), map[string]any{"lamports": 5})
	advance(t, leader, 2)
	deadline := time.Now().Add(5 * time.Second)
	for f.Follower.Fatal() == nil {
		if time.Now().After(deadline) {
			t.Fatal("the follower did not stop at the leader's cheat write")
		}
		time.Sleep(5 * time.Millisecond)
	}
	if !errors.Is(f.Follower.Fatal(), follow.ErrCheats) {
		t.Fatalf("stopped for %v", f.Follower.Fatal())
	}
	if _, now, _ := f.Ledger.Slots(); now != before {
		t.Errorf("the follower replayed up to slot %d, past the cheat slot %d", now, before+1)
	}
	if reply := call(t, f.HTTPURL, rpcapi.MethodGetHealth); !bytes.Contains(reply, []byte(`-32005`)) {
		t.Errorf("health of a stopped follower: %s", reply)
	}
	if reply := call(t, f.HTTPURL, rpcapi.MethodGetSlot); !bytes.Contains(reply, []byte("stopped following")) {
		t.Errorf("a read on a stopped follower: %s", reply)
	}
}

// A follower started from a snapshot of the leader's ledger (--snapshot) resumes the chain at the snapshot's slot
// and catches up from there.
func TestFollowerStartsFromSnapshot(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	leader, err := node.Start(node.Config{LedgerDir: dir, RPCPort: -1, WSPort: -1, Logger: quiet, FinalityDepth: 2,
		BlockProduction: ledger.ProduceOnRequest, Snapshots: snapshot.Config{FullInterval: 4}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { leader.Close(context.Background()) })
	alice := newKey(t)
	var sig string
	result(t, call(t, leader.HTTPURL, rpcapi.MethodRequestAirdrop, alice.PublicKey().String(), ledger.LamportsPerSOL), &sig)
	advance(t, leader, 8)
	snaps := filepath.Join(dir, snapshot.DirName)
	deadline := time.Now().Add(10 * time.Second)
	for {
		if infos, _ := snapshot.List(snaps); len(infos) > 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the leader took no snapshot")
		}
		time.Sleep(10 * time.Millisecond)
	}
	transfer(t, leader.HTTPURL, alice, newKey(t).PublicKey(), 5_000_000)
	advance(t, leader, 3)

	f, err := node.Start(node.Config{LedgerDir: t.TempDir() + "/follower", RPCPort: -1, WSPort: -1, Logger: quiet,
		NoSnapshots: true, FromSnapshot: snaps, Follow: &node.FollowOptions{URL: leader.HTTPURL, PollInterval: 5 * time.Millisecond}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close(context.Background()) })
	caughtUp(t, leader, f)
	want := call(t, leader.HTTPURL, rpcapi.MethodGetAccountInfo, alice.PublicKey().String(), map[string]any{"commitment": "confirmed"})
	if got := call(t, f.HTTPURL, rpcapi.MethodGetAccountInfo, alice.PublicKey().String(), map[string]any{"commitment": "confirmed"}); !bytes.Equal(got, want) {
		t.Errorf("follower %s, leader %s", got, want)
	}
}

// A follower restarted on its directory resumes from its newest slot; the directory of one leader's follower is
// refused when pointed at another chain.
func TestFollowerRestarts(t *testing.T) {
	t.Parallel()
	leader := startLeader(t, t.TempDir(), -1)
	t.Cleanup(func() { leader.Close(context.Background()) })
	advance(t, leader, 3)
	dir := t.TempDir()
	cfg := node.Config{LedgerDir: dir, RPCPort: -1, WSPort: -1, Logger: quiet, NoSnapshots: true,
		Follow: &node.FollowOptions{URL: leader.HTTPURL, PollInterval: 5 * time.Millisecond}}
	f, err := node.Start(cfg)
	if err != nil {
		t.Fatal(err)
	}
	caughtUp(t, leader, f)
	id := f.Follower.Identity()
	if err := f.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
	advance(t, leader, 3)
	if f, err = node.Start(cfg); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close(context.Background()) })
	caughtUp(t, leader, f)
	if f.Follower.Identity() != id {
		t.Errorf("the follower's identity changed across a restart")
	}

	other := startLeader(t, t.TempDir(), -1)
	t.Cleanup(func() { other.Close(context.Background()) })
	cfg.Follow.URL = other.HTTPURL
	cfg.LedgerDir = t.TempDir()
	if err := os.WriteFile(filepath.Join(cfg.LedgerDir, ledger.GenesisFile), leaderGenesis(t, leader), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := node.Start(cfg); err == nil || !strings.Contains(err.Error(), "another chain") {
		t.Fatalf("following another chain's leader from this directory: %v", err)
	}
}

func leaderGenesis(t *testing.T, leader *node.Node) []byte {
	t.Helper()
	g, err := leader.Ledger.GenesisRecord()
	if err != nil {
		t.Fatal(err)
	}
	return g.Config
}

// A follower more than the health slot distance behind its leader is unhealthy with the reference's error.
func TestFollowerBehindIsUnhealthy(t *testing.T) {
	t.Parallel()
	leader := startLeader(t, t.TempDir(), -1)
	t.Cleanup(func() { leader.Close(context.Background()) })
	advance(t, leader, 2)
	// Caught up, the follower waits an hour before it polls again: the leader moves on without it.
	f, err := node.Start(node.Config{LedgerDir: t.TempDir(), RPCPort: -1, WSPort: -1, Logger: quiet, NoSnapshots: true,
		Follow: &node.FollowOptions{URL: leader.HTTPURL, PollInterval: time.Hour},
		Health: health.Config{PollInterval: 10 * time.Millisecond, SlotDistance: 2}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close(context.Background()) })
	caughtUp(t, leader, f)
	advance(t, leader, 5)
	deadline := time.Now().Add(5 * time.Second)
	for {
		reply := call(t, f.HTTPURL, rpcapi.MethodGetHealth)
		if bytes.Contains(reply, []byte(`"code":-32005`)) && bytes.Contains(reply, []byte("Node is behind by 5 slots")) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("a follower 5 slots behind (distance 2) answers %s", reply)
		}
		time.Sleep(10 * time.Millisecond)
	}
}
