package core

// Account access rules: which accounts of a message sign and which may be written.

// LoadedAddresses are the accounts a v0 message loads from its lookup tables: all writable
// ones (in lookup order) and then all read-only ones. In the full account-key list they follow
// the static keys.
type LoadedAddresses struct {
	Writable []Pubkey
	Readonly []Pubkey
}

// Len returns the number of loaded accounts.
func (l *LoadedAddresses) Len() int {
	if l == nil {
		return 0
	}
	return len(l.Writable) + len(l.Readonly)
}

// NumLookupAddresses returns how many accounts the message's lookups load.
func (m *Message) NumLookupAddresses() (writable, readonly int) {
	if m.Version != Version0 {
		return 0, 0
	}
	for i := range m.AddressTableLookups {
		writable += len(m.AddressTableLookups[i].WritableIndexes)
		readonly += len(m.AddressTableLookups[i].ReadonlyIndexes)
	}
	return writable, readonly
}

// FullAccountKeys returns the static keys followed by the loaded ones (loaded may be nil).
func (m *Message) FullAccountKeys(loaded *LoadedAddresses) []Pubkey {
	if loaded.Len() == 0 {
		return m.AccountKeys
	}
	out := make([]Pubkey, 0, len(m.AccountKeys)+loaded.Len())
	out = append(out, m.AccountKeys...)
	out = append(out, loaded.Writable...)
	return append(out, loaded.Readonly...)
}

// IsSigner reports whether the account at index i must sign.
func (m *Message) IsSigner(i int) bool {
	return i >= 0 && i < int(m.Header.NumRequiredSignatures)
}

// IsWritableIndex reports whether the header (or, for loaded accounts, the lookup) asks for
// write access to the account at index i, before any demotion.
func (m *Message) IsWritableIndex(i int) bool {
	if i < 0 {
		return false
	}
	h := m.Header
	nkeys := len(m.AccountKeys)
	nsigned := int(h.NumRequiredSignatures)
	switch {
	case i >= nkeys:
		w, _ := m.NumLookupAddresses()
		return i-nkeys < w
	case i >= nsigned:
		// Saturating subtractions, as in the reference, so unsanitized headers cannot
		// wrap around.
		unsigned := max(nkeys-nsigned, 0)
		writableUnsigned := max(unsigned-int(h.NumReadonlyUnsignedAccounts), 0)
		return i-nsigned < writableUnsigned
	default:
		return i < max(nsigned-int(h.NumReadonlySignedAccounts), 0)
	}
}

// IsKeyCalledAsProgram reports whether some instruction invokes the account at index i.
func (m *Message) IsKeyCalledAsProgram(i int) bool {
	if i < 0 || i > 255 {
		return false
	}
	for k := range m.Instructions {
		if int(m.Instructions[k].ProgramIDIndex) == i {
			return true
		}
	}
	return false
}

// IsInstructionAccount reports whether some instruction passes the account at index i.
func (m *Message) IsInstructionAccount(i int) bool {
	if i < 0 || i > 255 {
		return false
	}
	for k := range m.Instructions {
		for _, a := range m.Instructions[k].Accounts {
			if int(a) == i {
				return true
			}
		}
	}
	return false
}

// ProgramIDs returns the distinct invoked program ids, in first-use order (static keys only;
// sanitized messages never invoke loaded keys).
func (m *Message) ProgramIDs() []Pubkey {
	var out []Pubkey
	for k := range m.Instructions {
		idx := int(m.Instructions[k].ProgramIDIndex)
		if idx >= len(m.AccountKeys) {
			continue
		}
		id := m.AccountKeys[idx]
		dup := false
		for _, p := range out {
			if p == id {
				dup = true
				break
			}
		}
		if !dup {
			out = append(out, id)
		}
	}
	return out
}

func containsKey(keys []Pubkey, k Pubkey) bool {
	for i := range keys {
		if keys[i] == k {
			return true
		}
	}
	return false
}

// IsUpgradeableLoaderPresent reports whether the upgradeable BPF loader is among the static
// keys. Its presence keeps invoked programs writable, so a program can be deployed or upgraded
// and invoked in one transaction.
func (m *Message) IsUpgradeableLoaderPresent() bool {
	return containsKey(m.AccountKeys, BPFLoaderUpgradeableProgramID)
}

// IsWritable reports whether the account at index i is write-locked, by the reference's
// is_maybe_writable with the reserved account keys: the header asks for write access, the key
// is not reserved, and it is not an invoked program (unless the upgradeable loader is present).
// For accounts loaded by lookups the key is unknown here, so the reserved-key rule cannot apply;
// the runtime uses IsWritableLoaded once addresses are loaded.
func (m *Message) IsWritable(i int) bool {
	if !m.IsWritableIndex(i) {
		return false
	}
	if i < len(m.AccountKeys) && IsReservedAccountKey(m.AccountKeys[i]) {
		return false
	}
	return !(m.IsKeyCalledAsProgram(i) && !m.IsUpgradeableLoaderPresent())
}

// IsWritableLoaded is IsWritable for a message whose lookups have been resolved to loaded (nil
// for legacy messages): the reserved-key rule covers loaded keys and the upgradeable-loader
// exemption looks at every key, as the reference's LoadedMessage does.
func (m *Message) IsWritableLoaded(i int, loaded *LoadedAddresses) bool {
	if !m.IsWritableIndex(i) {
		return false
	}
	key, ok := m.keyAt(i, loaded)
	if !ok || IsReservedAccountKey(key) {
		return false
	}
	if !m.IsKeyCalledAsProgram(i) {
		return true
	}
	if m.IsUpgradeableLoaderPresent() {
		return true
	}
	if loaded != nil {
		return containsKey(loaded.Writable, BPFLoaderUpgradeableProgramID) ||
			containsKey(loaded.Readonly, BPFLoaderUpgradeableProgramID)
	}
	return false
}

// keyAt returns the key at index i of static keys followed by loaded ones.
func (m *Message) keyAt(i int, loaded *LoadedAddresses) (Pubkey, bool) {
	if i < 0 {
		return Pubkey{}, false
	}
	if i < len(m.AccountKeys) {
		return m.AccountKeys[i], true
	}
	if loaded == nil {
		return Pubkey{}, false
	}
	i -= len(m.AccountKeys)
	if i < len(loaded.Writable) {
		return loaded.Writable[i], true
	}
	i -= len(loaded.Writable)
	if i < len(loaded.Readonly) {
		return loaded.Readonly[i], true
	}
	return Pubkey{}, false
}

// SignerKeys returns the keys that must sign (clamped for unsanitized messages).
func (m *Message) SignerKeys() []Pubkey {
	return m.AccountKeys[:min(len(m.AccountKeys), int(m.Header.NumRequiredSignatures))]
}

// FeePayer returns the first account key, which pays the fee.
func (m *Message) FeePayer() Pubkey {
	if len(m.AccountKeys) == 0 {
		return Pubkey{}
	}
	return m.AccountKeys[0]
}

// advanceNonceData is the start of SystemInstruction::AdvanceNonceAccount (u32 LE 4).
var advanceNonceData = [4]byte{4, 0, 0, 0}

// IsAdvanceNonceInstructionData reports whether data encodes a system AdvanceNonceAccount.
func IsAdvanceNonceInstructionData(data []byte) bool {
	return len(data) >= 4 && [4]byte(data[:4]) == advanceNonceData
}

// UsesDurableNonce reports whether the first instruction advances a nonce account, which makes
// the recent blockhash a nonce value rather than a blockhash.
func (m *Message) UsesDurableNonce() bool {
	if len(m.Instructions) == 0 {
		return false
	}
	ix := &m.Instructions[0]
	if int(ix.ProgramIDIndex) >= len(m.AccountKeys) || m.AccountKeys[ix.ProgramIDIndex] != SystemProgramID {
		return false
	}
	return IsAdvanceNonceInstructionData(ix.Data)
}
