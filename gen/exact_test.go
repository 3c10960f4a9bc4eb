package main

// Tests of the generated decoders' key matching, run on the generated package itself.

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"ledgerd/generated/rpcapi"
	"ledgerd/impl/core"
)

// Keys match exactly, as the reference's decoders do: a key that differs in case is an unknown key, ignored.
func TestGeneratedDecodersMatchKeysExactly(t *testing.T) {
	t.Parallel()
	const key = `"4Nd1mBQtrMJVYVfKf2PJy9NZUZdTAsp7D4xWLs4gDB4T"`

	var balance rpcapi.GetBalanceParams
	if err := json.Unmarshal([]byte(`[`+key+`,{"COMMITMENT":"processed","commitment":"finalized","MinContextSlot":7}]`), &balance); err != nil {
		t.Fatal(err)
	}
	if c, ok := balance.Config.Get(); !ok || c.Commitment == nil || *c.Commitment != "finalized" || c.MinContextSlot != nil {
		t.Errorf("getBalance config = %+v, want commitment finalized and no minContextSlot", c)
	}

	// A method that refuses processed does not see it under another spelling.
	var block rpcapi.GetBlockParams
	if err := json.Unmarshal([]byte(`[5,{"COMMITMENT":"processed"}]`), &block); err != nil {
		t.Errorf("getBlock with COMMITMENT processed: %v, want it ignored", err)
	}
	if c, ok := block.Config.Get(); !ok || c.Config == nil || c.Config.Commitment != nil {
		t.Errorf("getBlock config = %+v, want no commitment", block.Config)
	}

	// Nested objects, and keys spelled with escapes (which are exact after decoding).
	var accounts rpcapi.GetProgramAccountsParams
	raw := `[` + key + `,{"dataSlice":{"OFFSET":5,"offset":2,"length":1},"\u0065ncoding":"base64","Filters":[{"dataSize":3}]}]`
	if err := json.Unmarshal([]byte(raw), &accounts); err != nil {
		t.Fatal(err)
	}
	c, ok := accounts.Config.Get()
	if !ok || c.DataSlice == nil || c.DataSlice.Offset != 2 || c.DataSlice.Length != 1 || c.Filters != nil ||
		c.Encoding == nil || *c.Encoding != "base64" {
		t.Errorf("getProgramAccounts config = %+v", c)
	}

	// A required field spelled in another case is missing, as serde finds it missing.
	raw = `[` + key + `,{"dataSlice":{"OFFSET":5,"length":1}}]`
	err := json.Unmarshal([]byte(raw), &accounts)
	if e, ok := rpcapi.AsError(err); !ok || e.Message != "Invalid params: missing field `offset`." {
		t.Errorf("dataSlice without offset: %v, want missing field `offset`", err)
	}
}

// FuzzExactDecode checks that the exact decoder never panics, never fails where encoding/json succeeds, and
// agrees with encoding/json when no key can differ from a field name in case.
func FuzzExactDecode(f *testing.F) {
	f.Add(`{"offset":1,"length":2}`)
	f.Add(`{"OFFSET":1,"length":2,"x":{"offset":[1,"}"]}}`)
	f.Add(`{"off\u0073et":1}`)
	f.Add(`{"offset":`)
	f.Add(`null`)
	f.Fuzz(func(t *testing.T, data string) {
		var exact, loose rpcapi.DataSlice
		errExact := json.Unmarshal([]byte(data), &exact)
		type plain rpcapi.DataSlice
		errLoose := json.Unmarshal([]byte(data), (*plain)(&loose))
		// Renaming keys only takes members away from encoding/json, so it can only remove errors; what it adds
		// is the reference's refusal of an object without a required field.
		if e, ok := rpcapi.AsError(errExact); ok && strings.HasPrefix(e.Message, "Invalid params: missing field ") {
			return
		}
		if errExact != nil && errLoose == nil {
			t.Fatalf("exact decode error %v where encoding/json has none", errExact)
		}
		if strings.ToLower(data) != data || strings.ContainsAny(data, `\ſK`) {
			return // keys may differ from the fields in case
		}
		if (errExact == nil) != (errLoose == nil) || !reflect.DeepEqual(exact, loose) {
			t.Errorf("lower-case keys: exact %+v (%v), encoding/json %+v (%v)", exact, errExact, loose, errLoose)
		}
	})
}

// A key param is decoded from base 58 once, by Validate, into its impl/core value: the handler reads p.Pubkey.
// Its texts are the reference's, a list's limit is checked before its keys are, and params built in Go (which
// hold core values already) still have their limits checked.
func TestValidateDecodesKeysIntoCoreValues(t *testing.T) {
	t.Parallel()
	const key = "4Nd1mBQtrMJVYVfKf2PJy9NZUZdTAsp7D4xWLs4gDB4T"
	want := core.MustParsePubkey(key)
	var p rpcapi.GetBalanceParams
	if err := p.UnmarshalJSON([]byte(`["` + key + `"]`)); err != nil {
		t.Fatal(err)
	}
	if p.Pubkey != (core.Pubkey{}) {
		t.Fatalf("decoded before Validate: %s", p.Pubkey)
	}
	if err := p.Validate(); err != nil || p.Pubkey != want {
		t.Fatalf("after Validate: %s, %v; want %s", p.Pubkey, err, key)
	}
	for raw, msg := range map[string]string{
		`["0"]`:    "Invalid param: Invalid",
		`[null]`:   "Invalid param: WrongSize", // a required key sent as null is the empty text, as the reference reads it
		`["1111"]`: "Invalid param: WrongSize",
		`["111111111111111111111111111111111111111111111"]`: "Invalid param: WrongSize",
	} {
		var q rpcapi.GetBalanceParams
		if err := q.UnmarshalJSON([]byte(raw)); err != nil {
			t.Fatal(err)
		}
		if err := q.Validate(); err == nil || err.Error() != msg {
			t.Errorf("%s: %v, want %s", raw, err, msg)
		}
	}

	var m rpcapi.GetMultipleAccountsParams
	if err := m.UnmarshalJSON([]byte(`[["` + key + `","11111111111111111111111111111111"]]`)); err != nil {
		t.Fatal(err)
	}
	if err := m.Validate(); err != nil || len(m.Pubkeys) != 2 || m.Pubkeys[0] != want || m.Pubkeys[1] != core.SystemProgramID {
		t.Errorf("getMultipleAccounts: %v, %v", m.Pubkeys, err)
	}
	long := `[[` + strings.Repeat(`"0",`, 100) + `"0"]]`
	var tooMany rpcapi.GetMultipleAccountsParams
	if err := tooMany.UnmarshalJSON([]byte(long)); err != nil {
		t.Fatal(err)
	}
	if err := tooMany.Validate(); err == nil || err.Error() != "Too many inputs provided; max 100" {
		t.Errorf("101 bad keys: %v, want the limit first", err)
	}
	inGo := rpcapi.GetMultipleAccountsParams{Pubkeys: make([]core.Pubkey, 101)}
	if err := inGo.Validate(); err == nil || err.Error() != "Too many inputs provided; max 100" {
		t.Errorf("101 keys built in Go: %v, want the limit", err)
	}

	var fees rpcapi.GetRecentPrioritizationFeesParams
	if err := fees.UnmarshalJSON([]byte(`[null]`)); err != nil || fees.Validate() != nil || fees.Addresses.IsSet() {
		t.Errorf("an absent optional key list: %v", fees.Addresses)
	}
}

// FuzzParamsDecode checks that the params decoder, which splits the array without decoding it, never panics and
// never accepts params that are not valid JSON.
func FuzzParamsDecode(f *testing.F) {
	f.Add(`["4Nd1mBQtrMJVYVfKf2PJy9NZUZdTAsp7D4xWLs4gDB4T",{"encoding":"base64","filters":[{"dataSize":3}]}]`)
	f.Add(`[1 2]`)
	f.Add(`[,]`)
	f.Add(`["a]",{"x":"]"}] `)
	f.Add(`["a"}`)
	f.Fuzz(func(t *testing.T, data string) {
		var p rpcapi.GetProgramAccountsParams
		err := p.UnmarshalJSON([]byte(data))
		if err == nil && strings.TrimSpace(data) != "" && !json.Valid([]byte(data)) {
			t.Errorf("accepted params that are not valid JSON: %q", data)
		}
	})
}

// The keys inside config objects are kept: after Validate the accessors hand back what it decoded, an absent
// optional key is nil, and without Validate the accessor decodes with Validate's error.
func TestValidateKeepsDecodedListsAndConfigKeys(t *testing.T) {
	t.Parallel()
	const key = "4Nd1mBQtrMJVYVfKf2PJy9NZUZdTAsp7D4xWLs4gDB4T"
	const sig = "5VERv8NMvzbJMEkV8xnrLkEaWRtSz9CosKDYjCJjBRnbJLgp8uirBgmQpjKhoR4tjF3ZpRzrFmBV6UjKdiSZkQUW"
	before := sig
	s := rpcapi.GetSignaturesForAddressParams{Address: core.MustParsePubkey(key), Config: rpcapi.Some(rpcapi.GetSignaturesForAddressConfig{Before: &before})}
	if err := s.Validate(); err != nil {
		t.Fatal(err)
	}
	before = "0"
	cfg := s.Config.OrZero()
	if b, err := cfg.BeforeBytes(); err != nil || len(b) != 64 {
		t.Errorf("before after Validate: %x, %v; want the 64 bytes Validate decoded", b, err)
	}
	if b, err := cfg.UntilBytes(); err != nil || b != nil {
		t.Errorf("absent until: %x, %v; want nil", b, err)
	}

	l := rpcapi.LogsSubscribeParams{Filter: rpcapi.LogsFilter{Mentions: &rpcapi.LogsFilterMentions{Mentions: []rpcapi.Pubkey{"0"}}}}
	if err := l.Validate(); err == nil || err.Error() != "Invalid Request: Invalid mentions provided" {
		t.Errorf("logsSubscribe with a bad mention: %v, want the reference's text", err)
	}
}

// A method of confirmed history refuses processed from the param the last element was decoded into, wherever
// its config sits and before the values are validated (a bad signature with processed is the commitment error);
// an old-form encoding string, an absent config and a later config that overrides carry no processed.
func TestProcessedRefusedFromDecodedParams(t *testing.T) {
	t.Parallel()
	refused := rpcapi.NewUnsupportedCommitmentError().Message
	for _, c := range []struct {
		params string
		into   json.Unmarshaler
		want   string // "" when accepted
	}{
		{`[0,{"commitment":"processed"}]`, &rpcapi.GetBlockParams{}, refused},
		{`[0,{"commitment":"confirmed"}]`, &rpcapi.GetBlockParams{}, ""},
		{`[0,"json"]`, &rpcapi.GetBlockParams{}, ""},
		{`[0,{"commitment":"processed"}]`, &rpcapi.GetBlocksParams{}, refused},
		{`[0,10,{"commitment":"processed"}]`, &rpcapi.GetBlocksParams{}, refused},
		{`[0,{"commitment":"processed"},{"commitment":"finalized"}]`, &rpcapi.GetBlocksParams{}, ""},
		{`[0,10]`, &rpcapi.GetBlocksParams{}, ""},
		{`["0",{"commitment":"processed"}]`, &rpcapi.GetTransactionParams{}, refused},
		{`[["0"],{"commitment":"processed"}]`, &rpcapi.GetInflationRewardParams{}, refused},
		{`["all",{"commitment":"processed"}]`, &rpcapi.BlockSubscribeParams{}, refused},
		{`["all"]`, &rpcapi.BlockSubscribeParams{}, ""},
	} {
		err := c.into.UnmarshalJSON([]byte(c.params))
		got := ""
		if err != nil {
			got = err.Error()
		}
		if got != c.want {
			t.Errorf("%T %s: %q, want %q", c.into, c.params, got, c.want)
		}
	}
}

// BenchmarkDecodeGetBlockParams decodes the params of a typical getBlock call.
func BenchmarkDecodeGetBlockParams(b *testing.B) {
	raw := []byte(`[430,{"encoding":"json","maxSupportedTransactionVersion":0,"transactionDetails":"full","rewards":false,"commitment":"finalized"}]`)
	b.ReportAllocs()
	for b.Loop() {
		var p rpcapi.GetBlockParams
		if err := json.Unmarshal(raw, &p); err != nil {
			b.Fatal(err)
		}
	}
}
