package parse

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"ledgerd/impl/core"
)

func isMemoProgram(id core.Pubkey) bool {
	return id == core.MemoV1ProgramID || id == core.MemoProgramID
}

// ExtractMemo returns the memo field of getSignaturesForAddress: for every top-level
// instruction of SPL Memo v1 or v3, `[<byte length>] <text>` (`(unparsable)` for data that is
// not UTF-8), joined by "; ". It is nil when the transaction has no memo instruction. loaded
// is nil for legacy transactions.
func ExtractMemo(tx *core.Transaction, loaded *core.LoadedAddresses) *string {
	m := &tx.Message
	if m.Version == core.VersionLegacy {
		loaded = nil
	}
	keys := m.FullAccountKeys(loaded)
	var memos []string
	for i := range m.Instructions {
		ix := &m.Instructions[i]
		if int(ix.ProgramIDIndex) >= len(keys) || !isMemoProgram(keys[ix.ProgramIDIndex]) {
			continue
		}
		text := "(unparsable)"
		if utf8.Valid(ix.Data) {
			text = string(ix.Data)
		}
		memos = append(memos, "["+strconv.Itoa(len(ix.Data))+"] "+text)
	}
	if memos == nil {
		return nil
	}
	s := strings.Join(memos, "; ")
	return &s
}
