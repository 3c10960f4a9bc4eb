package main

import (
	"flag"
	"fmt"
	"os"
	"strconv"
	"time"

	"ledgerd/impl/bigtable"
	"ledgerd/impl/node"
)

// defaultLimitShreds is the test validator's --limit-ledger-size default, taken when the flag comes without a
// value.
const defaultLimitShreds = 10_000

// historyFlags are the flags of where history lives: Bigtable (the reference's long-term storage, in its layout)
// and the local bound.
type historyFlags struct {
	instance, emulator, project, appProfile string
	timeout                                 time.Duration
	readOnly, enableStorage, enableUpload   bool
	limit                                   string
}

func (h *historyFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&h.instance, "bigtable-instance", "", "NAME: keep rooted history in this Bigtable instance in the reference's layout (upload every rooted slot, serve what the local ledger no longer holds); default "+bigtable.DefaultInstance+" when another --bigtable flag is given")
	fs.StringVar(&h.instance, "rpc-bigtable-instance", "", "the test validator's name of --bigtable-instance")
	fs.StringVar(&h.emulator, "bigtable-emulator-host", "", "HOST:PORT: a Bigtable emulator (gcloud beta emulators bigtable start); default BIGTABLE_EMULATOR_HOST, as the Go client reads it")
	fs.StringVar(&h.project, "bigtable-project", "", "ID: the Google Cloud project of --bigtable-instance (default GOOGLE_CLOUD_PROJECT, then the project_id of GOOGLE_APPLICATION_CREDENTIALS)")
	fs.StringVar(&h.appProfile, "rpc-bigtable-app-profile-id", "", "Bigtable app profile of the requests (default the instance's default profile)")
	fs.DurationVar(&h.timeout, "bigtable-timeout", 10*time.Second, "the longest one Bigtable read or write may take before it fails")
	fs.BoolVar(&h.readOnly, "bigtable-read-only", false, "serve history from Bigtable without uploading")
	fs.BoolVar(&h.enableStorage, "enable-rpc-bigtable-ledger-storage", false, "serve history from Bigtable (read only unless --enable-bigtable-ledger-upload too)")
	fs.BoolVar(&h.enableUpload, "enable-bigtable-ledger-upload", false, "upload every rooted slot to Bigtable")
	fs.StringVar(&h.limit, "limit-ledger-size", "", "SHRED_COUNT: keep at most this many shreds of rooted history locally (a block counts 32 per started 32,000 bytes of transactions; never fewer than the 512 newest slots); without a value 10000, as the test validator's default; with Bigtable a slot goes only once uploaded")
}

// apply fills cfg.History from the flags given.
func (h *historyFlags) apply(cfg *node.Config, given map[string]bool) error {
	on := given["bigtable-instance"] || given["rpc-bigtable-instance"] || given["bigtable-emulator-host"] ||
		given["bigtable-project"] || h.enableStorage || h.enableUpload || given["bigtable-read-only"]
	if on {
		cfg.History.Bigtable = &bigtable.Config{Project: h.project, Instance: h.instance, EmulatorHost: h.emulator,
			AppProfile: h.appProfile, Timeout: h.timeout, CreateTables: isEmulator(h.emulator)}
		cfg.History.NoUpload = h.readOnly || h.enableStorage && !h.enableUpload
	}
	if given["limit-ledger-size"] {
		n := uint64(defaultLimitShreds)
		if h.limit != "" {
			v, err := strconv.ParseUint(h.limit, 10, 64)
			if err != nil || v == 0 {
				return fmt.Errorf("--limit-ledger-size %q: a shred count, at least 1", h.limit)
			}
			n = v
		}
		cfg.History.LimitShreds = n
	}
	return nil
}

// isEmulator reports whether the instance is an emulator (flag or environment), which starts without tables:
// ledgerd creates them there, and never on a real instance, whose tables an operator creates as the
// reference's documentation says.
func isEmulator(flagValue string) bool {
	return flagValue != "" || os.Getenv("BIGTABLE_EMULATOR_HOST") != ""
}
