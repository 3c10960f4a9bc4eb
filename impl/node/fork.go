package node

import (
	"context"
	"net/http"
	"time"

	"ledgerd/generated/rpcapi"
	"ledgerd/impl/core"
	"ledgerd/impl/ledger"
	"ledgerd/impl/runtime"
)

// A lazy fork (--fork-url): the ledger asks the cluster for the accounts it has never held, through the same
// JSON-RPC client as cloning at genesis (clone.go), at the cluster's confirmed commitment: the newest state no
// confirmed block has ever been rolled back from, fresher than finalized by some 13 s.

// ForkOptions name the cluster a node forks lazily.
type ForkOptions struct {
	URL string
	// Offline are accounts never fetched (as surfnet_offlineAccount).
	Offline []core.Pubkey
	// Timeout bounds one request (default 10 s), Attempts how often a request that failed for the network or the
	// server's load is tried (default 2), Backoff the wait before the second (default 250 ms, doubling). A
	// cluster that cannot answer is an error after at most Attempts x Timeout plus the waits.
	Timeout  time.Duration
	Attempts int
	Backoff  time.Duration
	Client   *http.Client
}

// ForkCommitment is the commitment the fork reads the cluster at.
const ForkCommitment = "confirmed"

// forkConfig is the ledger's side of o (nil without a fork).
func forkConfig(o *ForkOptions) *ledger.ForkConfig {
	if o == nil || o.URL == "" {
		return nil
	}
	c := CloneOptions{URL: o.URL, Timeout: o.Timeout, Attempts: o.Attempts, Backoff: o.Backoff, Client: o.Client}
	c.defaultsTo(10*time.Second, 2, 250*time.Millisecond)
	// The ledger's bound on one read covers a few requests (its dependencies, chunks of 100) of their own bound.
	return &ledger.ForkConfig{Source: &remoteAccounts{o: c}, Offline: o.Offline,
		Timeout: 3 * time.Duration(c.Attempts) * (c.Timeout + c.Backoff)}
}

// remoteAccounts is a cluster's JSON-RPC as the ledger's AccountSource.
type remoteAccounts struct{ o CloneOptions }

func (r *remoteAccounts) String() string { return r.o.URL }

// Accounts reads keys (at most MaxMultipleAccounts: the ledger batches) with one getMultipleAccounts.
func (r *remoteAccounts) Accounts(ctx context.Context, keys []core.Pubkey) ([]*runtime.Account, error) {
	addrs := make([]string, len(keys))
	for i, k := range keys {
		addrs[i] = k.String()
	}
	var result struct {
		Value []*rpcAccount `json:"value"`
	}
	params := []any{addrs, map[string]string{"encoding": "base64", "commitment": ForkCommitment}}
	if err := call(ctx, &r.o, rpcapi.MethodGetMultipleAccounts, params, &result); err != nil {
		return nil, err
	}
	got, err := genesisAccounts(keys, result.Value)
	if err != nil {
		return nil, err
	}
	out := make([]*runtime.Account, len(got))
	for i, a := range got {
		if a != nil && a.Lamports > 0 { // an account without lamports does not exist
			out[i] = &runtime.Account{Lamports: a.Lamports, Owner: a.Owner, Executable: a.Executable,
				RentEpoch: a.RentEpoch, Data: a.Data}
		}
	}
	return out, nil
}
