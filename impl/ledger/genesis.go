// Package ledger owns the chain: genesis, banks, slots, block production, commitment, history.
package ledger

import (
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/mr-tron/base58"

	"ledgerd/impl/core"
)

// Files under the ledger directory.
const (
	IdentityFile = "validator-keypair.json"
	FaucetFile   = "faucet-keypair.json"
	GenesisFile  = "genesis.json"
)

// GenesisConfig is what a chain starts from. Its hash (SHA-256 of the file's bytes) is the genesis hash, so two
// ledgers share a genesis hash only when they share the whole configuration.
type GenesisConfig struct {
	CreationTime  int64  `json:"creationTime"`
	Identity      string `json:"identity"`
	Faucet        string `json:"faucet"`
	SlotsPerEpoch uint64 `json:"slotsPerEpoch"`
	TicksPerSlot  uint64 `json:"ticksPerSlot"`
}

// Genesis is an opened ledger directory's identity and genesis.
type Genesis struct {
	Dir      string
	Config   GenesisConfig
	Hash     [32]byte
	Identity core.Keypair
	Faucet   core.Keypair
}

// HashString is the genesis hash in base58.
func (g *Genesis) HashString() string { return base58.Encode(g.Hash[:]) }

// IdentityPubkey is the node identity in base58.
func (g *Genesis) IdentityPubkey() string { return g.Identity.PublicKey().String() }

// OpenGenesis opens dir, creating a new chain there when it has none (or when reset is set).
func OpenGenesis(dir string, reset bool) (*Genesis, error) {
	if reset {
		if err := os.RemoveAll(dir); err != nil {
			return nil, err
		}
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	g := &Genesis{Dir: dir}
	var err error
	if g.Identity, err = loadOrCreateKeypair(filepath.Join(dir, IdentityFile)); err != nil {
		return nil, err
	}
	if g.Faucet, err = loadOrCreateKeypair(filepath.Join(dir, FaucetFile)); err != nil {
		return nil, err
	}
	path := filepath.Join(dir, GenesisFile)
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		g.Config = GenesisConfig{
			CreationTime:  time.Now().Unix(),
			Identity:      g.IdentityPubkey(),
			Faucet:        g.Faucet.PublicKey().String(),
			SlotsPerEpoch: 432000,
			TicksPerSlot:  64,
		}
		data, _ = json.MarshalIndent(g.Config, "", "  ")
		if err := writeFileAtomic(path, data); err != nil {
			return nil, err
		}
	} else if err != nil {
		return nil, err
	} else if err := json.Unmarshal(data, &g.Config); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	g.Hash = sha256.Sum256(data)
	return g, nil
}

// loadOrCreateKeypair reads a keypair file in the reference tools' JSON format, creating it when absent.
func loadOrCreateKeypair(path string) (core.Keypair, error) {
	k, err := core.ReadKeypairFile(path)
	if !errors.Is(err, fs.ErrNotExist) {
		return k, err
	}
	if k, err = core.NewKeypair(); err != nil {
		return k, err
	}
	return k, core.WriteKeypairFile(path, k)
}

// writeFileAtomic writes through a temporary file and a rename, so a crash never leaves half a file.
func writeFileAtomic(path string, data []byte) error {
	tmp := path + ".tmp"
	f, err := os.OpenFile(tmp, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o600)
	if err != nil {
		return err
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}
