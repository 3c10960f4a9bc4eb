package main

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"fmt"
	"html/template"
	"regexp"
	"strconv"
	"strings"

	"github.com/dave/jennifer/jen"
)

// The HTML reference (generated/docs/index.html): every method with its params, result, errors, examples and
// marks, every error of the catalogue and every type, in one self-contained page; and the package that embeds it
// for GET /docs.

//go:embed static/docs.html.tmpl
var docsTemplateText string

var docsTemplate = template.Must(template.New("docs").Parse(docsTemplateText))

type docsPage struct {
	Header                  template.HTML
	Title, Version, License string
	Description             template.HTML
	Groups                  []*docsGroup
	Errors                  []*docsError
	Types                   []*docsType
	Methods                 int
}

type docsGroup struct {
	Name    string
	Methods []*docsMethod
}

type docsMethod struct {
	Name, Summary                             string
	Description                               template.HTML
	Deprecated, Unstable, Commitment, Rejects bool
	Replacement, Since, Transport             string
	NotInSpec                                 template.HTML
	Params                                    []*docsField
	ResultName                                string
	ResultType, ResultDoc                     template.HTML
	Notification                              *docsNotification
	Errors                                    []*docsError
	Examples                                  []*docsExample
	ReplacementKnown, HasResult               bool
}

type docsField struct {
	Name        string
	Type, Doc   template.HTML
	Required    bool
	Constraints string
}

type docsNotification struct {
	Name, Unsubscribe string
	Type, Example     template.HTML
	UnsubscribeKnown  bool
}

type docsError struct {
	Name, Message string
	Code          int
	Data          template.HTML
}

type docsExample struct {
	Name                   string
	Doc, Request, Response template.HTML
}

type docsType struct {
	Name, Kind  string
	Doc         template.HTML
	Fields      []*docsField // struct
	Members     []template.HTML
	Alias       template.HTML
	Constraints string
}

// emitDocs renders the reference page.
func emitDocs(ir *IR) []byte {
	page := &docsPage{
		Header: template.HTML("<!-- " + header + " Source: schema/ (as generated/openrpc.json), gen/static/docs.html.tmpl -->"),
		Title:  ir.Title, Version: ir.Version, License: ir.License,
		Description: docsText(ir.Description), Methods: len(ir.Methods),
	}
	methods := map[string]bool{}
	for _, m := range ir.Methods {
		methods[m.Name] = true
	}
	errs := map[string]*docsError{}
	for _, e := range ir.Errors {
		de := &docsError{Name: e.Name, Code: e.Code, Message: e.Template}
		switch {
		case e.DataType != nil:
			de.Data = docsTypeHTML(e.DataType)
		case e.DataSchema != "":
			de.Data = "<code>" + preText(e.DataSchema) + "</code>"
		}
		errs[e.Name] = de
		page.Errors = append(page.Errors, de)
	}
	groups := map[string]*docsGroup{}
	for _, m := range ir.Methods {
		g := groups[m.Group]
		if g == nil {
			g = &docsGroup{Name: m.Group}
			groups[m.Group] = g
			page.Groups = append(page.Groups, g)
		}
		dm := &docsMethod{
			Name: m.Name, Summary: m.Summary, Description: docsText(m.Description),
			Deprecated: m.Deprecated, Unstable: m.Unstable, Commitment: m.Commitment, Rejects: m.RejectsProcessed,
			Replacement: m.Replacement, ReplacementKnown: methods[m.Replacement], Since: m.Since,
			Transport: m.Transport, NotInSpec: docsText(m.NotInSpec),
			ResultName: m.ResultName, ResultDoc: docsText(m.ResultDoc), HasResult: m.Result != nil,
		}
		if m.Result != nil {
			dm.ResultType = docsDeclType(m.Result)
		}
		for _, p := range m.Params {
			dm.Params = append(dm.Params, &docsField{
				Name: p.Name, Type: docsTypeHTML(p.Schema), Doc: docsText(p.Doc), Required: p.Required,
				Constraints: constraintText(p.Schema),
			})
		}
		if n := m.Notification; n != nil {
			dn := &docsNotification{Name: n.Name, Unsubscribe: n.Unsubscribe, Type: docsDeclType(n.Type)}
			dn.UnsubscribeKnown = methods[n.Unsubscribe]
			if n.Example != "" {
				// The id of the first example's subscribe reply, so the two examples read as one exchange.
				sub := "0"
				if len(m.Examples) > 0 {
					if _, err := strconv.ParseUint(m.Examples[0].Result, 10, 64); err == nil {
						sub = m.Examples[0].Result
					}
				}
				dn.Example = preText(prettyJSON(fmt.Sprintf(`{"jsonrpc":"2.0","method":%s,"params":{"result":%s,"subscription":%s}}`, strconv.Quote(n.Name), n.Example, sub)))
			}
			dm.Notification = dn
		}
		for _, e := range m.Errors {
			if de := errs[e]; de != nil {
				dm.Errors = append(dm.Errors, de)
			}
		}
		for _, ex := range m.Examples {
			de := &docsExample{Name: ex.Name, Doc: docsText(strings.TrimSpace(ex.Summary + "\n\n" + ex.Description))}
			req := fmt.Sprintf(`{"jsonrpc":"2.0","id":1,"method":%s`, strconv.Quote(m.Name))
			if ex.Params != "[]" {
				req += `,"params":` + ex.Params
			}
			de.Request = preText(prettyJSON(req + "}"))
			if ex.Result != "" {
				de.Response = preText(prettyJSON(`{"jsonrpc":"2.0","result":` + ex.Result + `,"id":1}`))
			}
			dm.Examples = append(dm.Examples, de)
		}
		g.Methods = append(g.Methods, dm)
	}
	for _, d := range ir.Decls {
		dt := &docsType{Name: d.Name, Doc: docsText(d.Doc)}
		switch d.Kind {
		case DStruct:
			dt.Kind = "object"
			for _, f := range d.Fields {
				t := f.Type
				if f.Optional && t.Kind == TPtr && !t.Null {
					t = t.Elem
				}
				dt.Fields = append(dt.Fields, &docsField{
					Name: f.JSONName, Type: docsTypeHTML(t), Doc: docsText(f.Doc), Required: !f.Optional,
					Constraints: constraintText(t),
				})
			}
		case DUnion:
			dt.Kind = "one of"
			for _, m := range d.Members {
				dt.Members = append(dt.Members, docsMarkup(tsMemberType(m, docsMarker)))
			}
		case DAlias:
			dt.Kind = "alias"
			dt.Alias = docsTypeHTML(d.Target)
			dt.Constraints = constraintText(d.Target)
		}
		page.Types = append(page.Types, dt)
	}
	var b bytes.Buffer
	if err := docsTemplate.Execute(&b, page); err != nil {
		panic(fmt.Sprintf("rendering the docs: %v", err))
	}
	return b.Bytes()
}

// The docs write types in TypeScript notation, as the SDK does, with every declared name a link to its entry.
// Names go through the type renderer as markers, so the rest of the text can be escaped and the markers then
// replaced by links.
func docsMarker(d *Decl) string { return "\x01" + d.Name + "\x02" }

var markerRE = regexp.MustCompile("\x01([A-Za-z0-9_]+)\x02")

func docsMarkup(s string) template.HTML {
	return template.HTML(markerRE.ReplaceAllString(string(preText(s)), `<a href="#type-$1">$1</a>`))
}

func docsTypeHTML(t *GoType) template.HTML { return docsMarkup(tsType(t, docsMarker)) }

// docsDeclType shows what a result or notification is: the type an undocumented alias stands for (RpcResponseU64
// rather than GetBalanceResult), otherwise a link to the declaration.
func docsDeclType(d *Decl) template.HTML {
	if d.Kind == DAlias && d.Doc == "" {
		return docsTypeHTML(d.Target)
	}
	return docsMarkup(docsMarker(d))
}

// preText escapes text for element content (never an attribute): only what HTML needs there, so quotes in JSON
// and prose stay readable in the page source.
func preText(s string) template.HTML {
	return template.HTML(strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;").Replace(s))
}

var (
	codeRE = regexp.MustCompile("`([^`]+)`")
	paraRE = regexp.MustCompile(`\n\s*\n`)
)

// docsText renders schema prose: escaped, `code` spans, and a paragraph per blank-line-separated block.
func docsText(s string) template.HTML {
	s = strings.TrimSpace(s)
	if s == "" {
		return ""
	}
	var b strings.Builder
	for _, para := range paraRE.Split(s, -1) {
		b.WriteString("<p>")
		b.WriteString(codeRE.ReplaceAllString(string(preText(strings.TrimSpace(para))), "<code>$1</code>"))
		b.WriteString("</p>")
	}
	return template.HTML(b.String())
}

// constraintText lists the validation keywords that apply to a value, for the constraints column.
func constraintText(t *GoType) string {
	for t.Kind == TPtr {
		t = t.Elem
	}
	if t.Kind == TNamed {
		return "" // the named type's entry lists its own
	}
	c := t.C
	var out []string
	switch c.Format {
	case "pubkey", "hash":
		out = append(out, c.Format+" (base-58, 32 bytes)")
	case "signature":
		out = append(out, "signature (base-58, 64 bytes)")
	}
	num := func(f *float64) string { return strconv.FormatFloat(*f, 'f', -1, 64) }
	if c.Min != nil && !(*c.Min == 0 && t.Kind == TPrim && strings.HasPrefix(t.Prim, "uint")) { // 0 says nothing of a uint
		out = append(out, "minimum "+num(c.Min))
	}
	if c.Max != nil {
		out = append(out, "maximum "+num(c.Max))
	}
	if c.MinItems != nil {
		out = append(out, fmt.Sprintf("at least %d items", *c.MinItems))
	}
	if c.MaxItems != nil {
		out = append(out, fmt.Sprintf("at most %d items", *c.MaxItems))
	}
	if c.Message != "" && len(out) > 0 {
		out = append(out, fmt.Sprintf("else %q", c.Message))
	}
	return strings.Join(out, "; ")
}

func prettyJSON(s string) string {
	var b bytes.Buffer
	if err := json.Indent(&b, []byte(s), "", "  "); err != nil {
		panic(fmt.Sprintf("docs: example is not JSON: %v", err))
	}
	return b.String()
}

// emitDocsPackage is the Go package that embeds index.html for the node's GET /docs.
func emitDocsPackage() *jen.File {
	f := jen.NewFile("docs")
	f.PackageComment("Package docs holds the HTML reference of every method (index.html, rendered by ledgerd/gen from")
	f.PackageComment("the schema); the node serves it at GET /docs.")
	f.Anon("embed")
	f.Comment("HTML is index.html: a self-contained page (no external scripts, styles or fonts).")
	f.Comment("//go:embed index.html")
	f.Var().Id("HTML").Index().Byte()
	return f
}
