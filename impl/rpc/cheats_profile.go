package rpc

import (
	"bytes"
	"context"
	"crypto/rand"
	"fmt"
	"slices"
	"sync"

	"ledgerd/generated/rpcapi"
	"ledgerd/impl/core"
	"ledgerd/impl/encoding"
	"ledgerd/impl/ledger"
	"ledgerd/impl/runtime"
)

// surfpool's transaction profiles: surfnet_profileTransaction simulates a transaction with the runtime's
// instruction observer on (ledger.Profile) and keeps the raw profile under a uuid and a tag; the getters render
// it again in the encoding each asks for, as surfpool does.

// maxProfiles is how many profiles are kept, the oldest dropped first: each holds copies of the accounts its
// transaction names, before and after every instruction.
const maxProfiles = 256

type keptProfile struct {
	key     string
	tag     string
	profile *ledger.TransactionProfile
	lookup  encoding.Lookup // the bank the transaction ran on, for jsonParsed's reads of other accounts
}

// profileStore holds the kept profiles, oldest first.
type profileStore struct {
	mu   sync.Mutex
	list []*keptProfile
}

func (ps *profileStore) add(p *keptProfile) {
	ps.mu.Lock()
	defer ps.mu.Unlock()
	if len(ps.list) >= maxProfiles {
		ps.list = slices.Delete(ps.list, 0, len(ps.list)-maxProfiles+1)
	}
	ps.list = append(ps.list, p)
}

func (ps *profileStore) byKey(key string) *keptProfile {
	ps.mu.Lock()
	defer ps.mu.Unlock()
	for _, p := range ps.list {
		if p.key == key {
			return p
		}
	}
	return nil
}

// byTag returns the profiles kept under tag, oldest first.
func (ps *profileStore) byTag(tag string) []*keptProfile {
	ps.mu.Lock()
	defer ps.mu.Unlock()
	var out []*keptProfile
	for _, p := range ps.list {
		if p.tag == tag {
			out = append(out, p)
		}
	}
	return out
}

func (ps *profileStore) clear() {
	ps.mu.Lock()
	ps.list = nil
	ps.mu.Unlock()
}

// newUUID returns a random (version 4) uuid, the key surfpool gives a profile.
func newUUID() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16])
}

func (s *Server) SurfnetProfileTransaction(ctx context.Context, p *rpcapi.SurfnetProfileTransactionParams) (r rpcapi.SurfnetProfileTransactionResult, err error) {
	if err := s.cheat(rpcapi.MethodSurfnetProfileTransaction); err != nil {
		return r, err
	}
	enc, instructions, err := profileConfig(p.Config.Ptr())
	if err != nil {
		return r, err
	}
	base64Enc := "base64"
	tx, err := decodeWireTx(p.TransactionData, &base64Enc)
	if err != nil {
		return r, err
	}
	bank := s.ledger.Bank(ledger.Processed)
	lookups, err := sanitizeWireTx(tx, bank)
	if err != nil {
		return r, err
	}
	// As surfpool, the signatures are verified first (impersonation and a verification turned off apply).
	if !s.ledger.SignaturesAccepted(tx) {
		return r, rpcapi.NewInvalidParamsError("Transaction signature verification failure")
	}
	prof, err := s.ledger.Profile(bank, tx, lookups)
	if err != nil {
		return r, err
	}
	kept := &keptProfile{key: newUUID(), profile: prof, lookup: bank.GetAccount}
	kept.tag = p.Tag.OrZero()
	value, err := renderProfile(kept, enc, instructions)
	if err != nil {
		return r, err
	}
	s.profiles.add(kept)
	return rpcapi.RpcResponseProfileResult{Context: rpcContext(prof.Slot), Value: value}, nil
}

func (s *Server) SurfnetGetProfileResultsByTag(ctx context.Context, p *rpcapi.SurfnetGetProfileResultsByTagParams) (r rpcapi.SurfnetGetProfileResultsByTagResult, err error) {
	if err := s.cheat(rpcapi.MethodSurfnetGetProfileResultsByTag); err != nil {
		return r, err
	}
	enc, instructions, err := profileConfig(p.Config.Ptr())
	if err != nil {
		return r, err
	}
	processed, _, _ := s.ledger.Slots()
	r.Context = rpcContext(processed)
	kept := s.profiles.byTag(p.Tag)
	if len(kept) == 0 {
		return r, nil
	}
	out := make([]rpcapi.KeyedProfileResult, 0, len(kept))
	for _, k := range kept {
		v, err := renderProfile(k, enc, instructions)
		if err != nil {
			return r, err
		}
		out = append(out, v)
	}
	r.Value = out
	return r, nil
}

func (s *Server) SurfnetGetTransactionProfile(ctx context.Context, p *rpcapi.SurfnetGetTransactionProfileParams) (r rpcapi.SurfnetGetTransactionProfileResult, err error) {
	if err := s.cheat(rpcapi.MethodSurfnetGetTransactionProfile); err != nil {
		return r, err
	}
	enc, instructions, err := profileConfig(p.Config.Ptr())
	if err != nil {
		return r, err
	}
	kept := s.profiles.byKey(p.SignatureOrUuid)
	if kept == nil {
		processed, _, _ := s.ledger.Slots()
		return rpcapi.RpcResponseProfileResultOrNull{Context: rpcContext(processed)}, nil
	}
	v, err := renderProfile(kept, enc, instructions)
	if err != nil {
		return r, err
	}
	return rpcapi.RpcResponseProfileResultOrNull{Context: rpcContext(kept.profile.Slot), Value: &v}, nil
}

// profileConfig reads surfpool's RpcProfileResultConfig: the encoding (default jsonParsed) and whether each
// instruction's profile is included (depth instruction, the default).
func profileConfig(c *rpcapi.RpcProfileResultConfig) (enc rpcapi.AccountEncoding, instructions bool, err error) {
	enc, instructions = encoding.JSONParsed, true
	if c == nil {
		return enc, instructions, nil
	}
	if c.Encoding != nil {
		enc = *c.Encoding
	}
	if c.Depth != nil {
		instructions = *c.Depth == "instruction"
	}
	return enc, instructions, nil
}

// renderProfile is surfpool's UiKeyedProfileResult of a kept profile.
func renderProfile(k *keptProfile, enc rpcapi.AccountEncoding, instructions bool) (rpcapi.KeyedProfileResult, error) {
	p := k.profile
	out := rpcapi.KeyedProfileResult{Slot: p.Slot, Key: k.key, ReadonlyAccountStates: map[string]rpcapi.UiAccount{}}
	render := func(pk core.Pubkey, a *runtime.Account) (any, error) {
		if a == nil {
			return nil, nil
		}
		ui, err := encoding.EncodeAccount(*a, pk, enc, nil, encoding.Options{Lookup: k.lookup})
		if err != nil {
			return nil, err
		}
		return ui, nil
	}
	res := p.Result
	var logs []string
	var errMsg *string
	var units uint64
	if res != nil {
		logs, units = res.Logs, res.ComputeUnitsConsumed
		if res.Err != nil {
			m := res.Err.Error()
			errMsg = &m
		}
	}
	var err error
	if out.TransactionProfile, err = renderStates(p.Accounts, units, logs, errMsg, render); err != nil {
		return out, err
	}
	for _, a := range p.Accounts {
		if a.Writable || a.Before == nil {
			continue
		}
		v, err := render(a.Pubkey, a.Before)
		if err != nil {
			return out, err
		}
		out.ReadonlyAccountStates[a.Pubkey.String()] = v.(rpcapi.UiAccount)
	}
	if instructions {
		list := make([]rpcapi.ProfileResult, 0, len(p.Instructions))
		for _, ix := range p.Instructions {
			var msg *string
			if ix.Err != nil {
				m := ix.Err.Error()
				msg = &m
			}
			pr, err := renderStates(ix.Accounts, ix.Units, ix.Logs, msg, render)
			if err != nil {
				return out, err
			}
			list = append(list, pr)
		}
		out.InstructionProfiles = &list
	}
	return out, nil
}

// renderStates is surfpool's UiProfileResult: each account's UiAccountProfileState, keyed by address.
func renderStates(accounts []ledger.ProfiledAccount, units uint64, logs []string, errMsg *string,
	render func(core.Pubkey, *runtime.Account) (any, error)) (rpcapi.ProfileResult, error) {
	out := rpcapi.ProfileResult{AccountStates: make(map[string]rpcapi.AccountProfileState, len(accounts)),
		ComputeUnitsConsumed: units, LogMessages: logs, ErrorMessage: errMsg}
	if out.LogMessages == nil {
		out.LogMessages = []string{}
	}
	sorted := slices.SortedFunc(slices.Values(accounts), func(a, b ledger.ProfiledAccount) int {
		return bytes.Compare(a.Pubkey[:], b.Pubkey[:])
	})
	for _, a := range sorted {
		if !a.Writable {
			out.AccountStates[a.Pubkey.String()] = rpcapi.AccountProfileState{Type: "readonly"}
			continue
		}
		change, err := accountChange(a, render)
		if err != nil {
			return out, err
		}
		out.AccountStates[a.Pubkey.String()] = rpcapi.AccountProfileState{Type: "writable", AccountChange: &change}
	}
	return out, nil
}

// accountChange is surfpool's UiAccountChange of a writable account.
func accountChange(a ledger.ProfiledAccount, render func(core.Pubkey, *runtime.Account) (any, error)) (rpcapi.AccountChange, error) {
	before, err := render(a.Pubkey, a.Before)
	if err != nil {
		return rpcapi.AccountChange{}, err
	}
	after, err := render(a.Pubkey, a.After)
	if err != nil {
		return rpcapi.AccountChange{}, err
	}
	switch {
	case a.Before == nil && a.After != nil:
		return rpcapi.AccountChange{Type: "create", Data: after}, nil
	case a.Before != nil && a.After == nil:
		return rpcapi.AccountChange{Type: "delete", Data: before}, nil
	case a.Before == nil:
		return rpcapi.AccountChange{Type: "unchanged", Data: nil}, nil
	case sameAccount(a.Before, a.After):
		return rpcapi.AccountChange{Type: "unchanged", Data: before}, nil
	}
	return rpcapi.AccountChange{Type: "update", Data: []any{before, after}}, nil
}

func sameAccount(a, b *runtime.Account) bool {
	return a.Lamports == b.Lamports && a.Owner == b.Owner && a.Executable == b.Executable &&
		a.RentEpoch == b.RentEpoch && bytes.Equal(a.Data, b.Data)
}
