package ledger

import (
	"sync"

	"ledgerd/impl/core"
)

// The checks a developer may relax (ledgerd_impersonate, ledgerd_setSigVerify, ledgerd_setBlockhashCheck):
// with them a test sends transactions from accounts whose keys it does not hold, or built against a blockhash
// the node never produced. They live in memory, for sendTransaction and simulateTransaction alike, and are off
// on a fresh node: every signature verified, every blockhash checked against the queue.
type relaxedChecks struct {
	mu           sync.RWMutex
	sigOff       bool
	blockhashOff bool
	impersonated map[core.Pubkey]struct{}
}

// Impersonate lets transactions whose only missing or invalid signatures are key's (and other impersonated
// addresses') pass signature verification.
func (l *Ledger) Impersonate(key core.Pubkey) {
	c := &l.checks
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.impersonated == nil {
		c.impersonated = make(map[core.Pubkey]struct{})
	}
	c.impersonated[key] = struct{}{}
}

// StopImpersonating verifies key's signatures again; it reports whether key was impersonated.
func (l *Ledger) StopImpersonating(key core.Pubkey) bool {
	c := &l.checks
	c.mu.Lock()
	defer c.mu.Unlock()
	_, ok := c.impersonated[key]
	delete(c.impersonated, key)
	return ok
}

// SetSigVerify turns signature verification of submitted and simulated transactions on or off.
func (l *Ledger) SetSigVerify(on bool) {
	l.checks.mu.Lock()
	l.checks.sigOff = !on
	l.checks.mu.Unlock()
}

// SetBlockhashCheck turns the recent-blockhash check on or off: off, a transaction whose blockhash is neither in
// the queue nor a durable nonce is run at the newest blockhash's fee rate instead of refused (BlockhashNotFound).
func (l *Ledger) SetBlockhashCheck(on bool) {
	l.checks.mu.Lock()
	l.checks.blockhashOff = !on
	l.checks.mu.Unlock()
}

// SignaturesAccepted reports whether tx passes signature verification: every signature valid, or verification
// off, or each missing or invalid signature belongs to an impersonated address.
func (l *Ledger) SignaturesAccepted(tx *core.Transaction) bool {
	c := &l.checks
	c.mu.RLock()
	off, some := c.sigOff, len(c.impersonated) > 0
	c.mu.RUnlock()
	if off {
		return true
	}
	if tx.VerifySignatures() {
		return true
	}
	if !some {
		return false
	}
	keys := tx.Message.AccountKeys
	if len(tx.Signatures) != int(tx.Message.Header.NumRequiredSignatures) {
		return false
	}
	results := tx.VerifyWithResults()
	c.mu.RLock()
	defer c.mu.RUnlock()
	for i, ok := range results {
		if ok {
			continue
		}
		if i >= len(keys) {
			return false
		}
		if _, imp := c.impersonated[keys[i]]; !imp {
			return false
		}
	}
	return true
}

// uncheckedBlockhash is the runtime's UncheckedBlockhash for a transaction run against b: nil while the check
// is on; off, the newest blockhash's fee rate.
func (l *Ledger) uncheckedBlockhash(b *Bank) func() uint64 {
	l.checks.mu.RLock()
	off := l.checks.blockhashOff
	l.checks.mu.RUnlock()
	if !off {
		return nil
	}
	return func() uint64 {
		lps, _ := b.BlockhashValid(b.LastBlockhash())
		return lps
	}
}
