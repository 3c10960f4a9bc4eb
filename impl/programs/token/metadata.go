package token

import (
	"ledgerd/impl/core"
)

// The token-metadata interface as Token-2022 implements it: the metadata lives in the mint's
// own TokenMetadata extension (a variable-length borsh value), which the instructions resize
// along with the account.

func (e *exec) processTokenMetadata(ix *Instruction) error {
	switch ix.Kind {
	case KindInitializeTokenMetadata:
		e.ctx.ProgramLog("TokenMetadataInstruction: Initialize")
		return e.initializeTokenMetadata(ix)
	case KindUpdateTokenMetadataField:
		e.ctx.ProgramLog("TokenMetadataInstruction: UpdateField")
	case KindRemoveTokenMetadataKey:
		e.ctx.ProgramLog("TokenMetadataInstruction: RemoveKey")
	case KindUpdateTokenMetadataUpdateAuthority:
		e.ctx.ProgramLog("TokenMetadataInstruction: UpdateAuthority")
	case KindEmitTokenMetadata:
		e.ctx.ProgramLog("TokenMetadataInstruction: Emit")
		return e.emitTokenMetadata(ix)
	}
	return e.updateTokenMetadata(ix)
}

func (e *exec) initializeTokenMetadata(ix *Instruction) error {
	var metadata, updateAuthority, mint, mintAuthority *acctRef
	err := e.accts(&metadata, &updateAuthority, &mint, &mintAuthority)
	if err != nil {
		return err
	}
	if metadata.key != mint.key {
		e.ctx.ProgramLog("Metadata for a mint must be initialized in the mint itself.")
		return tokenErr(MintMismatch)
	}
	if err := e.checkOwnedByProgram(mint); err != nil {
		return err
	}
	ms, err := unpackPod(mint.data, kindMint)
	if err != nil {
		return err
	}
	if !mintAuthority.signer {
		return errMissingRequiredSignature
	}
	if k, ok := readMintPod(ms.base()).MintAuthority.Get(); !ok || k != mintAuthority.key {
		return MetadataIncorrectMintAuthority.Instruction()
	}
	if _, err := ms.extension(ExtMetadataPointer); err != nil {
		e.ctx.ProgramLog("A mint with metadata must have the metadata-pointer extension initialized")
		return tokenErr(InvalidExtensionCombination)
	}
	if updateAuthority.key == (core.Pubkey{}) {
		return errInvalidArgument
	}
	m := TokenMetadata{UpdateAuthority: Some(updateAuthority.key), Mint: mint.key, Name: ix.Name, Symbol: ix.Symbol, URI: ix.URI}
	return e.storeTokenMetadata(metadata, &m, false)
}

// loadTokenMetadata reads the metadata of the mint at account 0, checking the update
// authority at account 1.
func (e *exec) loadTokenMetadata() (*acctRef, TokenMetadata, error) {
	metadata, err := e.acct(0)
	if err != nil {
		return nil, TokenMetadata{}, err
	}
	authority, err := e.acct(1)
	if err != nil {
		return nil, TokenMetadata{}, err
	}
	if err := e.checkOwnedByProgram(metadata); err != nil {
		return nil, TokenMetadata{}, err
	}
	ms, err := unpackPod(metadata.data, kindMint)
	if err != nil {
		return nil, TokenMetadata{}, err
	}
	b, err := ms.extensionBytes(ExtTokenMetadata)
	if err != nil {
		return nil, TokenMetadata{}, err
	}
	m, err := decodeTokenMetadata(b)
	if err != nil {
		return nil, TokenMetadata{}, err
	}
	if !authority.signer {
		return nil, TokenMetadata{}, errMissingRequiredSignature
	}
	k, ok := m.UpdateAuthority.Get()
	if !ok {
		return nil, TokenMetadata{}, MetadataImmutable.Instruction()
	}
	if k != authority.key {
		return nil, TokenMetadata{}, MetadataIncorrectUpdateAuthority.Instruction()
	}
	return metadata, m, nil
}

func (e *exec) updateTokenMetadata(ix *Instruction) error {
	metadata, m, err := e.loadTokenMetadata()
	if err != nil {
		return err
	}
	switch ix.Kind {
	case KindUpdateTokenMetadataField:
		switch ix.Field.Kind {
		case FieldName:
			m.Name = ix.Value
		case FieldSymbol:
			m.Symbol = ix.Value
		case FieldURI:
			m.URI = ix.Value
		default:
			setKeyValue(&m, ix.Field.Key, ix.Value)
		}
	case KindRemoveTokenMetadataKey:
		if !removeKey(&m, ix.Key) && !ix.Idempotent {
			return MetadataKeyNotFound.Instruction()
		}
	case KindUpdateTokenMetadataUpdateAuthority:
		m.UpdateAuthority = ix.NewAuthority
	}
	return e.storeTokenMetadata(metadata, &m, true)
}

func setKeyValue(m *TokenMetadata, key, value string) {
	for i := range m.AdditionalMetadata {
		if m.AdditionalMetadata[i][0] == key {
			m.AdditionalMetadata[i][1] = value
			return
		}
	}
	m.AdditionalMetadata = append(m.AdditionalMetadata, [2]string{key, value})
}

func removeKey(m *TokenMetadata, key string) bool {
	found := false
	kept := m.AdditionalMetadata[:0]
	for _, kv := range m.AdditionalMetadata {
		if kv[0] == key {
			found = true
			continue
		}
		kept = append(kept, kv)
	}
	m.AdditionalMetadata = kept
	return found
}

// storeTokenMetadata writes m into the mint's TokenMetadata entry, resizing the account to
// fit (alloc_and_serialize_variable_len_extension).
func (e *exec) storeTokenMetadata(r *acctRef, m *TokenMetadata, overwrite bool) error {
	value := m.Pack()
	prev := len(r.data)
	s, err := unpackPod(r.data, kindMint)
	if err != nil {
		return err
	}
	newLen, err := s.newAccountLenFor(ExtTokenMetadata, len(value))
	if err != nil {
		return err
	}
	_, existsErr := s.extensionBytes(ExtTokenMetadata)
	exists := existsErr == nil
	if exists && !overwrite {
		return tokenErr(ExtensionAlreadyInitialized)
	}
	write := func() error {
		s, err := unpackPod(r.mut(), kindMint)
		if err != nil {
			return err
		}
		var dst []byte
		if exists {
			dst, err = s.realloc(ExtTokenMetadata, len(value))
		} else {
			dst, err = s.alloc(ExtTokenMetadata, len(value), false)
		}
		if err != nil {
			return err
		}
		copy(dst, value)
		return nil
	}
	if prev < newLen {
		if err := r.resize(newLen); err != nil {
			return err
		}
		if !exists && prev <= AccountSize {
			if err := setAccountType(r.data, kindMint); err != nil {
				return err
			}
		}
		return write()
	}
	if err := write(); err != nil {
		return err
	}
	if prev > newLen {
		return r.resize(newLen)
	}
	return nil
}

func (e *exec) emitTokenMetadata(ix *Instruction) error {
	metadata, err := e.acct(0)
	if err != nil {
		return err
	}
	if err := e.checkOwnedByProgram(metadata); err != nil {
		return err
	}
	ms, err := unpackPod(metadata.data, kindMint)
	if err != nil {
		return err
	}
	b, err := ms.extensionBytes(ExtTokenMetadata)
	if err != nil {
		return err
	}
	start, end := uint64(0), uint64(len(b))
	if v, ok := ix.Start.Get(); ok {
		start = v
	}
	if v, ok := ix.End.Get(); ok {
		end = v
	}
	if start <= end && end <= uint64(len(b)) {
		return e.setReturnData(b[start:end])
	}
	return nil
}
