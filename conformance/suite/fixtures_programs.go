package suite

import (
	"context"
	"fmt"
	"time"

	"ledgerd/generated/rpcapi"
	"ledgerd/impl/core"
	"ledgerd/impl/programs/alt"
	"ledgerd/impl/programs/ata"
	"ledgerd/impl/programs/system"
	"ledgerd/impl/programs/token"
)

// Token fixture amounts: a 6-decimal mint, 1 token minted to the wallet's associated account, a delegate
// allowed 0.001 of it.
const (
	fixtureDecimals  = 6
	fixtureMinted    = 1_000_000
	fixtureDelegated = 1_000
	mintRentExempt   = 1_461_600 // (128 + 82) x 6960, the rent-exempt minimum of a mint
)

// prepareToken creates, through the endpoint, an SPL Token mint owned by the wallet, the wallet's associated
// token account holding fixtureMinted, and a delegate approved for fixtureDelegated.
func prepareToken(ctx context.Context, e *Env) (Vars, error) {
	if e.payer.IsZero() {
		return nil, e.missingOr("wallet")
	}
	mint, err := core.NewKeypair()
	if err != nil {
		return nil, err
	}
	delegate := randomKey()
	owner := e.payer.PublicKey()
	account := ata.Address(owner, mint.PublicKey(), core.TokenProgramID)
	bh, err := e.latestBlockhash(ctx)
	if err != nil {
		return nil, err
	}
	tx, err := core.NewTransaction(owner, []core.Instruction{
		system.CreateAccount(owner, mint.PublicKey(), mintRentExempt, token.MintSize, core.TokenProgramID),
		token.InitializeMint2(core.TokenProgramID, mint.PublicKey(), owner, nil, fixtureDecimals),
		ata.Create(owner, owner, mint.PublicKey(), core.TokenProgramID),
		token.MintTo(core.TokenProgramID, mint.PublicKey(), account, owner, nil, fixtureMinted),
		token.Approve(core.TokenProgramID, account, delegate, owner, nil, fixtureDelegated),
	}, bh, e.payer, mint)
	if err != nil {
		return nil, err
	}
	sig, err := e.send(ctx, tx)
	if err != nil {
		return nil, err
	}
	if _, err := e.waitFinalized(ctx, sig); err != nil {
		return nil, fmt.Errorf("token setup %s: %w", sig, err)
	}
	return Vars{"mint": mint.PublicKey().String(), "tokenAccount": account.String(), "tokenOwner": owner.String(),
		"tokenDelegate": delegate.String()}, nil
}

// prepareLookupTable creates and extends an address lookup table through the endpoint, waits a slot (a table
// serves its addresses from the slot after their extension), then sends a version 0 transfer that loads its
// recipient from the table.
func prepareLookupTable(ctx context.Context, e *Env) (Vars, error) {
	if e.payer.IsZero() {
		return nil, e.missingOr("wallet")
	}
	payer := e.payer.PublicKey()
	// The table's recent slot must be in the SlotHashes of the bank that checks it, the finalized one for the
	// preflight: its parent is the newest slot there.
	cctx, cancel := e.withTimeout(ctx)
	slot, err := e.client.GetSlot(cctx, &rpcapi.GetSlotParams{})
	cancel()
	if err != nil {
		return nil, fmt.Errorf("getSlot: %w", err)
	}
	if slot > 0 {
		slot--
	}
	recipient := randomKey()
	create, table := alt.CreateLookupTable(payer, payer, slot)
	extend := alt.ExtendLookupTable(table, payer, &payer, []core.Pubkey{recipient})
	bh, err := e.latestBlockhash(ctx)
	if err != nil {
		return nil, err
	}
	tx, err := core.NewTransaction(payer, []core.Instruction{create, extend}, bh, e.payer)
	if err != nil {
		return nil, err
	}
	sig, err := e.send(ctx, tx)
	if err != nil {
		return nil, err
	}
	extSlot, err := e.waitFinalized(ctx, sig)
	if err != nil {
		return nil, fmt.Errorf("lookup table setup %s: %w", sig, err)
	}
	// The finalized blockhash a v0 transaction is signed with belongs to a slot after the extension.
	var bh2 core.Hash
	deadline := time.Now().Add(e.waitTimeout)
	for {
		cctx, cancel := e.withTimeout(ctx)
		r, err := e.client.GetLatestBlockhash(cctx, &rpcapi.GetLatestBlockhashParams{})
		cancel()
		if err != nil {
			return nil, fmt.Errorf("getLatestBlockhash: %w", err)
		}
		if r.Context.Slot > extSlot {
			if bh2, err = core.ParseHash(r.Value.Blockhash); err != nil {
				return nil, err
			}
			break
		}
		if time.Now().After(deadline) {
			return nil, fmt.Errorf("the chain did not move past slot %d", extSlot)
		}
		time.Sleep(50 * time.Millisecond)
	}
	m, err := core.CompileV0Message(payer, []core.Instruction{core.TransferInstruction(payer, recipient, transferLamports)},
		[]core.AddressLookupTableAccount{{Key: table, Addresses: []core.Pubkey{recipient}}}, bh2)
	if err != nil {
		return nil, err
	}
	v0, err := core.NewSignedTransaction(m, e.payer)
	if err != nil {
		return nil, err
	}
	v0Sig, err := e.send(ctx, v0)
	if err != nil {
		return nil, err
	}
	v0Slot, err := e.waitFinalized(ctx, v0Sig)
	if err != nil {
		return nil, fmt.Errorf("version 0 transfer %s: %w", v0Sig, err)
	}
	return Vars{"lookupTable": table.String(), "v0Sig": v0Sig, "v0Slot": fmt.Sprint(v0Slot)}, nil
}
