package rpc

import (
	"bytes"
	"context"
	"encoding/base64"
	"fmt"
	"slices"
	"strconv"

	"ledgerd/generated/rpcapi"
	"ledgerd/impl/core"
	"ledgerd/impl/encoding"
	"ledgerd/impl/ledger"
	"ledgerd/impl/runtime"
)

// Limits of the account methods, as the reference has them (docs/reference-behaviour.md §2.3).
const (
	maxMultipleAccounts      = 100
	maxProgramAccountFilters = 4
	numLargestAccounts       = 20
	// maxPermittedDataLength is the largest account the system program creates (10 MiB);
	// getMinimumBalanceForRentExemption refuses longer lengths with -32600.
	maxPermittedDataLength = 10 * 1024 * 1024
)

// memcmp filter limits: decoded bytes, and the encoded lengths checked before decoding.
const (
	memcmpMaxBytes       = 128
	memcmpMaxBase58Chars = 175
	memcmpMaxBase64Chars = 172
)

func (s *Server) GetAccountInfo(ctx context.Context, p *rpcapi.GetAccountInfoParams) (r rpcapi.GetAccountInfoResult, err error) {
	pk := p.Pubkey
	cfg := p.Config.OrZero()
	bank, err := s.bankAt(cfg.Commitment, cfg.MinContextSlot)
	if err != nil {
		return r, err
	}
	ui, err := encodeBankAccount(bank, pk, encodingOr(cfg.Encoding, encoding.Binary), cfg.DataSlice)
	if err != nil {
		return r, err
	}
	return rpcapi.GetAccountInfoResult{Context: rpcContext(bank.Slot), Value: ui}, nil
}

func (s *Server) GetBalance(ctx context.Context, p *rpcapi.GetBalanceParams) (r rpcapi.GetBalanceResult, err error) {
	pk := p.Pubkey
	cfg := p.Config.OrZero()
	bank, err := s.bankAt(cfg.Commitment, cfg.MinContextSlot)
	if err != nil {
		return r, err
	}
	acct, _, err := bank.Account(pk) // a missing account has 0 lamports; a failed read is an error
	if err != nil {
		return r, err
	}
	return rpcapi.GetBalanceResult{Context: rpcContext(bank.Slot), Value: acct.Lamports}, nil
}

func (s *Server) GetMultipleAccounts(ctx context.Context, p *rpcapi.GetMultipleAccountsParams) (r rpcapi.GetMultipleAccountsResult, err error) {
	if len(p.Pubkeys) > maxMultipleAccounts {
		return r, rpcapi.NewInvalidParamsError(fmt.Sprintf("Too many inputs provided; max %d", maxMultipleAccounts))
	}
	keys := p.Pubkeys
	cfg := p.Config.OrZero()
	bank, err := s.bankAt(cfg.Commitment, cfg.MinContextSlot)
	if err != nil {
		return r, err
	}
	// On a lazy fork the accounts never held here are asked of the cluster in one request, not one each.
	if err := s.ledger.Prefetch(keys); err != nil {
		return r, err
	}
	enc := encodingOr(cfg.Encoding, encoding.Base64)
	values := make([]*rpcapi.UiAccount, len(keys))
	guard := newReplyGuard(ctx, enc, cfg.DataSlice) // a hundred accounts of 10 MiB would be 1.3 GB of base64
	for i, k := range keys {
		if values[i], err = encodeBankAccount(bank, k, enc, cfg.DataSlice); err != nil {
			return r, err
		}
		if values[i] != nil && !guard.add(int(values[i].Space)) {
			return r, guard.tooLarge()
		}
	}
	return rpcapi.GetMultipleAccountsResult{Context: rpcContext(bank.Slot), Value: values}, nil
}

func (s *Server) GetProgramAccounts(ctx context.Context, p *rpcapi.GetProgramAccountsParams) (r rpcapi.GetProgramAccountsResult, err error) {
	program := p.ProgramId
	cfg := p.Config.OrZero()
	var filters []rpcapi.ProgramAccountsFilter
	if cfg.Filters != nil {
		filters = *cfg.Filters
	}
	if len(filters) > maxProgramAccountFilters {
		return r, rpcapi.NewInvalidParamsError(fmt.Sprintf("Too many filters provided; max %d", maxProgramAccountFilters))
	}
	keep, err := compileFilters(filters)
	if err != nil {
		return r, err
	}
	bank, err := s.bankAt(cfg.Commitment, cfg.MinContextSlot)
	if err != nil {
		return r, err
	}

	// A token owner (or, for token accounts only, mint) memcmp is answered from the ledger's token index, so the
	// cost follows the matches; every candidate still meets all the filters.
	var found []keyedAccount
	guard, full := newReplyGuard(ctx, encodingOr(cfg.Encoding, encoding.Binary), cfg.DataSlice), false
	collect := func(pk core.Pubkey, a runtime.Account) bool {
		if a.Owner == program && keep(a.Data) {
			if full = !guard.add(len(a.Data)); full {
				return false
			}
			found = append(found, keyedAccount{pk, a})
		}
		return ctx.Err() == nil
	}
	var scanErr error
	if kind, key, ok := tokenIndexScan(program, filters); ok {
		scanErr = bank.TokenAccounts(kind, key, collect)
	} else {
		scanErr = bank.ProgramAccounts(program, collect)
	}
	if err := ctx.Err(); err != nil {
		return r, err
	}
	if full {
		return r, guard.tooLarge()
	}
	if scanErr != nil {
		return r, rpcapi.NewScanErrorError(scanErr.Error())
	}
	if cfg.SortResults == nil || *cfg.SortResults {
		sortKeyed(found)
	}

	// Token accounts that jsonParsed cannot parse are left out, as the reference's parsed token account list
	// does; accounts of other programs fall back to base64 inside EncodeAccount.
	list, err := encodeKeyed(found, encodingOr(cfg.Encoding, encoding.Binary), cfg.DataSlice, isTokenProgram(program), cachedLookup(bank))
	if err != nil {
		return r, err
	}
	if cfg.WithContext != nil && *cfg.WithContext {
		return rpcapi.GetProgramAccountsResult{WithContext: &rpcapi.RpcResponseKeyedAccounts{Context: rpcContext(bank.Slot), Value: list}}, nil
	}
	return rpcapi.GetProgramAccountsResult{Accounts: &list}, nil
}

// GetMinimumBalanceForRentExemption takes a commitment but, as rent does not change between banks, answers
// from the chain's rent.
func (s *Server) GetMinimumBalanceForRentExemption(ctx context.Context, p *rpcapi.GetMinimumBalanceForRentExemptionParams) (r rpcapi.GetMinimumBalanceForRentExemptionResult, err error) {
	if p.DataLength > maxPermittedDataLength {
		return r, rpcapi.NewInvalidRequestError()
	}
	return s.ledger.Rent().MinimumBalance(p.DataLength), nil
}

// GetLargestAccounts scans the bank on every call: the reference caches the answer for up to two hours, which a
// local chain has no need for.
func (s *Server) GetLargestAccounts(ctx context.Context, p *rpcapi.GetLargestAccountsParams) (r rpcapi.GetLargestAccountsResult, err error) {
	cfg := p.Config.OrZero()
	bank := s.ledger.Bank(commitmentOf(cfg.Commitment))
	var only map[core.Pubkey]bool // nil: every account
	exclude := map[core.Pubkey]bool{}
	if cfg.Filter != nil {
		nonCirculating, _, err := nonCirculatingSupply(bank)
		if err != nil {
			return r, rpcapi.NewScanErrorError(err.Error())
		}
		set := make(map[core.Pubkey]bool, len(nonCirculating))
		for _, k := range nonCirculating {
			set[k] = true
		}
		switch *cfg.Filter {
		case "circulating":
			exclude = set
		case "nonCirculating":
			only = set
		}
	}
	var top largest
	scanErr := bank.ScanAccounts(func(k core.Pubkey, a runtime.Account) bool {
		if a.Lamports != 0 && !exclude[k] && (only == nil || only[k]) {
			top.add(k, a.Lamports)
		}
		return ctx.Err() == nil
	})
	if err := ctx.Err(); err != nil {
		return r, err
	}
	if scanErr != nil {
		return r, rpcapi.NewScanErrorError(scanErr.Error())
	}
	value := make([]rpcapi.AccountBalance, len(top.ranked))
	for i, t := range top.ranked {
		value[i] = rpcapi.AccountBalance{Address: t.key.String(), Lamports: t.amount}
	}
	return rpcapi.GetLargestAccountsResult{Context: rpcContext(bank.Slot), Value: value}, nil
}

// GetSupply reports the bank's capitalization, split by nonCirculatingSupply.
func (s *Server) GetSupply(ctx context.Context, p *rpcapi.GetSupplyParams) (r rpcapi.GetSupplyResult, err error) {
	cfg := p.Config.OrZero()
	bank := s.ledger.Bank(commitmentOf(cfg.Commitment))
	accounts, nonCirculating, err := nonCirculatingSupply(bank)
	if err != nil {
		return r, rpcapi.NewScanErrorError(err.Error())
	}
	total := bank.Capitalization()
	list := []rpcapi.Pubkey{}
	listed := cfg.ExcludeNonCirculatingAccountsList == nil || !*cfg.ExcludeNonCirculatingAccountsList
	if listed {
		for _, k := range accounts {
			list = append(list, k.String())
		}
	}
	v := rpcapi.Supply{
		Total:                  total,
		Circulating:            total - nonCirculating,
		NonCirculating:         nonCirculating,
		NonCirculatingAccounts: list,
	}
	s.overrideSupply(&v, listed)
	return rpcapi.GetSupplyResult{Context: rpcContext(bank.Slot), Value: v}, nil
}

// encodingOr returns the requested account encoding, or the method's default.
func encodingOr(requested *rpcapi.AccountEncoding, def rpcapi.AccountEncoding) rpcapi.AccountEncoding {
	if requested == nil {
		return def
	}
	return *requested
}

// encodeBankAccount renders the account pk of bank, nil when it does not exist.
func encodeBankAccount(bank *ledger.Bank, pk core.Pubkey, enc rpcapi.AccountEncoding, slice *rpcapi.DataSlice) (*rpcapi.UiAccount, error) {
	acct, ok, err := bank.Account(pk)
	if err != nil || !ok {
		return nil, err
	}
	if enc == encoding.JSONParsed && isTokenProgram(acct.Owner) {
		// The reference encodes token accounts through its parsed-token path, which passes no slice: even the
		// base64 fallback of an unparsable token account holds all the data.
		slice = nil
	}
	ui, err := encoding.EncodeAccount(acct, pk, enc, slice, encoding.Options{Lookup: bank.GetAccount})
	if err != nil {
		return nil, err
	}
	return &ui, nil
}

// parsedAccount is the UiAccount of a successfully parsed account (the parse ignores dataSlice).
func parsedAccount(a runtime.Account, parsed *rpcapi.AccountDataParsed) rpcapi.UiAccount {
	return rpcapi.UiAccount{
		Lamports:   a.Lamports,
		Owner:      a.Owner.String(),
		Data:       rpcapi.AccountData{Parsed: parsed},
		Executable: a.Executable,
		RentEpoch:  a.RentEpoch,
		Space:      uint64(len(a.Data)),
	}
}

func isTokenProgram(k core.Pubkey) bool {
	return k == core.TokenProgramID || k == core.Token2022ProgramID
}

// ---------------------------------------------------------------------------------------------------------------
// getProgramAccounts filters

// compileFilters checks the filters as the reference's RpcFilterType::verify does and returns the predicate an
// account's data must meet (all filters).
func compileFilters(filters []rpcapi.ProgramAccountsFilter) (func([]byte) bool, error) {
	preds := make([]func([]byte) bool, 0, len(filters))
	for _, f := range filters {
		switch {
		case f.DataSize != nil:
			size := f.DataSize.DataSize
			preds = append(preds, func(d []byte) bool { return uint64(len(d)) == size })
		case f.Memcmp != nil:
			want, err := memcmpBytes(f.Memcmp.Memcmp)
			if err != nil {
				return nil, err
			}
			offset := f.Memcmp.Memcmp.Offset
			preds = append(preds, func(d []byte) bool {
				return offset <= uint64(len(d)) && uint64(len(d))-offset >= uint64(len(want)) &&
					bytes.Equal(d[offset:offset+uint64(len(want))], want)
			})
		case f.TokenAccountState != nil:
			preds = append(preds, validTokenAccountData)
		default:
			return nil, rpcapi.NewInvalidParamsError("Invalid params: unknown filter")
		}
	}
	return func(d []byte) bool {
		for _, p := range preds {
			if !p(d) {
				return false
			}
		}
		return true
	}, nil
}

// memcmpBytes decodes a memcmp filter's bytes, with the reference's error texts (the Debug form of its
// RpcFilterError after `Invalid param: `).
func memcmpBytes(m rpcapi.MemcmpFilter) ([]byte, error) {
	tooLarge := rpcapi.NewInvalidParamsError("Invalid param: DataTooLarge")
	var (
		b      []byte
		reason string
	)
	if m.Encoding != nil && *m.Encoding == "base64" {
		if len(m.Bytes) > memcmpMaxBase64Chars {
			return nil, tooLarge
		}
		if b, reason = rustBase64Decode(m.Bytes); reason != "" {
			return nil, rpcapi.NewInvalidParamsError("Invalid param: Base64DecodeError(" + reason + ")")
		}
	} else {
		if len(m.Bytes) > memcmpMaxBase58Chars {
			return nil, tooLarge
		}
		if b, reason = rustBase58Decode(m.Bytes); reason != "" {
			return nil, rpcapi.NewInvalidParamsError("Invalid param: Base58DecodeError(" + reason + ")")
		}
	}
	if len(b) > memcmpMaxBytes {
		return nil, tooLarge
	}
	return b, nil
}

// SPL Token account layout facts used by the tokenAccountState filter.
const (
	tokenAccountLen              = 165
	tokenAccountInitializedIndex = 108
	tokenAccountTypeAccount      = 2 // Token-2022's AccountType::Account, right after the base layout
)

// validTokenAccountData is the reference's tokenAccountState filter (Token-2022's valid_account_data): an
// initialized account of the base length, or an extended account tagged as an account.
func validTokenAccountData(d []byte) bool {
	if len(d) == tokenAccountLen {
		return d[tokenAccountInitializedIndex] != 0
	}
	return len(d) > tokenAccountLen && d[tokenAccountLen] == tokenAccountTypeAccount
}

// rustBase58Decode decodes base58 as the bs58 crate does, returning the Debug form of its error when it fails.
func rustBase58Decode(s string) ([]byte, string) {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c > 127 {
			return nil, "NonAsciiCharacter { index: " + strconv.Itoa(i) + " }"
		}
		if !isBase58Char(c) {
			return nil, "InvalidCharacter { character: " + rustCharDebug(c) + ", index: " + strconv.Itoa(i) + " }"
		}
	}
	return decodeBase58(s), ""
}

const base58Alphabet = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"

func isBase58Char(c byte) bool { return bytes.IndexByte([]byte(base58Alphabet), c) >= 0 }

// decodeBase58 decodes a string of valid base58 characters (the empty string is no bytes).
func decodeBase58(s string) []byte {
	out := make([]byte, 0, len(s))
	for i := 0; i < len(s); i++ {
		carry := uint32(bytes.IndexByte([]byte(base58Alphabet), s[i]))
		for j := range out {
			carry += uint32(out[j]) * 58
			out[j] = byte(carry)
			carry >>= 8
		}
		for carry > 0 {
			out = append(out, byte(carry))
			carry >>= 8
		}
	}
	for i := 0; i < len(s) && s[i] == '1'; i++ {
		out = append(out, 0)
	}
	slices.Reverse(out)
	return out
}

// rustCharDebug is Rust's Debug form of an ASCII char ('a', '\n', '\u{7f}').
func rustCharDebug(c byte) string {
	switch c {
	case 0:
		return `'\0'`
	case '\t':
		return `'\t'`
	case '\n':
		return `'\n'`
	case '\r':
		return `'\r'`
	case '\'':
		return `'\''`
	case '\\':
		return `'\\'`
	}
	if c < 0x20 || c == 0x7f {
		return `'\u{` + strconv.FormatUint(uint64(c), 16) + `}'`
	}
	return "'" + string(rune(c)) + "'"
}

// base64Value maps a byte to its standard base64 value, or 0xff.
var base64Value = func() (t [256]byte) {
	const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
	for i := range t {
		t[i] = 0xff
	}
	for i := 0; i < len(alphabet); i++ {
		t[alphabet[i]] = byte(i)
	}
	return t
}()

// rustBase64Decode decodes standard, canonically padded base64 as the base64 crate (0.22, STANDARD engine)
// does, returning the Debug form of its DecodeError when it fails. Go's decoder accepts more (newlines,
// non-zero trailing bits), so the checks come first and Go only decodes what they let through.
func rustBase64Decode(s string) ([]byte, string) {
	invalidByte := func(i int) string {
		return "InvalidByte(" + strconv.Itoa(i) + ", " + strconv.Itoa(int(s[i])) + ")"
	}
	rem := len(s) % 4
	if rem == 1 {
		if last := s[len(s)-1]; last != '=' && base64Value[last] == 0xff {
			return nil, invalidByte(len(s) - 1)
		}
	}
	// Every quad but the last (which may hold padding) must be plain symbols.
	body := len(s) - rem
	if rem == 0 {
		body = max(0, body-4)
	}
	for i := 0; i < body; i++ {
		if base64Value[s[i]] == 0xff {
			return nil, invalidByte(i)
		}
	}
	var morsels [4]byte
	n, pad, firstPad := 0, 0, 0
	var last byte
	for j := body; j < len(s); j++ {
		c := s[j]
		if c == '=' {
			if j-body < 2 {
				return nil, invalidByte(j)
			}
			if pad == 0 {
				firstPad = j
			}
			pad++
			continue
		}
		if pad > 0 {
			return nil, invalidByte(firstPad)
		}
		if base64Value[c] == 0xff {
			return nil, invalidByte(j)
		}
		last = c
		morsels[n] = base64Value[c]
		n++
	}
	if len(s) > 0 && n < 2 {
		return nil, "InvalidLength(" + strconv.Itoa(body+n) + ")"
	}
	if (pad+n)%4 != 0 {
		return nil, "InvalidPadding"
	}
	bits := uint32(morsels[0])<<26 | uint32(morsels[1])<<20 | uint32(morsels[2])<<14 | uint32(morsels[3])<<8
	if mask := ^uint32(0) >> (n * 6 / 8 * 8); bits&mask != 0 {
		return nil, "InvalidLastSymbol(" + strconv.Itoa(body+n-1) + ", " + strconv.Itoa(int(last)) + ")"
	}
	b, err := base64.StdEncoding.DecodeString(s)
	if err != nil {
		return nil, err.Error()
	}
	return b, ""
}

// largest keeps the numLargestAccounts largest (amount, address) pairs it is given, largest first and, among
// equal amounts, the larger address first, as the reference's heap orders them (getLargestAccounts,
// getTokenLargestAccounts).
type largest struct{ ranked []rankedAccount }

type rankedAccount struct {
	key    core.Pubkey
	amount uint64
}

func (a rankedAccount) above(b rankedAccount) bool {
	return a.amount > b.amount || a.amount == b.amount && a.key.Compare(b.key) > 0
}

func (l *largest) add(key core.Pubkey, amount uint64) {
	c := rankedAccount{key, amount}
	if len(l.ranked) == numLargestAccounts && !c.above(l.ranked[len(l.ranked)-1]) {
		return
	}
	i, _ := slices.BinarySearchFunc(l.ranked, c, func(e, t rankedAccount) int {
		if e.above(t) {
			return -1
		}
		return 1
	})
	l.ranked = slices.Insert(l.ranked, i, c)
	if len(l.ranked) > numLargestAccounts {
		l.ranked = l.ranked[:numLargestAccounts]
	}
}
