package node

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"io"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"ledgerd/generated/rpcapi"
	"ledgerd/impl/core"
	"ledgerd/impl/ledger"
	"ledgerd/impl/programs/token"
	"ledgerd/impl/sbpf/sbpftest"
)

// startForkedCluster starts the node a fork reads; stop closes it (once, whether the test or its cleanup asks).
func startForkedCluster(t *testing.T) (n *Node, stop func()) {
	t.Helper()
	n, err := Start(Config{LedgerDir: t.TempDir(), RPCPort: -1, WSPort: -1, SlotDuration: 20 * time.Millisecond,
		BlockProduction: ledger.ProduceOnRequest, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	var once sync.Once
	stop = func() { once.Do(func() { n.Close(context.Background()) }) }
	t.Cleanup(stop)
	return n, stop
}

func rpcCallRaw(t *testing.T, url, method, params string) json.RawMessage {
	t.Helper()
	return mustCall(t, url, `{"jsonrpc":"2.0","id":1,"method":"`+method+`","params":`+params+`}`)
}

// Two nodes, one the cluster: the fork, started with nothing but the cluster's URL, reads every account it does
// not hold from the cluster once (a getMultipleAccounts of three in one request, a token account with its mint),
// invokes a program deployed on the cluster, keeps scans and history local, honours surfnet_offlineAccount, and
// once the cluster is gone answers a read of an account it never held with -32603 naming the cluster, at once.
func TestForkFromAnotherNode(t *testing.T) {
	t.Parallel()
	cluster, stopCluster := startForkedCluster(t)
	curl := cluster.HTTPURL

	// On the cluster: a program, a mint and a token account, a wallet with history, an account owned by a
	// program, and one the fork will keep offline.
	program := core.MustParsePubkey(mustKey(t))
	elf := sbpftest.MustELF("lddw r1, rodata+0\nmov64 r2, 5\ncall sol_log_\nmov64 r0, 0\nexit", []byte("hello"))
	rpcCallRaw(t, curl, rpcapi.MethodSurfnetWriteProgram, `["`+program.String()+`","`+hexOf(elf)+`",0]`)
	mint, holder := core.MustParsePubkey(mustKey(t)), core.MustParsePubkey(mustKey(t))
	m := token.Mint{MintAuthority: token.Some(holder), Supply: 1000, Decimals: 6, IsInitialized: true}
	rpcCallRaw(t, curl, rpcapi.MethodSurfnetSetAccount, `["`+mint.String()+`",{"lamports":1461600,"owner":"`+core.TokenProgramID.String()+`","data":"`+hexOf(m.MintData())+`"}]`)
	rpcCallRaw(t, curl, rpcapi.MethodSurfnetSetTokenAccount, `["`+holder.String()+`","`+mint.String()+`",{"amount":1000}]`)
	ata, _, _ := core.FindProgramAddress([][]byte{holder[:], core.TokenProgramID[:], mint[:]}, core.AssociatedTokenProgramID)
	wallet := fundedKeypair(t, curl)
	tx, err := core.NewTransaction(wallet.PublicKey(), []core.Instruction{core.TransferInstruction(wallet.PublicKey(), holder, 1_000_000)},
		latestBlockhash(t, curl), wallet)
	if err != nil {
		t.Fatal(err)
	}
	var sig string
	json.Unmarshal(rpcCallRaw(t, curl, rpcapi.MethodSendTransaction, `["`+base64.StdEncoding.EncodeToString(tx.Serialize())+`",{"encoding":"base64","preflightCommitment":"processed"}]`), &sig)
	ownerProg, owned, offline := mustKey(t), mustKey(t), mustKey(t)
	rpcCallRaw(t, curl, rpcapi.MethodSurfnetSetAccount, `["`+owned+`",{"lamports":1000000,"owner":"`+ownerProg+`","data":"0102"}]`)
	rpcCallRaw(t, curl, rpcapi.MethodSurfnetSetAccount, `["`+offline+`",{"lamports":1000000}]`)
	rpcCallRaw(t, curl, rpcapi.MethodLedgerdAdvanceSlots, `[2]`) // the fork reads the cluster at confirmed

	fork := startCheatNode(t, Config{Fork: &ForkOptions{URL: curl, Timeout: 2 * time.Second, Attempts: 2,
		Backoff: 10 * time.Millisecond}})
	furl := fork.HTTPURL
	requests := func() uint64 {
		s, _ := fork.Ledger.ForkStats()
		return s.Requests
	}

	// Read first at finalized (the default), then at every level: the cluster's account, asked for once.
	wantLamports, wantData, _ := accountAt(t, curl, wallet.PublicKey().String(), "confirmed")
	for _, c := range []string{"finalized", "confirmed", "processed"} {
		if l, d, ok := accountAt(t, furl, wallet.PublicKey().String(), c); !ok || l != wantLamports || string(d) != string(wantData) {
			t.Fatalf("%s: %d %x %v, the cluster has %d", c, l, d, ok, wantLamports)
		}
	}
	if n := requests(); n != 1 {
		t.Fatalf("%d requests for one account", n)
	}

	// Scans are the fork's own: an owned account shows once it was read. getMultipleAccounts asks once for all.
	scan := func() string {
		return string(rpcCallRaw(t, furl, rpcapi.MethodGetProgramAccounts, `["`+ownerProg+`",{"commitment":"processed","encoding":"base64"}]`))
	}
	if s := scan(); strings.Contains(s, owned) {
		t.Fatalf("an account never read is in the fork's scan: %s", s)
	}
	r := string(rpcCallRaw(t, furl, rpcapi.MethodGetMultipleAccounts, `[["`+owned+`","`+mustKey(t)+`","`+mustKey(t)+`"]]`))
	if !strings.Contains(r, `"AQI=","base64"`) || strings.Count(r, "null") != 2 || requests() != 2 {
		t.Fatalf("getMultipleAccounts: %s after %d requests", r, requests())
	}
	if s := scan(); !strings.Contains(s, owned) {
		t.Fatalf("a read account is not in the fork's scan: %s", s)
	}

	// A token account comes with its mint: one read, two requests; the mint then reads locally.
	var bal struct {
		Value struct {
			Amount   string `json:"amount"`
			Decimals int    `json:"decimals"`
		} `json:"value"`
	}
	json.Unmarshal(rpcCallRaw(t, furl, rpcapi.MethodGetTokenAccountBalance, `["`+ata.String()+`"]`), &bal)
	if bal.Value.Amount != "1000" || bal.Value.Decimals != 6 || requests() != 4 {
		t.Fatalf("token balance %+v after %d requests", bal.Value, requests())
	}
	if _, d, ok := accountAt(t, furl, mint.String(), "confirmed"); !ok || string(d) != string(m.MintData()) || requests() != 4 {
		t.Fatalf("the mint: %v after %d requests", ok, requests())
	}

	if r := string(rpcCallRaw(t, furl, rpcapi.MethodGetTokenAccountsByOwner, `["`+holder.String()+`",{"mint":"`+mint.String()+`"},{"commitment":"processed","encoding":"base64"}]`)); !strings.Contains(r, ata.String()) {
		t.Fatalf("getTokenAccountsByOwner of a fetched token account: %s", r)
	}

	// The cluster's program runs on the fork, with no clone flag: the program and its program data are fetched.
	payer := fundedKeypair(t, furl)
	hash := latestBlockhash(t, furl)
	if r := string(mustCall(t, furl, invokeBody(t, rpcapi.MethodSimulateTransaction, payer, program, hash))); !strings.Contains(r, `"err":null`) ||
		!strings.Contains(r, "Program log: hello") {
		t.Fatalf("the cluster's program on the fork: %s", r)
	}
	mustCall(t, furl, invokeBody(t, rpcapi.MethodSendTransaction, payer, program, hash))

	// History is the fork's own.
	if r := string(rpcCallRaw(t, furl, rpcapi.MethodGetSignaturesForAddress, `["`+wallet.PublicKey().String()+`"]`)); r != "[]" {
		t.Fatalf("the cluster's history on the fork: %s", r)
	}
	if r := string(rpcCallRaw(t, furl, rpcapi.MethodGetTransaction, `["`+sig+`",{"commitment":"confirmed"}]`)); r != "null" {
		t.Fatalf("the cluster's transaction on the fork: %s", r)
	}

	// Offline: not fetched, although the cluster has it.
	before := requests()
	rpcCallRaw(t, furl, rpcapi.MethodSurfnetOfflineAccount, `["`+offline+`",{"includeOwnedAccounts":false}]`)
	if _, _, ok := accountAt(t, furl, offline, "processed"); ok || requests() != before {
		t.Fatalf("an offline account was fetched (%d requests, %d before)", requests(), before)
	}

	// surfnet_resetAccount makes an account the cluster's again, as it is now, and an offline one online.
	rpcCallRaw(t, furl, rpcapi.MethodSurfnetSetAccount, `["`+owned+`",{"lamports":5}]`)
	rpcCallRaw(t, curl, rpcapi.MethodSurfnetSetAccount, `["`+owned+`",{"lamports":4242}]`)
	rpcCallRaw(t, curl, rpcapi.MethodSurfnetSetAccount, `["`+offline+`",{"lamports":4343}]`)
	rpcCallRaw(t, curl, rpcapi.MethodLedgerdAdvanceSlots, `[1]`)
	for k, want := range map[string]uint64{owned: 4242, offline: 4343} {
		rpcCallRaw(t, furl, rpcapi.MethodSurfnetResetAccount, `["`+k+`"]`)
		if l, _, ok := accountAt(t, furl, k, "processed"); !ok || l != want {
			t.Fatalf("reset %s: %d %v, the cluster has %d", k, l, ok, want)
		}
	}

	// The cluster is gone: what the fork holds still reads; a read or a transaction needing anything else is a
	// -32603 naming the cluster, after two quick attempts.
	stopCluster()
	if _, _, ok := accountAt(t, furl, wallet.PublicKey().String(), "processed"); !ok {
		t.Fatal("a held account no longer reads")
	}
	start := time.Now()
	_, e := rawCall(t, furl, `{"jsonrpc":"2.0","id":1,"method":"getBalance","params":["`+mustKey(t)+`"]}`)
	if e == nil || e.Code != -32603 || !strings.Contains(e.Message, curl) || time.Since(start) > 3*time.Second {
		t.Fatalf("a read with the cluster gone: %+v after %s", e, time.Since(start))
	}
	tx, err = core.NewTransaction(payer.PublicKey(), []core.Instruction{core.TransferInstruction(payer.PublicKey(),
		core.MustParsePubkey(mustKey(t)), 1_000_000)}, latestBlockhash(t, furl), payer)
	if err != nil {
		t.Fatal(err)
	}
	_, e = rawCall(t, furl, `{"jsonrpc":"2.0","id":1,"method":"sendTransaction","params":["`+base64.StdEncoding.EncodeToString(tx.Serialize())+`",{"encoding":"base64","skipPreflight":true}]}`)
	if e == nil || e.Code != -32603 || !strings.Contains(e.Message, curl) {
		t.Fatalf("a transaction with the cluster gone: %+v", e)
	}
}
