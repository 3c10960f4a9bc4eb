package node

import (
	"bytes"
	"encoding/base64"
	"strings"
	"testing"

	"ledgerd/generated/rpcapi"
	"ledgerd/impl/core"
	"ledgerd/impl/ledger"
	"ledgerd/impl/sbpf/sbpftest"
)

// invokeBody is a transaction paid by payer invoking program with no accounts.
func invokeBody(t *testing.T, method string, payer core.Keypair, program core.Pubkey, hash core.Hash) string {
	t.Helper()
	tx, err := core.NewTransaction(payer.PublicKey(), []core.Instruction{{ProgramID: program}}, hash, payer)
	if err != nil {
		t.Fatal(err)
	}
	cfg := `{"encoding":"base64","preflightCommitment":"processed"}`
	if method == rpcapi.MethodSimulateTransaction {
		cfg = `{"encoding":"base64","commitment":"processed"}`
	}
	return `{"jsonrpc":"2.0","id":1,"method":"` + method + `","params":["` + base64.StdEncoding.EncodeToString(tx.Serialize()) + `",` + cfg + `]}`
}

// A program written with surfnet_writeProgram in chunks (the ELF is larger than a transaction) is not deployed
// in the slot it was written in and runs from the next one; surfnet_cloneProgramAccount copies it to an address
// that runs at once; surfnet_setProgramAuthority rewrites the authority in the ProgramData header.
func TestProgramCheatsOverJSONRPC(t *testing.T) {
	n := startCheatNode(t, Config{BlockProduction: ledger.ProduceOnRequest})
	url := n.HTTPURL
	elf, err := sbpftest.ELF(`
entrypoint:
	lddw r1, msg
	mov64 r2, 2
	call sol_log_
	mov64 r0, 0
	exit
.rodata
msg: .ascii "hi"
	.zero 3000
`, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(elf) <= core.PacketDataSize {
		t.Fatalf("the ELF (%d bytes) should not fit a transaction", len(elf))
	}
	payer := fundedKeypair(t, url)
	program := core.MustParsePubkey(mustKey(t))
	// Chunks out of order, as a client retrying one may send them.
	third := len(elf) / 3
	for _, c := range [][2]int{{2 * third, len(elf)}, {0, third}, {third, 2 * third}} {
		mustCall(t, url, `{"jsonrpc":"2.0","id":1,"method":"surfnet_writeProgram","params":["`+program.String()+`","`+hexOf(elf[c[0]:c[1]])+`",`+itoa(uint64(c[0]))+`]}`)
	}
	hash := latestBlockhash(t, url)
	if r := mustCall(t, url, invokeBody(t, rpcapi.MethodSimulateTransaction, payer, program, hash)); !strings.Contains(string(r), "Program is not deployed") {
		t.Fatalf("invoked in the slot it was written in: %s", r)
	}
	mustCall(t, url, `{"jsonrpc":"2.0","id":1,"method":"ledgerd_advanceSlots","params":[1]}`)
	hash = latestBlockhash(t, url)
	r := mustCall(t, url, invokeBody(t, rpcapi.MethodSimulateTransaction, payer, program, hash))
	if !strings.Contains(string(r), `"err":null`) || !strings.Contains(string(r), "Program log: hi") {
		t.Fatalf("invoked in the next slot: %s", r)
	}
	mustCall(t, url, invokeBody(t, rpcapi.MethodSendTransaction, payer, program, hash))

	clone := core.MustParsePubkey(mustKey(t))
	mustCall(t, url, `{"jsonrpc":"2.0","id":1,"method":"surfnet_cloneProgramAccount","params":["`+program.String()+`","`+clone.String()+`"]}`)
	r = mustCall(t, url, invokeBody(t, rpcapi.MethodSimulateTransaction, payer, clone, hash))
	if !strings.Contains(string(r), `"err":null`) || !strings.Contains(string(r), "Program "+clone.String()+" invoke [1]") || !strings.Contains(string(r), "Program log: hi") {
		t.Fatalf("the clone invoked: %s", r)
	}
	mustCall(t, url, invokeBody(t, rpcapi.MethodSendTransaction, payer, clone, hash))

	pd, _, _ := core.FindProgramAddress([][]byte{program[:]}, core.BPFLoaderUpgradeableProgramID)
	auth := core.MustParsePubkey(mustKey(t))
	mustCall(t, url, `{"jsonrpc":"2.0","id":1,"method":"surfnet_setProgramAuthority","params":["`+program.String()+`","`+auth.String()+`"]}`)
	if _, d, ok := accountAt(t, url, pd.String(), "processed"); !ok || d[12] != 1 || !bytes.Equal(d[13:45], auth[:]) || !bytes.Equal(d[45:], elf) {
		t.Fatalf("ProgramData after setProgramAuthority: %v %x", ok, d[:min(len(d), 45)])
	}
	mustCall(t, url, `{"jsonrpc":"2.0","id":1,"method":"surfnet_setProgramAuthority","params":["`+program.String()+`"]}`)
	if _, d, ok := accountAt(t, url, pd.String(), "processed"); !ok || !bytes.Equal(d[12:45], make([]byte, 33)) || !bytes.Equal(d[45:], elf) {
		t.Fatalf("ProgramData after removing the authority: %v %x", ok, d[:min(len(d), 45)])
	}
	if _, e := rawCall(t, url, `{"jsonrpc":"2.0","id":1,"method":"surfnet_setProgramAuthority","params":["`+payer.PublicKey().String()+`"]}`); e == nil || e.Code != -32602 {
		t.Fatalf("setProgramAuthority of a wallet: %+v", e)
	}
}
