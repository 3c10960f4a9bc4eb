package rpc

import (
	"context"
	"encoding/binary"
	"encoding/hex"
	"fmt"

	"ledgerd/generated/rpcapi"
	"ledgerd/impl/core"
	"ledgerd/impl/ledger"
	"ledgerd/impl/programs/loader"
	"ledgerd/impl/runtime"
)

// surfpool's program cheat codes: set a program's upgrade authority, copy a program to another address, write a
// program's ELF in chunks. They write the upgradeable loader's accounts as the loader lays them out.

// The upgradeable loader's account layouts: a program is its state tag (u32 2) and its ProgramData's address; a
// ProgramData is its tag (u32 3), the deployment slot (u64) and an optional authority (a tag byte and 32 bytes,
// zeros when none), then the ELF.
const (
	upgradeableProgramLen  = 36
	upgradeableProgramTag  = 2
	programDataTag         = 3
	programDataHeaderLen   = 45
	programDataAuthorityAt = 12
)

// programDataAddress is where the upgradeable loader keeps program's ProgramData.
func programDataAddress(program core.Pubkey) core.Pubkey {
	k, _, _ := core.FindProgramAddress([][]byte{program[:]}, core.BPFLoaderUpgradeableProgramID)
	return k
}

func invalidProgram(program core.Pubkey, why string) error {
	return fmt.Errorf("%w: invalid program account %s: %s", ledger.ErrInvalidCheat, program, why)
}

// readUpgradeable reads an upgradeable program and its ProgramData, checking both layouts.
func readUpgradeable(read ledger.AccountReader, program core.Pubkey) (prog runtime.Account, pdKey core.Pubkey, pd runtime.Account, err error) {
	prog, found, err := read(program)
	if err != nil {
		return
	}
	if !found {
		err = invalidProgram(program, "account not found")
		return
	}
	if prog.Owner != core.BPFLoaderUpgradeableProgramID || len(prog.Data) < upgradeableProgramLen ||
		binary.LittleEndian.Uint32(prog.Data) != upgradeableProgramTag {
		err = fmt.Errorf("%w: account %s is not a program account", ledger.ErrInvalidCheat, program)
		return
	}
	pdKey = core.Pubkey(prog.Data[4:36])
	pd, found, err = read(pdKey)
	if err != nil {
		return
	}
	if !found || pd.Owner != core.BPFLoaderUpgradeableProgramID || len(pd.Data) < programDataHeaderLen ||
		binary.LittleEndian.Uint32(pd.Data) != programDataTag {
		err = invalidProgram(program, "program data account does not exist")
	}
	return
}

// putAuthority writes a ProgramData's optional upgrade authority.
func putAuthority(header []byte, k *core.Pubkey) {
	a := header[programDataAuthorityAt:programDataHeaderLen]
	clear(a)
	if k != nil {
		a[0] = 1
		copy(a[1:], k[:])
	}
}

func optionalPubkey(b []byte, err error, set bool) (*core.Pubkey, error) {
	if !set {
		return nil, nil
	}
	k, err := parsePubkeyParam(b, err)
	if err != nil {
		return nil, err
	}
	return &k, nil
}

func (s *Server) SurfnetSetProgramAuthority(ctx context.Context, p *rpcapi.SurfnetSetProgramAuthorityParams) (r rpcapi.SurfnetSetProgramAuthorityResult, err error) {
	if err := s.cheat(rpcapi.MethodSurfnetSetProgramAuthority); err != nil {
		return r, err
	}
	program := p.ProgramId
	authority := p.NewAuthority.Ptr()
	slot, err := s.ledger.Cheat(ctx, func(read ledger.AccountReader, _ func(core.Pubkey) ([]core.Pubkey, error)) ([]runtime.AccountWrite, error) {
		_, pdKey, pd, err := readUpgradeable(read, program)
		if err != nil {
			return nil, err
		}
		pd = pd.Clone()
		putAuthority(pd.Data, authority)
		return []runtime.AccountWrite{{Pubkey: pdKey, Account: pd}}, nil
	})
	if err != nil {
		return r, cheatError(err)
	}
	return nullResponse(slot), nil
}

func (s *Server) SurfnetCloneProgramAccount(ctx context.Context, p *rpcapi.SurfnetCloneProgramAccountParams) (r rpcapi.SurfnetCloneProgramAccountResult, err error) {
	if err := s.cheat(rpcapi.MethodSurfnetCloneProgramAccount); err != nil {
		return r, err
	}
	src := p.SourceProgramId
	dst := p.DestinationProgramId
	if src == dst {
		return r, rpcapi.NewInvalidParamsError("source and destination programs are the same")
	}
	dstData := programDataAddress(dst)
	slot, err := s.ledger.Cheat(ctx, func(read ledger.AccountReader, _ func(core.Pubkey) ([]core.Pubkey, error)) ([]runtime.AccountWrite, error) {
		prog, pdKey, pd, err := readUpgradeable(read, src)
		if err != nil {
			return nil, err
		}
		if want := programDataAddress(src); pdKey != want {
			return nil, invalidProgram(src, fmt.Sprintf("Program data address mismatch: expected %s, found %s", want, pdKey))
		}
		prog = prog.Clone()
		copy(prog.Data[4:36], dstData[:])
		return []runtime.AccountWrite{{Pubkey: dstData, Account: pd.Clone()}, {Pubkey: dst, Account: prog}}, nil
	})
	if err != nil {
		return r, cheatError(err)
	}
	loader.Programs.Invalidate(dst)
	return nullResponse(slot), nil
}

func (s *Server) SurfnetWriteProgram(ctx context.Context, p *rpcapi.SurfnetWriteProgramParams) (r rpcapi.SurfnetWriteProgramResult, err error) {
	if err := s.cheat(rpcapi.MethodSurfnetWriteProgram); err != nil {
		return r, err
	}
	program := p.ProgramId
	authority := p.Authority.Ptr()
	chunk, err := hex.DecodeString(p.Data)
	if err != nil {
		return r, rpcapi.NewInvalidParamsError("Invalid hex data provided: " + err.Error())
	}
	const maxELF = runtime.MaxPermittedDataLength - programDataHeaderLen
	if p.Offset > maxELF || uint64(len(chunk)) > maxELF-p.Offset {
		return r, rpcapi.NewInvalidParamsError(fmt.Sprintf("offset %d plus %d bytes passes the largest program, %d bytes", p.Offset, len(chunk), maxELF))
	}
	end := programDataHeaderLen + int(p.Offset) + len(chunk)
	rent := s.ledger.Rent()
	slot, err := s.ledger.Cheat(ctx, func(read ledger.AccountReader, _ func(core.Pubkey) ([]core.Pubkey, error)) ([]runtime.AccountWrite, error) {
		// The producer runs this between slots, so the working slot is the one the write goes into.
		working, _, _ := s.ledger.Slots()
		var writes []runtime.AccountWrite
		pdKey := programDataAddress(program)
		prog, found, err := read(program)
		if err != nil {
			return nil, err
		}
		if !found {
			data := make([]byte, upgradeableProgramLen)
			binary.LittleEndian.PutUint32(data, upgradeableProgramTag)
			copy(data[4:], pdKey[:])
			writes = append(writes, runtime.AccountWrite{Pubkey: program, Account: runtime.Account{
				Lamports: rent.MinimumBalance(upgradeableProgramLen), Owner: core.BPFLoaderUpgradeableProgramID,
				Executable: true, RentEpoch: runtime.RentExemptRentEpoch, Data: data}})
		} else {
			if prog.Owner != core.BPFLoaderUpgradeableProgramID || len(prog.Data) < upgradeableProgramLen ||
				binary.LittleEndian.Uint32(prog.Data) != upgradeableProgramTag {
				return nil, invalidProgram(program, "Account not owned by the BPF Upgradeable Loader")
			}
			if !prog.Executable {
				return nil, invalidProgram(program, "Account not executable")
			}
			pdKey = core.Pubkey(prog.Data[4:36])
		}
		pd, found, err := read(pdKey)
		if err != nil {
			return nil, err
		}
		if !found {
			pd = runtime.Account{Owner: core.BPFLoaderUpgradeableProgramID, RentEpoch: runtime.RentExemptRentEpoch,
				Data: make([]byte, programDataHeaderLen)}
			binary.LittleEndian.PutUint32(pd.Data, programDataTag)
			a := core.SystemProgramID
			if authority != nil {
				a = *authority
			}
			putAuthority(pd.Data, &a)
		} else {
			if pd.Owner != core.BPFLoaderUpgradeableProgramID || len(pd.Data) < programDataHeaderLen ||
				binary.LittleEndian.Uint32(pd.Data) != programDataTag {
				return nil, fmt.Errorf("%w: invalid program data account %s: Account is not a program data account", ledger.ErrInvalidCheat, pdKey)
			}
			pd = pd.Clone()
			if authority != nil {
				putAuthority(pd.Data, authority)
			}
		}
		if end > len(pd.Data) {
			pd.Data = append(pd.Data, make([]byte, end-len(pd.Data))...)
		}
		copy(pd.Data[programDataHeaderLen+int(p.Offset):], chunk)
		pd.Lamports = max(pd.Lamports, rent.MinimumBalance(uint64(len(pd.Data))))
		// A deployment is visible from the slot after its own, as the loader's deploy makes it.
		binary.LittleEndian.PutUint64(pd.Data[4:], working)
		return append(writes, runtime.AccountWrite{Pubkey: pdKey, Account: pd}), nil
	})
	if err != nil {
		return r, cheatError(err)
	}
	loader.Programs.Invalidate(program)
	return nullResponse(slot), nil
}
