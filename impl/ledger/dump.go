package ledger

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// A dump of the whole chain (ledgerd_dumpState, anvil's anvil_dumpState) is a ledger directory: a checkpoint of
// the store (accounts with their versions, blocks, transactions, signature lists, the slot and the stake
// history) with the genesis and keypair files beside it, the layout impl/snapshot's snapshots have, so
// `--snapshot DIR` starts a node from it. A pebble checkpoint is exact by construction (the very bytes the node
// reads, nothing re-encoded that a format change could lose) and cheap: its table files are hard links.

// dumpFiles are the files of the ledger directory a dump carries besides the store.
var dumpFiles = []string{GenesisFile, IdentityFile, FaucetFile, VoteFile, StakeFile}

// DumpState ends the working slot, so the dump holds everything processed, and writes the chain into dir, which
// must not exist yet (its parents are created). It returns the absolute path written and the newest slot it holds.
func (l *Ledger) DumpState(ctx context.Context, dir string) (path string, slot uint64, err error) {
	if l.cfg.StoreInMemory {
		return "", 0, fmt.Errorf("%w: this ledger is held in memory, with no directory to dump", ErrInvalidCheat)
	}
	if dir == "" {
		return "", 0, fmt.Errorf("%w: no path given", ErrInvalidCheat)
	}
	if path, err = filepath.Abs(dir); err != nil {
		return "", 0, fmt.Errorf("%w: %v", ErrInvalidCheat, err)
	}
	if _, err := os.Lstat(path); err == nil {
		return "", 0, fmt.Errorf("%w: %s exists already", ErrInvalidCheat, path)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return "", 0, fmt.Errorf("%w: %v", ErrInvalidCheat, err)
	}
	cerr := l.onProducer(ctx, func() {
		if err = l.produceSlot(); err != nil {
			return
		}
		slot = l.confirmed
		// On the producer's goroutine no slot commits meanwhile, so the dump's newest slot is slot.
		if err = l.writeDump(path); err != nil {
			err = errors.Join(err, os.RemoveAll(path))
		}
	})
	if cerr != nil {
		return "", 0, cerr
	}
	return path, slot, err
}

func (l *Ledger) writeDump(path string) error {
	if err := os.Mkdir(path, 0o755); err != nil {
		return fmt.Errorf("%w: %v", ErrInvalidCheat, err)
	}
	if err := l.st.Checkpoint(filepath.Join(path, "accounts")); err != nil {
		return err
	}
	for _, name := range dumpFiles {
		if err := copyDumpFile(filepath.Join(l.cfg.Dir, name), filepath.Join(path, name)); err != nil && !errors.Is(err, os.ErrNotExist) {
			return err
		}
	}
	d, err := os.Open(path)
	if err != nil {
		return err
	}
	return errors.Join(d.Sync(), d.Close())
}

func copyDumpFile(src, dst string) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	st, err := in.Stat()
	if err != nil {
		return err
	}
	out, err := os.OpenFile(dst, os.O_CREATE|os.O_WRONLY|os.O_EXCL, st.Mode().Perm())
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		return errors.Join(err, out.Close())
	}
	return errors.Join(out.Sync(), out.Close())
}
