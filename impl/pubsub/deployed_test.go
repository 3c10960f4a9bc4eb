package pubsub

import (
	"context"
	"encoding/json"
	"slices"
	"testing"
	"time"

	"ledgerd/generated/rpcapi"
	"ledgerd/impl/core"
	"ledgerd/impl/ledger"
	"ledgerd/impl/sbpf/sbpftest"
)

// A logsSubscribe mentioning a deployed (sBPF) program hears of the transactions that invoke it, with the
// `Program data:` lines its sol_log_data calls write (Anchor's events), as the reference sends them.
func TestLogsMentionDeployedProgram(t *testing.T) {
	elf, err := sbpftest.ELF(`
entrypoint:
	lddw r6, event
	mov64 r7, r10
	sub64 r7, 64
	stxdw [r7+0], r6
	stdw [r7+8], 5
	mov64 r1, r7
	mov64 r2, 1
	call sol_log_data
	mov64 r0, 0
	exit
.rodata
event: .ascii "event"
`, nil)
	if err != nil {
		t.Fatal(err)
	}
	prog := core.Pubkey{0xde, 0x91}
	l, err := ledger.Open(ledger.Config{Dir: t.TempDir(), SlotDuration: 10 * time.Millisecond, FinalityDepth: 2,
		StoreInMemory: true, Paused: true, Genesis: ledger.GenesisOptions{Accounts: []ledger.GenesisAccount{{
			Pubkey: prog, Lamports: 1_000_000_000, Owner: core.BPFLoaderProgramID, Executable: true, Data: elf}}}})
	if err != nil {
		t.Fatal(err)
	}
	h := newHub(t, l, Config{})
	l.Start()
	c := newConn()
	id, err := h.Logs(c, &rpcapi.LogsSubscribeParams{Filter: rpcapi.LogsFilter{Mentions: &rpcapi.LogsFilterMentions{
		Mentions: []string{prog.String()}}}, Config: rpcapi.Some(rpcapi.CommitmentConfig{Commitment: ptr(rpcapi.CommitmentConfirmed)})})
	if err != nil {
		t.Fatal(err)
	}
	tx, err := core.NewTransaction(l.Genesis.Faucet.PublicKey(), []core.Instruction{{ProgramID: prog}},
		l.Bank(ledger.Processed).LastBlockhash(), l.Genesis.Faucet)
	if err != nil {
		t.Fatal(err)
	}
	ex, err := l.Execute(context.Background(), tx)
	if err != nil || ex.Result.Err != nil {
		t.Fatalf("invoking the deployed program: %v %+v", err, ex)
	}
	n := c.wait(t, rpcapi.MethodLogsNotification, id, nil)
	var got rpcapi.LogsNotification
	if err := json.Unmarshal(n.params.Result, &got); err != nil {
		t.Fatal(err)
	}
	want := []string{"Program " + prog.String() + " invoke [1]", "Program data: ZXZlbnQ="}
	if got.Value.Signature != rpcapi.Signature(tx.Signature().String()) || len(got.Value.Logs) < 2 ||
		!slices.Equal(got.Value.Logs[:2], want) {
		t.Errorf("notification %s %q, want %s starting %q", got.Value.Signature, got.Value.Logs, tx.Signature(), want)
	}
}
