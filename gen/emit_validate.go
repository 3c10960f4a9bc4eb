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
	case TPtr, TSlice, TArray, TMap:
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
				jen.Default().Block(fail(jen.Lit("unknown variant `").Op("+").Id(expr).Op("+").Lit("`, expected one of "+quoteList(c.Enum)))),
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
			if size, custom, ok := decodedParam(p); ok {
				// Decoded here once; the handler takes the bytes from the accessor instead of decoding again.
				body = append(body,
					jen.List(jen.Id("b"), jen.Err()).Op(":=").Id("decodeBase58").Call(jen.Id("p."+p.GoName), jen.Lit(size), jen.Lit(custom)),
					jen.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Err())),
					jen.Id("p."+decodedField(p)).Op("=").Id("b"),
				)
				continue
			}
			body = append(body, v.check(p.Type, "p."+p.GoName, strconv.Quote(p.Name))...)
		}
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
				body = append(body, v.check(fl.Type, "x."+fl.GoName, fmt.Sprintf("path+%q", "."+fl.JSONName))...)
			}
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

// decodedParam reports whether p is a required base-58 param (a pubkey, hash or signature), which Validate decodes
// and keeps for the handler, with its size in bytes and its custom error message.
func decodedParam(p *Param) (size int, custom string, ok bool) {
	if !p.Required {
		return 0, "", false
	}
	t, c := p.Type, p.Type.C
	for t.Kind == TNamed && t.Named.Kind == DAlias {
		c = mergeConstraints(c, t.Named.Target.C)
		t = t.Named.Target
	}
	if t.Kind != TPrim || t.Prim != "string" || c.Format == "" {
		return 0, "", false
	}
	size = 32
	if c.Format == "signature" {
		size = 64
	}
	return size, c.Message, true
}

// decodedField names the unexported field that holds a decoded param; decodedAccessor its accessor.
func decodedField(p *Param) string    { return lowerFirst(p.GoName) + "Bytes" }
func decodedAccessor(p *Param) string { return p.GoName + "Bytes" }

func lowerFirst(s string) string { return strings.ToLower(s[:1]) + s[1:] }
