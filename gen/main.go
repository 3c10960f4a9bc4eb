// Command gen turns the OpenRPC schema sources under schema/ into generated/: the assembled openrpc.json, the
// typed Go (types, validators, the Handler interface, the dispatch table, the error catalogue and a client), the
// HTML reference of every method (docs/index.html, embedded by package docs for GET /docs) and the TypeScript
// client (sdk/typescript).
//
//	go run ./gen            regenerate generated/
//	go run ./gen -check     print what differs from generated/ and exit 1, without writing
//	go run ./gen -validate  only assemble and validate the schema
package main

import (
	"bytes"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

var force bool

func main() {
	schemaDir := flag.String("schema", "schema", "directory of the schema sources")
	outDir := flag.String("out", "generated", "directory to write")
	check := flag.Bool("check", false, "compare with -out and exit 1 when it differs; write nothing")
	validate := flag.Bool("validate", false, "only assemble and validate the schema")
	flag.BoolVar(&force, "force", false, "emit even when examples fail validation (for debugging the generator)")
	flag.Parse()

	if err := run(*schemaDir, *outDir, *check, *validate); err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
}

func run(schemaDir, outDir string, check, validateOnly bool) error {
	files, err := Generate(os.DirFS(schemaDir), !validateOnly)
	if err != nil {
		return err
	}
	if validateOnly {
		fmt.Println("schema is valid")
		return nil
	}
	if check {
		return checkFiles(outDir, files)
	}
	return writeFiles(outDir, files)
}

// Generate assembles and validates the schema and renders every output file (path relative to the output dir).
func Generate(fsys fs.FS, emit bool) (map[string][]byte, error) {
	a, err := Assemble(fsys)
	if err != nil {
		return nil, err
	}
	if err := a.Validate(); err != nil {
		if !force || !emit {
			return nil, err
		}
		fmt.Fprintln(os.Stderr, "gen: -force: emitting despite:", err)
	}
	if !emit {
		return nil, nil
	}
	ir, err := BuildIR(a)
	if err != nil {
		return nil, err
	}
	out := map[string][]byte{"openrpc.json": a.DocumentJSON()}
	for name, f := range Emit(ir) {
		out[name] = f
	}
	return out, nil
}

func writeFiles(dir string, files map[string][]byte) error {
	for name, data := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		if old, err := os.ReadFile(p); err == nil && bytes.Equal(old, data) {
			continue
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			return err
		}
	}
	// Remove generated files the schema no longer produces.
	for _, stale := range staleFiles(dir, files) {
		if err := os.Remove(filepath.Join(dir, stale)); err != nil {
			return err
		}
	}
	return nil
}

func staleFiles(dir string, files map[string][]byte) []string {
	var stale []string
	_ = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return nil
		}
		rel, _ := filepath.Rel(dir, p)
		rel = filepath.ToSlash(rel)
		if _, ok := files[rel]; !ok && (strings.HasSuffix(rel, "_gen.go") || rel == "openrpc.json") {
			stale = append(stale, rel)
		}
		return nil
	})
	sort.Strings(stale)
	return stale
}

func checkFiles(dir string, files map[string][]byte) error {
	var names []string
	for n := range files {
		names = append(names, n)
	}
	sort.Strings(names)
	var diffs []string
	for _, n := range names {
		old, err := os.ReadFile(filepath.Join(dir, n))
		if err != nil {
			diffs = append(diffs, fmt.Sprintf("%s: missing (run go run ./gen)", n))
			continue
		}
		if !bytes.Equal(old, files[n]) {
			diffs = append(diffs, fmt.Sprintf("%s: differs\n%s", n, firstDiff(old, files[n])))
		}
	}
	for _, s := range staleFiles(dir, files) {
		diffs = append(diffs, fmt.Sprintf("%s: no longer generated (run go run ./gen)", s))
	}
	if len(diffs) > 0 {
		return fmt.Errorf("generated/ is stale:\n%s", strings.Join(diffs, "\n"))
	}
	return nil
}

// firstDiff shows the first differing line with a little context.
func firstDiff(old, new []byte) string {
	a := strings.Split(string(old), "\n")
	b := strings.Split(string(new), "\n")
	for i := 0; i < len(a) || i < len(b); i++ {
		var la, lb string
		if i < len(a) {
			la = a[i]
		}
		if i < len(b) {
			lb = b[i]
		}
		if la != lb || i >= len(a) || i >= len(b) {
			return fmt.Sprintf("  line %d:\n  - %s\n  + %s", i+1, la, lb)
		}
	}
	return ""
}
