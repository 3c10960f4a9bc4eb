package main

import (
	"encoding/json"
	"fmt"
	"path"
	"sort"
	"strconv"
	"strings"
)

// The IR: what the emitters need, resolved from the assembled document. Emitters never read the document.

type TKind int

// floatPrim is the Go type of a schema number: rpcapi.Float (gen/static/rpcapi/runtime.go), a float64 that
// marshals as the reference writes floats (2.0, not 2).
const floatPrim = "Float"

const (
	TPrim  TKind = iota // string, bool, Float, uint64, ...
	TAny                // free-form JSON
	TNamed              // a declared type
	TPtr                // pointer to Elem
	TSlice              // []Elem
	TArray              // [Len]Elem
	TMap                // map[string]Elem
	TOpt                // Opt[Elem]: an optional param, absent or null, or a value
	TCore               // a key, signature or hash of impl/core (Prim names it), decoded from its base-58 text
)

// GoType is a Go type expression plus the constraints its values must meet.
type GoType struct {
	Kind  TKind
	Prim  string
	Elem  *GoType
	Len   int
	Named *Decl
	C     Constraints
	// Null marks a type whose schema admits JSON null. Go needs it only for pointers (which it adds itself); the
	// TypeScript and docs emitters need it on every kind, since a nullable slice or map has no pointer in Go.
	Null bool
}

// Nilable reports whether the Go zero value already stands for "absent" or "null".
func (t *GoType) Nilable() bool {
	switch t.Kind {
	case TAny, TPtr, TMap:
		return true
	case TNamed:
		return t.Named.Kind == DAlias && t.Named.Target.Nilable()
	}
	return false
}

// Constraints are the validation keywords that apply to a value.
type Constraints struct {
	Format   string // pubkey, signature, hash
	Enum     []string
	Min, Max *float64
	MinItems *int
	MaxItems *int
	Message  string // x-error-message
}

func (c Constraints) Empty() bool {
	return c.Format == "" && len(c.Enum) == 0 && c.Min == nil && c.Max == nil && c.MinItems == nil && c.MaxItems == nil
}

type DKind int

const (
	DStruct DKind = iota
	DUnion
	DAlias
)

// Decl is a named Go type.
type Decl struct {
	Name    string
	Doc     string
	Kind    DKind
	Fields  []*Field  // DStruct
	Members []*Member // DUnion
	Target  *GoType   // DAlias
	Enum    []string  // string enum values of an alias, emitted as constants
	Source  string
}

type Field struct {
	GoName, JSONName, Doc string
	Type                  *GoType
	Optional              bool // omitempty
}

type Member struct {
	GoName   string
	Type     *GoType // always a pointer in the struct
	JSONKind string  // string, number, integer, boolean, array, object, null, or "" for any
	Required []string
}

type Param struct {
	Name, GoName, Doc string
	Required          bool
	Type              *GoType // Opt[...] for optional params, a pointer for required ones that admit null
	Schema            *GoType // the param's own type, before Go's pointer for an optional param
	// Text is set for a param of base-58 keys, signatures or hashes: its Type holds core values, and Text the
	// type of the wire text (a string, a list of them, or an Opt of either) that Validate decodes into them.
	Text *GoType
}

type Method struct {
	Name, GoName, Summary, Description string
	Params                             []*Param
	Result                             *Decl
	Errors                             []string
	Transport                          string
	Commitment, RejectsProcessed       bool
	Deprecated, Unstable               bool
	Replacement, Since, NotInSpec      string
	Notification                       *Notification

	// For the reference docs.
	Group                 string // the methods/<group>.yaml the method comes from
	ResultName, ResultDoc string
	Examples              []*Example
}

type Notification struct {
	Name, Unsubscribe string
	Type              *Decl
	Example           string // x-notification-example as JSON, or ""
}

// Example is one example pairing of a method, as JSON text: Params is the positional params array (absent
// optional params in between are null), Result is "" when the example has none.
type Example struct {
	Name, Summary, Description string
	Params, Result             string
}

type ErrorArg struct{ Name, Type string }

type ErrorDef struct {
	Name, Template string
	Code           int
	// For the docs, the shape of data (x-data-schema): the type it names, or else the schema as JSON.
	DataType   *GoType
	DataSchema string
	Args       []ErrorArg
	DataFields []string // keys of data; nil with HasData false means no data key
	HasData    bool
	DataWhole  bool // an argument named "data" is the whole data
}

type IR struct {
	Title, Version, Description, License string // the document's info

	Decls   []*Decl
	Methods []*Method
	Errors  []*ErrorDef
}

type builder struct {
	doc   *Node
	decls map[string]*Decl
	order []*Decl
	probs Problems
}

// BuildIR resolves every method, component and error of the document into Go declarations.
func BuildIR(a *Assembled) (*IR, error) {
	b := &builder{doc: a.Doc, decls: map[string]*Decl{}}
	comps := a.Doc.Get("components").Get("schemas")
	for i, k := range comps.Keys {
		b.component(k, comps.Vals[i])
	}
	info := a.Doc.Get("info")
	ir := &IR{Title: info.Get("title").String(), Version: info.Get("version").String(), Description: info.Get("description").String(),
		License: info.Get("license").Get("name").String()}
	for _, m := range a.Doc.Get("methods").Items {
		ir.Methods = append(ir.Methods, b.method(m))
	}
	errs := a.Doc.Get("components").Get("errors")
	details := a.Doc.Get("x-error-details")
	for i, k := range errs.Keys {
		ir.Errors = append(ir.Errors, b.errorDef(k, errs.Vals[i], details.Get(k)))
	}
	// The generated runtime builds these errors itself, so every catalogue must define them.
	for _, need := range []string{"InvalidParams", "MethodNotFound", "MethodNotAvailable", "UnsupportedCommitment"} {
		if errs.Get(need) == nil {
			b.probs.Add("schema/errors: the catalogue must define %s (the generated runtime uses it)", need)
		}
	}
	ir.Decls = b.order
	sort.SliceStable(ir.Decls, func(i, j int) bool { return ir.Decls[i].Name < ir.Decls[j].Name })
	b.checkSDKNames(ir)
	return ir, b.probs.Err()
}

func (b *builder) declare(name string, d *Decl) *Decl {
	if prev, ok := b.decls[name]; ok {
		if prev != d {
			b.probs.Add("%s: Go type %s is declared twice (also at %s); give one a distinct title", d.Source, name, prev.Source)
		}
		return prev
	}
	d.Name = name
	b.decls[name] = d
	b.order = append(b.order, d)
	return d
}

// component declares a component by name; references to it resolve to this declaration.
func (b *builder) component(name string, s *Node) *Decl {
	if d, ok := b.decls[name]; ok {
		return d
	}
	d := &Decl{Source: s.Where(), Doc: docOf(s)}
	b.declare(name, d)
	b.fill(d, s, name)
	return d
}

// fill makes d the declaration of schema s: a struct, a union, or an alias of whatever s resolves to.
func (b *builder) fill(d *Decl, s *Node, hint string) {
	if inner, nullable := nullableOf(s); nullable {
		d.Kind = DAlias
		d.Target = nullableType(b.typeOf(inner, hint+"Value"))
		return
	}
	switch {
	case isUnion(s):
		d.Kind = DUnion
		b.unionMembers(d, s)
	case typeName(s) == "object" && s.Get("properties") != nil:
		d.Kind = DStruct
		b.structFields(d, s)
	default:
		d.Kind = DAlias
		d.Target = b.typeOf(s, hint)
		if e := s.Get("enum"); e != nil && d.Target.Kind == TPrim && d.Target.Prim == "string" {
			for _, v := range e.Items {
				d.Enum = append(d.Enum, v.Str)
			}
		}
	}
}

func docOf(s *Node) string {
	if d := s.Get("description").String(); d != "" {
		return d
	}
	return s.Get("summary").String()
}

func typeName(s *Node) string {
	t := s.Get("type")
	if t == nil {
		if s.Get("properties") != nil {
			return "object"
		}
		return ""
	}
	if t.Kind == KArray {
		// Several non-null types ([string, object]) make a free-form value.
		var nonNull []string
		for _, it := range t.Items {
			if it.Str != "null" {
				nonNull = append(nonNull, it.Str)
			}
		}
		if len(nonNull) == 1 {
			return nonNull[0]
		}
		return ""
	}
	return t.Str
}

// nullableOf recognises `oneOf: [S, {type: null}]` and `type: [T, "null"]`, returning S.
func nullableOf(s *Node) (*Node, bool) {
	if t := s.Get("type"); t != nil && t.Kind == KArray && len(t.Items) == 2 {
		for i, it := range t.Items {
			if it.Str == "null" {
				c := s.Clone()
				c.Set("type", t.Items[1-i].Clone())
				return c, true
			}
		}
	}
	one := s.Get("oneOf")
	if one == nil {
		one = s.Get("anyOf")
	}
	if one == nil || len(one.Items) != 2 {
		return nil, false
	}
	for i, it := range one.Items {
		if typeName(it) == "null" && it.Get("$ref") == nil {
			return one.Items[1-i], true
		}
	}
	return nil, false
}

func isUnion(s *Node) bool {
	one := s.Get("oneOf")
	if one == nil {
		one = s.Get("anyOf")
	}
	return one != nil && len(one.Items) >= 2
}

func nullableType(t *GoType) *GoType {
	if t.Nilable() || t.Kind == TSlice {
		t.Null = true
		return t
	}
	return &GoType{Kind: TPtr, Elem: t, Null: true}
}

func (b *builder) structFields(d *Decl, s *Node) {
	required := map[string]bool{}
	for _, r := range itemsOf(s.Get("required")) {
		required[r.Str] = true
	}
	props := s.Get("properties")
	for i, k := range props.Keys {
		ps := props.Vals[i]
		fname := goName(k)
		if n := ps.Get("x-go-name").String(); n != "" {
			fname = n
		}
		t := b.typeOf(ps, d.Name+fname)
		f := &Field{GoName: fname, JSONName: k, Doc: docOf(ps), Type: t}
		if !required[k] {
			f.Optional = true
			if !t.Nilable() {
				f.Type = &GoType{Kind: TPtr, Elem: t}
			}
		}
		d.Fields = append(d.Fields, f)
	}
}

func (b *builder) unionMembers(d *Decl, s *Node) {
	one := s.Get("oneOf")
	if one == nil {
		one = s.Get("anyOf")
	}
	for i, ms := range one.Items {
		title := ms.Get("x-go-name").String()
		if title == "" {
			title = ms.Get("title").String()
		}
		if title == "" {
			if ref := ms.Get("$ref").String(); ref != "" {
				title = refName(ref)
			} else {
				b.probs.Add("%s: member %d of union %s needs a title", ms.Where(), i, d.Name)
				title = "Member" + strconv.Itoa(i)
			}
		}
		// A member's own title names the field; an inline object member is named after the union.
		inner := ms
		if ms.Get("$ref") == nil && ms.Get("title") != nil {
			inner = ms.Clone()
			inner.Delete("title")
		}
		t := b.typeOf(inner, d.Name+goName(title))
		kind := jsonKindOf(b.deref(ms))
		m := &Member{GoName: goName(title), Type: t, JSONKind: kind}
		for _, r := range itemsOf(b.deref(ms).Get("required")) {
			m.Required = append(m.Required, r.Str)
		}
		d.Members = append(d.Members, m)
	}
}

// deref follows $ref chains to the schema they name.
func (b *builder) deref(s *Node) *Node {
	for i := 0; i < 16 && s != nil; i++ {
		ref := s.Get("$ref").String()
		if ref == "" {
			return s
		}
		s = resolvePointer(b.doc, ref)
	}
	return s
}

func jsonKindOf(s *Node) string {
	if s == nil {
		return ""
	}
	if s.Get("const") != nil {
		switch s.Get("const").Kind {
		case KString:
			return "string"
		case KNumber:
			return "number"
		}
	}
	switch t := typeName(s); t {
	case "integer":
		return "number"
	default:
		return t
	}
}

func refName(ref string) string { return ref[strings.LastIndex(ref, "/")+1:] }

// typeOf resolves a schema to a Go type, declaring named types for inline objects and unions (named by hint, or by
// the schema's title).
func (b *builder) typeOf(s *Node, hint string) *GoType {
	c := constraintsOf(s)
	if ref := s.Get("$ref").String(); ref != "" {
		target := resolvePointer(b.doc, ref)
		if target == nil || !strings.HasPrefix(ref, "#/components/schemas/") {
			b.probs.Add("%s: unsupported $ref %q", s.Where(), ref)
			return &GoType{Kind: TAny}
		}
		d := b.component(refName(ref), target)
		t := &GoType{Kind: TNamed, Named: d, C: mergeConstraints(c, b.constraintsBehind(d))}
		return t
	}
	if inner, ok := nullableOf(s); ok {
		t := b.typeOf(inner, hint)
		if c.Message != "" && t.C.Message == "" {
			t.C.Message = c.Message
		}
		return nullableType(t)
	}
	name := hint
	if t := s.Get("title").String(); t != "" {
		name = goName(t)
	}
	if isUnion(s) {
		d := &Decl{Kind: DUnion, Source: s.Where(), Doc: docOf(s)}
		d = b.declare(name, d)
		if len(d.Members) == 0 {
			b.unionMembers(d, s)
		}
		return &GoType{Kind: TNamed, Named: d, C: c}
	}
	switch typeName(s) {
	case "string":
		return &GoType{Kind: TPrim, Prim: "string", C: c}
	case "boolean":
		return &GoType{Kind: TPrim, Prim: "bool", C: c}
	case "number":
		return &GoType{Kind: TPrim, Prim: floatPrim, C: c}
	case "integer":
		return &GoType{Kind: TPrim, Prim: intType(s), C: c}
	case "array":
		items := s.Get("items")
		if items == nil {
			return &GoType{Kind: TSlice, Elem: &GoType{Kind: TAny}, C: c}
		}
		if items.Kind == KArray {
			var first *GoType
			same := true
			for i, it := range items.Items {
				t := b.typeOf(it, fmt.Sprintf("%s%d", hint, i))
				if first == nil {
					first = t
				} else if goTypeString(first) != goTypeString(t) {
					same = false
				}
			}
			if same && first != nil {
				return &GoType{Kind: TArray, Len: len(items.Items), Elem: first, C: c}
			}
			return &GoType{Kind: TSlice, Elem: &GoType{Kind: TAny}, C: c}
		}
		return &GoType{Kind: TSlice, Elem: b.typeOf(items, hint+"Item"), C: c}
	case "object":
		if s.Get("properties") != nil {
			d := &Decl{Kind: DStruct, Source: s.Where(), Doc: docOf(s)}
			d = b.declare(name, d)
			if len(d.Fields) == 0 {
				b.structFields(d, s)
			}
			return &GoType{Kind: TNamed, Named: d, C: c}
		}
		if ap := s.Get("additionalProperties"); ap != nil && ap.Kind == KObject {
			return &GoType{Kind: TMap, Elem: b.typeOf(ap, hint+"Value"), C: c}
		}
		return &GoType{Kind: TMap, Elem: &GoType{Kind: TAny}, C: c}
	case "null":
		return &GoType{Kind: TAny}
	}
	if s.Get("const") != nil && s.Get("const").Kind == KString {
		return &GoType{Kind: TPrim, Prim: "string", C: c}
	}
	return &GoType{Kind: TAny, C: c}
}

func intType(s *Node) string {
	switch s.Get("format").String() {
	case "int64":
		return "int64"
	case "uint32":
		return "uint32"
	case "int32":
		return "int32"
	case "uint16":
		return "uint16"
	case "uint8":
		return "uint8"
	case "uint64", "usize", "":
		return "uint64"
	}
	return "uint64"
}

func constraintsOf(s *Node) Constraints {
	var c Constraints
	switch f := s.Get("format").String(); f {
	case "pubkey", "signature", "hash":
		c.Format = f
	}
	for _, e := range itemsOf(s.Get("enum")) {
		if e.Kind == KString {
			c.Enum = append(c.Enum, e.Str)
		}
	}
	if v := s.Get("const"); v != nil && v.Kind == KString {
		c.Enum = []string{v.Str}
	}
	num := func(k string) *float64 {
		if v := s.Get(k); v != nil && v.Kind == KNumber {
			f, _ := strconv.ParseFloat(v.Num, 64)
			return &f
		}
		return nil
	}
	c.Min, c.Max = num("minimum"), num("maximum")
	ints := func(k string) *int {
		if v := s.Get(k); v != nil && v.Kind == KNumber {
			n, _ := strconv.Atoi(v.Num)
			return &n
		}
		return nil
	}
	c.MinItems, c.MaxItems = ints("minItems"), ints("maxItems")
	c.Message = s.Get("x-error-message").String()
	return c
}

// constraintsBehind returns the constraints an alias declaration carries (a Pubkey's format, a Slot's minimum).
func (b *builder) constraintsBehind(d *Decl) Constraints {
	if d.Kind == DAlias && d.Target != nil {
		return d.Target.C
	}
	return Constraints{}
}

// mergeConstraints lets the referencing schema's keywords win over the referenced one's.
func mergeConstraints(outer, inner Constraints) Constraints {
	c := inner
	if outer.Format != "" {
		c.Format = outer.Format
	}
	if len(outer.Enum) > 0 {
		c.Enum = outer.Enum
	}
	if outer.Min != nil {
		c.Min = outer.Min
	}
	if outer.Max != nil {
		c.Max = outer.Max
	}
	if outer.MinItems != nil {
		c.MinItems = outer.MinItems
	}
	if outer.MaxItems != nil {
		c.MaxItems = outer.MaxItems
	}
	if outer.Message != "" {
		c.Message = outer.Message
	}
	return c
}

func goTypeString(t *GoType) string {
	switch t.Kind {
	case TPrim:
		return t.Prim
	case TAny:
		return "any"
	case TNamed:
		return t.Named.Name
	case TPtr:
		return "*" + goTypeString(t.Elem)
	case TSlice:
		return "[]" + goTypeString(t.Elem)
	case TArray:
		return fmt.Sprintf("[%d]%s", t.Len, goTypeString(t.Elem))
	case TMap:
		return "map[string]" + goTypeString(t.Elem)
	case TOpt:
		return "Opt[" + goTypeString(t.Elem) + "]"
	case TCore:
		return "core." + t.Prim
	}
	return "?"
}

func (b *builder) method(m *Node) *Method {
	name := m.Get("name").String()
	out := &Method{
		Name: name, GoName: goName(name),
		Summary: m.Get("summary").String(), Description: m.Get("description").String(),
		Transport:        "http",
		Commitment:       m.Get("x-commitment").Truthy(),
		RejectsProcessed: m.Get("x-rejects-processed").Truthy(),
		Deprecated:       m.Get("deprecated").Truthy(),
		Unstable:         m.Get("x-unstable").Truthy(),
		Replacement:      m.Get("x-replacement").String(),
		Since:            m.Get("x-since").String(),
		NotInSpec:        m.Get("x-not-in-spec").String(),
	}
	if t := m.Get("x-transport").String(); t != "" {
		out.Transport = t
	}
	for _, p := range itemsOf(m.Get("params")) {
		pname := p.Get("name").String()
		t := b.typeOf(p.Get("schema"), out.GoName+goName(pname))
		prm := &Param{Name: pname, GoName: goName(pname), Doc: p.Get("description").String(), Required: p.Get("required").Truthy(), Type: t, Schema: t}
		switch {
		case !prm.Required && t.Kind == TPtr && t.Null:
			// null and absent are one for an optional param: Opt of what the pointer points to.
			inner := *t.Elem
			inner.C = mergeConstraints(t.C, t.Elem.C)
			prm.Type = &GoType{Kind: TOpt, Elem: &inner}
		case !prm.Required:
			prm.Type = &GoType{Kind: TOpt, Elem: t}
		case isNullableSchema(p.Get("schema")) && !t.Nilable():
			prm.Type = &GoType{Kind: TPtr, Elem: t}
		}
		if core, ok := coreTyped(prm.Type); ok {
			prm.Text, prm.Type = prm.Type, core
		}
		out.Params = append(out.Params, prm)
	}
	if r := m.Get("result"); r != nil {
		out.Result = b.namedFor(resultName(name), r.Get("schema"))
		out.ResultName, out.ResultDoc = r.Get("name").String(), docOf(r)
	}
	out.Group = strings.TrimSuffix(path.Base(m.File), path.Ext(m.File))
	for _, ex := range itemsOf(m.Get("examples")) {
		out.Examples = append(out.Examples, exampleOf(m, ex))
	}
	for _, e := range itemsOf(m.Get("errors")) {
		if ref := e.Get("$ref").String(); ref != "" {
			out.Errors = append(out.Errors, refName(ref))
		}
	}
	if n := m.Get("x-notification"); n != nil {
		out.Notification = &Notification{
			Name:        n.Get("name").String(),
			Unsubscribe: n.Get("unsubscribe").String(),
			Type:        b.namedFor(notificationName(name), n.Get("schema")),
		}
		if ex := m.Get("x-notification-example"); ex != nil {
			out.Notification.Example = jsonText(ex)
		}
	}
	return out
}

func isNullableSchema(s *Node) bool { _, ok := nullableOf(s); return ok }

// coreNames are the impl/core types of the base-58 formats.
var coreNames = map[string]string{"pubkey": "Pubkey", "signature": "Signature", "hash": "Hash"}

// coreTyped returns the Go type of a param whose values are base-58 keys, signatures or hashes: the same shape
// (a value, a list, an Opt of either) with core values in place of the strings. Other params keep their type.
func coreTyped(t *GoType) (*GoType, bool) {
	u, c := unalias(t, t.C)
	switch u.Kind {
	case TOpt, TPtr, TSlice:
		inner, ok := coreTyped(u.Elem)
		if !ok {
			return nil, false
		}
		return &GoType{Kind: u.Kind, Elem: inner, C: c}, true
	case TPrim:
		if name, ok := coreNames[c.Format]; ok && u.Prim == "string" {
			return &GoType{Kind: TCore, Prim: name, C: c}, true
		}
	}
	return nil, false
}

// namedFor gives a method's result (or notification) a Go name: the struct itself when the schema is an inline
// object, otherwise an alias of what it resolves to.
func (b *builder) namedFor(name string, s *Node) *Decl {
	if s.Get("$ref") == nil && !isUnion(s) && typeName(s) == "object" && s.Get("properties") != nil && s.Get("title") == nil {
		d := &Decl{Kind: DStruct, Source: s.Where(), Doc: docOf(s)}
		d = b.declare(name, d)
		b.structFields(d, s)
		return d
	}
	t := b.typeOf(s, name+"Value")
	return b.declare(name, &Decl{Kind: DAlias, Target: t, Source: s.Where()})
}

func (b *builder) errorDef(name string, e, x *Node) *ErrorDef {
	code, _ := strconv.Atoi(e.Get("code").Num)
	d := &ErrorDef{Name: name, Code: code, Template: x.Get("x-message-template").String()}
	if d.Template == "" {
		d.Template = e.Get("message").String()
	}
	for _, a := range itemsOf(x.Get("x-args")) {
		d.Args = append(d.Args, ErrorArg{Name: a.Get("name").String(), Type: a.Get("type").String()})
	}
	if ds := x.Get("x-data-schema"); ds != nil {
		d.HasData = true
		// Only a named schema becomes a type: an inline one must not declare Go types nobody uses.
		if ds.Get("$ref") != nil {
			d.DataType = b.typeOf(ds, name+"ErrorData")
		} else {
			d.DataSchema = jsonText(ds)
		}
		if props := b.deref(ds).Get("properties"); props != nil && ds.Get("$ref") == nil {
			d.DataFields = props.Keys
		} else {
			d.DataWhole = true
		}
	}
	return d
}

// exampleOf lays an example's named params out in the method's param order.
func exampleOf(m, ex *Node) *Example {
	out := &Example{Name: ex.Get("name").String(), Summary: ex.Get("summary").String(), Description: ex.Get("description").String()}
	byName := map[string]*Node{}
	for _, p := range itemsOf(ex.Get("params")) {
		byName[p.Get("name").String()] = p.Get("value")
	}
	list := &Node{Kind: KArray, Items: []*Node{}}
	for _, p := range itemsOf(m.Get("params")) {
		v := byName[p.Get("name").String()]
		if v == nil {
			v = &Node{Kind: KNull}
		}
		list.Items = append(list.Items, v)
	}
	// Absent optional params at the end are left out, as a client sends them.
	for len(list.Items) > 0 && byName[itemsOf(m.Get("params"))[len(list.Items)-1].Get("name").String()] == nil {
		list.Items = list.Items[:len(list.Items)-1]
	}
	out.Params = jsonText(list)
	if r := ex.Get("result"); r != nil && r.Get("value") != nil {
		out.Result = jsonText(r.Get("value"))
	}
	return out
}

func jsonText(n *Node) string {
	b, _ := json.Marshal(n)
	return string(b)
}

// checkSDKNames rejects a declaration whose name the TypeScript SDK already uses for its runtime or for the params
// tuple of a method.
func (b *builder) checkSDKNames(ir *IR) {
	taken := map[string]string{}
	for _, n := range sdkRuntimeNames {
		taken[n] = "the TypeScript SDK runtime"
	}
	for _, m := range ir.Methods {
		taken[paramsName(m.Name)] = "the params of " + m.Name + " in the TypeScript SDK"
	}
	for _, d := range ir.Decls {
		if by, ok := taken[d.Name]; ok {
			b.probs.Add("%s: the type name %s is taken by %s; give the schema a different title", d.Source, d.Name, by)
		}
	}
}
