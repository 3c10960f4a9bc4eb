package encoding

import (
	"encoding/binary"
	"errors"
	"math/bits"
	"sync"

	"github.com/klauspost/compress/huff0"
)

// referenceBlock writes data as one zstd block the way libzstd at level 3 writes it when it does not know the
// content size (the reference's streaming encoder): the double-fast match finder with a 2^17 long and a 2^16
// short hash table and a 5-byte minimum match, then raw literals and the predefined sequence tables. It returns
// the block, header included, and false when data is outside what it reproduces exactly: more than one block, a
// literal section libzstd would Huffman-code (or might: the decision is taken with a margin), or 32 sequences or
// more (where libzstd may build its own FSE tables). The caller then uses another encoder; its frame still
// decodes to the same bytes.
func referenceBlock(data []byte) ([]byte, bool) {
	n := len(data)
	if n == 0 || n > zstdBlockSizeMax {
		return nil, false
	}
	// Below this size libzstd does not even try (ZSTD_buildSeqStore: MIN_CBLOCK_SIZE + block header + 1).
	if n < 6 {
		return rawBlock(data), true
	}
	seqs, lits := doubleFast(data)
	if len(seqs) >= 32 {
		return nil, false
	}
	litSection, ok := referenceLiterals(lits, len(seqs))
	if !ok {
		return nil, false
	}
	body := litSection
	body = appendSeqCount(body, len(seqs))
	if len(seqs) > 0 {
		var err error
		if body, err = appendSequences(body, seqs); err != nil {
			return nil, false
		}
	}
	// ZSTD_entropyCompressSeqStore: a block that saves less than ZSTD_minGain is stored raw. (libzstd writes an
	// RLE block only after the first block, and this is the first.)
	if len(body) >= n-zstdMinGain(n) {
		return rawBlock(data), true
	}
	return append(blockHeader(len(body), 2), body...), true
}

const zstdBlockSizeMax = 128 << 10

// zstdMinGain is ZSTD_minGain for the double-fast strategy.
func zstdMinGain(n int) int { return n>>6 + 2 }

// blockHeader is a last block's header: size, type (0 raw, 1 RLE, 2 compressed), last-block flag.
func blockHeader(size, typ int) []byte {
	v := uint32(size)<<3 | uint32(typ)<<1 | 1
	return []byte{byte(v), byte(v >> 8), byte(v >> 16)}
}

func rawBlock(data []byte) []byte { return append(blockHeader(len(data), 0), data...) }

// zstdSeq is one sequence as libzstd's seqStore holds it: litLength literals, then a match of mlBase+3 bytes at
// offBase (1..3 repeat offsets, otherwise offset+3).
type zstdSeq struct {
	litLength, offBase, mlBase uint32
}

const (
	dfastHashLogLong  = 17
	dfastHashLogShort = 16
	dfastMinMatch     = 5
	zstdWindowStart   = 2 // ZSTD_WINDOW_START_INDEX: the index of the first byte of a new window
	prime5bytes       = 889523592379
	prime8bytes       = 0xCF1BBCDCB7A56463
)

// dfastTables are the match finder's hash tables, pooled; the entries a run wrote are listed, so that putting
// them back clears only those (a small account writes a few hundred of the 196,608).
type dfastTables struct {
	long, short         []uint32
	longUsed, shortUsed []uint32
}

func (t *dfastTables) setLong(h, v uint32) {
	t.long[h] = v
	t.longUsed = append(t.longUsed, h)
}

func (t *dfastTables) setShort(h, v uint32) {
	t.short[h] = v
	t.shortUsed = append(t.shortUsed, h)
}

func (t *dfastTables) reset() {
	for _, h := range t.longUsed {
		t.long[h] = 0
	}
	for _, h := range t.shortUsed {
		t.short[h] = 0
	}
	t.longUsed, t.shortUsed = t.longUsed[:0], t.shortUsed[:0]
}

var dfastPool = sync.Pool{New: func() any {
	return &dfastTables{long: make([]uint32, 1<<dfastHashLogLong), short: make([]uint32, 1<<dfastHashLogShort)}
}}

// doubleFast is ZSTD_compressBlock_doubleFast_noDict_generic (minimum match 5) over a new window: positions are
// indexed from zstdWindowStart and a candidate must lie above the window's first index; the repeat offsets start
// at {1, 4, 8}. It returns the sequences and all literals (the last ones included).
func doubleFast(src []byte) ([]zstdSeq, []byte) {
	t := dfastPool.Get().(*dfastTables)
	defer func() { t.reset(); dfastPool.Put(t) }()
	hashLong, hashSmall := t.long, t.short
	const base = zstdWindowStart
	const prefixLowestIndex = zstdWindowStart
	iend := len(src)
	ilimit := iend - 8
	read32 := func(p int) uint32 { return binary.LittleEndian.Uint32(src[p:]) }
	read64 := func(p int) uint64 { return binary.LittleEndian.Uint64(src[p:]) }
	hashL := func(p int) uint32 { return uint32((read64(p) * prime8bytes) >> (64 - dfastHashLogLong)) }
	hashS := func(p int) uint32 {
		return uint32(((read64(p) << (64 - 40)) * prime5bytes) >> (64 - dfastHashLogShort))
	}
	count := func(in, match int) int {
		n := 0
		for in+n < iend && src[in+n] == src[match+n] {
			n++
		}
		return n
	}
	var seqs []zstdSeq
	var lits []byte
	store := func(anchor, ip int, offBase uint32, mLength int) {
		lits = append(lits, src[anchor:ip]...)
		seqs = append(seqs, zstdSeq{litLength: uint32(ip - anchor), offBase: offBase, mlBase: uint32(mLength - 3)})
	}

	// The repeat offsets start at {1, 4}; one reaching before the window's first byte is off (0). Only the block's
	// own sequences use them: a later block's would need them saved, and there is none.
	ip, anchor := 1, 0 // the first position is skipped
	offset1, offset2 := uint32(1), uint32(4)
	if maxRep := uint32(ip); offset2 > maxRep {
		offset2 = 0
	}
	if maxRep := uint32(ip); offset1 > maxRep {
		offset1 = 0
	}
	if ilimit < 0 {
		return nil, append(lits, src...)
	}
	for {
		step := 1
		nextStep := ip + 1<<8 // kStepIncr = 1 << kSearchStrength
		ip1 := ip + step
		if ip1 > ilimit {
			break
		}
		hl0 := hashL(ip)
		idxl0 := hashLong[hl0]
		var mLength, curr int
		var offset uint32
		var hl1 uint32
		found, repFound := false, false
		for {
			hs0 := hashS(ip)
			idxs0 := hashSmall[hs0]
			curr = ip + base
			t.setLong(hl0, uint32(curr))
			t.setShort(hs0, uint32(curr))
			if offset1 > 0 && read32(ip+1-int(offset1)) == read32(ip+1) {
				mLength = count(ip+1+4, ip+1+4-int(offset1)) + 4
				ip++
				store(anchor, ip, 1, mLength)
				repFound = true
				break
			}
			hl1 = hashL(ip1)
			if idxl0 > prefixLowestIndex {
				m := int(idxl0) - base
				if read64(m) == read64(ip) {
					mLength = count(ip+8, m+8) + 8
					offset = uint32(ip - m)
					for ip > anchor && m > 0 && src[ip-1] == src[m-1] {
						ip, m, mLength = ip-1, m-1, mLength+1
					}
					found = true
					break
				}
			}
			idxl1 := hashLong[hl1]
			if idxs0 > prefixLowestIndex && read32(int(idxs0)-base) == read32(ip) {
				// _search_next_long: a long match at ip1 wins over the short one at ip.
				if m := int(idxl1) - base; idxl1 > prefixLowestIndex && read64(m) == read64(ip1) {
					ip = ip1
					mLength = count(ip+8, m+8) + 8
					offset = uint32(ip - m)
					for ip > anchor && m > 0 && src[ip-1] == src[m-1] {
						ip, m, mLength = ip-1, m-1, mLength+1
					}
				} else {
					m := int(idxs0) - base
					mLength = count(ip+4, m+4) + 4
					offset = uint32(ip - m)
					for ip > anchor && m > 0 && src[ip-1] == src[m-1] {
						ip, m, mLength = ip-1, m-1, mLength+1
					}
				}
				found = true
				break
			}
			if ip1 >= nextStep {
				step++
				nextStep += 1 << 8
			}
			ip = ip1
			ip1 += step
			hl0, idxl0 = hl1, idxl1
			if ip1 > ilimit {
				break
			}
		}
		if !found && !repFound {
			break
		}
		if found {
			offset2, offset1 = offset1, offset
			if step < 4 {
				t.setLong(hl1, uint32(ip1+base))
			}
			store(anchor, ip, offset+3, mLength)
		}
		ip += mLength
		anchor = ip
		if ip <= ilimit {
			// Complementary insertion, then immediate repeat matches at offset 2.
			insert := curr + 2 - base
			t.setLong(hashL(insert), uint32(insert+base))
			t.setLong(hashL(ip-2), uint32(ip-2+base))
			t.setShort(hashS(insert), uint32(insert+base))
			t.setShort(hashS(ip-1), uint32(ip-1+base))
			for ip <= ilimit && offset2 > 0 && read32(ip) == read32(ip-int(offset2)) {
				rLength := count(ip+4, ip+4-int(offset2)) + 4
				offset1, offset2 = offset2, offset1
				t.setShort(hashS(ip), uint32(ip+base))
				t.setLong(hashL(ip), uint32(ip+base))
				store(anchor, ip, 1, rLength)
				ip += rLength
				anchor = ip
			}
		}
	}
	return seqs, append(lits, src[anchor:]...)
}

var errNotReproduced = errors.New("zstd: not reproduced")

// referenceLiterals is the literals section libzstd writes for these literals, when it is raw (or a single
// repeated byte); false when libzstd would, or might, Huffman-code them. nbSeq matters only to libzstd's
// sampling of large inputs, which single blocks here never reach.
func referenceLiterals(lits []byte, nbSeq int) ([]byte, bool) {
	n := len(lits)
	// ZSTD_minLiteralsToCompress for double-fast without a previous table: 8 << min(9-2, 3) = 64.
	if n >= 64 {
		var hist [256]int
		largest := 0
		for _, b := range lits {
			hist[b]++
			largest = max(largest, hist[b])
		}
		switch {
		case largest == n:
			return rleLiterals(lits[0], n), true
		case largest <= n>>7+4:
			// HUF_compress_internal's "probably not compressible enough".
		default:
			// libzstd builds a Huffman table and keeps it only if the section shrinks by ZSTD_minGain. Estimate
			// that with huff0 (the same algorithm; table details may differ by a few bytes) and decide only when
			// the estimate is clearly on one side.
			var s huff0.Scratch
			s.Reuse = huff0.ReusePolicyNone
			var out []byte
			var err error
			if n < 256 {
				out, _, err = huff0.Compress1X(lits, &s)
			} else {
				out, _, err = huff0.Compress4X(lits, &s)
			}
			limit := n - zstdMinGain(n)
			if err == nil && len(out) < limit+8 {
				return nil, false
			}
			if err != nil && !errors.Is(err, huff0.ErrIncompressible) && !errors.Is(err, huff0.ErrUseRLE) {
				return nil, false
			}
		}
	}
	return rawLiterals(lits), true
}

func literalsHeader(typ, n int) []byte {
	switch {
	case n <= 31:
		return []byte{byte(typ | n<<3)}
	case n <= 4095:
		v := uint16(typ | 1<<2 | n<<4)
		return []byte{byte(v), byte(v >> 8)}
	default:
		v := uint32(typ | 3<<2 | n<<4)
		return []byte{byte(v), byte(v >> 8), byte(v >> 16)}
	}
}

func rawLiterals(lits []byte) []byte { return append(literalsHeader(0, len(lits)), lits...) }

func rleLiterals(b byte, n int) []byte { return append(literalsHeader(1, n), b) }

func appendSeqCount(b []byte, n int) []byte {
	switch {
	case n < 128:
		return append(b, byte(n))
	case n < 0x7F00:
		return append(b, byte(n>>8)+0x80, byte(n))
	default:
		return append(b, 0xFF, byte(n-0x7F00), byte((n-0x7F00)>>8))
	}
}

// The predefined distributions and the code tables of the format (RFC 8878 §3.1.1.3.2).
var (
	llDefaultNorm = []int16{4, 3, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 1, 1, 1, 2, 2, 2, 2, 2, 2, 2, 2, 2, 3, 2, 1, 1, 1, 1, 1,
		-1, -1, -1, -1}
	mlDefaultNorm = []int16{1, 4, 3, 2, 2, 2, 2, 2, 2, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
		1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, -1, -1, -1, -1, -1, -1, -1}
	ofDefaultNorm = []int16{1, 1, 1, 1, 1, 1, 2, 2, 2, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, -1, -1, -1, -1, -1}
	llBase        = []uint32{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 18, 20, 22, 24, 28, 32, 40, 48, 64,
		128, 256, 512, 1024, 2048, 4096, 8192, 16384, 32768, 65536}
	llBits = []uint8{0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 3, 3, 4, 6, 7, 8, 9, 10, 11, 12,
		13, 14, 15, 16}
	mlBase = []uint32{3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29,
		30, 31, 32, 33, 34, 35, 37, 39, 41, 43, 47, 51, 59, 67, 83, 99, 131, 259, 515, 1027, 2051, 4099, 8195, 16387, 32771,
		65539}
	mlBits = []uint8{0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1,
		1, 1, 2, 2, 3, 3, 4, 4, 5, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16}
)

func codeOf(table []uint32, v uint32) int {
	c := 0
	for c+1 < len(table) && table[c+1] <= v {
		c++
	}
	return c
}

// fseCTable is FSE_buildCTable's table: the next states by symbol order and each symbol's transform.
type fseCTable struct {
	tableLog       uint32
	stateTable     []uint16
	deltaNbBits    []uint32
	deltaFindState []int32
}

func buildFSECTable(norm []int16, tableLog uint32) *fseCTable {
	size := uint32(1) << tableLog
	mask := size - 1
	step := size>>1 + size>>3 + 3
	high := size - 1
	nsym := len(norm)
	cumul := make([]uint32, nsym+1)
	symbols := make([]uint8, size)
	for u := 1; u <= nsym; u++ {
		if norm[u-1] == -1 {
			cumul[u] = cumul[u-1] + 1
			symbols[high] = uint8(u - 1)
			high--
		} else {
			cumul[u] = cumul[u-1] + uint32(norm[u-1])
		}
	}
	pos := uint32(0)
	for s := 0; s < nsym; s++ {
		for range max(int(norm[s]), 0) {
			symbols[pos] = uint8(s)
			pos = (pos + step) & mask
			for pos > high {
				pos = (pos + step) & mask
			}
		}
	}
	t := &fseCTable{tableLog: tableLog, stateTable: make([]uint16, size), deltaNbBits: make([]uint32, nsym),
		deltaFindState: make([]int32, nsym)}
	for u := uint32(0); u < size; u++ {
		s := symbols[u]
		t.stateTable[cumul[s]] = uint16(size + u)
		cumul[s]++
	}
	total := int32(0)
	for s := 0; s < nsym; s++ {
		switch c := norm[s]; c {
		case 0:
			t.deltaNbBits[s] = (tableLog+1)<<16 - size
		case -1, 1:
			t.deltaNbBits[s] = tableLog<<16 - size
			t.deltaFindState[s] = total - 1
			total++
		default:
			maxBitsOut := tableLog - uint32(bits.Len32(uint32(c-1))-1)
			minStatePlus := uint32(c) << maxBitsOut
			t.deltaNbBits[s] = maxBitsOut<<16 - minStatePlus
			t.deltaFindState[s] = total - int32(c)
			total += int32(c)
		}
	}
	return t
}

var predefinedTables = sync.OnceValue(func() [3]*fseCTable {
	return [3]*fseCTable{buildFSECTable(llDefaultNorm, 6), buildFSECTable(ofDefaultNorm, 5), buildFSECTable(mlDefaultNorm, 6)}
})

// fseState encodes one symbol stream (FSE_initCState2, FSE_encodeSymbol, FSE_flushCState). An RLE table is a
// nil *fseCTable: its symbols cost no bits.
type fseState struct {
	t     *fseCTable
	value uint32
}

func (st *fseState) init(t *fseCTable, sym int) {
	st.t = t
	if t == nil {
		return
	}
	nbBitsOut := (t.deltaNbBits[sym] + 1<<15) >> 16
	v := nbBitsOut<<16 - t.deltaNbBits[sym]
	st.value = uint32(t.stateTable[int32(v>>nbBitsOut)+t.deltaFindState[sym]])
}

func (st *fseState) encode(w *bitWriter, sym int) {
	t := st.t
	if t == nil {
		return
	}
	nbBitsOut := (st.value + t.deltaNbBits[sym]) >> 16
	w.add(uint64(st.value), nbBitsOut)
	st.value = uint32(t.stateTable[int32(st.value>>nbBitsOut)+t.deltaFindState[sym]])
}

func (st *fseState) flush(w *bitWriter) {
	if st.t != nil {
		w.add(uint64(st.value), st.t.tableLog)
	}
}

// bitWriter appends bit fields from the least significant bit up, as BIT_CStream does.
type bitWriter struct {
	out   []byte
	acc   uint64
	nbits uint32
}

func (w *bitWriter) add(v uint64, n uint32) {
	for n > 0 {
		k := min(n, 32)
		w.acc |= (v & (1<<k - 1)) << w.nbits
		w.nbits += k
		v >>= k
		n -= k
		for w.nbits >= 8 {
			w.out = append(w.out, byte(w.acc))
			w.acc >>= 8
			w.nbits -= 8
		}
	}
}

func (w *bitWriter) close() []byte {
	w.add(1, 1)
	if w.nbits > 0 {
		w.out = append(w.out, byte(w.acc))
	}
	return w.out
}

// appendSequences writes the symbol compression modes and the sequences bitstream (ZSTD_encodeSequences) with
// the modes ZSTD_selectEncodingType picks for fewer than 32 sequences at a fast strategy: predefined, or RLE when
// every sequence has the same code and there are more than two.
func appendSequences(b []byte, seqs []zstdSeq) ([]byte, error) {
	n := len(seqs)
	ll, of, ml := make([]int, n), make([]int, n), make([]int, n)
	for i, s := range seqs {
		ll[i] = codeOf(llBase, s.litLength)
		ml[i] = codeOf(mlBase, s.mlBase+3)
		of[i] = bits.Len32(s.offBase) - 1
		if of[i] > 28 {
			return b, errNotReproduced // beyond the predefined offset codes: libzstd builds a table
		}
	}
	tables := predefinedTables()
	var modes byte
	var ct [3]*fseCTable
	rle := func(codes []int) bool {
		for _, c := range codes {
			if c != codes[0] {
				return false
			}
		}
		return n > 2
	}
	var rleSyms []byte
	for i, codes := range [3][]int{ll, of, ml} {
		if rle(codes) {
			modes |= 1 << (6 - 2*i)
			rleSyms = append(rleSyms, byte(codes[0]))
		} else {
			ct[i] = tables[i]
		}
	}
	b = append(b, modes)
	b = append(b, rleSyms...)

	var w bitWriter
	var sLL, sOF, sML fseState
	last := n - 1
	sML.init(ct[2], ml[last])
	sOF.init(ct[1], of[last])
	sLL.init(ct[0], ll[last])
	w.add(uint64(seqs[last].litLength-llBase[ll[last]]), uint32(llBits[ll[last]]))
	w.add(uint64(seqs[last].mlBase+3-mlBase[ml[last]]), uint32(mlBits[ml[last]]))
	w.add(uint64(seqs[last].offBase), uint32(of[last]))
	for i := n - 2; i >= 0; i-- {
		sOF.encode(&w, of[i])
		sML.encode(&w, ml[i])
		sLL.encode(&w, ll[i])
		w.add(uint64(seqs[i].litLength-llBase[ll[i]]), uint32(llBits[ll[i]]))
		w.add(uint64(seqs[i].mlBase+3-mlBase[ml[i]]), uint32(mlBits[ml[i]]))
		w.add(uint64(seqs[i].offBase), uint32(of[i]))
	}
	sML.flush(&w)
	sOF.flush(&w)
	sLL.flush(&w)
	return append(b, w.close()...), nil
}
