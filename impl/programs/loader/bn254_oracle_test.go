package loader

import (
	"encoding/binary"
	"fmt"
	"testing"

	"ledgerd/conformance/realelf"
	"ledgerd/impl/core"
	"ledgerd/impl/sbpf/sbpftest"
)

// bn254Asm calls sol_alt_bn128_group_op (first data byte 0) or sol_alt_bn128_compression (1)
// with the operation in the second byte on as many zero bytes as the next two say, and logs the
// result (syscallCostEpilogue, which also holds the zeros).
const bn254Asm = `
entrypoint:
	ldxb r6, [r2+0]
	ldxb r1, [r2+1]
	ldxh r3, [r2+2]
	lddw r2, zeros
	mov64 r4, r10
	sub64 r4, 512
	jeq r6, 1, compression
	call sol_alt_bn128_group_op
	ja done
compression:
	call sol_alt_bn128_compression
done:
` + syscallCostEpilogue

// TestAltBn128CostsEqualLiteSVM holds every alt_bn128 operation to LiteSVM, in both endiannesses:
// the same compute units, result and logs. The G2 operations' costs (535 add, 15670 mul) are
// confirmed here, and the subtractions are refused as the reference refuses them.
func TestAltBn128CostsEqualLiteSVM(t *testing.T) {
	elf, err := sbpftest.ELF(bn254Asm, nil)
	if err != nil {
		t.Fatal(err)
	}
	prog, payer := testKey(50).PublicKey(), testKey(51)
	b := newVMBank(t)
	type call struct {
		compression bool
		op          byte
		n           uint16
	}
	calls := []call{
		{false, 0, 128}, {false, 2, 96}, {false, 3, 192}, {false, 3, 384}, {false, 4, 256}, {false, 6, 160},
		{false, 0x84, 256}, {false, 0x86, 160}, {false, 0x83, 192}, {false, 1, 128}, {false, 5, 256},
		{true, 0, 64}, {true, 1, 32}, {true, 2, 128}, {true, 3, 64}, {true, 0x82, 128}, {true, 0x83, 64},
	}
	var steps []realelf.Step
	for _, c := range calls {
		data := []byte{0, c.op}
		if c.compression {
			data[0] = 1
		}
		data = binary.LittleEndian.AppendUint16(data, c.n)
		steps = append(steps, realelf.Step{
			Name: fmt.Sprintf("compression %v op %#x on %d bytes", c.compression, c.op, c.n),
			Tx:   b.tx([]core.Instruction{{ProgramID: prog, Data: data}}, payer),
		})
	}
	compareWithOracle(t, realelf.Scenario{
		Name:     "alt_bn128",
		Programs: []realelf.Program{{ID: prog, Loader: core.BPFLoaderProgramID, ELF: elf}},
		Accounts: []realelf.Account{fundedAccount(payer.PublicKey())},
		Steps:    steps,
	})
}
