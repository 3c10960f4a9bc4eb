package main

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/dave/jennifer/jen"
)

// The validators are Go code generated from the schema's keywords (enum, minimum/maximum, minItems/maxItems,
// base58 formats). Decoding already enforced types and required params; these check values.

type validator struct {
	needs map[*Decl]bool
	busy  map[*Decl]bool
	tmp   int
	used  []*Decl // declarations whose validate method a check calls, in order of first use
	seen  map[*Decl]bool
	// assignsErr marks a body whose decodeB58 statements assign an err the body must declare.
	assignsErr bool
}

// needsCheck reports whether a value of t has anything to validate.
func (v *validator) needsCheck(t *GoType) bool {
	if t == nil {
		return false
	}
	if !t.C.Empty() {
		return true
	}
	switch t.Kind {
	case TPtr, TSlice, TArray, TMap, TOpt:
		return v.needsCheck(t.Elem)
	case TNamed:
		return v.declNeeds(t.Named)
	}
	return false
}

func (v *validator) declNeeds(d *Decl) bool {
	if r, ok := v.needs[d]; ok {
		return r
	}
	if v.busy[d] {
		return false
	}
	v.busy[d] = true
	r := false
	switch d.Kind {
	case DAlias:
		r = v.needsCheck(d.Target)
	case DStruct:
		for _, f := range d.Fields {
			r = r || v.needsCheck(f.Type)
		}
	case DUnion:
		for _, m := range d.Members {
			r = r || v.needsCheck(m.Type)
		}
	}
	delete(v.busy, d)
	v.needs[d] = r
	return r
}

// check returns statements that validate expr (a Go expression of type t) and return an error; path is a Go
// expression of the value's path, evaluated only when reporting.
func (v *validator) check(t *GoType, expr, path string) []jen.Code {
	if !v.needsCheck(t) {
		return nil
	}
	var out []jen.Code
	c := t.C
	custom := jen.Lit(c.Message)
	fail := func(problem jen.Code) jen.Code {
		return jen.Return(jen.Id("invalidParam").Call(jen.Id(path), problem, custom))
	}
	switch t.Kind {
	case TPtr:
		inner := *t.Elem
		inner.C = mergeConstraints(t.C, t.Elem.C)
		if body := v.check(&inner, "(*"+expr+")", path); len(body) > 0 {
			out = append(out, jen.If(jen.Id(expr).Op("!=").Nil()).Block(body...))
		}
		return out
	case TOpt:
		// The generated package reads an Opt's fields directly: the value is checked in place.
		inner := *t.Elem
		inner.C = mergeConstraints(t.C, t.Elem.C)
		if body := v.check(&inner, expr+".v", path); len(body) > 0 {
			out = append(out, jen.If(jen.Id(expr+".ok")).Block(body...))
		}
		return out
	case TNamed:
		switch t.Named.Kind {
		case DAlias:
			inner := *t.Named.Target
			inner.C = mergeConstraints(t.C, t.Named.Target.C)
			return v.check(&inner, expr, path)
		default:
			if v.declNeeds(t.Named) {
				if !v.seen[t.Named] {
					v.seen[t.Named] = true
					v.used = append(v.used, t.Named)
				}
				out = append(out, jen.If(jen.Err().Op(":=").Parens(jen.Op("&").Id(expr)).Dot("validate").Call(jen.Id(path)), jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Err())))
			}
			return out
		}
	case TPrim:
		if c.Format != "" && t.Prim == "string" {
			size := 32
			if c.Format == "signature" {
				size = 64
			}
			out = append(out, jen.If(jen.Err().Op(":=").Id("checkBase58").Call(jen.Id(expr), jen.Lit(size), custom), jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Err())))
		}
		if len(c.Enum) > 0 && t.Prim == "string" {
			var lits []jen.Code
			for _, e := range c.Enum {
				lits = append(lits, jen.Lit(e))
			}
			out = append(out, jen.Switch(jen.Id(expr)).Block(
				jen.Case(lits...),
				jen.Default().Block(fail(jen.Lit("unknown variant `").Op("+").String().Call(jen.Id(expr)).Op("+").Lit("`, expected one of "+quoteList(c.Enum)))),
			))
		}
		if t.Prim != "string" && t.Prim != "bool" {
			if c.Min != nil && !(isUnsigned(t.Prim) && *c.Min <= 0) {
				out = append(out, jen.If(jen.Id(expr).Op("<").Add(numLit(*c.Min))).Block(fail(jen.Lit("must be at least "+fmtNum(*c.Min)))))
			}
			if c.Max != nil && !atTypeMax(*c.Max, t.Prim) {
				out = append(out, jen.If(jen.Id(expr).Op(">").Add(numLit(*c.Max))).Block(fail(jen.Lit("must be at most "+fmtNum(*c.Max)))))
			}
		}
		return out
	case TSlice, TArray, TMap:
		if c.MinItems != nil && t.Kind != TArray {
			out = append(out, jen.If(jen.Len(jen.Id(expr)).Op("<").Lit(*c.MinItems)).Block(fail(jen.Lit(fmt.Sprintf("must have at least %d items", *c.MinItems)))))
		}
		if c.MaxItems != nil && t.Kind != TArray {
			out = append(out, jen.If(jen.Len(jen.Id(expr)).Op(">").Lit(*c.MaxItems)).Block(fail(jen.Lit(fmt.Sprintf("must have at most %d items", *c.MaxItems)))))
		}
		v.tmp++
		i := "i" + strconv.Itoa(v.tmp)
		elemExpr := expr + "[" + i + "]"
		elemPath := fmt.Sprintf("indexPath(%s, %s)", path, i)
		if t.Kind == TMap {
			elemExpr = "e" + strconv.Itoa(v.tmp)
		}
		if body := v.check(t.Elem, elemExpr, elemPath); len(body) > 0 {
			if t.Kind == TMap {
				out = append(out, jen.For(jen.List(jen.Id(i), jen.Id(elemExpr)).Op(":=").Range().Id(expr)).Block(body...))
			} else {
				out = append(out, jen.For(jen.Id(i).Op(":=").Range().Id(expr)).Block(body...))
			}
		}
		return out
	}
	return out
}

func isUnsigned(p string) bool { return strings.HasPrefix(p, "uint") }

// numLit writes a bound as an untyped constant, so it compares with any numeric field type.
func numLit(f float64) jen.Code { return jen.Id(fmtNum(f)) }

// atTypeMax reports a maximum that the Go type already enforces (a u8's 255).
func atTypeMax(max float64, prim string) bool {
	limits := map[string]float64{"uint8": 255, "uint16": 65535, "uint32": 4294967295, "int32": 2147483647}
	l, ok := limits[prim]
	return ok && max >= l
}

func fmtNum(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }

func quoteList(vals []string) string {
	q := make([]string, len(vals))
	for i, s := range vals {
		q[i] = "`" + s + "`"
	}
	return strings.Join(q, ", ")
}

func emitValidate(ir *IR) *jen.File {
	f := jen.NewFile("rpcapi")
	v := &validator{needs: map[*Decl]bool{}, busy: map[*Decl]bool{}, seen: map[*Decl]bool{}}
	for _, m := range ir.Methods {
		if len(m.Params) == 0 {
			continue
		}
		var body []jen.Code
		for _, p := range m.Params {
			if p.Text != nil {
				body = append(body, v.decodeCore(p)...)
				continue
			}
			if d, ok := base58Of(p.Type); ok {
				// Decoded here once; the handler takes the bytes from the accessor instead of decoding again.
				body = append(body, v.decodeB58(d, "p", p.GoName, strconv.Quote(p.Name))...)
				continue
			}
			body = append(body, v.check(p.Type, "p."+p.GoName, strconv.Quote(p.Name))...)
		}
		body = v.declareErr(body)
		body = append(body, jen.Return(jen.Nil()))
		f.Comment(fmt.Sprintf("Validate checks the params of %s against the schema; a failure is a -32602 *Error.", m.Name))
		f.Func().Params(jen.Id("p").Op("*").Id(paramsName(m.Name))).Id("Validate").Params().Error().Block(body...)
	}
	// Only the declarations that params reach get a validate method; the list grows as their checks are emitted.
	for i := 0; i < len(v.used); i++ {
		d := v.used[i]
		var body []jen.Code
		switch d.Kind {
		case DStruct:
			for _, fl := range d.Fields {
				path := fmt.Sprintf("path+%q", "."+fl.JSONName)
				if kd, ok := base58Of(fl.Type); ok {
					body = append(body, v.decodeB58(kd, "x", fl.GoName, path)...)
					continue
				}
				body = append(body, v.check(fl.Type, "x."+fl.GoName, path)...)
			}
			body = v.declareErr(body)
		case DUnion:
			for _, m := range d.Members {
				body = append(body, v.check(&GoType{Kind: TPtr, Elem: m.Type}, "x."+m.GoName, "path")...)
			}
		}
		body = append(body, jen.Return(jen.Nil()))
		f.Func().Params(jen.Id("x").Op("*").Id(d.Name)).Id("validate").Params(jen.Id("path").String()).Error().Block(body...)
	}
	return f
}

// b58 describes a value Validate decodes from base 58 and keeps, so the handler does not decode it again: a key,
// hash or signature (size bytes), or a list of them; ptr when it is optional (a nil pointer holds nothing).
type b58 struct {
	size      int
	custom    string
	list, ptr bool
	opt       bool    // ptr is an Opt rather than a pointer
	stripped  *GoType // the type without its base-58 format: what is left for v.check (a list's length)
}

// base58Of reports whether a value of type t is decoded and kept by Validate: a string with a base-58 format, a
// list of them, or an optional one of either.
func base58Of(t *GoType) (d b58, ok bool) {
	u, c := unalias(t, t.C)
	if u.Kind == TPtr || u.Kind == TOpt {
		d.ptr, d.opt = true, u.Kind == TOpt
		u, c = unalias(u.Elem, mergeConstraints(c, u.Elem.C))
	}
	if u.Kind == TSlice {
		d.list = true
		u, c = unalias(u.Elem, u.Elem.C)
	}
	if u.Kind != TPrim || u.Prim != "string" || c.Format == "" {
		return d, false
	}
	d.size, d.custom, d.stripped = 32, c.Message, withoutFormat(t)
	if c.Format == "signature" {
		d.size = 64
	}
	return d, true
}

// unalias follows aliases to the type they name, merging constraints as v.check does.
func unalias(t *GoType, c Constraints) (*GoType, Constraints) {
	for t.Kind == TNamed && t.Named.Kind == DAlias {
		c = mergeConstraints(c, t.Named.Target.C)
		t = t.Named.Target
	}
	return t, c
}

// withoutFormat copies t with aliases resolved and the base-58 format dropped from its strings, so that v.check
// emits only the checks around the decoding (a list's length).
func withoutFormat(t *GoType) *GoType {
	u, c := unalias(t, t.C)
	cp := *u
	cp.C = c
	switch cp.Kind {
	case TPtr, TSlice, TOpt:
		cp.Elem = withoutFormat(u.Elem)
	case TPrim, TCore:
		cp.C.Format, cp.C.Message = "", ""
	}
	return &cp
}

// decodeB58 returns the statements of a Validate that decode the value expr (owner.goName) into its kept field,
// after the checks around it; err is declared by the caller.
func (v *validator) decodeB58(d b58, owner, goName, path string) []jen.Code {
	expr := owner + "." + goName
	fn := "decodeBase58"
	if d.list {
		fn = "decodeBase58List"
	}
	v.assignsErr = true
	if !d.ptr {
		return append(v.check(d.stripped, expr, path),
			jen.If(jen.List(jen.Id(owner+"."+keptField(goName)), jen.Err()).Op("=").Id(fn).Call(jen.Id(expr), jen.Lit(d.size), jen.Lit(d.custom)), jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Err())))
	}
	// An optional value: its checks and its decoding under one test of presence.
	inner := *d.stripped.Elem
	inner.C = mergeConstraints(d.stripped.C, d.stripped.Elem.C)
	val, present := "(*"+expr+")", jen.Id(expr).Op("!=").Nil()
	if d.opt {
		val, present = expr+".v", jen.Id(expr+".ok")
	}
	body := append(v.check(&inner, val, path),
		jen.If(jen.List(jen.Id(owner+"."+keptField(goName)), jen.Err()).Op("=").Id(fn).Call(jen.Id(val), jen.Lit(d.size), jen.Lit(d.custom)), jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Err())))
	return []jen.Code{jen.If(present).Block(body...)}
}

// decodeCore returns the statements of a Validate that decode a param of base-58 keys, signatures or hashes from
// its wire text into its core values, after the checks around them (a list's length); the same checks apply to
// values set in Go, which have no text. err is declared by the caller.
func (v *validator) decodeCore(p *Param) []jen.Code {
	text := "p." + textField(p.GoName)
	field := "p." + p.GoName
	plain := plainText(p.Text)
	u, _ := unalias(plain, plain.C)
	core := p.Type
	for core.Kind != TCore {
		core = core.Elem
	}
	fn := "parse" + core.Prim
	if u.Kind == TSlice {
		fn += "List"
	}
	path := strconv.Quote(p.Name)
	decoded := jen.Id("decoded")
	switch p.Type.Kind {
	case TOpt:
		decoded = jen.Id("Some").Call(decoded)
	case TPtr:
		decoded = jen.Op("&").Add(decoded)
	}
	fromText := append(v.check(withoutFormat(plain), text, path),
		jen.List(jen.Id("decoded"), jen.Err()).Op(":=").Id(fn).Call(jen.Id(text), jen.Lit(core.C.Message)),
		jen.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Err())),
		jen.Id(field).Op("=").Add(decoded),
	)
	inGo := v.check(withoutFormat(p.Type), field, path)
	read := jen.Id("p." + readField(p.GoName))
	if len(inGo) == 0 {
		return []jen.Code{jen.If(read).Block(fromText...)}
	}
	return []jen.Code{jen.If(read).Block(fromText...).Else().Block(inGo...)}
}

// plainText is the type of a param's wire text without its Opt or pointer: what the hidden text field points to.
func plainText(t *GoType) *GoType {
	if t.Kind == TOpt || t.Kind == TPtr {
		return t.Elem
	}
	return t
}

// textField names the unexported field that holds a param's wire text, and readField the one that says it was read.
func textField(goName string) string { return lowerFirst(goName) + "Text" }
func readField(goName string) string { return lowerFirst(goName) + "Read" }

// keptType is the Go type of a kept field: the bytes of one value or of each value of a list.
func (d b58) keptType() *jen.Statement {
	if d.list {
		return jen.Index().Index().Byte()
	}
	return jen.Index().Byte()
}

// emitKeptAccessor writes the accessor of a kept value: the bytes Validate decoded (which the dispatcher runs
// before the handler), or, when it has not run, the value decoded now with Validate's error. An absent optional
// value is nil bytes.
func emitKeptAccessor(f *jen.File, d b58, recv, typeName, goName, wireName string) {
	field := recv + "." + keptField(goName)
	expr := recv + "." + goName
	what := fmt.Sprintf("%s decoded from base 58 (%d bytes)", wireName, d.size)
	if d.list {
		what = fmt.Sprintf("each key of %s decoded from base 58 (%d bytes each)", wireName, d.size)
	}
	f.Comment(fmt.Sprintf("%sBytes returns %s: kept by Validate, which the dispatcher runs", goName, what))
	f.Comment("before the handler, or decoded now with Validate's error when it has not run.")
	if d.ptr {
		f.Comment("An absent " + wireName + " is nil.")
	}
	fn, val := "decodeBase58", expr
	if d.list {
		fn = "decodeBase58List"
	}
	cond := jen.Id(field).Op("!=").Nil()
	switch {
	case d.opt:
		val = expr + ".v"
		cond = cond.Op("||").Op("!").Id(expr + ".ok")
	case d.ptr:
		val = "*" + expr
		cond = cond.Op("||").Id(expr).Op("==").Nil()
	}
	f.Func().Params(jen.Id(recv).Op("*").Id(typeName)).Id(goName+"Bytes").Params().Params(d.keptType(), jen.Error()).Block(
		jen.If(cond).Block(jen.Return(jen.Id(field), jen.Nil())),
		jen.Return(jen.Id(fn).Call(jen.Id(val), jen.Lit(d.size), jen.Lit(d.custom))),
	)
}

// keptField names the unexported field that holds a decoded value.
func keptField(goName string) string { return lowerFirst(goName) + "Bytes" }

func lowerFirst(s string) string { return strings.ToLower(s[:1]) + s[1:] }

// declareErr declares the err that decodeB58's statements assign, when the body has any, and resets the mark.
func (v *validator) declareErr(body []jen.Code) []jen.Code {
	if !v.assignsErr {
		return body
	}
	v.assignsErr = false
	return append([]jen.Code{jen.Var().Err().Error()}, body...)
}

// paramDecls is the set of declarations the params of some method reach: their key fields are decoded by
// Validate and kept (results are written, never validated, and keep no bytes).
func paramDecls(ir *IR) map[*Decl]bool {
	seen := map[*Decl]bool{}
	var walk func(t *GoType)
	walk = func(t *GoType) {
		for ; t != nil; t = t.Elem {
			if t.Kind != TNamed || seen[t.Named] {
				continue
			}
			d := t.Named
			seen[d] = true
			walk(d.Target)
			for _, fl := range d.Fields {
				walk(fl.Type)
			}
			for _, m := range d.Members {
				walk(m.Type)
			}
		}
	}
	for _, m := range ir.Methods {
		for _, p := range m.Params {
			walk(p.Type)
		}
	}
	return seen
}
