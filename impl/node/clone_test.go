package node

import (
	"context"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"ledgerd/generated/rpcapi"
	"ledgerd/impl/core"
)

// fakeCluster answers getMultipleAccounts from accounts (a missing key is null) and records how many addresses
// each request asked for; fail, when set, answers a request instead.
type fakeCluster struct {
	mu       sync.Mutex
	accounts map[string]rpcAccount
	sizes    []int
	fail     func(n int, w http.ResponseWriter) bool
}

func (f *fakeCluster) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	var req struct {
		Method string            `json:"method"`
		Params []json.RawMessage `json:"params"`
	}
	json.NewDecoder(r.Body).Decode(&req)
	f.mu.Lock()
	n := len(f.sizes)
	var keys []string
	if len(req.Params) > 0 {
		json.Unmarshal(req.Params[0], &keys)
	}
	f.sizes = append(f.sizes, len(keys))
	f.mu.Unlock()
	if f.fail != nil && f.fail(n, w) {
		return
	}
	if req.Method == rpcapi.MethodGetSlot {
		fmt.Fprint(w, `{"jsonrpc":"2.0","result":4242,"id":1}`)
		return
	}
	values := make([]any, len(keys))
	for i, k := range keys {
		if a, ok := f.accounts[k]; ok {
			values[i] = a
		}
	}
	json.NewEncoder(w).Encode(map[string]any{"jsonrpc": "2.0", "id": 1,
		"result": map[string]any{"context": map[string]any{"slot": 1}, "value": values}})
}

func b64(b []byte) [2]string { return [2]string{base64.StdEncoding.EncodeToString(b), "base64"} }

// Addresses go 100 to a request, duplicates once; missing ones are skipped by --maybe-clone and refused by
// --clone with the address named.
func TestCloneChunksAndMissing(t *testing.T) {
	t.Parallel()
	present := core.Pubkey{1, 2, 3}
	f := &fakeCluster{accounts: map[string]rpcAccount{present.String(): {Lamports: 7, Owner: core.SystemProgramID.String(),
		Data: b64([]byte("data")), RentEpoch: ^uint64(0)}}}
	srv := httptest.NewServer(f)
	defer srv.Close()
	var keys []core.Pubkey
	for i := range 250 {
		keys = append(keys, core.Pubkey{0xEE, byte(i)})
	}
	keys = append(keys, present, present)
	got, err := CloneAccounts(context.Background(), CloneOptions{URL: srv.URL, MaybeClone: keys})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || got[0].Pubkey != present || got[0].Lamports != 7 || string(got[0].Data) != "data" ||
		got[0].RentEpoch != ^uint64(0) || got[0].Owner != core.SystemProgramID {
		t.Fatalf("cloned %+v", got)
	}
	if fmt.Sprint(f.sizes) != "[100 100 51]" {
		t.Fatalf("request sizes %v, want [100 100 51]", f.sizes)
	}
	_, err = CloneAccounts(context.Background(), CloneOptions{URL: srv.URL, Clone: []core.Pubkey{present, keys[3]}})
	if err == nil || !strings.Contains(err.Error(), keys[3].String()) || !strings.Contains(err.Error(), "does not exist") {
		t.Fatalf("--clone of a missing account: %v", err)
	}
}

// An upgradeable program comes with its program data, whose deployment slot becomes 0; a program-data address
// that is not one, or a --clone-upgradeable-program of an account that is not a program, is refused.
func TestCloneUpgradeableProgram(t *testing.T) {
	t.Parallel()
	program, pd, auth := core.Pubkey{0xA1}, core.Pubkey{0xA2}, core.Pubkey{0xA3}
	progData := binary.LittleEndian.AppendUint32(nil, 2)
	progData = append(progData, pd[:]...)
	pdData := binary.LittleEndian.AppendUint32(nil, 3)
	pdData = binary.LittleEndian.AppendUint64(pdData, 777)
	pdData = append(append(pdData, 1), auth[:]...)
	pdData = append(pdData, []byte("\x7fELF...")...)
	loader := core.BPFLoaderUpgradeableProgramID.String()
	f := &fakeCluster{accounts: map[string]rpcAccount{
		program.String(): {Lamports: 1, Owner: loader, Executable: true, Data: b64(progData)},
		pd.String():      {Lamports: 2, Owner: loader, Data: b64(pdData)},
	}}
	srv := httptest.NewServer(f)
	defer srv.Close()
	got, err := CloneAccounts(context.Background(), CloneOptions{URL: srv.URL, UpgradeablePrograms: []core.Pubkey{program}})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[0].Pubkey != program || !got[0].Executable || got[1].Pubkey != pd {
		t.Fatalf("cloned %+v", got)
	}
	if slot := binary.LittleEndian.Uint64(got[1].Data[4:12]); slot != 0 || string(got[1].Data[13:45]) != string(auth[:]) {
		t.Fatalf("program data deployed at %d, authority %x", slot, got[1].Data[13:45])
	}
	// --clone of the program data resets its slot too (the reference does, ignoring accounts that are not).
	got, err = CloneAccounts(context.Background(), CloneOptions{URL: srv.URL, Clone: []core.Pubkey{pd}})
	if err != nil || binary.LittleEndian.Uint64(got[0].Data[4:12]) != 0 {
		t.Fatalf("--clone of program data: %v %+v", err, got)
	}
	if _, err := CloneAccounts(context.Background(), CloneOptions{URL: srv.URL, UpgradeablePrograms: []core.Pubkey{pd}}); err == nil ||
		!strings.Contains(err.Error(), "not a program of the upgradeable loader") {
		t.Fatalf("program data as a program: %v", err)
	}
	f.accounts[pd.String()] = rpcAccount{Lamports: 2, Owner: loader, Data: b64([]byte{9, 9, 9})}
	if _, err := CloneAccounts(context.Background(), CloneOptions{URL: srv.URL, UpgradeablePrograms: []core.Pubkey{program}}); err == nil ||
		!strings.Contains(err.Error(), "not an upgradeable loader program-data account") {
		t.Fatalf("damaged program data: %v", err)
	}
}

// A lookup table comes with the accounts it lists that exist.
func TestCloneLookupTable(t *testing.T) {
	t.Parallel()
	table, listed, missing := core.Pubkey{0xB1}, core.Pubkey{0xB2}, core.Pubkey{0xB3}
	data := append(make([]byte, lookupTableMetaSize), listed[:]...)
	data = append(data, missing[:]...)
	f := &fakeCluster{accounts: map[string]rpcAccount{
		table.String():  {Lamports: 1, Owner: core.AddressLookupTableProgramID.String(), Data: b64(data)},
		listed.String(): {Lamports: 3, Owner: core.SystemProgramID.String(), Data: b64(nil)},
	}}
	srv := httptest.NewServer(f)
	defer srv.Close()
	got, err := CloneAccounts(context.Background(), CloneOptions{URL: srv.URL, LookupTables: []core.Pubkey{table}})
	if err != nil || len(got) != 2 || got[0].Pubkey != table || got[1].Pubkey != listed {
		t.Fatalf("cloned %v %+v", err, got)
	}
	if _, err := CloneAccounts(context.Background(), CloneOptions{URL: srv.URL, LookupTables: []core.Pubkey{listed}}); err == nil ||
		!strings.Contains(err.Error(), "not an address lookup table") {
		t.Fatalf("not a table: %v", err)
	}
}

// A cluster that cannot answer is a clear error after a bounded number of bounded attempts, never a hang: a
// server that never replies, one that keeps failing, one that refuses connections; an overloaded answer is tried
// again, and a JSON-RPC error is final at once.
func TestCloneRemoteFailures(t *testing.T) {
	t.Parallel()
	key := []core.Pubkey{{0xC1}}
	fast := func(url string) CloneOptions {
		return CloneOptions{URL: url, MaybeClone: key, Timeout: 200 * time.Millisecond, Attempts: 2, Backoff: 10 * time.Millisecond}
	}
	hang := make(chan struct{})
	stuck := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.ReadAll(r.Body)
		select {
		case <-hang:
		case <-r.Context().Done():
		}
	}))
	defer func() { close(hang); stuck.Close() }()
	if _, err := CloneAccounts(context.Background(), fast(stuck.URL)); err == nil || !strings.Contains(err.Error(), "after 2 attempts") {
		t.Fatalf("a server that never answers: %v", err)
	}

	f := &fakeCluster{fail: func(n int, w http.ResponseWriter) bool {
		if n == 0 {
			w.WriteHeader(http.StatusServiceUnavailable)
			return true
		}
		return false
	}}
	flaky := httptest.NewServer(f)
	defer flaky.Close()
	if _, err := CloneAccounts(context.Background(), fast(flaky.URL)); err != nil || len(f.sizes) != 2 {
		t.Fatalf("a 503 then an answer: %v after %d requests", err, len(f.sizes))
	}
	f.fail = func(n int, w http.ResponseWriter) bool {
		w.WriteHeader(http.StatusBadGateway)
		return true
	}
	if _, err := CloneAccounts(context.Background(), fast(flaky.URL)); err == nil || !strings.Contains(err.Error(), "502") {
		t.Fatalf("a server that keeps failing: %v", err)
	}

	refused := httptest.NewServer(http.NotFoundHandler())
	url := refused.URL
	refused.Close()
	if _, err := CloneAccounts(context.Background(), fast(url)); err == nil || !strings.Contains(err.Error(), url) {
		t.Fatalf("refused connections: %v", err)
	}

	rpcErr := &fakeCluster{fail: func(n int, w http.ResponseWriter) bool {
		fmt.Fprint(w, `{"jsonrpc":"2.0","error":{"code":-32602,"message":"Invalid param"},"id":1}`)
		return true
	}}
	bad := httptest.NewServer(rpcErr)
	defer bad.Close()
	if _, err := CloneAccounts(context.Background(), fast(bad.URL)); err == nil || !strings.Contains(err.Error(), "Invalid param") ||
		len(rpcErr.sizes) != 1 {
		t.Fatalf("a JSON-RPC error: %v after %d requests", err, len(rpcErr.sizes))
	}
	if _, err := CloneAccounts(context.Background(), CloneOptions{MaybeClone: key}); err == nil || !strings.Contains(err.Error(), "--url") {
		t.Fatalf("no URL: %v", err)
	}
	slotSrv := httptest.NewServer(&fakeCluster{})
	defer slotSrv.Close()
	if slot, err := ClusterSlot(context.Background(), slotSrv.URL); err != nil || slot != 4242 {
		t.Fatalf("cluster slot %d %v", slot, err)
	}
}

// Whatever a cluster answers, decoding it is an error or accounts at the addresses asked for, never a panic.
func FuzzCloneReply(f *testing.F) {
	f.Add([]byte(`{"jsonrpc":"2.0","result":{"context":{"slot":1},"value":[null,{"lamports":1,"owner":"11111111111111111111111111111111","data":["AQID","base64"],"executable":false,"rentEpoch":18446744073709551615}]},"id":1}`))
	f.Add([]byte(`{"jsonrpc":"2.0","error":{"code":-32602,"message":"x"},"id":1}`))
	f.Add([]byte(`{"result":{"value":[{"owner":"x","data":["","base58"]}]}}`))
	f.Add([]byte(`{"result":null}`))
	keys := []core.Pubkey{{1}, {2}}
	f.Fuzz(func(t *testing.T, raw []byte) {
		var result struct {
			Value []*rpcAccount `json:"value"`
		}
		if decodeReply(rpcapi.MethodGetMultipleAccounts, raw, &result) != nil {
			return
		}
		got, err := genesisAccounts(keys, result.Value)
		if err != nil {
			return
		}
		for i, a := range got {
			if a != nil && a.Pubkey != keys[i] {
				t.Fatalf("account %d at %s", i, a.Pubkey)
			}
		}
	})
}
