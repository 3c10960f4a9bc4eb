package main

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// The TypeScript SDK (generated/sdk/typescript): types for every declaration, param tuple, result and notification
// of the IR, the method tables, and a thin HTTP and WebSocket caller (the runtime, gen/static/sdk_runtime.ts.txt,
// the same for every schema).

//go:embed static/sdk_runtime.ts.txt
var staticTSRuntime string

//go:embed static/sdk_readme.md.txt
var staticTSReadme string

const sdkDir = "sdk/typescript/"

// emitSDK renders the files of the TypeScript package.
func emitSDK(ir *IR) map[string][]byte {
	return map[string][]byte{
		sdkDir + "index.ts":      []byte(emitTSIndex(ir)),
		sdkDir + "package.json":  emitTSPackage(ir),
		sdkDir + "tsconfig.json": []byte(tsconfigJSON),
		sdkDir + "README.md":     []byte(emitTSReadme(ir)),
	}
}

// tsType renders t as a TypeScript type. named renders the reference to a declaration (the docs make it a link).
func tsType(t *GoType, named func(*Decl) string) string {
	var s string
	switch t.Kind {
	case TAny:
		return "unknown" // already admits null
	case TPrim:
		s = tsPrim(t)
	case TNamed:
		s = named(t.Named)
	case TPtr:
		s = tsType(t.Elem, named)
	case TSlice:
		s = tsParen(tsType(t.Elem, named)) + "[]"
	case TArray:
		e := tsType(t.Elem, named)
		parts := make([]string, t.Len)
		for i := range parts {
			parts[i] = e
		}
		s = "[" + strings.Join(parts, ", ") + "]"
	case TMap:
		s = "Record<string, " + tsType(t.Elem, named) + ">"
	default:
		panic("unknown type kind")
	}
	if t.Null {
		s = tsOrNull(s)
	}
	return s
}

func tsPrim(t *GoType) string {
	switch t.Prim {
	case "string":
		if len(t.C.Enum) > 0 {
			return tsLiterals(t.C.Enum)
		}
		return "string"
	case "bool":
		return "boolean"
	case "uint64":
		return "U64"
	case "int64":
		return "I64"
	}
	return "number" // Float and the integers that fit a double
}

func tsLiterals(vals []string) string {
	var lits []string
	for _, v := range vals {
		lits = append(lits, tsString(v))
	}
	return strings.Join(lits, " | ")
}

// tsParen wraps a union before [] binds to it.
func tsParen(s string) string {
	if strings.Contains(s, " | ") {
		return "(" + s + ")"
	}
	return s
}

func tsOrNull(s string) string {
	if s == "unknown" || s == "null" || strings.HasSuffix(s, " | null") {
		return s
	}
	return s + " | null"
}

func tsString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// tsFieldType is a struct field's type: an optional field's own type, without the pointer Go adds for it.
func tsFieldType(f *Field, named func(*Decl) string) string {
	t := f.Type
	if f.Optional && t.Kind == TPtr && !t.Null {
		t = t.Elem
	}
	return tsType(t, named)
}

// tsMemberType is a union member's type; a {type: null} member is null.
func tsMemberType(m *Member, named func(*Decl) string) string {
	if m.JSONKind == "null" {
		return "null"
	}
	return tsType(m.Type, named)
}

func tsDeclName(d *Decl) string { return d.Name }

func tsProp(name string) string {
	if tsIdent(name) {
		return name
	}
	return tsString(name)
}

// tsLabel makes a param name a tuple label.
func tsLabel(name string) string {
	if tsIdent(name) {
		return name
	}
	g := goName(name)
	return strings.ToLower(g[:1]) + g[1:]
}

// tsDoc renders a JSDoc comment of the non-empty paragraphs, indented by ind.
func tsDoc(b *strings.Builder, ind string, paras ...string) {
	var lines []string
	for _, p := range paras {
		p = strings.TrimSpace(p)
		if p == "" {
			continue
		}
		if len(lines) > 0 {
			lines = append(lines, "")
		}
		p = strings.ReplaceAll(p, "*/", "*\\/")
		lines = append(lines, wrap(p, 110)...)
	}
	if len(lines) == 0 {
		return
	}
	if len(lines) == 1 {
		fmt.Fprintf(b, "%s/** %s */\n", ind, lines[0])
		return
	}
	fmt.Fprintf(b, "%s/**\n", ind)
	for _, l := range lines {
		if l == "" {
			fmt.Fprintf(b, "%s *\n", ind)
		} else {
			fmt.Fprintf(b, "%s * %s\n", ind, l)
		}
	}
	fmt.Fprintf(b, "%s */\n", ind)
}

// wrap breaks text at spaces into lines of at most width (a longer word stays whole); newlines are kept.
func wrap(text string, width int) []string {
	var out []string
	for _, para := range strings.Split(text, "\n") {
		line := ""
		for _, w := range strings.Fields(para) {
			// A word opening a JSDoc line with @ would read as a tag (@solana/kit), so it stays on the line before.
			if line != "" && len(line)+1+len(w) > width && !strings.HasPrefix(w, "@") {
				out = append(out, line)
				line = w
				continue
			}
			if line != "" {
				line += " "
			}
			line += w
		}
		out = append(out, line)
	}
	return out
}

// methodTSDoc is the JSDoc of a method: summary, description, marks, and the errors it can answer.
func methodTSDoc(m *Method) []string {
	paras := []string{m.Summary, m.Description}
	if m.Unstable {
		paras = append(paras, "Unstable: this method may change in a patch release.")
	}
	if m.Since != "" {
		paras = append(paras, "@since "+m.Since)
	}
	if m.Deprecated {
		d := "@deprecated"
		if m.Replacement != "" {
			d += " Use " + m.Replacement + "."
		}
		paras = append(paras, d)
	}
	return paras
}

func paramsTuple(m *Method) string {
	// A TypeScript tuple cannot have a required element after an optional one; such an optional param is written
	// as `T | undefined` instead (sent as null).
	lastRequired := -1
	for i, p := range m.Params {
		if p.Required {
			lastRequired = i
		}
	}
	var parts []string
	for i, p := range m.Params {
		t := tsType(p.Schema, tsDeclName)
		switch {
		case p.Required:
			parts = append(parts, tsLabel(p.Name)+": "+t)
		case i < lastRequired:
			parts = append(parts, tsLabel(p.Name)+": "+t+" | undefined")
		default:
			parts = append(parts, tsLabel(p.Name)+"?: "+t)
		}
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

func tsResult(m *Method) string {
	if m.Result == nil {
		return "unknown"
	}
	return m.Result.Name
}

func isSubscribe(m *Method) bool { return m.Notification != nil }

func servedOverHTTP(m *Method) bool { return m.Transport != "ws" }

func servedOverWS(m *Method) bool { return m.Transport == "ws" || m.Transport == "both" }

func emitTSIndex(ir *IR) string {
	var b strings.Builder
	b.WriteString("// " + header + "\n// Source: schema/ (types and methods), gen/static/sdk_runtime.ts.txt (the runtime)\n\n")
	tsDoc(&b, "", ir.Title+" "+ir.Version+": a typed client.", ir.Description,
		"Client calls the HTTP methods, one typed method each, and batches them; WSClient subscribes. See README.md.")
	b.WriteString(`
/**
 * A u64 on the wire. JSON.parse reads every number as a double, so this is a number, as in @solana/web3.js; a value
 * above Number.MAX_SAFE_INTEGER (2^53 - 1), such as a rentEpoch of u64::MAX, arrives rounded.
 */
export type U64 = number;
/** An i64 on the wire (see U64). */
export type I64 = number;

// ---- Types: schema/components and the inline objects of params, results and notifications.

`)
	for _, d := range ir.Decls {
		if d.Kind == DAlias {
			tsDoc(&b, "", d.Doc, constraintText(d.Target))
		} else {
			tsDoc(&b, "", d.Doc)
		}
		switch d.Kind {
		case DAlias:
			fmt.Fprintf(&b, "export type %s = %s;\n\n", d.Name, tsType(d.Target, tsDeclName))
		case DUnion:
			var ms []string
			for _, m := range d.Members {
				ms = append(ms, tsMemberType(m, tsDeclName))
			}
			fmt.Fprintf(&b, "export type %s = %s;\n\n", d.Name, strings.Join(ms, " | "))
		case DStruct:
			fmt.Fprintf(&b, "export interface %s {\n", d.Name)
			for _, f := range d.Fields {
				t := f.Type
				if f.Optional && t.Kind == TPtr && !t.Null {
					t = t.Elem
				}
				tsDoc(&b, "  ", f.Doc, constraintText(t))
				opt := ""
				if f.Optional {
					opt = "?"
				}
				fmt.Fprintf(&b, "  %s%s: %s;\n", tsProp(f.JSONName), opt, tsFieldType(f, tsDeclName))
			}
			b.WriteString("}\n\n")
		}
	}

	b.WriteString("// ---- Params: the positional params of each method, as a labelled tuple.\n\n")
	for _, m := range ir.Methods {
		var docs []string
		for _, p := range m.Params {
			if doc := strings.TrimSpace(p.Doc + " " + parens(constraintText(p.Schema))); doc != "" {
				docs = append(docs, "@param "+tsLabel(p.Name)+" "+doc)
			}
		}
		tsDoc(&b, "", append([]string{"The params of " + m.Name + "."}, docs...)...)
		fmt.Fprintf(&b, "export type %s = %s;\n\n", paramsName(m.Name), paramsTuple(m))
	}

	b.WriteString("// ---- Method tables: name -> params and result.\n\n")
	b.WriteString("/** The methods served over HTTP. */\nexport interface HttpMethods {\n")
	for _, m := range ir.Methods {
		if servedOverHTTP(m) {
			tsDoc(&b, "  ", m.Summary)
			fmt.Fprintf(&b, "  %s: { params: %s; result: %s };\n", tsProp(m.Name), paramsName(m.Name), tsResult(m))
		}
	}
	b.WriteString("}\n\n")
	b.WriteString("/** The methods served over WebSocket, apart from the subscribe methods (see Subscriptions). */\nexport interface WSMethods {\n")
	for _, m := range ir.Methods {
		if servedOverWS(m) && !isSubscribe(m) {
			tsDoc(&b, "  ", m.Summary)
			fmt.Fprintf(&b, "  %s: { params: %s; result: %s };\n", tsProp(m.Name), paramsName(m.Name), tsResult(m))
		}
	}
	b.WriteString("}\n\n")
	b.WriteString("/** The subscribe methods: params, the `params.result` of each notification, and the unsubscribe method. */\nexport interface Subscriptions {\n")
	for _, m := range ir.Methods {
		if isSubscribe(m) {
			tsDoc(&b, "  ", m.Summary)
			fmt.Fprintf(&b, "  %s: { params: %s; notification: %s; unsubscribe: %s };\n", tsProp(m.Name), paramsName(m.Name), m.Notification.Type.Name, tsString(m.Notification.Unsubscribe))
		}
	}
	b.WriteString("}\n\n")
	b.WriteString("/** The notification method and the unsubscribe method of each subscribe method. */\nexport const subscriptionMethods = {\n")
	for _, m := range ir.Methods {
		if isSubscribe(m) {
			fmt.Fprintf(&b, "  %s: { notification: %s, unsubscribe: %s },\n", tsProp(m.Name), tsString(m.Notification.Name), tsString(m.Notification.Unsubscribe))
		}
	}
	b.WriteString("} as const;\n\n")

	b.WriteString("/** The error codes of the catalogue (schema/errors), by name; RpcError.code holds one. */\nexport const ErrorCode = {\n")
	errs := append([]*ErrorDef(nil), ir.Errors...)
	sort.SliceStable(errs, func(i, j int) bool { return errs[i].Name < errs[j].Name })
	for _, e := range errs {
		tsDoc(&b, "  ", e.Template)
		fmt.Fprintf(&b, "  %s: %d,\n", tsProp(e.Name), e.Code)
	}
	b.WriteString("} as const;\n\n")

	b.WriteString(strings.TrimSpace(staticTSRuntime) + "\n\n")

	b.WriteString("// ---- Typed callers.\n\n")
	b.WriteString("/** Client calls the HTTP methods of a node: one typed method per method of the schema, plus call and batch. */\n")
	b.WriteString("export class Client extends ClientBase {\n")
	first := true
	for _, m := range ir.Methods {
		if !servedOverHTTP(m) {
			continue
		}
		if !first {
			b.WriteString("\n")
		}
		first = false
		tsDoc(&b, "  ", methodTSDoc(m)...)
		fmt.Fprintf(&b, "  %s(...params: %s): Promise<%s> {\n    return this.call(%s, ...params);\n  }\n", m.Name, paramsName(m.Name), tsResult(m), tsString(m.Name))
	}
	b.WriteString("}\n\n")

	b.WriteString("/** WSClient subscribes over the WebSocket (PubSub) endpoint: one typed method per subscribe method, plus the other WebSocket methods. */\n")
	b.WriteString("export class WSClient extends WSClientBase {\n")
	first = true
	for _, m := range ir.Methods {
		if !servedOverWS(m) {
			continue
		}
		if !first {
			b.WriteString("\n")
		}
		first = false
		tsDoc(&b, "  ", methodTSDoc(m)...)
		switch {
		case isSubscribe(m) && len(m.Params) == 0:
			fmt.Fprintf(&b, "  %s(onNotification: NotificationHandler<%s>): Promise<Subscription> {\n    return this.subscribe(%s, [], onNotification);\n  }\n",
				m.Name, m.Notification.Type.Name, tsString(m.Name))
		case isSubscribe(m):
			fmt.Fprintf(&b, "  %s(params: %s, onNotification: NotificationHandler<%s>): Promise<Subscription> {\n    return this.subscribe(%s, params, onNotification);\n  }\n",
				m.Name, paramsName(m.Name), m.Notification.Type.Name, tsString(m.Name))
		default:
			fmt.Fprintf(&b, "  %s(...params: %s): Promise<%s> {\n    return this.call(%s, ...params);\n  }\n", m.Name, paramsName(m.Name), tsResult(m), tsString(m.Name))
		}
	}
	b.WriteString("}\n\n")

	b.WriteString("/** Builders of RpcRequest values for Client.batch, one per HTTP method. */\nexport const requests = {\n")
	for _, m := range ir.Methods {
		if servedOverHTTP(m) {
			fmt.Fprintf(&b, "  %s: (...params: %s): RpcRequest<%s> => ({ method: %s, params }),\n", tsProp(m.Name), paramsName(m.Name), tsString(m.Name), tsString(m.Name))
		}
	}
	b.WriteString("};\n")
	return b.String()
}

const tsconfigJSON = `{
  "compilerOptions": {
    "target": "ES2022",
    "module": "NodeNext",
    "moduleResolution": "NodeNext",
    "lib": ["ES2022"],
    "types": [],
    "strict": true,
    "declaration": true,
    "outDir": "dist"
  },
  "files": ["index.ts"]
}
`

func emitTSPackage(ir *IR) []byte {
	// An ordered document: encoding/json sorts map keys, and a package.json reads best in its usual order.
	type exportsDot struct {
		Types   string `json:"types"`
		Default string `json:"default"`
	}
	pkg := struct {
		Name            string                `json:"name"`
		Version         string                `json:"version"`
		Description     string                `json:"description"`
		License         string                `json:"license,omitempty"`
		Type            string                `json:"type"`
		Main            string                `json:"main"`
		Types           string                `json:"types"`
		Exports         map[string]exportsDot `json:"exports"`
		Files           []string              `json:"files"`
		Scripts         map[string]string     `json:"scripts"`
		Engines         map[string]string     `json:"engines"`
		DevDependencies map[string]string     `json:"devDependencies"`
	}{
		Name:            "ledgerd-client",
		Version:         ir.Version,
		Description:     "Typed JSON-RPC client for " + ir.Title + " " + ir.Version + ", generated from its OpenRPC schema",
		License:         ir.License,
		Type:            "module",
		Main:            "dist/index.js",
		Types:           "dist/index.d.ts",
		Exports:         map[string]exportsDot{".": {Types: "./dist/index.d.ts", Default: "./dist/index.js"}},
		Files:           []string{"index.ts", "dist"},
		Scripts:         map[string]string{"build": "tsc -p ."},
		Engines:         map[string]string{"node": ">=18"},
		DevDependencies: map[string]string{"typescript": ">=5.0.0"},
	}
	var out bytes.Buffer
	enc := json.NewEncoder(&out)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(pkg); err != nil {
		panic(err)
	}
	return out.Bytes()
}

func emitTSReadme(ir *IR) string {
	var http, ws, subs int
	for _, m := range ir.Methods {
		switch {
		case isSubscribe(m):
			subs++
		case servedOverWS(m) && !servedOverHTTP(m):
			ws++
		}
		if servedOverHTTP(m) {
			http++
		}
	}
	r := strings.NewReplacer(
		"{{header}}", header,
		"{{title}}", ir.Title,
		"{{version}}", ir.Version,
		"{{http}}", strconv.Itoa(http),
		"{{subs}}", strconv.Itoa(subs),
		"{{ws}}", strconv.Itoa(ws),
	)
	return r.Replace(staticTSReadme)
}

func parens(s string) string {
	if s == "" {
		return ""
	}
	return "(" + s + ")"
}
