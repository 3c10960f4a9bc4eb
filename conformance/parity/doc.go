// Package parity holds the differential test of ledgerd's programs against the real on-chain programs: a corpus of
// transactions (parity_test.go, corpus_test.go) runs through ledgerd's runtime and through LiteSVM (the npm package
// litesvm, which executes the programs' sBPF builds; litesvm_run.mjs), and the outcomes, fees, return data and every
// resulting account must agree byte for byte. Logs and compute units are compared too: they must agree where only
// the system, compute budget and lookup table programs run, and are reported elsewhere, since LiteSVM bundles other
// builds of the token programs (p-token as SPL Token) than the ones whose logs ledgerd reproduces.
//
// TestELFParity (elf_test.go, elfcorpus_test.go, elfdiff_test.go) runs the same corpus and more with the real program
// builds (conformance/realelf) three ways: in LiteSVM, in ledgerd's VM with the same ELF files deployed, and through
// ledgerd's native programs. The VM must agree with LiteSVM in everything, logs and compute units included; the native
// programs with the real builds in outcomes and accounts, and the README lists where their logs and units differ.
package parity
