//go:build unix

// Command realelf writes the real program builds bundled in npm litesvm@1.5.0 (SPL Token 3.5.0, p-token, Token-2022
// 11.0.0, Memo 1.0.0 and 4.0.0, Associated Token Account 1.1.1, Address Lookup Table, Stake 5.0.0) to a directory as
// <name>.so, for starting ledgerd with the exact builds. It installs the npm packages conformance/parity pins when
// they are missing (npm ci; node and npm must be installed) and checks each build's sha256.
//
//	go run ./conformance/realelf/cmd/realelf -o programs
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"slices"

	"ledgerd/conformance/realelf"
)

func main() {
	out := flag.String("o", "programs", "the directory to write <name>.so into")
	flag.Parse()
	if flag.NArg() > 0 {
		fmt.Fprintln(os.Stderr, "realelf: no arguments expected; usage: realelf [-o DIR]")
		os.Exit(2)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	logf := func(format string, args ...any) { fmt.Fprintf(os.Stderr, format+"\n", args...) }
	progs, err := realelf.Load(ctx, logf)
	if err != nil {
		fmt.Fprintln(os.Stderr, "realelf:", err)
		os.Exit(1)
	}
	paths, err := realelf.WriteFiles(*out, progs)
	if err != nil {
		fmt.Fprintln(os.Stderr, "realelf:", err)
		os.Exit(1)
	}
	names := realelf.Names()
	slices.Sort(names)
	for _, n := range names {
		p := progs[n]
		fmt.Printf("%-52s %7d bytes  %-35s %-44s loader %s  sha256 %x\n", paths[n], len(p.ELF), realelf.Describe(n), p.ID, p.Loader, p.SHA256)
	}
}
