package ledger

import (
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"

	"ledgerd/impl/core"
	"ledgerd/impl/runtime"
)

// The ledger stores two kinds of history records in the store, both opaque to it: a block per slot and a
// transaction (wire bytes plus status metadata) per signature. Both start with a format byte so that a later
// layout can be told apart from this one.
const (
	blockFormatV1 = 1
	txFormatV1    = 1
)

var errCorruptRecord = errors.New("ledger: corrupt history record")

// Reward is one balance change a block paid out: the leader's fees (Fee) and, in the first block of an epoch,
// the stake and vote accounts' inflation rewards (Staking, Voting).
type Reward struct {
	Pubkey      core.Pubkey `json:"pubkey"`
	Lamports    int64       `json:"lamports"`
	PostBalance uint64      `json:"postBalance"`
	RewardType  string      `json:"rewardType"`
	Commission  *uint8      `json:"commission,omitempty"`
}

// BlockInfo is what the ledger keeps about a produced block: its place in the chain and its transactions'
// signatures in block order.
type BlockInfo struct {
	Slot              uint64
	ParentSlot        uint64
	BlockHeight       uint64
	Blockhash         core.Hash
	PreviousBlockhash core.Hash
	BlockTime         int64
	// TransactionCount is the number of transactions processed up to and including this block.
	TransactionCount uint64
	// Capitalization is the total lamports in existence after this block.
	Capitalization uint64
	// EpochStartTimestamp is the block time of the first block of this block's epoch (the Clock sysvar's field).
	EpochStartTimestamp int64
	Signatures          []core.Signature
	// Errs[i] reports whether transaction i failed (the status cache is rebuilt from it on restart).
	Failed  []bool
	Rewards []Reward
	// archived holds the transactions of a block read from the archive (nil for a local block).
	archived []*TxRecord
}

// blockRecord is the stored encoding: fixed fields, then the signatures and the failure flags, then the
// rewards as JSON (few, and their shape grows with later features).
func encodeBlock(b *BlockInfo) []byte {
	out := make([]byte, 0, 128+len(b.Signatures)*65)
	out = append(out, blockFormatV1)
	for _, v := range []uint64{b.Slot, b.ParentSlot, b.BlockHeight, uint64(b.BlockTime), b.TransactionCount,
		b.Capitalization, uint64(b.EpochStartTimestamp)} {
		out = binary.LittleEndian.AppendUint64(out, v)
	}
	out = append(out, b.Blockhash[:]...)
	out = append(out, b.PreviousBlockhash[:]...)
	out = binary.AppendUvarint(out, uint64(len(b.Signatures)))
	for i := range b.Signatures {
		out = append(out, b.Signatures[i][:]...)
		if b.Failed[i] {
			out = append(out, 1)
		} else {
			out = append(out, 0)
		}
	}
	rewards, _ := json.Marshal(b.Rewards)
	return append(out, rewards...)
}

func decodeBlock(v []byte) (*BlockInfo, error) {
	const fixed = 1 + 7*8 + 2*32
	if len(v) < fixed || v[0] != blockFormatV1 {
		return nil, errCorruptRecord
	}
	b := &BlockInfo{}
	p := v[1:]
	u := func() uint64 { x := binary.LittleEndian.Uint64(p); p = p[8:]; return x }
	b.Slot, b.ParentSlot, b.BlockHeight = u(), u(), u()
	b.BlockTime = int64(u())
	b.TransactionCount, b.Capitalization = u(), u()
	b.EpochStartTimestamp = int64(u())
	copy(b.Blockhash[:], p)
	copy(b.PreviousBlockhash[:], p[32:])
	p = p[64:]
	n, k := binary.Uvarint(p)
	if k <= 0 || n > uint64(len(p)-k)/65 {
		return nil, errCorruptRecord
	}
	p = p[k:]
	b.Signatures = make([]core.Signature, n)
	b.Failed = make([]bool, n)
	for i := range b.Signatures {
		copy(b.Signatures[i][:], p)
		b.Failed[i] = p[64] != 0
		p = p[65:]
	}
	if len(p) > 0 {
		if err := json.Unmarshal(p, &b.Rewards); err != nil {
			return nil, fmt.Errorf("%w: rewards: %v", errCorruptRecord, err)
		}
	}
	return b, nil
}

// TxMeta is the status metadata the ledger records for an executed transaction.
type TxMeta struct {
	Err                  *runtime.TransactionError   `json:"err,omitempty"`
	Fee                  uint64                      `json:"fee"`
	PreBalances          []uint64                    `json:"preBalances"`
	PostBalances         []uint64                    `json:"postBalances"`
	Logs                 []string                    `json:"logs"`
	InnerInstructions    []runtime.InnerInstructions `json:"innerInstructions"`
	ReturnData           *runtime.ReturnData         `json:"returnData,omitempty"`
	ComputeUnitsConsumed uint64                      `json:"computeUnitsConsumed"`
	LoadedAddresses      *core.LoadedAddresses       `json:"loadedAddresses,omitempty"`
	CostUnits            uint64                      `json:"costUnits,omitempty"`
	PreTokenBalances     []TokenBalance              `json:"preTokenBalances,omitempty"`
	PostTokenBalances    []TokenBalance              `json:"postTokenBalances,omitempty"`
}

// TxRecord is a stored transaction with where it landed.
type TxRecord struct {
	Slot      uint64
	Index     uint32
	BlockTime int64
	Tx        *core.Transaction
	Meta      *TxMeta
	// MemoKnown marks an archive's address entry, whose memo is Memo (its Tx holds only the signature).
	MemoKnown bool
	Memo      *string
}

// encodeTx stores the wire bytes (so every encoding of the transaction can be reproduced exactly) and the
// metadata as JSON.
func encodeTx(tx *core.Transaction, meta *TxMeta) []byte {
	wire := tx.Serialize()
	m, err := json.Marshal(meta)
	if err != nil {
		panic("ledger: transaction meta must marshal: " + err.Error())
	}
	out := make([]byte, 0, 1+binary.MaxVarintLen32+len(wire)+len(m))
	out = append(out, txFormatV1)
	out = binary.AppendUvarint(out, uint64(len(wire)))
	out = append(out, wire...)
	return append(out, m...)
}

func decodeTx(v []byte) (*core.Transaction, *TxMeta, error) {
	if len(v) < 2 || v[0] != txFormatV1 {
		return nil, nil, errCorruptRecord
	}
	n, k := binary.Uvarint(v[1:])
	if k <= 0 || n > uint64(len(v)-1-k) {
		return nil, nil, errCorruptRecord
	}
	wire := v[1+k : 1+k+int(n)]
	tx, err := core.DecodeTransaction(wire)
	if err != nil {
		return nil, nil, fmt.Errorf("%w: %v", errCorruptRecord, err)
	}
	meta := new(TxMeta)
	if err := json.Unmarshal(v[1+k+int(n):], meta); err != nil {
		return nil, nil, fmt.Errorf("%w: meta: %v", errCorruptRecord, err)
	}
	return tx, meta, nil
}
