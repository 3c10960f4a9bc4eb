package suite

import (
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"net/http"
	"regexp"
	"slices"
	"sort"
	"sync"
	"time"

	"ledgerd/generated"
)

// Outcome is how one case (or one fixture) went.
type Outcome string

const (
	Pass            Outcome = "pass"
	SchemaViolation Outcome = "schema violation"             // the reply does not match the schema
	UnexpectedError Outcome = "unexpected error"             // an error where a result was due, or the wrong or an undeclared error
	WrongResult     Outcome = "wrong result"                 // valid against the schema, but not what the case requires
	NotImplemented  Outcome = "not implemented by this node" // -32601: the node does not serve the method (yet)
	NotCovered      Outcome = "not covered"                  // the case could not run: no -ws endpoint, a fixture is missing
	SetupFailed     Outcome = "setup failed"                 // a fixture could not be prepared
)

// Failure reports whether an outcome fails the run. Not implemented and not covered fail only in strict mode.
func (o Outcome) Failure(strict bool) bool {
	switch o {
	case Pass:
		return false
	case NotImplemented, NotCovered:
		return strict
	}
	return true
}

// Config says what to check and how.
type Config struct {
	URL   string // the JSON-RPC HTTP endpoint
	WSURL string // the PubSub endpoint; "" leaves the WebSocket methods not covered

	// Strict makes "not implemented by this node" and "not covered" failures.
	Strict bool

	Parallel    int           // cases run at once (default 8)
	CallTimeout time.Duration // per call (default 10 s)
	WaitTimeout time.Duration // for a prepared transaction to be finalized (default 60 s)

	Methods *regexp.Regexp // only the methods matching (nil: all)
	// Undeclared lists errors accepted although the method does not declare them (method -> codes): known gaps
	// of the schema, named by the caller where a reader sees them. The CLI sets none.
	Undeclared map[string][]int
	Document   []byte      // the OpenRPC document (default: generated/openrpc.json, which package generated embeds)
	Cases      []Case      // default: Cases()
	Protocol   []ProtoCase // default: ProtocolCases()
	HTTPClient *http.Client
	Log        io.Writer // progress lines (nil: quiet)
	// Prepared, when set, runs once the fixtures are prepared and before any case, with their variables: a test
	// changes the node under the cases there (moves the fixtures' history to Bigtable). Its error ends the run.
	Prepared func(ctx context.Context, vars Vars) error
}

func (c *Config) defaults() {
	if c.Parallel <= 0 {
		c.Parallel = 8
	}
	if c.CallTimeout <= 0 {
		c.CallTimeout = 10 * time.Second
	}
	if c.WaitTimeout <= 0 {
		c.WaitTimeout = 60 * time.Second
	}
	if c.Document == nil {
		c.Document = generated.OpenRPC
	}
	if c.Cases == nil {
		c.Cases = Cases()
	}
	if c.Protocol == nil {
		c.Protocol = ProtocolCases()
	}
}

// Cases is every method case of the suite, grouped by topic in the cases_*.go files.
func Cases() []Case {
	var all []Case
	for _, group := range [][]Case{accountCases, blockCases, chainCases, transactionCases, deprecatedCases,
		clusterCases, tokenCases, subscriptionCases, cheatCases, replicaCases} {
		all = append(all, group...)
	}
	return all
}

type runner struct {
	cfg  Config
	spec *Spec
	env  *Env
	logf func(string, ...any)
}

// Run prepares the fixtures through the endpoint, runs every case and returns the report. The error is for a
// run that could not happen at all (an unreadable document, an endpoint that does not answer).
func Run(ctx context.Context, cfg Config) (*Report, error) {
	cfg.defaults()
	spec, err := LoadSpec(cfg.Document)
	if err != nil {
		return nil, err
	}
	r := &runner{cfg: cfg, spec: spec, env: newEnv(&cfg), logf: func(string, ...any) {}}
	if cfg.Log != nil {
		var mu sync.Mutex
		r.logf = func(format string, args ...any) {
			mu.Lock()
			defer mu.Unlock()
			fmt.Fprintf(cfg.Log, format+"\n", args...)
		}
	}
	pctx, cancel := context.WithTimeout(ctx, cfg.CallTimeout)
	_, _, err = r.env.http.post(pctx, []byte(`{"jsonrpc":"2.0","id":0,"method":"getVersion"}`))
	cancel()
	if err != nil {
		return nil, fmt.Errorf("the endpoint %s does not answer: %w", cfg.URL, err)
	}

	start := time.Now()
	rep := &Report{URL: cfg.URL, WSURL: cfg.WSURL, Strict: cfg.Strict, Started: start.UTC()}
	rep.Setup = r.env.prepare(ctx, r.logf)
	if cfg.Prepared != nil {
		if err := cfg.Prepared(ctx, maps.Clone(r.env.vars)); err != nil {
			return nil, fmt.Errorf("after the fixtures: %w", err)
		}
	}

	selected := func(method string) bool { return cfg.Methods == nil || cfg.Methods.MatchString(method) }
	byMethod := map[string]*MethodReport{}
	for _, name := range spec.Order {
		if !selected(name) {
			continue
		}
		m := spec.Methods[name]
		mr := &MethodReport{Method: name, Transport: m.Transport, Deprecated: m.Deprecated}
		byMethod[name] = mr
		rep.Methods = append(rep.Methods, mr)
	}

	// Coverage comes from the case list itself: every method needs a valid and an invalid case.
	type job struct {
		c  *Case
		mr *MethodReport
		i  int
	}
	var jobs []job
	kinds := map[string]map[Kind]bool{}
	for i := range cfg.Cases {
		c := &cfg.Cases[i]
		if _, ok := spec.Methods[c.Method]; !ok {
			rep.Problems = append(rep.Problems, fmt.Sprintf("case %q names %s, which the schema does not have", c.Title(), c.Method))
			continue
		}
		mr := byMethod[c.Method]
		if mr == nil {
			continue
		}
		if kinds[c.Method] == nil {
			kinds[c.Method] = map[Kind]bool{}
		}
		kinds[c.Method][c.Kind] = true
		mr.Results = append(mr.Results, CaseResult{})
		jobs = append(jobs, job{c: c, mr: mr, i: len(mr.Results) - 1})
	}
	for _, mr := range rep.Methods {
		if !kinds[mr.Method][Valid] {
			mr.Gaps = append(mr.Gaps, "no case with valid params")
		}
		if !kinds[mr.Method][Invalid] {
			mr.Gaps = append(mr.Gaps, "no case with invalid params")
		}
	}

	// Slow cases (subscriptions waiting for notifications) start first, so they overlap with the rest.
	sort.SliceStable(jobs, func(a, b int) bool { return jobs[a].c.Notify != nil && jobs[b].c.Notify == nil })
	var wg sync.WaitGroup
	sem := make(chan struct{}, cfg.Parallel)
	var last []job
	for _, j := range jobs {
		if j.c.Last {
			last = append(last, j)
			continue
		}
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			res := r.runCase(ctx, j.c)
			j.mr.Results[j.i] = res
			if res.Outcome != Pass {
				r.logf("%-36s %-8s %-30s %s: %s", j.c.Method, j.c.Kind, short(res.Name, 30), res.Outcome, short(res.Reason, 300))
			}
		}()
	}
	var proto []CaseResult
	if selected(protocolRow) {
		proto = make([]CaseResult, len(cfg.Protocol))
		for i := range cfg.Protocol {
			wg.Add(1)
			sem <- struct{}{}
			go func() {
				defer wg.Done()
				defer func() { <-sem }()
				proto[i] = r.runProto(ctx, &cfg.Protocol[i])
			}()
		}
	}
	wg.Wait()
	// The last cases come after everything else, when a slow node may have spent the run's deadline: each still
	// gets its own call timeout then (a run cancelled outright stops).
	lctx := ctx
	if errors.Is(ctx.Err(), context.DeadlineExceeded) || ctx.Err() == nil {
		lctx = context.WithoutCancel(ctx)
	}
	for _, j := range last {
		res := r.runCase(lctx, j.c)
		j.mr.Results[j.i] = res
		if res.Outcome != Pass {
			r.logf("%-36s %-8s %-30s %s: %s", j.c.Method, j.c.Kind, short(res.Name, 30), res.Outcome, short(res.Reason, 300))
		}
	}
	if proto != nil {
		rep.Methods = append(rep.Methods, &MethodReport{Method: protocolRow, Transport: "http", Results: proto})
	}
	rep.finish(time.Since(start))
	return rep, nil
}

// protocolRow is the report row of the transport cases, which belong to no method.
const protocolRow = "(protocol)"

func (r *runner) runCase(ctx context.Context, c *Case) (res CaseResult) {
	start := time.Now()
	res = CaseResult{Kind: c.Kind.String(), Name: c.Title(), Params: c.Params}
	defer func() { res.Millis = time.Since(start).Milliseconds() }()
	ms := r.spec.Methods[c.Method]
	call := &Call{Env: r.env, Vars: maps.Clone(r.env.vars)}

	if ms.Transport == "ws" || c.WS {
		res.Transport = "ws"
		if r.env.wsURL == "" {
			res.Outcome, res.Reason = NotCovered, "no WebSocket endpoint given (-ws)"
			return res
		}
		dctx, cancel := r.env.withTimeout(ctx)
		conn, err := dialWS(dctx, r.env.wsURL)
		cancel()
		if err != nil {
			res.Outcome, res.Reason = UnexpectedError, "connecting to the WebSocket endpoint: "+err.Error()
			return res
		}
		defer conn.close()
		call.ws = conn
	}
	if c.Setup != nil {
		if err := c.Setup(ctx, call); err != nil {
			res.Outcome, res.Reason = setupOutcome(err)
			return res
		}
	}
	params, err := call.fill(ctx, c.Params)
	if err != nil {
		res.Outcome, res.Reason = setupOutcome(err)
		return res
	}
	res.Params = short(params, 2000)

	cctx, cancel := r.env.withTimeout(ctx)
	var rep *reply
	if call.ws != nil {
		rep, err = call.ws.call(cctx, c.Method, params)
	} else {
		rep, err = r.env.http.call(cctx, c.Method, params)
	}
	cancel()
	if err != nil {
		res.Outcome, res.Reason = UnexpectedError, "no reply: "+err.Error()
		return res
	}
	res.Reply = replyText(rep)
	res.Outcome, res.Reason = r.judge(c, ms, rep, call.Vars)
	if ms.Notification != "" && c.Kind == Valid && rep.Result != nil && res.Outcome == Pass {
		res.Outcome, res.Reason, res.Notifications = r.notifications(ctx, c, ms, call, string(rep.Result))
	}
	return res
}

// setupOutcome classifies an error met before the call: a missing fixture or a method the node lacks is not
// covered; anything else is the node's (or the suite's) fault.
func setupOutcome(err error) (Outcome, string) {
	var mv *missingVar
	switch {
	case errors.As(err, &mv) && mv.NotImpl:
		return NotImplemented, mv.Error()
	case errors.As(err, &mv):
		return NotCovered, mv.Error()
	case notImplemented(err):
		return NotImplemented, "preparing the case: " + err.Error()
	}
	return UnexpectedError, "preparing the case: " + err.Error()
}

func replyText(rep *reply) string {
	switch {
	case rep.Err != nil:
		return short(`{"error":`+string(rep.Err.Raw)+`}`, 2000)
	case rep.Result != nil:
		return short(`{"result":`+string(rep.Result)+`}`, 2000)
	}
	return ""
}

// judge checks one reply: the envelope, then the error against the declared errors or the result against the
// result schema, then what the case itself requires.
func (r *runner) judge(c *Case, ms *MethodSpec, rep *reply, vars Vars) (Outcome, string) {
	if rep.Envelope != nil {
		return SchemaViolation, "the reply is not a JSON-RPC 2.0 response: " + rep.Envelope.Error()
	}
	if e := rep.Err; e != nil {
		if e.Code == -32601 && !(c.Kind == Invalid && c.Code == -32601) {
			return NotImplemented, fmt.Sprintf("%d %s", e.Code, e.Message)
		}
		if !slices.Contains(r.cfg.Undeclared[ms.Name], e.Code) {
			if o, why := checkDeclared(ms, e); o != Pass {
				return o, why
			}
		}
		if c.Kind == Valid {
			if slices.Contains(c.AcceptCodes, e.Code) {
				return Pass, ""
			}
			return UnexpectedError, fmt.Sprintf("expected a result, got error %d %q", e.Code, e.Message)
		}
		if c.Code != 0 && e.Code != c.Code {
			return UnexpectedError, fmt.Sprintf("expected error %d%s, got %d %q", c.Code, quoteIf(c.Message), e.Code, e.Message)
		}
		if c.Message != "" && e.Message != vars.fill(c.Message) {
			return UnexpectedError, fmt.Sprintf("error %d: message is %q, want %q", e.Code, e.Message, vars.fill(c.Message))
		}
		if c.MessageRE != nil && !c.MessageRE.MatchString(e.Message) {
			return UnexpectedError, fmt.Sprintf("error %d: message %q does not match %s", e.Code, e.Message, c.MessageRE)
		}
		v, _ := decodeJSON(e.Raw)
		return runChecks(c.Checks, &Got{Raw: e.Raw, V: v, Vars: vars})
	}
	v, err := decodeJSON(rep.Result)
	if err != nil {
		return SchemaViolation, "the result is not JSON: " + err.Error()
	}
	if c.Kind == Invalid {
		want := "an error"
		if c.Code != 0 {
			want = fmt.Sprintf("error %d%s", c.Code, quoteIf(c.Message))
		}
		return WrongResult, fmt.Sprintf("expected %s, got a result: %s", want, short(string(rep.Result), 300))
	}
	if err := validate(ms.Result, v); err != nil {
		return SchemaViolation, "result does not match the schema of " + ms.Name + ": " + err.Error()
	}
	return runChecks(c.Checks, &Got{Raw: rep.Result, V: v, Vars: vars})
}

func quoteIf(s string) string {
	if s == "" {
		return ""
	}
	return fmt.Sprintf(" %q", s)
}

func runChecks(checks []Check, g *Got) (Outcome, string) {
	for _, ch := range checks {
		if err := ch.Fn(g); err != nil {
			return WrongResult, fmt.Sprintf("%s: %v", ch.Desc, err)
		}
	}
	return Pass, ""
}

// checkDeclared checks an error against the method's declared errors: its code must be declared, its message
// must fit the template of an error with that code, and its data must match that error's data schema (or be
// absent when the error declares none).
func checkDeclared(ms *MethodSpec, e *RPCError) (Outcome, string) {
	var sameCode []*ErrorSpec
	for _, es := range ms.Errors {
		if es.Code == e.Code {
			sameCode = append(sameCode, es)
		}
	}
	if len(sameCode) == 0 {
		return UnexpectedError, fmt.Sprintf("error %d %q is not among the errors %s declares (%s)", e.Code, e.Message, ms.Name, ms.DeclaredCodes())
	}
	var match *ErrorSpec
	for _, es := range sameCode {
		if es.Matches(e.Message) {
			match = es
			break
		}
	}
	if match == nil {
		var ts []string
		for _, es := range sameCode {
			ts = append(ts, fmt.Sprintf("%q (%s)", es.Template, es.Name))
		}
		return UnexpectedError, fmt.Sprintf("error %d: message %q does not fit the declared template %s", e.Code, e.Message, joinSemi(ts))
	}
	switch {
	case match.Data == nil && e.Data != nil:
		return SchemaViolation, fmt.Sprintf("error %d (%s) carries data %s, but the error declares none", e.Code, match.Name, short(string(e.Data), 200))
	case match.Data != nil && e.Data == nil:
		return SchemaViolation, fmt.Sprintf("error %d (%s) has no data, but the error declares a data schema", e.Code, match.Name)
	case match.Data != nil:
		v, err := decodeJSON(e.Data)
		if err != nil {
			return SchemaViolation, "error data is not JSON: " + err.Error()
		}
		if err := validate(match.Data, v); err != nil {
			return SchemaViolation, fmt.Sprintf("error %d (%s) data does not match its schema: %v", e.Code, match.Name, err)
		}
	}
	return Pass, ""
}

// notifications waits for the notifications a subscription must produce, checks each against the notification
// schema, then unsubscribes.
func (r *runner) notifications(ctx context.Context, c *Case, ms *MethodSpec, call *Call, sub string) (Outcome, string, int) {
	n := c.Notify
	final := n != nil && n.Final
	defer func() {
		if final {
			return
		}
		uctx, cancel := r.env.withTimeout(ctx)
		defer cancel()
		_, _ = call.ws.call(uctx, ms.Unsubscribe, "["+sub+"]")
	}()
	if n == nil {
		return Pass, "", 0
	}
	within := n.Within
	if within == 0 {
		within = 20 * time.Second
	}
	if n.Trigger != nil {
		if err := n.Trigger(ctx, call); err != nil {
			o, why := setupOutcome(err)
			return o, "making the node notify: " + why, 0
		}
	}
	timer := time.NewTimer(within)
	defer timer.Stop()
	got := 0
	for got < n.Min || n.Min == 0 {
		select {
		case nt := <-call.ws.notes:
			if nt.Sub != sub {
				continue
			}
			got++
			if nt.Bad != nil {
				return SchemaViolation, fmt.Sprintf("notification %d is malformed: %v", got, nt.Bad), got
			}
			if nt.Method != ms.Notification {
				return SchemaViolation, fmt.Sprintf("notification %d has method %q, want %q", got, nt.Method, ms.Notification), got
			}
			v, err := decodeJSON(nt.Result)
			if err != nil {
				return SchemaViolation, fmt.Sprintf("notification %d: result is not JSON", got), got
			}
			if err := validate(ms.NotifySchema, v); err != nil {
				return SchemaViolation, fmt.Sprintf("%s %d does not match its schema: %v", ms.Notification, got, err), got
			}
		case <-timer.C:
			if got < n.Min {
				return WrongResult, fmt.Sprintf("got %d %s within %s, want at least %d", got, ms.Notification, within, n.Min), got
			}
			return Pass, "", got
		case <-ctx.Done():
			return UnexpectedError, ctx.Err().Error(), got
		}
	}
	if final {
		// The node must have removed the subscription: unsubscribing now is an invalid id.
		uctx, cancel := r.env.withTimeout(ctx)
		defer cancel()
		if rep, err := call.ws.call(uctx, ms.Unsubscribe, "["+sub+"]"); err == nil && rep.Result != nil && string(rep.Result) == "true" {
			return WrongResult, fmt.Sprintf("the subscription was still there after its first %s (%s answered true)", ms.Notification, ms.Unsubscribe), got
		}
	}
	return Pass, "", got
}
