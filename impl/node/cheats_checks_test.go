package node

import (
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"strings"
	"testing"

	"ledgerd/impl/core"
	"ledgerd/impl/ledger"
)

func latestBlockhash(t *testing.T, url string) core.Hash {
	t.Helper()
	r := mustCall(t, url, `{"jsonrpc":"2.0","id":1,"method":"getLatestBlockhash","params":[{"commitment":"processed"}]}`)
	var v struct {
		Value struct {
			Blockhash string `json:"blockhash"`
		} `json:"value"`
	}
	if err := json.Unmarshal(r, &v); err != nil {
		t.Fatal(err)
	}
	h, err := core.ParseHash(v.Value.Blockhash)
	if err != nil {
		t.Fatal(err)
	}
	return h
}

func sendTxBody(tx *core.Transaction) string {
	return `{"jsonrpc":"2.0","id":1,"method":"sendTransaction","params":["` + base64.StdEncoding.EncodeToString(tx.Serialize()) +
		`",{"encoding":"base64","preflightCommitment":"processed"}]}`
}

func fundedKeypair(t *testing.T, url string) core.Keypair {
	t.Helper()
	k, err := core.NewKeypair()
	if err != nil {
		t.Fatal(err)
	}
	mustCall(t, url, `{"jsonrpc":"2.0","id":1,"method":"surfnet_setAccount","params":["`+k.PublicKey().String()+`",{"lamports":10000000000}]}`)
	return k
}

// expectSignatureFailure checks the reference's preflight answer to a transaction whose signatures do not verify.
func expectSignatureFailure(t *testing.T, url string, tx *core.Transaction, what string) {
	t.Helper()
	_, e := rawCall(t, url, sendTxBody(tx))
	if e == nil || e.Code != -32002 || !strings.Contains(e.Message, "Transaction did not pass signature verification") {
		t.Fatalf("%s: want -32002 signature verification failure, got %+v", what, e)
	}
}

// Impersonation, as a test would use it over JSON-RPC: a transfer from an impersonated address with a zeroed
// signature runs; the same from an address not listed is refused with the reference's signature failure, as
// is the impersonated one's after ledgerd_stopImpersonating.
func TestImpersonateOverJSONRPC(t *testing.T) {
	n := startCheatNode(t, Config{})
	url := n.HTTPURL
	victim, other := fundedKeypair(t, url), fundedKeypair(t, url)
	to := mustKey(t)
	toKey := core.MustParsePubkey(to)
	hash := latestBlockhash(t, url)
	unsigned := func(from core.Keypair, lamports uint64) *core.Transaction {
		tx := core.NewTransferTx(from, toKey, lamports, hash)
		tx.Signatures[0] = core.Signature{}
		return tx
	}

	expectSignatureFailure(t, url, unsigned(victim, 1_000_000), "before impersonation")
	if r := mustCall(t, url, `{"jsonrpc":"2.0","id":1,"method":"ledgerd_impersonate","params":["`+victim.PublicKey().String()+`"]}`); !strings.Contains(string(r), `"value":null`) {
		t.Fatalf("ledgerd_impersonate: %s", r)
	}
	mustCall(t, url, sendTxBody(unsigned(victim, 1_000_000)))
	if l, _, ok := accountAt(t, url, to, "processed"); !ok || l != 1_000_000 {
		t.Fatalf("recipient after the impersonated transfer: %d %v", l, ok)
	}
	expectSignatureFailure(t, url, unsigned(other, 2_000_000), "an address not impersonated")

	if r := mustCall(t, url, `{"jsonrpc":"2.0","id":1,"method":"ledgerd_stopImpersonating","params":["`+victim.PublicKey().String()+`"]}`); string(r) != "true" {
		t.Fatalf("ledgerd_stopImpersonating: %s", r)
	}
	tx := unsigned(victim, 3_000_000)
	rand.Read(tx.Signatures[0][:]) // another signature, so not a duplicate of the first
	expectSignatureFailure(t, url, tx, "after stopImpersonating")
	if r := mustCall(t, url, `{"jsonrpc":"2.0","id":1,"method":"ledgerd_stopImpersonating","params":["`+victim.PublicKey().String()+`"]}`); string(r) != "false" {
		t.Fatalf("second ledgerd_stopImpersonating: %s", r)
	}
}

// With signature verification off any signature passes, in sendTransaction and in simulateTransaction with
// sigVerify; with the blockhash check off a transaction built on a blockhash the node never made runs.
func TestSigVerifyAndBlockhashCheckOff(t *testing.T) {
	n := startCheatNode(t, Config{})
	url := n.HTTPURL
	from := fundedKeypair(t, url)
	to := mustKey(t)
	toKey := core.MustParsePubkey(to)
	hash := latestBlockhash(t, url)
	tx := core.NewTransferTx(from, toKey, 1_000_000, hash)
	rand.Read(tx.Signatures[0][:])
	simulate := `{"jsonrpc":"2.0","id":1,"method":"simulateTransaction","params":["` + base64.StdEncoding.EncodeToString(tx.Serialize()) +
		`",{"encoding":"base64","sigVerify":true,"commitment":"processed"}]}`
	if r := mustCall(t, url, simulate); !strings.Contains(string(r), `"err":"SignatureFailure"`) {
		t.Fatalf("simulation with sigVerify before: %s", r)
	}
	expectSignatureFailure(t, url, tx, "verification on")
	if r := mustCall(t, url, `{"jsonrpc":"2.0","id":1,"method":"ledgerd_setSigVerify","params":[false]}`); string(r) != "false" {
		t.Fatalf("ledgerd_setSigVerify: %s", r)
	}
	if r := mustCall(t, url, simulate); !strings.Contains(string(r), `"err":null`) {
		t.Fatalf("simulation with sigVerify, verification off: %s", r)
	}
	mustCall(t, url, sendTxBody(tx))
	if l, _, ok := accountAt(t, url, to, "processed"); !ok || l != 1_000_000 {
		t.Fatalf("recipient with verification off: %d %v", l, ok)
	}
	mustCall(t, url, `{"jsonrpc":"2.0","id":1,"method":"ledgerd_setSigVerify","params":[true]}`)

	var never core.Hash
	rand.Read(never[:])
	stale := core.NewTransferTx(from, toKey, 2_000_000, never)
	if _, e := rawCall(t, url, sendTxBody(stale)); e == nil || e.Code != -32002 || !strings.Contains(e.Message, "Blockhash not found") {
		t.Fatalf("unknown blockhash, check on: %+v", e)
	}
	if r := mustCall(t, url, `{"jsonrpc":"2.0","id":1,"method":"ledgerd_setBlockhashCheck","params":[false]}`); string(r) != "false" {
		t.Fatalf("ledgerd_setBlockhashCheck: %s", r)
	}
	mustCall(t, url, sendTxBody(stale))
	if l, _, ok := accountAt(t, url, to, "processed"); !ok || l != 3_000_000 {
		t.Fatalf("recipient with the blockhash check off: %d %v", l, ok)
	}
}

// surfnet_setSupply as surfpool's SDK sends it (snake_case fields): getSupply answers the fields given, the
// others computed from the chain as before, and lists the accounts only when asked to.
func TestSetSupplyOverJSONRPC(t *testing.T) {
	// Manual production: no slot (and no vote fee burned) moves the computed circulating supply between the reads.
	n := startCheatNode(t, Config{BlockProduction: ledger.ProduceOnRequest})
	url := n.HTTPURL
	type supply struct {
		Value struct {
			Total, Circulating, NonCirculating uint64
			NonCirculatingAccounts             []string
		} `json:"value"`
	}
	get := func(cfg string) supply {
		var s supply
		if err := json.Unmarshal(mustCall(t, url, `{"jsonrpc":"2.0","id":1,"method":"getSupply","params":[`+cfg+`]}`), &s); err != nil {
			t.Fatal(err)
		}
		return s
	}
	before := get(`{"commitment":"processed"}`)
	k := mustKey(t)
	mustCall(t, url, `{"jsonrpc":"2.0","id":1,"method":"surfnet_setSupply","params":[{"total":1000000000000000,"non_circulating":200000000000000,"non_circulating_accounts":["`+k+`"]}]}`)
	after := get(`{"commitment":"processed"}`)
	if after.Value.Total != 1_000_000_000_000_000 || after.Value.NonCirculating != 200_000_000_000_000 ||
		after.Value.Circulating != before.Value.Circulating || len(after.Value.NonCirculatingAccounts) != 1 || after.Value.NonCirculatingAccounts[0] != k {
		t.Fatalf("getSupply after setSupply: %+v (before %+v)", after.Value, before.Value)
	}
	mustCall(t, url, `{"jsonrpc":"2.0","id":1,"method":"surfnet_setSupply","params":[{"circulating":5}]}`)
	if v := get(`{"commitment":"finalized","excludeNonCirculatingAccountsList":true}`).Value; v.Circulating != 5 || v.Total != 1_000_000_000_000_000 || len(v.NonCirculatingAccounts) != 0 {
		t.Fatalf("getSupply after a second setSupply, list excluded: %+v", v)
	}
	if _, e := rawCall(t, url, `{"jsonrpc":"2.0","id":1,"method":"surfnet_setSupply","params":[{"non_circulating_accounts":["xyz"]}]}`); e == nil || e.Code != -32602 {
		t.Fatalf("setSupply with a bad account: %+v", e)
	}
}

// The methods added here are gated as the other cheat methods: a node bound beyond loopback without
// --enable-cheats answers -32601 naming the flag, and changes nothing.
func TestProgramAndCheckCheatsGated(t *testing.T) {
	n := startCheatNode(t, Config{BindAddress: "0.0.0.0"})
	url := strings.Replace(n.HTTPURL, "0.0.0.0", "127.0.0.1", 1)
	k := mustKey(t)
	for _, call := range []string{
		`"ledgerd_impersonate","params":["` + k + `"]`,
		`"ledgerd_stopImpersonating","params":["` + k + `"]`,
		`"ledgerd_setSigVerify","params":[false]`,
		`"ledgerd_setBlockhashCheck","params":[false]`,
		`"surfnet_writeProgram","params":["` + k + `","00",0]`,
		`"surfnet_setProgramAuthority","params":["` + k + `"]`,
		`"surfnet_cloneProgramAccount","params":["` + k + `","` + mustKey(t) + `"]`,
		`"surfnet_setSupply","params":[{"total":1}]`,
	} {
		_, e := rawCall(t, url, `{"jsonrpc":"2.0","id":1,"method":`+call+`}`)
		if e == nil || e.Code != -32601 || !strings.Contains(e.Message, "--enable-cheats") {
			t.Errorf("%s: want -32601 naming --enable-cheats, got %+v", call, e)
		}
	}
	if _, _, ok := accountAt(t, url, k, "processed"); ok {
		t.Errorf("a refused surfnet_writeProgram wrote %s", k)
	}
}
