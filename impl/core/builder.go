package core

import (
	"encoding/binary"
	"slices"
)

// AccountMeta is an account an instruction uses, with the access it needs.
type AccountMeta struct {
	Pubkey     Pubkey
	IsSigner   bool
	IsWritable bool
}

// Writable returns a writable, non-signing account meta.
func Writable(k Pubkey) AccountMeta { return AccountMeta{Pubkey: k, IsWritable: true} }

// Readonly returns a read-only, non-signing account meta.
func Readonly(k Pubkey) AccountMeta { return AccountMeta{Pubkey: k} }

// WritableSigner returns a writable signing account meta.
func WritableSigner(k Pubkey) AccountMeta {
	return AccountMeta{Pubkey: k, IsSigner: true, IsWritable: true}
}

// ReadonlySigner returns a read-only signing account meta.
func ReadonlySigner(k Pubkey) AccountMeta { return AccountMeta{Pubkey: k, IsSigner: true} }

// Instruction is an uncompiled instruction: a program, its accounts and its data.
type Instruction struct {
	ProgramID Pubkey
	Accounts  []AccountMeta
	Data      []byte
}

// AddressLookupTableAccount is the content of an address lookup table, for compiling v0
// messages.
type AddressLookupTableAccount struct {
	Key       Pubkey
	Addresses []Pubkey
}

// CompileError is a failure to compile instructions into a message; texts are the reference's
// CompileError Display forms.
type CompileError struct{ msg string }

func (e *CompileError) Error() string { return e.msg }

// Compile errors.
var (
	ErrAccountIndexOverflow            = &CompileError{"account index overflowed during compilation"}
	ErrAddressTableLookupIndexOverflow = &CompileError{"address lookup table index overflowed during compilation"}
	ErrInstructionTooLarge             = &CompileError{"instruction data or account list longer than 65535"}
)

func unknownInstructionKey(k Pubkey) *CompileError {
	return &CompileError{"encountered unknown account key `" + k.String() + "` during instruction compilation"}
}

type keyMeta struct {
	key                                    Pubkey
	isSigner, isWritable, isInvoked, nonce bool
}

// compiledKeys collects the keys of a set of instructions, sorted by key bytes as the
// reference's BTreeMap is, with the payer held apart so it always comes first.
type compiledKeys struct {
	payer Pubkey
	metas []keyMeta // sorted by key, payer excluded
}

func (c *compiledKeys) entry(k Pubkey) *keyMeta {
	i, found := slices.BinarySearchFunc(c.metas, k, func(m keyMeta, k Pubkey) int { return m.key.Compare(k) })
	if !found {
		c.metas = slices.Insert(c.metas, i, keyMeta{key: k})
	}
	return &c.metas[i]
}

func compileKeys(payer Pubkey, ixs []Instruction) *compiledKeys {
	c := &compiledKeys{payer: payer}
	for i := range ixs {
		ix := &ixs[i]
		if ix.ProgramID != payer {
			c.entry(ix.ProgramID).isInvoked = true
		}
		for _, a := range ix.Accounts {
			if a.Pubkey == payer {
				continue
			}
			m := c.entry(a.Pubkey)
			m.isSigner = m.isSigner || a.IsSigner
			m.isWritable = m.isWritable || a.IsWritable
		}
	}
	// The nonce account of a durable-nonce transaction must stay a static key.
	if len(ixs) > 0 && ixs[0].ProgramID == SystemProgramID && IsAdvanceNonceInstructionData(ixs[0].Data) &&
		len(ixs[0].Accounts) > 0 && ixs[0].Accounts[0].Pubkey != payer {
		c.entry(ixs[0].Accounts[0].Pubkey).nonce = true
	}
	return c
}

// extractTableLookup moves the keys found in table out of the static set: writable ones first,
// then read-only ones, each group in key order. Signers, invoked programs and the nonce account
// never come from tables.
func (c *compiledKeys) extractTableLookup(table *AddressLookupTableAccount) (*AddressTableLookup, *LoadedAddresses, error) {
	drain := func(writable bool) ([]uint8, []Pubkey, error) {
		var idx []uint8
		var keys []Pubkey
		for _, m := range c.metas {
			if m.isSigner || m.isInvoked || m.nonce || m.isWritable != writable {
				continue
			}
			for j, a := range table.Addresses {
				if a == m.key {
					if j > 255 {
						return nil, nil, ErrAddressTableLookupIndexOverflow
					}
					idx = append(idx, uint8(j))
					keys = append(keys, m.key)
					break
				}
			}
		}
		return idx, keys, nil
	}
	wIdx, wKeys, err := drain(true)
	if err != nil {
		return nil, nil, err
	}
	rIdx, rKeys, err := drain(false)
	if err != nil {
		return nil, nil, err
	}
	if len(wIdx) == 0 && len(rIdx) == 0 {
		return nil, nil, nil
	}
	c.metas = slices.DeleteFunc(c.metas, func(m keyMeta) bool {
		return slices.Contains(wKeys, m.key) || slices.Contains(rKeys, m.key)
	})
	return &AddressTableLookup{AccountKey: table.Key, WritableIndexes: wIdx, ReadonlyIndexes: rIdx},
		&LoadedAddresses{Writable: wKeys, Readonly: rKeys}, nil
}

func (c *compiledKeys) messageComponents() (MessageHeader, []Pubkey, error) {
	keys := make([]Pubkey, 0, len(c.metas)+1)
	keys = append(keys, c.payer)
	var roSigners, roUnsigned int
	for _, m := range c.metas {
		if m.isSigner && m.isWritable {
			keys = append(keys, m.key)
		}
	}
	for _, m := range c.metas {
		if m.isSigner && !m.isWritable {
			keys = append(keys, m.key)
			roSigners++
		}
	}
	signers := len(keys)
	for _, m := range c.metas {
		if !m.isSigner && m.isWritable {
			keys = append(keys, m.key)
		}
	}
	for _, m := range c.metas {
		if !m.isSigner && !m.isWritable {
			keys = append(keys, m.key)
			roUnsigned++
		}
	}
	if signers > 255 || roSigners > 255 || roUnsigned > 255 {
		return MessageHeader{}, nil, ErrAccountIndexOverflow
	}
	return MessageHeader{
		NumRequiredSignatures:       uint8(signers),
		NumReadonlySignedAccounts:   uint8(roSigners),
		NumReadonlyUnsignedAccounts: uint8(roUnsigned),
	}, keys, nil
}

func compileInstructions(ixs []Instruction, keys []Pubkey) ([]CompiledInstruction, error) {
	index := func(k Pubkey) (uint8, error) {
		i := slices.Index(keys, k)
		if i < 0 {
			return 0, unknownInstructionKey(k)
		}
		if i > 255 {
			return 0, ErrAccountIndexOverflow
		}
		return uint8(i), nil
	}
	out := make([]CompiledInstruction, len(ixs))
	for i := range ixs {
		ix := &ixs[i]
		if len(ix.Accounts) > 0xffff || len(ix.Data) > 0xffff {
			return nil, ErrInstructionTooLarge
		}
		p, err := index(ix.ProgramID)
		if err != nil {
			return nil, err
		}
		accts := make([]uint8, len(ix.Accounts))
		for j, a := range ix.Accounts {
			if accts[j], err = index(a.Pubkey); err != nil {
				return nil, err
			}
		}
		out[i] = CompiledInstruction{ProgramIDIndex: p, Accounts: accts, Data: slices.Clone(ix.Data)}
	}
	return out, nil
}

// CompileLegacyMessage builds a legacy message the way the reference's Message::new does: the
// payer first, then the other keys grouped as writable signers, read-only signers, writable
// non-signers and read-only non-signers, each group sorted by key bytes. A key's access is the
// union of all its uses.
func CompileLegacyMessage(payer Pubkey, ixs []Instruction, blockhash Hash) (*Message, error) {
	c := compileKeys(payer, ixs)
	header, keys, err := c.messageComponents()
	if err != nil {
		return nil, err
	}
	if len(keys) > 256 {
		return nil, ErrAccountIndexOverflow
	}
	cixs, err := compileInstructions(ixs, keys)
	if err != nil {
		return nil, err
	}
	return &Message{Version: VersionLegacy, Header: header, AccountKeys: keys, RecentBlockhash: blockhash, Instructions: cixs}, nil
}

// CompileV0Message builds a v0 message as the reference's v0::Message::try_compile does: keys
// that are neither signers nor invoked programs are loaded from the given tables where found
// (tables that supply nothing are left out), the rest are static keys ordered as in
// CompileLegacyMessage.
func CompileV0Message(payer Pubkey, ixs []Instruction, tables []AddressLookupTableAccount, blockhash Hash) (*Message, error) {
	c := compileKeys(payer, ixs)
	var lookups []AddressTableLookup
	var loaded LoadedAddresses
	for i := range tables {
		l, la, err := c.extractTableLookup(&tables[i])
		if err != nil {
			return nil, err
		}
		if l != nil {
			lookups = append(lookups, *l)
			loaded.Writable = append(loaded.Writable, la.Writable...)
			loaded.Readonly = append(loaded.Readonly, la.Readonly...)
		}
	}
	header, keys, err := c.messageComponents()
	if err != nil {
		return nil, err
	}
	m := &Message{Version: Version0, Header: header, AccountKeys: keys, RecentBlockhash: blockhash, AddressTableLookups: lookups}
	all := m.FullAccountKeys(&loaded)
	if m.Instructions, err = compileInstructions(ixs, all); err != nil {
		return nil, err
	}
	return m, nil
}

// System program instruction tags used by the builders.
const (
	systemTransferTag = 2
)

// TransferInstruction is the system program's Transfer: from (writable signer) sends lamports to
// to (writable).
func TransferInstruction(from, to Pubkey, lamports uint64) Instruction {
	data := make([]byte, 12)
	binary.LittleEndian.PutUint32(data, systemTransferTag)
	binary.LittleEndian.PutUint64(data[4:], lamports)
	return Instruction{
		ProgramID: SystemProgramID,
		Accounts:  []AccountMeta{WritableSigner(from), Writable(to)},
		Data:      data,
	}
}

// NewTransferTx returns a signed legacy transaction moving lamports from `from` to `to`, with
// `from` paying the fee.
func NewTransferTx(from Keypair, to Pubkey, lamports uint64, blockhash Hash) *Transaction {
	m, err := CompileLegacyMessage(from.PublicKey(), []Instruction{TransferInstruction(from.PublicKey(), to, lamports)}, blockhash)
	if err != nil {
		panic("core: transfer cannot fail to compile: " + err.Error())
	}
	tx := &Transaction{Message: *m}
	if err := tx.Sign(from); err != nil {
		panic("core: transfer cannot fail to sign: " + err.Error())
	}
	return tx
}

// NewTransaction compiles ixs into a legacy message paid by payer and signs it with signers
// (which must be exactly the required signers, payer included).
func NewTransaction(payer Pubkey, ixs []Instruction, blockhash Hash, signers ...Keypair) (*Transaction, error) {
	m, err := CompileLegacyMessage(payer, ixs, blockhash)
	if err != nil {
		return nil, err
	}
	return NewSignedTransaction(m, signers...)
}
