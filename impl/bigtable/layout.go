// Package bigtable keeps a node's rooted history in Google Cloud Bigtable in the reference's own layout (its
// storage-bigtable crate), so the reference's tools and RPC nodes read what ledgerd wrote and ledgerd reads an
// archive the reference wrote: an uploader writes every rooted slot's block, transactions and address index,
// and an Archive serves them back to the ledger for slots below its first local block. docs/bigtable.md lists
// the layout's facts (tables, row keys, cells, compression, message fields).
package bigtable

import (
	"bytes"
	"compress/bzip2"
	"compress/gzip"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"strconv"

	"github.com/klauspost/compress/zstd"
)

// The reference's tables, its one column family and its two cell names.
const (
	TableBlocks   = "blocks"
	TableTx       = "tx"
	TableTxByAddr = "tx-by-addr"
	TableEntries  = "entries"

	Family    = "x"
	CellProto = "proto"
	CellBin   = "bin"
)

// Tables lists every table the layout uses.
var Tables = []string{TableBlocks, TableTx, TableTxByAddr, TableEntries}

// slotKey is a slot as 16 lowercase hex digits, so that row keys sort as slots do.
func slotKey(slot uint64) string {
	return fmt.Sprintf("%016x", slot)
}

// keySlot reads a slotKey back.
func keySlot(key string) (uint64, error) {
	if len(key) != 16 {
		return 0, fmt.Errorf("bigtable: row key %q is not a 16-digit slot", key)
	}
	return strconv.ParseUint(key, 16, 64)
}

// txByAddrKey is the row of one address and one slot: the slot inverted, so an address's rows list newest first.
func txByAddrKey(addr string, slot uint64) string {
	return addr + "/" + slotKey(^slot)
}

// The compression methods, numbered as the reference's CompressionMethod enum, whose bincode form (a u32
// little-endian variant index) heads every cell.
const (
	methodNone  uint32 = 0
	methodBzip2 uint32 = 1
	methodGzip  uint32 = 2
	methodZstd  uint32 = 3
)

// compressMinSize is where the reference starts to compress: below it the frame costs more than it saves.
const compressMinSize = 128

// maxCellSize bounds what a cell may decompress to; the reference's gRPC messages stop at 64 MiB.
const maxCellSize = 64 << 20

var zstdEncoder, _ = zstd.NewWriter(nil, zstd.WithEncoderLevel(zstd.SpeedDefault), zstd.WithEncoderConcurrency(1))
var zstdDecoder, _ = zstd.NewReader(nil, zstd.WithDecoderConcurrency(1), zstd.WithDecoderMaxMemory(maxCellSize))

// compressCell frames data as the reference's compress_default does: uncompressed below 128 bytes, zstd from
// there on.
func compressCell(data []byte) []byte {
	if len(data) < compressMinSize {
		return append(binary.LittleEndian.AppendUint32(make([]byte, 0, 4+len(data)), methodNone), data...)
	}
	return zstdEncoder.EncodeAll(data, binary.LittleEndian.AppendUint32(make([]byte, 0, 4+len(data)/2), methodZstd))
}

// decompressCell reads any cell the reference ever wrote: its older compress_best also chose bzip2 or gzip.
func decompressCell(cell []byte) ([]byte, error) {
	if len(cell) < 4 {
		return nil, fmt.Errorf("bigtable: cell of %d bytes has no compression header", len(cell))
	}
	body := cell[4:]
	var r io.Reader
	switch m := binary.LittleEndian.Uint32(cell); m {
	case methodNone:
		return body, nil
	case methodZstd:
		out, err := zstdDecoder.DecodeAll(body, nil)
		if err != nil {
			return nil, fmt.Errorf("bigtable: zstd cell: %w", err)
		}
		return out, nil
	case methodBzip2:
		r = bzip2.NewReader(bytes.NewReader(body))
	case methodGzip:
		zr, err := gzip.NewReader(bytes.NewReader(body))
		if err != nil {
			return nil, fmt.Errorf("bigtable: gzip cell: %w", err)
		}
		r = zr
	default:
		return nil, fmt.Errorf("bigtable: unknown compression method %d", m)
	}
	out, err := io.ReadAll(io.LimitReader(r, maxCellSize+1))
	if err != nil {
		return nil, fmt.Errorf("bigtable: compressed cell: %w", err)
	}
	if len(out) > maxCellSize {
		return nil, errors.New("bigtable: cell decompresses past 64 MiB")
	}
	return out, nil
}
