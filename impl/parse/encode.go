package parse

import (
	"encoding/base64"
	"fmt"
	"strconv"

	"github.com/mr-tron/base58"

	"ledgerd/generated/rpcapi"
	"ledgerd/impl/core"
	"ledgerd/impl/runtime"
)

// TxWithMeta is a stored transaction with what executing it produced.
type TxWithMeta struct {
	Tx *core.Transaction
	// Loaded are the addresses a v0 transaction loaded from its lookup tables when it ran; nil
	// for legacy transactions (and ignored for them).
	Loaded *core.LoadedAddresses
	// Meta is nil when the node has no status metadata for the transaction (`meta: null`).
	Meta *Meta
}

// Meta is the status metadata of an executed transaction, as stored. The zero value of every
// list means "recorded, empty"; the NotRecorded flags give the reference's null for lists it
// did not record (logs and inner instructions of a transaction that only paid its fee).
type Meta struct {
	Err          *runtime.TransactionError // nil on success
	Fee          uint64
	PreBalances  []uint64 // in full account-key order (static keys, then loaded ones)
	PostBalances []uint64

	Logs                         []string
	LogsNotRecorded              bool
	InnerInstructions            []runtime.InnerInstructions
	InnerInstructionsNotRecorded bool

	// Token balances, already in their RPC form.
	PreTokenBalances  []rpcapi.UiTransactionTokenBalance
	PostTokenBalances []rpcapi.UiTransactionTokenBalance

	ReturnData           *runtime.ReturnData // nil (or empty data) when none was set
	ComputeUnitsConsumed uint64
}

// UnsupportedVersionError is the reference's EncodeError::UnsupportedTransactionVersion; the
// RPC layer turns it into -32015.
type UnsupportedVersionError struct{ Version uint8 }

func (e *UnsupportedVersionError) Error() string {
	return "Encoding does not support transaction version " + strconv.Itoa(int(e.Version))
}

// IsLegacy reports whether tx is a legacy (unversioned) transaction.
func IsLegacy(tx *core.Transaction) bool { return tx.Message.Version == core.VersionLegacy }

// Version returns the `version` value of tx: "legacy" or its number.
func Version(tx *core.Transaction) rpcapi.TransactionVersion {
	if IsLegacy(tx) {
		s := "legacy"
		return rpcapi.TransactionVersion{Legacy: &s}
	}
	n := uint8(tx.Message.Version) - 1 // core numbers versions after legacy from 1
	return rpcapi.TransactionVersion{Number: &n}
}

// versionNumber is the protocol's number of a versioned message.
func versionNumber(tx *core.Transaction) uint8 { return *Version(tx).Number }

// CheckVersion applies the reference's maxSupportedTransactionVersion rule: without it only
// legacy transactions may be returned; with it, versions up to it. The error is an
// *UnsupportedVersionError. (transactionDetails "signatures" and "none" do not check.)
func CheckVersion(tx *core.Transaction, maxSupported *uint8) error {
	if IsLegacy(tx) {
		return nil
	}
	if v := versionNumber(tx); maxSupported == nil || v > *maxSupported {
		return &UnsupportedVersionError{Version: v}
	}
	return nil
}

// FirstSignature returns the transaction's id, the entry of getBlock's `signatures` detail.
func FirstSignature(tx *core.Transaction) rpcapi.Signature { return tx.Signature().String() }

// loadedFor returns the loaded addresses that apply to tx (none for legacy transactions).
func loadedFor(tx *core.Transaction, loaded *core.LoadedAddresses) *core.LoadedAddresses {
	if IsLegacy(tx) {
		return nil
	}
	return loaded
}

// EncodeTransaction encodes tx as getBlock (transactionDetails "full") and getTransaction
// return it, in encoding json, jsonParsed, base58 or base64. withVersion adds `version` (the
// request set maxSupportedTransactionVersion; the caller has applied CheckVersion);
// showRewards false gives `rewards: null`.
func EncodeTransaction(tx TxWithMeta, encoding rpcapi.TransactionEncoding, withVersion, showRewards bool) (rpcapi.EncodedTransactionWithMeta, error) {
	var out rpcapi.EncodedTransactionWithMeta
	loaded := loadedFor(tx.Tx, tx.Loaded)
	keys := tx.Tx.Message.FullAccountKeys(loaded)
	parsed := false
	switch encoding {
	case rpcapi.TransactionEncodingJson:
		msg := rawMessage(&tx.Tx.Message)
		out.Transaction.Json = &rpcapi.UiTransaction{Signatures: signatures(tx.Tx), Message: rpcapi.UiMessage{Raw: &msg}}
	case rpcapi.TransactionEncodingJsonParsed:
		msg, err := parsedMessage(&tx.Tx.Message, loaded)
		if err != nil {
			return out, err
		}
		out.Transaction.Json = &rpcapi.UiTransaction{Signatures: signatures(tx.Tx), Message: rpcapi.UiMessage{Parsed: &msg}}
		parsed = true
	case rpcapi.TransactionEncodingBase58:
		out.Transaction.Binary = &[2]string{base58.Encode(tx.Tx.Serialize()), string(encoding)}
	case rpcapi.TransactionEncodingBase64:
		out.Transaction.Binary = &[2]string{base64.StdEncoding.EncodeToString(tx.Tx.Serialize()), string(encoding)}
	default:
		return out, fmt.Errorf("parse: unsupported transaction encoding %q", encoding)
	}
	if tx.Meta != nil {
		meta, err := encodeMeta(tx.Meta, keys, loaded, parsed, showRewards)
		if err != nil {
			return out, err
		}
		out.Meta = meta
	}
	if withVersion {
		v := Version(tx.Tx)
		out.Version = &v
	}
	return out, nil
}

// EncodeAccounts encodes tx for getBlock's transactionDetails "accounts": the signatures, the
// account keys with their flags and source, and the balance part of the metadata. showRewards
// false leaves `rewards` out.
func EncodeAccounts(tx TxWithMeta, withVersion, showRewards bool) rpcapi.UiAccountsTransactionWithMeta {
	out := rpcapi.UiAccountsTransactionWithMeta{Transaction: rpcapi.UiAccountsList{
		Signatures:  signatures(tx.Tx),
		AccountKeys: AccountKeys(tx.Tx, tx.Loaded),
	}}
	if m := tx.Meta; m != nil {
		out.Meta = &rpcapi.UiAccountsTransactionStatusMeta{
			Err:               TransactionErr(m.Err),
			Status:            TransactionStatus(m.Err),
			Fee:               m.Fee,
			PreBalances:       nonNil(m.PreBalances),
			PostBalances:      nonNil(m.PostBalances),
			PreTokenBalances:  nonNil(m.PreTokenBalances),
			PostTokenBalances: nonNil(m.PostTokenBalances),
		}
		if showRewards {
			out.Meta.Rewards = &[]rpcapi.Reward{}
		}
	}
	if withVersion {
		v := Version(tx.Tx)
		out.Version = &v
	}
	return out
}

// TransactionErr is the `err` value: null on success, otherwise the error's serde JSON.
func TransactionErr(err *runtime.TransactionError) rpcapi.TransactionError {
	if err == nil {
		return nil
	}
	return *err
}

// TransactionStatus is the deprecated `status` value: {"Ok":null} or {"Err":<error>}.
func TransactionStatus(err *runtime.TransactionError) rpcapi.TransactionStatusLegacy {
	if err == nil {
		return map[string]any{"Ok": nil}
	}
	return map[string]any{"Err": *err}
}

// EncodeReturnData is the `returnData` value: nil when no data was set.
func EncodeReturnData(rd *runtime.ReturnData) *rpcapi.ReturnData {
	if rd == nil || len(rd.Data) == 0 {
		return nil
	}
	return &rpcapi.ReturnData{
		ProgramId: rd.ProgramID.String(),
		Data:      [2]string{base64.StdEncoding.EncodeToString(rd.Data), "base64"},
	}
}

// EncodeInnerInstructions encodes inner instructions against keys, the full account list:
// compiled (json) or, when parsed, as jsonParsed instructions. Groups without instructions are
// left out, as the reference does.
func EncodeInnerInstructions(inner []runtime.InnerInstructions, keys []core.Pubkey, parsed bool) ([]rpcapi.InnerInstructions, error) {
	out := make([]rpcapi.InnerInstructions, 0, len(inner))
	for _, g := range inner {
		if len(g.Instructions) == 0 {
			continue
		}
		ixs := make([]rpcapi.UiInstruction, len(g.Instructions))
		for i, ix := range g.Instructions {
			var height *uint32
			if ix.StackHeight != 0 { // 0: not recorded
				h := uint32(ix.StackHeight)
				height = &h
			}
			if !parsed {
				c := compiledInstruction(ix.ProgramIDIndex, ix.Accounts, ix.Data, height)
				ixs[i] = rpcapi.UiInstruction{Compiled: &c}
				continue
			}
			var err error
			if ixs[i], err = ParseInstruction(ix.ProgramIDIndex, ix.Accounts, ix.Data, keys, height); err != nil {
				return nil, err
			}
		}
		out = append(out, rpcapi.InnerInstructions{Index: g.Index, Instructions: ixs})
	}
	return out, nil
}

func encodeMeta(m *Meta, keys []core.Pubkey, loaded *core.LoadedAddresses, parsed, showRewards bool) (*rpcapi.UiTransactionStatusMeta, error) {
	out := &rpcapi.UiTransactionStatusMeta{
		Err:               TransactionErr(m.Err),
		Status:            TransactionStatus(m.Err),
		Fee:               m.Fee,
		PreBalances:       nonNil(m.PreBalances),
		PostBalances:      nonNil(m.PostBalances),
		PreTokenBalances:  nonNil(m.PreTokenBalances),
		PostTokenBalances: nonNil(m.PostTokenBalances),
		ReturnData:        EncodeReturnData(m.ReturnData),
	}
	if !m.InnerInstructionsNotRecorded {
		var err error
		if out.InnerInstructions, err = EncodeInnerInstructions(m.InnerInstructions, keys, parsed); err != nil {
			return nil, err
		}
	}
	if !m.LogsNotRecorded {
		out.LogMessages = nonNil(m.Logs)
	}
	if showRewards {
		// The reference records rent debits here; rent collection is gone, so it is empty.
		out.Rewards = []rpcapi.Reward{}
	}
	if !parsed {
		// jsonParsed leaves loadedAddresses out: its account keys carry their source instead.
		out.LoadedAddresses = &rpcapi.LoadedAddresses{Writable: []rpcapi.Pubkey{}, Readonly: []rpcapi.Pubkey{}}
		if loaded != nil {
			out.LoadedAddresses.Writable = pubkeyStrings(loaded.Writable)
			out.LoadedAddresses.Readonly = pubkeyStrings(loaded.Readonly)
		}
	}
	cu := m.ComputeUnitsConsumed
	out.ComputeUnitsConsumed = &cu
	return out, nil
}

// rawMessage is the json form of a message. Top-level instructions carry stackHeight null,
// as the reference's 2.x line sends.
func rawMessage(m *core.Message) rpcapi.UiRawMessage {
	out := rpcapi.UiRawMessage{
		Header: rpcapi.MessageHeader{
			NumRequiredSignatures:       m.Header.NumRequiredSignatures,
			NumReadonlySignedAccounts:   m.Header.NumReadonlySignedAccounts,
			NumReadonlyUnsignedAccounts: m.Header.NumReadonlyUnsignedAccounts,
		},
		AccountKeys:         pubkeyStrings(m.AccountKeys),
		RecentBlockhash:     m.RecentBlockhash.String(),
		Instructions:        make([]rpcapi.UiCompiledInstruction, len(m.Instructions)),
		AddressTableLookups: addressTableLookups(m),
	}
	for i, ix := range m.Instructions {
		out.Instructions[i] = compiledInstruction(ix.ProgramIDIndex, ix.Accounts, ix.Data, nil)
	}
	return out
}

// parsedMessage is the jsonParsed form of a message.
func parsedMessage(m *core.Message, loaded *core.LoadedAddresses) (rpcapi.UiParsedMessage, error) {
	keys := m.FullAccountKeys(loaded)
	out := rpcapi.UiParsedMessage{
		AccountKeys:         accountKeys(m, loaded),
		RecentBlockhash:     m.RecentBlockhash.String(),
		Instructions:        make([]rpcapi.UiInstruction, len(m.Instructions)),
		AddressTableLookups: addressTableLookups(m),
	}
	for i, ix := range m.Instructions {
		var err error
		if out.Instructions[i], err = ParseInstruction(ix.ProgramIDIndex, ix.Accounts, ix.Data, keys, nil); err != nil {
			return out, err
		}
	}
	return out, nil
}

// addressTableLookups is the lookups list of a v0 message (present, possibly empty) and nil
// (left out) for a legacy one.
func addressTableLookups(m *core.Message) *[]rpcapi.UiAddressTableLookup {
	if m.Version == core.VersionLegacy {
		return nil
	}
	out := make([]rpcapi.UiAddressTableLookup, len(m.AddressTableLookups))
	for i, l := range m.AddressTableLookups {
		out[i] = rpcapi.UiAddressTableLookup{
			AccountKey:      l.AccountKey.String(),
			WritableIndexes: u8List(l.WritableIndexes),
			ReadonlyIndexes: u8List(l.ReadonlyIndexes),
		}
	}
	return &out
}

// AccountKeys returns the account keys of tx as jsonParsed and transactionDetails "accounts"
// show them: every key, static then loaded (loaded is ignored for legacy transactions), with
// whether it signs, whether the transaction may write it, and where it comes from.
func AccountKeys(tx *core.Transaction, loaded *core.LoadedAddresses) []rpcapi.ParsedAccountKey {
	return accountKeys(&tx.Message, loadedFor(tx, loaded))
}

func accountKeys(m *core.Message, loaded *core.LoadedAddresses) []rpcapi.ParsedAccountKey {
	keys := m.FullAccountKeys(loaded)
	out := make([]rpcapi.ParsedAccountKey, len(keys))
	for i, k := range keys {
		source := "transaction"
		if i >= len(m.AccountKeys) {
			source = "lookupTable"
		}
		out[i] = rpcapi.ParsedAccountKey{
			Pubkey: k.String(),
			// The reference uses every reserved key here, Secp256r1 included even before its
			// feature reserves it for the runtime.
			Writable: m.IsWritableLoaded(i, loaded) && k != core.Secp256r1ProgramID,
			Signer:   m.IsSigner(i),
			Source:   source,
		}
	}
	return out
}

func signatures(tx *core.Transaction) []rpcapi.Signature {
	out := make([]rpcapi.Signature, len(tx.Signatures))
	for i, s := range tx.Signatures {
		out[i] = s.String()
	}
	return out
}

func pubkeyStrings(keys []core.Pubkey) []rpcapi.Pubkey {
	out := make([]rpcapi.Pubkey, len(keys))
	for i, k := range keys {
		out[i] = k.String()
	}
	return out
}

// nonNil returns s, or an empty list in its place so that it marshals as [] rather than null.
func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}
