// Package elfbench measures ledgerd executing a real on-chain program build next to LiteSVM (npm litesvm@1.5.0, the
// reference's runtime compiled to machine code) executing the same build on the same transactions, in one benchmark
// run: BenchmarkTokenTransferVsLiteSVM times an SPL Token 3.5.0 transfer through ledgerd's runtime (the call the node
// makes for each transaction) and reports LiteSVM's time per transaction and the ratio beside it.
//
//	go test -run '^$' -bench TokenTransferVsLiteSVM ./conformance/elfbench
//
// The package has no code of its own outside its benchmark; node and npm are needed (the benchmark skips without
// them), and the npm packages are those conformance/parity pins.
package elfbench
