package sbpf

import "encoding/binary"

// verify is the reference's RequisiteVerifier: per slot, the opcode must exist in the version,
// then the opcode's own checks run, then the register checks; lddw consumes two slots.
func verify(text []byte, v Version) *VerifierError {
	if len(text)%InsnSize != 0 {
		return &VerifierError{Kind: VerifierProgramLengthNotMultiple}
	}
	if len(text) == 0 {
		return &VerifierError{Kind: VerifierNoProgram}
	}
	if v > Reserved {
		v = Reserved
	}
	table := &semTable[v]
	n := uint64(len(text) / InsnSize)
	slot := func(pc uint64) uint64 { return binary.LittleEndian.Uint64(text[pc*InsnSize:]) }

	var pc uint64
	for pc < n {
		x := slot(pc)
		opc := byte(x)
		dst := byte(x>>8) & 0x0f
		src := byte(x>>12) & 0x0f
		off := int64(int16(x >> 16))
		imm := int64(int32(x >> 32))
		store := false
		s := table[opc]
		switch {
		case s == sInvalid:
			return &VerifierError{Kind: VerifierUnknownOpCode, Opcode: opc, PC: pc}
		case s == sLDDW:
			if pc+1 >= n {
				return &VerifierError{Kind: VerifierLDDWCannotBeLast}
			}
			if byte(slot(pc+1)) != 0 {
				return &VerifierError{Kind: VerifierIncompleteLDDW, PC: pc}
			}
			pc++
		case s >= sST1 && s <= sSTX8:
			store = true
		case s == sDIV32I || s == sMOD32I || s == sDIV64I || s == sMOD64I ||
			s == sUDIV32I || s == sUDIV64I || s == sUREM32I || s == sUREM64I ||
			s == sSDIV32I || s == sSDIV64I || s == sSREM32I || s == sSREM64I:
			if imm == 0 {
				return &VerifierError{Kind: VerifierDivisionByZero, PC: pc}
			}
		case s == sLSH32I || s == sRSH32I || s == sARSH32I:
			if err := checkShift(imm, 32, pc); err != nil {
				return err
			}
		case s == sLSH64I || s == sRSH64I || s == sARSH64I:
			if err := checkShift(imm, 64, pc); err != nil {
				return err
			}
		case s == sLE || s == sBE:
			if imm != 16 && imm != 32 && imm != 64 {
				return &VerifierError{Kind: VerifierUnsupportedLEBEArgument, PC: pc}
			}
		case s == sADD64I && dst == 10 && v.ManualStackFrameBump():
			if imm&63 != 0 {
				return &VerifierError{Kind: VerifierUnalignedImmediate, PC: pc}
			}
		case isJump(s):
			// The target is computed in signed arithmetic; a negative one is reported as the
			// reference prints it, wrapped to an unsigned value.
			target := int64(pc) + 1 + off
			if target < 0 || uint64(target) >= n {
				return &VerifierError{Kind: VerifierJumpOutOfCode, Target: uint64(target), PC: pc}
			}
			if byte(slot(uint64(target))) == 0 {
				return &VerifierError{Kind: VerifierJumpToMiddleOfLDDW, Target: uint64(target), PC: pc}
			}
		case s == sCALLX:
			var reg int64
			switch {
			case v.CallxUsesSrcReg():
				reg = int64(src)
			case v.CallxUsesDstReg():
				reg = int64(dst)
			default:
				reg = imm
			}
			if reg < 0 || reg >= 10 {
				return &VerifierError{Kind: VerifierInvalidRegister, PC: pc}
			}
		}
		// Register checks; after lddw the reference reports the second slot's index.
		if src > 10 {
			return &VerifierError{Kind: VerifierInvalidSourceRegister, PC: pc}
		}
		switch {
		case dst <= 9 || (dst == 10 && store):
		case dst == 10 && v.ManualStackFrameBump() && opc == OpADD64I:
		case dst == 10:
			return &VerifierError{Kind: VerifierCannotWriteR10, PC: pc}
		default:
			return &VerifierError{Kind: VerifierInvalidDestinationRegister, PC: pc}
		}
		pc++
	}
	return nil
}

func checkShift(imm int64, bits uint64, pc uint64) *VerifierError {
	if imm < 0 || uint64(imm) >= bits {
		return &VerifierError{Kind: VerifierShiftWithOverflow, Shift: uint64(imm), Bits: bits, PC: pc}
	}
	return nil
}
