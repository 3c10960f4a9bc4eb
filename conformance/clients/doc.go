// Package clients holds the real-client suite: scenarios written against @solana/web3.js v1 and @solana/kit (the
// *.mjs files beside this one, with their npm lockfile), and a test that builds ledgerd, starts it, and runs each
// scenario against it with node; and a scenario written in Go with github.com/gagliardetto/solana-go
// (solanago_test.go), run against its own started ledgerd. The scenarios assert what a real Solana node also does, so
// they run unchanged against solana-test-validator (see README.md).
package clients
