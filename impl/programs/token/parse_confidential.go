package token

import (
	"encoding/base64"
	"encoding/binary"

	"ledgerd/impl/programs/internal/jsonparsed"
	"ledgerd/impl/runtime"
)

// The jsonParsed instructions of the confidential extensions (ConfidentialTransfer 27, ConfidentialTransferFee 37,
// ConfidentialMintBurn 42, and PermissionedBurn's ConfidentialBurn), as the reference's parse_token shows them:
// ElGamal keys and ciphertexts and authenticated-encryption ciphertexts as base64, proof offsets as numbers, and the
// optional proof accounts named after the proofs their offsets say are held in context state accounts. Payloads
// must have their exact size, and the account count is checked first.

func b64Bytes(b []byte) string { return base64.StdEncoding.EncodeToString(b) }

// confidentialPayload checks the account count, then the sub-instruction's payload size.
func (t tokenIx) confidentialPayload(data []byte, need, size int) ([]byte, error) {
	if err := t.need(need); err != nil {
		return nil, err
	}
	if len(data) != 1+size {
		return nil, runtime.ErrNotParsable
	}
	return data[1:], nil
}

// proof is one proof of a confidential instruction: its name and its instruction offset (0: the proof is in a
// context state account, which is then listed among the accounts).
type proof struct {
	name   string
	offset int8
}

// proofAccounts names the accounts from offset on: the instructions sysvar when any proof is in an instruction, then
// the context state account of each proof that is in one, each only while more than reserved accounts follow (the
// reference's saturating_sub bound). It returns the offset after them.
func (t tokenIx) proofAccounts(info map[string]any, offset, reserved int, proofs []proof) int {
	bound := len(t.Accounts) - reserved
	anyOffset := false
	for _, p := range proofs {
		anyOffset = anyOffset || p.offset != 0
	}
	if anyOffset && offset < bound {
		info["instructionsSysvar"] = t.key(offset)
		offset++
	}
	for _, p := range proofs {
		if p.offset == 0 && offset < bound {
			info[p.name+"ProofContextStateAccount"] = t.key(offset)
			offset++
		}
	}
	return offset
}

// ownerSigned builds {<first>: account 0} with the owner (or multisig owner and signers) from account 1.
func (t tokenIx) ownerSigned(typ, first string) any {
	info := t.info(first)
	t.signers(info, 1, "owner", "multisigOwner")
	return jsonparsed.Typed(typ, info)
}

// parseConfidentialTransfer parses ConfidentialTransfer instructions (data after the 27 prefix).
func (t tokenIx) parseConfidentialTransfer(data []byte) (any, error) {
	if len(data) == 0 || data[0] > 14 {
		return nil, runtime.ErrNotParsable
	}
	switch data[0] {
	case 0: // InitializeMint: authority, auto-approve, auditor key
		p, err := t.confidentialPayload(data, 1, 65)
		if err != nil {
			return nil, err
		}
		info := t.info("mint")
		info["autoApproveNewAccounts"] = p[32] != 0
		info["auditorElGamalPubkey"] = optElGamal(p[33:65])
		if k := nonZeroKey(p[:32]); k != nil {
			info["authority"] = k.String()
		}
		return jsonparsed.Typed("initializeConfidentialTransferMint", info), nil
	case 1: // UpdateMint: auto-approve, auditor key
		p, err := t.confidentialPayload(data, 2, 33)
		if err != nil {
			return nil, err
		}
		info := t.info("mint", "confidentialTransferMintAuthority")
		info["autoApproveNewAccounts"] = p[0] != 0
		info["auditorElGamalPubkey"] = optElGamal(p[1:33])
		return jsonparsed.Typed("updateConfidentialTransferMint", info), nil
	case 2: // ConfigureAccount: decryptable zero balance, maximum pending credits, proof offset
		p, err := t.confidentialPayload(data, 4, 45)
		if err != nil {
			return nil, err
		}
		info := t.info("account", "mint")
		info["decryptableZeroBalance"] = b64Bytes(p[:36])
		info["maximumPendingBalanceCreditCounter"] = binary.LittleEndian.Uint64(p[36:])
		offset := int8(p[44])
		info["proofInstructionOffset"] = offset
		if offset == 0 {
			info["proofContextStateAccount"] = t.key(2)
		} else {
			info["instructionsSysvar"] = t.key(2)
		}
		t.signers(info, 3, "owner", "multisigOwner")
		return jsonparsed.Typed("configureConfidentialTransferAccount", info), nil
	case 3:
		if err := t.need(3); err != nil {
			return nil, err
		}
		return jsonparsed.Typed("approveConfidentialTransferAccount", t.info("account", "mint", "confidentialTransferAuditorAuthority")), nil
	case 4: // EmptyAccount: proof offset
		p, err := t.confidentialPayload(data, 3, 1)
		if err != nil {
			return nil, err
		}
		info := t.info("account")
		offset := int8(p[0])
		info["proofInstructionOffset"] = offset
		if offset == 0 {
			info["proofContextStateAccount"] = t.key(1)
		} else {
			info["instructionsSysvar"] = t.key(1)
		}
		t.signers(info, 2, "owner", "multisigOwner")
		return jsonparsed.Typed("emptyConfidentialTransferAccount", info), nil
	case 5: // Deposit: amount, decimals
		p, err := t.confidentialPayload(data, 3, 9)
		if err != nil {
			return nil, err
		}
		info := t.info("account", "mint")
		info["amount"], info["decimals"] = binary.LittleEndian.Uint64(p), p[8]
		t.signers(info, 2, "owner", "multisigOwner")
		return jsonparsed.Typed("depositConfidentialTransfer", info), nil
	case 6: // Withdraw: amount, decimals, new decryptable balance, equality and range proof offsets
		p, err := t.confidentialPayload(data, 4, 47)
		if err != nil {
			return nil, err
		}
		info := t.info("account", "mint")
		info["amount"], info["decimals"] = binary.LittleEndian.Uint64(p), p[8]
		info["newDecryptableAvailableBalance"] = b64Bytes(p[9:45])
		eq, rng := int8(p[45]), int8(p[46])
		info["equalityProofInstructionOffset"], info["rangeProofInstructionOffset"] = eq, rng
		offset := t.proofAccounts(info, 2, 1, []proof{{"equality", eq}, {"range", rng}})
		t.signers(info, offset, "owner", "multisigOwner")
		return jsonparsed.Typed("withdrawConfidentialTransfer", info), nil
	case 7: // Transfer: new decryptable balance, two auditor ciphertexts, three proof offsets
		p, err := t.confidentialPayload(data, 4, 167)
		if err != nil {
			return nil, err
		}
		info := t.info("source", "mint", "destination")
		info["newSourceDecryptableAvailableBalance"] = b64Bytes(p[:36])
		eq, val, rng := int8(p[164]), int8(p[165]), int8(p[166])
		info["equalityProofInstructionOffset"], info["ciphertextValidityProofInstructionOffset"] = eq, val
		info["rangeProofInstructionOffset"] = rng
		offset := t.proofAccounts(info, 3, 1, []proof{{"equality", eq}, {"ciphertextValidity", val}, {"range", rng}})
		t.signers(info, offset, "owner", "multisigOwner")
		return jsonparsed.Typed("confidentialTransfer", info), nil
	case 8: // ApplyPendingBalance: expected credit counter, new decryptable balance
		p, err := t.confidentialPayload(data, 2, 44)
		if err != nil {
			return nil, err
		}
		info := t.info("account")
		info["expectedPendingBalanceCreditCounter"] = binary.LittleEndian.Uint64(p)
		info["newDecryptableAvailableBalance"] = b64Bytes(p[8:44])
		t.signers(info, 1, "owner", "multisigOwner")
		return jsonparsed.Typed("applyPendingConfidentialTransferBalance", info), nil
	case 9, 10, 11, 12:
		if err := t.need(2); err != nil {
			return nil, err
		}
		typ := []string{"enableConfidentialTransferConfidentialCredits", "disableConfidentialTransferConfidentialCredits",
			"enableConfidentialTransferNonConfidentialCredits", "disableConfidentialTransferNonConfidentialCredits"}[data[0]-9]
		return t.ownerSigned(typ, "account"), nil
	case 13: // TransferWithFee: new decryptable balance, two auditor ciphertexts, five proof offsets
		p, err := t.confidentialPayload(data, 4, 169)
		if err != nil {
			return nil, err
		}
		info := t.info("source", "mint", "destination")
		info["newSourceDecryptableAvailableBalance"] = b64Bytes(p[:36])
		eq, amountVal, feeSigma, feeVal, rng := int8(p[164]), int8(p[165]), int8(p[166]), int8(p[167]), int8(p[168])
		info["equalityProofInstructionOffset"] = eq
		info["transferAmountCiphertextValidityProofInstructionOffset"] = amountVal
		info["feeSigmaProofInstructionOffset"] = feeSigma
		info["feeCiphertextValidityProofInstructionOffset"] = feeVal
		info["rangeProofInstructionOffset"] = rng
		offset := t.proofAccounts(info, 3, 1, []proof{{"equality", eq}, {"transferAmountCiphertextValidity", amountVal},
			{"feeSigma", feeSigma}, {"feeCiphertextValidity", feeVal}, {"range", rng}})
		t.signers(info, offset, "owner", "multisigOwner")
		return jsonparsed.Typed("confidentialTransferWithFee", info), nil
	}
	// ConfigureAccountWithRegistry
	if err := t.need(3); err != nil {
		return nil, err
	}
	return jsonparsed.Typed("configureConfidentialAccountWithRegistry", t.info("account", "mint", "registry")), nil
}

// parseConfidentialTransferFee parses ConfidentialTransferFee instructions (data after the 37 prefix).
func (t tokenIx) parseConfidentialTransferFee(data []byte) (any, error) {
	if len(data) == 0 || data[0] > 5 {
		return nil, runtime.ErrNotParsable
	}
	withdrawSigners := func(info map[string]any, offset int, accounts []uint8) {
		signers(info, accounts, t.Keys, offset, "withdrawWithheldAuthority", "multisigWithdrawWithheldAuthority")
	}
	switch data[0] {
	case 0: // authority, the withdraw-withheld authority's ElGamal key (always shown)
		p, err := t.confidentialPayload(data, 1, 64)
		if err != nil {
			return nil, err
		}
		info := t.info("mint")
		info["withdrawWithheldAuthorityElGamalPubkey"] = b64Bytes(p[32:64])
		if k := nonZeroKey(p[:32]); k != nil {
			info["authority"] = k.String()
		}
		return jsonparsed.Typed("initializeConfidentialTransferFeeConfig", info), nil
	case 1: // WithdrawWithheldTokensFromMint: proof offset, new decryptable balance
		p, err := t.confidentialPayload(data, 4, 37)
		if err != nil {
			return nil, err
		}
		info := t.info("mint", "feeRecipient")
		offset := int8(p[0])
		info["proofInstructionOffset"], info["newDecryptableAvailableBalance"] = offset, b64Bytes(p[1:37])
		next := 2
		if next < len(t.Accounts)-1 {
			if offset == 0 {
				info["proofContextStateAccount"] = t.key(next)
			} else {
				info["instructionsSysvar"] = t.key(next)
			}
			next++
		}
		withdrawSigners(info, next, t.Accounts)
		return jsonparsed.Typed("withdrawWithheldConfidentialTransferTokensFromMint", info), nil
	case 2: // WithdrawWithheldTokensFromAccounts: number of sources, proof offset, new decryptable balance
		if len(data) != 1+38 {
			return nil, runtime.ErrNotParsable
		}
		n := int(data[1])
		if err := t.need(4 + n); err != nil {
			return nil, err
		}
		info := t.info("mint", "feeRecipient")
		offset := int8(data[2])
		info["proofInstructionOffset"], info["newDecryptableAvailableBalance"] = offset, b64Bytes(data[3:39])
		if offset == 0 {
			info["proofContextStateAccount"] = t.key(2)
		} else {
			info["instructionsSysvar"] = t.key(2)
		}
		first := max(len(t.Accounts)-n, 0)
		info["sourceAccounts"] = t.keysFrom(first)
		withdrawSigners(info, 3, t.Accounts[:first])
		return jsonparsed.Typed("withdrawWithheldConfidentialTransferTokensFromAccounts", info), nil
	case 3:
		if err := t.need(1); err != nil {
			return nil, err
		}
		info := t.info("mint")
		info["sourceAccounts"] = t.keysFrom(1)
		return jsonparsed.Typed("harvestWithheldConfidentialTransferTokensToMint", info), nil
	}
	if err := t.need(2); err != nil {
		return nil, err
	}
	typ := "enableConfidentialTransferFeeHarvestToMint"
	if data[0] == 5 {
		typ = "disableConfidentialTransferFeeHarvestToMint"
	}
	return t.ownerSigned(typ, "account"), nil
}

// parseConfidentialMintBurn parses ConfidentialMintBurn instructions (data after the 42 prefix).
func (t tokenIx) parseConfidentialMintBurn(data []byte) (any, error) {
	if len(data) == 0 || data[0] > 5 {
		return nil, runtime.ErrNotParsable
	}
	switch data[0] {
	case 0: // the supply's ElGamal key, the decryptable supply
		p, err := t.confidentialPayload(data, 1, 68)
		if err != nil {
			return nil, err
		}
		info := t.info("mint")
		info["supplyElGamalPubkey"], info["decryptableSupply"] = b64Bytes(p[:32]), b64Bytes(p[32:68])
		return jsonparsed.Typed("initializeConfidentialMintBurnMint", info), nil
	case 1: // RotateSupplyElGamalPubkey: new key, proof offset
		p, err := t.confidentialPayload(data, 3, 33)
		if err != nil {
			return nil, err
		}
		info := t.info("mint")
		offset := int8(p[32])
		info["newSupplyElGamalPubkey"], info["proofInstructionOffset"] = b64Bytes(p[:32]), offset
		if 1 < len(t.Accounts)-1 {
			if offset == 0 {
				info["proofContextStateAccount"] = t.key(1)
			} else {
				info["instructionsSysvar"] = t.key(1)
			}
		}
		t.signers(info, 2, "owner", "multisigOwner")
		return jsonparsed.Typed("rotateConfidentialMintBurnSupplyElGamalPubkey", info), nil
	case 2:
		p, err := t.confidentialPayload(data, 2, 36)
		if err != nil {
			return nil, err
		}
		info := t.info("mint")
		info["newDecryptableSupply"] = b64Bytes(p)
		t.signers(info, 1, "owner", "multisigOwner")
		return jsonparsed.Typed("updateConfidentialMintBurnDecryptableSupply", info), nil
	case 3, 4: // Mint or Burn: new decryptable amount, two auditor ciphertexts, three proof offsets
		p, err := t.confidentialPayload(data, 3, 167)
		if err != nil {
			return nil, err
		}
		info := t.info("destination", "mint")
		typ, field := "confidentialMint", "newDecryptableSupply"
		if data[0] == 4 {
			typ, field = "confidentialBurn", "newDecryptableAvailableBalance"
		}
		info[field] = b64Bytes(p[:36])
		eq, val, rng := int8(p[164]), int8(p[165]), int8(p[166])
		info["equalityProofInstructionOffset"], info["ciphertextValidityProofInstructionOffset"] = eq, val
		info["rangeProofInstructionOffset"] = rng
		offset := t.proofAccounts(info, 2, 1, []proof{{"equality", eq}, {"ciphertextValidity", val}, {"range", rng}})
		t.signers(info, offset, "owner", "multisigOwner")
		return jsonparsed.Typed(typ, info), nil
	}
	if err := t.need(2); err != nil {
		return nil, err
	}
	return t.ownerSigned("applyPendingBurn", "mint"), nil
}

// parsePermissionedConfidentialBurn parses PermissionedBurn's ConfidentialBurn (its payload after the sub-instruction):
// the proof accounts stop short of the permissioned burn authority and the owner, which come last.
func (t tokenIx) parsePermissionedConfidentialBurn(data []byte) (any, error) {
	p, err := t.confidentialPayload(data, 4, 167)
	if err != nil {
		return nil, err
	}
	info := t.info("account", "mint")
	info["newDecryptableAvailableBalance"] = b64Bytes(p[:36])
	eq, val, rng := int8(p[164]), int8(p[165]), int8(p[166])
	info["equalityProofInstructionOffset"], info["ciphertextValidityProofInstructionOffset"] = eq, val
	info["rangeProofInstructionOffset"] = rng
	offset := t.proofAccounts(info, 2, 2, []proof{{"equality", eq}, {"ciphertextValidity", val}, {"range", rng}})
	if offset < len(t.Accounts)-1 {
		info["permissionedBurnAuthority"] = t.key(offset)
		offset++
	}
	t.signers(info, offset, "authority", "multisigAuthority")
	return jsonparsed.Typed("permissionedConfidentialBurn", info), nil
}
