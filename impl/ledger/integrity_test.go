package ledger

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"ledgerd/impl/core"
	"ledgerd/impl/store"
)

// buildLedger produces a real chain on disk (slots with transactions, roots well past genesis) and closes it.
func buildLedger(t *testing.T, dir string) (root uint64) {
	t.Helper()
	l, err := Open(Config{Dir: dir, SlotDuration: 5 * time.Millisecond, FinalityDepth: 2})
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 20; i++ {
		if _, err := l.Airdrop(context.Background(), newKey(t).PublicKey(), LamportsPerSOL); err != nil {
			t.Fatal(err)
		}
	}
	waitFor(t, "roots", func() bool { _, _, r := l.Slots(); return r >= 80 })
	_, _, root = l.Slots()
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	return root
}

// copyDir copies the ledger directory src to a new directory.
func copyDir(t *testing.T, src string) string {
	t.Helper()
	dst := filepath.Join(t.TempDir(), "ledger")
	err := filepath.WalkDir(src, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		target := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		in, err := os.Open(p)
		if err != nil {
			return err
		}
		defer in.Close()
		out, err := os.Create(target)
		if err != nil {
			return err
		}
		_, err = io.Copy(out, in)
		return errors.Join(err, out.Close())
	})
	if err != nil {
		t.Fatal(err)
	}
	return dst
}

// newest returns the path of the file with the highest number among dir/accounts/*.ext.
func newest(t *testing.T, dir, ext string) string {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(dir, "accounts", "*."+ext))
	if len(files) == 0 {
		t.Fatalf("no .%s file in %s", ext, dir)
	}
	slices.Sort(files) // pebble's file numbers are zero-padded
	return files[len(files)-1]
}

func flipBytes(t *testing.T, path string, at int64, n int) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for i := range n {
		b[at+int64(i)] ^= 0xa5
	}
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

func editGenesis(t *testing.T, dir, field string, value any) {
	t.Helper()
	path := filepath.Join(dir, GenesisFile)
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatal(err)
	}
	m[field] = value
	raw, _ = json.MarshalIndent(m, "", "  ")
	if err := os.WriteFile(path, raw, 0o644); err != nil {
		t.Fatal(err)
	}
}

// openDamaged opens cfg and expects a refusal whose message holds each of want.
func openDamaged(t *testing.T, cfg Config, want ...string) {
	t.Helper()
	cfg.SlotDuration = 5 * time.Millisecond
	cfg.FinalityDepth = 2
	l, err := Open(cfg)
	if err == nil {
		p, c, f := l.Slots()
		l.Close()
		t.Fatalf("the damaged ledger opened (slots %d/%d/%d)", p, c, f)
	}
	t.Log(err)
	for _, w := range want {
		if !strings.Contains(err.Error(), w) {
			t.Fatalf("error %q does not say %q", err, w)
		}
	}
}

func TestDamagedLedgerIsRefused(t *testing.T) {
	base := filepath.Join(t.TempDir(), "base")
	root := buildLedger(t, base)

	t.Run("intact", func(t *testing.T) {
		dir := copyDir(t, base)
		l, err := Open(Config{Dir: dir, SlotDuration: 5 * time.Millisecond, FinalityDepth: 2, VerifyLedger: true})
		if err != nil {
			t.Fatal(err)
		}
		_, c, _ := l.Slots()
		l.Close()
		if c < root {
			t.Fatalf("resumed at %d, below the root %d", c, root)
		}
	})
	t.Run("truncated log", func(t *testing.T) {
		dir := copyDir(t, base)
		log := newest(t, dir, "log")
		st, err := os.Stat(log)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.Truncate(log, st.Size()/2); err != nil {
			t.Fatal(err)
		}
		openDamaged(t, Config{Dir: dir}, "is damaged", "confirmed", "--snapshot", "--reset")
	})
	t.Run("emptied log", func(t *testing.T) {
		dir := copyDir(t, base)
		if err := os.Truncate(newest(t, dir, "log"), 0); err != nil {
			t.Fatal(err)
		}
		openDamaged(t, Config{Dir: dir}, "is damaged", "--snapshot")
	})
	t.Run("removed log after a restart", func(t *testing.T) {
		// A restart moves the log into a table; the slots after it are in the new log only. Losing it loses
		// confirmed slots, not finalized ones: refused all the same, since they were reported.
		dir := copyDir(t, base)
		l, err := Open(Config{Dir: dir, SlotDuration: 5 * time.Millisecond, FinalityDepth: 2})
		if err != nil {
			t.Fatal(err)
		}
		_, c0, _ := l.Slots()
		waitFor(t, "slots after the restart", func() bool { _, c, _ := l.Slots(); return c > c0+5 })
		l.Close()
		if err := os.Remove(newest(t, dir, "log")); err != nil {
			t.Fatal(err)
		}
		openDamaged(t, Config{Dir: dir}, "is damaged", "confirmed", "--snapshot")
	})
	t.Run("missing table", func(t *testing.T) {
		dir := copyDir(t, base)
		l, err := Open(Config{Dir: dir, SlotDuration: 5 * time.Millisecond, FinalityDepth: 2})
		if err != nil {
			t.Fatal(err)
		}
		l.Close()
		if err := os.Remove(newest(t, dir, "sst")); err != nil {
			t.Fatal(err)
		}
		openDamaged(t, Config{Dir: dir}, "does not open", "--snapshot")
	})
	t.Run("flipped log bytes", func(t *testing.T) {
		dir := copyDir(t, base)
		log := newest(t, dir, "log")
		st, err := os.Stat(log)
		if err != nil {
			t.Fatal(err)
		}
		flipBytes(t, log, st.Size()/2, 4)
		openDamaged(t, Config{Dir: dir}, "is damaged", "--snapshot")
	})
	for _, e := range []struct {
		field string
		value any
	}{{"slotsPerEpoch", 64}, {"creationTime", 1_700_000_000}, {"faucetLamports", 5}} {
		t.Run("edited genesis "+e.field, func(t *testing.T) {
			dir := copyDir(t, base)
			editGenesis(t, dir, e.field, e.value)
			openDamaged(t, Config{Dir: dir}, GenesisFile, "genesis hash", "--reset")
		})
		t.Run("edited genesis without slot record "+e.field, func(t *testing.T) {
			// A ledger made before the slot record existed still has the genesis hash in its store.
			dir := copyDir(t, base)
			os.Remove(filepath.Join(dir, SlotRecordFile))
			editGenesis(t, dir, e.field, e.value)
			openDamaged(t, Config{Dir: dir}, GenesisFile, "genesis hash", "--reset")
		})
	}
	t.Run("missing genesis", func(t *testing.T) {
		dir := copyDir(t, base)
		os.Remove(filepath.Join(dir, GenesisFile))
		openDamaged(t, Config{Dir: dir}, GenesisFile, "missing")
		if _, err := os.Stat(filepath.Join(dir, GenesisFile)); err == nil {
			t.Fatal("a new genesis.json was written over the chain")
		}
	})
	for _, file := range []string{FaucetFile, IdentityFile} {
		t.Run("lost "+file, func(t *testing.T) {
			// A keypair file lost and made anew by the start is not the one the genesis names.
			dir := copyDir(t, base)
			os.Remove(filepath.Join(dir, file))
			openDamaged(t, Config{Dir: dir}, file, "names", "--reset")
		})
	}
	t.Run("expected genesis hash", func(t *testing.T) {
		dir := copyDir(t, base)
		g, err := OpenGenesis(dir, false, GenesisOptions{})
		if err != nil {
			t.Fatal(err)
		}
		other := core.HashBytes([]byte("another chain"))
		openDamaged(t, Config{Dir: dir, ExpectedGenesisHash: (*[32]byte)(&other)}, "not the expected", g.HashString())
		// A new ledger is refused before anything is created.
		fresh := filepath.Join(t.TempDir(), "fresh")
		openDamaged(t, Config{Dir: fresh, ExpectedGenesisHash: &g.Hash}, "no genesis")
		if _, err := os.Stat(fresh); err == nil {
			t.Fatal("a ledger was created for a refused --expected-genesis-hash")
		}
		// A genesis without a chain yet (the chain is created on the first start) is checked as well.
		bare := filepath.Join(t.TempDir(), "bare")
		if _, err := OpenGenesis(bare, false, GenesisOptions{}); err != nil {
			t.Fatal(err)
		}
		openDamaged(t, Config{Dir: bare, ExpectedGenesisHash: &g.Hash}, "not the expected")
		l, err := Open(Config{Dir: dir, SlotDuration: 5 * time.Millisecond, FinalityDepth: 2, ExpectedGenesisHash: &g.Hash})
		if err != nil {
			t.Fatalf("the expected genesis hash was refused: %v", err)
		}
		l.Close()
	})
	t.Run("verify ledger flipped table", func(t *testing.T) {
		dir := copyDir(t, base)
		// Opening replays the log into a table; damage a data block in the middle of the largest one.
		l, err := Open(Config{Dir: dir, SlotDuration: 5 * time.Millisecond, FinalityDepth: 2})
		if err != nil {
			t.Fatal(err)
		}
		l.Close()
		tables, _ := filepath.Glob(filepath.Join(dir, "accounts", "*.sst"))
		var largest string
		var size int64
		for _, p := range tables {
			if st, err := os.Stat(p); err == nil && st.Size() > size {
				largest, size = p, st.Size()
			}
		}
		if largest == "" {
			t.Fatal("no table")
		}
		flipBytes(t, largest, size/3, 4)
		openDamaged(t, Config{Dir: dir, VerifyLedger: true}, "is damaged", "--verify-ledger", "checksum")
	})
	t.Run("broken hash chain", func(t *testing.T) {
		// A block rewritten behind the checksums' back (a bug, an edit through the database): the start refuses.
		dir := copyDir(t, base)
		st, err := store.Open(filepath.Join(dir, "accounts"), store.Options{})
		if err != nil {
			t.Fatal(err)
		}
		tip, _, err := st.GetMetaU64(metaTip)
		if err != nil {
			t.Fatal(err)
		}
		raw, _, err := st.GetBlock(tip - 3)
		if err != nil {
			t.Fatal(err)
		}
		info, err := decodeBlock(raw)
		if err != nil {
			t.Fatal(err)
		}
		info.Signatures = append(info.Signatures, core.Signature{7})
		info.Failed = append(info.Failed, false)
		b := st.NewBatch()
		b.PutBlock(tip-3, encodeBlock(info))
		if err := errors.Join(b.Commit(true), st.Close()); err != nil {
			t.Fatal(err)
		}
		openDamaged(t, Config{Dir: dir}, "is damaged", "its transactions give")
	})
	t.Run("damaged slot record", func(t *testing.T) {
		dir := copyDir(t, base)
		flipBytes(t, filepath.Join(dir, SlotRecordFile), 10, 1)
		openDamaged(t, Config{Dir: dir}, SlotRecordFile, "checksum")
	})
}

// BenchmarkWriteSlotRecord is the cost the slot record adds to every slot: a synced temporary file, a rename and a
// synced directory.
func BenchmarkWriteSlotRecord(b *testing.B) {
	dir := b.TempDir()
	r := &slotRecord{Slot: 1, Hash: core.HashBytes([]byte("block")), Genesis: core.HashBytes([]byte("genesis"))}
	for b.Loop() {
		r.Slot++
		if err := writeSlotRecord(dir, r); err != nil {
			b.Fatal(err)
		}
	}
}

// FuzzSlotRecord: any bytes read as a slot record are refused with an error or round-trip exactly.
func FuzzSlotRecord(f *testing.F) {
	r := &slotRecord{Slot: 42, Hash: core.HashBytes([]byte("block")), Genesis: core.HashBytes([]byte("genesis"))}
	f.Add(r.marshal())
	f.Add([]byte{})
	f.Add(make([]byte, slotRecordLen))
	f.Fuzz(func(t *testing.T, b []byte) {
		r, err := unmarshalSlotRecord(b)
		if err != nil {
			return
		}
		if got := r.marshal(); string(got) != string(b) {
			t.Fatalf("%x read back as %x", b, got)
		}
	})
}
