package node

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"ledgerd/generated/rpcapi"
	"ledgerd/generated/rpcclient"
	"ledgerd/impl/core"
	"ledgerd/impl/ledger"
)

func startCheatNode(t *testing.T, cfg Config) *Node {
	t.Helper()
	cfg.LedgerDir, cfg.RPCPort, cfg.WSPort = t.TempDir(), -1, -1
	cfg.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	if cfg.SlotDuration == 0 {
		cfg.SlotDuration = 20 * time.Millisecond
	}
	n, err := Start(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { n.Close(context.Background()) })
	return n
}

// rawCall posts one request body exactly as written (as surfpool's SDK sends it) and returns the reply's result
// or error.
func rawCall(t *testing.T, url, body string) (result json.RawMessage, rpcErr *rpcapi.Error) {
	t.Helper()
	resp, err := http.Post(url, "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var reply struct {
		Result json.RawMessage `json:"result"`
		Error  *rpcapi.Error   `json:"error"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&reply); err != nil {
		t.Fatalf("%s: %v", body, err)
	}
	return reply.Result, reply.Error
}

func mustCall(t *testing.T, url, body string) json.RawMessage {
	t.Helper()
	r, e := rawCall(t, url, body)
	if e != nil {
		t.Fatalf("%s: %d %s", body, e.Code, e.Message)
	}
	return r
}

func accountAt(t *testing.T, url, key, commitment string) (lamports uint64, data []byte, found bool) {
	t.Helper()
	r := mustCall(t, url, `{"jsonrpc":"2.0","id":1,"method":"getAccountInfo","params":["`+key+`",{"encoding":"base64","commitment":"`+commitment+`"}]}`)
	var v struct {
		Value *struct {
			Lamports uint64    `json:"lamports"`
			Data     [2]string `json:"data"`
		} `json:"value"`
	}
	if err := json.Unmarshal(r, &v); err != nil {
		t.Fatal(err)
	}
	if v.Value == nil {
		return 0, nil, false
	}
	data, _ = base64.StdEncoding.DecodeString(v.Value.Data[0])
	return v.Value.Lamports, data, true
}

func waitCommitted(t *testing.T, n *Node, slot uint64, level ledger.Commitment) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		_, c, f := n.Ledger.Slots()
		if (level == ledger.Confirmed && c >= slot) || (level == ledger.Finalized && f >= slot) {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("slot %d never reached %s", slot, level)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// The cheat methods as surfpool's SDK sends them, with surfpool's result shapes; each change is visible at
// processed at once and reaches confirmed and finalized with its slot.
func TestSurfnetCheatsOverJSONRPC(t *testing.T) {
	n := startCheatNode(t, Config{FinalityDepth: 2})
	url := n.HTTPURL
	k := mustKey(t)

	r := mustCall(t, url, `{"jsonrpc":"2.0","id":1,"method":"surfnet_setAccount","params":["`+k+`",{"lamports":5000000000,"data":"deadbeef","owner":"11111111111111111111111111111111","executable":false,"rentEpoch":0}]}`)
	var resp struct {
		Context struct {
			Slot       uint64 `json:"slot"`
			APIVersion string `json:"apiVersion"`
		} `json:"context"`
		Value json.RawMessage `json:"value"`
	}
	if err := json.Unmarshal(r, &resp); err != nil || string(resp.Value) != "null" || resp.Context.APIVersion == "" {
		t.Fatalf("surfnet_setAccount result %s (%v)", r, err)
	}
	if l, d, ok := accountAt(t, url, k, "processed"); !ok || l != 5_000_000_000 || !bytes.Equal(d, []byte{0xde, 0xad, 0xbe, 0xef}) {
		t.Fatalf("processed account after setAccount: %d %x %v", l, d, ok)
	}
	waitCommitted(t, n, resp.Context.Slot, ledger.Finalized)
	for _, c := range []string{"confirmed", "finalized"} {
		if l, _, ok := accountAt(t, url, k, c); !ok || l != 5_000_000_000 {
			t.Fatalf("%s account after its slot was finalized: %d %v", c, l, ok)
		}
	}
	// A partial update keeps the other fields.
	mustCall(t, url, `{"jsonrpc":"2.0","id":2,"method":"surfnet_setAccount","params":["`+k+`",{"lamports":7}]}`)
	if l, d, _ := accountAt(t, url, k, "processed"); l != 7 || len(d) != 4 {
		t.Fatalf("after a lamports-only update: %d %x", l, d)
	}
	if _, e := rawCall(t, url, `{"jsonrpc":"2.0","id":3,"method":"surfnet_setAccount","params":["`+k+`",{"data":"xyz"}]}`); e == nil || e.Code != -32602 {
		t.Fatalf("bad hex: %+v", e)
	}
	if _, e := rawCall(t, url, `{"jsonrpc":"2.0","id":3,"method":"surfnet_setAccount","params":["SysvarC1ock11111111111111111111111111111111",{"lamports":1}]}`); e == nil || e.Code != -32602 {
		t.Fatalf("setting a sysvar: %+v", e)
	}

	// A mint, then the owner's associated token account, found by the owner index at processed and confirmed.
	mint, owner := mustKey(t), mustKey(t)
	mintData := make([]byte, 82)
	mintData[44], mintData[45] = 6, 1 // decimals, initialized
	mustCall(t, url, `{"jsonrpc":"2.0","id":4,"method":"surfnet_setAccount","params":["`+mint+`",{"lamports":1461600,"owner":"`+core.TokenProgramID.String()+`","data":"`+hexOf(mintData)+`"}]}`)
	r = mustCall(t, url, `{"jsonrpc":"2.0","id":5,"method":"surfnet_setTokenAccount","params":["`+owner+`","`+mint+`",{"amount":1000,"state":"initialized"}]}`)
	if err := json.Unmarshal(r, &resp); err != nil || string(resp.Value) != "null" {
		t.Fatalf("surfnet_setTokenAccount result %s", r)
	}
	ownerKey, _ := core.ParsePubkey(owner)
	mintKey, _ := core.ParsePubkey(mint)
	ata, _ := core.FindAssociatedTokenAddress(ownerKey, mintKey, core.TokenProgramID)
	checkTokenAmount := func(commitment, want string) {
		t.Helper()
		r := mustCall(t, url, `{"jsonrpc":"2.0","id":6,"method":"getTokenAccountsByOwner","params":["`+owner+`",{"mint":"`+mint+`"},{"encoding":"jsonParsed","commitment":"`+commitment+`"}]}`)
		var v struct {
			Value []struct {
				Pubkey  string `json:"pubkey"`
				Account struct {
					Data struct {
						Parsed struct {
							Info struct {
								TokenAmount struct {
									Amount string `json:"amount"`
								} `json:"tokenAmount"`
							} `json:"info"`
						} `json:"parsed"`
					} `json:"data"`
				} `json:"account"`
			} `json:"value"`
		}
		if err := json.Unmarshal(r, &v); err != nil || len(v.Value) != 1 || v.Value[0].Pubkey != ata.String() ||
			v.Value[0].Account.Data.Parsed.Info.TokenAmount.Amount != want {
			t.Fatalf("%s token accounts of the owner: %s", commitment, r)
		}
	}
	checkTokenAmount("processed", "1000")
	waitCommitted(t, n, resp.Context.Slot, ledger.Confirmed)
	checkTokenAmount("confirmed", "1000")
	mustCall(t, url, `{"jsonrpc":"2.0","id":7,"method":"surfnet_setTokenAccount","params":["`+owner+`","`+mint+`",{"amount":5,"delegate":"`+mint+`","delegatedAmount":2}]}`)
	checkTokenAmount("processed", "5")
	if _, e := rawCall(t, url, `{"jsonrpc":"2.0","id":8,"method":"surfnet_setTokenAccount","params":["`+owner+`","`+owner+`",{"amount":5}]}`); e == nil || e.Code != -32602 {
		t.Fatalf("token account of a non-mint: %+v", e)
	}

	// resetAccount with the owned accounts.
	prog := mustKey(t)
	owned := mustKey(t)
	mustCall(t, url, `{"jsonrpc":"2.0","id":9,"method":"surfnet_setAccount","params":["`+owned+`",{"lamports":1000000,"owner":"`+prog+`"}]}`)
	mustCall(t, url, `{"jsonrpc":"2.0","id":10,"method":"surfnet_setAccount","params":["`+prog+`",{"lamports":1000000}]}`)
	mustCall(t, url, `{"jsonrpc":"2.0","id":11,"method":"surfnet_resetAccount","params":["`+prog+`",{"includeOwnedAccounts":true}]}`)
	for _, a := range []string{prog, owned} {
		if _, _, ok := accountAt(t, url, a, "processed"); ok {
			t.Fatalf("%s survived resetAccount", a)
		}
	}

	// The clock: paused, no slot; resumed, slots again. Results are getEpochInfo's shape.
	r = mustCall(t, url, `{"jsonrpc":"2.0","id":12,"method":"surfnet_pauseClock","params":[]}`)
	var info map[string]any
	if err := json.Unmarshal(r, &info); err != nil || info["absoluteSlot"] == nil || info["slotsInEpoch"] == nil {
		t.Fatalf("surfnet_pauseClock result %s", r)
	}
	time.Sleep(50 * time.Millisecond)
	_, c0, _ := n.Ledger.Slots()
	time.Sleep(100 * time.Millisecond)
	if _, c, _ := n.Ledger.Slots(); c != c0 {
		t.Fatalf("confirmed moved %d -> %d with the clock paused", c0, c)
	}
	mustCall(t, url, `{"jsonrpc":"2.0","id":13,"method":"surfnet_resumeClock","params":[]}`)
	waitCommitted(t, n, c0+2, ledger.Confirmed)

	// Time travel to a timestamp an hour ahead: the next slot's Clock carries it.
	start := n.Ledger.Bank(ledger.Processed).Env.Clock.UnixTimestamp
	target := (start + 3600) * 1000
	r = mustCall(t, url, `{"jsonrpc":"2.0","id":14,"method":"surfnet_timeTravel","params":[{"absoluteTimestamp":`+itoa(uint64(target))+`}]}`)
	if err := json.Unmarshal(r, &info); err != nil || info["epoch"] == nil {
		t.Fatalf("surfnet_timeTravel result %s", r)
	}
	if got := n.Ledger.Bank(ledger.Processed).Env.Clock.UnixTimestamp; got < start+3600 {
		t.Fatalf("clock %d after travelling to %d", got, start+3600)
	}
	if _, e := rawCall(t, url, `{"jsonrpc":"2.0","id":15,"method":"surfnet_timeTravel","params":[{"absoluteSlot":1}]}`); e == nil || e.Code != -32602 {
		t.Fatalf("travel into the past: %+v", e)
	}

	r = mustCall(t, url, `{"jsonrpc":"2.0","id":16,"method":"surfnet_getSurfnetInfo","params":[]}`)
	if !strings.Contains(string(r), `"value":{"runbookExecutions":[]}`) || !strings.Contains(string(r), `"context":{"slot":`) {
		t.Fatalf("surfnet_getSurfnetInfo result %s", r)
	}
	r = mustCall(t, url, `{"jsonrpc":"2.0","id":17,"method":"ledgerd_advanceSlots","params":[3]}`)
	if _, e := rawCall(t, url, `{"jsonrpc":"2.0","id":18,"method":"ledgerd_advanceSlots","params":[0]}`); e == nil || e.Code != -32602 {
		t.Fatalf("advancing 0 slots: %+v", e)
	}
}

// Cheat methods answer only on loopback or with --enable-cheats; elsewhere -32601 says how to enable them.
func TestCheatsGating(t *testing.T) {
	body := `{"jsonrpc":"2.0","id":1,"method":"surfnet_setAccount","params":["11111111111111111111111111111112",{"lamports":1}]}`
	for _, tc := range []struct {
		bind   string
		enable bool
		served bool
	}{
		{"127.0.0.1", false, true},
		{"0.0.0.0", false, false},
		{"0.0.0.0", true, true},
	} {
		n := startCheatNode(t, Config{BindAddress: tc.bind, EnableCheats: tc.enable})
		url := strings.Replace(n.HTTPURL, "0.0.0.0", "127.0.0.1", 1)
		_, e := rawCall(t, url, body)
		if tc.served && e != nil {
			t.Errorf("bind %s enable %v: %d %s", tc.bind, tc.enable, e.Code, e.Message)
		}
		if !tc.served && (e == nil || e.Code != -32601 || !strings.Contains(e.Message, "--enable-cheats")) {
			t.Errorf("bind %s enable %v: want -32601 naming --enable-cheats, got %+v", tc.bind, tc.enable, e)
		}
		for _, m := range []string{rpcapi.MethodLedgerdSnapshot, rpcapi.MethodSurfnetPauseClock} {
			_, e := rawCall(t, url, `{"jsonrpc":"2.0","id":1,"method":"`+m+`","params":[]}`)
			if tc.served != (e == nil) {
				t.Errorf("bind %s enable %v: %s answered %+v", tc.bind, tc.enable, m, e)
			}
		}
		// Readiness polling works everywhere.
		if _, e := rawCall(t, url, `{"jsonrpc":"2.0","id":1,"method":"surfnet_getSurfnetInfo","params":[]}`); e != nil {
			t.Errorf("surfnet_getSurfnetInfo on %s: %+v", tc.bind, e)
		}
	}
}

// snapshot, mutate, revert: the old state at every commitment level, and account subscribers at each level are
// notified of it.
func TestSnapshotRevertOverJSONRPC(t *testing.T) {
	n := startCheatNode(t, Config{FinalityDepth: 2})
	url := n.HTTPURL
	k := mustKey(t)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	ws, err := rpcclient.Dial(ctx, n.WSURL)
	if err != nil {
		t.Fatal(err)
	}
	defer ws.Close()
	levels := []string{"processed", "confirmed", "finalized"}
	subs := map[string]*rpcclient.Subscription[rpcapi.AccountSubscribeNotification]{}
	for _, c := range levels {
		commitment := rpcapi.Commitment(c)
		s, err := ws.AccountSubscribe(ctx, &rpcapi.AccountSubscribeParams{Pubkey: core.MustParsePubkey(k), Config: rpcapi.Some(rpcapi.AccountInfoConfig{Commitment: &commitment})})
		if err != nil {
			t.Fatal(err)
		}
		subs[c] = s
	}
	// waitAll waits until every level's subscription reports lamports.
	waitAll := func(lamports uint64) {
		t.Helper()
		for _, c := range levels {
			for {
				select {
				case note := <-subs[c].C:
					if uint64(note.Value.Lamports) == lamports {
						goto next
					}
				case <-ctx.Done():
					t.Fatalf("%s subscription never reported %d lamports", c, lamports)
				}
			}
		next:
		}
	}
	mustCall(t, url, `{"jsonrpc":"2.0","id":1,"method":"surfnet_setAccount","params":["`+k+`",{"lamports":1000000000}]}`)
	waitAll(1_000_000_000)
	r := mustCall(t, url, `{"jsonrpc":"2.0","id":2,"method":"ledgerd_snapshot","params":[]}`)
	var id uint64
	if err := json.Unmarshal(r, &id); err != nil || id == 0 {
		t.Fatalf("ledgerd_snapshot result %s", r)
	}
	mustCall(t, url, `{"jsonrpc":"2.0","id":3,"method":"surfnet_setAccount","params":["`+k+`",{"lamports":2000000000}]}`)
	waitAll(2_000_000_000)
	_, c, _ := n.Ledger.Slots()
	waitCommitted(t, n, c, ledger.Finalized)

	r = mustCall(t, url, `{"jsonrpc":"2.0","id":4,"method":"ledgerd_revert","params":[`+itoa(id)+`]}`)
	if string(r) != "true" {
		t.Fatalf("ledgerd_revert result %s", r)
	}
	for _, c := range levels {
		if l, _, ok := accountAt(t, url, k, c); !ok || l != 1_000_000_000 {
			t.Errorf("%s after revert: %d %v, want 1 SOL", c, l, ok)
		}
	}
	waitAll(1_000_000_000)
	if r := mustCall(t, url, `{"jsonrpc":"2.0","id":5,"method":"ledgerd_revert","params":[`+itoa(id)+`]}`); string(r) != "false" {
		t.Fatalf("second revert to the same snapshot: %s", r)
	}
}

func mustKey(t *testing.T) string {
	t.Helper()
	k, err := core.NewKeypair()
	if err != nil {
		t.Fatal(err)
	}
	return k.PublicKey().String()
}

func hexOf(b []byte) string {
	const digits = "0123456789abcdef"
	out := make([]byte, 0, 2*len(b))
	for _, c := range b {
		out = append(out, digits[c>>4], digits[c&15])
	}
	return string(out)
}

func itoa(v uint64) string { return strconv.FormatUint(v, 10) }

// In every block production mode an airdrop reaches processed, confirmed and finalized subscribers with the
// slot it was processed in, and its history is found at confirmed.
func TestBlockProductionModesSubscriptions(t *testing.T) {
	for _, mode := range []ledger.BlockProduction{ledger.ProduceOnClock, ledger.ProducePerTransaction, ledger.ProduceOnRequest} {
		t.Run(mode.String(), func(t *testing.T) {
			n := startCheatNode(t, Config{FinalityDepth: 1, BlockProduction: mode})
			url := n.HTTPURL
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			defer cancel()
			ws, err := rpcclient.Dial(ctx, n.WSURL)
			if err != nil {
				t.Fatal(err)
			}
			defer ws.Close()
			k := mustKey(t)
			levels := []string{"processed", "confirmed", "finalized"}
			subs := map[string]*rpcclient.Subscription[rpcapi.AccountSubscribeNotification]{}
			for _, c := range levels {
				commitment := rpcapi.Commitment(c)
				if subs[c], err = ws.AccountSubscribe(ctx, &rpcapi.AccountSubscribeParams{Pubkey: core.MustParsePubkey(k),
					Config: rpcapi.Some(rpcapi.AccountInfoConfig{Commitment: &commitment})}); err != nil {
					t.Fatal(err)
				}
			}
			var sig string
			if err := json.Unmarshal(mustCall(t, url, `{"jsonrpc":"2.0","id":1,"method":"requestAirdrop","params":["`+k+`",1000000000]}`), &sig); err != nil {
				t.Fatal(err)
			}
			// The airdrop's slot from the ledger: getSignatureStatuses shows a status only once its slot froze, which
			// in manual mode waits for the request below.
			decoded, err := core.ParseSignature(sig)
			if err != nil {
				t.Fatal(err)
			}
			st, err := n.Ledger.SignatureStatuses([]core.Signature{decoded}, false)
			if err != nil || st[0] == nil {
				t.Fatalf("status of the airdrop: %v", err)
			}
			slot := st[0].Slot
			if mode == ledger.ProduceOnRequest {
				if _, c, _ := n.Ledger.Slots(); c >= slot {
					t.Fatalf("manual mode confirmed slot %d before any request", c)
				}
			}
			if mode != ledger.ProduceOnClock {
				// Finalized trails confirmed by the depth (1): one more slot.
				mustCall(t, url, `{"jsonrpc":"2.0","id":3,"method":"ledgerd_advanceSlots","params":[2]}`)
			}
			for _, c := range levels {
				select {
				case note := <-subs[c].C:
					if uint64(note.Value.Lamports) != 1_000_000_000 || note.Context.Slot != slot {
						t.Fatalf("%s notification %+v, want 1 SOL at slot %d", c, note, slot)
					}
				case <-ctx.Done():
					t.Fatalf("no %s notification", c)
				}
			}
			r := mustCall(t, url, `{"jsonrpc":"2.0","id":4,"method":"getSignaturesForAddress","params":["`+k+`",{"commitment":"confirmed"}]}`)
			if !strings.Contains(string(r), sig) || !strings.Contains(string(r), `"slot":`+itoa(slot)) {
				t.Fatalf("history of the recipient: %s", r)
			}
		})
	}
}

// surfnet_setTokenAccount with Token-2022 as its fourth param writes the associated token account under it.
func TestSetTokenAccountToken2022(t *testing.T) {
	n := startCheatNode(t, Config{})
	url := n.HTTPURL
	mint, owner := mustKey(t), mustKey(t)
	mintData := make([]byte, 82)
	mintData[44], mintData[45] = 9, 1
	prog := core.Token2022ProgramID.String()
	mustCall(t, url, `{"jsonrpc":"2.0","id":1,"method":"surfnet_setAccount","params":["`+mint+`",{"lamports":1461600,"owner":"`+prog+`","data":"`+hexOf(mintData)+`"}]}`)
	mustCall(t, url, `{"jsonrpc":"2.0","id":2,"method":"surfnet_setTokenAccount","params":["`+owner+`","`+mint+`",{"amount":42,"closeAuthority":"`+owner+`"},"`+prog+`"]}`)
	r := mustCall(t, url, `{"jsonrpc":"2.0","id":3,"method":"getTokenAccountsByOwner","params":["`+owner+`",{"programId":"`+prog+`"},{"encoding":"jsonParsed","commitment":"processed"}]}`)
	ownerKey, _ := core.ParsePubkey(owner)
	mintKey, _ := core.ParsePubkey(mint)
	ata, _ := core.FindAssociatedTokenAddress(ownerKey, mintKey, core.Token2022ProgramID)
	for _, want := range []string{ata.String(), `"amount":"42"`, `"closeAuthority":"` + owner + `"`, `"program":"spl-token-2022"`} {
		if !strings.Contains(string(r), want) {
			t.Fatalf("token accounts under Token-2022 lack %s: %s", want, r)
		}
	}
	// The same owner and mint under SPL Token: not its mint.
	if _, e := rawCall(t, url, `{"jsonrpc":"2.0","id":4,"method":"surfnet_setTokenAccount","params":["`+owner+`","`+mint+`",{"amount":1}]}`); e == nil || e.Code != -32602 {
		t.Fatalf("a Token-2022 mint under SPL Token: %+v", e)
	}
}
