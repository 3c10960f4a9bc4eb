package runtime

import (
	"ledgerd/impl/core"
	"ledgerd/impl/core/sysvar"
)

// DefaultLamportsPerSignature is the base fee per signature.
const DefaultLamportsPerSignature = sysvar.DefaultLamportsPerSignature

// Features switches behaviour that the reference gates behind feature activations. The zero
// value is the behaviour of the current mainnet cluster.
type Features struct {
	// ExecutableAccountsReadOnly restores the checks removed by
	// remove_accounts_executable_flag_checks: an executable account's lamports, data and owner
	// may not change at all (ExecutableLamportChange, ExecutableDataModified,
	// ModifiedProgramId), invoked programs must be executable (InvalidProgramForExecution,
	// and AccountNotExecutable for a CPI). Off by default, as on mainnet today, where the
	// general owner rules protect program accounts and anyone may credit them.
	ExecutableAccountsReadOnly bool
	// CreateAccountAllowPrefund enables the system program's CreateAccountAllowPrefund
	// (instruction 13); without it the instruction is InvalidInstructionData.
	CreateAccountAllowPrefund bool
}

// Env is what the runtime needs to know about the bank a transaction executes in: the sysvar
// values programs read, the blockhash that durable nonces advance to, the fee rate, and the
// programs. An Env is read-only during execution and may be shared by concurrent calls.
type Env struct {
	Rent          sysvar.Rent
	Clock         sysvar.Clock
	EpochSchedule sysvar.EpochSchedule
	// Blockhash is the bank's last blockhash: nonces advanced in this bank store
	// nonce.DurableNonceFromBlockhash(Blockhash).
	Blockhash core.Hash
	// LamportsPerSignature is the fee per signature, and the rate nonces record.
	LamportsPerSignature uint64
	// RecentBlockhashes is the (deprecated) RecentBlockhashes sysvar, newest first. Unless
	// Options.CheckBlockhash says otherwise, a transaction's blockhash is valid when it is
	// Blockhash or one of these.
	RecentBlockhashes sysvar.RecentBlockhashes
	// SysvarData holds the account data of sysvars as stored in the bank. Sysvars missing
	// here are encoded from the typed fields above when a transaction loads them and the
	// account source does not have them.
	SysvarData map[core.Pubkey][]byte
	// Programs resolves program ids to their modules; nil means no programs at all.
	Programs *Registry
	// EpochStake returns the stake delegated to vote account vote in the current epoch's stakes
	// (nil: the total over every vote account), what sol_get_epoch_stake reports; nil reports 0.
	EpochStake func(vote *core.Pubkey) uint64
	// Features selects feature-gated behaviour.
	Features Features
}

// DefaultEnv returns an Env with the reference's default rent, epoch schedule and fee, slot 0,
// the given blockhash as the only recent one, and programs (nil: none).
func DefaultEnv(blockhash core.Hash, programs *Registry) *Env {
	return &Env{
		Rent:                 sysvar.DefaultRent(),
		EpochSchedule:        sysvar.DefaultEpochSchedule(),
		Blockhash:            blockhash,
		LamportsPerSignature: DefaultLamportsPerSignature,
		RecentBlockhashes: sysvar.RecentBlockhashes{{
			Blockhash:     blockhash,
			FeeCalculator: sysvar.FeeCalculator{LamportsPerSignature: DefaultLamportsPerSignature},
		}},
		Programs: programs,
	}
}

// noPrograms is the registry of an Env without programs.
var noPrograms = NewRegistry()

// registry returns the programs, defaulting to none.
func (e *Env) registry() *Registry {
	if e.Programs != nil {
		return e.Programs
	}
	return noPrograms
}

// Sysvar returns the account data of the sysvar id: SysvarData[id] when present, else the
// encoding of the typed value (Clock, Rent, EpochSchedule, Fees, RecentBlockhashes).
func (e *Env) Sysvar(id core.Pubkey) ([]byte, bool) {
	if d, ok := e.SysvarData[id]; ok {
		return d, true
	}
	switch id {
	case core.SysvarClockID:
		return e.Clock.Marshal(), true
	case core.SysvarRentID:
		return e.Rent.Marshal(), true
	case core.SysvarEpochScheduleID:
		return e.EpochSchedule.Marshal(), true
	case core.SysvarFeesID:
		f := sysvar.Fees{FeeCalculator: sysvar.FeeCalculator{LamportsPerSignature: e.LamportsPerSignature}}
		return f.Marshal(), true
	case core.SysvarRecentBlockhashesID:
		return e.RecentBlockhashes.AccountData(), true
	}
	return nil, false
}

// SysvarAccount returns the sysvar account id as the bank would hold it: owned by the sysvar
// program, rent exempt, holding Sysvar(id).
func (e *Env) SysvarAccount(id core.Pubkey) (Account, bool) {
	data, ok := e.Sysvar(id)
	if !ok {
		return Account{}, false
	}
	return Account{
		Lamports:  max(e.Rent.MinimumBalance(uint64(len(data))), 1),
		Owner:     core.SysvarOwnerID,
		RentEpoch: 0,
		Data:      data,
	}, true
}

// blockhashValid is the default age check: the bank's blockhash or a recent one.
func (e *Env) blockhashValid(h core.Hash) (uint64, bool) {
	if h == e.Blockhash {
		return e.LamportsPerSignature, true
	}
	for i := range e.RecentBlockhashes {
		if e.RecentBlockhashes[i].Blockhash == h {
			return e.RecentBlockhashes[i].FeeCalculator.LamportsPerSignature, true
		}
	}
	return 0, false
}
