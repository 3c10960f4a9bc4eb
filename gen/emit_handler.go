package main

import (
	"fmt"
	"strings"

	"github.com/dave/jennifer/jen"
)

// handlerSignature is the Go signature of a method on the Handler interface:
// Name(ctx context.Context[, p *NameParams]) (NameResult, error).
func handlerParams(m *Method, qual string) []jen.Code {
	ps := []jen.Code{jen.Id("ctx").Qual("context", "Context")}
	if len(m.Params) > 0 {
		if qual != "" {
			ps = append(ps, jen.Id("p").Op("*").Qual(qual, paramsName(m.Name)))
		} else {
			ps = append(ps, jen.Id("p").Op("*").Id(paramsName(m.Name)))
		}
	}
	return ps
}

func resultType(m *Method, qual string) jen.Code {
	if m.Result == nil {
		return jen.Any()
	}
	if qual != "" {
		return jen.Qual(qual, m.Result.Name)
	}
	return jen.Id(m.Result.Name)
}

func methodDoc(m *Method) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s implements %s", m.GoName, m.Name)
	if m.Summary != "" {
		b.WriteString(": " + m.Summary)
	}
	if m.Deprecated {
		b.WriteString("\n\nDeprecated: use " + orNone(m.Replacement) + ".")
	}
	if m.Unstable {
		b.WriteString("\n\nUnstable: this method may change in a patch release.")
	}
	return b.String()
}

func orNone(s string) string {
	if s == "" {
		return "no replacement is named"
	}
	return s
}

func emitHandler(ir *IR) *jen.File {
	f := jen.NewFile("rpcapi")
	// One interface per group (the schema's methods/<group>.yaml), so that a part of the service can be written,
	// tested and wrapped on its own; Handler composes them all.
	var groups []string
	byGroup := map[string][]jen.Code{}
	for _, m := range ir.Methods {
		if _, ok := byGroup[m.Group]; !ok {
			groups = append(groups, m.Group)
		}
		byGroup[m.Group] = append(byGroup[m.Group], jen.Comment(methodDoc(m)), jen.Id(m.GoName).Params(handlerParams(m, "")...).Params(resultType(m, ""), jen.Error()))
	}
	var all []jen.Code
	for _, g := range groups {
		f.Comment(fmt.Sprintf("%s has the methods of the group %s (schema/methods/%s.yaml).", groupHandlerName(g), g, g))
		f.Type().Id(groupHandlerName(g)).Interface(byGroup[g]...)
		all = append(all, jen.Id(groupHandlerName(g)))
	}
	f.Comment("Handler has one method per RPC method of the schema, one embedded interface per group. impl/rpc implements")
	f.Comment("it over the ledger; a method added to the schema breaks the build until it is written.")
	f.Type().Id("Handler").Interface(all...)

	// Stub: func fields for tests; a nil field answers that the method is not available.
	var fields []jen.Code
	for _, m := range ir.Methods {
		fields = append(fields, jen.Id(m.GoName+"Func").Func().Params(handlerParams(m, "")...).Params(resultType(m, ""), jen.Error()))
	}
	f.Comment("Stub is a Handler made of func fields, for tests. A method whose field is nil answers MethodNotAvailable.")
	f.Type().Id("Stub").Struct(fields...)
	f.Var().Id("_").Id("Handler").Op("=").Parens(jen.Op("*").Id("Stub")).Parens(jen.Nil())
	for _, m := range ir.Methods {
		args := []jen.Code{jen.Id("ctx")}
		if len(m.Params) > 0 {
			args = append(args, jen.Id("p"))
		}
		f.Func().Params(jen.Id("s").Op("*").Id("Stub")).Id(m.GoName).Params(handlerParams(m, "")...).Params(resultType(m, ""), jen.Error()).Block(
			jen.If(jen.Id("s").Dot(m.GoName+"Func").Op("==").Nil()).Block(
				jen.Var().Id("zero").Add(resultType(m, "")),
				jen.Return(jen.Id("zero"), jen.Id(errorCtorName("MethodNotAvailable")).Call(jen.Id(methodConstName(m.Name)))),
			),
			jen.Return(jen.Id("s").Dot(m.GoName+"Func").Call(args...)),
		)
	}
	return f
}

// methodNames lists every JSON-RPC method name of the schema (methods, their notifications and unsubscribe
// methods), each once, in schema order.
func methodNames(ir *IR) []string {
	var names []string
	seen := map[string]bool{}
	add := func(n string) {
		if n != "" && !seen[n] {
			seen[n] = true
			names = append(names, n)
		}
	}
	for _, m := range ir.Methods {
		add(m.Name)
		if m.Notification != nil {
			add(m.Notification.Name)
			add(m.Notification.Unsubscribe)
		}
	}
	return names
}

// emitMethodNames declares a constant per method name, so that the hub, the client, the tests and the
// conformance suite name a method through the schema and a renamed or removed method breaks their build.
func emitMethodNames(f *jen.File, ir *IR) {
	var defs []jen.Code
	for _, n := range methodNames(ir) {
		defs = append(defs, jen.Id(methodConstName(n)).Op("=").Lit(n))
	}
	f.Comment("The method names of the schema: its methods, and the notifications and unsubscribe methods of its")
	f.Comment("subscriptions.")
	f.Const().Defs(defs...)
}

func emitDispatch(ir *IR) *jen.File {
	f := jen.NewFile("rpcapi")
	emitMethodNames(f, ir)
	entries := jen.Dict{}
	for _, m := range ir.Methods {
		d := jen.Dict{
			jen.Id("Name"): jen.Id(methodConstName(m.Name)),
			jen.Id("call"): jen.Id(callName(m.Name)),
		}
		switch m.Transport {
		case "ws":
			d[jen.Id("Transport")] = jen.Id("TransportWS")
		case "both":
			d[jen.Id("Transport")] = jen.Id("TransportBoth")
		}
		if m.Commitment {
			d[jen.Id("Commitment")] = jen.True()
		}
		if m.RejectsProcessed {
			d[jen.Id("RejectsProcessed")] = jen.True()
		}
		if m.Deprecated {
			d[jen.Id("Deprecated")] = jen.True()
		}
		if m.Replacement != "" {
			d[jen.Id("Replacement")] = jen.Lit(m.Replacement)
		}
		if m.Unstable {
			d[jen.Id("Unstable")] = jen.True()
		}
		if m.Since != "" {
			d[jen.Id("Since")] = jen.Lit(m.Since)
		}
		if m.Notification != nil {
			d[jen.Id("Notification")] = jen.Id(methodConstName(m.Notification.Name))
			d[jen.Id("Unsubscribe")] = jen.Id(methodConstName(m.Notification.Unsubscribe))
		}
		if len(m.Errors) > 0 {
			var es []jen.Code
			for _, e := range m.Errors {
				es = append(es, jen.Lit(e))
			}
			d[jen.Id("Errors")] = jen.Index().String().Values(es...)
		}
		entries[jen.Id(methodConstName(m.Name))] = jen.Values(d)
	}
	f.Comment("Methods is the dispatch table: method name -> decode positional params -> validate -> call the handler.")
	f.Var().Id("Methods").Op("=").Map(jen.String()).Op("*").Id("MethodInfo").Values(entries)

	for _, m := range ir.Methods {
		var body []jen.Code
		if len(m.Params) == 0 {
			body = append(body,
				jen.If(jen.List(jen.Id("_"), jen.Err()).Op(":=").Id("splitParams").Call(jen.Id("raw"), jen.Lit(0)), jen.Err().Op("!=").Nil()).Block(
					jen.Return(jen.Nil(), jen.Err())),
				jen.Return(jen.Id("h").Dot(m.GoName).Call(jen.Id("ctx"))),
			)
		} else {
			body = append(body,
				jen.Id("p").Op(":=").New(jen.Id(paramsName(m.Name))),
				jen.If(jen.Err().Op(":=").Id("p").Dot("UnmarshalJSON").Call(jen.Id("raw")), jen.Err().Op("!=").Nil()).Block(
					jen.Return(jen.Nil(), jen.Err())),
				jen.If(jen.Err().Op(":=").Id("p").Dot("Validate").Call(), jen.Err().Op("!=").Nil()).Block(
					jen.Return(jen.Nil(), jen.Err())),
				jen.Return(jen.Id("h").Dot(m.GoName).Call(jen.Id("ctx"), jen.Id("p"))),
			)
		}
		f.Func().Id(callName(m.Name)).Params(jen.Id("ctx").Qual("context", "Context"), jen.Id("h").Id("Handler"), jen.Id("raw").Qual("encoding/json", "RawMessage")).Params(jen.Any(), jen.Error()).Block(body...)
	}
	return f
}

// emitParams declares <Method>Params with positional JSON methods: UnmarshalJSON reads the params array (naming a
// bad param in the error), MarshalJSON writes it (dropping absent optional params at the end).
func emitParams(ir *IR) *jen.File {
	f := jen.NewFile("rpcapi")
	for _, m := range ir.Methods {
		if len(m.Params) == 0 {
			continue
		}
		name := paramsName(m.Name)
		var fields []jen.Code
		for _, p := range m.Params {
			st := jen.Id(p.GoName).Add(typ(p.Type, ""))
			if p.Doc != "" {
				st = st.Comment(oneLine(p.Doc))
			}
			fields = append(fields, st)
		}
		for _, p := range m.Params {
			if p.Text != nil {
				fields = append(fields,
					jen.Id(textField(p.GoName)).Add(typ(plainText(p.Text), "")).Comment("the wire text, which Validate decodes"),
					jen.Id(readField(p.GoName)).Bool().Comment("the text was sent (a required param sent as null is, and fails as text)"))
			}
		}
		f.Comment(fmt.Sprintf("%s are the positional params of %s.", name, m.Name))
		f.Type().Id(name).Struct(fields...)
		for _, p := range m.Params {
			if d, ok := base58Of(p.Type); ok {
				emitKeptAccessor(f, d, "p", name, p.GoName, p.Name)
			}
		}

		dec := []jen.Code{
			jen.List(jen.Id("list"), jen.Err()).Op(":=").Id("splitParams").Call(jen.Id("data"), jen.Lit(len(m.Params))),
			jen.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Err())),
		}
		for i, p := range m.Params {
			dst := jen.Op("&").Id("p").Dot(p.GoName)
			if p.Text != nil {
				dst = jen.Op("&").Id("p").Dot(textField(p.GoName))
			}
			dec = append(dec, jen.If(jen.Err().Op(":=").Id("decodeParam").Call(jen.Id("list"), jen.Lit(i), jen.Lit(p.Name), jen.Lit(p.Required), dst), jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Err())))
			if p.Text != nil {
				read := jen.Id("given").Call(jen.Id("list"), jen.Lit(i))
				if p.Required {
					read = jen.Lit(i).Op("<").Len(jen.Id("list"))
				}
				dec = append(dec, jen.Id("p").Dot(readField(p.GoName)).Op("=").Add(read))
			}
		}
		if m.RejectsProcessed {
			// The commitment of the last params element, read from the param it was decoded into rather than
			// parsed again: processed is refused before Validate looks at the values.
			var cases []jen.Code
			for i, p := range m.Params {
				if c := processedCond(p.Type, "p."+p.GoName); c != "" {
					cases = append(cases, jen.Case(jen.Lit(i+1)).Block(jen.If(jen.Id(c)).Block(
						jen.Return(jen.Id(errorCtorName("UnsupportedCommitment")).Call()))))
				}
			}
			if len(cases) > 0 {
				dec = append(dec, jen.Switch(jen.Len(jen.Id("list"))).Block(cases...))
			}
		}
		dec = append(dec, jen.Return(jen.Nil()))
		f.Func().Params(jen.Id("p").Op("*").Id(name)).Id("UnmarshalJSON").Params(jen.Id("data").Index().Byte()).Error().Block(dec...)

		var vals, present []jen.Code
		for _, p := range m.Params {
			vals = append(vals, jen.Id("p").Dot(p.GoName))
			switch {
			case p.Type.Kind == TOpt:
				present = append(present, jen.Id("p").Dot(p.GoName).Dot("ok"))
			case p.Required || !p.Type.Nilable():
				present = append(present, jen.True())
			default:
				present = append(present, jen.Id("p").Dot(p.GoName).Op("!=").Nil())
			}
		}
		f.Func().Params(jen.Id("p").Id(name)).Id("MarshalJSON").Params().Params(jen.Index().Byte(), jen.Error()).Block(
			jen.Return(jen.Id("marshalParams").Call(jen.Index().Any().Values(vals...), jen.Index().Bool().Values(present...))),
		)
	}
	return f
}

// processedCond returns a Go condition that holds when expr, a decoded value of type t, carries the commitment
// "processed" at its top level (a config object, or the object member of a union), or "" when a value of t carries
// no commitment.
func processedCond(t *GoType, expr string) string {
	switch t.Kind {
	case TPtr:
		if inner := processedCond(t.Elem, expr); inner != "" {
			return expr + " != nil && " + inner
		}
	case TOpt:
		if inner := processedCond(t.Elem, expr+".v"); inner != "" {
			return expr + ".ok && " + inner
		}
	case TNamed:
		d := t.Named
		switch d.Kind {
		case DAlias:
			return processedCond(d.Target, expr)
		case DStruct:
			for _, f := range d.Fields {
				if f.JSONName != "commitment" {
					continue
				}
				field := expr + "." + f.GoName
				if f.Type.Kind == TPtr {
					return field + " != nil && *" + field + ` == "processed"`
				}
				return field + ` == "processed"`
			}
		case DUnion:
			var conds []string
			for _, m := range d.Members {
				if c := processedCond(&GoType{Kind: TPtr, Elem: m.Type}, expr+"."+m.GoName); c != "" {
					conds = append(conds, "("+c+")")
				}
			}
			return strings.Join(conds, " || ")
		}
	}
	return ""
}
