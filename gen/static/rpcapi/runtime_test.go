package rpcapi

import (
	"context"
	"encoding/json"
	"testing"
)

// The runtime in place, through the stand-in table: params are split without decoding, with the reference's
// texts for what is not a list, too long or malformed.
func TestSplitParams(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		raw  string
		max  int
		n    int
		want string // error message, "" when accepted
	}{
		{``, 0, 0, ""},
		{`null`, 0, 0, ""},
		{`[]`, 0, 0, ""},
		{` [ 1 , {"a":[2,3]} ] `, 2, 2, ""},
		{`[1]`, 0, 0, "Invalid parameters: No parameters were expected"},
		{`[1,2,3]`, 2, 0, "Invalid params: invalid length 3, expected at most 2 parameters"},
		{`{}`, 2, 0, "Invalid params: expected an array of parameters"},
		{`[1,`, 2, 0, "Invalid params: the parameters are not a valid JSON array"},
		{`[1] x`, 2, 0, "Invalid params: the parameters are not a valid JSON array"},
	} {
		list, err := splitParams([]byte(c.raw), c.max)
		got := ""
		if err != nil {
			got = err.Error()
		}
		if got != c.want || len(list) != c.n {
			t.Errorf("splitParams(%q, %d) = %d elements, %q; want %d, %q", c.raw, c.max, len(list), got, c.n, c.want)
		}
	}
}

func TestDecodeBase58Texts(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		s, custom, want string
	}{
		{"11111111111111111111111111111111", "", ""},
		{"", "", "Invalid param: WrongSize"},
		{"111111111111111111111111111111111111111111111", "", "Invalid param: WrongSize"},
		{"0", "", "Invalid param: Invalid"},
		{"1111", "", "Invalid param: WrongSize"},
		{"0", "Invalid mentions provided", "Invalid mentions provided"},
	} {
		_, err := decodeBase58(c.s, 32, c.custom)
		got := ""
		if err != nil {
			got = err.Error()
		}
		if got != c.want {
			t.Errorf("decodeBase58(%q, %q) = %q, want %q", c.s, c.custom, got, c.want)
		}
	}
}

type health struct{}

func (health) GetHealth(context.Context) (string, error) { return "ok", nil }

func TestDispatcherRefusesWhatTheTableDoesNotServe(t *testing.T) {
	t.Parallel()
	d := &Dispatcher{Handler: health{}}
	if r, err := d.Call(context.Background(), "getHealth", json.RawMessage(`[]`), false); err != nil || r != "ok" {
		t.Errorf("getHealth: %v, %v", r, err)
	}
	for _, c := range []struct {
		method string
		ws     bool
	}{{"getNothing", false}, {"getHealth", true}} {
		if _, err := d.Call(context.Background(), c.method, nil, c.ws); err == nil || err.(*Error).Code != CodeMethodNotFound {
			t.Errorf("%s (ws %v): %v, want method not found", c.method, c.ws, err)
		}
	}
	d.Disabled = map[string]bool{"getHealth": true}
	if _, err := d.Call(context.Background(), "getHealth", nil, false); err == nil {
		t.Error("a disabled method answered")
	}
}

func TestAppendFloat(t *testing.T) {
	t.Parallel()
	for f, want := range map[float64]string{2: "2.0", 7e-6: "7e-6", 0.5: "0.5", 1.5e300: "1.5e300", -3.25: "-3.25", 1e16: "1e16"} {
		if got := string(AppendFloat(nil, f)); got != want {
			t.Errorf("AppendFloat(%v) = %s, want %s", f, got, want)
		}
	}
}

func TestOpt(t *testing.T) {
	t.Parallel()
	var none Opt[uint64]
	if v, ok := none.Get(); ok || v != 0 || none.Or(7) != 7 || none.OrZero() != 0 || none.Ptr() != nil || none.IsSet() {
		t.Errorf("the zero Opt holds a value: %v", none)
	}
	some := Some[uint64](5)
	if v, ok := some.Get(); !ok || v != 5 || some.Or(7) != 5 || *some.Ptr() != 5 || !some.IsSet() {
		t.Errorf("Some(5) = %v", some)
	}
	for raw, want := range map[string]Opt[uint64]{`null`: {}, ` null `: {}, `3`: Some[uint64](3)} {
		got := Some[uint64](9)
		if err := json.Unmarshal([]byte(raw), &got); err != nil || got != want {
			t.Errorf("%s: %v, %v; want %v", raw, got, err, want)
		}
	}
	var bad Opt[uint64]
	if err := json.Unmarshal([]byte(`"x"`), &bad); err == nil || bad.IsSet() {
		t.Errorf(`"x" decoded into an Opt[uint64]: %v, %v`, bad, err)
	}
	for o, want := range map[Opt[uint64]]string{{}: "null", Some[uint64](4): "4"} {
		if b, err := json.Marshal(o); err != nil || string(b) != want {
			t.Errorf("Marshal(%v) = %s, %v; want %s", o, b, err, want)
		}
	}
}
