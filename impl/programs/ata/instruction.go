package ata

import (
	"errors"

	"ledgerd/impl/core"
)

// Kind is the instruction's variant: the borsh enum tag, the only byte of the data.
type Kind uint8

// The program's instructions.
const (
	// KindCreate creates the associated token account, failing if it exists. Empty data is
	// also Create (the program's first version took no data).
	KindCreate Kind = iota
	// KindCreateIdempotent creates the account unless it already exists for the same wallet
	// and mint.
	KindCreateIdempotent
	// KindRecoverNested moves the tokens of an associated token account owned by another
	// associated token account back to the wallet's own account, and closes it.
	KindRecoverNested
	numKinds
)

// String returns the variant's name, which the program logs first ("Program log: Create").
func (k Kind) String() string {
	switch k {
	case KindCreate:
		return "Create"
	case KindCreateIdempotent:
		return "CreateIdempotent"
	case KindRecoverNested:
		return "RecoverNested"
	}
	return "Unknown"
}

// Decoding errors, which the program reports as InvalidInstructionData. They are kept apart
// because the on-chain build spends different compute units on them.
var (
	// ErrUnknownVariant is a tag byte that is no instruction.
	ErrUnknownVariant = errors.New("ata: unknown instruction variant")
	// ErrTrailingData is a valid tag followed by more bytes (borsh's try_from_slice insists
	// on reading everything).
	ErrTrailingData = errors.New("ata: trailing bytes after the instruction")
)

// Decode decodes instruction data: empty is Create, else exactly one tag byte.
func Decode(data []byte) (Kind, error) {
	if len(data) == 0 {
		return KindCreate, nil
	}
	if Kind(data[0]) >= numKinds {
		return 0, ErrUnknownVariant
	}
	if len(data) > 1 {
		return 0, ErrTrailingData
	}
	return Kind(data[0]), nil
}

// Address returns the associated token account of wallet for mint under tokenProgram.
func Address(wallet, mint, tokenProgram core.Pubkey) core.Pubkey {
	addr, _ := core.FindAssociatedTokenAddress(wallet, mint, tokenProgram)
	return addr
}

// Create builds Create: funder pays for wallet's associated token account of mint under
// tokenProgram (SPL Token or Token-2022).
func Create(funder, wallet, mint, tokenProgram core.Pubkey) core.Instruction {
	return create(KindCreate, funder, wallet, mint, tokenProgram)
}

// CreateIdempotent builds CreateIdempotent, which succeeds without change when the account
// already exists for wallet and mint.
func CreateIdempotent(funder, wallet, mint, tokenProgram core.Pubkey) core.Instruction {
	return create(KindCreateIdempotent, funder, wallet, mint, tokenProgram)
}

func create(kind Kind, funder, wallet, mint, tokenProgram core.Pubkey) core.Instruction {
	return core.Instruction{
		ProgramID: ProgramID,
		Accounts: []core.AccountMeta{
			core.WritableSigner(funder),
			core.Writable(Address(wallet, mint, tokenProgram)),
			core.Readonly(wallet),
			core.Readonly(mint),
			core.Readonly(core.SystemProgramID),
			core.Readonly(tokenProgram),
		},
		Data: []byte{byte(kind)},
	}
}

// RecoverNested builds RecoverNested: the tokens of nestedMint held by the associated token
// account of wallet's ownerMint account go to wallet's associated account of nestedMint, and
// the nested account is closed to wallet, which signs.
func RecoverNested(wallet, ownerMint, nestedMint, tokenProgram core.Pubkey) core.Instruction {
	owner := Address(wallet, ownerMint, tokenProgram)
	return core.Instruction{
		ProgramID: ProgramID,
		Accounts: []core.AccountMeta{
			core.Writable(Address(owner, nestedMint, tokenProgram)),
			core.Readonly(nestedMint),
			core.Writable(Address(wallet, nestedMint, tokenProgram)),
			core.Readonly(owner),
			core.Readonly(ownerMint),
			core.WritableSigner(wallet),
			core.Readonly(tokenProgram),
		},
		Data: []byte{byte(KindRecoverNested)},
	}
}
