package bigtable

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/binary"
	"encoding/hex"
	"reflect"
	"testing"

	"ledgerd/impl/core"
	"ledgerd/impl/runtime"
)

// bincode writers for the test: the reference's serde forms, spelled out here rather than taken from the code
// under test.
func u64le(b []byte, v uint64) []byte  { return binary.LittleEndian.AppendUint64(b, v) }
func strBin(b []byte, s string) []byte { return append(u64le(b, uint64(len(s))), s...) }

// Rows older reference versions wrote in bincode (blocks' and tx-by-addr's "bin" cells) read back.
func TestLegacyBincodeCells(t *testing.T) {
	payer, _ := core.NewKeypair()
	tx := core.NewTransferTx(payer, core.Pubkey{7}, 42, core.Hash{3})
	reward := core.Pubkey{9}

	var b []byte
	b = strBin(b, core.Hash{1}.String())                     // previous_blockhash
	b = strBin(b, core.Hash{2}.String())                     // blockhash
	b = u64le(b, 10)                                         // parent_slot
	b = u64le(b, 1)                                          // one transaction
	b = append(b, tx.Serialize()...)                         // VersionedTransaction: its wire form
	b = append(b, 1)                                         // Some(meta)
	b = append(b, 1, 8, 0, 0, 0, 0, 25, 0, 0, 0, 4, 0, 0, 0) // Some(InstructionError(0, Custom(4)))
	b = u64le(b, 5000)                                       // fee
	b = u64le(u64le(u64le(b, 2), 100), 0)                    // pre_balances [100, 0]
	b = u64le(u64le(u64le(b, 2), 95), 0)                     // post_balances [95, 0]
	b = u64le(b, 1)                                          // one reward
	b = strBin(b, reward.String())
	b = u64le(b, ^uint64(4)) // lamports -5
	b = append(b, 1)
	b = u64le(b, 1_600_000_000) // Some(block_time)
	withHeight := u64le(append(append([]byte{}, b...), 1), 9)

	for _, raw := range [][]byte{b, withHeight} {
		info, txs, err := decodeStoredBlock(11, raw)
		if err != nil {
			t.Fatal(err)
		}
		if info.ParentSlot != 10 || info.Blockhash != (core.Hash{2}) || info.PreviousBlockhash != (core.Hash{1}) ||
			info.BlockTime != 1_600_000_000 || len(info.Rewards) != 1 || info.Rewards[0].Lamports != -5 ||
			info.Rewards[0].Pubkey != reward {
			t.Errorf("block %+v", info)
		}
		if len(raw) == len(withHeight) && info.BlockHeight != 9 {
			t.Errorf("block height %d", info.BlockHeight)
		}
		if len(txs) != 1 || txs[0].Tx.Signature() != tx.Signature() || txs[0].Meta.Fee != 5000 ||
			!reflect.DeepEqual(txs[0].Meta.PreBalances, []uint64{100, 0}) ||
			!reflect.DeepEqual(txs[0].Meta.Err, runtime.InstructionErrorAt(0, runtime.CustomError(4))) || !info.Failed[0] {
			t.Errorf("transaction %+v", txs[0].Meta)
		}
	}
	if _, _, err := decodeStoredBlock(11, b[:len(b)-3]); err == nil {
		t.Error("a cut block decoded")
	}

	// tx-by-addr: Vec<(signature, Option<TransactionError>, u32 index, Option<String> memo)>.
	var a []byte
	a = u64le(a, 2)
	a = append(a, make([]byte, 64)...)
	a = append(a, 0)
	a = binary.LittleEndian.AppendUint32(a, 3)
	a = strBin(append(a, 1), "[2] hi")
	sig := tx.Signature()
	a = append(a, sig[:]...)
	a = append(a, 1, 6, 0, 0, 0) // Some(AlreadyProcessed)
	a = binary.LittleEndian.AppendUint32(a, 0)
	a = append(a, 0)
	entries, err := decodeLegacyTxByAddr(a)
	if err != nil || len(entries) != 2 {
		t.Fatalf("%v %v", entries, err)
	}
	if entries[0].Index != 3 || entries[0].Memo == nil || *entries[0].Memo != "[2] hi" || entries[0].Err != nil ||
		entries[1].Signature != sig || entries[1].Err == nil || entries[1].Err.Kind != runtime.TxAlreadyProcessed {
		t.Errorf("entries %+v", entries)
	}
}

// The older compressions a reader meets: gzip and bzip2 (a stream made by another bzip2 implementation, as the
// standard library has no bzip2 writer), after their header.
func TestOlderCompressions(t *testing.T) {
	var gz bytes.Buffer
	w := gzip.NewWriter(&gz)
	w.Write([]byte("hello bigtable"))
	w.Close()
	bz, _ := hex.DecodeString("425a68393141592653590776a30a0000039180400032e48400200031003020036a2268424d16c78bb9229c284803bb518500")
	for name, cell := range map[string][]byte{
		"gzip":  append([]byte{2, 0, 0, 0}, gz.Bytes()...),
		"bzip2": append([]byte{1, 0, 0, 0}, bz...),
	} {
		got, err := decompressCell(cell)
		if err != nil || string(got) != "hello bigtable" {
			t.Errorf("%s: %q %v", name, got, err)
		}
	}
}

// A blocks row holding only the bincode cell, as older reference versions wrote it, is served.
func TestArchiveReadsBinBlocks(t *testing.T) {
	c, _ := emulator(t)
	payer, _ := core.NewKeypair()
	tx := core.NewTransferTx(payer, core.Pubkey{7}, 42, core.Hash{3})
	var b []byte
	b = strBin(b, core.Hash{1}.String())
	b = strBin(b, core.Hash{2}.String())
	b = u64le(b, 4)
	b = u64le(b, 1)
	b = append(b, tx.Serialize()...)
	b = append(b, 1, 0)
	b = u64le(b, 5000)
	b = u64le(u64le(b, 1), 100)
	b = u64le(u64le(b, 1), 95)
	b = u64le(b, 0)
	b = u64le(append(b, 1), 1_600_000_000)
	var gz bytes.Buffer
	w := gzip.NewWriter(&gz)
	w.Write(b)
	w.Close()
	if err := c.putCells(context.Background(), TableBlocks, CellBin, []string{slotKey(5)},
		[][]byte{append([]byte{2, 0, 0, 0}, gz.Bytes()...)}); err != nil {
		t.Fatal(err)
	}
	info, txs, found, err := NewArchive(c).Block(5)
	if err != nil || !found || info.ParentSlot != 4 || len(txs) != 1 || txs[0].Tx.Signature() != tx.Signature() {
		t.Fatalf("%+v %v %v", info, found, err)
	}
}
