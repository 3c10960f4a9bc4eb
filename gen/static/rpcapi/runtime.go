// Package rpcapi is the schema-independent runtime of the generated package ledgerd/generated/rpcapi, kept as
// real Go so that it is compiled, vetted and tested where it is edited. The generator copies runtime.go (from
// its import block on) into generated/rpcapi/rpc_runtime_gen.go; standin.go declares, for this copy only, the few
// names the schema generates there.
package rpcapi

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"reflect"
	"strconv"
	"strings"

	"github.com/mr-tron/base58"

	"ledgerd/impl/core"
)

// Error is the one error type of the service: a JSON-RPC error object. Handlers return it (possibly wrapped); the
// transport finds it with errors.As and writes {code, message, data}. A nil Data leaves the data key out.
type Error struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
	Data    any    `json:"data,omitempty"`
}

func (e *Error) Error() string  { return e.Message }
func (e *Error) ErrorCode() int { return e.Code }
func (e *Error) ErrorData() any { return e.Data }

// AsError returns the *Error inside err, if any.
func AsError(err error) (*Error, bool) {
	var e *Error
	ok := errors.As(err, &e)
	return e, ok
}

// Transport says where a method is served.
type Transport int

const (
	TransportHTTP Transport = iota
	TransportWS
	TransportBoth
)

// MethodInfo describes one method of the dispatch table.
type MethodInfo struct {
	Name             string
	Transport        Transport
	Commitment       bool // accepts a commitment
	RejectsProcessed bool // answers -32602 to commitment processed
	Deprecated       bool
	Replacement      string // what to call instead, for deprecated methods
	Unstable         bool
	Since            string // first node-core version with the method
	Notification     string // for subscribe methods: the notification method name
	Unsubscribe      string // for subscribe methods: the matching unsubscribe method
	Errors           []string
	call             func(ctx context.Context, h Handler, params json.RawMessage) (any, error)
}

// Dispatcher runs methods of the table against a Handler. Disabled methods answer -32601, as unknown ones do.
type Dispatcher struct {
	Handler  Handler
	Disabled map[string]bool
}

// Call decodes and validates params, then calls the handler method.
func (d *Dispatcher) Call(ctx context.Context, method string, params json.RawMessage, ws bool) (any, error) {
	m, ok := Methods[method]
	if !ok || d.Disabled[method] {
		return nil, NewMethodNotFoundError()
	}
	if (ws && m.Transport == TransportHTTP) || (!ws && m.Transport == TransportWS) {
		return nil, NewMethodNotFoundError()
	}
	return m.call(ctx, d.Handler, params)
}

// invalidParam builds a -32602 for a value at path; custom (the schema's x-error-message) wins when set.
func invalidParam(path, problem, custom string) error {
	if custom != "" {
		return NewInvalidParamsError(custom)
	}
	return NewInvalidParamsError("Invalid params: " + path + ": " + problem)
}

// checkBase58 checks a base58 value of size bytes, with the reference node's texts for keys and signatures.
func checkBase58(s string, size int, custom string) error {
	_, err := decodeBase58(s, size, custom)
	return err
}

// decodeBase58 decodes a base58 value of size bytes, with the reference node's texts for keys and signatures.
func decodeBase58(s string, size int, custom string) ([]byte, error) {
	if custom != "" {
		b, err := base58.Decode(s)
		if err != nil || len(b) != size {
			return nil, NewInvalidParamsError(custom)
		}
		return b, nil
	}
	// As the reference parses keys: too long for size bytes (44 chars for 32, 88 for 64) is WrongSize before any
	// decoding, and so is the empty string (it decodes to zero bytes).
	if len(s) > size*11/8 || s == "" {
		return nil, NewInvalidParamsError("Invalid param: WrongSize")
	}
	b, err := base58.Decode(s)
	if err != nil {
		return nil, NewInvalidParamsError("Invalid param: Invalid")
	}
	if len(b) != size {
		return nil, NewInvalidParamsError("Invalid param: WrongSize")
	}
	return b, nil
}

// The parsers of key, signature and hash params: impl/core's, with the reference node's texts for their errors
// (Invalid param: WrongSize, Invalid param: Invalid), or the schema's x-error-message when it has one.

func parsePubkey(s, custom string) (core.Pubkey, error) {
	k, err := core.ParsePubkey(s)
	return k, base58Error(err, custom)
}

func parseSignature(s, custom string) (core.Signature, error) {
	sig, err := core.ParseSignature(s)
	return sig, base58Error(err, custom)
}

func parseHash(s, custom string) (core.Hash, error) {
	h, err := core.ParseHash(s)
	return h, base58Error(err, custom)
}

func parsePubkeyList(list []string, custom string) ([]core.Pubkey, error) {
	return parseList(list, custom, parsePubkey)
}

func parseSignatureList(list []string, custom string) ([]core.Signature, error) {
	return parseList(list, custom, parseSignature)
}

func parseHashList(list []string, custom string) ([]core.Hash, error) {
	return parseList(list, custom, parseHash)
}

// parseList parses each value of a list, stopping at the first error.
func parseList[T any](list []string, custom string, parse func(s, custom string) (T, error)) ([]T, error) {
	out := make([]T, len(list))
	for i, s := range list {
		v, err := parse(s, custom)
		if err != nil {
			return nil, err
		}
		out[i] = v
	}
	return out, nil
}

func base58Error(err error, custom string) error {
	switch {
	case err == nil:
		return nil
	case custom != "":
		return NewInvalidParamsError(custom)
	default:
		return NewInvalidParamsError("Invalid param: " + err.Error())
	}
}

// decodeBase58List decodes each value of a list as decodeBase58 does, stopping at the first error.
func decodeBase58List(list []string, size int, custom string) ([][]byte, error) {
	out := make([][]byte, len(list))
	for i, s := range list {
		b, err := decodeBase58(s, size, custom)
		if err != nil {
			return nil, err
		}
		out[i] = b
	}
	return out, nil
}

// splitParams reads the positional params array. Absent or null params are an empty list. It only finds where the
// elements are, without decoding or copying them: each is decoded once, into its field, by decodeParam, which also
// rejects an element that is not valid JSON.
func splitParams(raw []byte, max int) ([]json.RawMessage, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return nil, nil
	}
	if raw[0] != '[' {
		return nil, NewInvalidParamsError("Invalid params: expected an array of parameters")
	}
	malformed := NewInvalidParamsError("Invalid params: the parameters are not a valid JSON array")
	var list []json.RawMessage
	i := skipJSONSpace(raw, 1)
	if i < len(raw) && raw[i] == ']' {
		i++
	} else {
		for {
			end := skipJSONValue(raw, i)
			if end >= len(raw) || end == i {
				return nil, malformed
			}
			list = append(list, json.RawMessage(bytes.TrimRight(raw[i:end], " \t\r\n")))
			if raw[end] == ']' {
				i = end + 1
				break
			}
			if raw[end] != ',' {
				return nil, malformed
			}
			i = skipJSONSpace(raw, end+1)
		}
	}
	if i != len(raw) {
		return nil, malformed
	}
	if len(list) > max {
		if max == 0 {
			return nil, NewInvalidParamsError("Invalid parameters: No parameters were expected")
		}
		return nil, NewInvalidParamsError(fmt.Sprintf("Invalid params: invalid length %d, expected at most %d parameters", len(list), max))
	}
	return list, nil
}

// given reports whether positional param i was sent with a value (not absent, not null).
func given(list []json.RawMessage, i int) bool {
	return i < len(list) && string(bytes.TrimSpace(list[i])) != "null"
}

// optional is an Opt as decodeParam fills it: the value decoded in place, in one pass over the JSON (an Opt's own
// UnmarshalJSON would have encoding/json check the text twice).
type optional interface {
	valuePtr() any
	markSet()
}

func (o *Opt[T]) valuePtr() any { return &o.v }
func (o *Opt[T]) markSet()      { o.ok = true }

// decodeParam decodes positional param i into dst. A missing or null optional param leaves dst as it is.
func decodeParam(list []json.RawMessage, i int, name string, required bool, dst any) error {
	if o, ok := dst.(optional); ok && !required {
		if !given(list, i) {
			return nil
		}
		if err := json.Unmarshal(list[i], o.valuePtr()); err != nil {
			return paramDecodeError(name, err)
		}
		o.markSet()
		return nil
	}
	if i >= len(list) || string(bytes.TrimSpace(list[i])) == "null" {
		if required && i >= len(list) {
			return NewInvalidParamsError(fmt.Sprintf("Invalid params: missing parameter `%s`", name))
		}
		if required {
			// A required param sent as null decodes to its zero value only when its type allows null.
			if err := json.Unmarshal(list[i], dst); err != nil {
				return paramDecodeError(name, err)
			}
		}
		return nil
	}
	if err := json.Unmarshal(list[i], dst); err != nil {
		return paramDecodeError(name, err)
	}
	return nil
}

// paramDecodeError turns a decoding error into a -32602 that names the parameter and the problem.
func paramDecodeError(name string, err error) error {
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		path := name
		if te.Field != "" {
			path += "." + te.Field
		}
		return NewInvalidParamsError(fmt.Sprintf("Invalid params: %s: invalid type: %s, expected %s", path, te.Value, te.Type))
	}
	var re *Error
	if errors.As(err, &re) {
		return re
	}
	return NewInvalidParamsError(fmt.Sprintf("Invalid params: %s: %s", name, strings.TrimPrefix(err.Error(), "json: ")))
}

// marshalParams writes positional params, dropping absent ones at the end.
func marshalParams(vals []any, present []bool) ([]byte, error) {
	n := len(vals)
	for n > 0 && !present[n-1] {
		n--
	}
	return json.Marshal(vals[:n])
}

// marshalUnescaped encodes a union member as json.Marshal does but without HTML escaping, as the reference's
// serde_json writes strings: an escaped member would keep its \u003c in the reply whatever the outer encoder does.
func marshalUnescaped(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}

// jsonKind names the JSON kind of a value: string, number, boolean, array, object or null.
func jsonKind(data []byte) string {
	data = bytes.TrimSpace(data)
	if len(data) == 0 {
		return ""
	}
	switch data[0] {
	case '"':
		return "string"
	case '[':
		return "array"
	case '{':
		return "object"
	case 't', 'f':
		return "boolean"
	case 'n':
		return "null"
	}
	return "number"
}

// decodeExact decodes the JSON object data into dst as encoding/json does, except that a key must match a field
// name exactly (keys lists them): encoding/json also takes a key that matches a field ignoring case, so
// {"COMMITMENT":"processed"} would set Commitment, where the reference ignores it as an unknown key. Keys that
// match no field exactly are renamed out of reach ('#' is no field's first character) before decoding; the data
// is copied only then. dst is a defined copy of named's type without its UnmarshalJSON; a type error of dst itself
// is reported under named's type, as encoding/json would name it.
func decodeExact(data []byte, dst, named any, keys ...string) error {
	var renamed []byte
	done := 0 // data[:done] is in renamed
	i := skipJSONSpace(data, 0)
	if i < len(data) && data[i] == '{' {
		i = skipJSONSpace(data, i+1)
		for i < len(data) && data[i] == '"' {
			end := skipJSONString(data, i)
			if end > len(data) {
				break // not valid JSON: json.Unmarshal says why
			}
			if !exactKey(data[i:end], keys) {
				renamed = append(append(renamed, data[done:i+1]...), '#')
				done = i + 1
			}
			i = skipJSONSpace(data, end)
			if i >= len(data) || data[i] != ':' {
				break
			}
			i = skipJSONValue(data, skipJSONSpace(data, i+1))
			if i >= len(data) || data[i] != ',' {
				break
			}
			i = skipJSONSpace(data, i+1)
		}
	}
	if renamed != nil {
		data = append(renamed, data[done:]...)
	}
	err := json.Unmarshal(data, dst)
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) && te.Type == reflect.TypeOf(dst).Elem() {
		te.Type = reflect.TypeOf(named).Elem()
	}
	return err
}

// requireFields refuses a JSON object that lacks one of fields, naming the first missing one in the order given
// (the order the reference's type declares them), as serde's derived Deserialize does once the object is read:
// -32602 "Invalid params: missing field `commitment`.". Call it after the object decoded, so that a key of the
// wrong type is reported first, as serde reports it while reading.
func requireFields(data []byte, fields ...string) error {
	found := make([]bool, len(fields))
	i := skipJSONSpace(data, 0)
	if i < len(data) && data[i] == '{' {
		i = skipJSONSpace(data, i+1)
		for i < len(data) && data[i] == '"' {
			end := skipJSONString(data, i)
			if end > len(data) {
				break
			}
			for j, f := range fields {
				if !found[j] && exactKey(data[i:end], []string{f}) {
					found[j] = true
				}
			}
			i = skipJSONSpace(data, end)
			if i >= len(data) || data[i] != ':' {
				break
			}
			i = skipJSONValue(data, skipJSONSpace(data, i+1))
			if i >= len(data) || data[i] != ',' {
				break
			}
			i = skipJSONSpace(data, i+1)
		}
	}
	for j, f := range fields {
		if !found[j] {
			return NewInvalidParamsError("Invalid params: missing field `" + f + "`.")
		}
	}
	return nil
}

// exactKey reports whether the quoted JSON string raw spells one of keys.
func exactKey(raw []byte, keys []string) bool {
	name := raw[1 : len(raw)-1]
	if bytes.IndexByte(name, '\\') >= 0 {
		var s string
		if json.Unmarshal(raw, &s) != nil {
			return true // left for json.Unmarshal to report
		}
		name = []byte(s)
	}
	for _, k := range keys {
		if string(name) == k {
			return true
		}
	}
	return false
}

func skipJSONSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}

// skipJSONString returns the index after the string that opens at b[i]; past len(b) when it does not close.
func skipJSONString(b []byte, i int) int {
	for i++; i < len(b); i++ {
		switch b[i] {
		case '\\':
			i++
		case '"':
			return i + 1
		}
	}
	return len(b) + 1
}

// skipJSONValue returns the index of the ',' or '}' (or ']') that ends the value starting at b[i], or len(b).
func skipJSONValue(b []byte, i int) int {
	depth := 0
	for i < len(b) {
		switch b[i] {
		case '"':
			i = skipJSONString(b, i)
			continue
		case '{', '[':
			depth++
		case '}', ']':
			if depth == 0 {
				return i
			}
			depth--
		case ',':
			if depth == 0 {
				return i
			}
		}
		i++
	}
	return len(b)
}

// hasKeys reports whether a JSON object has every one of keys.
func hasKeys(data []byte, keys ...string) bool {
	var m map[string]json.RawMessage
	if json.Unmarshal(data, &m) != nil {
		return false
	}
	for _, k := range keys {
		if _, ok := m[k]; !ok {
			return false
		}
	}
	return true
}

// indexPath names an element of a list or map param, for error messages.
func indexPath(path string, i any) string { return fmt.Sprintf("%s[%v]", path, i) }

// U8List is a list of u8 (instruction account indexes, lookup-table indexes). It is written as a JSON array of
// numbers; a plain []uint8 would be written as base64.
type U8List []uint8

func (l U8List) MarshalJSON() ([]byte, error) {
	if l == nil {
		return []byte("null"), nil
	}
	b := make([]byte, 0, 2+4*len(l))
	b = append(b, '[')
	for i, v := range l {
		if i > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendUint(b, uint64(v), 10)
	}
	return append(b, ']'), nil
}

func (l *U8List) UnmarshalJSON(data []byte) error {
	var v []uint16
	if err := json.Unmarshal(data, &v); err != nil {
		return err
	}
	if v == nil {
		*l = nil
		return nil
	}
	out := make(U8List, len(v))
	for i, x := range v {
		if x > 255 {
			return fmt.Errorf("invalid value: %d, expected u8", x)
		}
		out[i] = uint8(x)
	}
	*l = out
	return nil
}

// Float is a number of the schema (JSON type number, not integer). It marshals as serde_json writes an f64,
// which is the reference's form (ryu's shortest digits): always with a decimal point or exponent, so 2.0 stays
// "2.0" where encoding/json would write 2; exponents without a plus sign or padding ("1e-7", "1.5e300"); plain
// decimals for magnitudes from 1e-5 up to 1e16; NaN and infinities as null.
type Float float64

// MarshalJSON implements json.Marshaler.
func (f Float) MarshalJSON() ([]byte, error) { return AppendFloat(nil, float64(f)), nil }

// AppendFloat appends f as serde_json writes it.
func AppendFloat(dst []byte, f float64) []byte {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return append(dst, "null"...)
	}
	if math.Signbit(f) {
		dst = append(dst, '-')
		f = -f
	}
	// Shortest round-trip digits, as d.ddde±x; Go and ryu agree on the digits.
	var buf [32]byte
	s := strconv.AppendFloat(buf[:0], f, 'e', -1, 64)
	var digits []byte
	i := 0
	for ; s[i] != 'e'; i++ {
		if s[i] != '.' {
			digits = append(digits, s[i])
		}
	}
	exp, _ := strconv.Atoi(string(s[i+1:]))
	n := len(digits)
	e10 := exp - n + 1 // value = digits × 10^e10
	point := exp + 1   // value = 0.digits × 10^point: digits before the decimal point

	switch {
	case e10 >= 0 && point <= 16:
		dst = append(dst, digits...)
		for range point - n {
			dst = append(dst, '0')
		}
		return append(dst, '.', '0')
	case point > 0 && point <= 16:
		dst = append(dst, digits[:point]...)
		dst = append(dst, '.')
		return append(dst, digits[point:]...)
	case point > -5 && point <= 0:
		dst = append(dst, '0', '.')
		for range -point {
			dst = append(dst, '0')
		}
		return append(dst, digits...)
	default:
		dst = append(dst, digits[0])
		if n > 1 {
			dst = append(dst, '.')
			dst = append(dst, digits[1:]...)
		}
		dst = append(dst, 'e')
		return strconv.AppendInt(dst, int64(point-1), 10)
	}
}

// Opt is an optional param: absent (or sent as null), or a value. Handlers read it with Get, Or or OrZero
// instead of testing a pointer, and a client builds one with Some.
type Opt[T any] struct {
	v  T
	ok bool
}

// Some is an Opt that holds v.
func Some[T any](v T) Opt[T] { return Opt[T]{v: v, ok: true} }

// Get returns the value and whether there is one.
func (o Opt[T]) Get() (T, bool) { return o.v, o.ok }

// Or returns the value, or def when there is none.
func (o Opt[T]) Or(def T) T {
	if o.ok {
		return o.v
	}
	return def
}

// OrZero returns the value, or T's zero value when there is none (a config's defaults).
func (o Opt[T]) OrZero() T { return o.v }

// IsSet reports whether there is a value.
func (o Opt[T]) IsSet() bool { return o.ok }

// Ptr returns a pointer to a copy of the value, or nil when there is none.
func (o Opt[T]) Ptr() *T {
	if !o.ok {
		return nil
	}
	v := o.v
	return &v
}

// MarshalJSON writes the value, or null when there is none (params drop absent trailing ones before that).
func (o Opt[T]) MarshalJSON() ([]byte, error) {
	if !o.ok {
		return []byte("null"), nil
	}
	return json.Marshal(o.v)
}

// UnmarshalJSON reads a value; null is none.
func (o *Opt[T]) UnmarshalJSON(data []byte) error {
	if string(bytes.TrimSpace(data)) == "null" {
		*o = Opt[T]{}
		return nil
	}
	var v T
	if err := json.Unmarshal(data, &v); err != nil {
		return err
	}
	*o = Opt[T]{v: v, ok: true}
	return nil
}

// OptOf is the Opt of a pointer: none when p is nil, else a copy of *p.
func OptOf[T any](p *T) Opt[T] {
	if p == nil {
		return Opt[T]{}
	}
	return Some(*p)
}
