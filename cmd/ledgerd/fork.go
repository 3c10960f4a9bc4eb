package main

import (
	"flag"
	"fmt"
	"strings"

	"ledgerd/impl/node"
)

// forkFlags are --fork-url and --fork-offline: a lazy fork of another cluster (impl/node/fork.go), as anvil's
// --fork-url and surfpool's datasource.
type forkFlags struct {
	url     string
	offline stringList
}

func (f *forkFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&f.url, "fork-url", "", "URL or moniker (mainnet-beta, testnet, devnet, localhost, or their first letter): read every account this node does not hold from that cluster when first needed, then keep it")
	fs.Var(&f.offline, "fork-offline", "ADDRESS: never fetch this account from the --fork-url cluster (as surfnet_offlineAccount); repeatable")
}

// apply sets cfg.Fork; it applies to an existing ledger too, whose fetched accounts it keeps.
func (f *forkFlags) apply(cfg *node.Config) error {
	if f.url == "" {
		if len(f.offline) > 0 {
			return fmt.Errorf("--fork-offline needs --fork-url")
		}
		return nil
	}
	u, err := urlOrMoniker(f.url)
	if err != nil {
		return fmt.Errorf("--fork-url: %s", strings.TrimPrefix(err.Error(), "--url "))
	}
	f.url = u
	o := &node.ForkOptions{URL: u}
	for _, v := range f.offline {
		k, err := addressOrKeypair(v)
		if err != nil {
			return fmt.Errorf("--fork-offline: %w", err)
		}
		o.Offline = append(o.Offline, k)
	}
	cfg.Fork = o
	return nil
}
