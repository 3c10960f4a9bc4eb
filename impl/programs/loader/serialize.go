package loader

import (
	"encoding/binary"
	"math"
	"sync"

	"ledgerd/impl/core"
	"ledgerd/impl/runtime"
)

// The input an sBPF program receives in r1 (the reference's serialization in copy mode): the
// instruction's accounts, its data and the program id, laid out one way for the deprecated
// loader (unaligned) and another for loaders 2 and 3 (aligned, with room for each account's data
// to grow). After a successful run the accounts are read back from the same bytes with the
// rules of the runtime's BorrowedAccount.

const (
	nonDupMarker = 0xff
	// MaxPermittedDataIncrease is how much one instruction may grow an account's data (the
	// zeroed room after each account's data in the aligned layout).
	MaxPermittedDataIncrease = 10 * 1024
	// maxInstructionAccounts is the most accounts an instruction may hand a program.
	maxInstructionAccounts = 255
	bpfAlignOfU128         = 8
)

// accountMeta is where one instruction account sits in the serialized input (the reference's
// SerializedAccountMetadata), and its data length before the run. Duplicates share their first
// occurrence's.
type accountMeta struct {
	dup         bool
	first       int    // the first occurrence, for a duplicate
	start       uint64 // offset of the account's entry
	originalLen uint64
	keyOff      uint64
	ownerOff    uint64
	lamportsOff uint64
	dataOff     uint64 // the data; its u64 length is right before it
}

// input is one serialized instruction.
type input struct {
	buf     []byte
	aligned bool
	metas   []accountMeta
	dataOff uint64 // where the instruction data starts
}

var inputPool sync.Pool

func getInput(n int) []byte {
	if b, ok := inputPool.Get().(*[]byte); ok && cap(*b) >= n {
		buf := (*b)[:n]
		clear(buf)
		return buf
	}
	return make([]byte, n)
}

func (in *input) release() {
	b := in.buf
	in.buf = nil
	if cap(b) <= 1<<20 {
		inputPool.Put(&b)
	}
}

func alignPad(n uint64) uint64 { return (bpfAlignOfU128 - n%bpfAlignOfU128) % bpfAlignOfU128 }

// serialize lays out ctx's instruction for the program.
func serialize(ctx *runtime.InvokeContext, aligned bool) (*input, error) {
	n := ctx.NumAccounts()
	if n > maxInstructionAccounts {
		return nil, runtime.ErrMaxAccountsExceeded
	}
	accts := make([]runtime.BorrowedAccount, n)
	metas := make([]accountMeta, n)
	size := uint64(8)
	for i := range n {
		if j, dup := ctx.DuplicateOf(i); dup {
			metas[i] = accountMeta{dup: true, first: j}
			if aligned {
				size += 8
			} else {
				size++
			}
			continue
		}
		a, err := ctx.Account(i)
		if err != nil {
			return nil, err
		}
		accts[i] = a
		l := uint64(len(a.Data()))
		if aligned {
			size += 96 + l + MaxPermittedDataIncrease + alignPad(l)
		} else {
			size += 92 + l
		}
	}
	data := ctx.Data()
	size += 8 + uint64(len(data)) + 32

	in := &input{buf: getInput(int(size)), aligned: aligned, metas: metas}
	b := in.buf
	le := binary.LittleEndian
	le.PutUint64(b, uint64(n))
	off := uint64(8)
	for i := range n {
		m := &metas[i]
		if m.dup {
			b[off] = byte(m.first)
			f := metas[m.first]
			m.start, m.originalLen, m.keyOff, m.ownerOff, m.lamportsOff, m.dataOff =
				off, f.originalLen, f.keyOff, f.ownerOff, f.lamportsOff, f.dataOff
			if aligned {
				off += 8
			} else {
				off++
			}
			continue
		}
		a := accts[i]
		d := a.Data()
		key, owner := a.Key(), a.Owner()
		m.start, m.originalLen = off, uint64(len(d))
		b[off] = nonDupMarker
		b[off+1] = boolByte(a.IsSigner())
		b[off+2] = boolByte(a.IsWritable())
		if aligned {
			b[off+3] = boolByte(a.Executable())
			// off+4: four zero bytes (the program may use them).
			m.keyOff, m.ownerOff, m.lamportsOff = off+8, off+40, off+72
			copy(b[off+8:], key[:])
			copy(b[off+40:], owner[:])
			le.PutUint64(b[off+72:], a.Lamports())
			le.PutUint64(b[off+80:], uint64(len(d)))
			m.dataOff = off + 88
			copy(b[m.dataOff:], d)
			off = m.dataOff + uint64(len(d)) + MaxPermittedDataIncrease + alignPad(uint64(len(d)))
			// The rent epoch is masked out (u64::MAX) as the reference now serializes it.
			le.PutUint64(b[off:], math.MaxUint64)
			off += 8
			continue
		}
		m.keyOff, m.lamportsOff = off+3, off+35
		copy(b[off+3:], key[:])
		le.PutUint64(b[off+35:], a.Lamports())
		le.PutUint64(b[off+43:], uint64(len(d)))
		m.dataOff = off + 51
		copy(b[m.dataOff:], d)
		o := m.dataOff + uint64(len(d))
		m.ownerOff = o
		copy(b[o:], owner[:])
		b[o+32] = boolByte(a.Executable())
		le.PutUint64(b[o+33:], math.MaxUint64)
		off = o + 41
	}
	le.PutUint64(b[off:], uint64(len(data)))
	off += 8
	in.dataOff = off
	copy(b[off:], data)
	off += uint64(len(data))
	id := ctx.ProgramID()
	copy(b[off:], id[:])
	return in, nil
}

func boolByte(v bool) byte {
	if v {
		return 1
	}
	return 0
}

// deserialize applies what the program left in its input to the instruction's accounts, in the
// reference's order: lamports, data (aligned: with its new length, at most
// MaxPermittedDataIncrease longer), and last the owner (aligned only), so that a program may
// change an account's lamports and data before giving it away.
func deserialize(ctx *runtime.InvokeContext, in *input) error {
	b := in.buf
	le := binary.LittleEndian
	for i := range in.metas {
		m := &in.metas[i]
		if m.dup {
			continue
		}
		a, err := ctx.Account(i)
		if err != nil {
			return err
		}
		if lamports := le.Uint64(b[m.lamportsOff:]); lamports != a.Lamports() {
			if err := a.SetLamports(lamports); err != nil {
				return err
			}
		}
		postLen := m.originalLen
		if in.aligned {
			postLen = le.Uint64(b[m.dataOff-8:])
			if (postLen > m.originalLen && postLen-m.originalLen > MaxPermittedDataIncrease) ||
				postLen > runtime.MaxPermittedDataLength {
				return runtime.ErrInvalidRealloc
			}
		}
		if postLen > uint64(len(b))-m.dataOff {
			return runtime.ErrInvalidArgument
		}
		data := b[m.dataOff : m.dataOff+postLen]
		if err := applyData(a, data); err != nil {
			return err
		}
		if in.aligned {
			owner := core.Pubkey(b[m.ownerOff : m.ownerOff+32])
			if owner != a.Owner() {
				if err := a.SetOwner(owner); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// applyData writes data into a when the rules allow it; when they do not, data must be what a
// already holds (the reference's can_data_be_changed / can_data_be_resized, then
// set_data_from_slice).
func applyData(a runtime.BorrowedAccount, data []byte) error {
	// Whether the data may change at all is asked first: a program that resizes an account it
	// does not own is told it modified a foreign account's data (as LiteSVM reports it).
	err := a.CanDataBeChanged()
	if err == nil {
		err = a.CanDataBeResized(len(data))
	}
	if err != nil {
		if string(a.Data()) != string(data) {
			return err
		}
		return nil
	}
	if string(a.Data()) == string(data) {
		return nil
	}
	if len(data) == len(a.Data()) {
		d, err := a.DataMut()
		if err != nil {
			return err
		}
		copy(d, data)
		return nil
	}
	return a.SetData(data)
}
