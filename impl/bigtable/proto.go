package bigtable

import (
	"errors"
	"fmt"
	"math"
	"strconv"

	"google.golang.org/protobuf/encoding/protowire"

	"ledgerd/impl/core"
	"ledgerd/impl/ledger"
	"ledgerd/impl/runtime"
)

// The protobuf messages are written by hand with protowire, field numbers as the reference's
// confirmed_block.proto, transaction_by_addr.proto and entries.proto give them (docs/bigtable.md). Scalars
// at their zero value are left out, as proto3 encoders do; optional fields and sub-messages are written when
// present.

// enc appends protobuf fields.
type enc []byte

func (e enc) uint(num protowire.Number, v uint64) enc {
	if v == 0 {
		return e
	}
	return e.optUint(num, v)
}

func (e enc) optUint(num protowire.Number, v uint64) enc {
	e = protowire.AppendTag(e, num, protowire.VarintType)
	return protowire.AppendVarint(e, v)
}

func (e enc) bool(num protowire.Number, v bool) enc {
	if !v {
		return e
	}
	return e.uint(num, 1)
}

func (e enc) bytes(num protowire.Number, v []byte) enc {
	e = protowire.AppendTag(e, num, protowire.BytesType)
	return protowire.AppendBytes(e, v)
}

func (e enc) optBytes(num protowire.Number, v []byte) enc {
	if len(v) == 0 {
		return e
	}
	return e.bytes(num, v)
}

func (e enc) str(num protowire.Number, v string) enc {
	if v == "" {
		return e
	}
	e = protowire.AppendTag(e, num, protowire.BytesType)
	return protowire.AppendString(e, v)
}

func (e enc) double(num protowire.Number, v float64) enc {
	if v == 0 {
		return e
	}
	e = protowire.AppendTag(e, num, protowire.Fixed64Type)
	return protowire.AppendFixed64(e, math.Float64bits(v))
}

// packed writes a repeated uint64 as proto3 packs it.
func (e enc) packed(num protowire.Number, vs []uint64) enc {
	if len(vs) == 0 {
		return e
	}
	var body []byte
	for _, v := range vs {
		body = protowire.AppendVarint(body, v)
	}
	return e.bytes(num, body)
}

// EncodeBlock is a block as the reference's generated::ConfirmedBlock: txs are its transactions in block order.
func EncodeBlock(info *ledger.BlockInfo, txs []*ledger.TxRecord) ([]byte, error) {
	var e enc
	e = e.str(1, info.PreviousBlockhash.String())
	e = e.str(2, info.Blockhash.String())
	e = e.uint(3, info.ParentSlot)
	for _, rec := range txs {
		tx, err := encodeConfirmedTx(rec)
		if err != nil {
			return nil, err
		}
		e = e.bytes(4, tx)
	}
	for i := range info.Rewards {
		e = e.bytes(5, encodeReward(&info.Rewards[i]))
	}
	e = e.bytes(6, enc(nil).uint(1, uint64(info.BlockTime)))
	e = e.bytes(7, enc(nil).uint(1, info.BlockHeight))
	return e, nil
}

var rewardTypes = map[string]uint64{"Fee": 1, "Rent": 2, "Staking": 3, "Voting": 4}
var rewardNames = map[uint64]string{1: "Fee", 2: "Rent", 3: "Staking", 4: "Voting"}

func encodeReward(r *ledger.Reward) []byte {
	var e enc
	e = e.str(1, r.Pubkey.String())
	e = e.uint(2, uint64(r.Lamports))
	e = e.uint(3, r.PostBalance)
	e = e.uint(4, rewardTypes[r.RewardType])
	if r.Commission != nil {
		e = e.str(5, strconv.Itoa(int(*r.Commission)))
	}
	return e
}

func encodeConfirmedTx(rec *ledger.TxRecord) ([]byte, error) {
	var e enc
	e = e.bytes(1, encodeTransaction(rec.Tx))
	if rec.Meta != nil {
		meta, err := encodeMeta(rec.Meta)
		if err != nil {
			return nil, err
		}
		e = e.bytes(2, meta)
	}
	return e, nil
}

func encodeTransaction(tx *core.Transaction) []byte {
	var e enc
	for i := range tx.Signatures {
		e = e.bytes(1, tx.Signatures[i][:])
	}
	m := &tx.Message
	var msg enc
	msg = msg.bytes(1, enc(nil).uint(1, uint64(m.Header.NumRequiredSignatures)).
		uint(2, uint64(m.Header.NumReadonlySignedAccounts)).uint(3, uint64(m.Header.NumReadonlyUnsignedAccounts)))
	for i := range m.AccountKeys {
		msg = msg.bytes(2, m.AccountKeys[i][:])
	}
	msg = msg.bytes(3, m.RecentBlockhash[:])
	for _, ix := range m.Instructions {
		msg = msg.bytes(4, enc(nil).uint(1, uint64(ix.ProgramIDIndex)).optBytes(2, ix.Accounts).optBytes(3, ix.Data))
	}
	if m.Version != core.VersionLegacy {
		msg = msg.bool(5, true)
		for _, l := range m.AddressTableLookups {
			msg = msg.bytes(6, enc(nil).bytes(1, l.AccountKey[:]).optBytes(2, l.WritableIndexes).optBytes(3, l.ReadonlyIndexes))
		}
	}
	return e.bytes(2, msg)
}

func encodeMeta(m *ledger.TxMeta) ([]byte, error) {
	var e enc
	if m.Err != nil {
		b, err := m.Err.MarshalBinary()
		if err != nil {
			return nil, err
		}
		e = e.bytes(1, enc(nil).bytes(1, b))
	}
	e = e.uint(2, m.Fee)
	e = e.packed(3, m.PreBalances)
	e = e.packed(4, m.PostBalances)
	for _, ii := range m.InnerInstructions {
		var inner enc
		inner = inner.uint(1, uint64(ii.Index))
		for _, ix := range ii.Instructions {
			inner = inner.bytes(2, enc(nil).uint(1, uint64(ix.ProgramIDIndex)).optBytes(2, ix.Accounts).
				optBytes(3, ix.Data).optUint(4, uint64(ix.StackHeight)))
		}
		e = e.bytes(5, inner)
	}
	for _, l := range m.Logs {
		e = protowire.AppendTag(e, 6, protowire.BytesType)
		e = protowire.AppendString(e, l)
	}
	for _, b := range m.PreTokenBalances {
		e = e.bytes(7, encodeTokenBalance(&b))
	}
	for _, b := range m.PostTokenBalances {
		e = e.bytes(8, encodeTokenBalance(&b))
	}
	e = e.bool(10, m.InnerInstructions == nil)
	e = e.bool(11, m.Logs == nil)
	if m.LoadedAddresses != nil {
		for i := range m.LoadedAddresses.Writable {
			e = e.bytes(12, m.LoadedAddresses.Writable[i][:])
		}
		for i := range m.LoadedAddresses.Readonly {
			e = e.bytes(13, m.LoadedAddresses.Readonly[i][:])
		}
	}
	if m.ReturnData != nil {
		e = e.bytes(14, enc(nil).bytes(1, m.ReturnData.ProgramID[:]).optBytes(2, m.ReturnData.Data))
	}
	e = e.bool(15, m.ReturnData == nil)
	e = e.optUint(16, m.ComputeUnitsConsumed)
	if m.CostUnits != 0 {
		e = e.optUint(17, m.CostUnits)
	}
	return e, nil
}

func encodeTokenBalance(b *ledger.TokenBalance) []byte {
	amount := tokenAmount(b.Amount, b.Decimals)
	var ui enc
	ui = ui.double(1, amount.uiAmount).uint(2, uint64(b.Decimals)).str(3, amount.amount).str(4, amount.uiAmountString)
	var e enc
	e = e.uint(1, uint64(b.AccountIndex))
	e = e.str(2, b.Mint.String())
	e = e.bytes(3, ui)
	e = e.str(4, b.Owner.String())
	e = e.str(5, b.ProgramID.String())
	return e
}

// dec walks the fields of one message.
type dec struct {
	b   []byte
	err error
}

// next returns the next field; ok is false at the end or on malformed input (then d.err is set).
func (d *dec) next() (num protowire.Number, typ protowire.Type, val []byte, v uint64, ok bool) {
	if d.err != nil || len(d.b) == 0 {
		return 0, 0, nil, 0, false
	}
	num, typ, n := protowire.ConsumeTag(d.b)
	if n < 0 {
		d.err = protowire.ParseError(n)
		return 0, 0, nil, 0, false
	}
	d.b = d.b[n:]
	switch typ {
	case protowire.VarintType:
		v, n = protowire.ConsumeVarint(d.b)
	case protowire.Fixed64Type:
		v, n = protowire.ConsumeFixed64(d.b)
	case protowire.Fixed32Type:
		var v32 uint32
		v32, n = protowire.ConsumeFixed32(d.b)
		v = uint64(v32)
	case protowire.BytesType:
		val, n = protowire.ConsumeBytes(d.b)
	default:
		n = protowire.ConsumeFieldValue(num, typ, d.b)
	}
	if n < 0 {
		d.err = protowire.ParseError(n)
		return 0, 0, nil, 0, false
	}
	d.b = d.b[n:]
	return num, typ, val, v, true
}

var errWireType = errors.New("bigtable: protobuf field of an unexpected wire type")

// want checks a field's wire type, recording a mismatch.
func (d *dec) want(typ, is protowire.Type) bool {
	if typ != is {
		d.err = errWireType
		return false
	}
	return true
}

func fixedBytes(dst []byte, v []byte, what string) error {
	if len(v) != len(dst) {
		return fmt.Errorf("bigtable: %s of %d bytes, want %d", what, len(v), len(dst))
	}
	copy(dst, v)
	return nil
}

// parsePubkey parses the base-58 address a cell holds as a string.
func parsePubkey(s, what string) (core.Pubkey, error) {
	pk, err := core.ParsePubkey(s)
	if err != nil {
		return pk, fmt.Errorf("bigtable: %s %q: %v", what, s, err)
	}
	return pk, nil
}

func u8(v uint64, what string) (uint8, error) {
	if v > math.MaxUint8 {
		return 0, fmt.Errorf("bigtable: %s %d out of range", what, v)
	}
	return uint8(v), nil
}

// DecodeBlock reads a generated::ConfirmedBlock back into the ledger's shapes: the block of slot and its
// transactions in block order.
func DecodeBlock(slot uint64, b []byte) (*ledger.BlockInfo, []*ledger.TxRecord, error) {
	info := &ledger.BlockInfo{Slot: slot}
	txs := []*ledger.TxRecord{}
	d := dec{b: b}
	for {
		num, typ, val, v, ok := d.next()
		if !ok {
			break
		}
		var err error
		switch num {
		case 1, 2:
			if !d.want(typ, protowire.BytesType) {
				break
			}
			h, perr := core.ParseHash(string(val))
			if perr != nil {
				err = fmt.Errorf("bigtable: blockhash %q: %v", val, perr)
			} else if num == 1 {
				info.PreviousBlockhash = h
			} else {
				info.Blockhash = h
			}
		case 3:
			if d.want(typ, protowire.VarintType) {
				info.ParentSlot = v
			}
		case 4:
			if d.want(typ, protowire.BytesType) {
				var rec *ledger.TxRecord
				rec, err = decodeConfirmedTx(val)
				if err == nil {
					rec.Slot, rec.Index = slot, uint32(len(txs))
					txs = append(txs, rec)
				}
			}
		case 5:
			if d.want(typ, protowire.BytesType) {
				var r ledger.Reward
				if r, err = decodeReward(val); err == nil {
					info.Rewards = append(info.Rewards, r)
				}
			}
		case 6, 7:
			if d.want(typ, protowire.BytesType) {
				var x uint64
				if x, err = singleVarint(val); err == nil {
					if num == 6 {
						info.BlockTime = int64(x)
					} else {
						info.BlockHeight = x
					}
				}
			}
		}
		if err != nil {
			return nil, nil, err
		}
	}
	if d.err != nil {
		return nil, nil, fmt.Errorf("bigtable: block %d: %w", slot, d.err)
	}
	blockOfTxs(info, txs)
	return info, txs, nil
}

// blockOfTxs fills what a block's row leaves to its transactions: info's signatures and failures, each
// transaction's block time.
func blockOfTxs(info *ledger.BlockInfo, txs []*ledger.TxRecord) {
	info.Signatures = make([]core.Signature, len(txs))
	info.Failed = make([]bool, len(txs))
	for i, rec := range txs {
		rec.BlockTime = info.BlockTime
		info.Signatures[i] = rec.Tx.Signature()
		info.Failed[i] = rec.Meta.Err != nil
	}
}

// singleVarint reads a wrapper message whose only field 1 is a varint (UnixTimestamp, BlockHeight).
func singleVarint(b []byte) (uint64, error) {
	_, v, err := singleField(b, protowire.VarintType)
	return v, err
}

// singleBytes reads a wrapper message whose only field 1 is bytes or a string (TransactionError, Memo).
func singleBytes(b []byte) ([]byte, error) {
	val, _, err := singleField(b, protowire.BytesType)
	return val, err
}

// singleField reads a wrapper message whose only field 1 is of wire type typ: its last value, zero when absent.
func singleField(b []byte, typ protowire.Type) (val []byte, v uint64, err error) {
	d := dec{b: b}
	for {
		num, t, fval, fv, ok := d.next()
		if !ok {
			break
		}
		if num == 1 && d.want(t, typ) {
			val, v = fval, fv
		}
	}
	return val, v, d.err
}

func decodeReward(b []byte) (ledger.Reward, error) {
	var r ledger.Reward
	d := dec{b: b}
	for {
		num, typ, val, v, ok := d.next()
		if !ok {
			break
		}
		switch num {
		case 1:
			if d.want(typ, protowire.BytesType) {
				pk, err := parsePubkey(string(val), "reward pubkey")
				if err != nil {
					return r, err
				}
				r.Pubkey = pk
			}
		case 2:
			if d.want(typ, protowire.VarintType) {
				r.Lamports = int64(v)
			}
		case 3:
			if d.want(typ, protowire.VarintType) {
				r.PostBalance = v
			}
		case 4:
			if d.want(typ, protowire.VarintType) {
				r.RewardType = rewardNames[v]
			}
		case 5:
			if d.want(typ, protowire.BytesType) {
				// As the reference: a commission that does not parse as a u8 is no commission.
				if c, err := strconv.ParseUint(string(val), 10, 8); err == nil {
					c8 := uint8(c)
					r.Commission = &c8
				}
			}
		}
	}
	return r, d.err
}

func decodeConfirmedTx(b []byte) (*ledger.TxRecord, error) {
	rec := &ledger.TxRecord{}
	d := dec{b: b}
	for {
		num, typ, val, _, ok := d.next()
		if !ok {
			break
		}
		var err error
		switch num {
		case 1:
			if d.want(typ, protowire.BytesType) {
				rec.Tx, err = decodeTransaction(val)
			}
		case 2:
			if d.want(typ, protowire.BytesType) {
				rec.Meta, err = decodeMeta(val)
			}
		}
		if err != nil {
			return nil, err
		}
	}
	if d.err != nil {
		return nil, d.err
	}
	if rec.Tx == nil {
		return nil, errors.New("bigtable: confirmed transaction without a transaction")
	}
	if rec.Meta == nil {
		// The reference's oldest archives hold transactions without status; ledgerd answers no such shape.
		return nil, fmt.Errorf("bigtable: transaction %s has no status metadata", rec.Tx.Signature())
	}
	if rec.Meta.LoadedAddresses == nil && rec.Tx.Message.Version != core.VersionLegacy {
		rec.Meta.LoadedAddresses = &core.LoadedAddresses{}
	}
	return rec, nil
}

func decodeTransaction(b []byte) (*core.Transaction, error) {
	tx := &core.Transaction{}
	d := dec{b: b}
	for {
		num, typ, val, _, ok := d.next()
		if !ok {
			break
		}
		switch num {
		case 1:
			if d.want(typ, protowire.BytesType) {
				var s core.Signature
				if err := fixedBytes(s[:], val, "signature"); err != nil {
					return nil, err
				}
				tx.Signatures = append(tx.Signatures, s)
			}
		case 2:
			if d.want(typ, protowire.BytesType) {
				if err := decodeMessage(&tx.Message, val); err != nil {
					return nil, err
				}
			}
		}
	}
	return tx, d.err
}

func decodeMessage(m *core.Message, b []byte) error {
	d := dec{b: b}
	for {
		num, typ, val, v, ok := d.next()
		if !ok {
			break
		}
		switch num {
		case 1:
			if !d.want(typ, protowire.BytesType) {
				break
			}
			h := dec{b: val}
			for {
				hn, ht, _, hv, ok := h.next()
				if !ok {
					break
				}
				if !h.want(ht, protowire.VarintType) {
					break
				}
				x, err := u8(hv, "message header count")
				if err != nil {
					return err
				}
				switch hn {
				case 1:
					m.Header.NumRequiredSignatures = x
				case 2:
					m.Header.NumReadonlySignedAccounts = x
				case 3:
					m.Header.NumReadonlyUnsignedAccounts = x
				}
			}
			if h.err != nil {
				return h.err
			}
		case 2:
			if d.want(typ, protowire.BytesType) {
				var k core.Pubkey
				if err := fixedBytes(k[:], val, "account key"); err != nil {
					return err
				}
				m.AccountKeys = append(m.AccountKeys, k)
			}
		case 3:
			if d.want(typ, protowire.BytesType) {
				if err := fixedBytes(m.RecentBlockhash[:], val, "recent blockhash"); err != nil {
					return err
				}
			}
		case 4:
			if d.want(typ, protowire.BytesType) {
				pid, accounts, data, _, _, err := decodeInstruction(val)
				if err != nil {
					return err
				}
				m.Instructions = append(m.Instructions, core.CompiledInstruction{ProgramIDIndex: pid, Accounts: accounts, Data: data})
			}
		case 5:
			if d.want(typ, protowire.VarintType) && v != 0 {
				m.Version = core.Version0
			}
		case 6:
			if d.want(typ, protowire.BytesType) {
				var l core.AddressTableLookup
				ld := dec{b: val}
				for {
					ln, lt, lval, _, ok := ld.next()
					if !ok {
						break
					}
					if !ld.want(lt, protowire.BytesType) {
						break
					}
					switch ln {
					case 1:
						if err := fixedBytes(l.AccountKey[:], lval, "lookup table key"); err != nil {
							return err
						}
					case 2:
						l.WritableIndexes = append([]byte{}, lval...)
					case 3:
						l.ReadonlyIndexes = append([]byte{}, lval...)
					}
				}
				if ld.err != nil {
					return ld.err
				}
				m.AddressTableLookups = append(m.AddressTableLookups, l)
			}
		}
	}
	return d.err
}

// clone copies v, nil when empty, as the wire decoder of transactions leaves an empty list.
func clone(v []byte) []byte {
	if len(v) == 0 {
		return nil
	}
	return append([]byte(nil), v...)
}

// decodeInstruction reads a CompiledInstruction or an InnerInstruction (which adds field 4, stack_height).
func decodeInstruction(b []byte) (pid uint8, accounts, data []byte, stack uint8, hasStack bool, err error) {
	d := dec{b: b}
	for {
		num, typ, val, v, ok := d.next()
		if !ok {
			break
		}
		switch num {
		case 1, 4:
			if !d.want(typ, protowire.VarintType) {
				break
			}
			x, err := u8(v, "instruction index")
			if err != nil {
				return 0, nil, nil, 0, false, err
			}
			if num == 1 {
				pid = x
			} else {
				stack, hasStack = x, true
			}
		case 2:
			if d.want(typ, protowire.BytesType) {
				accounts = clone(val)
			}
		case 3:
			if d.want(typ, protowire.BytesType) {
				data = clone(val)
			}
		}
	}
	return pid, accounts, data, stack, hasStack, d.err
}

func decodeMeta(b []byte) (*ledger.TxMeta, error) {
	m := &ledger.TxMeta{}
	var innerNone, logsNone, returnNone bool
	var inner []runtime.InnerInstructions
	var logs []string
	var loaded core.LoadedAddresses
	d := dec{b: b}
	for {
		num, typ, val, v, ok := d.next()
		if !ok {
			break
		}
		var err error
		switch num {
		case 1:
			if d.want(typ, protowire.BytesType) {
				var raw []byte
				if raw, err = singleBytes(val); err == nil {
					te := new(runtime.TransactionError)
					if err = te.UnmarshalBinary(raw); err == nil {
						m.Err = te
					}
				}
			}
		case 2:
			if d.want(typ, protowire.VarintType) {
				m.Fee = v
			}
		case 3, 4:
			var vs []uint64
			vs, err = repeatedUint(typ, val, v)
			if num == 3 {
				m.PreBalances = append(m.PreBalances, vs...)
			} else {
				m.PostBalances = append(m.PostBalances, vs...)
			}
		case 5:
			if d.want(typ, protowire.BytesType) {
				var ii runtime.InnerInstructions
				if ii, err = decodeInner(val); err == nil {
					inner = append(inner, ii)
				}
			}
		case 6:
			if d.want(typ, protowire.BytesType) {
				logs = append(logs, string(val))
			}
		case 7, 8:
			if d.want(typ, protowire.BytesType) {
				var tb ledger.TokenBalance
				if tb, err = decodeTokenBalance(val); err == nil {
					if num == 7 {
						m.PreTokenBalances = append(m.PreTokenBalances, tb)
					} else {
						m.PostTokenBalances = append(m.PostTokenBalances, tb)
					}
				}
			}
		case 10, 11, 15:
			if d.want(typ, protowire.VarintType) {
				switch num {
				case 10:
					innerNone = v != 0
				case 11:
					logsNone = v != 0
				default:
					returnNone = v != 0
				}
			}
		case 12, 13:
			if d.want(typ, protowire.BytesType) {
				var k core.Pubkey
				if err = fixedBytes(k[:], val, "loaded address"); err == nil {
					if num == 12 {
						loaded.Writable = append(loaded.Writable, k)
					} else {
						loaded.Readonly = append(loaded.Readonly, k)
					}
				}
			}
		case 14:
			if d.want(typ, protowire.BytesType) {
				rd := &runtime.ReturnData{Data: []byte{}}
				rdd := dec{b: val}
				for {
					rn, rt, rv, _, ok := rdd.next()
					if !ok {
						break
					}
					if !rdd.want(rt, protowire.BytesType) {
						break
					}
					if rn == 1 {
						if err := fixedBytes(rd.ProgramID[:], rv, "return data program"); err != nil {
							return nil, err
						}
					} else if rn == 2 {
						rd.Data = append([]byte{}, rv...)
					}
				}
				if rdd.err != nil {
					return nil, rdd.err
				}
				m.ReturnData = rd
			}
		case 16:
			if d.want(typ, protowire.VarintType) {
				m.ComputeUnitsConsumed = v
			}
		case 17:
			if d.want(typ, protowire.VarintType) {
				m.CostUnits = v
			}
		}
		if err != nil {
			return nil, err
		}
	}
	if d.err != nil {
		return nil, d.err
	}
	if !innerNone {
		m.InnerInstructions = inner
		if m.InnerInstructions == nil {
			m.InnerInstructions = []runtime.InnerInstructions{}
		}
	}
	if !logsNone {
		m.Logs = logs
		if m.Logs == nil {
			m.Logs = []string{}
		}
	}
	if returnNone {
		m.ReturnData = nil
	}
	if m.PreBalances == nil {
		m.PreBalances = []uint64{}
	}
	if m.PostBalances == nil {
		m.PostBalances = []uint64{}
	}
	if loaded.Len() > 0 {
		m.LoadedAddresses = &loaded
	}
	return m, nil
}

// repeatedUint reads a repeated uint64 field, packed (proto3's form) or not.
func repeatedUint(typ protowire.Type, val []byte, v uint64) ([]uint64, error) {
	switch typ {
	case protowire.VarintType:
		return []uint64{v}, nil
	case protowire.BytesType:
		var out []uint64
		for len(val) > 0 {
			x, n := protowire.ConsumeVarint(val)
			if n < 0 {
				return nil, protowire.ParseError(n)
			}
			out = append(out, x)
			val = val[n:]
		}
		return out, nil
	}
	return nil, errWireType
}

func decodeInner(b []byte) (runtime.InnerInstructions, error) {
	var ii runtime.InnerInstructions
	ii.Instructions = []runtime.InnerInstruction{}
	d := dec{b: b}
	for {
		num, typ, val, v, ok := d.next()
		if !ok {
			break
		}
		switch num {
		case 1:
			if d.want(typ, protowire.VarintType) {
				x, err := u8(v, "inner instruction index")
				if err != nil {
					return ii, err
				}
				ii.Index = x
			}
		case 2:
			if d.want(typ, protowire.BytesType) {
				pid, accounts, data, stack, _, err := decodeInstruction(val)
				if err != nil {
					return ii, err
				}
				ii.Instructions = append(ii.Instructions, runtime.InnerInstruction{ProgramIDIndex: pid, Accounts: accounts,
					Data: data, StackHeight: stack})
			}
		}
	}
	return ii, d.err
}

func decodeTokenBalance(b []byte) (ledger.TokenBalance, error) {
	var tb ledger.TokenBalance
	d := dec{b: b}
	for {
		num, typ, val, v, ok := d.next()
		if !ok {
			break
		}
		switch num {
		case 1:
			if d.want(typ, protowire.VarintType) {
				x, err := u8(v, "token balance account index")
				if err != nil {
					return tb, err
				}
				tb.AccountIndex = x
			}
		case 2, 4, 5:
			if d.want(typ, protowire.BytesType) {
				pk, err := parsePubkey(string(val), "token balance key")
				if err != nil {
					return tb, err
				}
				switch num {
				case 2:
					tb.Mint = pk
				case 4:
					tb.Owner = pk
				default:
					tb.ProgramID = pk
				}
			}
		case 3:
			if !d.want(typ, protowire.BytesType) {
				break
			}
			ud := dec{b: val}
			for {
				un, ut, uval, uv, ok := ud.next()
				if !ok {
					break
				}
				switch un {
				case 2:
					if ud.want(ut, protowire.VarintType) {
						x, err := u8(uv, "token decimals")
						if err != nil {
							return tb, err
						}
						tb.Decimals = x
					}
				case 3:
					if ud.want(ut, protowire.BytesType) {
						a, err := strconv.ParseUint(string(uval), 10, 64)
						if err != nil {
							return tb, fmt.Errorf("bigtable: token amount %q: %v", uval, err)
						}
						tb.Amount = a
					}
				}
			}
			if ud.err != nil {
				return tb, ud.err
			}
		}
	}
	return tb, d.err
}
