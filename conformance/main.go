// Command conformance checks a JSON-RPC node of the protocol against the schema (generated/openrpc.json) and the
// reference node's behaviour, and reports per method what passed and what did not.
//
//	go run ./conformance -url http://127.0.0.1:8899 [-ws ws://127.0.0.1:8900] [-json out.json] [-html out.html] [-strict]
//
// It prepares its own state through the endpoint (an airdrop to a fresh keypair, a transfer), then calls every
// method of the schema with valid and invalid params. It exits 1 when anything failed, 2 when it could not run.
// Methods the node answers with -32601 ("not implemented by this node") and cases it could not run are not
// covered: they fail the run only with -strict.
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"regexp"
	"time"

	"ledgerd/conformance/suite"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("conformance", flag.ContinueOnError)
	fs.SetOutput(stderr)
	url := fs.String("url", "", "the node's JSON-RPC HTTP endpoint, e.g. http://127.0.0.1:8899 (required)")
	ws := fs.String("ws", "", "the node's PubSub WebSocket endpoint, e.g. ws://127.0.0.1:8900 (without it the subscriptions are not covered)")
	jsonOut := fs.String("json", "", "write the report as JSON to this file")
	htmlOut := fs.String("html", "", "write a self-contained HTML report to this file")
	strict := fs.Bool("strict", false, `fail on methods the node does not implement and cases that could not run`)
	methods := fs.String("run", "", "only the methods matching this regular expression")
	schema := fs.String("schema", "", "the OpenRPC document to check against (default: the one built in, generated/openrpc.json)")
	parallel := fs.Int("parallel", 8, "cases run at once")
	timeout := fs.Duration("timeout", 10*time.Second, "timeout of one call")
	wait := fs.Duration("wait", 60*time.Second, "how long to wait for a prepared transaction to be finalized")
	verbose := fs.Bool("v", false, "print setup steps and every case that did not pass as it happens")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if *url == "" || fs.NArg() > 0 {
		fmt.Fprintln(stderr, "usage: conformance -url http://HOST:PORT [-ws ws://HOST:PORT] [-json out.json] [-html out.html] [-strict]")
		fs.PrintDefaults()
		return 2
	}
	cfg := suite.Config{URL: *url, WSURL: *ws, Strict: *strict, Parallel: *parallel, CallTimeout: *timeout, WaitTimeout: *wait}
	if *methods != "" {
		re, err := regexp.Compile(*methods)
		if err != nil {
			fmt.Fprintf(stderr, "conformance: -run: %v\n", err)
			return 2
		}
		cfg.Methods = re
	}
	if *schema != "" {
		doc, err := os.ReadFile(*schema)
		if err != nil {
			fmt.Fprintf(stderr, "conformance: %v\n", err)
			return 2
		}
		cfg.Document = doc
	}
	if *verbose {
		cfg.Log = stderr
	}

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	rep, err := suite.Run(ctx, cfg)
	if err != nil {
		fmt.Fprintf(stderr, "conformance: %v\n", err)
		return 2
	}
	if err := rep.WriteText(stdout); err != nil {
		fmt.Fprintf(stderr, "conformance: %v\n", err)
		return 2
	}
	for _, out := range []struct {
		path  string
		write func(io.Writer) error
	}{{*jsonOut, rep.WriteJSON}, {*htmlOut, rep.WriteHTML}} {
		if out.path == "" {
			continue
		}
		if err := writeFile(out.path, out.write); err != nil {
			fmt.Fprintf(stderr, "conformance: %v\n", err)
			return 2
		}
	}
	if !rep.OK() {
		return 1
	}
	return 0
}

func writeFile(path string, write func(io.Writer) error) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := write(f); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
