package transcript

import (
	"strings"
	"testing"
)

// TestExpand pins the macro language the transcripts rely on.
func TestExpand(t *testing.T) {
	t.Parallel()
	tests := []struct{ in, want string }{
		{`{"a":1}`, `{"a":1}`},
		{`a$(nl)b`, "a\nb"},
		{`$(hex c3 28)`, "\xc3\x28"},
		{`"$(pad 3)"`, `"xxx"`},
		{`["$(fill 10)"]`, `["xxxxxx"]`},
	}
	for _, tt := range tests {
		got, err := Expand(tt.in)
		if err != nil {
			t.Errorf("Expand(%q): %v", tt.in, err)
			continue
		}
		if string(got) != tt.want {
			t.Errorf("Expand(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
	if _, err := Expand(`$(fill 2)abc`); err == nil {
		t.Error("Expand accepted a fill shorter than the line")
	}
}

func TestParse(t *testing.T) {
	t.Parallel()
	tr, err := Parse("ok.rpc", []byte(`// This test checks parsing.
// transports: http ws
// a comment

--> {"a":1}
<-- {"b":2}

--> {"c":3}
<-- nothing
`))
	if err != nil {
		t.Fatal(err)
	}
	if tr.Name != "ok.rpc" || !tr.RunsOver("http") || !tr.RunsOver("ws") || len(tr.Exchanges) != 2 {
		t.Fatalf("parsed %+v", tr)
	}
	if x := tr.Exchanges[0]; x.Line != 5 || string(x.Body) != `{"a":1}` || string(x.WantJSON) != `{"b":2}` {
		t.Errorf("first exchange %+v", x)
	}
	if x := tr.Exchanges[1]; !x.WantNothing || x.WantJSON != nil {
		t.Errorf("second exchange %+v", x)
	}

	tr, err = Parse("http.rpc", []byte("// This test checks HTTP.\n--> GET /health\n-->> Origin: x\n<-- 200 ok\n<<- Vary: origin\n"))
	if err != nil {
		t.Fatal(err)
	}
	x := tr.Exchanges[0]
	if x.Method != "GET" || x.Path != "/health" || x.Header.Get("Origin") != "x" || x.WantStatus != 200 ||
		string(x.WantText) != "ok" || len(x.WantHeaders) != 1 || tr.RunsOver("ws") {
		t.Errorf("parsed %+v / %+v", tr, x)
	}

	bad := map[string]string{
		"no header":       "--> {}\n<-- {}\n",
		"empty":           "\n\n",
		"no exchange":     "// This test checks nothing.\n",
		"no reply":        "// This test checks x.\n--> {}\n",
		"two requests":    "// This test checks x.\n--> {}\n--> {}\n<-- {}\n",
		"reply first":     "// This test checks x.\n<-- {}\n",
		"bad transport":   "// This test checks x.\n// transports: tcp\n--> {}\n<-- {}\n",
		"stray line":      "// This test checks x.\nhello\n",
		"http-only on ws": "// This test checks x.\n// transports: ws\n--> GET /health\n<-- 200 ok\n",
		"bad macro":       "// This test checks x.\n--> $(fill 1)abc\n<-- {}\n",
	}
	for name, src := range bad {
		if _, err := Parse(name, []byte(src)); err == nil {
			t.Errorf("%s: Parse accepted %q", name, src)
		} else if !strings.HasPrefix(err.Error(), name) {
			t.Errorf("%s: error %q does not name the file", name, err)
		}
	}
}
