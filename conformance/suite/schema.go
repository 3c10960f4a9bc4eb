package suite

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/big"
	"regexp"
	"sort"
	"strings"

	"github.com/mr-tron/base58"
	"github.com/santhosh-tekuri/jsonschema/v5"
)

// Spec is the part of the OpenRPC document the suite checks against: per method, its transport, its compiled
// result schema, its declared errors and, for subscriptions, its notification.
type Spec struct {
	Methods map[string]*MethodSpec
	Order   []string // methods in document order
}

// MethodSpec is one method of the document.
type MethodSpec struct {
	Name         string
	Transport    string // http, ws or both
	Deprecated   bool
	Result       *jsonschema.Schema
	Errors       []*ErrorSpec
	Notification string // subscribe methods: the notification's method name
	Unsubscribe  string
	NotifySchema *jsonschema.Schema
}

// ErrorSpec is one declared error: its code, the message template (holes as {name}) and the data schema.
type ErrorSpec struct {
	Name     string
	Code     int
	Template string
	pattern  *regexp.Regexp
	Data     *jsonschema.Schema // nil: the data key must be absent
}

// Matches reports whether msg is an instance of the error's message template.
func (e *ErrorSpec) Matches(msg string) bool { return e.pattern.MatchString(msg) }

type rawDoc struct {
	Methods []struct {
		Name         string            `json:"name"`
		Deprecated   bool              `json:"deprecated"`
		Transport    string            `json:"x-transport"`
		Errors       []json.RawMessage `json:"errors"`
		Notification *struct {
			Name        string `json:"name"`
			Unsubscribe string `json:"unsubscribe"`
		} `json:"x-notification"`
	} `json:"methods"`
	Components struct {
		Errors map[string]struct {
			Code    int    `json:"code"`
			Message string `json:"message"`
		} `json:"errors"`
	} `json:"components"`
	ErrorDetails map[string]struct {
		Template   string          `json:"x-message-template"`
		DataSchema json.RawMessage `json:"x-data-schema"`
	} `json:"x-error-details"`
}

const docURL = "file:///openrpc.json"

// LoadSpec compiles the schemas of an OpenRPC document (the JSON of generated/openrpc.json). $refs into
// #/components resolve inside the document itself.
func LoadSpec(doc []byte) (*Spec, error) {
	var d rawDoc
	if err := json.Unmarshal(doc, &d); err != nil {
		return nil, fmt.Errorf("reading the OpenRPC document: %w", err)
	}
	c := newCompiler()
	if err := c.AddResource(docURL, bytes.NewReader(doc)); err != nil {
		return nil, fmt.Errorf("loading the OpenRPC document: %w", err)
	}
	compile := func(ptr string) (*jsonschema.Schema, error) {
		s, err := c.Compile(docURL + "#" + ptr)
		if err != nil {
			return nil, fmt.Errorf("compiling %s: %w", ptr, err)
		}
		return s, nil
	}

	errs := map[string]*ErrorSpec{}
	for name, e := range d.Components.Errors {
		es := &ErrorSpec{Name: name, Code: e.Code, Template: e.Message}
		if det, ok := d.ErrorDetails[name]; ok {
			if det.Template != "" {
				es.Template = det.Template
			}
			if len(det.DataSchema) > 0 {
				s, err := compile("/x-error-details/" + escapePointer(name) + "/x-data-schema")
				if err != nil {
					return nil, err
				}
				es.Data = s
			}
		}
		es.pattern = templatePattern(es.Template)
		errs[name] = es
	}

	spec := &Spec{Methods: map[string]*MethodSpec{}}
	for i, m := range d.Methods {
		ms := &MethodSpec{Name: m.Name, Transport: m.Transport, Deprecated: m.Deprecated}
		if ms.Transport == "" {
			ms.Transport = "http"
		}
		var err error
		if ms.Result, err = compile(fmt.Sprintf("/methods/%d/result/schema", i)); err != nil {
			return nil, fmt.Errorf("method %s: %w", m.Name, err)
		}
		for _, raw := range m.Errors {
			var ref struct {
				Ref     string `json:"$ref"`
				Code    int    `json:"code"`
				Message string `json:"message"`
			}
			if err := json.Unmarshal(raw, &ref); err != nil {
				return nil, fmt.Errorf("method %s: error entry: %w", m.Name, err)
			}
			if ref.Ref == "" { // an inline error object
				ms.Errors = append(ms.Errors, &ErrorSpec{Name: ref.Message, Code: ref.Code, Template: ref.Message, pattern: templatePattern(ref.Message)})
				continue
			}
			name := strings.TrimPrefix(ref.Ref, "#/components/errors/")
			es, ok := errs[name]
			if !ok {
				return nil, fmt.Errorf("method %s: error %s is not in components.errors", m.Name, ref.Ref)
			}
			ms.Errors = append(ms.Errors, es)
		}
		if n := m.Notification; n != nil {
			ms.Notification, ms.Unsubscribe = n.Name, n.Unsubscribe
			if ms.NotifySchema, err = compile(fmt.Sprintf("/methods/%d/x-notification/schema", i)); err != nil {
				return nil, fmt.Errorf("method %s: %w", m.Name, err)
			}
		}
		spec.Methods[m.Name] = ms
		spec.Order = append(spec.Order, m.Name)
	}
	return spec, nil
}

// DeclaredCodes lists a method's declared errors as "-32602 InvalidParams, ..." for messages.
func (m *MethodSpec) DeclaredCodes() string {
	var parts []string
	for _, e := range m.Errors {
		parts = append(parts, fmt.Sprintf("%d %s", e.Code, e.Name))
	}
	return strings.Join(parts, ", ")
}

func escapePointer(s string) string {
	return strings.NewReplacer("~", "~0", "/", "~1").Replace(s)
}

// templatePattern turns "Block {slot} not available" into an anchored regexp where each hole matches any text.
func templatePattern(t string) *regexp.Regexp {
	var b strings.Builder
	b.WriteString(`(?s)^`)
	for {
		i := strings.IndexByte(t, '{')
		j := strings.IndexByte(t[max(i, 0):], '}')
		if i < 0 || j < 0 {
			b.WriteString(regexp.QuoteMeta(t))
			break
		}
		b.WriteString(regexp.QuoteMeta(t[:i]))
		b.WriteString(`.*`)
		t = t[i+j+1:]
	}
	b.WriteString(`$`)
	return regexp.MustCompile(b.String())
}

// newCompiler is a draft-07 compiler that asserts the document's formats: base58 keys, signatures and hashes of
// the right length, and integers inside the range their Go type holds (so a u64 written as a float, or a
// negative lamports count, is a schema violation).
func newCompiler() *jsonschema.Compiler {
	c := jsonschema.NewCompiler()
	c.Draft = jsonschema.Draft7
	c.AssertFormat = true
	b58 := func(n int) func(any) bool {
		return func(v any) bool {
			s, ok := v.(string)
			if !ok {
				return true
			}
			b, err := base58.Decode(s)
			return err == nil && len(b) == n
		}
	}
	c.Formats = map[string]func(any) bool{
		"pubkey":    b58(32),
		"hash":      b58(32),
		"signature": b58(64),
		"uint64":    intRange(64, false),
		"usize":     intRange(64, false),
		"uint32":    intRange(32, false),
		"uint16":    intRange(16, false),
		"uint8":     intRange(8, false),
		"int64":     intRange(64, true),
		"int32":     intRange(32, true),
	}
	return c
}

// intRange checks that a JSON number is an integer that fits in an integer of bits bits.
func intRange(bits uint, signed bool) func(any) bool {
	lo, hi := new(big.Int), new(big.Int).Lsh(big.NewInt(1), bits)
	if signed {
		hi.Rsh(hi, 1)
		lo.Neg(hi)
	}
	hi.Sub(hi, big.NewInt(1))
	return func(v any) bool {
		n, ok := v.(json.Number)
		if !ok {
			return true // not a number: the type keyword reports it
		}
		i, ok := new(big.Int).SetString(string(n), 10)
		if !ok {
			return false // a fraction or an exponent: not an exact integer
		}
		return i.Cmp(lo) >= 0 && i.Cmp(hi) <= 0
	}
}

// validate checks v against s and describes the first few violations as "path: problem".
func validate(s *jsonschema.Schema, v any) error {
	err := s.Validate(v)
	if err == nil {
		return nil
	}
	ve, ok := err.(*jsonschema.ValidationError)
	if !ok {
		return err
	}
	leaves := map[string]bool{}
	var walk func(e *jsonschema.ValidationError)
	walk = func(e *jsonschema.ValidationError) {
		if len(e.Causes) == 0 {
			loc := e.InstanceLocation
			if loc == "" {
				loc = "/"
			}
			leaves[loc+": "+e.Message] = true
			return
		}
		for _, c := range e.Causes {
			walk(c)
		}
	}
	walk(ve)
	list := make([]string, 0, len(leaves))
	for l := range leaves {
		list = append(list, l)
	}
	sort.Strings(list)
	if len(list) > 4 {
		list = append(list[:4], fmt.Sprintf("(%d more)", len(list)-4))
	}
	return fmt.Errorf("%s", strings.Join(list, "; "))
}

// decodeJSON decodes with json.Number, as the schema validator wants (u64 values stay exact).
func decodeJSON(raw []byte) (any, error) {
	d := json.NewDecoder(bytes.NewReader(raw))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		return nil, err
	}
	return v, nil
}
