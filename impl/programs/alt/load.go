package alt

import (
	"ledgerd/impl/core"
	"ledgerd/impl/runtime"
)

// LoadAddresses resolves a v0 message's address table lookups at currentSlot, reading the tables
// from src, as the reference's bank does when it sanitizes a transaction (load_addresses): for
// each lookup in order, its writable then its read-only indexes. slotHashes is the bank's
// SlotHashes account data. The error is the transaction's: AddressLookupTableNotFound (no such
// account, or a deactivated table), InvalidAddressLookupTableOwner,
// InvalidAddressLookupTableData, InvalidAddressLookupTableIndex.
func LoadAddresses(lookups []core.AddressTableLookup, src runtime.AccountSource, currentSlot uint64,
	slotHashes SlotHashes) (*core.LoadedAddresses, *runtime.TransactionError) {
	loaded := &core.LoadedAddresses{}
	for i := range lookups {
		l := &lookups[i]
		t, err := loadTable(src, l.AccountKey)
		if err != nil {
			return nil, TransactionError(err)
		}
		w, err := t.Lookup(currentSlot, l.WritableIndexes, slotHashes)
		if err != nil {
			return nil, TransactionError(err)
		}
		r, err := t.Lookup(currentSlot, l.ReadonlyIndexes, slotHashes)
		if err != nil {
			return nil, TransactionError(err)
		}
		loaded.Writable = append(loaded.Writable, w...)
		loaded.Readonly = append(loaded.Readonly, r...)
	}
	return loaded, nil
}

// loadTable reads the table at key: ErrTableNotFound when no account exists there (zero lamports
// included), ErrInvalidOwner when the program does not own it, ErrInvalidData when it does not
// decode.
func loadTable(src runtime.AccountSource, key core.Pubkey) (*Table, error) {
	a, ok := src.GetAccount(key)
	if !ok || a.Lamports == 0 {
		return nil, ErrTableNotFound
	}
	if a.Owner != ProgramID {
		return nil, ErrInvalidOwner
	}
	t, err := Decode(a.Data)
	if err != nil {
		return nil, ErrInvalidData
	}
	return t, nil
}

// AddressLoaderErrorText returns the reference's AddressLoaderError text for a failure of
// LoadAddresses (getFeeForMessage reports "invalid transaction message: <text>"; sendTransaction
// and simulateTransaction report the TransactionError's own text instead).
func AddressLoaderErrorText(err *runtime.TransactionError) string {
	switch err.Kind {
	case runtime.TxAccountNotFound:
		return "Failed to load slot hashes sysvar"
	case runtime.TxAddressLookupTableNotFound:
		return "Attempted to lookup addresses from a table that does not exist"
	case runtime.TxInvalidAddressLookupTableOwner:
		return "Attempted to lookup addresses from an account owned by the wrong program"
	case runtime.TxInvalidAddressLookupTableData:
		return "Attempted to lookup addresses from an invalid account"
	case runtime.TxInvalidAddressLookupTableIndex:
		return "Address lookup contains an invalid index"
	}
	return err.Error()
}
