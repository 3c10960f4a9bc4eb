// Package sbpf is the Solana BPF (sBPF) virtual machine: the instruction set of every SBPF
// version, the verifier that programs pass before they are deployed or run, the memory map
// (read-only program region, gapped stack frames, heap, input regions) with the reference's
// address translation and access-violation errors, compute metering, BPF-to-BPF calls and the
// dispatch of syscalls registered by the embedding runtime.
//
// The package knows nothing of accounts, banks, loaders' instruction formats or RPC: the runtime
// builds an Executable (the ELF loader and assembler in this package produce one), registers its
// syscalls on a Loader, serializes the instruction input into Regions, and runs a VM. Syscalls get
// the VM back to translate guest pointers (VM.Translate), charge compute units (VM.Consume) and
// reach the runtime's context (VM.Host).
//
// Behaviour follows the reference VM (solana-sbpf 0.23, the version Agave and LiteSVM run): the
// exact semantics of each opcode per version, the order of checks, the compute unit accounting
// (one unit per instruction, lddw counted once, syscalls charging their own costs) and the text of
// every error, because those texts end up in program logs that clients compare.
//
// Memory map (a VM address is region<<32 | offset):
//
//	0x0_0000_0000  read-only data (v3+ only)
//	0x1_0000_0000  program: the ELF's read-only sections at their vaddr (v0-v2), bytecode (v3+)
//	0x2_0000_0000  stack: 64 frames of 4 KiB; in v0 each frame is followed by an unmapped 4 KiB gap
//	0x3_0000_0000  heap (32 KiB by default, up to 256 KiB)
//	0x4_0000_0000  input: the serialized instruction, built by the caller
//
// The tests hold the VM to the reference three ways: table tests pin each rule (sign extension
// of 32-bit results in v0, immediates sign-extended for 64-bit division, shift masks, lddw
// counted once, callx truncation, the call depth, the stack gaps and their straddle, every error
// text); a differential test runs hand-written and random programs of v0 to v3 in LiteSVM (npm
// litesvm, the reference VM) and here, and requires the same result, failure text, logs and
// compute units; fuzz targets run random programs and translations.
//
// Speed: the interpreter decodes a program once (the opcode byte replaced by a version-free
// operation, calls and syscalls resolved per loader) and runs it in a loop that calls no
// functions; VMs, stacks and heaps are pooled and cleared only as far as they were written.
package sbpf
