package ledger

import (
	"ledgerd/impl/core"
	"ledgerd/impl/programs/token"
	"ledgerd/impl/runtime"
	"ledgerd/impl/store"
)

// Token accounts are indexed by owner, mint and delegate so that getTokenAccountsByOwner and friends cost what
// they match. The layout is the token programs' (impl/programs/token reads it).

// IndexKind re-exports the store's secondary index kinds for the token queries.
type IndexKind = store.IndexKind

const (
	IndexTokenOwner    = store.IndexTokenOwner
	IndexTokenMint     = store.IndexTokenMint
	IndexTokenDelegate = store.IndexTokenDelegate
)

// tokenAccountKeys returns the owner, mint and (when set) delegate of an initialized token account of either
// token program.
func tokenAccountKeys(a *runtime.Account) (owner, mint core.Pubkey, delegate *core.Pubkey, ok bool) {
	if a.Lamports == 0 || !token.IsProgramID(a.Owner) {
		return owner, mint, nil, false
	}
	mint, owner, ok = token.AccountMintOwner(a.Data)
	if !ok {
		return owner, mint, nil, false
	}
	if d, set := token.AccountDelegate(a.Data); set {
		delegate = &d
	}
	return owner, mint, delegate, true
}

// indexTokenAccount files a written account under its token keys.
func indexTokenAccount(b *store.Batch, k core.Pubkey, a *runtime.Account) {
	owner, mint, delegate, ok := tokenAccountKeys(a)
	if !ok {
		return
	}
	b.AddIndex(store.IndexTokenOwner, store.Pubkey(owner), store.Pubkey(k))
	b.AddIndex(store.IndexTokenMint, store.Pubkey(mint), store.Pubkey(k))
	if delegate != nil {
		b.AddIndex(store.IndexTokenDelegate, store.Pubkey(*delegate), store.Pubkey(k))
	}
}

// TokenAccounts calls fn with every token account of this bank filed under (kind, key) — owner, mint or
// delegate — that still matches it, until fn returns false. Candidates come from the index and the bank's own
// writes, and each is re-read and re-checked here, so results are exact at the bank.
func (b *Bank) TokenAccounts(kind IndexKind, key core.Pubkey, fn func(core.Pubkey, runtime.Account) bool) error {
	matches := func(a *runtime.Account) bool {
		owner, mint, delegate, ok := tokenAccountKeys(a)
		switch {
		case !ok:
			return false
		case kind == IndexTokenOwner:
			return owner == key
		case kind == IndexTokenMint:
			return mint == key
		default:
			return delegate != nil && *delegate == key
		}
	}
	// The bank's own writes first (collected, so fn runs without the bank's lock held), then the stored index.
	// The fork's pending accounts are read before the bank's writes (which win): the fork writes an account
	// into the bank before it stops being pending, so a scan beside that sees it one way or the other.
	seen := map[core.Pubkey]bool{}
	var written, pending []runtime.AccountWrite
	b.fork.pendingAccounts(func(k core.Pubkey, a runtime.Account) {
		pending = append(pending, runtime.AccountWrite{Pubkey: k, Account: a})
	})
	b.overlayAccounts(func(k core.Pubkey, a runtime.Account) {
		seen[k] = true
		if matches(&a) {
			written = append(written, runtime.AccountWrite{Pubkey: k, Account: a})
		}
	})
	for _, w := range pending {
		if !seen[w.Pubkey] && matches(&w.Account) {
			seen[w.Pubkey] = true
			written = append(written, w)
		}
	}
	for _, w := range written {
		if !fn(w.Pubkey, w.Account) {
			return nil
		}
	}
	var readErr error
	err := b.st.IndexScan(kind, store.Pubkey(key), func(pk store.Pubkey) bool {
		k := core.Pubkey(pk)
		if seen[k] {
			return true
		}
		a, ok, err := b.Account(k)
		if err != nil {
			readErr = err // an account that failed to read is an error, never one left out
			return false
		}
		if !ok || !matches(&a) {
			return true
		}
		return fn(k, a)
	})
	if err != nil {
		return b.fault.report(err)
	}
	return readErr
}
