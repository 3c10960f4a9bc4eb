package suite

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// Kind says what a case sends: valid params (a result must come back) or invalid ones (an error must).
type Kind int

const (
	Valid Kind = iota
	Invalid
)

func (k Kind) String() string {
	if k == Invalid {
		return "invalid"
	}
	return "valid"
}

// Case is one call and what must hold for it. Every reply is checked against the schema first (a result against
// the method's result schema; an error against the method's declared errors, their message templates and data
// schemas); the fields below add what this call in particular must give.
type Case struct {
	Method string
	Name   string // defaults to the params template
	Kind   Kind
	// Params is the JSON params array ("" sends none). {{name}} is replaced by a variable: a fixture prepared
	// through the endpoint ({{wallet}}), one made for this case ({{tx}}), or one its Setup set ({{sub}}).
	Params string

	Checks []Check // what the result (valid) or the error object (invalid) must satisfy beyond its schema

	Code      int            // invalid: the code the error must carry
	Message   string         // invalid: the exact message ("" when any message the template allows will do)
	MessageRE *regexp.Regexp // invalid: a pattern the message must match

	AcceptCodes []int // valid: declared errors that also count as a correct answer (no snapshot on this node, ...)
	WS          bool  // call over the WebSocket even though the method is also served over HTTP

	Setup  func(ctx context.Context, c *Call) error // runs before the params are filled in
	Notify *Notify                                  // subscriptions: the notifications that must follow
	// Last runs the case after every other case has finished, one at a time: a call that changes the whole
	// chain (surfnet_resetNetwork) and would take the other cases' fixtures with it.
	Last bool
}

// Notify says which notifications a subscription must produce after the subscribe call succeeded.
type Notify struct {
	Min     int           // at least this many, each valid against the method's notification schema
	Within  time.Duration // how long to wait for them (default 20 s)
	Trigger func(ctx context.Context, c *Call) error
	Final   bool // the node removes the subscription itself after the first notification (signatureSubscribe)
}

// Check is one predicate on a reply.
type Check struct {
	Desc string
	Fn   func(g *Got) error
}

// Got is what a check looks at: the result (valid cases) or the error object (invalid cases), decoded with exact
// numbers, and the case's variables.
type Got struct {
	Raw  json.RawMessage
	V    any
	Vars Vars
}

// Vars are the values placeholders are replaced with (raw text: a string placeholder is written inside quotes).
type Vars map[string]string

// ok is a valid call: a result must come back, valid against the method's result schema, and satisfy checks.
func ok(method, params string, checks ...Check) Case {
	return Case{Method: method, Kind: Valid, Params: params, Checks: checks}
}

// bad is an invalid call: the error must carry code and, unless msg is "", exactly msg.
func bad(method, params string, code int, msg string, checks ...Check) Case {
	return Case{Method: method, Kind: Invalid, Params: params, Code: code, Message: msg, Checks: checks}
}

// badLike is an invalid call whose message must match the pattern re.
func badLike(method, params string, code int, re string) Case {
	return Case{Method: method, Kind: Invalid, Params: params, Code: code, MessageRE: regexp.MustCompile(re)}
}

// badParams is an invalid call answered by -32602 with whatever text the node uses for a malformed parameter.
func badParams(method, params string) Case { return bad(method, params, -32602, "") }

func (c Case) named(name string) Case { c.Name = name; return c }
func (c Case) overWS() Case           { c.WS = true; return c }
func (c Case) orError(codes ...int) Case {
	c.AcceptCodes = append(c.AcceptCodes, codes...)
	return c
}
func (c Case) with(setup func(ctx context.Context, c *Call) error) Case { c.Setup = setup; return c }
func (c Case) notifies(n Notify) Case                                   { c.Notify = &n; return c }
func (c Case) last() Case                                               { c.Last = true; return c }

// Title is how the report names the case.
func (c *Case) Title() string {
	if c.Name != "" {
		return c.Name
	}
	if c.Params == "" {
		return "(no params)"
	}
	return c.Params
}

// exact: the whole result equals want (JSON, placeholders allowed).
func exact(want string) Check { return at("", want) }

// value: result.value equals want.
func value(want string) Check { return at("value", want) }

// at: the value at path (dot-separated keys and indexes, "value.0.lamports") equals want.
func at(path, want string) Check {
	desc := "result"
	if path != "" {
		desc += "." + path
	}
	return Check{Desc: desc + " = " + want, Fn: func(g *Got) error {
		got, err := g.At(path)
		if err != nil {
			return err
		}
		w, err := decodeJSON([]byte(g.Vars.fill(want)))
		if err != nil {
			return fmt.Errorf("the expected value %s is not JSON: %v", want, err)
		}
		if !reflect.DeepEqual(normalize(got), normalize(w)) {
			return fmt.Errorf("%s is %s, want %s", orRoot(path), short(mustJSON(got), 200), short(mustJSON(w), 200))
		}
		return nil
	}}
}

// where: a predicate with its description.
func where(desc string, fn func(g *Got) error) Check { return Check{Desc: desc, Fn: fn} }

// typed decodes the result into the generated Go type T (so the typed client's types are exercised too) and
// runs fn on it.
func typed[T any](desc string, fn func(v T, vars Vars) error) Check {
	return Check{Desc: desc, Fn: func(g *Got) error {
		var v T
		if err := json.Unmarshal(g.Raw, &v); err != nil {
			return fmt.Errorf("decoding into %T: %v", v, err)
		}
		return fn(v, g.Vars)
	}}
}

// At returns the value at a dot-separated path ("" is the whole value).
func (g *Got) At(path string) (any, error) {
	cur := g.V
	if path == "" {
		return cur, nil
	}
	for _, part := range strings.Split(path, ".") {
		switch v := cur.(type) {
		case map[string]any:
			next, ok := v[part]
			if !ok {
				return nil, fmt.Errorf("%s: no key %q", path, part)
			}
			cur = next
		case []any:
			i, err := strconv.Atoi(part)
			if err != nil || i < 0 || i >= len(v) {
				return nil, fmt.Errorf("%s: no element %s (length %d)", path, part, len(v))
			}
			cur = v[i]
		default:
			return nil, fmt.Errorf("%s: %s is not an object or array", path, part)
		}
	}
	return cur, nil
}

// Uint reads an unsigned integer at path.
func (g *Got) Uint(path string) (uint64, error) {
	v, err := g.At(path)
	if err != nil {
		return 0, err
	}
	n, ok := v.(json.Number)
	if !ok {
		return 0, fmt.Errorf("%s is %s, not a number", orRoot(path), short(mustJSON(v), 80))
	}
	return strconv.ParseUint(string(n), 10, 64)
}

// Str reads a string at path.
func (g *Got) Str(path string) (string, error) {
	v, err := g.At(path)
	if err != nil {
		return "", err
	}
	s, ok := v.(string)
	if !ok {
		return "", fmt.Errorf("%s is %s, not a string", orRoot(path), short(mustJSON(v), 80))
	}
	return s, nil
}

// Len reads the length of the array at path.
func (g *Got) Len(path string) (int, error) {
	v, err := g.At(path)
	if err != nil {
		return 0, err
	}
	a, ok := v.([]any)
	if !ok {
		return 0, fmt.Errorf("%s is %s, not an array", orRoot(path), short(mustJSON(v), 80))
	}
	return len(a), nil
}

// Small predicates used by the cases.

// atLeast: the integer at path is >= n (placeholders allowed).
func atLeast(path, n string) Check {
	return where(fmt.Sprintf("%s >= %s", orRoot(path), n), func(g *Got) error {
		v, err := g.Uint(path)
		if err != nil {
			return err
		}
		limit, err := strconv.ParseUint(g.Vars.fill(n), 10, 64)
		if err != nil {
			return fmt.Errorf("limit %s: %v", n, err)
		}
		if v < limit {
			return fmt.Errorf("%s is %d, want at least %d", orRoot(path), v, limit)
		}
		return nil
	})
}

// length: the array at path has n elements.
func length(path string, n int) Check {
	return where(fmt.Sprintf("len(%s) = %d", orRoot(path), n), func(g *Got) error {
		l, err := g.Len(path)
		if err != nil {
			return err
		}
		if l != n {
			return fmt.Errorf("len(%s) is %d, want %d", orRoot(path), l, n)
		}
		return nil
	})
}

// contains: some element of the array at path has key equal to want (placeholders allowed). key "" compares the
// element itself.
func contains(path, key, want string) Check {
	return where(fmt.Sprintf("%s has an element with %s = %s", orRoot(path), orRoot(key), want), func(g *Got) error {
		v, err := g.At(path)
		if err != nil {
			return err
		}
		list, ok := v.([]any)
		if !ok {
			return fmt.Errorf("%s is not an array", orRoot(path))
		}
		w := g.Vars.fill(want)
		for _, el := range list {
			sub := &Got{V: el}
			x, err := sub.At(key)
			if err != nil {
				continue
			}
			if s, ok := x.(string); ok && s == w {
				return nil
			}
			if n, ok := x.(json.Number); ok && string(n) == w {
				return nil
			}
		}
		return fmt.Errorf("no element of %s (%d of them) has %s = %s", orRoot(path), len(list), orRoot(key), w)
	})
}

// matches: the string at path matches the pattern re.
func matches(path, re string) Check {
	rx := regexp.MustCompile(re)
	return where(fmt.Sprintf("%s matches %s", orRoot(path), re), func(g *Got) error {
		s, err := g.Str(path)
		if err != nil {
			return err
		}
		if !rx.MatchString(s) {
			return fmt.Errorf("%s is %q, which does not match %s", orRoot(path), s, re)
		}
		return nil
	})
}

func orRoot(path string) string {
	if path == "" {
		return "result"
	}
	return path
}

// fill replaces each {{name}} in s with its variable (left as is when unknown).
func (v Vars) fill(s string) string {
	return placeholder.ReplaceAllStringFunc(s, func(m string) string {
		if x, ok := v[m[2:len(m)-2]]; ok {
			return x
		}
		return m
	})
}

var placeholder = regexp.MustCompile(`\{\{[A-Za-z0-9_]+\}\}`)

// placeholders lists the variable names s uses, in order of first use.
func placeholders(s string) []string {
	var names []string
	seen := map[string]bool{}
	for _, m := range placeholder.FindAllString(s, -1) {
		n := m[2 : len(m)-2]
		if !seen[n] {
			seen[n] = true
			names = append(names, n)
		}
	}
	return names
}

// normalize makes decoded JSON comparable: numbers compare by value, not spelling.
func normalize(v any) any {
	switch x := v.(type) {
	case json.Number:
		if i, err := strconv.ParseInt(string(x), 10, 64); err == nil {
			return strconv.FormatInt(i, 10)
		}
		if u, err := strconv.ParseUint(string(x), 10, 64); err == nil {
			return strconv.FormatUint(u, 10)
		}
		if f, err := x.Float64(); err == nil {
			return strconv.FormatFloat(f, 'g', -1, 64)
		}
		return string(x)
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = normalize(e)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = normalize(e)
		}
		return out
	}
	return v
}

func mustJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}

func short(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}

// Shorthands for the invalid cases most methods share. tmpl is the params array with one %s where the bad value
// (or config object) goes.

// badKeys: a key that decodes to the wrong length, and one that is not base58.
func badKeys(method, tmpl string) []Case {
	return []Case{
		bad(method, fmt.Sprintf(tmpl, "xyz"), -32602, "Invalid param: WrongSize"),
		bad(method, fmt.Sprintf(tmpl, "0OIl"), -32602, "Invalid param: Invalid"),
	}
}

// noParams: a method without params given one.
func noParams(method string) Case {
	return bad(method, `[1]`, -32602, "Invalid parameters: No parameters were expected")
}

// minContextSlot: a minimum context slot the node cannot have reached gives -32016 with data.contextSlot.
func minContextSlot(method, tmpl string) Case {
	return bad(method, fmt.Sprintf(tmpl, `{"minContextSlot":1000000000000}`), -32016,
		"Minimum context slot has not been reached", atMost("data.contextSlot", "999999999999"))
}

// processedRejected: history methods refuse the processed commitment.
func processedRejected(method, tmpl string) Case {
	return bad(method, fmt.Sprintf(tmpl, `{"commitment":"processed"}`), -32602,
		"Method does not support commitment below `confirmed`")
}

// badCommitment: a commitment that is not one of the three levels.
func badCommitment(method, tmpl string) Case {
	return badParams(method, fmt.Sprintf(tmpl, `{"commitment":"bogus"}`)).named(method + " with commitment bogus")
}

// atMost: the integer at path is <= n (placeholders allowed).
func atMost(path, n string) Check {
	return where(fmt.Sprintf("%s <= %s", orRoot(path), n), func(g *Got) error {
		v, err := g.Uint(path)
		if err != nil {
			return err
		}
		limit, err := strconv.ParseUint(g.Vars.fill(n), 10, 64)
		if err != nil {
			return fmt.Errorf("limit %s: %v", n, err)
		}
		if v > limit {
			return fmt.Errorf("%s is %d, want at most %d", orRoot(path), v, limit)
		}
		return nil
	})
}

// repeated is a JSON array of n copies of the string s.
func repeated(s string, n int) string {
	parts := make([]string, n)
	for i := range parts {
		parts[i] = `"` + s + `"`
	}
	return "[" + strings.Join(parts, ",") + "]"
}

// group flattens case lists: a topic file is one []Case built from single cases and shorthand lists.
func group(parts ...any) []Case {
	var out []Case
	for _, p := range parts {
		switch x := p.(type) {
		case Case:
			out = append(out, x)
		case []Case:
			out = append(out, x...)
		default:
			panic(fmt.Sprintf("group: %T is not a case", p))
		}
	}
	return out
}

var errorf = fmt.Errorf
