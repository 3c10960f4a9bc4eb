package bigtable

import (
	"encoding/binary"
	"errors"
	"fmt"

	"google.golang.org/protobuf/encoding/protowire"

	"ledgerd/impl/core"
	"ledgerd/impl/encoding"
	"ledgerd/impl/ledger"
	"ledgerd/impl/runtime"
)

type uiAmount struct {
	uiAmount       float64
	amount         string
	uiAmountString string
}

// tokenAmount is the UiTokenAmount the reference stores: ui_amount 0 when it has none.
func tokenAmount(amount uint64, decimals uint8) uiAmount {
	u := encoding.TokenAmount(amount, decimals)
	out := uiAmount{amount: u.Amount, uiAmountString: u.UiAmountString}
	if u.UiAmount != nil {
		out.uiAmount = float64(*u.UiAmount)
	}
	return out
}

// TxInfo is the reference's TransactionInfo, the bincode cell of a `tx` row: where a transaction landed, its
// error and its memo.
type TxInfo struct {
	Slot  uint64
	Index uint32
	Err   *runtime.TransactionError
	Memo  *string
}

// encodeTxInfo is TransactionInfo's bincode: u64 slot, u32 index, Option<TransactionError>, Option<String>
// (an option is a 0 or 1 byte; a string a u64 length and its bytes; integers little-endian).
func encodeTxInfo(t *TxInfo) ([]byte, error) {
	b := binary.LittleEndian.AppendUint64(nil, t.Slot)
	b = binary.LittleEndian.AppendUint32(b, t.Index)
	if t.Err == nil {
		b = append(b, 0)
	} else {
		e, err := t.Err.MarshalBinary()
		if err != nil {
			return nil, err
		}
		b = append(append(b, 1), e...)
	}
	return appendOptString(b, t.Memo), nil
}

func appendOptString(b []byte, s *string) []byte {
	if s == nil {
		return append(b, 0)
	}
	b = binary.LittleEndian.AppendUint64(append(b, 1), uint64(len(*s)))
	return append(b, *s...)
}

var errShortBincode = errors.New("bigtable: bincode value ends early")

// bin reads bincode.
type bin struct{ b []byte }

func (r *bin) take(n int) ([]byte, error) {
	if n < 0 || len(r.b) < n {
		return nil, errShortBincode
	}
	v := r.b[:n]
	r.b = r.b[n:]
	return v, nil
}

func (r *bin) u8() (uint8, error) {
	v, err := r.take(1)
	if err != nil {
		return 0, err
	}
	return v[0], nil
}

func (r *bin) u32() (uint32, error) {
	v, err := r.take(4)
	if err != nil {
		return 0, err
	}
	return binary.LittleEndian.Uint32(v), nil
}

func (r *bin) u64() (uint64, error) {
	v, err := r.take(8)
	if err != nil {
		return 0, err
	}
	return binary.LittleEndian.Uint64(v), nil
}

func (r *bin) option() (bool, error) {
	tag, err := r.u8()
	if err != nil {
		return false, err
	}
	if tag > 1 {
		return false, fmt.Errorf("bigtable: bincode option tag %d", tag)
	}
	return tag == 1, nil
}

func (r *bin) str() (string, error) {
	n, err := r.u64()
	if err != nil {
		return "", err
	}
	if n > uint64(len(r.b)) {
		return "", errShortBincode
	}
	v, _ := r.take(int(n))
	return string(v), nil
}

// txError reads a bincode TransactionError from the front of r: its length follows from its variant.
func (r *bin) txError() (*runtime.TransactionError, error) {
	if len(r.b) < 4 {
		return nil, errShortBincode
	}
	n := 4
	switch runtime.TransactionErrorKind(binary.LittleEndian.Uint32(r.b)) {
	case runtime.TxInstructionError:
		n += 5
		if len(r.b) >= 9 && runtime.InstructionErrorKind(binary.LittleEndian.Uint32(r.b[5:])) == runtime.IxCustom {
			n += 4
		}
	case runtime.TxDuplicateInstruction, runtime.TxInsufficientFundsForRent, runtime.TxProgramExecutionTemporarilyRestricted:
		n++
	}
	raw, err := r.take(n)
	if err != nil {
		return nil, err
	}
	e := new(runtime.TransactionError)
	if err := e.UnmarshalBinary(raw); err != nil {
		return nil, err
	}
	return e, nil
}

// optTxError reads an Option<TransactionError>: nil for None.
func (r *bin) optTxError() (*runtime.TransactionError, error) {
	some, err := r.option()
	if err != nil || !some {
		return nil, err
	}
	return r.txError()
}

// optStr reads an Option<String>: nil for None.
func (r *bin) optStr() (*string, error) {
	some, err := r.option()
	if err != nil || !some {
		return nil, err
	}
	s, err := r.str()
	if err != nil {
		return nil, err
	}
	return &s, nil
}

// optU64 reads an Option<u64>: 0 for None.
func (r *bin) optU64() (uint64, error) {
	some, err := r.option()
	if err != nil || !some {
		return 0, err
	}
	return r.u64()
}

func decodeTxInfo(b []byte) (*TxInfo, error) {
	r := &bin{b: b}
	t := &TxInfo{}
	var err error
	if t.Slot, err = r.u64(); err != nil {
		return nil, err
	}
	if t.Index, err = r.u32(); err != nil {
		return nil, err
	}
	if t.Err, err = r.optTxError(); err != nil {
		return nil, err
	}
	// Rows from before memos were recorded end here.
	if len(r.b) > 0 {
		if t.Memo, err = r.optStr(); err != nil {
			return nil, err
		}
	}
	return t, nil
}

// AddrEntry is one transaction of a tx-by-addr row (the reference's TransactionByAddrInfo).
type AddrEntry struct {
	Signature core.Signature
	Err       *runtime.TransactionError
	Index     uint32
	Memo      *string
	BlockTime *int64
}

// encodeTxByAddr is a tx_by_addr::TransactionByAddr: the entries of one address in one slot, in block order.
func encodeTxByAddr(entries []AddrEntry) []byte {
	var e enc
	for i := range entries {
		a := &entries[i]
		var m enc
		m = m.bytes(1, a.Signature[:])
		if a.Err != nil {
			m = m.bytes(2, encodeStructuredErr(a.Err))
		}
		m = m.uint(3, uint64(a.Index))
		if a.Memo != nil {
			m = m.bytes(4, enc(nil).str(1, *a.Memo))
		}
		if a.BlockTime != nil {
			m = m.bytes(5, enc(nil).uint(1, uint64(*a.BlockTime)))
		}
		e = e.bytes(1, m)
	}
	return e
}

// encodeStructuredErr is tx_by_addr::TransactionError. Its enums number the variants as the reference's
// TransactionError and InstructionError enums do (their bincode tags), so the kinds carry over as they are.
func encodeStructuredErr(te *runtime.TransactionError) []byte {
	var e enc
	e = e.uint(1, uint64(te.Kind))
	switch te.Kind {
	case runtime.TxInstructionError:
		ie := enc(nil).uint(1, uint64(te.Index)).uint(2, uint64(te.Instruction.Kind))
		if te.Instruction.Kind == runtime.IxCustom {
			ie = ie.bytes(3, enc(nil).uint(1, uint64(te.Instruction.Code)))
		}
		e = e.bytes(2, ie)
	case runtime.TxDuplicateInstruction, runtime.TxInsufficientFundsForRent, runtime.TxProgramExecutionTemporarilyRestricted:
		e = e.bytes(3, enc(nil).uint(1, uint64(te.Index)))
	}
	return e
}

func decodeStructuredErr(b []byte) (*runtime.TransactionError, error) {
	te := &runtime.TransactionError{}
	d := dec{b: b}
	var kind uint64
	var ie, details []byte
	for {
		num, typ, val, v, ok := d.next()
		if !ok {
			break
		}
		switch num {
		case 1:
			if d.want(typ, protowire.VarintType) {
				kind = v
			}
		case 2:
			if d.want(typ, protowire.BytesType) {
				ie = val
			}
		case 3:
			if d.want(typ, protowire.BytesType) {
				details = val
			}
		}
	}
	if d.err != nil {
		return nil, d.err
	}
	te.Kind = runtime.TransactionErrorKind(kind)
	var idx, ikind, code uint64
	var custom bool
	if ie != nil {
		id := dec{b: ie}
		for {
			num, typ, val, v, ok := id.next()
			if !ok {
				break
			}
			switch num {
			case 1, 2:
				if id.want(typ, protowire.VarintType) {
					if num == 1 {
						idx = v
					} else {
						ikind = v
					}
				}
			case 3:
				if id.want(typ, protowire.BytesType) {
					c, err := singleVarint(val)
					if err != nil {
						return nil, err
					}
					code, custom = c, true
				}
			}
		}
		if id.err != nil {
			return nil, id.err
		}
	} else if details != nil {
		v, err := singleVarint(details)
		if err != nil {
			return nil, err
		}
		idx = v
	}
	if kind > 0xff || idx > 0xff || ikind > 0xff || code > 0xffffffff {
		return nil, errors.New("bigtable: transaction error out of range")
	}
	te.Index = uint8(idx)
	if te.Kind == runtime.TxInstructionError {
		te.Instruction.Kind = runtime.InstructionErrorKind(ikind)
		if custom {
			te.Instruction = runtime.CustomError(uint32(code))
		}
	}
	// The bincode form checks the kinds are ones ledgerd knows.
	raw, err := te.MarshalBinary()
	if err != nil {
		return nil, err
	}
	if err := new(runtime.TransactionError).UnmarshalBinary(raw); err != nil {
		return nil, err
	}
	return te, nil
}

func decodeTxByAddr(b []byte) ([]AddrEntry, error) {
	var out []AddrEntry
	d := dec{b: b}
	for {
		num, typ, val, _, ok := d.next()
		if !ok {
			break
		}
		if num != 1 || !d.want(typ, protowire.BytesType) {
			continue
		}
		var a AddrEntry
		var hasSig bool
		ed := dec{b: val}
		for {
			en, et, ev, eu, ok := ed.next()
			if !ok {
				break
			}
			switch en {
			case 1:
				if ed.want(et, protowire.BytesType) {
					if err := fixedBytes(a.Signature[:], ev, "signature"); err != nil {
						return nil, err
					}
					hasSig = true
				}
			case 2:
				if ed.want(et, protowire.BytesType) {
					te, err := decodeStructuredErr(ev)
					if err != nil {
						return nil, err
					}
					a.Err = te
				}
			case 3:
				if ed.want(et, protowire.VarintType) {
					a.Index = uint32(eu)
				}
			case 4:
				if ed.want(et, protowire.BytesType) {
					mv, err := singleBytes(ev)
					if err != nil {
						return nil, err
					}
					memo := string(mv)
					a.Memo = &memo
				}
			case 5:
				if ed.want(et, protowire.BytesType) {
					t, err := singleVarint(ev)
					if err != nil {
						return nil, err
					}
					ti := int64(t)
					a.BlockTime = &ti
				}
			}
		}
		if ed.err != nil {
			return nil, ed.err
		}
		if !hasSig {
			return nil, errors.New("bigtable: tx-by-addr entry without a signature")
		}
		out = append(out, a)
	}
	return out, d.err
}

// decodeLegacyTxByAddr reads the bincode cell older reference versions wrote to tx-by-addr:
// Vec<(Signature, Option<TransactionError>, u32 index, Option<String> memo)>.
func decodeLegacyTxByAddr(b []byte) ([]AddrEntry, error) {
	r := &bin{b: b}
	n, err := r.u64()
	if err != nil {
		return nil, err
	}
	if n > uint64(len(b))/69 {
		return nil, errShortBincode
	}
	out := make([]AddrEntry, 0, n)
	for range n {
		var a AddrEntry
		sig, err := r.take(64)
		if err != nil {
			return nil, err
		}
		copy(a.Signature[:], sig)
		if a.Err, err = r.optTxError(); err != nil {
			return nil, err
		}
		if a.Index, err = r.u32(); err != nil {
			return nil, err
		}
		if a.Memo, err = r.optStr(); err != nil {
			return nil, err
		}
		out = append(out, a)
	}
	return out, nil
}

// encodeEntries is entries::Entries with the one entry ledgerd's block is: no PoH ticks, the blockhash as the
// entry's hash, every transaction in it.
func encodeEntries(blockhash core.Hash, numTxs int) []byte {
	entry := enc(nil).bytes(3, blockhash[:]).uint(4, uint64(numTxs))
	return enc(nil).bytes(1, entry)
}

// decodeStoredBlock reads the bincode StoredConfirmedBlock older reference versions wrote to a blocks row's
// "bin" cell: strings as a u64 length and bytes, vectors as a u64 count, a transaction in its wire form (its
// bincode), the status cut to error, fee and balances, rewards to pubkey and lamports.
func decodeStoredBlock(slot uint64, b []byte) (*ledger.BlockInfo, []*ledger.TxRecord, error) {
	r := &bin{b: b}
	info := &ledger.BlockInfo{Slot: slot}
	for _, h := range []*core.Hash{&info.PreviousBlockhash, &info.Blockhash} {
		s, err := r.str()
		if err != nil {
			return nil, nil, err
		}
		if *h, err = core.ParseHash(s); err != nil {
			return nil, nil, fmt.Errorf("bigtable: blockhash %q: %v", s, err)
		}
	}
	var err error
	if info.ParentSlot, err = r.u64(); err != nil {
		return nil, nil, err
	}
	n, err := r.u64()
	if err != nil {
		return nil, nil, err
	}
	if n > uint64(len(r.b)) {
		return nil, nil, errShortBincode
	}
	txs := make([]*ledger.TxRecord, 0, n)
	for i := range n {
		tx, used, err := core.DecodeTransactionPrefix(r.b)
		if err != nil {
			return nil, nil, fmt.Errorf("bigtable: transaction %d: %v", i, err)
		}
		r.b = r.b[used:]
		some, err := r.option()
		if err != nil {
			return nil, nil, err
		}
		if !some {
			return nil, nil, fmt.Errorf("bigtable: transaction %s has no status metadata", tx.Signature())
		}
		meta := &ledger.TxMeta{}
		if meta.Err, err = r.optTxError(); err != nil {
			return nil, nil, err
		}
		if meta.Fee, err = r.u64(); err != nil {
			return nil, nil, err
		}
		for _, dst := range []*[]uint64{&meta.PreBalances, &meta.PostBalances} {
			k, err := r.u64()
			if err != nil {
				return nil, nil, err
			}
			if k > uint64(len(r.b))/8 {
				return nil, nil, errShortBincode
			}
			*dst = make([]uint64, k)
			for j := range *dst {
				(*dst)[j], _ = r.u64()
			}
		}
		txs = append(txs, &ledger.TxRecord{Slot: slot, Index: uint32(i), Tx: tx, Meta: meta})
	}
	nr, err := r.u64()
	if err != nil {
		return nil, nil, err
	}
	if nr > uint64(len(r.b))/16 {
		return nil, nil, errShortBincode
	}
	for range nr {
		s, err := r.str()
		if err != nil {
			return nil, nil, err
		}
		pk, err := parsePubkey(s, "reward pubkey")
		if err != nil {
			return nil, nil, err
		}
		lamports, err := r.u64()
		if err != nil {
			return nil, nil, err
		}
		info.Rewards = append(info.Rewards, ledger.Reward{Pubkey: pk, Lamports: int64(lamports)})
	}
	t, err := r.optU64()
	if err != nil {
		return nil, nil, err
	}
	info.BlockTime = int64(t)
	// block_height came later: rows written before it end here.
	if len(r.b) > 0 {
		if info.BlockHeight, err = r.optU64(); err != nil {
			return nil, nil, err
		}
	}
	blockOfTxs(info, txs)
	return info, txs, nil
}
