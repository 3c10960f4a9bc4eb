package rpc

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"slices"
	"testing"

	"ledgerd/generated/rpcapi"
	"ledgerd/impl/core"
)

// objectKeys returns the keys of every JSON object in raw, object by object, in the order written.
func objectKeys(t *testing.T, raw []byte) [][]string {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var out [][]string
	var walk func() // reads one value
	walk = func() {
		tok, err := dec.Token()
		if err != nil {
			t.Fatalf("reading %s: %v", raw, err)
		}
		switch tok {
		case json.Delim('{'):
			var keys []string
			i := len(out)
			out = append(out, nil)
			for dec.More() {
				k, err := dec.Token()
				if err != nil {
					t.Fatal(err)
				}
				keys = append(keys, k.(string))
				walk()
			}
			out[i] = keys
			_, _ = dec.Token()
		case json.Delim('['):
			for dec.More() {
				walk()
			}
			_, _ = dec.Token()
		}
	}
	walk()
	if _, err := dec.Token(); err != io.EOF {
		t.Fatalf("trailing data in %s", raw)
	}
	return out
}

// serdeValue writes what the reference's serde_json Value writes: keys sorted at every depth, u64 exact, no
// HTML escaping.
func TestSerdeValue(t *testing.T) {
	t.Parallel()
	type inner struct {
		Z uint64 `json:"z"`
		A string `json:"a"`
	}
	got, err := serdeValue(struct {
		Logs  []inner `json:"logs"`
		Err   any     `json:"err"`
		Count uint64  `json:"count"`
	}{Logs: []inner{{Z: 18446744073709551615, A: "<&>"}}, Err: map[string]any{"b": 1, "a": 2}, Count: 1})
	if err != nil {
		t.Fatal(err)
	}
	const want = `{"count":1,"err":{"a":2,"b":1},"logs":[{"a":"<&>","z":18446744073709551615}]}`
	if string(got) != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}

// The data of a -32002 preflight failure has its keys in the reference's order (sorted, at every depth), as its
// json! writes it.
func TestSendTransactionPreflightDataOrder(t *testing.T) {
	t.Parallel()
	s, l := newTestServer(t)
	payer := stFund(t, l, 1_000_000_000)
	tx := core.NewTransferTx(payer, core.KeypairFromSeed([32]byte{}).PublicKey(), 5_000_000_000, stRecentHash(l))
	_, err := s.SendTransaction(context.Background(), &rpcapi.SendTransactionParams{Transaction: txB58(tx),
		Config: rpcapi.Some(rpcapi.SendTransactionConfig{PreflightCommitment: txPtr(rpcapi.CommitmentProcessed)})})
	e := txWantError(t, err, -32002, "")
	raw, err := json.Marshal(e.Data)
	if err != nil {
		t.Fatal(err)
	}
	objects := objectKeys(t, raw)
	if len(objects) < 2 {
		t.Fatalf("data %s: want the value and its err object", raw)
	}
	for _, keys := range objects {
		if !slices.IsSorted(keys) {
			t.Errorf("keys %v not in the reference's (sorted) order in %s", keys, raw)
		}
	}
}
