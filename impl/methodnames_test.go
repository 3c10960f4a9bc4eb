package impl_test

import (
	"encoding/json"
	"go/scanner"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"unicode"
)

// A method is named through the constants rpcapi generates from the schema (rpcapi.MethodGetBalance), never by a
// hand-typed string, so that a renamed or removed method breaks the build of whatever calls, serves or tests it.
// The transport (impl/jsonrpc) knows no method of the schema, and below it names that happen to match a method
// mean something else (the ledger's storage errors say which read failed, a token instruction is
// getAccountDataSize), so only the packages that serve, call or check methods are held to it. JSON text in raw
// strings (request bodies of transcript tests) is the wire, not a name, and is left alone.
var methodNameDirs = []string{"impl/rpc", "impl/pubsub", "impl/node", "impl/follow", "impl/health", "impl/metrics", "cmd",
	"conformance"}

func TestNoHandTypedMethodNames(t *testing.T) {
	t.Parallel()
	names := schemaMethodNames(t)
	for _, dir := range methodNameDirs {
		err := filepath.WalkDir(filepath.Join("..", dir), func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") {
				return err
			}
			src, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			for _, f := range handTypedNames(path, src, names) {
				t.Errorf("%s: the method name %s is typed by hand; use rpcapi.Method%s", f.pos, f.lit, f.hint)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
}

// The check itself finds a name in code and leaves it in JSON text and comments.
func TestHandTypedNamesFound(t *testing.T) {
	t.Parallel()
	src := []byte("package x\n// \"getBalance\"\nvar a = `{\"method\":\"getBalance\"}`\nvar b = \"getBalance\"\n")
	got := handTypedNames("x.go", src, map[string]bool{"getBalance": true})
	if len(got) != 1 || got[0].pos != "x.go:4:9" {
		t.Errorf("found %v, want the literal at x.go:4:9 only", got)
	}
}

type handTyped struct{ pos, lit, hint string }

func handTypedNames(path string, src []byte, names map[string]bool) []handTyped {
	fset := token.NewFileSet()
	var s scanner.Scanner
	s.Init(fset.AddFile(path, -1, len(src)), src, nil, 0)
	var out []handTyped
	for {
		pos, tok, lit := s.Scan()
		if tok == token.EOF {
			return out
		}
		if tok != token.STRING || lit[0] != '"' {
			continue
		}
		if v, err := strconv.Unquote(lit); err == nil && names[v] {
			out = append(out, handTyped{fset.Position(pos).String(), lit, constSuffix(v)})
		}
	}
}

// constSuffix spells a method name as the generator names its constant (surfnet_setAccount: SurfnetSetAccount).
func constSuffix(name string) string {
	var b strings.Builder
	up := true
	for _, r := range name {
		switch {
		case !unicode.IsLetter(r) && !unicode.IsDigit(r):
			up = true
		case up:
			b.WriteRune(unicode.ToUpper(r))
			up = false
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

func schemaMethodNames(t *testing.T) map[string]bool {
	t.Helper()
	data, err := os.ReadFile("../generated/openrpc.json")
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Methods []struct {
			Name         string `json:"name"`
			Notification *struct {
				Name, Unsubscribe string
			} `json:"x-notification"`
		} `json:"methods"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	names := map[string]bool{}
	for _, m := range doc.Methods {
		names[m.Name] = true
		if n := m.Notification; n != nil {
			names[n.Name], names[n.Unsubscribe] = true, true
		}
	}
	if len(names) < 50 {
		t.Fatalf("the schema names %d methods; is generated/openrpc.json read?", len(names))
	}
	return names
}
