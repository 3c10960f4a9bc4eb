package bigtable

import (
	"context"
	"fmt"

	bt "cloud.google.com/go/bigtable"

	"ledgerd/impl/core"
	"ledgerd/impl/ledger"
	"ledgerd/impl/runtime"
)

// Archive reads the layout back for the ledger (ledger.Archive). Each call is bounded by the client's timeout.
type Archive struct{ c *Client }

var _ ledger.Archive = (*Archive)(nil)

// NewArchive serves the ledger's history below its first local block from c.
func NewArchive(c *Client) *Archive { return &Archive{c: c} }

func corrupt(table, key string, err error) error {
	return &Error{Op: "decoding " + table + "/" + key, Err: err}
}

// Block reads blocks/<slot>: the protobuf cell, or the bincode one older reference versions wrote.
func (a *Archive) Block(slot uint64) (*ledger.BlockInfo, []*ledger.TxRecord, bool, error) {
	key := slotKey(slot)
	r, found, err := a.c.readRow(context.Background(), TableBlocks, key)
	if err != nil || !found {
		return nil, nil, false, err
	}
	raw, legacy, err := rowCell(r, TableBlocks, key)
	if err != nil {
		return nil, nil, false, err
	}
	decode := DecodeBlock
	if legacy {
		decode = decodeStoredBlock
	}
	info, txs, err := decode(slot, raw)
	if err != nil {
		return nil, nil, false, corrupt(TableBlocks, key, err)
	}
	return info, txs, true, nil
}

// Blocks lists row keys of the blocks table from start on, as the reference's get_confirmed_blocks.
func (a *Archive) Blocks(start uint64, limit int) ([]uint64, error) {
	if limit <= 0 {
		return []uint64{}, nil
	}
	keys, _, err := a.c.readRows(context.Background(), TableBlocks, bt.InfiniteRange(slotKey(start)), int64(limit), true)
	if err != nil {
		return nil, err
	}
	out := make([]uint64, 0, len(keys))
	for _, k := range keys {
		s, err := keySlot(k)
		if err != nil {
			return nil, corrupt(TableBlocks, k, err)
		}
		out = append(out, s)
	}
	return out, nil
}

// FirstBlock is the first row key of the blocks table.
func (a *Archive) FirstBlock() (uint64, bool, error) {
	slots, err := a.Blocks(0, 1)
	if err != nil || len(slots) == 0 {
		return 0, false, err
	}
	return slots[0], true, nil
}

// LastBlock is the newest slot uploaded: the last row key of the blocks table (read in reverse).
func (a *Archive) LastBlock() (uint64, bool, error) {
	ctx, cancel := context.WithTimeout(context.Background(), a.c.timeout)
	defer cancel()
	var last string
	err := a.c.tables[TableBlocks].ReadRows(ctx, bt.InfiniteRange(""), func(r bt.Row) bool {
		last = r.Key()
		return false
	}, bt.RowFilter(bt.ChainFilters(bt.CellsPerRowLimitFilter(1), bt.StripValueFilter())), bt.LimitRows(1), bt.ReverseScan())
	if err != nil {
		return 0, false, a.c.fail("reading "+TableBlocks, err)
	}
	if last == "" {
		return 0, false, nil
	}
	s, err := keySlot(last)
	if err != nil {
		return 0, false, corrupt(TableBlocks, last, err)
	}
	return s, true, nil
}

// txInfo reads tx/<signature>.
func (a *Archive) txInfo(sig core.Signature) (*TxInfo, bool, error) {
	key := sig.String()
	r, found, err := a.c.readRow(context.Background(), TableTx, key)
	if err != nil || !found {
		return nil, false, err
	}
	cell, ok := r[CellBin]
	if !ok {
		return nil, false, corrupt(TableTx, key, fmt.Errorf("row has no %q cell", CellBin))
	}
	raw, err := decompressCell(cell)
	if err != nil {
		return nil, false, corrupt(TableTx, key, err)
	}
	info, err := decodeTxInfo(raw)
	if err != nil {
		return nil, false, corrupt(TableTx, key, err)
	}
	return info, true, nil
}

// TransactionStatus answers from the tx row alone.
func (a *Archive) TransactionStatus(sig core.Signature) (uint64, *runtime.TransactionError, bool, error) {
	info, found, err := a.txInfo(sig)
	if err != nil || !found {
		return 0, nil, false, err
	}
	return info.Slot, info.Err, true, nil
}

// Transaction reads the tx row, then the transaction out of its block, checking the signature as the
// reference does (a mismatch is a corrupt archive, reported rather than answered).
func (a *Archive) Transaction(sig core.Signature) (*ledger.TxRecord, bool, error) {
	info, found, err := a.txInfo(sig)
	if err != nil || !found {
		return nil, false, err
	}
	_, txs, found, err := a.Block(info.Slot)
	if err != nil {
		return nil, false, err
	}
	if !found || int(info.Index) >= len(txs) || txs[info.Index].Tx.Signature() != sig {
		return nil, false, corrupt(TableTx, sig.String(), fmt.Errorf("block %d does not hold it at index %d", info.Slot, info.Index))
	}
	return txs[info.Index], true, nil
}

// SignaturesForAddress walks the address's tx-by-addr rows newest first, as the reference's
// get_confirmed_signatures_for_address: rows from before's slot down to until's slot, entries within a row
// newest (highest index) first, before's and until's own positions excluded. A before or until the archive
// does not know yields nothing, as the reference's RPC drops that lookup's error.
func (a *Archive) SignaturesForAddress(addr core.Pubkey, before, until *core.Signature, limit int) ([]*ledger.TxRecord, error) {
	out := []*ledger.TxRecord{}
	if limit <= 0 {
		return out, nil
	}
	firstSlot, beforeIndex := ^uint64(0), uint32(0)
	if before != nil {
		info, found, err := a.txInfo(*before)
		if err != nil || !found {
			return out, err
		}
		firstSlot, beforeIndex = info.Slot, info.Index
	}
	lastSlot, untilIndex := uint64(0), ^uint32(0)
	if until != nil {
		info, found, err := a.txInfo(*until)
		if err != nil || !found {
			return out, err
		}
		lastSlot, untilIndex = info.Slot, info.Index
	}
	prefix := addr.String()
	ctx := context.Background()
	// The first row may hold entries at or after before's index, which are skipped: read its length more rows.
	extra := 0
	if r, found, err := a.c.readRow(ctx, TableTxByAddr, txByAddrKey(prefix, firstSlot)); err != nil {
		return nil, err
	} else if found {
		entries, err := addrRowEntries(r, txByAddrKey(prefix, firstSlot))
		if err != nil {
			return nil, err
		}
		extra = len(entries)
	}
	keys, rows, err := a.c.readRows(ctx, TableTxByAddr,
		bt.NewClosedRange(txByAddrKey(prefix, firstSlot), txByAddrKey(prefix, lastSlot)), int64(limit+extra), false)
	if err != nil {
		return nil, err
	}
	for i, key := range keys {
		inv, err := keySlot(key[len(prefix)+1:])
		if err != nil {
			return nil, corrupt(TableTxByAddr, key, err)
		}
		slot := ^inv
		entries, err := addrRowEntries(rows[i], key)
		if err != nil {
			return nil, err
		}
		for j := len(entries) - 1; j >= 0; j-- {
			e := &entries[j]
			if slot == firstSlot && e.Index >= beforeIndex || slot == lastSlot && e.Index <= untilIndex {
				continue
			}
			rec := &ledger.TxRecord{Slot: slot, Index: e.Index, Tx: &core.Transaction{Signatures: []core.Signature{e.Signature}},
				Meta: &ledger.TxMeta{Err: e.Err}, MemoKnown: true, Memo: e.Memo}
			if e.BlockTime != nil {
				rec.BlockTime = *e.BlockTime
			}
			out = append(out, rec)
			if len(out) >= limit {
				return out, nil
			}
		}
	}
	return out, nil
}

// addrRowEntries decodes a tx-by-addr row: the protobuf cell, or the bincode one of older versions.
func addrRowEntries(r row, key string) ([]AddrEntry, error) {
	raw, legacy, err := rowCell(r, TableTxByAddr, key)
	if err != nil {
		return nil, err
	}
	decode := decodeTxByAddr
	if legacy {
		decode = decodeLegacyTxByAddr
	}
	entries, err := decode(raw)
	if err != nil {
		return nil, corrupt(TableTxByAddr, key, err)
	}
	return entries, nil
}

// rowCell is the decompressed protobuf cell of a row of table, or its bincode cell (legacy) as older reference
// versions wrote it.
func rowCell(r row, table, key string) (raw []byte, legacy bool, err error) {
	cell, ok := r[CellProto]
	if !ok {
		if cell, legacy = r[CellBin]; !legacy {
			return nil, false, corrupt(table, key, fmt.Errorf("row has neither a %q nor a %q cell", CellProto, CellBin))
		}
	}
	if raw, err = decompressCell(cell); err != nil {
		return nil, false, corrupt(table, key, err)
	}
	return raw, legacy, nil
}
