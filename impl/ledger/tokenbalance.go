package ledger

import (
	"ledgerd/impl/core"
	"ledgerd/impl/programs/token"
	"ledgerd/impl/runtime"
)

// TokenBalance is the token amount of one token account of a transaction, before or after it, as
// preTokenBalances and postTokenBalances report it.
type TokenBalance struct {
	AccountIndex uint8       `json:"accountIndex"`
	Mint         core.Pubkey `json:"mint"`
	Owner        core.Pubkey `json:"owner"`
	ProgramID    core.Pubkey `json:"programId"`
	Amount       uint64      `json:"amount,string"`
	Decimals     uint8       `json:"decimals"`
}

// recordingSource is the bank as a transaction's account source, remembering the token accounts the runtime
// loaded: their state before the transaction, without reading any account twice.
type recordingSource struct {
	errSource
	pre map[core.Pubkey]runtime.Account
}

func (r *recordingSource) GetAccount(k core.Pubkey) (runtime.Account, bool) {
	a, ok := r.errSource.GetAccount(k)
	if ok && token.IsProgramID(a.Owner) {
		if r.pre == nil {
			r.pre = make(map[core.Pubkey]runtime.Account)
		}
		r.pre[k] = a
	}
	return a, ok
}

// tokenBalances lists the token balances of the transaction's accounts before and after it ran. Accounts are
// taken in the order of keys; decimals come from the mint as the bank holds it afterwards.
func tokenBalances(b *Bank, msg *core.Message, keys []core.Pubkey, pre map[core.Pubkey]runtime.Account, writes []runtime.AccountWrite) (before, after []TokenBalance) {
	if len(pre) == 0 && len(writes) == 0 {
		return nil, nil
	}
	post := make(map[core.Pubkey]runtime.Account, len(writes))
	for _, w := range writes {
		post[w.Pubkey] = w.Account
	}
	decimals := map[core.Pubkey]int{}
	mintDecimals := func(mint core.Pubkey) (uint8, bool) {
		if d, ok := decimals[mint]; ok {
			return uint8(d), d >= 0
		}
		a, ok := post[mint]
		if !ok {
			a, ok = b.GetAccount(mint)
		}
		var dec uint8
		if ok && token.IsProgramID(a.Owner) {
			dec, ok = token.MintDecimals(a.Data)
		}
		if !ok {
			decimals[mint] = -1
			return 0, false
		}
		decimals[mint] = int(dec)
		return dec, true
	}
	balance := func(i int, a runtime.Account) (TokenBalance, bool) {
		owner, mint, _, ok := tokenAccountKeys(&a)
		if !ok {
			return TokenBalance{}, false
		}
		dec, ok := mintDecimals(mint)
		if !ok {
			return TokenBalance{}, false
		}
		return TokenBalance{AccountIndex: uint8(i), Mint: mint, Owner: owner, ProgramID: a.Owner,
			Amount: token.AccountAmount(a.Data), Decimals: dec}, true
	}
	// Like the reference, the programs a transaction invokes are not token accounts of it.
	invoked := map[int]bool{}
	for _, ix := range msg.Instructions {
		invoked[int(ix.ProgramIDIndex)] = true
	}
	for i, k := range keys {
		if invoked[i] {
			continue
		}
		if a, ok := pre[k]; ok {
			if tb, ok := balance(i, a); ok {
				before = append(before, tb)
			}
		}
		a, ok := post[k]
		if !ok {
			a, ok = pre[k]
		}
		if ok {
			if tb, ok := balance(i, a); ok {
				after = append(after, tb)
			}
		}
	}
	return before, after
}
