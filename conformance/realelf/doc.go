// Package realelf gives tests the real on-chain program builds, and a runtime that executes them as the reference
// does, without committing either: both come from npm litesvm@1.5.0, installed at test time from the lockfile of
// conformance/parity.
//
// The builds (SPL Token 3.5.0, p-token, Token-2022 11.0.0, Memo 1.0.0 and 4.0.0, Associated Token Account 1.1.1,
// Address Lookup Table, Stake 5.0.0) are embedded whole in LiteSVM's native module: Scan finds every sBPF ELF64 in
// it, Identify names each by strings only it carries and checks its sha256 against the pinned one, so an upgraded
// package is an error rather than a silent change of what the tests run. Programs(t) does it all once per process
// and caches the files beside the install.
//
// LiteSVM(t).Run executes scenarios (programs under their loaders, accounts, transactions) through LiteSVM with the
// parity test's script, litesvm_run.mjs, and returns per transaction the error as the reference's JSON, the logs, the
// compute units, the return data and the accounts afterwards: the values ledgerd's VM must reproduce.
//
// cmd/realelf (make real-programs) writes the builds to files for starting ledgerd with them.
package realelf
