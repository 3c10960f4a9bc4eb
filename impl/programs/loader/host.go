package loader

import (
	"ledgerd/impl/core"
	"ledgerd/impl/runtime"
	"ledgerd/impl/sbpf"
	"ledgerd/impl/sbpf/syscalls"
)

// host is the runtime as the syscalls of one program execution see it (syscalls.Host).
type host struct {
	ctx     *runtime.InvokeContext
	in      *input
	aligned bool
	heap    uint64
	alloc   *syscalls.Allocator
}

var _ syscalls.Host = (*host)(nil)

// sync hands the units the VM metered to the transaction's meter (before a nested instruction
// charges it, and when the VM stops).
func (h *host) sync(m *sbpf.Meter) { h.ctx.SetRemaining(m.Remaining) }

func (h *host) Log(line string)     { h.ctx.Log(line) }
func (h *host) CheckAligned() bool  { return h.aligned }
func (h *host) StackHeight() uint64 { return uint64(h.ctx.StackHeight()) }

func (h *host) InstructionTraceLength() int { return h.ctx.InstructionTraceLength() }

func (h *host) TracedInstruction(i int) syscalls.TracedInstruction {
	t := h.ctx.TraceInstruction(i)
	metas := make([]syscalls.AccountMeta, len(t.Accounts))
	for j, a := range t.Accounts {
		metas[j] = syscalls.AccountMeta{Pubkey: a.Pubkey, IsSigner: a.IsSigner, IsWritable: a.IsWritable}
	}
	return syscalls.TracedInstruction{StackHeight: uint64(t.StackHeight), ProgramID: t.ProgramID,
		Data: t.Data, Accounts: metas}
}

func (h *host) ReturnData() (core.Pubkey, []byte) { return h.ctx.ReturnData() }

func (h *host) SetReturnData(data []byte) error { return h.ctx.SetReturnData(data) }

func (h *host) SysvarData(id core.Pubkey) ([]byte, bool) {
	d, err := h.ctx.Sysvar(id)
	return d, err == nil
}

func (h *host) EpochStake(vote *core.Pubkey) uint64 { return h.ctx.EpochStake(vote) }

func (h *host) Allocator() *syscalls.Allocator {
	if h.alloc == nil {
		h.alloc = syscalls.NewAllocator(h.heap)
	}
	return h.alloc
}

func (h *host) Invoke(vm *sbpf.VM, abi syscalls.CPIABI, a1, a2, a3, a4, a5 uint64) (uint64, error) {
	return h.invoke(vm, abi, a1, a2, a3, a4, a5)
}
