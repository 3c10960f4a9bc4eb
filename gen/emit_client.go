package main

import (
	"github.com/dave/jennifer/jen"
)

// emitClient writes the typed Go client: one method per HTTP method on Client, and per subscribe method on
// WSClient a method returning a typed Subscription.
func emitClient(ir *IR) *jen.File {
	f := jen.NewFile("rpcclient")
	f.ImportName(apiPath, "rpcapi")
	for _, m := range ir.Methods {
		var params jen.Code = jen.Nil()
		if len(m.Params) > 0 {
			params = jen.Id("p")
		}
		if m.Transport != "ws" {
			f.Comment(methodDoc(m))
			f.Func().Params(jen.Id("c").Op("*").Id("Client")).Id(m.GoName).Params(handlerParams(m, apiPath)...).Params(resultType(m, apiPath), jen.Error()).Block(
				jen.Var().Id("r").Add(resultType(m, apiPath)),
				jen.Err().Op(":=").Id("c").Dot("Call").Call(jen.Id("ctx"), jen.Qual(apiPath, methodConstName(m.Name)), params, jen.Op("&").Id("r")),
				jen.Return(jen.Id("r"), jen.Err()),
			)
		}
		if m.Transport == "ws" && m.Notification != nil {
			note := jen.Qual(apiPath, m.Notification.Type.Name)
			f.Comment(methodDoc(m))
			f.Func().Params(jen.Id("c").Op("*").Id("WSClient")).Id(m.GoName).Params(handlerParams(m, apiPath)...).Params(jen.Op("*").Id("Subscription").Types(note), jen.Error()).Block(
				jen.Return(jen.Id("subscribe").Types(note).Call(jen.Id("ctx"), jen.Id("c"), jen.Qual(apiPath, methodConstName(m.Name)), jen.Qual(apiPath, methodConstName(m.Notification.Unsubscribe)), params)),
			)
		}
	}
	return f
}
