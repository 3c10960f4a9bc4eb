package programs_test

import (
	"slices"
	"strings"
	"testing"

	"ledgerd/impl/core"
	"ledgerd/impl/programs"
	"ledgerd/impl/runtime"
)

// The reference's jsonParsed parsers (Agave's account-decoder PARSABLE_PROGRAM_IDS and
// transaction-status's instruction parsers), by program: what a module of that id should show.
var (
	referenceAccountParsers = map[core.Pubkey]string{
		core.AddressLookupTableProgramID:   "address-lookup-table",
		core.BPFLoaderUpgradeableProgramID: "bpf-upgradeable-loader",
		core.ConfigProgramID:               "config",
		core.SystemProgramID:               "nonce",
		core.TokenProgramID:                "spl-token",
		core.Token2022ProgramID:            "spl-token-2022",
		core.StakeProgramID:                "stake",
		core.SysvarOwnerID:                 "sysvar",
		core.VoteProgramID:                 "vote",
	}
	referenceInstructionParsers = map[core.Pubkey]string{
		core.AddressLookupTableProgramID:   "address-lookup-table",
		core.AssociatedTokenProgramID:      "spl-associated-token-account",
		core.MemoV1ProgramID:               "spl-memo",
		core.MemoProgramID:                 "spl-memo",
		core.TokenProgramID:                "spl-token",
		core.Token2022ProgramID:            "spl-token",
		core.BPFLoaderProgramID:            "bpf-loader",
		core.BPFLoaderUpgradeableProgramID: "bpf-upgradeable-loader",
		core.StakeProgramID:                "stake",
		core.SystemProgramID:               "system",
		core.VoteProgramID:                 "vote",
	}
)

// knownGaps is what the shipped modules lack against the reference, one line per module and
// missing piece. A gap closed or opened must change this list, so it stays the true account of
// what ledgerd does not do yet (the README lists the same).
var knownGaps = []string{
	"config: execution",
	"loader-v4: execution",
	"stake: instruction parser (stake)",
	"vote: instruction parser (vote)",
}

func TestModuleGaps(t *testing.T) {
	t.Parallel()
	var gaps []string
	for _, m := range programs.All() {
		if m.Program == nil && m.Kind != runtime.AccountOwner {
			gaps = append(gaps, m.Name+": execution")
		}
		if want, ok := referenceAccountParsers[m.ID]; ok {
			switch {
			case m.ParseAccount == nil:
				gaps = append(gaps, m.Name+": account parser ("+want+")")
			case m.ParseAccount.Program != want:
				t.Errorf("%s: account parser named %q, the reference says %q", m.Name, m.ParseAccount.Program, want)
			}
		} else if m.ParseAccount != nil {
			t.Errorf("%s: an account parser the reference does not have (%q)", m.Name, m.ParseAccount.Program)
		}
		if want, ok := referenceInstructionParsers[m.ID]; ok {
			switch {
			case m.ParseInstruction == nil:
				gaps = append(gaps, m.Name+": instruction parser ("+want+")")
			case m.ParseInstruction.Program != want:
				t.Errorf("%s: instruction parser named %q, the reference says %q", m.Name, m.ParseInstruction.Program, want)
			}
		} else if m.ParseInstruction != nil {
			t.Errorf("%s: an instruction parser the reference does not have (%q)", m.Name, m.ParseInstruction.Program)
		}
	}
	slices.Sort(gaps)
	if !slices.Equal(gaps, knownGaps) {
		t.Errorf("module gaps changed; update knownGaps (and the README) to:\n\t%s", strings.Join(gaps, "\n\t"))
	}
}

// Every module the reference parses is shipped, ids are unique, and each module says how its
// program account looks at genesis unless it owns accounts without being a program.
func TestModuleList(t *testing.T) {
	t.Parallel()
	mods := programs.All()
	seen := map[core.Pubkey]string{}
	for _, m := range mods {
		if m.Name == "" {
			t.Errorf("module %s has no name", m.ID)
		}
		if other, dup := seen[m.ID]; dup {
			t.Errorf("%s and %s share id %s", other, m.Name, m.ID)
		}
		seen[m.ID] = m.Name
		if (m.Genesis.Loader == core.Pubkey{}) != (m.Kind == runtime.AccountOwner) {
			t.Errorf("%s (%s): genesis loader %s", m.Name, m.Kind, m.Genesis.Loader)
		}
	}
	for id := range referenceAccountParsers {
		if _, ok := seen[id]; !ok {
			t.Errorf("no module for %s, whose accounts the reference parses", id)
		}
	}
	for id := range referenceInstructionParsers {
		if _, ok := seen[id]; !ok {
			t.Errorf("no module for %s, whose instructions the reference parses", id)
		}
	}
	// The registry the node runs is built from the same list.
	reg := programs.Registry()
	if got := len(reg.Modules()); got != len(mods) {
		t.Errorf("registry has %d modules, list %d", got, len(mods))
	}
}
