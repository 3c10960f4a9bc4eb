package suite

import (
	"encoding/json"
	"fmt"
	"html/template"
	"io"
	"sort"
	"strings"
	"text/tabwriter"
	"time"
)

// Report is the outcome of a run: per method, its cases and how each went.
type Report struct {
	URL     string    `json:"url"`
	WSURL   string    `json:"wsUrl,omitempty"`
	Strict  bool      `json:"strict"`
	Started time.Time `json:"started"`
	Seconds float64   `json:"seconds"`

	Passed     int `json:"passed"`
	Failed     int `json:"failed"`
	NotCovered int `json:"notCovered"` // cases not run or not implemented by the node (failures only when strict)

	Setup    []StepResult    `json:"setup"`
	Methods  []*MethodReport `json:"methods"`
	Problems []string        `json:"problems,omitempty"` // the suite's own: cases naming methods the schema lacks
}

// MethodReport is one row of the table.
type MethodReport struct {
	Method     string       `json:"method"`
	Transport  string       `json:"transport"`
	Deprecated bool         `json:"deprecated,omitempty"`
	Cases      int          `json:"cases"`
	Passed     int          `json:"passed"`
	Schema     int          `json:"schemaViolations"`
	Errors     int          `json:"unexpectedErrors"`
	Wrong      int          `json:"wrongResults"`
	NotCovered int          `json:"notCovered"`
	Gaps       []string     `json:"gaps,omitempty"` // coverage the case list lacks: a failure
	Status     string       `json:"status"`
	Results    []CaseResult `json:"results"`
}

// CaseResult is how one case went.
type CaseResult struct {
	Kind          string  `json:"kind"`
	Name          string  `json:"name"`
	Transport     string  `json:"transport,omitempty"`
	Params        string  `json:"params,omitempty"` // as sent, placeholders filled in
	Outcome       Outcome `json:"outcome"`
	Reason        string  `json:"reason,omitempty"`
	Reply         string  `json:"reply,omitempty"`
	Notifications int     `json:"notifications,omitempty"`
	Millis        int64   `json:"millis"`
}

// Method statuses.
const (
	StatusOK             = "ok"
	StatusFail           = "FAIL"
	StatusNotImplemented = "not implemented by this node"
	StatusNotCovered     = "not covered"
)

func (r *Report) finish(d time.Duration) {
	r.Seconds = d.Seconds()
	for _, s := range r.Setup {
		if s.Outcome == SetupFailed {
			r.Failed++
		}
	}
	r.Failed += len(r.Problems)
	for _, m := range r.Methods {
		notImpl := false
		failed := len(m.Gaps) > 0
		r.Failed += len(m.Gaps)
		m.Cases = len(m.Results)
		for _, c := range m.Results {
			switch c.Outcome {
			case Pass:
				m.Passed++
				r.Passed++
			case SchemaViolation:
				m.Schema++
			case UnexpectedError, SetupFailed:
				m.Errors++
			case WrongResult:
				m.Wrong++
			case NotImplemented, NotCovered:
				m.NotCovered++
				r.NotCovered++
				notImpl = notImpl || c.Outcome == NotImplemented
			}
			if c.Outcome.Failure(r.Strict) {
				r.Failed++
				failed = true
			}
		}
		switch {
		case m.Schema+m.Errors+m.Wrong > 0 || len(m.Gaps) > 0:
			m.Status = StatusFail
		case notImpl:
			m.Status = StatusNotImplemented
		case m.NotCovered > 0:
			m.Status = StatusNotCovered
		default:
			m.Status = StatusOK
		}
		if failed && m.Status != StatusFail {
			m.Status = StatusFail + " (strict): " + m.Status
		}
	}
}

// OK reports whether the run passed.
func (r *Report) OK() bool { return r.Failed == 0 }

// Summary is the last line: "N passed, M failed", and what was not covered.
func (r *Report) Summary() string {
	s := fmt.Sprintf("%d passed, %d failed", r.Passed, r.Failed)
	if r.NotCovered > 0 {
		s += fmt.Sprintf(" (%d cases not covered", r.NotCovered)
		if !r.Strict {
			s += "; -strict fails on them"
		}
		s += ")"
	}
	return s
}

// Failures lists every failing item as "method: case: outcome: reason".
func (r *Report) Failures() []string {
	var out []string
	for _, s := range r.Setup {
		if s.Outcome == SetupFailed {
			out = append(out, fmt.Sprintf("setup %s: %s", s.Name, s.Reason))
		}
	}
	out = append(out, r.Problems...)
	for _, m := range r.Methods {
		for _, g := range m.Gaps {
			out = append(out, fmt.Sprintf("%s: not covered: %s", m.Method, g))
		}
		for _, c := range m.Results {
			if c.Outcome.Failure(r.Strict) {
				out = append(out, fmt.Sprintf("%s: %s %s: %s: %s", m.Method, c.Kind, c.Name, c.Outcome, c.Reason))
			}
		}
	}
	return out
}

// WriteText writes the table, the failures and the summary line.
func (r *Report) WriteText(w io.Writer) error {
	fmt.Fprintf(w, "conformance of %s", r.URL)
	if r.WSURL != "" {
		fmt.Fprintf(w, " and %s", r.WSURL)
	}
	fmt.Fprintf(w, " (%.1fs)\n\n", r.Seconds)
	for _, s := range r.Setup {
		line := fmt.Sprintf("setup  %-24s %s", s.Name, s.Outcome)
		if s.Reason != "" {
			line += ": " + s.Reason
		}
		fmt.Fprintln(w, line)
	}
	fmt.Fprintln(w)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "method\tcases\tpassed\tschema violations\tunexpected errors\twrong results\tnot covered\tstatus")
	for _, m := range r.Methods {
		status := m.Status
		if len(m.Gaps) > 0 {
			status += " (" + strings.Join(m.Gaps, ", ") + ")"
		}
		fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%d\t%d\t%d\t%s\n", m.Method, m.Cases, m.Passed, m.Schema, m.Errors, m.Wrong, m.NotCovered, status)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if fails := r.Failures(); len(fails) > 0 {
		fmt.Fprintf(w, "\nfailures:\n")
		for _, f := range fails {
			fmt.Fprintf(w, "  %s\n", f)
		}
	}
	if ni := r.notImplemented(); len(ni) > 0 {
		fmt.Fprintf(w, "\nnot implemented by this node: %s\n", strings.Join(ni, " "))
	}
	_, err := fmt.Fprintf(w, "\n%s\n", r.Summary())
	return err
}

// NotImplementedMethods lists the methods with a case the node answered -32601 to.
func (r *Report) notImplemented() []string {
	var out []string
	for _, m := range r.Methods {
		for _, c := range m.Results {
			if c.Outcome == NotImplemented {
				out = append(out, m.Method)
				break
			}
		}
	}
	sort.Strings(out)
	return out
}

// WriteJSON writes the whole report as JSON.
func (r *Report) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(r)
}

// WriteHTML writes a self-contained HTML page: the summary, the table, and each method's cases.
func (r *Report) WriteHTML(w io.Writer) error {
	return htmlReport.Execute(w, r)
}

var htmlReport = template.Must(template.New("report").Funcs(template.FuncMap{
	"class": func(s string) string {
		switch {
		case s == StatusOK || s == string(Pass):
			return "ok"
		case strings.HasPrefix(s, StatusFail), s == string(SchemaViolation), s == string(UnexpectedError),
			s == string(WrongResult), s == string(SetupFailed):
			return "fail"
		}
		return "skip"
	},
}).Parse(`<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<title>Conformance of {{.URL}}</title>
<style>
body{font:14px/1.4 system-ui,sans-serif;margin:2em;color:#222}
h1{font-size:1.4em}
table{border-collapse:collapse;margin:1em 0}
th,td{border:1px solid #ccc;padding:.25em .6em;text-align:left;vertical-align:top}
td.n{text-align:right}
.ok{background:#e6f4e6}.fail{background:#fbe3e3}.skip{background:#f4f0dc}
details{margin:.3em 0}
summary{cursor:pointer}
code,pre{font:12px ui-monospace,monospace;white-space:pre-wrap;word-break:break-all}
.summary{font-size:1.2em;font-weight:bold}
</style></head><body>
<h1>Conformance of {{.URL}}{{if .WSURL}} and {{.WSURL}}{{end}}</h1>
<p class="summary {{if .OK}}ok{{else}}fail{{end}}">{{.Summary}}</p>
<p>Started {{.Started.Format "2006-01-02 15:04:05 UTC"}}, took {{printf "%.1f" .Seconds}} s{{if .Strict}}, strict{{end}}.</p>
<h2>Setup</h2>
<table><tr><th>fixture</th><th>provides</th><th>outcome</th><th>reason</th></tr>
{{range .Setup}}<tr class="{{class (print .Outcome)}}"><td>{{.Name}}</td><td>{{range .Provides}}<code>{{"{{"}}{{.}}{{"}}"}}</code> {{end}}</td><td>{{.Outcome}}</td><td>{{.Reason}}</td></tr>
{{end}}</table>
{{if .Problems}}<h2>Problems of the suite</h2><ul>{{range .Problems}}<li>{{.}}</li>{{end}}</ul>{{end}}
<h2>Methods</h2>
<table><tr><th>method</th><th>cases</th><th>passed</th><th>schema violations</th><th>unexpected errors</th><th>wrong results</th><th>not covered</th><th>status</th></tr>
{{range .Methods}}<tr class="{{class .Status}}"><td><a href="#{{.Method}}">{{.Method}}</a>{{if .Deprecated}} (deprecated){{end}}</td><td class="n">{{.Cases}}</td><td class="n">{{.Passed}}</td><td class="n">{{.Schema}}</td><td class="n">{{.Errors}}</td><td class="n">{{.Wrong}}</td><td class="n">{{.NotCovered}}</td><td>{{.Status}}{{range .Gaps}}<br>{{.}}{{end}}</td></tr>
{{end}}</table>
<h2>Cases</h2>
{{range .Methods}}<details id="{{.Method}}"{{if ne .Status "ok"}} open{{end}}><summary class="{{class .Status}}"><b>{{.Method}}</b> ({{.Transport}}): {{.Passed}}/{{.Cases}} passed, {{.Status}}</summary>
<table><tr><th>kind</th><th>case</th><th>outcome</th><th>reason</th><th>request params</th><th>reply</th></tr>
{{range .Results}}<tr class="{{class (print .Outcome)}}"><td>{{.Kind}}{{if eq .Transport "ws"}} (ws){{end}}</td><td><code>{{.Name}}</code></td><td>{{.Outcome}}{{if .Notifications}} ({{.Notifications}} notifications){{end}}</td><td>{{.Reason}}</td><td><code>{{.Params}}</code></td><td><code>{{.Reply}}</code></td></tr>
{{end}}</table></details>
{{end}}</body></html>
`))
