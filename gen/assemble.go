package main

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strconv"
	"strings"

	"github.com/mr-tron/base58"
	"github.com/santhosh-tekuri/jsonschema/v5"
	"gopkg.in/yaml.v3"
)

//go:embed metaschema/openrpc-1.3.json
var openrpcMetaSchema []byte

// Problems collects every problem found, so one run reports them all.
type Problems []string

func (p *Problems) Add(format string, args ...any) { *p = append(*p, fmt.Sprintf(format, args...)) }

func (p Problems) Err() error {
	if len(p) == 0 {
		return nil
	}
	return fmt.Errorf("%d problem(s) in the schema:\n  %s", len(p), strings.Join(p, "\n  "))
}

// Assembled is the whole OpenRPC document built from the schema sources.
type Assembled struct {
	Doc *Node
	// where each method and component came from, for error messages
	methodFile map[int]string
}

func readYAML(fsys fs.FS, name string) (*Node, error) {
	data, err := fs.ReadFile(fsys, name)
	if err != nil {
		return nil, err
	}
	var y yaml.Node
	if err := yaml.Unmarshal(data, &y); err != nil {
		return nil, fmt.Errorf("%s: %v", name, err)
	}
	return fromYAML("schema/"+name, &y)
}

func listYAML(fsys fs.FS, dir string) []string {
	entries, _ := fs.ReadDir(fsys, dir)
	var out []string
	for _, e := range entries {
		if !e.IsDir() && (strings.HasSuffix(e.Name(), ".yaml") || strings.HasSuffix(e.Name(), ".yml")) {
			out = append(out, path.Join(dir, e.Name()))
		}
	}
	sort.Strings(out)
	return out
}

// Assemble reads schema/ (as fsys) and builds the OpenRPC document: the head from openrpc.yaml, methods from
// methods/*.yaml in file order, components from components/*.yaml and errors/*.yaml. It rejects duplicates and
// dangling references.
func Assemble(fsys fs.FS) (*Assembled, error) {
	var probs Problems
	head, err := readYAML(fsys, "openrpc.yaml")
	if err != nil {
		return nil, err
	}
	doc := head
	if doc.Kind != KObject {
		return nil, fmt.Errorf("schema/openrpc.yaml: must be a mapping")
	}
	methods := &Node{Kind: KArray, Items: []*Node{}}
	a := &Assembled{Doc: doc, methodFile: map[int]string{}}
	seen := map[string]string{}
	for _, f := range listYAML(fsys, "methods") {
		n, err := readYAML(fsys, f)
		if err != nil {
			return nil, err
		}
		if n.Kind == KNull {
			continue
		}
		if n.Kind != KArray {
			probs.Add("schema/%s: must be a list of methods", f)
			continue
		}
		for _, m := range n.Items {
			name := m.Get("name").String()
			if name == "" {
				probs.Add("%s: method without a name", m.Where())
				continue
			}
			if prev, ok := seen[name]; ok {
				probs.Add("%s: method %s defined twice (first in %s)", m.Where(), name, prev)
				continue
			}
			seen[name] = m.Where()
			a.methodFile[len(methods.Items)] = m.Where()
			methods.Items = append(methods.Items, m)
		}
	}
	doc.Set("methods", methods)

	comps := &Node{Kind: KObject}
	for _, part := range []struct{ dir, key string }{{"components", "schemas"}, {"errors", "errors"}} {
		merged := &Node{Kind: KObject}
		for _, f := range listYAML(fsys, part.dir) {
			n, err := readYAML(fsys, f)
			if err != nil {
				return nil, err
			}
			if n.Kind == KNull {
				continue
			}
			if n.Kind != KObject {
				probs.Add("schema/%s: must be a mapping of names", f)
				continue
			}
			for i, k := range n.Keys {
				if prev := merged.Get(k); prev != nil {
					probs.Add("%s: %s %s defined twice (first at %s)", n.Vals[i].Where(), part.key, k, prev.Where())
					continue
				}
				merged.Keys = append(merged.Keys, k)
				merged.Vals = append(merged.Vals, n.Vals[i])
			}
		}
		comps.Set(part.key, merged)
	}
	doc.Set("components", comps)

	// OpenRPC's error object admits no extensions, so what the catalogue says beyond {code, message} (the message
	// template, the constructor arguments, the data schema) moves to the document-level "x-error-details".
	details := &Node{Kind: KObject}
	errs := comps.Get("errors")
	for i, name := range errs.Keys {
		e := errs.Vals[i]
		d := &Node{Kind: KObject, File: e.File, Line: e.Line}
		for j := 0; j < len(e.Keys); {
			if strings.HasPrefix(e.Keys[j], "x-") {
				d.Set(e.Keys[j], e.Vals[j])
				e.Keys = append(e.Keys[:j], e.Keys[j+1:]...)
				e.Vals = append(e.Vals[:j], e.Vals[j+1:]...)
				continue
			}
			j++
		}
		details.Set(name, d)
	}
	doc.Set("x-error-details", details)

	checkRefs(doc, doc, "", &probs)
	return a, probs.Err()
}

// checkRefs reports every "$ref" that does not resolve inside the document.
func checkRefs(doc, n *Node, at string, probs *Problems) {
	switch n.Kind {
	case KObject:
		for i, k := range n.Keys {
			v := n.Vals[i]
			if k == "$ref" && v.Kind == KString {
				if resolvePointer(doc, v.Str) == nil {
					probs.Add("%s: $ref %q points nowhere (at %s)", v.Where(), v.Str, at)
				}
				continue
			}
			checkRefs(doc, v, at+"/"+k, probs)
		}
	case KArray:
		for i, it := range n.Items {
			checkRefs(doc, it, at+"/"+strconv.Itoa(i), probs)
		}
	}
}

// resolvePointer resolves a local JSON pointer reference ("#/a/b").
func resolvePointer(doc *Node, ref string) *Node {
	if !strings.HasPrefix(ref, "#/") {
		return nil
	}
	cur := doc
	for _, part := range strings.Split(ref[2:], "/") {
		part = strings.ReplaceAll(strings.ReplaceAll(part, "~1", "/"), "~0", "~")
		switch cur.Kind {
		case KObject:
			cur = cur.Get(part)
		case KArray:
			i, err := strconv.Atoi(part)
			if err != nil || i < 0 || i >= len(cur.Items) {
				return nil
			}
			cur = cur.Items[i]
		default:
			return nil
		}
		if cur == nil {
			return nil
		}
	}
	return cur
}

// base58Len reports whether s is base58 of exactly n bytes.
func base58Len(s string, n int) bool {
	b, err := base58.Decode(s)
	return err == nil && len(b) == n
}

func newCompiler() *jsonschema.Compiler {
	c := jsonschema.NewCompiler()
	c.Draft = jsonschema.Draft7
	c.AssertFormat = true
	c.Formats = map[string]func(any) bool{
		"pubkey":    func(v any) bool { s, ok := v.(string); return !ok || base58Len(s, 32) },
		"hash":      func(v any) bool { s, ok := v.(string); return !ok || base58Len(s, 32) },
		"signature": func(v any) bool { s, ok := v.(string); return !ok || base58Len(s, 64) },
	}
	return c
}

// Validate checks the document against the OpenRPC meta-schema and every example against its schemas.
func (a *Assembled) Validate() error {
	var probs Problems
	docJSON, _ := json.Marshal(a.Doc)

	// The meta-schema names a non-standard "$schema"; it is draft-07 in substance, so we say so, and we stand in for
	// the JSON Schema meta-schema it references by URL with draft-07's own.
	meta, err := fromJSON("openrpc-meta-schema", openrpcMetaSchema)
	if err != nil {
		return err
	}
	meta.Set("$schema", &Node{Kind: KString, Str: "http://json-schema.org/draft-07/schema#"})
	metaJSON, _ := json.Marshal(meta)
	c := newCompiler()
	c.Formats = nil
	for _, u := range []string{"https://meta.json-schema.tools", "https://meta.json-schema.tools/"} {
		if err := c.AddResource(u, strings.NewReader(`{"$schema":"http://json-schema.org/draft-07/schema#",
		"allOf":[{"$ref":"http://json-schema.org/draft-07/schema#"}],
		"definitions":{"JSONSchemaObject":{"properties":{"$ref":{"type":"string","format":"uri-reference"}}}}}`)); err != nil {
			return err
		}
	}
	if err := c.AddResource("https://meta.open-rpc.org/", bytes.NewReader(metaJSON)); err != nil {
		return err
	}
	ms, err := c.Compile("https://meta.open-rpc.org/")
	if err != nil {
		return fmt.Errorf("compiling the OpenRPC meta-schema: %v", err)
	}
	if err := ms.Validate(a.Doc.Plain()); err != nil {
		for _, l := range leafErrors(err) {
			probs.Add("%s: %s (OpenRPC meta-schema)", a.locate(l.InstanceLocation), l.Message)
		}
	}

	// Examples: compile each param and result schema out of the document itself, so $refs resolve.
	sc := newCompiler()
	const docURL = "file:///openrpc.json"
	if err := sc.AddResource(docURL, bytes.NewReader(docJSON)); err != nil {
		return err
	}
	compile := func(ptr string) (*jsonschema.Schema, error) { return sc.Compile(docURL + "#" + ptr) }
	for mi, m := range a.Doc.Get("methods").Items {
		name := m.Get("name").String()
		where := a.methodFile[mi]
		params := m.Get("params")
		examples := m.Get("examples")
		if examples == nil || len(examples.Items) == 0 {
			probs.Add("%s: method %s has no example", where, name)
		}
		if len(itemsOf(m.Get("errors"))) == 0 {
			probs.Add("%s: method %s lists no errors (every method can at least answer InvalidParams)", where, name)
		}
		for ei, ex := range itemsOf(examples) {
			exParams := ex.Get("params")
			for _, ep := range itemsOf(exParams) {
				pname := ep.Get("name").String()
				idx := -1
				for i, p := range itemsOf(params) {
					if p.Get("name").String() == pname {
						idx = i
					}
				}
				if idx < 0 {
					probs.Add("%s: method %s example %d names unknown param %q", ep.Where(), name, ei, pname)
					continue
				}
				s, err := compile(fmt.Sprintf("/methods/%d/params/%d/schema", mi, idx))
				if err != nil {
					probs.Add("%s: method %s param %s: schema does not compile: %v", where, name, pname, err)
					continue
				}
				if v := ep.Get("value"); v != nil {
					if err := s.Validate(v.Plain()); err != nil {
						for _, l := range leafErrors(err) {
							probs.Add("%s: method %s example %d param %s%s: %s", ep.Where(), name, ei, pname, l.InstanceLocation, l.Message)
						}
					}
				}
			}
			// Required params must appear, in order.
			for i, p := range itemsOf(params) {
				if !p.Get("required").Truthy() {
					continue
				}
				if i >= len(itemsOf(exParams)) || itemsOf(exParams)[i].Get("name").String() != p.Get("name").String() {
					probs.Add("%s: method %s example %d lacks required param %s at position %d", ex.Where(), name, ei, p.Get("name").String(), i)
				}
			}
			if r := ex.Get("result"); r != nil && r.Get("value") != nil {
				s, err := compile(fmt.Sprintf("/methods/%d/result/schema", mi))
				if err != nil {
					probs.Add("%s: method %s result schema does not compile: %v", where, name, err)
					continue
				}
				if err := s.Validate(r.Get("value").Plain()); err != nil {
					for _, l := range leafErrors(err) {
						probs.Add("%s: method %s example %d result%s: %s", r.Where(), name, ei, l.InstanceLocation, l.Message)
					}
				}
			}
		}
		if n := m.Get("x-notification"); n != nil {
			s, err := compile(fmt.Sprintf("/methods/%d/x-notification/schema", mi))
			if err != nil {
				probs.Add("%s: method %s notification schema does not compile: %v", where, name, err)
				continue
			}
			ex := m.Get("x-notification-example")
			if ex == nil {
				probs.Add("%s: subscription %s has no x-notification-example", where, name)
				continue
			}
			if err := s.Validate(ex.Plain()); err != nil {
				for _, l := range leafErrors(err) {
					probs.Add("%s: method %s x-notification-example%s: %s", ex.Where(), name, l.InstanceLocation, l.Message)
				}
			}
		}
	}
	// Every component must compile on its own too.
	for _, k := range a.Doc.Get("components").Get("schemas").Keys {
		if _, err := compile("/components/schemas/" + escapePointer(k)); err != nil {
			probs.Add("%s: component %s does not compile: %v", a.Doc.Get("components").Get("schemas").Get(k).Where(), k, err)
		}
	}
	return probs.Err()
}

func escapePointer(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "~", "~0"), "/", "~1")
}

func itemsOf(n *Node) []*Node {
	if n == nil || n.Kind != KArray {
		return nil
	}
	return n.Items
}

// locate turns an instance location in the document into file:line where possible.
func (a *Assembled) locate(ptr string) string {
	n := resolvePointer(a.Doc, "#"+ptr)
	// walk up until a node with a file is found
	for n == nil || n.File == "" {
		i := strings.LastIndex(ptr, "/")
		if i < 0 {
			return "openrpc.json" + ptr
		}
		ptr = ptr[:i]
		n = resolvePointer(a.Doc, "#"+ptr)
		if ptr == "" {
			n = a.Doc
		}
	}
	return n.Where() + " (" + ptr + ")"
}

// leafErrors flattens a validation error into its most specific causes.
func leafErrors(err error) []*jsonschema.ValidationError {
	ve, ok := err.(*jsonschema.ValidationError)
	if !ok {
		return []*jsonschema.ValidationError{{Message: err.Error()}}
	}
	var out []*jsonschema.ValidationError
	var walk func(e *jsonschema.ValidationError)
	walk = func(e *jsonschema.ValidationError) {
		if len(e.Causes) == 0 {
			out = append(out, e)
			return
		}
		for _, c := range e.Causes {
			walk(c)
		}
	}
	walk(ve)
	return out
}

// DocumentJSON renders the assembled document, indented, with a trailing newline.
func (a *Assembled) DocumentJSON() []byte {
	raw, _ := json.Marshal(a.Doc)
	var b bytes.Buffer
	_ = json.Indent(&b, raw, "", "  ")
	b.WriteByte('\n')
	return b.Bytes()
}
