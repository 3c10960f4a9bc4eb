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

// DirFiles are the files of a ledger directory besides its store, which a dump and a snapshot of impl/snapshot
// carry beside the store's checkpoint, so that either is a ledger directory of the same chain and the same
// validator (the identity votes with the genesis vote account).
var DirFiles = []string{GenesisFile, IdentityFile, FaucetFile, VoteFile, StakeFile}

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
	if err := CopyDirFiles(l.cfg.Dir, path); err != nil {
		return err
	}
	return SyncDir(path)
}

// CopyDirFiles copies the DirFiles the ledger directory src holds into dst (those it lacks are skipped).
func CopyDirFiles(src, dst string) error {
	for _, name := range DirFiles {
		if err := CopyFile(filepath.Join(src, name), filepath.Join(dst, name)); err != nil && !errors.Is(err, os.ErrNotExist) {
			return err
		}
	}
	return nil
}

// SyncDir syncs the directory dir, so the entries written into it last.
func SyncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	return errors.Join(d.Sync(), d.Close())
}

// CopyFile copies src to dst, which must not exist, synced, keeping its permission bits: keypair files stay
// private.
func CopyFile(src, dst string) error {
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
