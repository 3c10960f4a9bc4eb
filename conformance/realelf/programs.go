package realelf

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"slices"

	"ledgerd/impl/core"
)

// Name names one of the real program builds LiteSVM 1.5.0 bundles.
type Name string

// The builds, named as the LiteSVM repository names their files.
const (
	SPLToken      Name = "spl_token-3.5.0"
	PToken        Name = "pinocchio_token_program"
	Token2022     Name = "spl_token_2022-11.0.0"
	Memo1         Name = "spl_memo-1.0.0"
	Memo4         Name = "spl_memo-4.0.0"
	ATA           Name = "spl_associated_token_account-1.1.1"
	LookupTable   Name = "address_lookup_table"
	Stake         Name = "core_bpf_stake-5.0.0"
	programsCount      = 8
)

// Program is one real build: the address and loader LiteSVM installs it under, and its ELF.
type Program struct {
	Name   Name
	ID     core.Pubkey
	Loader core.Pubkey
	ELF    []byte
	SHA256 [32]byte
}

// known is every build: where LiteSVM puts it (the SPL Token id is shared by two builds: LiteSVM runs p-token under
// the upgradeable loader when the feature replace_spl_token_with_p_token is active, SPL Token 3.5.0 under loader v2
// otherwise), the sha256 its bytes must have, and strings found in it and in no other of the eight, which name it
// before its hash is checked, so that a changed build is reported as "a different X" rather than "unknown".
var known = []struct {
	name        Name
	id, loader  core.Pubkey
	sha256      string
	size        int
	markers     []string
	description string
}{
	{SPLToken, core.TokenProgramID, core.BPFLoaderProgramID,
		"7b44674b9704fa7640fbebfac68389f338b500b8c2bc29175c27ed66838b5a3c", 134_080,
		[]string{"token/program/src/processor.rs"}, "SPL Token 3.5.0"},
	{PToken, core.TokenProgramID, core.BPFLoaderUpgradeableProgramID,
		"53e587eee80c786bcfba1450397d92179a0f01def776d19fb4ddf690d64431cc", 100_312,
		[]string{"pinocchio/program/src"}, "p-token (pinocchio SPL Token)"},
	{Token2022, core.Token2022ProgramID, core.BPFLoaderUpgradeableProgramID,
		"495e9d7680dd555cb126a6a8e5464af5be9b01f02f2cd70634352722d22e3cad", 615_936,
		[]string{"SPL Token-2022"}, "SPL Token-2022 11.0.0"},
	{Memo1, core.MemoV1ProgramID, core.BPFLoaderDeprecatedProgramID,
		"67053ed6b0c4b2ff0cead4dc469b2dd30847264b28164ef5e5263d5cf1258c6e", 17_280,
		[]string{"rust-bpf-sysroot"}, "SPL Memo 1.0.0"},
	{Memo4, core.MemoProgramID, core.BPFLoaderProgramID,
		"0c92063c6838d9ad8af50aaefea9a166b5bb41a2bfa2bc6327d7db320849bc78", 2_304,
		[]string{"Signed by", "Memo"}, "SPL Memo 4.0.0"},
	{ATA, core.AssociatedTokenProgramID, core.BPFLoaderProgramID,
		"6804554e69fd3a58caa191dc4a58f4c67223d30ca28ab8987f39fc18d2f7374d", 105_032,
		[]string{"associated-token-account/program/src"}, "SPL Associated Token Account 1.1.1"},
	{LookupTable, core.AddressLookupTableProgramID, core.BPFLoaderUpgradeableProgramID,
		"e264e1537c5ee1252aae1fa476c25000b641357bc6af4efab65f314160a99570", 170_144,
		[]string{"Lookup table is full"}, "Address Lookup Table (Core BPF)"},
	{Stake, core.StakeProgramID, core.BPFLoaderUpgradeableProgramID,
		"c9cba7f3d9fe0fac1f32e7a5e012284104a25d27ec97d6eb6d99a3afcd2352a8", 202_280,
		[]string{"stake already deactivated"}, "Core BPF Stake 5.0.0"},
}

// Names returns the names of the eight builds, in a fixed order.
func Names() []Name {
	out := make([]Name, len(known))
	for i, k := range known {
		out[i] = k.name
	}
	return out
}

// Describe returns a human name of the build, e.g. "SPL Memo 4.0.0".
func Describe(n Name) string {
	for _, k := range known {
		if k.name == n {
			return k.description
		}
	}
	return string(n)
}

// Identify names elf by its content strings (exactly one build's markers must all be present) and checks that its
// sha256 is the pinned one of that build.
func Identify(elf []byte) (Program, error) {
	var matched []int
	for i, k := range known {
		if !slices.ContainsFunc(k.markers, func(m string) bool { return !bytes.Contains(elf, []byte(m)) }) {
			matched = append(matched, i)
		}
	}
	sum := sha256.Sum256(elf)
	switch len(matched) {
	case 0:
		return Program{}, fmt.Errorf("an ELF of %d bytes (sha256 %x) is none of the known builds", len(elf), sum)
	case 1:
	default:
		names := make([]Name, len(matched))
		for j, i := range matched {
			names[j] = known[i].name
		}
		return Program{}, fmt.Errorf("an ELF of %d bytes (sha256 %x) carries the strings of several builds: %v", len(elf), sum, names)
	}
	k := known[matched[0]]
	if got := hex.EncodeToString(sum[:]); got != k.sha256 {
		return Program{}, fmt.Errorf("%s: sha256 %s (%d bytes), want %s (%d bytes): a different build than the one pinned",
			k.name, got, len(elf), k.sha256, k.size)
	}
	return Program{Name: k.name, ID: k.id, Loader: k.loader, ELF: elf, SHA256: sum}, nil
}

// Extract cuts the eight builds out of the native module of npm litesvm@1.5.0 and identifies them. Every ELF in the
// module must be one of them, and each must be found exactly once.
func Extract(module []byte) (map[Name]Program, error) {
	out := map[Name]Program{}
	for _, e := range Scan(module) {
		p, err := Identify(e.ELF)
		if err != nil {
			return nil, fmt.Errorf("the ELF at offset %#x: %w", e.Offset, err)
		}
		if _, dup := out[p.Name]; dup {
			return nil, fmt.Errorf("the ELF at offset %#x: a second copy of %s", e.Offset, p.Name)
		}
		out[p.Name] = p
	}
	if len(out) != programsCount {
		var missing []Name
		for _, n := range Names() {
			if _, ok := out[n]; !ok {
				missing = append(missing, n)
			}
		}
		return nil, fmt.Errorf("the module holds %d of the %d builds; missing %v", len(out), programsCount, missing)
	}
	return out, nil
}
