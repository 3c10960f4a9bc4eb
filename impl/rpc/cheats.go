package rpc

import (
	"context"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"net"
	"strings"
	"time"

	"ledgerd/generated/rpcapi"
	"ledgerd/impl/core"
	"ledgerd/impl/ledger"
	"ledgerd/impl/runtime"
)

// The developer's methods (schema/methods/cheats.yaml): surfpool's cheat codes under their names and shapes, and
// ledgerd's own snapshot, revert and slot production. They change the chain through the ledger's producer, as a
// transaction would; this file only reads their params and shapes their results.

// IsLoopback reports whether a bind address reaches only this machine, where cheat methods are served by
// default.
func IsLoopback(addr string) bool {
	if strings.EqualFold(addr, "localhost") {
		return true
	}
	ip := net.ParseIP(addr)
	return ip != nil && ip.IsLoopback()
}

// cheat refuses a cheat method on a node that does not serve them.
func (s *Server) cheat(method string) error {
	if !s.node.Cheats {
		return rpcapi.NewCheatsDisabledError(method)
	}
	return nil
}

// cheatError maps a refused developer request to -32602 with its reason; other errors pass through.
func cheatError(err error) error {
	if errors.Is(err, ledger.ErrInvalidCheat) {
		return rpcapi.NewInvalidParamsError(err.Error())
	}
	return err
}

func nullResponse(slot uint64) rpcapi.RpcResponseNull {
	return rpcapi.RpcResponseNull{Context: rpcContext(slot)}
}

// epochInfo is getEpochInfo's answer for the working bank.
func (s *Server) epochInfo() rpcapi.EpochInfo {
	bank := s.ledger.Bank(ledger.Processed)
	schedule := bank.Env.EpochSchedule
	epoch, index := schedule.GetEpochAndSlotIndex(bank.Slot)
	count := bank.TransactionCount()
	return rpcapi.EpochInfo{AbsoluteSlot: bank.Slot, BlockHeight: bank.BlockHeight, Epoch: epoch, SlotIndex: index,
		SlotsInEpoch: schedule.GetSlotsInEpoch(epoch), TransactionCount: &count}
}

func (s *Server) SurfnetSetAccount(ctx context.Context, p *rpcapi.SurfnetSetAccountParams) (r rpcapi.SurfnetSetAccountResult, err error) {
	if err := s.cheat(rpcapi.MethodSurfnetSetAccount); err != nil {
		return r, err
	}
	key := p.Pubkey
	u := p.Update
	var data []byte
	if u.Data != nil {
		if data, err = hex.DecodeString(*u.Data); err != nil {
			return r, rpcapi.NewInvalidParamsError("Invalid hex data provided: " + err.Error())
		}
	}
	var owner *core.Pubkey
	if u.Owner != nil {
		o, err := core.ParsePubkey(string(*u.Owner))
		if err != nil {
			return r, rpcapi.NewInvalidParamsError("Invalid owner: " + err.Error())
		}
		owner = &o
	}
	slot, err := s.ledger.Cheat(ctx, func(read ledger.AccountReader, _ func(core.Pubkey) ([]core.Pubkey, error)) ([]runtime.AccountWrite, error) {
		a, found, err := read(key)
		if err != nil {
			return nil, err
		}
		if !found {
			a = runtime.Account{Owner: core.SystemProgramID}
		}
		a = a.Clone()
		if u.Lamports != nil {
			a.Lamports = *u.Lamports
		}
		if u.Data != nil {
			a.Data = data
		}
		if owner != nil {
			a.Owner = *owner
		}
		if u.Executable != nil {
			a.Executable = *u.Executable
		}
		if u.RentEpoch != nil {
			a.RentEpoch = *u.RentEpoch
		}
		if a.Lamports == 0 {
			a = runtime.Account{}
		}
		return []runtime.AccountWrite{{Pubkey: key, Account: a}}, nil
	})
	if err != nil {
		return r, cheatError(err)
	}
	return nullResponse(slot), nil
}

// parsePubkeyParam turns a validated pubkey param's bytes into a Pubkey.
func parsePubkeyParam(b []byte, err error) (core.Pubkey, error) {
	if err != nil {
		return core.Pubkey{}, err
	}
	return core.Pubkey(b), nil
}

// SPL Token account layout (the tokenAccountLen bytes both token programs share).
const (
	tokenAmountOff      = 64
	tokenDelegateOff    = 72
	tokenStateOff       = 108
	tokenDelegatedOff   = 121
	tokenCloseAuthOff   = 129
	tokenStateUninit    = 0
	tokenStateInit      = 1
	tokenStateFrozen    = 2
	tokenMintLen        = 82
	tokenMintInitialize = 45
)

func (s *Server) SurfnetSetTokenAccount(ctx context.Context, p *rpcapi.SurfnetSetTokenAccountParams) (r rpcapi.SurfnetSetTokenAccountResult, err error) {
	if err := s.cheat(rpcapi.MethodSurfnetSetTokenAccount); err != nil {
		return r, err
	}
	owner := p.Owner
	mint := p.Mint
	program := core.TokenProgramID
	if tp, ok := p.TokenProgram.Get(); ok {
		program = tp
		if program != core.TokenProgramID && program != core.Token2022ProgramID {
			return r, rpcapi.NewInvalidParamsError("Invalid token program: " + program.String())
		}
	}
	u := p.Update
	optionKey := func(v *string, what string) (set bool, key *core.Pubkey, err error) {
		if v == nil {
			return false, nil, nil
		}
		if *v == "null" {
			return true, nil, nil
		}
		k, err := core.ParsePubkey(*v)
		if err != nil {
			return false, nil, rpcapi.NewInvalidParamsError(fmt.Sprintf("Invalid %s: %v", what, err))
		}
		return true, &k, nil
	}
	setDelegate, delegate, err := optionKey(u.Delegate, "delegate")
	if err != nil {
		return r, err
	}
	setClose, closeAuth, err := optionKey(u.CloseAuthority, "close authority")
	if err != nil {
		return r, err
	}
	state := -1
	if u.State != nil {
		switch *u.State {
		case "uninitialized":
			state = tokenStateUninit
		case "initialized":
			state = tokenStateInit
		case "frozen":
			state = tokenStateFrozen
		default:
			return r, rpcapi.NewInvalidParamsError("Invalid token account state: " + *u.State)
		}
	}
	ata, _ := core.FindAssociatedTokenAddress(owner, mint, program)
	rent := s.ledger.Rent()
	slot, err := s.ledger.Cheat(ctx, func(read ledger.AccountReader, _ func(core.Pubkey) ([]core.Pubkey, error)) ([]runtime.AccountWrite, error) {
		m, found, err := read(mint)
		if err != nil {
			return nil, err
		}
		if !found || m.Owner != program || len(m.Data) < tokenMintLen || m.Data[tokenMintInitialize] != 1 {
			return nil, fmt.Errorf("%w: %s is not a mint of %s", ledger.ErrInvalidCheat, mint, program)
		}
		a, found, err := read(ata)
		if err != nil {
			return nil, err
		}
		if !found || a.Owner != program || len(a.Data) < tokenAccountLen {
			data := make([]byte, tokenAccountLen)
			copy(data, mint[:])
			copy(data[32:], owner[:])
			data[tokenStateOff] = tokenStateInit
			a = runtime.Account{Lamports: max(a.Lamports, rent.MinimumBalance(tokenAccountLen)), Owner: program,
				RentEpoch: runtime.RentExemptRentEpoch, Data: data}
		} else {
			a = a.Clone()
		}
		d := a.Data
		if u.Amount != nil {
			binary.LittleEndian.PutUint64(d[tokenAmountOff:], *u.Amount)
		}
		if setDelegate {
			putOptionKey(d[tokenDelegateOff:], delegate)
		}
		if state >= 0 {
			d[tokenStateOff] = byte(state)
		}
		if u.DelegatedAmount != nil {
			binary.LittleEndian.PutUint64(d[tokenDelegatedOff:], *u.DelegatedAmount)
		}
		if setClose {
			putOptionKey(d[tokenCloseAuthOff:], closeAuth)
		}
		return []runtime.AccountWrite{{Pubkey: ata, Account: a}}, nil
	})
	if err != nil {
		return r, cheatError(err)
	}
	return nullResponse(slot), nil
}

// putOptionKey writes a COption<Pubkey>: a u32 tag, then the key (zeros for none).
func putOptionKey(d []byte, k *core.Pubkey) {
	if k == nil {
		clear(d[:36])
		return
	}
	binary.LittleEndian.PutUint32(d, 1)
	copy(d[4:36], k[:])
}

func (s *Server) SurfnetTimeTravel(ctx context.Context, p *rpcapi.SurfnetTimeTravelParams) (r rpcapi.SurfnetTimeTravelResult, err error) {
	if err := s.cheat(rpcapi.MethodSurfnetTimeTravel); err != nil {
		return r, err
	}
	var slot, epoch, ts *uint64
	if c, ok := p.Config.Get(); ok {
		slot, epoch, ts = c.AbsoluteSlot, c.AbsoluteEpoch, c.AbsoluteTimestamp
	} else {
		// surfpool's default: an hour from now.
		hour := uint64(time.Now().Add(time.Hour).UnixMilli())
		ts = &hour
	}
	if err := s.ledger.TimeTravel(ctx, slot, epoch, ts); err != nil {
		return r, cheatError(err)
	}
	return s.epochInfo(), nil
}

func (s *Server) SurfnetPauseClock(ctx context.Context) (r rpcapi.SurfnetPauseClockResult, err error) {
	if err := s.cheat(rpcapi.MethodSurfnetPauseClock); err != nil {
		return r, err
	}
	s.ledger.PauseClock()
	return s.epochInfo(), nil
}

func (s *Server) SurfnetResumeClock(ctx context.Context) (r rpcapi.SurfnetResumeClockResult, err error) {
	if err := s.cheat(rpcapi.MethodSurfnetResumeClock); err != nil {
		return r, err
	}
	s.ledger.ResumeClock()
	return s.epochInfo(), nil
}

func (s *Server) SurfnetResetAccount(ctx context.Context, p *rpcapi.SurfnetResetAccountParams) (r rpcapi.SurfnetResetAccountResult, err error) {
	if err := s.cheat(rpcapi.MethodSurfnetResetAccount); err != nil {
		return r, err
	}
	key := p.Pubkey
	owned := p.Config.OrZero().IncludeOwnedAccounts
	withOwned := owned != nil && *owned
	slot, err := s.ledger.Cheat(ctx, func(read ledger.AccountReader, owned func(core.Pubkey) ([]core.Pubkey, error)) ([]runtime.AccountWrite, error) {
		keys := []core.Pubkey{key}
		if withOwned {
			more, err := owned(key)
			if err != nil {
				return nil, err
			}
			keys = append(keys, more...)
		}
		// On a fork the original state is the cluster's: asked anew, with a program's data and a token's mint.
		fresh, err := s.ledger.ForkFresh(keys)
		if err != nil {
			return nil, err
		}
		var writes []runtime.AccountWrite
		for _, k := range keys {
			if _, found, err := read(k); err != nil {
				return nil, err
			} else if _, refetched := fresh[k]; found && !refetched {
				writes = append(writes, runtime.AccountWrite{Pubkey: k})
			}
		}
		return append(writes, sortedWrites(fresh)...), nil
	})
	if err != nil {
		return r, cheatError(err)
	}
	return nullResponse(slot), nil
}

func (s *Server) SurfnetGetSurfnetInfo(ctx context.Context) (r rpcapi.SurfnetGetSurfnetInfoResult, err error) {
	processed, _, _ := s.ledger.Slots()
	return rpcapi.RpcResponseSurfnetInfo{Context: rpcContext(processed),
		Value: rpcapi.SurfnetInfo{RunbookExecutions: []rpcapi.SurfnetInfoRunbookExecutionsItem{}}}, nil
}

func (s *Server) LedgerdAdvanceSlots(ctx context.Context, p *rpcapi.LedgerdAdvanceSlotsParams) (r rpcapi.LedgerdAdvanceSlotsResult, err error) {
	if err := s.cheat(rpcapi.MethodLedgerdAdvanceSlots); err != nil {
		return r, err
	}
	n := p.Count.Or(uint64(1))
	slot, err := s.ledger.AdvanceSlots(ctx, n)
	if err != nil {
		return r, cheatError(err)
	}
	return slot, nil
}

func (s *Server) LedgerdSnapshot(ctx context.Context) (r rpcapi.LedgerdSnapshotResult, err error) {
	if err := s.cheat(rpcapi.MethodLedgerdSnapshot); err != nil {
		return r, err
	}
	id, _, err := s.ledger.Snapshot(ctx)
	if err != nil {
		return r, cheatError(err)
	}
	return id, nil
}

func (s *Server) LedgerdRevert(ctx context.Context, p *rpcapi.LedgerdRevertParams) (r rpcapi.LedgerdRevertResult, err error) {
	if err := s.cheat(rpcapi.MethodLedgerdRevert); err != nil {
		return r, err
	}
	ok, err := s.ledger.Revert(ctx, p.Id)
	if err != nil {
		return r, cheatError(err)
	}
	return ok, nil
}
