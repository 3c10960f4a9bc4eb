package main

import (
	"context"
	"encoding/base64"
	"fmt"
	"path/filepath"

	"ledgerd/generated/rpcapi"
	"ledgerd/generated/rpcclient"
	"ledgerd/impl/core"
	"ledgerd/impl/ledger"
	"ledgerd/impl/programs/ata"
	"ledgerd/impl/programs/system"
	"ledgerd/impl/programs/token"
)

// tokenDecimals is the decimals of the benchmark's mints.
const tokenDecimals = 6

// tokenSetupPerTx is how many payers one setup transaction funds and gives an associated token account with
// tokens: a SOL transfer, ata.Create and MintTo each, about 110 bytes a payer in a legacy transaction.
const tokenSetupPerTx = 8

// figureTokenTransfers is figure 5: SPL Token TransferChecked transactions sent with sendTransaction (base64)
// over HTTP, as figure 3 sends SOL transfers. A mint, and for each payer its associated token account holding
// tokens, are set up through the endpoint and finalized before the clock starts; each transfer moves tokens
// from payer i's account to payer i+1's, signed and paid by payer i.
func figureTokenTransfers(cfg *config) []row {
	return tokenTransferRows(cfg, "5", "token transfers", filepath.Join(cfg.tmp, "tokens"), func(dir string) (server, error) {
		return startNode(cfg.bin, dir, cfg.inProcess, ledger.DefaultSlotDuration)
	})
}

// tokenTransferRows measures the token transfers of figure n (what names them in the table) on a node that start
// starts on dir, and records each rate in cfg.tokenRates under n.
func tokenTransferRows(cfg *config, n, what, dir string, start func(dir string) (server, error)) []row {
	name := n + " " + what + " via sendTransaction"
	skip := func(err error) []row { return []row{{figure: name, mark: markSkip, note: err.Error()}} }
	srv, err := start(dir)
	if err != nil {
		return skip(err)
	}
	defer stop(cfg, srv)
	ctx := context.Background()
	cl := rpcclient.New(srv.URL())
	faucet, err := core.ReadKeypairFile(filepath.Join(dir, ledger.FaucetFile))
	if err != nil {
		return skip(err)
	}
	keys := make([]core.Keypair, payers)
	for i := range keys {
		var seed [32]byte
		copy(seed[:], fmt.Sprintf("ledgerd-bench token payer %d", i))
		keys[i] = core.KeypairFromSeed(seed)
	}
	mint, accounts, err := setupTokens(ctx, cl, faucet, keys)
	if err != nil {
		return skip(fmt.Errorf("setting up the mint and token accounts: %w", err))
	}
	cfg.logf("mint and %d payers with token accounts set up and finalized", payers)

	var rows []row
	for _, skipPreflight := range []bool{false, true} {
		figure := fmt.Sprintf("%s %s, skipPreflight=%v", n, what, skipPreflight)
		if skipPreflight {
			figure = fmt.Sprintf("%*s %s, skipPreflight=true", len(n), "", what)
		}
		r, err := sendSigned(cfg, cl, srv.URL(), srv.Pid(), "TransferChecked", skipPreflight, func(i int, bh core.Hash) (*core.Transaction, error) {
			from := keys[i%payers]
			ix := token.TransferChecked(token.ProgramID, accounts[i%payers], mint, accounts[(i+1)%payers], from.PublicKey(), nil,
				uint64(1+i/payers), tokenDecimals)
			return core.NewTransaction(from.PublicKey(), []core.Instruction{ix}, bh, from)
		})
		if err != nil {
			rows = append(rows, row{figure: figure, mark: markSkip, note: err.Error()})
			continue
		}
		cfg.tokenRates[tokenRateKey{n, skipPreflight}] = r.rate
		note := r.note
		if n != "5" {
			if native, ok := cfg.tokenRates[tokenRateKey{"5", skipPreflight}]; ok {
				note = fmt.Sprintf("%.2fx of figure 5's native program in this run; %s", r.rate/native, note)
			}
		}
		rows = append(rows, row{figure: figure, measured: thousands(r.rate) + " tx/s", target: "≥ 3,000/s",
			mark: mark(r.rate >= 3000), note: note})
	}
	return rows
}

// setupTokens creates a mint (the faucet its authority) and, for each payer, 100 SOL and an associated token
// account holding a billion base units, all through sendTransaction, and waits until they are finalized
// (preflight reads the finalized bank by default). It returns the mint and the payers' token accounts.
func setupTokens(ctx context.Context, cl *rpcclient.Client, faucet core.Keypair, keys []core.Keypair) (core.Pubkey, []core.Pubkey, error) {
	var seed [32]byte
	copy(seed[:], "ledgerd-bench mint")
	mintKey := core.KeypairFromSeed(seed)
	mint := mintKey.PublicKey()
	rent, err := cl.GetMinimumBalanceForRentExemption(ctx, &rpcapi.GetMinimumBalanceForRentExemptionParams{DataLength: token.MintSize})
	if err != nil {
		return mint, nil, err
	}
	bh, err := latestBlockhash(ctx, cl)
	if err != nil {
		return mint, nil, err
	}
	tx, err := core.NewTransaction(faucet.PublicKey(), []core.Instruction{
		system.CreateAccount(faucet.PublicKey(), mint, rent, token.MintSize, token.ProgramID),
		token.InitializeMint2(token.ProgramID, mint, faucet.PublicKey(), nil, tokenDecimals),
	}, bh, faucet, mintKey)
	if err != nil {
		return mint, nil, err
	}
	sig, err := sendTx(ctx, cl, tx)
	if err != nil {
		return mint, nil, err
	}
	// The token accounts need the mint: wait until it is processed, and preflight them on the processed bank.
	if err := waitStatus(ctx, cl, []string{sig}, rpcapi.TransactionConfirmationStatusProcessed); err != nil {
		return mint, nil, err
	}
	accounts := make([]core.Pubkey, len(keys))
	sigs := []string{sig}
	for start := 0; start < len(keys); start += tokenSetupPerTx {
		var ixs []core.Instruction
		for i := start; i < min(len(keys), start+tokenSetupPerTx); i++ {
			wallet := keys[i].PublicKey()
			accounts[i] = ata.Address(wallet, mint, token.ProgramID)
			ixs = append(ixs,
				core.TransferInstruction(faucet.PublicKey(), wallet, 100*ledger.LamportsPerSOL),
				ata.Create(faucet.PublicKey(), wallet, mint, token.ProgramID),
				token.MintTo(token.ProgramID, mint, accounts[i], faucet.PublicKey(), nil, 1_000_000_000))
		}
		tx, err := core.NewTransaction(faucet.PublicKey(), ixs, bh, faucet)
		if err != nil {
			return mint, nil, err
		}
		if n := len(tx.Serialize()); n > core.PacketDataSize {
			return mint, nil, fmt.Errorf("setup transaction of %d bytes", n)
		}
		sig, err := cl.SendTransaction(ctx, &rpcapi.SendTransactionParams{
			Transaction: base64.StdEncoding.EncodeToString(tx.Serialize()),
			Config:      rpcapi.Some(rpcapi.SendTransactionConfig{Encoding: ptr("base64"), PreflightCommitment: ptr(rpcapi.CommitmentProcessed)}),
		})
		if err != nil {
			return mint, nil, err
		}
		sigs = append(sigs, sig)
	}
	return mint, accounts, waitFinalized(ctx, cl, sigs)
}
