package main

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strconv"
	"time"

	"ledgerd/conformance/realelf"
	"ledgerd/generated/rpcapi"
	"ledgerd/generated/rpcclient"
	"ledgerd/impl/core"
	"ledgerd/impl/core/sysvar"
	"ledgerd/impl/ledger"
	"ledgerd/impl/node"
	"ledgerd/impl/programs/loader"
)

// tokenRateKey names a token transfer rate: the figure and whether preflight was skipped.
type tokenRateKey struct {
	figure        string
	skipPreflight bool
}

// figureTokenTransfersELF is figure 7: figure 5's token transfers, setup included, on a node started with
// `--bpf-program TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA spl_token-3.5.0.so`, so that every token instruction
// (those of the associated token account program's CPIs too) runs the real build in ledgerd's VM. Its note gives
// the rate as a ratio to figure 5's native program when both ran in the same invocation.
func figureTokenTransfersELF(cfg *config) []row {
	const what = "token transfers, real SPL Token ELF"
	elf, err := tokenELF(cfg)
	if err != nil {
		return []row{{figure: "7 " + what, mark: markSkip, note: err.Error()}}
	}
	cfg.logf("SPL Token from %s", elf)
	return tokenTransferRows(cfg, "7", what, filepath.Join(cfg.tmp, "tokens-elf"), func(dir string) (server, error) {
		var s server
		var err error
		if cfg.inProcess {
			s, err = startInProcWithProgram(dir, core.TokenProgramID, elf)
		} else {
			s, _, err = startLedgerd(cfg.bin, dir, "--slot-ms", strconv.Itoa(int(ledger.DefaultSlotDuration/time.Millisecond)),
				"--bpf-program", core.TokenProgramID.String(), elf)
		}
		if err != nil {
			return nil, err
		}
		if err := waitFinalizedPast(cl(s), 0, time.Minute); err != nil {
			stop(cfg, s)
			return nil, err
		}
		return s, nil
	})
}

func cl(s server) *rpcclient.Client { return rpcclient.New(s.URL()) }

// waitFinalizedPast waits until the finalized slot is past slot. The setup's first transaction is preflighted on
// the finalized bank, and a program deployed at genesis (slot 0) runs from slot 1, as a deployment runs from the
// slot after it: in slot 0's bank the token program is not yet there (UnsupportedProgramId).
func waitFinalizedPast(c *rpcclient.Client, slot uint64, timeout time.Duration) error {
	ctx := context.Background()
	for deadline := time.Now().Add(timeout); ; time.Sleep(100 * time.Millisecond) {
		s, err := c.GetSlot(ctx, &rpcapi.GetSlotParams{})
		if err != nil {
			return err
		}
		if uint64(s) > slot {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("the finalized slot is still %d after %v", s, timeout)
		}
	}
}

// tokenELF is the path of the SPL Token build: -token-elf, or else SPL Token 3.5.0 cut out of npm litesvm@1.5.0
// (installed into conformance/parity when missing, as make real-programs does) and written to the run's directory.
func tokenELF(cfg *config) (string, error) {
	if cfg.tokenELF != "" {
		return filepath.Abs(cfg.tokenELF)
	}
	progs, err := realelf.Load(context.Background(), cfg.logf)
	if err != nil {
		return "", fmt.Errorf("the real SPL Token build (-token-elf FILE gives one): %w", err)
	}
	paths, err := realelf.WriteFiles(filepath.Join(cfg.tmp, "programs"), map[realelf.Name]realelf.Program{
		realelf.SPLToken: progs[realelf.SPLToken]})
	if err != nil {
		return "", err
	}
	return paths[realelf.SPLToken], nil
}

// startInProcWithProgram is startInProc with the ELF at program in the new ledger's genesis, laid out as
// ledgerd's --bpf-program lays it out.
func startInProcWithProgram(dir string, program core.Pubkey, elfPath string) (*inProc, error) {
	elf, err := os.ReadFile(elfPath)
	if err != nil {
		return nil, err
	}
	g := loader.NewGenesisProgram(program, elf, core.Pubkey{}, sysvar.DefaultRent())
	n, err := node.Start(node.Config{LedgerDir: dir, RPCPort: -1, WSPort: -1, SlotDuration: ledger.DefaultSlotDuration,
		Genesis: ledger.GenesisOptions{Accounts: []ledger.GenesisAccount{
			{Pubkey: g.ProgramData, Lamports: g.ProgramDataAcc.Lamports, Owner: g.ProgramDataAcc.Owner,
				RentEpoch: g.ProgramDataAcc.RentEpoch, Data: g.ProgramDataAcc.Data},
			{Pubkey: g.Program, Lamports: g.ProgramAccount.Lamports, Owner: g.ProgramAccount.Owner,
				Executable: true, RentEpoch: g.ProgramAccount.RentEpoch, Data: g.ProgramAccount.Data},
		}},
		Logger: slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))})
	if err != nil {
		return nil, err
	}
	if err := waitHealthy(n.HTTPURL, nil, 30*time.Second); err != nil {
		_ = n.Close(context.Background())
		return nil, err
	}
	return &inProc{n: n}, nil
}
