// Command ledgerd runs a single-node ledger of the Solana protocol with its JSON-RPC HTTP and WebSocket endpoints.
// Its flags are named as users of the reference test validator know them.
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"syscall"
	"time"

	"ledgerd/impl/node"
)

func main() {
	if err := run(os.Args[1:], os.Stdout, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "ledgerd:", err)
		os.Exit(1)
	}
}

func run(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("ledgerd", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var cfg node.Config
	fs.StringVar(&cfg.LedgerDir, "ledger", "test-ledger", "ledger directory (created when absent)")
	fs.BoolVar(&cfg.Reset, "reset", false, "start a new chain, deleting the ledger directory first")
	fs.IntVar(&cfg.RPCPort, "rpc-port", 8899, "JSON-RPC HTTP port")
	fs.IntVar(&cfg.WSPort, "ws-port", 0, "WebSocket (PubSub) port (default rpc-port + 1)")
	fs.StringVar(&cfg.BindAddress, "bind-address", "127.0.0.1", "address to serve on")
	fs.Int64Var(&cfg.MaxBodyBytes, "rpc-max-request-body-size", 51200, "largest JSON-RPC request body in bytes")
	logLevel := fs.String("log-level", "info", "log level: debug, info, warn or error")
	if err := fs.Parse(args); err != nil {
		return err
	}
	var level slog.Level
	if err := level.UnmarshalText([]byte(*logLevel)); err != nil {
		return fmt.Errorf("--log-level: %w", err)
	}
	cfg.Logger = slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: level}))

	// Listen for signals before announcing the URLs, so a signal sent as soon as they appear is not missed.
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, syscall.SIGINT, syscall.SIGTERM)
	n, err := node.Start(cfg)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "Ledger location: %s\nIdentity: %s\nGenesis Hash: %s\nJSON RPC URL: %s\nWebSocket PubSub URL: %s\n",
		n.Genesis.Dir, n.Genesis.IdentityPubkey(), n.Genesis.HashString(), n.HTTPURL, n.WSURL)

	select {
	case s := <-sig:
		cfg.Logger.Info("shutting down", "signal", s.String())
	case err := <-n.Done():
		if err != nil {
			return err
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	return n.Close(ctx)
}
