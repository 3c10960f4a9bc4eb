//go:build unix

package realelf

import (
	"bytes"
	"encoding/binary"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"ledgerd/impl/core"
)

// TestPrograms: the eight builds come out of the installed LiteSVM module, each with the address, loader, size and
// hash LiteSVM uses, each an SBPF v0 ELF (e_flags 0), and a second load is served from the cache.
func TestPrograms(t *testing.T) {
	progs := Programs(t)
	want := map[Name]struct {
		id, loader core.Pubkey
		size       int
		sha256     string // as printed by sha256sum
	}{
		SPLToken:    {core.TokenProgramID, core.BPFLoaderProgramID, 134_080, "7b44674b9704fa7640fbebfac68389f338b500b8c2bc29175c27ed66838b5a3c"},
		PToken:      {core.TokenProgramID, core.BPFLoaderUpgradeableProgramID, 100_312, "53e587eee80c786bcfba1450397d92179a0f01def776d19fb4ddf690d64431cc"},
		Token2022:   {core.Token2022ProgramID, core.BPFLoaderUpgradeableProgramID, 615_936, "495e9d7680dd555cb126a6a8e5464af5be9b01f02f2cd70634352722d22e3cad"},
		Memo1:       {core.MemoV1ProgramID, core.BPFLoaderDeprecatedProgramID, 17_280, "67053ed6b0c4b2ff0cead4dc469b2dd30847264b28164ef5e5263d5cf1258c6e"},
		Memo4:       {core.MemoProgramID, core.BPFLoaderProgramID, 2_304, "0c92063c6838d9ad8af50aaefea9a166b5bb41a2bfa2bc6327d7db320849bc78"},
		ATA:         {core.AssociatedTokenProgramID, core.BPFLoaderProgramID, 105_032, "6804554e69fd3a58caa191dc4a58f4c67223d30ca28ab8987f39fc18d2f7374d"},
		LookupTable: {core.AddressLookupTableProgramID, core.BPFLoaderUpgradeableProgramID, 170_144, "e264e1537c5ee1252aae1fa476c25000b641357bc6af4efab65f314160a99570"},
		Stake:       {core.StakeProgramID, core.BPFLoaderUpgradeableProgramID, 202_280, "c9cba7f3d9fe0fac1f32e7a5e012284104a25d27ec97d6eb6d99a3afcd2352a8"},
	}
	if len(progs) != len(want) {
		t.Fatalf("%d builds, want %d", len(progs), len(want))
	}
	for n, w := range want {
		p, ok := progs[n]
		if !ok {
			t.Errorf("%s missing", n)
			continue
		}
		if p.Name != n || p.ID != w.id || p.Loader != w.loader || len(p.ELF) != w.size || hex.EncodeToString(p.SHA256[:]) != w.sha256 {
			t.Errorf("%s: %s %s %s, %d bytes, sha256 %x; want %s %s, %d bytes, %s", n, p.Name, p.ID, p.Loader, len(p.ELF), p.SHA256, w.id, w.loader, w.size, w.sha256)
		}
		if flags := binary.LittleEndian.Uint32(p.ELF[48:]); flags != 0 {
			t.Errorf("%s: e_flags %d, want 0 (SBPF v0)", n, flags)
		}
	}

	// The cache was written by the first load (in this process or an earlier one) and matches the module.
	dir, err := NPMDir()
	if err != nil {
		t.Fatal(err)
	}
	for n, p := range progs {
		cached, err := os.ReadFile(filepath.Join(dir, cacheDir, string(n)+".so"))
		if err != nil || !bytes.Equal(cached, p.ELF) {
			t.Errorf("%s: cached copy differs or is missing (%v)", n, err)
		}
	}
	// Callers get their own bytes.
	progs[Memo4].ELF[0] = 0
	if again := Programs(t); again[Memo4].ELF[0] != 0x7f {
		t.Error("a caller's change to its ELF reached the next caller")
	}
}

// TestIdentifyRejects: a flipped byte, a build with the strings of two programs, and an unknown ELF are errors;
// so is a module missing a build or holding one twice.
func TestIdentifyRejects(t *testing.T) {
	progs := Programs(t)
	flipped := bytes.Clone(progs[Memo4].ELF)
	flipped[len(flipped)/2] ^= 1
	if _, err := Identify(flipped); err == nil || !strings.Contains(err.Error(), "a different build") {
		t.Errorf("Identify(memo 4.0 with a byte flipped) = %v, want a different build", err)
	}
	both := append(bytes.Clone(progs[ATA].ELF), "stake already deactivated"...)
	if _, err := Identify(both); err == nil || !strings.Contains(err.Error(), "several builds") {
		t.Errorf("Identify(ATA + a stake string) = %v, want several builds", err)
	}
	synth, _ := synthELF(MachineSBPF, 8)
	if _, err := Identify(synth); err == nil || !strings.Contains(err.Error(), "none of the known builds") {
		t.Errorf("Identify(a synthetic ELF) = %v, want none of the known builds", err)
	}

	var module []byte
	for _, n := range Names() {
		if n != Stake {
			module = append(append(module, "pad"...), progs[n].ELF...)
		}
	}
	if _, err := Extract(module); err == nil || !strings.Contains(err.Error(), string(Stake)) {
		t.Errorf("Extract(a module without stake) = %v, want stake named missing", err)
	}
	module = append(module, progs[Memo1].ELF...)
	if _, err := Extract(module); err == nil || !strings.Contains(err.Error(), "second copy") {
		t.Errorf("Extract(a module with memo 1.0 twice) = %v, want a second copy", err)
	}
	module = nil
	for _, n := range Names() {
		module = append(module, progs[n].ELF...)
	}
	module = append(module, synth...)
	if _, err := Extract(module); err == nil || !strings.Contains(err.Error(), "none of the known builds") {
		t.Errorf("Extract(a module with an unknown ELF) = %v, want it named", err)
	}
}

// BenchmarkExtract measures cutting and identifying the eight builds out of the installed native module (what a
// cold cache costs; a warm one reads the eight files instead).
func BenchmarkExtract(b *testing.B) {
	Programs(b) // installs
	dir, err := NPMDir()
	if err != nil {
		b.Fatal(err)
	}
	modules, err := filepath.Glob(filepath.Join(dir, moduleGlob))
	if err != nil || len(modules) != 1 {
		b.Fatalf("the native module: %v %v", modules, err)
	}
	module, err := os.ReadFile(modules[0])
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(module)))
	for b.Loop() {
		if _, err := Extract(module); err != nil {
			b.Fatal(err)
		}
	}
}
