package runtime_test

import (
	"encoding/binary"

	"ledgerd/impl/core"
	"ledgerd/impl/programs/system"
	"ledgerd/impl/runtime"
)

// testProgram is a builtin whose instructions exercise the runtime's rules. Data is an opcode
// and arguments:
//
//	opNoop                          consume 1 unit
//	opNoConsume                     succeed without consuming
//	opWriteData  i b                set account i's first byte to b
//	opMove       a b u64            move lamports from account a to account b
//	opDebit      i u64              lower account i's balance (unbalanced)
//	opCredit     i u64              raise account i's balance (unbalanced)
//	opAssign     i owner[32]        assign account i
//	opResize     i u32              resize account i
//	opInvoke     p n (i s w)*n data invoke the program at account p with accounts i (signer s,
//	                                writable w) and data
//	opPDATransfer bump u64          transfer from PDA ["vault", bump] (account 0) to account 1
//	                                through the system program (account 2)
//	opPanic                         panic
//	opCustom     u32                fail with Custom(code)
//	opReturn     data               set return data
//	opLog        text               write "Program log: text"
//	opRecurse    depth              invoke itself (account 0) depth more times
//	opConsume    u64                consume units
//	opSetExecutable i               mark account i executable
//	opLogMany    n len              write n lines of len bytes
type testProgram struct{}

var (
	testProgramID    = core.Pubkey(core.HashBytes([]byte("test program")))
	testProgram2ID   = core.Pubkey(core.HashBytes([]byte("test program 2")))
	onChainProgramID = core.Pubkey(core.HashBytes([]byte("on-chain program")))
)

const (
	opNoop byte = iota
	opNoConsume
	opWriteData
	opMove
	opDebit
	opCredit
	opAssign
	opResize
	opInvoke
	opPDATransfer
	opPanic
	opCustom
	opReturn
	opLog
	opRecurse
	opConsume
	opSetExecutable
	opLogMany
)

func (testProgram) Execute(ctx *runtime.InvokeContext) error {
	d := ctx.Data()
	if len(d) == 0 {
		return runtime.ErrInvalidInstructionData
	}
	op, d := d[0], d[1:]
	if op != opNoConsume {
		if err := ctx.Consume(1); err != nil {
			return err
		}
	}
	acct := func(i byte) runtime.BorrowedAccount {
		a, err := ctx.Account(int(i))
		if err != nil {
			panic(err)
		}
		return a
	}
	switch op {
	case opNoop, opNoConsume:
		return nil
	case opWriteData:
		data, err := acct(d[0]).DataMut()
		if err != nil {
			return err
		}
		data[0] = d[1]
		return nil
	case opMove:
		n := binary.LittleEndian.Uint64(d[2:])
		if err := acct(d[0]).CheckedSubLamports(n); err != nil {
			return err
		}
		return acct(d[1]).CheckedAddLamports(n)
	case opDebit:
		return acct(d[0]).CheckedSubLamports(binary.LittleEndian.Uint64(d[1:]))
	case opCredit:
		return acct(d[0]).CheckedAddLamports(binary.LittleEndian.Uint64(d[1:]))
	case opAssign:
		return acct(d[0]).SetOwner(core.Pubkey(d[1:33]))
	case opResize:
		return acct(d[0]).SetDataLength(int(binary.LittleEndian.Uint32(d[1:])))
	case opInvoke:
		program, _ := ctx.Key(int(d[0]))
		n := int(d[1])
		ix := core.Instruction{ProgramID: program}
		for j := range n {
			i, s, w := d[2+3*j], d[3+3*j], d[4+3*j]
			k, err := ctx.Key(int(i))
			if err != nil {
				return err
			}
			ix.Accounts = append(ix.Accounts, core.AccountMeta{Pubkey: k, IsSigner: s != 0, IsWritable: w != 0})
		}
		ix.Data = d[2+3*n:]
		return ctx.Invoke(ix, nil)
	case opPDATransfer:
		from, _ := ctx.Key(0)
		to, _ := ctx.Key(1)
		ix := system.Transfer(from, to, binary.LittleEndian.Uint64(d[1:]))
		return ctx.Invoke(ix, [][][]byte{{[]byte("vault"), {d[0]}}})
	case opPanic:
		panic("boom")
	case opCustom:
		return runtime.CustomError(binary.LittleEndian.Uint32(d))
	case opReturn:
		return ctx.SetReturnData(d)
	case opLog:
		ctx.ProgramLog(string(d))
		return nil
	case opRecurse:
		if d[0] == 0 {
			return nil
		}
		self, _ := ctx.Key(0)
		return ctx.Invoke(core.Instruction{ProgramID: self, Accounts: []core.AccountMeta{core.Readonly(self)},
			Data: []byte{opRecurse, d[0] - 1}}, nil)
	case opConsume:
		return ctx.Consume(binary.LittleEndian.Uint64(d))
	case opSetExecutable:
		return acct(d[0]).SetExecutable(true)
	case opLogMany:
		line := make([]byte, d[1])
		for i := range line {
			line[i] = 'x'
		}
		for range int(d[0]) {
			ctx.Log(string(line))
		}
		return nil
	}
	return runtime.ErrInvalidInstructionData
}

// testIx builds an instruction of program with data and accounts.
func testIx(program core.Pubkey, data []byte, metas ...core.AccountMeta) core.Instruction {
	return core.Instruction{ProgramID: program, Accounts: metas, Data: data}
}

func u64le(v uint64) []byte { return binary.LittleEndian.AppendUint64(nil, v) }

func u32le(v uint32) []byte { return binary.LittleEndian.AppendUint32(nil, v) }

func cat(parts ...[]byte) []byte {
	var out []byte
	for _, p := range parts {
		out = append(out, p...)
	}
	return out
}
