// Package memo runs the SPL Memo programs natively: v1 (Memo1UhkJRfHyvLMcVucJwxXeuD728EqVDDwQDxFMNo)
// and v3 (MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr). Both are sBPF programs on chain, so the
// runtime logs their compute units like any on-chain program.
//
// v3 (spl-memo 3.x, solana-program/memo): every account passed must sign, each logging
// `Program log: Signed by <address>`; a missing signature fails with MissingRequiredSignature
// (after the signer lines); data that is not UTF-8 logs `Program log: Invalid UTF-8, from byte
// N` and fails with InvalidInstructionData; otherwise it logs `Program log: Memo (len N): "..."`,
// N being the byte length and the text in Rust's Debug string form.
//
// v1 (spl-memo 1.0) ignores accounts, fails with InvalidInstructionData on bad UTF-8, and logs
// the text verbatim: `Program log: <text>`.
//
// Compute units are an estimate of what the on-chain builds use (they depend on the compiler
// and cannot be reproduced exactly without an sBPF VM); see ComputeUnitsV3 and ComputeUnitsV1.
package memo

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"ledgerd/impl/core"
	"ledgerd/impl/runtime"
)

// Program ids.
var (
	ProgramIDV1 = core.MemoV1ProgramID
	ProgramIDV3 = core.MemoProgramID
)

// Estimated compute costs (see the package comment).
const (
	// v3: entrypoint and account deserialization, per account, per signer (its base58 Debug
	// form is formatted in the program, the dominant cost), and per memo byte (UTF-8
	// validation plus Debug escaping).
	v3Base       = 1_500
	v3PerAccount = 100
	v3PerSigner  = 11_000
	v3PerByte    = 30
	// v1: entrypoint, per byte of validation and logging.
	v1Base    = 700
	v1PerByte = 8
)

// ComputeUnitsV3 is what this package charges a v3 memo with the given accounts, signers and
// memo length.
func ComputeUnitsV3(accounts, signers, memoLen int) uint64 {
	return uint64(v3Base + v3PerAccount*accounts + v3PerSigner*signers + v3PerByte*memoLen)
}

// ComputeUnitsV1 is what this package charges a v1 memo of memoLen bytes.
func ComputeUnitsV1(memoLen int) uint64 { return uint64(v1Base + v1PerByte*memoLen) }

// V3 is the Memo v3 program.
type V3 struct{}

// V1 is the Memo v1 program.
type V1 struct{}

// Modules are both memo programs as the node assembles them, run natively, both owned by BPF
// loader 2 at genesis as the reference's test validator installs them (on mainnet v1 is the
// deprecated loader's).
var Modules = []runtime.Module{
	{
		ID:               ProgramIDV1,
		Name:             "spl-memo-v1",
		Kind:             runtime.OnChain,
		Program:          V1{},
		Genesis:          runtime.Deployment{Loader: core.BPFLoaderProgramID, Data: "spl_memo-1.0.0 (native)"},
		ParseInstruction: instructionParser,
	},
	{
		ID:               ProgramIDV3,
		Name:             "spl-memo",
		Kind:             runtime.OnChain,
		Program:          V3{},
		Genesis:          runtime.Deployment{Loader: core.BPFLoaderProgramID, Data: "spl_memo-3.0.0 (native)"},
		ParseInstruction: instructionParser,
	},
}

// instructionParser shows both versions' instructions under the one name the reference gives
// them: the memo text itself, or partially decoded when it is not UTF-8.
var instructionParser = &runtime.InstructionParser{Program: "spl-memo", Parse: func(ix *runtime.InstructionView) (any, error) {
	if !utf8.Valid(ix.Data) {
		return nil, runtime.ErrNotParsable
	}
	return string(ix.Data), nil
}}

// Instruction builds a v3 memo instruction signed by signers.
func Instruction(memo string, signers ...core.Pubkey) core.Instruction {
	metas := make([]core.AccountMeta, len(signers))
	for i, s := range signers {
		metas[i] = core.ReadonlySigner(s)
	}
	return core.Instruction{ProgramID: ProgramIDV3, Accounts: metas, Data: []byte(memo)}
}

// Execute implements runtime.Program for v3.
func (V3) Execute(ctx *runtime.InvokeContext) error {
	data := ctx.Data()
	n := ctx.NumAccounts()
	signers := 0
	for i := range n {
		if s, _ := ctx.IsSigner(i); s {
			signers++
		}
	}
	if err := ctx.Consume(ComputeUnitsV3(n, signers, len(data))); err != nil {
		return err
	}
	missing := false
	for i := range n {
		if s, _ := ctx.IsSigner(i); s {
			k, _ := ctx.Key(i)
			ctx.ProgramLog("Signed by " + k.String())
		} else {
			missing = true
		}
	}
	if missing {
		return runtime.ErrMissingRequiredSignature
	}
	if !utf8.Valid(data) {
		ctx.ProgramLog("Invalid UTF-8, from byte " + strconv.Itoa(validUpTo(data)))
		return runtime.ErrInvalidInstructionData
	}
	ctx.ProgramLog("Memo (len " + strconv.Itoa(len(data)) + "): " + DebugString(string(data)))
	return nil
}

// Execute implements runtime.Program for v1.
func (V1) Execute(ctx *runtime.InvokeContext) error {
	data := ctx.Data()
	if err := ctx.Consume(ComputeUnitsV1(len(data))); err != nil {
		return err
	}
	if !utf8.Valid(data) {
		return runtime.ErrInvalidInstructionData
	}
	ctx.ProgramLog(string(data))
	return nil
}

// validUpTo is Rust's Utf8Error::valid_up_to: the length of the longest valid prefix.
func validUpTo(b []byte) int {
	i := 0
	for i < len(b) {
		r, size := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && size <= 1 {
			return i
		}
		i += size
	}
	return i
}

// DebugString formats s as Rust's `{:?}` does for a str: in double quotes, with \t \r \n \\ \"
// and \0 escaped, grapheme-extending characters and characters that are not printable written
// as \u{hex}, and everything else as is.
func DebugString(s string) string {
	var b strings.Builder
	b.Grow(len(s) + 2)
	b.WriteByte('"')
	for _, r := range s {
		switch r {
		case '\t':
			b.WriteString(`\t`)
		case '\r':
			b.WriteString(`\r`)
		case '\n':
			b.WriteString(`\n`)
		case '\\':
			b.WriteString(`\\`)
		case '"':
			b.WriteString(`\"`)
		case 0:
			b.WriteString(`\0`)
		default:
			if isGraphemeExtend(r) || !isPrintable(r) {
				b.WriteString(`\u{`)
				b.WriteString(strconv.FormatInt(int64(r), 16))
				b.WriteByte('}')
			} else {
				b.WriteRune(r)
			}
		}
	}
	b.WriteByte('"')
	return b.String()
}

func isGraphemeExtend(r rune) bool {
	return r >= 0x300 && (unicode.In(r, unicode.Mn, unicode.Me) || unicode.Is(unicode.Other_Grapheme_Extend, r))
}

// isPrintable follows Rust's core::unicode::printable: everything but control, format,
// surrogate, private-use, unassigned, and separator characters other than the ASCII space.
func isPrintable(r rune) bool {
	if r < 0x7f {
		return r >= 0x20
	}
	return unicode.IsPrint(r)
}
