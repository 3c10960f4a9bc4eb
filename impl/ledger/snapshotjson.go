package ledger

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"os"
	"slices"

	"ledgerd/impl/core"
)

// surfpool's account snapshot (surfnet_exportSnapshot's value, the file `surfpool start --snapshot` loads): a
// JSON object from base-58 address to {lamports, owner, executable, rentEpoch, data (base64), parsedData}, or
// to null, which surfpool fetches from the cluster it forks. ledgerd loads it as it loads --account files: into
// a new ledger's genesis.

type accountSnapshotEntry struct {
	Lamports   *uint64         `json:"lamports"`
	Owner      string          `json:"owner"`
	Executable bool            `json:"executable"`
	RentEpoch  uint64          `json:"rentEpoch"`
	Data       *string         `json:"data"`
	ParsedData json.RawMessage `json:"parsedData"` // what a reader may show; the data is what counts
}

// LoadAccountSnapshot reads a surfpool account snapshot file. Entries that are null (accounts surfpool would
// fetch from its cluster) and sysvars (which the node computes) are skipped and counted in skipped. Anything
// else that is not a valid account is an error naming the address.
func LoadAccountSnapshot(path string) (accounts []GenesisAccount, skipped int, err error) {
	raw, err := os.ReadFile(path)
	if err != nil {
		return nil, 0, fmt.Errorf("--snapshot %s: %w", path, err)
	}
	return ParseAccountSnapshot(raw, path)
}

// ParseAccountSnapshot is LoadAccountSnapshot of the file's bytes; name is how errors call the file.
func ParseAccountSnapshot(raw []byte, name string) (accounts []GenesisAccount, skipped int, err error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	var m map[string]*accountSnapshotEntry
	if err := dec.Decode(&m); err != nil {
		return nil, 0, fmt.Errorf("--snapshot %s: not surfpool's account snapshot (a JSON object of accounts by address): %w", name, err)
	}
	if m == nil {
		return nil, 0, fmt.Errorf("--snapshot %s: not surfpool's account snapshot (a JSON object of accounts by address)", name)
	}
	if dec.More() {
		return nil, 0, fmt.Errorf("--snapshot %s: text after the JSON object", name)
	}
	// Sorted by address, so the genesis a snapshot makes does not depend on map order.
	keys := make([]core.Pubkey, 0, len(m))
	byKey := make(map[core.Pubkey]*accountSnapshotEntry, len(m))
	for addr, e := range m {
		pk, err := core.ParsePubkey(addr)
		if err != nil {
			return nil, 0, fmt.Errorf("--snapshot %s: %q is not an address: %w", name, addr, err)
		}
		if e == nil || core.IsSysvarID(pk) {
			skipped++
			continue
		}
		keys = append(keys, pk)
		byKey[pk] = e
	}
	slices.SortFunc(keys, func(a, b core.Pubkey) int { return bytes.Compare(a[:], b[:]) })
	for _, pk := range keys {
		e := byKey[pk]
		if e.Lamports == nil || *e.Lamports == 0 {
			return nil, 0, fmt.Errorf("--snapshot %s: %s: an account needs lamports", name, pk)
		}
		owner, err := core.ParsePubkey(e.Owner)
		if err != nil {
			return nil, 0, fmt.Errorf("--snapshot %s: %s: invalid owner %q: %w", name, pk, e.Owner, err)
		}
		if e.Data == nil {
			return nil, 0, fmt.Errorf("--snapshot %s: %s: no data (base64, empty for none)", name, pk)
		}
		data, err := base64.StdEncoding.DecodeString(*e.Data)
		if err != nil {
			return nil, 0, fmt.Errorf("--snapshot %s: %s: data is not base64: %w", name, pk, err)
		}
		accounts = append(accounts, GenesisAccount{Pubkey: pk, Lamports: *e.Lamports, Owner: owner,
			Executable: e.Executable, RentEpoch: e.RentEpoch, Data: data})
	}
	return accounts, skipped, nil
}
