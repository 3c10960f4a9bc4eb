package ledger

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"ledgerd/impl/core"
	"ledgerd/impl/runtime"
)

// The faucet is the genesis faucet keypair; requestAirdrop is a transfer from it, executed like any transaction.
// Like the reference's faucet it refuses a request over the per-request cap, and, when a per-time cap is set, a
// request that would give one recipient more than that cap within one time slice (the reference's faucet counts
// per recipient and per requesting IP, but exempts loopback clients: the recipient is the count that applies to
// a local node). The test validator's faucet has no per-time cap unless one is configured, and neither has
// ledgerd. An empty faucet, or a capped recipient, is refused before anything is executed, with an error that
// says so.

// DefaultFaucetTimeSlice is the period of the faucet's per-time cap (the reference's TIME_SLICE, 60 s).
const DefaultFaucetTimeSlice = 60 * time.Second

// ErrAirdropTooLarge is returned for an airdrop over the per-request cap.
var ErrAirdropTooLarge = errors.New("airdrop request too large")

// FaucetEmptyError refuses an airdrop the faucet cannot pay: it holds Available lamports, and the request needs
// Needed (the amount and the transaction fee).
type FaucetEmptyError struct{ Available, Needed uint64 }

func (e *FaucetEmptyError) Error() string {
	return fmt.Sprintf("airdrop refused: the faucet holds %d lamports, the request needs %d", e.Available, e.Needed)
}

// FaucetLimitError refuses an airdrop that would pass the per-time cap of its recipient: Given lamports went to
// it in the current slice of Slice.
type FaucetLimitError struct {
	Recipient      core.Pubkey
	Requested, Cap uint64
	Given          uint64
	Slice          time.Duration
}

func (e *FaucetLimitError) Error() string {
	return fmt.Sprintf("airdrop refused: %s may receive at most %d lamports every %s; %d given, %d requested",
		e.Recipient, e.Cap, e.Slice, e.Given, e.Requested)
}

// AirdropFailedError is an airdrop transaction that could not be processed at all (nothing recorded, no fee
// paid). One that was processed and failed is answered with its signature, as the reference's faucet does.
type AirdropFailedError struct{ Err *runtime.TransactionError }

func (e *AirdropFailedError) Error() string { return "airdrop failed: " + e.Err.Error() }

// faucetLimiter counts what each recipient received in the current time slice; the counts start afresh each
// slice, as the reference's faucet clears its caches every slice.
type faucetLimiter struct {
	mu         sync.Mutex
	sliceStart time.Time
	given      map[core.Pubkey]uint64
}

// reserve counts lamports for to, or refuses them; release gives back a reservation of an airdrop that did not
// happen.
// A cap of 0 counts nothing.
func (f *faucetLimiter) reserve(to core.Pubkey, lamports, limit uint64, slice time.Duration, now time.Time) error {
	if limit == 0 {
		return nil
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.given == nil || now.Sub(f.sliceStart) >= slice || now.Before(f.sliceStart) {
		f.given, f.sliceStart = map[core.Pubkey]uint64{}, now
	}
	given := f.given[to]
	if lamports > limit || given > limit-lamports {
		return &FaucetLimitError{Recipient: to, Requested: lamports, Cap: limit, Given: given, Slice: slice}
	}
	f.given[to] = given + lamports
	return nil
}

func (f *faucetLimiter) release(to core.Pubkey, lamports uint64) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if g, ok := f.given[to]; ok {
		f.given[to] = g - min(g, lamports)
	}
}

// Airdrop transfers lamports from the faucet to to, through the producer like any transaction, and returns
// its signature once it is processed, whether the transfer succeeded or failed on chain.
func (l *Ledger) Airdrop(ctx context.Context, to core.Pubkey, lamports uint64) (core.Signature, error) {
	if lamports > l.cfg.AirdropCap {
		return core.Signature{}, fmt.Errorf("%w: requested %d lamports, the cap is %d", ErrAirdropTooLarge, lamports, l.cfg.AirdropCap)
	}
	slice := cmp.Or(l.cfg.AirdropTimeSlice, DefaultFaucetTimeSlice)
	if err := l.faucet.reserve(to, lamports, l.cfg.AirdropPerTimeCap, slice, l.cfg.Now()); err != nil {
		return core.Signature{}, err
	}
	sig, landed, err := l.airdrop(ctx, to, lamports)
	if err != nil || !landed {
		// What the recipient did not get does not count against its cap.
		l.faucet.release(to, lamports)
	}
	return sig, err
}

// airdrop runs the faucet's transfer; landed reports that it succeeded (a transfer that failed on chain has a
// signature too).
func (l *Ledger) airdrop(ctx context.Context, to core.Pubkey, lamports uint64) (sig core.Signature, landed bool, err error) {
	// Airdrops run one at a time so that identical requests get different blockhashes (an identical transaction
	// would be refused as already processed): each try uses the next older valid blockhash.
	l.airdropMu.Lock()
	defer l.airdropMu.Unlock()
	faucet := l.Genesis.Faucet.PublicKey()
	tried := map[core.Hash]bool{}
	for wait := 0; wait < 20; wait++ {
		bank := l.Bank(Processed)
		// The transfer's fee is one signature's; the faucet pays both.
		needed := lamports + runtime.DefaultLamportsPerSignature
		acct, _, err := bank.Account(faucet) // a failed read is a storage error, never an empty faucet
		if err != nil {
			return core.Signature{}, false, err
		}
		if acct.Lamports < needed || needed < lamports {
			return core.Signature{}, false, &FaucetEmptyError{Available: acct.Lamports, Needed: needed}
		}
		for _, h := range bank.recentBlockhashes(MaxProcessingAge / 2) {
			if tried[h] {
				continue
			}
			tried[h] = true
			tx := core.NewTransferTx(l.Genesis.Faucet, to, lamports, h)
			ex, err := l.Execute(ctx, tx)
			if err != nil {
				return core.Signature{}, false, err
			}
			switch res := ex.Result; {
			case res.Err == nil:
				return tx.Signature(), true, nil
			case res.Err.Kind == runtime.TxInsufficientFundsForFee || isInsufficientFunds(res.Err):
				// Another transfer from the faucet got in first.
				acct, _ := l.Bank(Processed).GetAccount(faucet)
				return core.Signature{}, false, &FaucetEmptyError{Available: acct.Lamports, Needed: needed}
			case res.Processed:
				// The reference's faucet hands its transaction to the node without preflight and answers its
				// signature whatever the outcome: a transfer that fails on chain (too small to make a new account
				// rent-exempt, for one) is recorded, fee paid, and its signature is the answer.
				return tx.Signature(), false, nil
			case res.Err.Kind != runtime.TxAlreadyProcessed && res.Err.Kind != runtime.TxBlockhashNotFound:
				return core.Signature{}, false, &AirdropFailedError{Err: res.Err}
			}
		}
		// Every usable blockhash carried an identical airdrop already: wait for the next slot's.
		if l.cfg.BlockProduction == ProduceOnRequest {
			return core.Signature{}, false, errManualAirdrop // no slot comes unless asked: waiting would hang
		}
		for l.Bank(Processed) == bank {
			select {
			case <-ctx.Done():
				return core.Signature{}, false, ctx.Err()
			case <-l.stop:
				return core.Signature{}, false, errClosed
			case <-time.After(l.cfg.SlotDuration / 4):
			}
		}
	}
	return core.Signature{}, false, errors.New("airdrop failed: no unused blockhash for an identical request")
}

// isInsufficientFunds reports the system program's refusal of a transfer larger than the payer's balance.
func isInsufficientFunds(e *runtime.TransactionError) bool {
	return e.Kind == runtime.TxInstructionError && e.Instruction.Kind == runtime.IxInsufficientFunds
}
