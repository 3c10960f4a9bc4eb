package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

// TestGolden runs the generator over each testdata/<case>/schema and compares, in memory, with
// testdata/<case>/want/ (the expected files) or testdata/<case>/error.txt (lines the error must contain, written
// by hand: -update refreshes only want/).
func TestGolden(t *testing.T) {
	cases, _ := filepath.Glob("testdata/*")
	for _, dir := range cases {
		dir := dir
		t.Run(filepath.Base(dir), func(t *testing.T) {
			t.Parallel()
			files, err := Generate(os.DirFS(filepath.Join(dir, "schema")), true)
			errPath := filepath.Join(dir, "error.txt")
			if want, rerr := os.ReadFile(errPath); rerr == nil {
				if err == nil {
					t.Fatalf("generation succeeded; want an error containing %q", want)
				}
				for _, line := range strings.Split(strings.TrimSpace(string(want)), "\n") {
					if !strings.Contains(err.Error(), strings.TrimSpace(line)) {
						t.Errorf("error lacks %q; got:\n%v", line, err)
					}
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			wantDir := filepath.Join(dir, "want")
			if *update {
				os.RemoveAll(wantDir)
				for name, data := range files {
					p := filepath.Join(wantDir, name)
					os.MkdirAll(filepath.Dir(p), 0o755)
					os.WriteFile(p, data, 0o644)
				}
				return
			}
			var names []string
			for n := range files {
				names = append(names, n)
			}
			sort.Strings(names)
			for _, n := range names {
				want, err := os.ReadFile(filepath.Join(wantDir, n))
				if err != nil {
					t.Errorf("%s: not in the golden output (run go test ./gen -update)", n)
					continue
				}
				if !bytes.Equal(want, files[n]) {
					t.Errorf("%s differs from the golden:\n%s", n, firstDiff(want, files[n]))
				}
			}
		})
	}
}

// TestGoldenCompiles builds the golden output of the minimal case in place of generated/, through a build overlay,
// so the expected Go is known to compile. (The TypeScript of the golden is type-checked by conformance/sdkcheck.)
func TestGoldenCompiles(t *testing.T) {
	if testing.Short() {
		t.Skip("builds with the go tool")
	}
	root, _ := filepath.Abs("..")
	want, _ := filepath.Abs("testdata/minimal/want")
	overlay := map[string]string{}
	// Hide every real generated file, then map the golden ones in.
	filepath.WalkDir(filepath.Join(root, "generated"), func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".go") {
			overlay[p] = ""
		}
		return nil
	})
	// Every golden file, not only the Go: generated/docs embeds index.html.
	filepath.WalkDir(want, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			rel, _ := filepath.Rel(want, p)
			overlay[filepath.Join(root, "generated", rel)] = p
		}
		return nil
	})
	data, _ := json.Marshal(map[string]any{"Replace": overlay})
	ov := filepath.Join(t.TempDir(), "overlay.json")
	os.WriteFile(ov, data, 0o644)
	cmd := exec.Command("go", "build", "-overlay", ov, "./generated/...")
	cmd.Dir = root
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("golden output does not compile: %v\n%s", err, out)
	}
}

// TestGeneratedIsFresh fails when generated/ is not what schema/ produces (the same check as `go run ./gen -check`).
func TestGeneratedIsFresh(t *testing.T) {
	files, err := Generate(os.DirFS("../schema"), true)
	if err != nil {
		t.Fatal(err)
	}
	if err := checkFiles("../generated", files); err != nil {
		t.Fatal(err)
	}
}

// TestSchemaChangeChangesCode edits a copy of the real schema (a new optional param) and checks the typed code follows.
func TestSchemaChangeChangesCode(t *testing.T) {
	dir := t.TempDir()
	if err := os.CopyFS(dir, os.DirFS("../schema")); err != nil {
		t.Fatal(err)
	}
	before, err := Generate(os.DirFS(dir), true)
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, "methods", "node.yaml")
	src, _ := os.ReadFile(p)
	// getGenesisHash takes no params; give it one (its first "params: []" is the method's, the next its example's).
	edited := strings.Replace(string(src), "  params: []\n", "  params:\n    - name: extraFlag\n      schema: {type: boolean}\n", 1)
	if edited == string(src) {
		t.Fatal("could not find getGenesisHash in node.yaml")
	}
	os.WriteFile(p, []byte(edited), 0o644)
	after, err := Generate(os.DirFS(dir), true)
	if err != nil {
		t.Fatal(err)
	}
	params := string(after["rpcapi/rpc_params_gen.go"])
	if !strings.Contains(params, "type GetGenesisHashParams struct") || !strings.Contains(params, "ExtraFlag Opt[bool]") {
		t.Errorf("the new param did not reach the typed params")
	}
	if bytes.Equal(before["rpcapi/rpc_handler_gen.go"], after["rpcapi/rpc_handler_gen.go"]) {
		t.Errorf("the Handler interface did not change")
	}
}

// TestByteStable generates twice and expects identical bytes.
func TestByteStable(t *testing.T) {
	a, err := Generate(os.DirFS("../schema"), true)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := Generate(os.DirFS("../schema"), true)
	for n := range a {
		if !bytes.Equal(a[n], b[n]) {
			t.Errorf("%s differs between two runs", n)
		}
	}
}

func TestTemplateFormat(t *testing.T) {
	for _, c := range []struct{ in, format string }{
		{"Block {slot} cleaned up", "Block %v cleaned up"},
		{"100% {x}", "100%% %v"},
		{"no holes, 5%", "no holes, 5%"},
		{`"maxSupportedTransactionVersion": {version}`, `"maxSupportedTransactionVersion": %v`},
	} {
		if got, _ := templateFormat(c.in); got != c.format {
			t.Errorf("templateFormat(%q) = %q, want %q", c.in, got, c.format)
		}
	}
}

// withHostileText copies the minimal schema and puts markup into the description of a method, a param and a
// component.
func withHostileText(t *testing.T) map[string][]byte {
	t.Helper()
	dir := t.TempDir()
	if err := os.CopyFS(dir, os.DirFS("testdata/minimal/schema")); err != nil {
		t.Fatal(err)
	}
	edit := func(name, old, new string) {
		p := filepath.Join(dir, name)
		src, _ := os.ReadFile(p)
		edited := strings.Replace(string(src), old, new, 1)
		if edited == string(src) {
			t.Fatalf("%s: %q not found", name, old)
		}
		os.WriteFile(p, []byte(edited), 0o644)
	}
	edit("methods/m.yaml", "  summary: Returns the items of keys.\n",
		"  summary: Returns the items of keys.\n  description: 'Reads <script>alert(1)</script> & \"x\" */ with `a<b>`.'\n")
	edit("methods/m.yaml", "    - name: keys\n      required: true\n",
		"    - name: keys\n      required: true\n      description: '<img src=x onerror=alert(2)>'\n")
	edit("components/c.yaml", "Item:\n  type: object\n", "Item:\n  description: 'An <iframe> item'\n  type: object\n")
	files, err := Generate(os.DirFS(dir), true)
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// TestDocsListMethodsAndEscape checks the HTML reference has a section per method and escapes schema prose.
func TestDocsListMethodsAndEscape(t *testing.T) {
	t.Parallel()
	files := withHostileText(t)
	page := string(files["docs/index.html"])
	for _, m := range []string{"getItems", "getCount", "getCountOld", "countSubscribe", "countUnsubscribe"} {
		if !strings.Contains(page, `<section class="method" id="`+m+`">`) || !strings.Contains(page, `<a href="#`+m+`">`+m+`</a>`) {
			t.Errorf("the docs have no section or no index entry for %s", m)
		}
	}
	for _, raw := range []string{"<script>alert", "<img src", "<iframe>"} {
		if strings.Contains(page, raw) {
			t.Errorf("the docs contain %q unescaped", raw)
		}
	}
	for _, want := range []string{
		"Reads &lt;script&gt;alert(1)&lt;/script&gt; &amp; \"x\" */ with <code>a&lt;b&gt;</code>.",
		"&lt;img src=x onerror=alert(2)&gt;",
		"An &lt;iframe&gt; item",
		`<span class="badge deprecated">deprecated</span>`, `use <a href="#getCount"><code>getCount</code></a>`,
		`<span class="badge unstable">unstable</span>`, "Since 1.0",
		"<code>countNotification</code>", `<a href="#countUnsubscribe"><code>countUnsubscribe</code></a>`,
		`<a href="#error-Behind">Behind</a>`, "<code>-32005</code>",
	} {
		if !strings.Contains(page, want) {
			t.Errorf("the docs lack %q", want)
		}
	}
	if ts := string(files["sdk/typescript/index.ts"]); !strings.Contains(ts, `"x" *\/ with`) {
		t.Errorf("a */ in a description must not end the JSDoc comment of the SDK")
	}
}

// TestDocsCoverRealSchema checks every method of the real schema has a section, and every link has a target.
func TestDocsCoverRealSchema(t *testing.T) {
	t.Parallel()
	a, err := Assemble(os.DirFS("../schema"))
	if err != nil {
		t.Fatal(err)
	}
	ir, err := BuildIR(a)
	if err != nil {
		t.Fatal(err)
	}
	page := string(emitDocs(ir))
	for _, m := range ir.Methods {
		if !strings.Contains(page, `id="`+m.Name+`"`) {
			t.Errorf("no section for %s", m.Name)
		}
	}
	for _, href := range regexp.MustCompile(`href="#([^"]+)"`).FindAllStringSubmatch(page, -1) {
		if !strings.Contains(page, `id="`+href[1]+`"`) {
			t.Errorf("link to #%s has no target", href[1])
		}
	}
}

// TestSDKCoversMethods checks the TypeScript SDK has a params type, a table entry and a typed caller per method.
func TestSDKCoversMethods(t *testing.T) {
	t.Parallel()
	files, err := Generate(os.DirFS("testdata/minimal/schema"), true)
	if err != nil {
		t.Fatal(err)
	}
	ts := string(files["sdk/typescript/index.ts"])
	for _, want := range []string{
		"export type GetItemsParams = [keys: Pubkey[], config?: GetItemsConfig];",
		"getItems(...params: GetItemsParams): Promise<GetItemsResult> {",
		"export type GetItemsResult = (Item | null)[];",
		"  getCount: { params: GetCountParams; result: GetCountResult };",
		"countSubscribe(onNotification: NotificationHandler<CountSubscribeNotification>): Promise<Subscription> {",
		"  countSubscribe: { notification: \"countNotification\", unsubscribe: \"countUnsubscribe\" },",
		"  note?: string | null;",
		"export type Commitment = \"processed\" | \"confirmed\" | \"finalized\";",
		"   * @deprecated Use getCount.",
		"  Behind: -32005,",
	} {
		if !strings.Contains(ts, want) {
			t.Errorf("index.ts lacks %q", want)
		}
	}
}

func TestWrapKeepsAtWordsOffLineStarts(t *testing.T) {
	got := wrap("read by web3.js and @solana/kit", 20)
	for _, l := range got {
		if strings.HasPrefix(l, "@") {
			t.Errorf("wrap put %q at a line start: %q", l, got)
		}
	}
}

// TestSchemaChangeBreaksTheBuild is the property the Handler interface exists for: a method added to the schema
// stops impl/rpc from building until it is written. The regenerated rpcapi is laid over the real one (go build
// -overlay), so nothing in the tree is written; the build must fail on Server lacking the new method.
func TestSchemaChangeBreaksTheBuild(t *testing.T) {
	if testing.Short() {
		t.Skip("builds impl/rpc against a changed rpcapi")
	}
	dir := t.TempDir()
	if err := os.CopyFS(filepath.Join(dir, "schema"), os.DirFS("../schema")); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, "schema", "methods", "node.yaml")
	src, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	method := `- name: ledgerd_schemaChangeProbe
  summary: A method no handler implements.
  params: []
  result: {name: probe, schema: {type: boolean}}
  errors: [{$ref: '#/components/errors/InvalidParams'}]
  examples: [{name: probe, params: [], result: {name: probe, value: true}}]
`
	if err := os.WriteFile(p, append(src, method...), 0o644); err != nil {
		t.Fatal(err)
	}
	files, err := Generate(os.DirFS(filepath.Join(dir, "schema")), true)
	if err != nil {
		t.Fatal(err)
	}
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	replace := map[string]string{}
	for name, data := range files {
		if !strings.HasPrefix(name, "rpcapi/") {
			continue
		}
		f := filepath.Join(dir, "out", filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(f), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(f, data, 0o644); err != nil {
			t.Fatal(err)
		}
		replace[filepath.Join(root, "generated", filepath.FromSlash(name))] = f
	}
	overlay, _ := json.Marshal(map[string]any{"Replace": replace})
	overlayFile := filepath.Join(dir, "overlay.json")
	if err := os.WriteFile(overlayFile, overlay, 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("go", "build", "-overlay", overlayFile, "-o", os.DevNull, "./impl/rpc")
	cmd.Dir = root
	out, err := cmd.CombinedOutput()
	if err == nil {
		t.Fatal("impl/rpc builds against a schema with a method it does not implement")
	}
	if !strings.Contains(string(out), "missing method LedgerdSchemaChangeProbe") {
		t.Fatalf("the build failed, but not on the missing method:\n%s", out)
	}
}
