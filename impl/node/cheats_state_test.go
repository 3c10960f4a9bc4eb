package node

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"ledgerd/generated/rpcapi"
	"ledgerd/generated/rpcclient"
	"ledgerd/impl/core"
	"ledgerd/impl/ledger"
	"ledgerd/impl/programs/system"
)

// accountSubs subscribes to key's account at each commitment level.
func accountSubs(ctx context.Context, t *testing.T, ws *rpcclient.WSClient, key string) map[string]*rpcclient.Subscription[rpcapi.AccountSubscribeNotification] {
	t.Helper()
	subs := map[string]*rpcclient.Subscription[rpcapi.AccountSubscribeNotification]{}
	for _, c := range []string{"processed", "confirmed", "finalized"} {
		commitment := rpcapi.Commitment(c)
		s, err := ws.AccountSubscribe(ctx, &rpcapi.AccountSubscribeParams{Pubkey: core.MustParsePubkey(key), Config: rpcapi.Some(rpcapi.AccountInfoConfig{Commitment: &commitment})})
		if err != nil {
			t.Fatal(err)
		}
		subs[c] = s
	}
	return subs
}

// waitNotified waits until every level's subscription reports lamports.
func waitNotified(ctx context.Context, t *testing.T, subs map[string]*rpcclient.Subscription[rpcapi.AccountSubscribeNotification], lamports uint64) {
	t.Helper()
	for c, s := range subs {
	wait:
		for {
			select {
			case note := <-s.C:
				if uint64(note.Value.Lamports) == lamports {
					break wait
				}
			case <-ctx.Done():
				t.Fatalf("%s subscription never reported %d lamports", c, lamports)
			}
		}
	}
}

func airdrop(t *testing.T, url, key string, lamports uint64) string {
	t.Helper()
	var sig string
	if err := json.Unmarshal(mustCall(t, url, `{"jsonrpc":"2.0","id":1,"method":"requestAirdrop","params":["`+key+`",`+itoa(lamports)+`]}`), &sig); err != nil {
		t.Fatal(err)
	}
	return sig
}

// surfnet_resetNetwork, as surfpool's SDK sends it (no params), after the store pruned the early slots (which
// ledgerd_revert could no longer reach): the start-up account is back to its genesis balance and the airdropped
// one gone at every commitment level and in their subscriptions, the history is gone, and the chain goes on.
func TestResetNetworkOverJSONRPC(t *testing.T) {
	startup, _ := core.NewKeypair()
	n := startCheatNode(t, Config{FinalityDepth: 2, SlotDuration: 5 * time.Millisecond, Genesis: ledger.GenesisOptions{
		Accounts: []ledger.GenesisAccount{{Pubkey: startup.PublicKey(), Lamports: 3_000_000_000, Owner: core.SystemProgramID}}}})
	url := n.HTTPURL
	g, k := startup.PublicKey().String(), mustKey(t)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	ws, err := rpcclient.Dial(ctx, n.WSURL)
	if err != nil {
		t.Fatal(err)
	}
	defer ws.Close()
	gSubs, kSubs := accountSubs(ctx, t, ws, g), accountSubs(ctx, t, ws, k)

	sig := airdrop(t, url, k, 1_000_000_000)
	mustCall(t, url, `{"jsonrpc":"2.0","id":2,"method":"surfnet_setAccount","params":["`+g+`",{"lamports":5000000000}]}`)
	waitNotified(ctx, t, kSubs, 1_000_000_000)
	waitNotified(ctx, t, gSubs, 5_000_000_000)
	// Past the store's prune lag, so slot 0 is beyond a revert's reach.
	for n.Ledger.Store().RevertableFrom() == 0 {
		if ctx.Err() != nil {
			t.Fatal("the store never pruned")
		}
		time.Sleep(10 * time.Millisecond)
	}
	var st struct {
		Value []*struct {
			Slot uint64 `json:"slot"`
		} `json:"value"`
	}
	if err := json.Unmarshal(mustCall(t, url, `{"jsonrpc":"2.0","id":3,"method":"getSignatureStatuses","params":[["`+sig+`"],{"searchTransactionHistory":true}]}`), &st); err != nil || st.Value[0] == nil {
		t.Fatalf("status of the airdrop: %v", err)
	}
	airdropSlot := st.Value[0].Slot

	r := mustCall(t, url, `{"jsonrpc":"2.0","id":4,"method":"surfnet_resetNetwork"}`)
	var resp struct {
		Context struct {
			Slot uint64 `json:"slot"`
		} `json:"context"`
		Value json.RawMessage `json:"value"`
	}
	if err := json.Unmarshal(r, &resp); err != nil || string(resp.Value) != "null" || resp.Context.Slot != 1 {
		t.Fatalf("surfnet_resetNetwork result %s, want null in slot 1", r)
	}
	for _, c := range []string{"processed", "confirmed", "finalized"} {
		if l, _, ok := accountAt(t, url, g, c); !ok || l != 3_000_000_000 {
			t.Errorf("%s start-up account after the reset: %d %v, want 3 SOL", c, l, ok)
		}
		if _, _, ok := accountAt(t, url, k, c); ok {
			t.Errorf("%s: the airdropped account survived the reset", c)
		}
	}
	waitNotified(ctx, t, gSubs, 3_000_000_000)
	waitNotified(ctx, t, kSubs, 0)
	if r := mustCall(t, url, `{"jsonrpc":"2.0","id":5,"method":"getSignaturesForAddress","params":["`+k+`"]}`); string(r) != "[]" {
		t.Errorf("history of the airdropped account after the reset: %s", r)
	}
	if r := mustCall(t, url, `{"jsonrpc":"2.0","id":6,"method":"getTransaction","params":["`+sig+`"]}`); string(r) != "null" {
		t.Errorf("the airdrop after the reset: %s", r)
	}
	// The airdrop's slot is not yet produced again (-32004), or is another block.
	if r, e := rawCall(t, url, `{"jsonrpc":"2.0","id":6,"method":"getBlock","params":[`+itoa(airdropSlot)+`,{"commitment":"confirmed","maxSupportedTransactionVersion":0}]}`); (e != nil && e.Code != -32004) || strings.Contains(string(r), sig) {
		t.Errorf("the airdrop's slot after the reset: %s %+v", r, e)
	}
	// The chain goes on from its genesis: the faucet pays again, and its slots finalize.
	airdrop(t, url, k, 2_000_000_000)
	waitNotified(ctx, t, kSubs, 2_000_000_000)
	// A snapshot taken before a reset is gone with the history it named.
	id := mustCall(t, url, `{"jsonrpc":"2.0","id":7,"method":"ledgerd_snapshot"}`)
	mustCall(t, url, `{"jsonrpc":"2.0","id":8,"method":"surfnet_resetNetwork","params":[]}`)
	if r := mustCall(t, url, `{"jsonrpc":"2.0","id":9,"method":"ledgerd_revert","params":[`+string(id)+`]}`); string(r) != "false" {
		t.Errorf("revert to a snapshot taken before the reset: %s", r)
	}
}

// surfnet_exportSnapshot as surfpool's SDKs send it (no params, [null], a config), its filters, and the round
// trip: a node started with the exported accounts (ledgerd --snapshot FILE.json) holds them, and exports them
// again byte for byte.
func TestExportSnapshotRoundTrip(t *testing.T) {
	n := startCheatNode(t, Config{})
	url := n.HTTPURL
	plain, mint, prog := mustKey(t), mustKey(t), mustKey(t)
	mintData := make([]byte, 82)
	mintData[44], mintData[45] = 6, 1
	mustCall(t, url, `{"jsonrpc":"2.0","id":1,"method":"surfnet_setAccount","params":["`+plain+`",{"lamports":1000000,"data":"0102ff","rentEpoch":3}]}`)
	mustCall(t, url, `{"jsonrpc":"2.0","id":2,"method":"surfnet_setAccount","params":["`+mint+`",{"lamports":1461600,"owner":"`+core.TokenProgramID.String()+`","data":"`+hexOf(mintData)+`"}]}`)
	mustCall(t, url, `{"jsonrpc":"2.0","id":3,"method":"surfnet_writeProgram","params":["`+prog+`","7f454c46",0]}`)

	type snapshot struct {
		Context struct {
			Slot uint64 `json:"slot"`
		} `json:"context"`
		Value map[string]map[string]json.RawMessage `json:"value"`
	}
	export := func(body string) snapshot {
		t.Helper()
		var s snapshot
		if err := json.Unmarshal(mustCall(t, url, body), &s); err != nil {
			t.Fatal(err)
		}
		return s
	}
	all := export(`{"jsonrpc":"2.0","id":4,"method":"surfnet_exportSnapshot"}`)
	p := all.Value[plain]
	if p == nil || string(p["lamports"]) != "1000000" || string(p["owner"]) != `"11111111111111111111111111111111"` ||
		string(p["data"]) != `"AQL/"` || string(p["rentEpoch"]) != "3" || string(p["executable"]) != "false" || string(p["parsedData"]) != "null" {
		t.Fatalf("exported account %v", p)
	}
	if all.Value[prog] != nil {
		t.Fatal("a program was exported without includeProgramAccounts")
	}
	for k := range all.Value {
		if pk, _ := core.ParsePubkey(k); core.IsSysvarID(pk) {
			t.Fatalf("sysvar %s exported", k)
		}
	}
	if nullConfig := export(`{"jsonrpc":"2.0","id":5,"method":"surfnet_exportSnapshot","params":[null]}`); nullConfig.Value[plain] == nil {
		t.Fatal("[null] config exported less")
	}
	parsed := export(`{"jsonrpc":"2.0","id":6,"method":"surfnet_exportSnapshot","params":[{"includeParsedAccounts":true,"filter":{"includeProgramAccounts":true,"excludeAccounts":["` + plain + `"]},"scope":"network"}]}`)
	if parsed.Value[plain] != nil || parsed.Value[prog] == nil || !strings.Contains(string(parsed.Value[mint]["parsedData"]), `"program":"spl-token"`) {
		t.Fatalf("export with parsed accounts, programs, and an exclusion: %v %v %s", parsed.Value[plain] != nil, parsed.Value[prog] != nil, parsed.Value[mint]["parsedData"])
	}
	if only := export(`{"jsonrpc":"2.0","id":7,"method":"surfnet_exportSnapshot","params":[{"filter":{"includeAccounts":["` + prog + `"]}}]}`); only.Value[prog] == nil {
		t.Fatal("includeAccounts did not export the program")
	}
	if _, e := rawCall(t, url, `{"jsonrpc":"2.0","id":8,"method":"surfnet_exportSnapshot","params":[{"scope":{"preTransaction":"`+strings.Repeat("1", 64)+`"}}]}`); e == nil || e.Code != -32602 || !strings.Contains(e.Message, "preTransaction") {
		t.Fatalf("preTransaction scope: %+v", e)
	}
	if _, e := rawCall(t, url, `{"jsonrpc":"2.0","id":9,"method":"surfnet_exportSnapshot","params":[{"scope":"everything"}]}`); e == nil || e.Code != -32602 {
		t.Fatalf("unknown scope: %+v", e)
	}

	// The round trip: the exported value, saved as a file, is the start-up accounts of a new node.
	var raw struct {
		Value json.RawMessage `json:"value"`
	}
	if err := json.Unmarshal(mustCall(t, url, `{"jsonrpc":"2.0","id":10,"method":"surfnet_exportSnapshot","params":[{"filter":{"includeAccounts":["`+prog+`"]}}]}`), &raw); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), "snapshot.json")
	if err := os.WriteFile(file, raw.Value, 0o644); err != nil {
		t.Fatal(err)
	}
	accounts, _, err := ledger.LoadAccountSnapshot(file)
	if err != nil {
		t.Fatal(err)
	}
	m := startCheatNode(t, Config{Genesis: ledger.GenesisOptions{Accounts: accounts}})
	for _, k := range []string{plain, mint, prog} {
		body := `{"jsonrpc":"2.0","id":11,"method":"getAccountInfo","params":["` + k + `",{"encoding":"base64","commitment":"processed"}]}`
		var a, b struct {
			Value json.RawMessage `json:"value"`
		}
		_ = json.Unmarshal(mustCall(t, url, body), &a)
		_ = json.Unmarshal(mustCall(t, m.HTTPURL, body), &b)
		if string(a.Value) != string(b.Value) || string(a.Value) == "null" {
			t.Errorf("%s: exported %s, loaded %s", k, a.Value, b.Value)
		}
	}
	var again struct {
		Value map[string]json.RawMessage `json:"value"`
	}
	if err := json.Unmarshal(mustCall(t, m.HTTPURL, `{"jsonrpc":"2.0","id":12,"method":"surfnet_exportSnapshot","params":[{"filter":{"includeAccounts":["`+prog+`"]}}]}`), &again); err != nil {
		t.Fatal(err)
	}
	var first map[string]json.RawMessage
	_ = json.Unmarshal(raw.Value, &first)
	for _, k := range []string{plain, mint, prog} {
		if string(first[k]) != string(again.Value[k]) {
			t.Errorf("%s exported again as %s, first %s", k, again.Value[k], first[k])
		}
	}
}

// ledgerd_dumpState, then a node started from the dump (--snapshot DIR): it answers getBlock, getTransaction,
// getSignaturesForAddress and getAccountInfo as the node that dumped did, and goes on producing after the dumped
// slot. Both produce slots only on request, so the node that dumped stays at the dumped slot for the comparison.
func TestDumpStateLoadState(t *testing.T) {
	n := startCheatNode(t, Config{FinalityDepth: 2, BlockProduction: ledger.ProduceOnRequest})
	url := n.HTTPURL
	k := mustKey(t)
	sig1 := airdrop(t, url, k, 1_000_000_000)
	mustCall(t, url, `{"jsonrpc":"2.0","id":1,"method":"ledgerd_advanceSlots","params":[3]}`)
	sig2 := airdrop(t, url, k, 2_000_000_000)
	dir := filepath.Join(t.TempDir(), "dump")
	var dump struct {
		Path string `json:"path"`
		Slot uint64 `json:"slot"`
	}
	if err := json.Unmarshal(mustCall(t, url, `{"jsonrpc":"2.0","id":1,"method":"ledgerd_dumpState","params":["`+dir+`"]}`), &dump); err != nil || dump.Path != dir {
		t.Fatalf("ledgerd_dumpState result %+v (%v)", dump, err)
	}
	if _, e := rawCall(t, url, `{"jsonrpc":"2.0","id":2,"method":"ledgerd_dumpState","params":["`+dir+`"]}`); e == nil || e.Code != -32602 || !strings.Contains(e.Message, "exists") {
		t.Fatalf("a dump over an existing path: %+v", e)
	}
	m := startCheatNode(t, Config{FinalityDepth: 2, BlockProduction: ledger.ProduceOnRequest, FromSnapshot: dir, Reset: true})
	if _, c, _ := m.Ledger.Slots(); c < dump.Slot {
		t.Fatalf("the loaded node's confirmed slot %d, below the dump's %d", c, dump.Slot)
	}
	var slots []uint64
	if err := json.Unmarshal(mustCall(t, url, `{"jsonrpc":"2.0","id":3,"method":"getBlocks","params":[0,`+itoa(dump.Slot)+`,{"commitment":"confirmed"}]}`), &slots); err != nil || len(slots) == 0 {
		t.Fatalf("blocks of the dumped node: %v", err)
	}
	same := func(body string) {
		t.Helper()
		a := mustCall(t, url, body)
		b, e := rawCall(t, m.HTTPURL, body)
		if e != nil {
			t.Fatalf("%s on the loaded node: %d %s", body, e.Code, e.Message)
		}
		if string(a) != string(b) {
			t.Errorf("%s:\n dumped %s\n loaded %s", body, a, b)
		}
	}
	for _, s := range slots {
		same(`{"jsonrpc":"2.0","id":4,"method":"getBlock","params":[` + itoa(s) + `,{"commitment":"confirmed","maxSupportedTransactionVersion":0,"rewards":true}]}`)
	}
	for _, sig := range []string{sig1, sig2} {
		same(`{"jsonrpc":"2.0","id":5,"method":"getTransaction","params":["` + sig + `",{"commitment":"confirmed","encoding":"json","maxSupportedTransactionVersion":0}]}`)
	}
	same(`{"jsonrpc":"2.0","id":6,"method":"getSignaturesForAddress","params":["` + k + `",{"commitment":"confirmed"}]}`)
	same(`{"jsonrpc":"2.0","id":7,"method":"getAccountInfo","params":["` + k + `",{"encoding":"base64","commitment":"confirmed","minContextSlot":` + itoa(dump.Slot) + `}]}`)
	same(`{"jsonrpc":"2.0","id":8,"method":"getGenesisHash"}`)
	same(`{"jsonrpc":"2.0","id":9,"method":"getAccountInfo","params":["` + k + `",{"encoding":"base64","commitment":"finalized"}]}`)
	same(`{"jsonrpc":"2.0","id":10,"method":"getEpochInfo","params":[{"commitment":"confirmed"}]}`)
	// It goes on from the dumped slot: new slots, and a transaction lands in one of them.
	mustCall(t, m.HTTPURL, `{"jsonrpc":"2.0","id":11,"method":"ledgerd_advanceSlots","params":[2]}`)
	waitCommitted(t, m, dump.Slot+2, ledger.Confirmed)
	sig3 := airdrop(t, m.HTTPURL, k, 3_000_000_000)
	mustCall(t, m.HTTPURL, `{"jsonrpc":"2.0","id":12,"method":"ledgerd_advanceSlots","params":[1]}`)
	var st struct {
		Value []*struct {
			Slot uint64 `json:"slot"`
		} `json:"value"`
	}
	if err := json.Unmarshal(mustCall(t, m.HTTPURL, `{"jsonrpc":"2.0","id":9,"method":"getSignatureStatuses","params":[["`+sig3+`"]]}`), &st); err != nil || st.Value[0] == nil || st.Value[0].Slot <= dump.Slot {
		t.Fatalf("a transaction on the loaded node: %+v (%v)", st.Value, err)
	}
	if l, _, _ := accountAt(t, m.HTTPURL, k, "processed"); l != 6_000_000_000 {
		t.Fatalf("balance on the loaded node %d, want 6 SOL", l)
	}
}

// surfnet_profileTransaction as surfpool's SDK sends it ([tx, tag, config], an absent tag as null): each
// instruction's account states before and after, its units and logs; the chain unchanged; the profile found
// again by uuid and by tag, in another encoding; a failing instruction's error; an unsigned transaction refused.
func TestProfileTransactionOverJSONRPC(t *testing.T) {
	n := startCheatNode(t, Config{})
	url := n.HTTPURL
	payer, _ := core.NewKeypair()
	to := mustKey(t)
	toKey, _ := core.ParsePubkey(to)
	mustCall(t, url, `{"jsonrpc":"2.0","id":1,"method":"surfnet_setAccount","params":["`+payer.PublicKey().String()+`",{"lamports":10000000000}]}`)
	build := func(second uint64) string {
		t.Helper()
		tx, err := core.NewTransaction(payer.PublicKey(), []core.Instruction{
			system.Transfer(payer.PublicKey(), toKey, 1_000_000_000),
			system.Transfer(payer.PublicKey(), toKey, second),
		}, n.Ledger.Bank(ledger.Processed).LastBlockhash(), payer)
		if err != nil {
			t.Fatal(err)
		}
		return base64.StdEncoding.EncodeToString(tx.Serialize())
	}
	type account struct {
		Lamports uint64 `json:"lamports"`
	}
	type state struct {
		Type          string `json:"type"`
		AccountChange *struct {
			Type string          `json:"type"`
			Data json.RawMessage `json:"data"`
		} `json:"accountChange"`
	}
	type profile struct {
		AccountStates        map[string]state `json:"accountStates"`
		ComputeUnitsConsumed uint64           `json:"computeUnitsConsumed"`
		LogMessages          []string         `json:"logMessages"`
		ErrorMessage         *string          `json:"errorMessage"`
	}
	type keyed struct {
		Slot                  uint64                     `json:"slot"`
		Key                   string                     `json:"key"`
		InstructionProfiles   []profile                  `json:"instructionProfiles"`
		TransactionProfile    profile                    `json:"transactionProfile"`
		ReadonlyAccountStates map[string]json.RawMessage `json:"readonlyAccountStates"`
	}
	var resp struct {
		Value keyed `json:"value"`
	}
	tx := build(2_000_000_000)
	if err := json.Unmarshal(mustCall(t, url, `{"jsonrpc":"2.0","id":2,"method":"surfnet_profileTransaction","params":["`+tx+`","transfers",{"encoding":"base64"}]}`), &resp); err != nil {
		t.Fatal(err)
	}
	p := resp.Value
	sysID, payerID := core.SystemProgramID.String(), payer.PublicKey().String()
	change := func(s state) (string, []account) {
		t.Helper()
		if s.Type != "writable" || s.AccountChange == nil {
			t.Fatalf("state %+v, want writable", s)
		}
		var accts []account
		switch s.AccountChange.Type {
		case "update":
			_ = json.Unmarshal(s.AccountChange.Data, &accts)
		default:
			var a *account
			_ = json.Unmarshal(s.AccountChange.Data, &a)
			if a != nil {
				accts = []account{*a}
			}
		}
		return s.AccountChange.Type, accts
	}
	if len(p.InstructionProfiles) != 2 || p.Key == "" || len(p.Key) != 36 {
		t.Fatalf("profile %+v", p)
	}
	if typ, a := change(p.InstructionProfiles[0].AccountStates[to]); typ != "create" || a[0].Lamports != 1_000_000_000 {
		t.Errorf("first instruction's recipient: %s %+v", typ, a)
	}
	if typ, a := change(p.InstructionProfiles[1].AccountStates[to]); typ != "update" || a[0].Lamports != 1_000_000_000 || a[1].Lamports != 3_000_000_000 {
		t.Errorf("second instruction's recipient: %s %+v", typ, a)
	}
	if typ, a := change(p.TransactionProfile.AccountStates[payerID]); typ != "update" || a[0].Lamports != 10_000_000_000 || a[1].Lamports != 10_000_000_000-3_000_000_000-5000 {
		t.Errorf("the payer over the transaction: %s %+v", typ, a)
	}
	for i, ix := range p.InstructionProfiles {
		if ix.AccountStates[sysID].Type != "readonly" || ix.ComputeUnitsConsumed != 150 || len(ix.LogMessages) != 2 || ix.ErrorMessage != nil {
			t.Errorf("instruction %d: %+v", i, ix)
		}
	}
	if tp := p.TransactionProfile; tp.ComputeUnitsConsumed != 300 || len(tp.LogMessages) != 4 || tp.ErrorMessage != nil {
		t.Errorf("transaction profile %+v", tp)
	}
	if !strings.Contains(string(p.ReadonlyAccountStates[sysID]), `"executable":true`) {
		t.Errorf("readonly accounts %v", p.ReadonlyAccountStates)
	}
	if _, _, ok := accountAt(t, url, to, "processed"); ok {
		t.Fatal("the profiled transaction changed the chain")
	}

	// Found again, by uuid and by tag, in the default encoding (jsonParsed) and depth.
	var again struct {
		Value *keyed `json:"value"`
	}
	if err := json.Unmarshal(mustCall(t, url, `{"jsonrpc":"2.0","id":3,"method":"surfnet_getTransactionProfile","params":["`+p.Key+`"]}`), &again); err != nil || again.Value == nil || again.Value.Key != p.Key || len(again.Value.InstructionProfiles) != 2 {
		t.Fatalf("surfnet_getTransactionProfile: %+v %v", again.Value, err)
	}
	var byTag struct {
		Value []keyed `json:"value"`
	}
	if err := json.Unmarshal(mustCall(t, url, `{"jsonrpc":"2.0","id":4,"method":"surfnet_getProfileResultsByTag","params":["transfers",{"depth":"transaction"}]}`), &byTag); err != nil || len(byTag.Value) != 1 || byTag.Value[0].Key != p.Key || byTag.Value[0].InstructionProfiles != nil {
		t.Fatalf("surfnet_getProfileResultsByTag: %+v %v", byTag.Value, err)
	}
	if r := mustCall(t, url, `{"jsonrpc":"2.0","id":5,"method":"surfnet_getProfileResultsByTag","params":["never"]}`); !strings.Contains(string(r), `"value":null`) {
		t.Fatalf("an unused tag: %s", r)
	}
	if r := mustCall(t, url, `{"jsonrpc":"2.0","id":6,"method":"surfnet_getTransactionProfile","params":["00000000-0000-4000-8000-000000000000"]}`); !strings.Contains(string(r), `"value":null`) {
		t.Fatalf("an unknown uuid: %s", r)
	}

	// The second transfer asks for more than the payer has: it fails, the first's profile stands.
	if err := json.Unmarshal(mustCall(t, url, `{"jsonrpc":"2.0","id":7,"method":"surfnet_profileTransaction","params":["`+build(100_000_000_000)+`",null,{"encoding":"base64"}]}`), &resp); err != nil {
		t.Fatal(err)
	}
	p = resp.Value
	if len(p.InstructionProfiles) != 2 || p.InstructionProfiles[0].ErrorMessage != nil || p.InstructionProfiles[1].ErrorMessage == nil ||
		p.TransactionProfile.ErrorMessage == nil || !strings.Contains(*p.TransactionProfile.ErrorMessage, "nstruction 1") {
		t.Fatalf("a failing second instruction: %+v", p)
	}
	if typ, _ := change(p.InstructionProfiles[1].AccountStates[to]); typ != "unchanged" {
		t.Errorf("the failed instruction's recipient: %s", typ)
	}

	// Signatures are verified, as surfpool does.
	raw, _ := base64.StdEncoding.DecodeString(build(1))
	raw[1] ^= 0xff
	if _, e := rawCall(t, url, `{"jsonrpc":"2.0","id":8,"method":"surfnet_profileTransaction","params":["`+base64.StdEncoding.EncodeToString(raw)+`"]}`); e == nil || e.Code != -32602 {
		t.Fatalf("a transaction with a bad signature: %+v", e)
	}
	if _, e := rawCall(t, url, `{"jsonrpc":"2.0","id":9,"method":"surfnet_profileTransaction","params":["not base64"]}`); e == nil || e.Code != -32602 {
		t.Fatalf("a transaction that is not base64: %+v", e)
	}
}

// A subscription made after the snapshot, and after the change a revert undoes, hears of the restored state: the
// revert's slot is below the slots the subscription's levels had reached when it was made.
func TestRevertNotifiesLaterSubscriptions(t *testing.T) {
	n := startCheatNode(t, Config{FinalityDepth: 2})
	url := n.HTTPURL
	k := mustKey(t)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	mustCall(t, url, `{"jsonrpc":"2.0","id":1,"method":"surfnet_setAccount","params":["`+k+`",{"lamports":1000000000}]}`)
	id := mustCall(t, url, `{"jsonrpc":"2.0","id":2,"method":"ledgerd_snapshot"}`)
	mustCall(t, url, `{"jsonrpc":"2.0","id":3,"method":"surfnet_setAccount","params":["`+k+`",{"lamports":2000000000}]}`)
	_, c, _ := n.Ledger.Slots()
	waitCommitted(t, n, c+3, ledger.Finalized)
	ws, err := rpcclient.Dial(ctx, n.WSURL)
	if err != nil {
		t.Fatal(err)
	}
	defer ws.Close()
	subs := accountSubs(ctx, t, ws, k)
	if r := mustCall(t, url, `{"jsonrpc":"2.0","id":4,"method":"ledgerd_revert","params":[`+string(id)+`]}`); string(r) != "true" {
		t.Fatalf("ledgerd_revert result %s", r)
	}
	waitNotified(ctx, t, subs, 1_000_000_000)
}

// The whole-chain methods answer -32601 naming --enable-cheats on a node bound beyond loopback, and change
// nothing: no reset, no dump written, no profile kept.
func TestStateCheatsGated(t *testing.T) {
	n := startCheatNode(t, Config{BindAddress: "0.0.0.0"})
	url := strings.Replace(n.HTTPURL, "0.0.0.0", "127.0.0.1", 1)
	k := mustKey(t)
	airdrop(t, url, k, 1_000_000_000)
	dir := filepath.Join(t.TempDir(), "dump")
	for _, body := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"surfnet_resetNetwork","params":[]}`,
		`{"jsonrpc":"2.0","id":2,"method":"surfnet_exportSnapshot","params":[]}`,
		`{"jsonrpc":"2.0","id":3,"method":"surfnet_profileTransaction","params":["AQAAAA=="]}`,
		`{"jsonrpc":"2.0","id":4,"method":"surfnet_getProfileResultsByTag","params":["t"]}`,
		`{"jsonrpc":"2.0","id":5,"method":"surfnet_getTransactionProfile","params":["00000000-0000-4000-8000-000000000000"]}`,
		`{"jsonrpc":"2.0","id":6,"method":"ledgerd_dumpState","params":["` + dir + `"]}`,
	} {
		if _, e := rawCall(t, url, body); e == nil || e.Code != -32601 || !strings.Contains(e.Message, "--enable-cheats") {
			t.Errorf("%s: want -32601 naming --enable-cheats, got %+v", body, e)
		}
	}
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Errorf("a refused dump wrote %s (%v)", dir, err)
	}
	if l, _, ok := accountAt(t, url, k, "processed"); !ok || l != 1_000_000_000 {
		t.Errorf("after a refused reset the airdropped account holds %d (%v)", l, ok)
	}
}
