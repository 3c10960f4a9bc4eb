package rpc

import (
	"bytes"
	"context"
	"slices"

	"ledgerd/generated/rpcapi"
	"ledgerd/impl/core"
	"ledgerd/impl/encoding"
	"ledgerd/impl/ledger"
	"ledgerd/impl/runtime"
)

// The token methods, as the reference's rpc.rs has them (docs/reference-behaviour.md §5.6, error texts §1.3). They read
// token accounts through the ledger's owner, mint and delegate indexes, so their cost follows the accounts they
// return, and decode state as the token programs lay it out (impl/encoding).

func invalidParam(reason string) error {
	return rpcapi.NewInvalidParamsError("Invalid param: " + reason)
}

// mintAmountsAt is the reference's get_mint_owner_and_additional_data: the mint's amounts view and owner, wrapped
// SOL without reading its account.
func mintAmountsAt(bank *ledger.Bank, mint core.Pubkey, lookup encoding.Lookup) (encoding.MintAmounts, core.Pubkey, error) {
	m, owner, found, ok := encoding.MintAmountsOf(mint, lookup)
	switch {
	case !found:
		return m, owner, invalidParam("could not find mint")
	case !ok:
		return m, owner, invalidParam("Token mint could not be unpacked")
	}
	return m, owner, nil
}

// tokenProgramAccount reads the account pk at the commitment of cfg, for getTokenAccountBalance and
// getTokenSupply, with the reference's -32602 texts: "could not find account", or notOwned when no token program
// owns it.
func (s *Server) tokenProgramAccount(pk core.Pubkey, cfg *rpcapi.CommitmentConfig, notOwned string) (*ledger.Bank, runtime.Account, error) {
	var c *rpcapi.Commitment
	if cfg != nil {
		c = cfg.Commitment
	}
	bank := s.ledger.Bank(commitmentOf(c))
	acct, ok, err := bank.Account(pk)
	if err != nil {
		return nil, runtime.Account{}, err
	}
	if !ok {
		return nil, runtime.Account{}, invalidParam("could not find account")
	}
	if !isTokenProgram(acct.Owner) {
		return nil, runtime.Account{}, invalidParam(notOwned)
	}
	return bank, acct, nil
}

func (s *Server) GetTokenAccountBalance(ctx context.Context, p *rpcapi.GetTokenAccountBalanceParams) (r rpcapi.GetTokenAccountBalanceResult, err error) {
	pk := p.Account
	bank, acct, err := s.tokenProgramAccount(pk, commitmentConfig(p.Config), "not a Token account")
	if err != nil {
		return r, err
	}
	ta, err := encoding.DecodeTokenAccount(acct.Data)
	if err != nil {
		return r, invalidParam("not a Token account")
	}
	m, _, err := mintAmountsAt(bank, ta.Mint, bank.GetAccount)
	if err != nil {
		return r, err
	}
	return rpcapi.GetTokenAccountBalanceResult{Context: rpcContext(bank.Slot), Value: m.UiAmount(ta.Amount).RPC()}, nil
}

func (s *Server) GetTokenSupply(ctx context.Context, p *rpcapi.GetTokenSupplyParams) (r rpcapi.GetTokenSupplyResult, err error) {
	pk := p.Mint
	bank, acct, err := s.tokenProgramAccount(pk, commitmentConfig(p.Config), "not a Token mint")
	if err != nil {
		return r, err
	}
	mint, err := encoding.DecodeMint(acct.Data)
	if err != nil {
		return r, invalidParam("mint could not be unpacked")
	}
	supply := mint.Amounts(bank.GetAccount).UiAmount(mint.Supply)
	return rpcapi.GetTokenSupplyResult{Context: rpcContext(bank.Slot), Value: supply.RPC()}, nil
}

// GetTokenLargestAccounts ranks the mint's token accounts (its index) by amount, largest first and, among equal
// amounts, the larger address first, as the reference's heap orders them.
func (s *Server) GetTokenLargestAccounts(ctx context.Context, p *rpcapi.GetTokenLargestAccountsParams) (r rpcapi.GetTokenLargestAccountsResult, err error) {
	mintKey := p.Mint
	var cfg rpcapi.CommitmentConfig
	if c := commitmentConfig(p.Config); c != nil {
		cfg = *c
	}
	bank := s.ledger.Bank(commitmentOf(cfg.Commitment))
	m, program, err := mintAmountsAt(bank, mintKey, bank.GetAccount)
	if err != nil {
		return r, err
	}
	if !isTokenProgram(program) {
		return r, invalidParam("not a Token mint")
	}
	var top largest
	scanErr := bank.TokenAccounts(ledger.IndexTokenMint, mintKey, func(k core.Pubkey, a runtime.Account) bool {
		if a.Owner == program {
			var amount uint64
			if ta, err := encoding.DecodeTokenAccount(a.Data); err == nil {
				amount = ta.Amount
			}
			top.add(k, amount)
		}
		return ctx.Err() == nil
	})
	if err := ctx.Err(); err != nil {
		return r, err
	}
	if scanErr != nil {
		return r, rpcapi.NewScanErrorError(scanErr.Error())
	}
	value := make([]rpcapi.TokenLargestAccount, len(top.ranked))
	for i, t := range top.ranked {
		u := m.UiAmount(t.amount).RPC()
		value[i] = rpcapi.TokenLargestAccount{Address: t.key.String(), Amount: u.Amount, Decimals: u.Decimals,
			UiAmount: u.UiAmount, UiAmountString: u.UiAmountString}
	}
	return rpcapi.GetTokenLargestAccountsResult{Context: rpcContext(bank.Slot), Value: value}, nil
}

func (s *Server) GetTokenAccountsByOwner(ctx context.Context, p *rpcapi.GetTokenAccountsByOwnerParams) (r rpcapi.GetTokenAccountsByOwnerResult, err error) {
	return s.tokenAccountsBy(ctx, ledger.IndexTokenOwner, p.Owner, p.Filter, p.Config)
}

func (s *Server) GetTokenAccountsByDelegate(ctx context.Context, p *rpcapi.GetTokenAccountsByDelegateParams) (r rpcapi.GetTokenAccountsByDelegateResult, err error) {
	return s.tokenAccountsBy(ctx, ledger.IndexTokenDelegate, p.Delegate, p.Filter, p.Config)
}

// tokenAccountsBy serves getTokenAccountsByOwner and getTokenAccountsByDelegate: the accounts the index files
// under key, of the filter's token program (and mint), sorted by address.
func (s *Server) tokenAccountsBy(ctx context.Context, kind ledger.IndexKind, key core.Pubkey, filter rpcapi.TokenAccountsFilter, config rpcapi.Opt[rpcapi.AccountInfoConfig]) (r rpcapi.RpcResponseKeyedAccounts, err error) {
	var (
		filterKey core.Pubkey
		byMint    = filter.Mint != nil
	)
	switch {
	case filter.Mint != nil:
		filterKey, err = decodedPubkey(filter.Mint.MintBytes())
	case filter.ProgramId != nil:
		filterKey, err = decodedPubkey(filter.ProgramId.ProgramIdBytes())
	default:
		return r, rpcapi.NewInvalidParamsError("Invalid params: missing mint or programId")
	}
	if err != nil {
		return r, err
	}
	cfg := config.OrZero()
	bank, err := s.bankAt(cfg.Commitment, cfg.MinContextSlot)
	if err != nil {
		return r, err
	}
	lookup := cachedLookup(bank)
	program := filterKey
	if byMint {
		if _, program, err = mintAmountsAt(bank, filterKey, lookup); err != nil {
			return r, err
		}
		if !isTokenProgram(program) {
			return r, invalidParam("not a Token mint")
		}
	} else if !isTokenProgram(program) {
		return r, invalidParam("unrecognized Token program id")
	}

	var found []keyedAccount
	guard, full := newReplyGuard(ctx, encodingOr(cfg.Encoding, encoding.Binary), cfg.DataSlice), false
	scanErr := bank.TokenAccounts(kind, key, func(k core.Pubkey, a runtime.Account) bool {
		if a.Owner == program && (!byMint || bytes.Equal(a.Data[:32], filterKey[:])) {
			if full = !guard.add(len(a.Data)); full {
				return false
			}
			found = append(found, keyedAccount{k, a})
		}
		return ctx.Err() == nil
	})
	if err := ctx.Err(); err != nil {
		return r, err
	}
	if full {
		return r, guard.tooLarge()
	}
	if scanErr != nil {
		return r, rpcapi.NewScanErrorError(scanErr.Error())
	}
	sortKeyed(found)
	list, err := encodeKeyed(found, encodingOr(cfg.Encoding, encoding.Binary), cfg.DataSlice, true, lookup)
	if err != nil {
		return r, err
	}
	return rpcapi.RpcResponseKeyedAccounts{Context: rpcContext(bank.Slot), Value: list}, nil
}

// keyedAccount is an account with its address, as the account lists collect them.
type keyedAccount struct {
	pk   core.Pubkey
	acct runtime.Account
}

func sortKeyed(list []keyedAccount) {
	slices.SortFunc(list, func(a, b keyedAccount) int { return a.pk.Compare(b.pk) })
}

// encodeKeyed renders an account list. With dropUnparsable and jsonParsed (token programs), accounts that do not
// parse are left out, and the parse ignores dataSlice, as the reference's parsed token account lists do.
func encodeKeyed(found []keyedAccount, enc rpcapi.AccountEncoding, slice *rpcapi.DataSlice, dropUnparsable bool, lookup encoding.Lookup) ([]rpcapi.KeyedAccount, error) {
	list := make([]rpcapi.KeyedAccount, 0, len(found))
	for _, k := range found {
		var ui rpcapi.UiAccount
		if dropUnparsable && enc == encoding.JSONParsed {
			parsed, err := encoding.Parse(k.pk, k.acct, lookup)
			if err != nil {
				continue
			}
			ui = parsedAccount(k.acct, parsed)
		} else {
			var err error
			if ui, err = encoding.EncodeAccount(k.acct, k.pk, enc, slice, encoding.Options{Lookup: lookup}); err != nil {
				return nil, err
			}
		}
		list = append(list, rpcapi.KeyedAccount{Pubkey: k.pk.String(), Account: ui})
	}
	return list, nil
}

// cachedLookup reads accounts of bank once per call: a list of token accounts mostly shares a few mints.
func cachedLookup(bank *ledger.Bank) encoding.Lookup {
	type entry struct {
		a  runtime.Account
		ok bool
	}
	seen := map[core.Pubkey]entry{}
	return func(k core.Pubkey) (runtime.Account, bool) {
		if e, hit := seen[k]; hit {
			return e.a, e.ok
		}
		a, ok := bank.GetAccount(k)
		seen[k] = entry{a, ok}
		return a, ok
	}
}

// tokenIndexScan picks the secondary index that can answer a getProgramAccounts query of a token program: a
// memcmp of 32 bytes at offset 32 names the token owner; one at offset 0 names the mint, used (as the reference
// does) only when the other filters restrict the answer to token accounts, which the mint index holds.
func tokenIndexScan(program core.Pubkey, filters []rpcapi.ProgramAccountsFilter) (ledger.IndexKind, core.Pubkey, bool) {
	if !isTokenProgram(program) {
		return 0, core.Pubkey{}, false
	}
	var (
		owner, mint         *core.Pubkey
		onlyTokenAccounts   bool
		tokenAccountsLength = uint64(tokenAccountLen)
	)
	for _, f := range filters {
		switch {
		case f.DataSize != nil:
			if f.DataSize.DataSize == tokenAccountsLength {
				onlyTokenAccounts = true
			}
		case f.TokenAccountState != nil:
			onlyTokenAccounts = true
		case f.Memcmp != nil:
			b, err := memcmpBytes(f.Memcmp.Memcmp)
			if err != nil {
				continue
			}
			switch offset := f.Memcmp.Memcmp.Offset; {
			case offset == tokenAccountLen && program == core.Token2022ProgramID && bytes.Equal(b, []byte{tokenAccountTypeAccount}):
				onlyTokenAccounts = true
			case offset == 32 && len(b) == 32:
				k := core.Pubkey(b)
				owner = &k
			case offset == 0 && len(b) == 32:
				k := core.Pubkey(b)
				mint = &k
			}
		}
	}
	switch {
	case owner != nil && !owner.IsZero():
		return ledger.IndexTokenOwner, *owner, true
	case mint != nil && onlyTokenAccounts:
		return ledger.IndexTokenMint, *mint, true
	}
	return 0, core.Pubkey{}, false
}
