package syscalls

import (
	"encoding/binary"
	"errors"
	"testing"

	"ledgerd/impl/core"
	"ledgerd/impl/sbpf"
)

// FuzzSyscalls calls a registered syscall with arguments and guest memory taken from the input:
// whatever the pointers, lengths and bytes, a syscall returns a value or an error, never panics,
// never charges more than the meter held, and an error from pointer translation is the VM's.
func FuzzSyscalls(f *testing.F) {
	names := Names(AllFeatures(), false)
	seed := func(idx byte, args [5]uint64, mem []byte) []byte {
		b := []byte{idx, 0}
		for _, a := range args {
			b = binary.LittleEndian.AppendUint64(b, a)
		}
		return append(b, mem...)
	}
	mem := putSlices(make([]byte, 256), 0, []byte("abc"), []byte("defg"))
	for i := range names {
		f.Add(seed(byte(i), [5]uint64{in, 2, in + 128, in + 160, in + 200}, mem))
		f.Add(seed(byte(i), [5]uint64{0, in, 3, in + 64, 1}, mem))
		f.Add(seed(byte(i), [5]uint64{in + 1, ^uint64(0), in, in + 255, heap}, mem))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) < 42 {
			return
		}
		name := names[int(data[0])%len(names)]
		flags := data[1]
		var args [5]uint64
		for i := range args {
			args[i] = binary.LittleEndian.Uint64(data[2+8*i:])
			// Bias pointers towards the mapped regions so the syscalls get past translation.
			if flags&(1<<i) != 0 {
				args[i] = in + args[i]%512
			}
		}
		input := append([]byte(nil), data[42:]...)
		loader := sbpf.NewLoader(sbpf.DefaultConfig())
		if err := Register(loader, AllFeatures(), false); err != nil {
			t.Fatal(err)
		}
		entry, ok := loader.Lookup(sbpf.HashSymbolName([]byte(name)))
		if !ok {
			t.Fatalf("%s not registered", name)
		}
		exe := sbpf.NewExecutableFromText(make([]byte, 8), sbpf.V0, nil)
		h := &fakeHost{height: 2, unaligned: flags&0x40 != 0, alloc: NewAllocator(sbpf.DefaultHeapSize),
			sysvars: map[core.Pubkey][]byte{core.SysvarClockID: make([]byte, 40), core.SysvarRentID: input},
			retData: input, trace: []TracedInstruction{{StackHeight: 2, Data: input}, {StackHeight: 2}}}
		meter := &sbpf.Meter{Remaining: 2_000_000}
		vm, err := sbpf.NewVM(exe, loader, sbpf.Params{
			Input: []sbpf.Region{{VMAddr: in, Data: input, Writable: flags&0x80 == 0}},
			Meter: meter, Host: h,
		})
		if err != nil {
			t.Fatal(err)
		}
		_, err = entry.Fn(vm, args[0], args[1], args[2], args[3], args[4])
		if meter.Remaining > 2_000_000 {
			t.Fatalf("%s refunded units", name)
		}
		var se *Error
		var ie *InstructionError
		var ve *sbpf.Error
		if err != nil && !errors.As(err, &se) && !errors.As(err, &ie) && !errors.As(err, &ve) &&
			!errors.Is(err, sbpf.ErrComputationalBudgetExceeded) {
			t.Fatalf("%s: unexpected error type %T: %v", name, err, err)
		}
	})
}
