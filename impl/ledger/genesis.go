// Package ledger owns the chain: genesis, banks, slots, block production, commitment, history.
package ledger

import (
	"cmp"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"time"

	"github.com/mr-tron/base58"

	"ledgerd/impl/core"
	"ledgerd/impl/core/sysvar"
)

// Files under the ledger directory.
const (
	IdentityFile = "validator-keypair.json"
	FaucetFile   = "faucet-keypair.json"
	VoteFile     = "vote-account-keypair.json"
	StakeFile    = "stake-account-keypair.json"
	GenesisFile  = "genesis.json"
)

// GenesisConfig is what a chain starts from. Its hash (SHA-256 of the file's bytes) is the genesis hash, so two
// ledgers share a genesis hash only when they share the whole configuration, accounts included.
type GenesisConfig struct {
	CreationTime   int64            `json:"creationTime"`
	Identity       string           `json:"identity"`
	Faucet         string           `json:"faucet"`
	FaucetLamports uint64           `json:"faucetLamports"`
	SlotsPerEpoch  uint64           `json:"slotsPerEpoch"`
	Warmup         bool             `json:"warmup"`
	TicksPerSlot   uint64           `json:"ticksPerSlot"`
	Accounts       []GenesisAccount `json:"accounts,omitempty"`
	// The validator's vote account and its bootstrap stake (always fully active).
	VoteAccount    string `json:"voteAccount"`
	StakeAccount   string `json:"stakeAccount"`
	StakeLamports  uint64 `json:"stakeLamports"`
	VoteCommission uint8  `json:"voteCommission"`
	// Inflation is the governor of the chain's inflation.
	Inflation Inflation `json:"inflation"`
	// Rent is the chain's Rent sysvar. Chains created before it was recorded have none and keep the classic
	// rent (3480 lamports per byte-year, threshold 2), which asks the same minimum balances.
	Rent *GenesisRent `json:"rent,omitempty"`
}

// GenesisRent is the Rent sysvar a chain starts with.
type GenesisRent struct {
	LamportsPerByteYear uint64  `json:"lamportsPerByteYear"`
	ExemptionThreshold  float64 `json:"exemptionThreshold"`
	BurnPercent         uint8   `json:"burnPercent"`
}

// ReferenceRent is the rent the reference's genesis has since SIMD-0194 (solana-rent 4's default): 6960 lamports
// per byte and a threshold of 1, which asks the same minimum balances as the former 3480 per byte-year over two
// years. Programs that read the sysvar's fields see the difference.
var ReferenceRent = GenesisRent{LamportsPerByteYear: 2 * sysvar.DefaultLamportsPerByteYear, ExemptionThreshold: 1,
	BurnPercent: sysvar.DefaultRentBurnPercent}

// SysvarRent is the chain's rent as the Rent sysvar holds it.
func (c *GenesisConfig) SysvarRent() sysvar.Rent {
	if c.Rent == nil {
		return sysvar.DefaultRent()
	}
	return sysvar.Rent{LamportsPerByteYear: c.Rent.LamportsPerByteYear, ExemptionThreshold: c.Rent.ExemptionThreshold,
		BurnPercent: c.Rent.BurnPercent}
}

// GenesisAccount is an account the chain starts with besides the builtin ones (the --account flag).
type GenesisAccount struct {
	Pubkey     core.Pubkey `json:"pubkey"`
	Lamports   uint64      `json:"lamports"`
	Owner      core.Pubkey `json:"owner"`
	Executable bool        `json:"executable"`
	RentEpoch  uint64      `json:"rentEpoch"`
	Data       []byte      `json:"data"`
}

// GenesisOptions are the settings of a new chain; an existing ledger keeps the ones it was created with.
type GenesisOptions struct {
	FaucetLamports uint64 // default DefaultFaucetLamports
	SlotsPerEpoch  uint64 // default DefaultSlotsPerEpoch
	Warmup         bool
	Accounts       []GenesisAccount
	// For reproducible chains (tests): the creation time (default now) and the identity and faucet keypairs
	// (default new ones), used when the ledger directory has none.
	CreationTime     int64
	Identity, Faucet *core.Keypair
}

// Genesis defaults, as the reference test validator has them.
const (
	LamportsPerSOL        = 1_000_000_000
	DefaultFaucetLamports = 1_000_000 * LamportsPerSOL
	DefaultSlotsPerEpoch  = 432_000
	// IdentityLamports fund the validator identity, which pays for its vote transactions.
	IdentityLamports = 500 * LamportsPerSOL
	// BootstrapStakeLamports are delegated to the validator's vote account at genesis.
	BootstrapStakeLamports = 500_000 * LamportsPerSOL
	// The reference's genesis writes SPL Token's wrapped-SOL mint with one SOL and rent epoch 1 (Token-2022's is
	// not in its genesis: CreateNativeMint makes it).
	NativeMintLamports  = LamportsPerSOL
	NativeMintRentEpoch = 1
)

// stakeConfigAccount is the stake program's config account as the reference's genesis adds it: a config-program
// account with no keys, then the default StakeConfig (warmup/cooldown rate 0.25, slash penalty 12), holding the
// rent-exempt minimum, rent epoch 0.
func stakeConfigAccount(rent *sysvar.Rent) GenesisAccount {
	data := []byte{0} // ConfigKeys: a short-vec of no keys
	data = binary.LittleEndian.AppendUint64(data, math.Float64bits(0.25))
	data = append(data, 12)
	return GenesisAccount{Pubkey: core.StakeConfigID, Lamports: max(rent.MinimumBalance(uint64(len(data))), 1),
		Owner: core.ConfigProgramID, Data: data}
}

// seeded derives a keypair from a given one and a label, so that a reproducible genesis (tests) also has
// reproducible vote and stake accounts; nil without a given keypair.
func seeded(k *core.Keypair, label string) *core.Keypair {
	if k == nil {
		return nil
	}
	seed := k.Seed()
	d := core.HashBytes(seed[:], []byte(label))
	kp := core.KeypairFromSeed(d)
	return &kp
}

// Genesis is an opened ledger directory's identity and genesis.
type Genesis struct {
	Dir      string
	Config   GenesisConfig
	Hash     [32]byte
	Identity core.Keypair
	Faucet   core.Keypair
	Vote     core.Keypair
	Stake    core.Keypair
}

// HashString is the genesis hash in base58.
func (g *Genesis) HashString() string { return base58.Encode(g.Hash[:]) }

// IdentityPubkey is the node identity in base58.
func (g *Genesis) IdentityPubkey() string { return g.Identity.PublicKey().String() }

// OpenGenesis opens dir, creating a new chain there when it has none (or when reset is set).
func OpenGenesis(dir string, reset bool, opts GenesisOptions) (*Genesis, error) {
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
	if g.Identity, err = loadOrCreateKeypair(filepath.Join(dir, IdentityFile), opts.Identity); err != nil {
		return nil, err
	}
	if g.Faucet, err = loadOrCreateKeypair(filepath.Join(dir, FaucetFile), opts.Faucet); err != nil {
		return nil, err
	}
	if g.Vote, err = loadOrCreateKeypair(filepath.Join(dir, VoteFile), seeded(opts.Identity, "vote")); err != nil {
		return nil, err
	}
	if g.Stake, err = loadOrCreateKeypair(filepath.Join(dir, StakeFile), seeded(opts.Identity, "stake")); err != nil {
		return nil, err
	}
	path := filepath.Join(dir, GenesisFile)
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		// A chain that lost its genesis.json must not get a new one: its hash would differ from the chain's.
		if entries, _ := os.ReadDir(filepath.Join(dir, "accounts")); len(entries) > 0 {
			return nil, genesisDamaged(dir, GenesisFile+" is missing but the ledger holds a chain")
		}
		g.Config = GenesisConfig{
			CreationTime:   cmp.Or(opts.CreationTime, time.Now().Unix()),
			Identity:       g.IdentityPubkey(),
			Faucet:         g.Faucet.PublicKey().String(),
			FaucetLamports: cmp.Or(opts.FaucetLamports, DefaultFaucetLamports),
			SlotsPerEpoch:  cmp.Or(opts.SlotsPerEpoch, DefaultSlotsPerEpoch),
			Warmup:         opts.Warmup,
			TicksPerSlot:   64,
			Accounts:       opts.Accounts,
			VoteAccount:    g.Vote.PublicKey().String(),
			StakeAccount:   g.Stake.PublicKey().String(),
			StakeLamports:  BootstrapStakeLamports,
			Inflation:      DefaultInflation(),
			Rent:           new(GenesisRent),
		}
		*g.Config.Rent = ReferenceRent
		if _, err := sysvar.NewEpochSchedule(g.Config.SlotsPerEpoch, g.Config.SlotsPerEpoch, g.Config.Warmup); err != nil {
			return nil, err
		}
		data, _ = json.MarshalIndent(g.Config, "", "  ")
		if err := writeFileAtomic(path, data); err != nil {
			return nil, err
		}
	} else if err != nil {
		return nil, err
	} else if err := json.Unmarshal(data, &g.Config); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	} else if err := g.checkKeypairs(); err != nil {
		return nil, err
	}
	g.Hash = sha256.Sum256(data)
	return g, nil
}

// checkKeypairs refuses keypair files that are not the ones an existing genesis names (one lost and made anew,
// or copied from another ledger): the faucet would hold nothing and the identity would not be the leader.
func (g *Genesis) checkKeypairs() error {
	for _, k := range []struct {
		file, named string
		key         *core.Keypair
	}{
		{IdentityFile, g.Config.Identity, &g.Identity}, {FaucetFile, g.Config.Faucet, &g.Faucet},
		{VoteFile, g.Config.VoteAccount, &g.Vote}, {StakeFile, g.Config.StakeAccount, &g.Stake},
	} {
		if k.named != "" && k.key.PublicKey().String() != k.named {
			return &damagedError{dir: g.Dir, what: fmt.Sprintf("%s holds the key of %s, but %s names %s", k.file,
				k.key.PublicKey(), GenesisFile, k.named), fix: "Refusing to start: put back the chain's own " + k.file +
				" (every snapshot under " + filepath.Join(g.Dir, "snapshots") + " carries a copy), or start a new chain with --reset"}
		}
	}
	return nil
}

// loadOrCreateKeypair reads a keypair file in the reference tools' JSON format, creating it when absent (from
// given when set).
func loadOrCreateKeypair(path string, given *core.Keypair) (core.Keypair, error) {
	k, err := core.ReadKeypairFile(path)
	if !errors.Is(err, fs.ErrNotExist) {
		return k, err
	}
	if given != nil {
		k = *given
	} else if k, err = core.NewKeypair(); err != nil {
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

// accountFile is the JSON of `solana account --output json`.
type accountFile struct {
	Pubkey  string `json:"pubkey"`
	Account struct {
		Lamports   uint64    `json:"lamports"`
		Data       [2]string `json:"data"`
		Owner      string    `json:"owner"`
		Executable bool      `json:"executable"`
		RentEpoch  uint64    `json:"rentEpoch"`
	} `json:"account"`
}

// LoadAccountFile reads an account in the JSON format of `solana account --output json` (the data as
// [base64, "base64"] or [base58, "base58"]) to be placed at address in a new chain.
func LoadAccountFile(address, path string) (GenesisAccount, error) {
	pk, err := core.ParsePubkey(address)
	if err != nil {
		return GenesisAccount{}, fmt.Errorf("--account %s: invalid address: %w", address, err)
	}
	raw, err := os.ReadFile(path)
	if err != nil {
		return GenesisAccount{}, fmt.Errorf("--account %s: %w", address, err)
	}
	var f accountFile
	if err := json.Unmarshal(raw, &f); err != nil {
		return GenesisAccount{}, fmt.Errorf("--account %s: %s: %w", address, path, err)
	}
	owner, err := core.ParsePubkey(f.Account.Owner)
	if err != nil {
		return GenesisAccount{}, fmt.Errorf("--account %s: %s: invalid owner: %w", address, path, err)
	}
	var data []byte
	switch f.Account.Data[1] {
	case "base64", "":
		data, err = base64.StdEncoding.DecodeString(f.Account.Data[0])
	case "base58":
		data, err = base58.Decode(f.Account.Data[0])
	default:
		err = fmt.Errorf("unsupported data encoding %q", f.Account.Data[1])
	}
	if err != nil {
		return GenesisAccount{}, fmt.Errorf("--account %s: %s: data: %w", address, path, err)
	}
	if f.Account.Lamports == 0 {
		return GenesisAccount{}, fmt.Errorf("--account %s: %s: an account needs lamports", address, path)
	}
	return GenesisAccount{Pubkey: pk, Lamports: f.Account.Lamports, Owner: owner, Executable: f.Account.Executable,
		RentEpoch: f.Account.RentEpoch, Data: data}, nil
}
