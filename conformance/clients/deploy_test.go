package clients

import (
	"os"
	"path/filepath"
	"testing"

	"ledgerd/conformance/npmdeps"
	"ledgerd/conformance/realelf"
	"ledgerd/impl/core"
	"ledgerd/impl/sbpf/sbpftest"
)

// helloELF is the program deploy/deploy.mjs deploys: it logs "hello".
const helloAsm = `
entrypoint:
	lddw r1, rodata+0
	mov64 r2, 5
	call sol_log_
	mov64 r0, 0
	exit
`

// TestDeployOverRPC deploys, runs, upgrades, extends and closes programs through @solana/web3.js over plain RPC as
// `solana program deploy --use-rpc` sends it (deploy/deploy.mjs), against a ledgerd started with the real SPL Memo
// 4.0.0 as an --upgradeable-program.
func TestDeployOverRPC(t *testing.T) {
	nodeBin := npmdeps.Require(t, "the deploy scenario needs Node.js 20.18+ and npm")
	npmdeps.Install(t, ".", ".npm-ci.lock")
	dir := t.TempDir()
	hello := filepath.Join(dir, "hello.so")
	if err := os.WriteFile(hello, sbpftest.MustELF(helloAsm, []byte("hello")), 0o644); err != nil {
		t.Fatal(err)
	}
	memo := filepath.Join(dir, "spl_memo-4.0.0.so")
	if err := os.WriteFile(memo, realelf.Programs(t)[realelf.Memo4].ELF, 0o644); err != nil {
		t.Fatal(err)
	}
	genesisProgram := core.KeypairFromSeed([32]byte{'m', 'e', 'm', 'o'}).PublicKey()
	authority := core.KeypairFromSeed([32]byte{'a', 'u', 't', 'h'}).PublicKey()

	n := startNode(t, buildNode(t), "--upgradeable-program", genesisProgram.String(), memo, authority.String())
	runScenarioEnv(t, nodeBin, filepath.Join("deploy", "deploy.mjs"), n,
		"DEPLOY_ELF="+hello, "MEMO_ELF="+memo, "GENESIS_PROGRAM="+genesisProgram.String(), "GENESIS_AUTHORITY="+authority.String())
}

// TestDeployWithKitLoaderV3 deploys, extends, upgrades, hands over and closes a program with @solana/kit and the
// kit client of the upgradeable loader, @solana-program/loader-v3 (deploy-kit/deploy_kit.mjs, its own npm
// packages).
func TestDeployWithKitLoaderV3(t *testing.T) {
	nodeBin := npmdeps.Require(t, "the kit deploy scenario needs Node.js 20.18+ and npm")
	npmdeps.Install(t, "deploy-kit", filepath.Join("deploy-kit", ".npm-ci.lock"))
	hello := filepath.Join(t.TempDir(), "hello.so")
	if err := os.WriteFile(hello, sbpftest.MustELF(helloAsm, []byte("hello")), 0o644); err != nil {
		t.Fatal(err)
	}
	n := startNode(t, buildNode(t))
	runScenarioEnv(t, nodeBin, filepath.Join("deploy-kit", "deploy_kit.mjs"), n, "DEPLOY_ELF="+hello)
}
