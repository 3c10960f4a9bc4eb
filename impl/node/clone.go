package node

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"time"

	"ledgerd/generated/rpcapi"
	"ledgerd/impl/core"
	"ledgerd/impl/ledger"
)

// Cloning at genesis, as the test validator's --clone, --maybe-clone, --clone-upgradeable-program and
// --deep-clone-address-lookup-table: the accounts are read from another cluster's JSON-RPC with getMultipleAccounts
// (100 addresses a call, the reference's limit) and become genesis accounts of the new chain.

// CloneOptions name what to copy from the cluster at URL.
type CloneOptions struct {
	URL string
	// Clone must exist on the cluster; MaybeClone is skipped when missing.
	Clone, MaybeClone []core.Pubkey
	// UpgradeablePrograms are programs of the upgradeable loader, copied with their program-data accounts.
	UpgradeablePrograms []core.Pubkey
	// LookupTables are address lookup tables, copied with every account they list that exists.
	LookupTables []core.Pubkey

	// Timeout bounds one request (default 15 s); Attempts is how often a request that failed for the network or
	// the server's load is tried (default 3), Backoff the wait before the second attempt (default 500 ms,
	// doubling). A cluster that cannot answer is an error after at most Attempts x Timeout plus the waits.
	Timeout  time.Duration
	Attempts int
	Backoff  time.Duration
	// Client sends the requests (default a new http.Client).
	Client *http.Client
}

// MaxMultipleAccounts is the most addresses one getMultipleAccounts call takes.
const MaxMultipleAccounts = 100

// lookupTableMetaSize is the size of an address lookup table's header before its addresses.
const lookupTableMetaSize = 56

// CloneAccounts fetches the accounts o names, in the reference's order (clone, lookup tables, maybe-clone,
// upgradeable programs; a later one wins at the same address). Program-data accounts get deployment slot 0, so the
// program is usable at once in the new chain, as the reference does.
func CloneAccounts(ctx context.Context, o CloneOptions) ([]ledger.GenesisAccount, error) {
	if o.URL == "" {
		return nil, errors.New("cloning needs --url, the JSON-RPC URL of the cluster to copy from")
	}
	c := &cloner{o: o, byKey: map[core.Pubkey]int{}}
	c.o.defaults()
	if err := c.clone(ctx, "--clone", o.Clone, false, false); err != nil {
		return nil, err
	}
	if err := c.lookupTables(ctx, o.LookupTables); err != nil {
		return nil, err
	}
	if err := c.clone(ctx, "--maybe-clone", o.MaybeClone, true, false); err != nil {
		return nil, err
	}
	if err := c.programs(ctx, o.UpgradeablePrograms); err != nil {
		return nil, err
	}
	return c.out, nil
}

// defaults fills what o leaves unset with cloning's defaults (see CloneOptions).
func (o *CloneOptions) defaults() { o.defaultsTo(15*time.Second, 3, 500*time.Millisecond) }

// defaultsTo fills what o leaves unset: timeout, attempts and backoff as given, a new http.Client.
func (o *CloneOptions) defaultsTo(timeout time.Duration, attempts int, backoff time.Duration) {
	if o.Timeout <= 0 {
		o.Timeout = timeout
	}
	if o.Attempts <= 0 {
		o.Attempts = attempts
	}
	if o.Backoff <= 0 {
		o.Backoff = backoff
	}
	if o.Client == nil {
		o.Client = &http.Client{}
	}
}

type cloner struct {
	o     CloneOptions
	out   []ledger.GenesisAccount
	byKey map[core.Pubkey]int
}

func (c *cloner) add(a ledger.GenesisAccount) {
	if i, ok := c.byKey[a.Pubkey]; ok {
		c.out[i] = a
		return
	}
	c.byKey[a.Pubkey] = len(c.out)
	c.out = append(c.out, a)
}

// clone copies keys; a missing one is an error unless skipMissing. strictProgramData refuses an account that is not
// a program-data account of the upgradeable loader (the second step of --clone-upgradeable-program).
func (c *cloner) clone(ctx context.Context, flag string, keys []core.Pubkey, skipMissing, strictProgramData bool) error {
	accounts, err := c.fetch(ctx, flag, keys)
	if err != nil {
		return err
	}
	for i, a := range accounts {
		if a == nil {
			if skipMissing {
				continue
			}
			return fmt.Errorf("%s %s: the account does not exist on %s", flag, keys[i], c.o.URL)
		}
		if !resetProgramDataSlot(a) && strictProgramData {
			return fmt.Errorf("%s: %s on %s is not an upgradeable loader program-data account", flag, keys[i], c.o.URL)
		}
		c.add(*a)
	}
	return nil
}

// programs copies upgradeable programs and then the program-data accounts they name.
func (c *cloner) programs(ctx context.Context, keys []core.Pubkey) error {
	const flag = "--clone-upgradeable-program"
	accounts, err := c.fetch(ctx, flag, keys)
	if err != nil {
		return err
	}
	var data []core.Pubkey
	seen := map[core.Pubkey]bool{}
	for i, a := range accounts {
		if a == nil {
			return fmt.Errorf("%s %s: the account does not exist on %s", flag, keys[i], c.o.URL)
		}
		// UpgradeableLoaderState::Program: the tag 2 (u32) and the program-data address.
		if a.Owner != core.BPFLoaderUpgradeableProgramID || len(a.Data) < 36 || binary.LittleEndian.Uint32(a.Data) != 2 {
			return fmt.Errorf("%s %s: not a program of the upgradeable loader on %s (owner %s)", flag, keys[i], c.o.URL, a.Owner)
		}
		c.add(*a)
		pd := core.Pubkey(a.Data[4:36])
		if !seen[pd] {
			seen[pd] = true
			data = append(data, pd)
		}
	}
	return c.clone(ctx, flag+" (program data)", data, false, true)
}

// lookupTables copies address lookup tables, then every listed address that exists.
func (c *cloner) lookupTables(ctx context.Context, keys []core.Pubkey) error {
	const flag = "--deep-clone-address-lookup-table"
	accounts, err := c.fetch(ctx, flag, keys)
	if err != nil {
		return err
	}
	var entries []core.Pubkey
	for i, a := range accounts {
		if a == nil {
			return fmt.Errorf("%s %s: the account does not exist on %s", flag, keys[i], c.o.URL)
		}
		if a.Owner != core.AddressLookupTableProgramID {
			return fmt.Errorf("%s %s: not an address lookup table (owner %s)", flag, keys[i], a.Owner)
		}
		if len(a.Data) < lookupTableMetaSize || (len(a.Data)-lookupTableMetaSize)%32 != 0 {
			return fmt.Errorf("%s %s: invalid lookup table data length %d", flag, keys[i], len(a.Data))
		}
		c.add(*a)
		for p := a.Data[lookupTableMetaSize:]; len(p) > 0; p = p[32:] {
			entries = append(entries, core.Pubkey(p[:32]))
		}
	}
	return c.clone(ctx, flag+" (entries)", entries, true, false)
}

// resetProgramDataSlot sets the deployment slot of an upgradeable program-data account to 0; it reports whether
// the account is one.
func resetProgramDataSlot(a *ledger.GenesisAccount) bool {
	// UpgradeableLoaderState::ProgramData: the tag 3 (u32), the slot (u64), an optional authority.
	if a.Owner != core.BPFLoaderUpgradeableProgramID || len(a.Data) < 13 || binary.LittleEndian.Uint32(a.Data) != 3 {
		return false
	}
	binary.LittleEndian.PutUint64(a.Data[4:12], 0)
	return true
}

// fetch reads keys in chunks of MaxMultipleAccounts, in order; a missing account is nil.
func (c *cloner) fetch(ctx context.Context, flag string, keys []core.Pubkey) ([]*ledger.GenesisAccount, error) {
	keys = dedupe(keys)
	out := make([]*ledger.GenesisAccount, 0, len(keys))
	for start := 0; start < len(keys); start += MaxMultipleAccounts {
		chunk := keys[start:min(start+MaxMultipleAccounts, len(keys))]
		got, err := c.getMultipleAccounts(ctx, chunk)
		if err != nil {
			return nil, fmt.Errorf("%s: fetching %d accounts from %s: %w", flag, len(chunk), c.o.URL, err)
		}
		out = append(out, got...)
	}
	return out, nil
}

func dedupe(keys []core.Pubkey) []core.Pubkey {
	seen := make(map[core.Pubkey]bool, len(keys))
	out := keys[:0:0]
	for _, k := range keys {
		if !seen[k] {
			seen[k] = true
			out = append(out, k)
		}
	}
	return out
}

// rpcAccount is an account as getMultipleAccounts answers it with the base64 encoding.
type rpcAccount struct {
	Lamports   uint64    `json:"lamports"`
	Owner      string    `json:"owner"`
	Data       [2]string `json:"data"`
	Executable bool      `json:"executable"`
	RentEpoch  uint64    `json:"rentEpoch"`
}

type rpcError struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
}

func (e *rpcError) Error() string { return fmt.Sprintf("JSON-RPC error %d: %s", e.Code, e.Message) }

// errRetryable marks a failure worth another attempt: the network, a timeout, or a server that is overloaded or
// failing (HTTP 429 and 5xx).
type errRetryable struct{ err error }

func (e errRetryable) Error() string { return e.err.Error() }
func (e errRetryable) Unwrap() error { return e.err }

func (c *cloner) getMultipleAccounts(ctx context.Context, keys []core.Pubkey) ([]*ledger.GenesisAccount, error) {
	addrs := make([]string, len(keys))
	for i, k := range keys {
		addrs[i] = k.String()
	}
	var result struct {
		Value []*rpcAccount `json:"value"`
	}
	if err := call(ctx, &c.o, rpcapi.MethodGetMultipleAccounts, []any{addrs, map[string]string{"encoding": "base64"}}, &result); err != nil {
		return nil, err
	}
	return genesisAccounts(keys, result.Value)
}

// genesisAccounts turns getMultipleAccounts' values for keys into accounts (nil where the cluster has none).
func genesisAccounts(keys []core.Pubkey, values []*rpcAccount) ([]*ledger.GenesisAccount, error) {
	if len(values) != len(keys) {
		return nil, fmt.Errorf("the reply lists %d accounts, not the %d asked for", len(values), len(keys))
	}
	out := make([]*ledger.GenesisAccount, len(keys))
	for i, a := range values {
		if a == nil {
			continue
		}
		owner, err := core.ParsePubkey(a.Owner)
		if err != nil {
			return nil, fmt.Errorf("account %s: owner %q: %w", keys[i], a.Owner, err)
		}
		if a.Data[1] != "base64" {
			return nil, fmt.Errorf("account %s: data encoded as %q, not base64", keys[i], a.Data[1])
		}
		data, err := base64.StdEncoding.DecodeString(a.Data[0])
		if err != nil {
			return nil, fmt.Errorf("account %s: data: %w", keys[i], err)
		}
		out[i] = &ledger.GenesisAccount{Pubkey: keys[i], Lamports: a.Lamports, Owner: owner, Executable: a.Executable,
			RentEpoch: a.RentEpoch, Data: data}
	}
	return out, nil
}

// ClusterSlot is the current slot of the cluster at url (the test validator's --warp-slot without a value).
func ClusterSlot(ctx context.Context, url string) (uint64, error) {
	o := CloneOptions{URL: url}
	o.defaults()
	var slot uint64
	err := call(ctx, &o, rpcapi.MethodGetSlot, []any{}, &slot)
	return slot, err
}

// call sends one JSON-RPC request, trying again (up to o.Attempts, each bounded by o.Timeout) when the network or
// an overloaded server failed it, and decodes its result into result.
func call(ctx context.Context, o *CloneOptions, method string, params []any, result any) error {
	body, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 1, "method": method, "params": params})
	wait := o.Backoff
	for attempt := 1; ; attempt++ {
		raw, err := postRPC(ctx, o, body)
		var retry errRetryable
		if err == nil {
			return decodeReply(method, raw, result)
		}
		if !errors.As(err, &retry) || ctx.Err() != nil {
			return fmt.Errorf("%s: %w", method, err)
		}
		if attempt >= o.Attempts {
			return fmt.Errorf("%s: %w (after %d attempts of at most %s each)", method, err, attempt, o.Timeout)
		}
		select {
		case <-time.After(wait):
		case <-ctx.Done():
			return fmt.Errorf("%s: %w", method, ctx.Err())
		}
		wait *= 2
	}
}

// decodeReply decodes a JSON-RPC reply's result into result, or returns its error.
func decodeReply(method string, raw []byte, result any) error {
	var reply struct {
		Result json.RawMessage `json:"result"`
		Error  *rpcError       `json:"error"`
	}
	if err := json.Unmarshal(raw, &reply); err != nil {
		return fmt.Errorf("%s: not a JSON-RPC reply (%v): %s", method, err, truncate(raw))
	}
	if reply.Error != nil {
		return fmt.Errorf("%s: %w", method, reply.Error)
	}
	if reply.Result == nil {
		return fmt.Errorf("%s: a reply without a result: %s", method, truncate(raw))
	}
	if err := json.Unmarshal(reply.Result, result); err != nil {
		return fmt.Errorf("%s: unexpected result (%v): %s", method, err, truncate(reply.Result))
	}
	return nil
}

// postRPC sends one request and returns the body of a 200 reply.
func postRPC(ctx context.Context, o *CloneOptions, body []byte) ([]byte, error) {
	ctx, cancel := context.WithTimeout(ctx, o.Timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, o.URL, bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := o.Client.Do(req)
	if err != nil {
		return nil, errRetryable{err}
	}
	defer resp.Body.Close()
	// A reply of 100 accounts of up to 10 MiB each, in base64, fits well within this bound.
	raw, err := io.ReadAll(io.LimitReader(resp.Body, 2<<30))
	if err != nil {
		return nil, errRetryable{fmt.Errorf("reading the reply: %w", err)}
	}
	if resp.StatusCode == http.StatusTooManyRequests || resp.StatusCode >= 500 {
		return nil, errRetryable{fmt.Errorf("HTTP %s", resp.Status)}
	}
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("HTTP %s: %s", resp.Status, truncate(raw))
	}
	return raw, nil
}

func truncate(b []byte) string {
	if len(b) > 200 {
		return string(b[:200]) + "..."
	}
	return string(b)
}
