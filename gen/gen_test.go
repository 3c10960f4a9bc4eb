package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
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
// so the expected Go is known to compile.
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
	filepath.WalkDir(want, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".go") {
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
	if !strings.Contains(params, "type GetGenesisHashParams struct") || !strings.Contains(params, "ExtraFlag *bool") {
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
