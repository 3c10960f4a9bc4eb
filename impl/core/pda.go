package core

import (
	"crypto/sha256"
	"errors"
)

// Address derivation limits.
const (
	MaxSeedLen = 32 // longest seed of a derived address
	MaxSeeds   = 16 // most seeds of a program address, bump included
)

// PDAMarker ends the hash input of every program-derived address, and no owner of a
// CreateWithSeed address may end with it.
const PDAMarker = "ProgramDerivedAddress"

// Address derivation errors; the texts are the reference's AddressError Display forms.
var (
	ErrMaxSeedLengthExceeded = errors.New("Length of the seed is too long for address generation")
	ErrInvalidSeeds          = errors.New("Provided seeds do not result in a valid address")
	ErrIllegalOwner          = errors.New("Provided owner is not allowed")
	// ErrNoViableBump: no bump seed in 255..1 gives an off-curve address.
	ErrNoViableBump = errors.New("Unable to find a viable program address bump seed")
)

// programAddressHash hashes seeds || extra || programID || PDAMarker without allocating.
func programAddressHash(seeds [][]byte, extra []byte, programID *Pubkey) [32]byte {
	var buf [MaxSeeds*MaxSeedLen + PubkeyLen + len(PDAMarker)]byte
	n := 0
	for _, s := range seeds {
		n += copy(buf[n:], s)
	}
	n += copy(buf[n:], extra)
	n += copy(buf[n:], programID[:])
	n += copy(buf[n:], PDAMarker)
	return sha256.Sum256(buf[:n])
}

func checkSeeds(seeds [][]byte, extra int) error {
	if len(seeds)+extra > MaxSeeds {
		return ErrMaxSeedLengthExceeded
	}
	for _, s := range seeds {
		if len(s) > MaxSeedLen {
			return ErrMaxSeedLengthExceeded
		}
	}
	return nil
}

// CreateProgramAddress derives the program address of seeds (at most 16, each at most 32
// bytes): SHA-256 of the seeds, the program id and PDAMarker. A hash that lands on the Ed25519
// curve is ErrInvalidSeeds, since someone could hold its secret key.
func CreateProgramAddress(seeds [][]byte, programID Pubkey) (Pubkey, error) {
	if err := checkSeeds(seeds, 0); err != nil {
		return Pubkey{}, err
	}
	h := programAddressHash(seeds, nil, &programID)
	if IsOnCurve(h[:]) {
		return Pubkey{}, ErrInvalidSeeds
	}
	return Pubkey(h), nil
}

// FindProgramAddress searches bump seeds from 255 down to 1 (as the reference does: bump 0 is
// never tried) for the first that, appended to seeds, yields an off-curve address. Seeds that
// break the limits (including room for the bump) give ErrMaxSeedLengthExceeded.
func FindProgramAddress(seeds [][]byte, programID Pubkey) (Pubkey, uint8, error) {
	if err := checkSeeds(seeds, 1); err != nil {
		return Pubkey{}, 0, err
	}
	var bump [1]byte
	for b := 255; b >= 1; b-- {
		bump[0] = byte(b)
		h := programAddressHash(seeds, bump[:], &programID)
		if !IsOnCurve(h[:]) {
			return Pubkey(h), byte(b), nil
		}
	}
	return Pubkey{}, 0, ErrNoViableBump
}

// CreateWithSeed derives SHA-256(base || seed || owner), the address of system-program
// *WithSeed instructions. The seed is at most 32 bytes and the owner must not end with
// PDAMarker (so such an address cannot impersonate a program address).
func CreateWithSeed(base Pubkey, seed string, owner Pubkey) (Pubkey, error) {
	if len(seed) > MaxSeedLen {
		return Pubkey{}, ErrMaxSeedLengthExceeded
	}
	if string(owner[PubkeyLen-len(PDAMarker):]) == PDAMarker {
		return Pubkey{}, ErrIllegalOwner
	}
	var buf [PubkeyLen + MaxSeedLen + PubkeyLen]byte
	n := copy(buf[:], base[:])
	n += copy(buf[n:], seed)
	n += copy(buf[n:], owner[:])
	return Pubkey(sha256.Sum256(buf[:n])), nil
}

// FindAssociatedTokenAddress returns the associated token account of wallet for mint under
// tokenProgram (SPL Token or Token-2022), and its bump.
func FindAssociatedTokenAddress(wallet, mint, tokenProgram Pubkey) (Pubkey, uint8) {
	addr, bump, err := FindProgramAddress([][]byte{wallet[:], tokenProgram[:], mint[:]}, AssociatedTokenProgramID)
	if err != nil {
		// Three 32-byte seeds are within the limits, and a bump exists with overwhelming
		// probability (each try is off-curve with probability about 1/2).
		panic("core: no associated token address: " + err.Error())
	}
	return addr, bump
}
