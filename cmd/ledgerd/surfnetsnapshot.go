package main

import (
	"fmt"
	"io"
	"os"

	"ledgerd/impl/ledger"
)

// --snapshot takes two kinds of path: a directory is a ledger snapshot (impl/snapshot's, or a dump written by
// ledgerd_dumpState) the ledger starts as a copy of; a file is surfpool's account snapshot, as `surfpool start
// --snapshot FILE` takes it (surfnet_exportSnapshot's value saved as JSON), whose accounts a new ledger starts
// with, as it would with --account files. Files may be given more than once, a later one winning at the same
// address; one directory at most.
func snapshotFlag(v string, dir *string, files *[]string) error {
	st, err := os.Stat(v)
	if err != nil {
		return err
	}
	if !st.IsDir() {
		*files = append(*files, v)
		return nil
	}
	if *dir != "" {
		return fmt.Errorf("a snapshot directory is given twice (%s, then %s)", *dir, v)
	}
	*dir = v
	return nil
}

// loadAccountSnapshots reads surfpool's account snapshot files in order; a note on stderr counts the entries
// skipped (null ones, which surfpool fetches from the cluster it forks, and sysvars, which the node computes).
func loadAccountSnapshots(files []string, stderr io.Writer) ([]ledger.GenesisAccount, error) {
	var out []ledger.GenesisAccount
	for _, f := range files {
		accts, skipped, err := ledger.LoadAccountSnapshot(f)
		if err != nil {
			return nil, err
		}
		if skipped > 0 {
			fmt.Fprintf(stderr, "ledgerd: note: --snapshot %s: %d entries skipped (null entries name accounts of a cluster to fetch, and sysvars are the node's own)\n", f, skipped)
		}
		out = append(out, accts...)
	}
	return out, nil
}
