package rpc

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"ledgerd/generated/rpcapi"
	"ledgerd/impl/core"
	"ledgerd/impl/ledger"
	"ledgerd/impl/programs/system"
	"ledgerd/impl/runtime/computebudget"
	"ledgerd/impl/runtime/nonce"
)

func TestSlotsHeightsAndCounts(t *testing.T) {
	t.Parallel()
	s, l := newTestServer(t)
	ctx := context.Background()
	final := func() uint64 { _, _, f := l.Slots(); return f }
	processed := func() uint64 { p, _, _ := l.Slots(); return p }

	// Each level's slot lies between the ledger's view of it just before and just after the call.
	for _, c := range []struct {
		name  string
		level func() uint64
	}{
		{"finalized", final},
		{"confirmed", func() uint64 { _, c, _ := l.Slots(); return c }},
		{"processed", processed},
	} {
		lo := c.level()
		slot, err := s.GetSlot(ctx, &rpcapi.GetSlotParams{Config: rpcapi.Some(rpcapi.ContextConfig{Commitment: stPtr(rpcapi.Commitment(c.name))})})
		height, err2 := s.GetBlockHeight(ctx, &rpcapi.GetBlockHeightParams{Config: rpcapi.Some(rpcapi.ContextConfig{Commitment: stPtr(rpcapi.Commitment(c.name))})})
		hi := c.level()
		if err != nil || err2 != nil || slot < lo || slot > hi || height < slot || height > hi {
			// No slot is skipped, so block heights equal slots.
			t.Errorf("%s: slot %d, height %d (%v %v), want within [%d, %d]", c.name, slot, height, err, err2, lo, hi)
		}
	}
	if slot, err := s.GetSlot(ctx, &rpcapi.GetSlotParams{}); err != nil || slot > final() {
		t.Errorf("default commitment slot %d is past finalized %d (%v)", slot, final(), err)
	}
	lo := processed()
	retransmit, _ := s.GetMaxRetransmitSlot(ctx)
	shred, _ := s.GetMaxShredInsertSlot(ctx)
	if hi := processed(); retransmit < lo || retransmit > hi || shred < lo || shred > hi {
		t.Errorf("max retransmit %d, shred insert %d; processed went %d..%d", retransmit, shred, lo, hi)
	}
	if first, err := s.GetFirstAvailableBlock(ctx); err != nil || first != 0 {
		t.Errorf("first available block = %d, %v", first, err)
	}
	if first, err := s.MinimumLedgerSlot(ctx); err != nil || first != 0 {
		t.Errorf("minimum ledger slot = %d, %v", first, err)
	}

	// Every processed transaction counts, the node's own votes (one per slot) included: the count at a slot is
	// the number of transactions in the blocks up to it.
	count := func() uint64 {
		n, err := s.GetTransactionCount(ctx, &rpcapi.GetTransactionCountParams{Config: rpcapi.Some(rpcapi.ContextConfig{Commitment: stPtr(rpcapi.CommitmentProcessed)})})
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	before := count()
	payer := stFund(t, l, ledger.LamportsPerSOL)
	slot, _ := stRun(t, l, payer, []core.Instruction{system.Transfer(payer.PublicKey(), stKeypair(t).PublicKey(), ledger.LamportsPerSOL/10)})
	if got := count(); got < before+2 {
		t.Errorf("transaction count went from %d to %d over two transactions", before, got)
	}
	stWaitFrozen(t, l, slot)
	info, err := s.GetEpochInfo(ctx, &rpcapi.GetEpochInfoParams{Config: rpcapi.Some(rpcapi.ContextConfig{Commitment: stPtr(rpcapi.CommitmentConfirmed)})})
	if err != nil {
		t.Fatal(err)
	}
	var inBlocks uint64
	for i := uint64(0); i <= info.AbsoluteSlot; i++ {
		b, found, err := l.Block(i, ledger.Confirmed)
		if err != nil || !found {
			t.Fatalf("block %d: %v", i, err)
		}
		inBlocks += uint64(len(b.Signatures))
	}
	if info.TransactionCount == nil || *info.TransactionCount != inBlocks || *info.TransactionCount < before+2 || info.Epoch != 0 ||
		info.SlotIndex != info.AbsoluteSlot || info.BlockHeight != info.AbsoluteSlot || info.SlotsInEpoch != 432_000 {
		t.Errorf("epoch info = %+v (count %v), %v; %d transactions in blocks 0..%d", info, info.TransactionCount, err, inBlocks, info.AbsoluteSlot)
	}
	sched, _ := s.GetEpochSchedule(ctx)
	stCheckJSON(t, "default epoch schedule", sched, `{"slotsPerEpoch":432000,"leaderScheduleSlotOffset":432000,"warmup":false,"firstNormalEpoch":0,"firstNormalSlot":0}`)
}

func TestEpochInfoWithWarmup(t *testing.T) {
	t.Parallel()
	s, l := stServer(t, ledger.GenesisOptions{SlotsPerEpoch: 64, Warmup: true}, nil)
	ctx := context.Background()
	sched, _ := s.GetEpochSchedule(ctx)
	stCheckJSON(t, "warmup schedule", sched, `{"slotsPerEpoch":64,"leaderScheduleSlotOffset":64,"warmup":true,"firstNormalEpoch":1,"firstNormalSlot":32}`)

	deadline := time.Now().Add(5 * time.Second)
	for p, _, _ := l.Slots(); p < 40; p, _, _ = l.Slots() {
		if time.Now().After(deadline) {
			t.Fatal("the ledger did not reach slot 40")
		}
		time.Sleep(5 * time.Millisecond)
	}
	for _, c := range []string{"finalized", "processed"} {
		info, err := s.GetEpochInfo(ctx, &rpcapi.GetEpochInfoParams{Config: rpcapi.Some(rpcapi.ContextConfig{Commitment: stPtr(rpcapi.Commitment(c))})})
		if err != nil {
			t.Fatal(err)
		}
		// Epoch 0 is slots 0..31; then epochs of 64 slots. Each block from slot 1 on holds the node's vote for
		// its parent, and nothing else here.
		want := rpcapi.EpochInfo{AbsoluteSlot: info.AbsoluteSlot, BlockHeight: info.AbsoluteSlot, Epoch: 0, SlotIndex: info.AbsoluteSlot, SlotsInEpoch: 32,
			TransactionCount: stPtr(info.AbsoluteSlot)}
		if info.AbsoluteSlot >= 32 {
			want.Epoch, want.SlotIndex, want.SlotsInEpoch = 1+(info.AbsoluteSlot-32)/64, (info.AbsoluteSlot-32)%64, 64
		}
		if c == "processed" && *info.TransactionCount == info.AbsoluteSlot-1 {
			// The working bank is visible a moment before the node's vote lands in it.
			want.TransactionCount = info.TransactionCount
		}
		if info.AbsoluteSlot < 36 {
			t.Errorf("%s slot %d, the ledger was past 40", c, info.AbsoluteSlot)
		}
		b, _ := json.Marshal(want)
		stCheckJSON(t, c+" epoch info", info, string(b))
	}
}

func TestMinContextSlotEverywhere(t *testing.T) {
	t.Parallel()
	s, l := newTestServer(t)
	ctx := context.Background()
	p, _, _ := l.Slots()
	minSlot := p + 10_000
	cc := func(c string) *rpcapi.ContextConfig {
		return &rpcapi.ContextConfig{Commitment: stPtr(rpcapi.Commitment(c)), MinContextSlot: stPtr(minSlot)}
	}
	hash := l.Bank(ledger.Finalized).LastBlockhash().String()
	m, err := core.CompileLegacyMessage(l.Genesis.Faucet.PublicKey(), []core.Instruction{system.Transfer(l.Genesis.Faucet.PublicKey(), stKeypair(t).PublicKey(), 1)},
		l.Bank(ledger.Finalized).LastBlockhash())
	if err != nil {
		t.Fatal(err)
	}
	msg := base64.StdEncoding.EncodeToString(m.Serialize())
	for name, call := range map[string]func() error{
		rpcapi.MethodGetSlot: func() error {
			_, err := s.GetSlot(ctx, &rpcapi.GetSlotParams{Config: rpcapi.OptOf(cc("processed"))})
			return err
		},
		rpcapi.MethodGetBlockHeight: func() error {
			_, err := s.GetBlockHeight(ctx, &rpcapi.GetBlockHeightParams{Config: rpcapi.OptOf(cc("confirmed"))})
			return err
		},
		rpcapi.MethodGetEpochInfo: func() error {
			_, err := s.GetEpochInfo(ctx, &rpcapi.GetEpochInfoParams{Config: rpcapi.OptOf(cc("finalized"))})
			return err
		},
		rpcapi.MethodGetTransactionCount: func() error {
			_, err := s.GetTransactionCount(ctx, &rpcapi.GetTransactionCountParams{Config: rpcapi.OptOf(cc("processed"))})
			return err
		},
		rpcapi.MethodGetLatestBlockhash: func() error {
			_, err := s.GetLatestBlockhash(ctx, &rpcapi.GetLatestBlockhashParams{Config: rpcapi.OptOf(cc("processed"))})
			return err
		},
		rpcapi.MethodIsBlockhashValid: func() error {
			_, err := s.IsBlockhashValid(ctx, &rpcapi.IsBlockhashValidParams{Blockhash: hash, Config: rpcapi.OptOf(cc("processed"))})
			return err
		},
		rpcapi.MethodGetFeeForMessage: func() error {
			_, err := s.GetFeeForMessage(ctx, &rpcapi.GetFeeForMessageParams{Message: msg, Config: rpcapi.OptOf(cc("processed"))})
			return err
		},
		rpcapi.MethodGetFeeCalculatorForBlockhash: func() error {
			_, err := s.GetFeeCalculatorForBlockhash(ctx, &rpcapi.GetFeeCalculatorForBlockhashParams{Blockhash: core.MustParseHash(hash), Config: rpcapi.OptOf(cc("processed"))})
			return err
		},
	} {
		stWantMinContextSlot(t, name, call(), minSlot)
	}
}

func TestLatestBlockhashAndDeprecatedFees(t *testing.T) {
	t.Parallel()
	s, l := newTestServer(t)
	ctx := context.Background()
	payer := stFund(t, l, ledger.LamportsPerSOL)
	for _, c := range []string{"processed", "confirmed", "finalized"} {
		r, err := s.GetLatestBlockhash(ctx, &rpcapi.GetLatestBlockhashParams{Config: rpcapi.Some(rpcapi.ContextConfig{Commitment: stPtr(rpcapi.Commitment(c))})})
		if err != nil {
			t.Fatal(err)
		}
		// The bank's own blockhash is the newest of its queue: valid for 150 more blocks (heights equal slots).
		if r.Value.LastValidBlockHeight != r.Context.Slot+150 {
			t.Errorf("%s: lastValidBlockHeight %d at slot %d", c, r.Value.LastValidBlockHeight, r.Context.Slot)
		}
		// At processed the check could race the ledger: while a slot freezes, the processed bank already
		// shows its own hash but its queue does not hold it yet (the producer sets the hash before it registers it).
		if c != "processed" {
			v, err := s.IsBlockhashValid(ctx, &rpcapi.IsBlockhashValidParams{Blockhash: r.Value.Blockhash, Config: rpcapi.Some(rpcapi.ContextConfig{Commitment: stPtr(rpcapi.Commitment(c))})})
			if err != nil || !v.Value {
				t.Errorf("%s: isBlockhashValid(%s) = %+v, %v", c, r.Value.Blockhash, v, err)
			}
			fc, err := s.GetFeeCalculatorForBlockhash(ctx, &rpcapi.GetFeeCalculatorForBlockhashParams{Blockhash: core.MustParseHash(string(r.Value.Blockhash)),
				Config: rpcapi.Some(rpcapi.ContextConfig{Commitment: stPtr(rpcapi.Commitment(c))})})
			if err != nil || !stSameJSON(t, fc.Value, `{"feeCalculator":{"lamportsPerSignature":5000}}`) {
				t.Errorf("%s: fee calculator of the latest blockhash = %+v, %v", c, fc.Value, err)
			}
		}
		// A transaction may use it.
		tx := core.NewTransferTx(payer, stKeypair(t).PublicKey(), ledger.LamportsPerSOL/100, core.MustParseHash(r.Value.Blockhash))
		if ex, err := l.Execute(ctx, tx); err != nil || ex.Result.Err != nil {
			t.Errorf("%s: a transfer with the latest blockhash failed: %v %v", c, err, ex.Result.Err)
		}
	}

	unknown := core.HashBytes([]byte("never a blockhash")).String()
	v, err := s.IsBlockhashValid(ctx, &rpcapi.IsBlockhashValidParams{Blockhash: unknown})
	if err != nil || v.Value {
		t.Errorf("unknown blockhash valid: %+v, %v", v, err)
	}
	fc, err := s.GetFeeCalculatorForBlockhash(ctx, &rpcapi.GetFeeCalculatorForBlockhashParams{Blockhash: core.MustParseHash(unknown)})
	if err != nil || !stSameJSON(t, fc, fmt.Sprintf(`{"context":{"slot":%d,"apiVersion":%q},"value":null}`, fc.Context.Slot, Version)) {
		t.Errorf("fee calculator of an unknown blockhash = %+v, %v", fc, err)
	}
	for _, tc := range []struct{ hash, message string }{
		{"0OIl", "Invalid"}, {"", "WrongSize"}, {strings.Repeat("1", 45), "WrongSize"}, {"1111", "WrongSize"},
	} {
		_, err := s.IsBlockhashValid(ctx, &rpcapi.IsBlockhashValidParams{Blockhash: tc.hash})
		stWantError(t, "isBlockhashValid "+tc.hash, err, -32602, tc.message)
		_, err = viaJSON(s.GetFeeCalculatorForBlockhash, tc.hash)
		stWantError(t, "getFeeCalculatorForBlockhash "+tc.hash, err, -32602, "Invalid param: "+tc.message) // a key param, unlike isBlockhashValid's
	}

	fees, err := s.GetFees(ctx, &rpcapi.GetFeesParams{})
	if err != nil {
		t.Fatal(err)
	}
	stCheckJSON(t, rpcapi.MethodGetFees, fees.Value, fmt.Sprintf(`{"blockhash":%q,"feeCalculator":{"lamportsPerSignature":5000},"lastValidSlot":%d,"lastValidBlockHeight":%d}`,
		l.Bank(ledger.Finalized).LastBlockhash(), fees.Context.Slot+300, fees.Context.Slot+150))
	if fees.Value.Blockhash != stBlockhashAt(t, l, fees.Context.Slot) {
		t.Errorf("getFees blockhash %s is not the hash of block %d", fees.Value.Blockhash, fees.Context.Slot)
	}
	rb, err := s.GetRecentBlockhash(ctx, &rpcapi.GetRecentBlockhashParams{Config: rpcapi.Some(rpcapi.RequiredCommitmentConfig{Commitment: "confirmed"})})
	if err != nil || rb.Value.FeeCalculator.LamportsPerSignature != 5000 || rb.Value.Blockhash != stBlockhashAt(t, l, rb.Context.Slot) {
		t.Errorf("getRecentBlockhash = %+v, %v", rb, err)
	}
	gov, err := s.GetFeeRateGovernor(ctx)
	if err != nil {
		t.Fatal(err)
	}
	stCheckJSON(t, rpcapi.MethodGetFeeRateGovernor, gov.Value, `{"feeRateGovernor":{"burnPercent":50,"maxLamportsPerSignature":100000,"minLamportsPerSignature":5000,"targetLamportsPerSignature":10000,"targetSignaturesPerSlot":20000}}`)
}

// stBlockhashAt is the blockhash of the stored block of slot.
func stBlockhashAt(t *testing.T, l *ledger.Ledger, slot uint64) string {
	t.Helper()
	info, ok, err := l.Block(slot, ledger.Confirmed)
	if err != nil || !ok {
		t.Fatalf("block %d: %v %v", slot, ok, err)
	}
	return info.Blockhash.String()
}

func TestBlockhashExpiry(t *testing.T) {
	t.Parallel()
	s, l := newTestServer(t)
	ctx := context.Background()
	r, err := s.GetLatestBlockhash(ctx, &rpcapi.GetLatestBlockhashParams{})
	if err != nil {
		t.Fatal(err)
	}
	h := core.MustParseHash(r.Value.Blockhash)
	m, err := core.CompileLegacyMessage(l.Genesis.Faucet.PublicKey(), []core.Instruction{system.Transfer(l.Genesis.Faucet.PublicKey(), stKeypair(t).PublicKey(), 1)}, h)
	if err != nil {
		t.Fatal(err)
	}
	msg := base64.StdEncoding.EncodeToString(m.Serialize())
	processed := &rpcapi.ContextConfig{Commitment: stPtr(rpcapi.CommitmentProcessed)}
	check := func(wantValid bool) {
		t.Helper()
		v, err := s.IsBlockhashValid(ctx, &rpcapi.IsBlockhashValidParams{Blockhash: r.Value.Blockhash, Config: rpcapi.OptOf(processed)})
		if err != nil || v.Value != wantValid {
			t.Errorf("isBlockhashValid at %d = %+v, %v; want %v", v.Context.Slot, v.Value, err, wantValid)
		}
		// The fee queries read the whole blockhash queue (300 hashes), as the reference does: a hash too old to
		// send with still has its fee rate.
		fee, err := s.GetFeeForMessage(ctx, &rpcapi.GetFeeForMessageParams{Message: msg, Config: rpcapi.OptOf(processed)})
		if err != nil || fee.Value == nil || *fee.Value != 5000 {
			t.Errorf("getFeeForMessage at %d = %v, %v", fee.Context.Slot, fee.Value, err)
		}
		fc, err := s.GetFeeCalculatorForBlockhash(ctx, &rpcapi.GetFeeCalculatorForBlockhashParams{Blockhash: core.MustParseHash(string(r.Value.Blockhash)), Config: rpcapi.OptOf(processed)})
		if err != nil || fc.Value == nil {
			t.Errorf("getFeeCalculatorForBlockhash at %d = %+v, %v", fc.Context.Slot, fc.Value, err)
		}
	}
	check(true)
	// Wait until the processed bank is a few blocks past the last valid height.
	deadline := time.Now().Add(20 * time.Second)
	for l.Bank(ledger.Processed).BlockHeight < r.Value.LastValidBlockHeight+3 {
		if time.Now().After(deadline) {
			t.Fatal("the ledger did not move 150 blocks on")
		}
		time.Sleep(20 * time.Millisecond)
	}
	check(false)
}

func TestGetFeeForMessage(t *testing.T) {
	t.Parallel()
	s, l := newTestServer(t)
	ctx := context.Background()
	payer := stFund(t, l, 100*ledger.LamportsPerSOL)
	to := stKeypair(t).PublicKey()
	transfer := system.Transfer(payer.PublicKey(), to, ledger.LamportsPerSOL/100)

	feeOf := func(m *core.Message) *uint64 {
		t.Helper()
		r, err := s.GetFeeForMessage(ctx, &rpcapi.GetFeeForMessageParams{Message: base64.StdEncoding.EncodeToString(m.Serialize()),
			Config: rpcapi.Some(rpcapi.ContextConfig{Commitment: stPtr(rpcapi.CommitmentProcessed)})})
		if err != nil {
			t.Fatal(err)
		}
		return r.Value
	}
	second := stKeypair(t)
	for _, tc := range []struct {
		name    string
		ixs     []core.Instruction
		signers []core.Keypair
		want    uint64
	}{
		{"one signature", []core.Instruction{transfer}, nil, 5000},
		{"two signatures", []core.Instruction{system.CreateAccount(payer.PublicKey(), second.PublicKey(), l.Rent().MinimumBalance(0), 0, core.SystemProgramID)},
			[]core.Keypair{second}, 10_000},
		// 1,000,000 micro-lamports per unit over 200,000 units.
		{"price and limit", []core.Instruction{computebudget.SetComputeUnitLimit(200_000), computebudget.SetComputeUnitPrice(1_000_000), transfer}, nil, 205_000},
		// The default limit: 3,000 units for each of the two builtin instructions.
		{"price only", []core.Instruction{computebudget.SetComputeUnitPrice(1_000_000), transfer}, nil, 11_000},
		{"rounded up", []core.Instruction{computebudget.SetComputeUnitLimit(1000), computebudget.SetComputeUnitPrice(1), transfer}, nil, 5001},
	} {
		h := stRecentHash(l)
		m, err := core.CompileLegacyMessage(payer.PublicKey(), tc.ixs, h)
		if err != nil {
			t.Fatal(err)
		}
		got := feeOf(m)
		if got == nil || *got != tc.want {
			t.Errorf("%s: fee %v, want %d", tc.name, got, tc.want)
			continue
		}
		// The runtime charges the same.
		tx, err := core.NewSignedTransaction(m, append([]core.Keypair{payer}, tc.signers...)...)
		if err != nil {
			t.Fatal(err)
		}
		ex, err := l.Execute(ctx, tx)
		if err != nil || ex.Result.Err != nil || ex.Result.Fee != *got {
			t.Errorf("%s: executed with fee %d (%v %v), getFeeForMessage said %d", tc.name, ex.Result.Fee, err, ex.Result.Err, *got)
		}
	}

	// Invalid compute budget instructions leave the signature fee only, as the reference's fee does.
	h := stRecentHash(l)
	m, _ := core.CompileLegacyMessage(payer.PublicKey(), []core.Instruction{computebudget.SetComputeUnitPrice(5), computebudget.SetComputeUnitPrice(7), transfer}, h)
	if got := feeOf(m); got == nil || *got != 5000 {
		t.Errorf("duplicate price instructions: fee %v, want 5000", got)
	}
	m, _ = core.CompileLegacyMessage(payer.PublicKey(), []core.Instruction{transfer}, core.HashBytes([]byte("unknown")))
	if got := feeOf(m); got != nil {
		t.Errorf("unknown blockhash: fee %d, want null", *got)
	}

	// A durable transaction: its blockhash is the nonce's value.
	nonceKey := stKeypair(t)
	slot, _ := stRun(t, l, payer, system.CreateNonceAccount(payer.PublicKey(), nonceKey.PublicKey(), payer.PublicKey(), l.Rent().MinimumBalance(nonce.Size)), nonceKey)
	stWaitFrozen(t, l, slot)
	acct, _ := l.Bank(ledger.Processed).GetAccount(nonceKey.PublicKey())
	state, err := nonce.Decode(acct.Data)
	if err != nil || !state.Initialized {
		t.Fatalf("nonce account: %+v, %v", state, err)
	}
	m, _ = core.CompileLegacyMessage(payer.PublicKey(), []core.Instruction{system.AdvanceNonceAccount(nonceKey.PublicKey(), payer.PublicKey()), transfer},
		state.Data.DurableNonce)
	if got := feeOf(m); got == nil || *got != 5000 {
		t.Errorf("durable nonce message: fee %v, want 5000", got)
	}
	other := stKeypair(t)
	m, _ = core.CompileLegacyMessage(payer.PublicKey(), []core.Instruction{system.AdvanceNonceAccount(nonceKey.PublicKey(), other.PublicKey()), transfer},
		state.Data.DurableNonce)
	if got := feeOf(m); got != nil {
		t.Errorf("nonce message signed by a stranger: fee %d, want null", *got)
	}

	// Errors.
	valid, _ := core.CompileLegacyMessage(payer.PublicKey(), []core.Instruction{transfer}, h)
	outOfBounds := *valid
	outOfBounds.Header.NumRequiredSignatures = 9
	table := stKeypair(t).PublicKey()
	v0, err := core.CompileV0Message(payer.PublicKey(), []core.Instruction{transfer}, []core.AddressLookupTableAccount{{Key: table, Addresses: []core.Pubkey{to}}}, h)
	if err != nil || len(v0.AddressTableLookups) != 1 {
		t.Fatalf("v0 message: %+v, %v", v0, err)
	}
	v0WrongOwner, _ := core.CompileV0Message(payer.PublicKey(), []core.Instruction{transfer},
		[]core.AddressLookupTableAccount{{Key: l.Genesis.Faucet.PublicKey(), Addresses: []core.Pubkey{to}}}, h)
	serialized := valid.Serialize()
	for _, tc := range []struct{ name, message, want string }{
		{"not base64", "!!!!", "invalid base64 encoding: "},
		{"truncated", base64.StdEncoding.EncodeToString(serialized[:10]),
			"failed to deserialize solana_message::versions::VersionedMessage: io error: failed to fill whole buffer"},
		{"too large", strings.Repeat("A", 1648), "base64 encoded solana_message::versions::VersionedMessage too large: 1648 bytes (max: encoded/raw 1644/1232)"},
		{"unsanitary", base64.StdEncoding.EncodeToString(outOfBounds.Serialize()), "invalid transaction message: index out of bounds"},
		{"missing table", base64.StdEncoding.EncodeToString(v0.Serialize()),
			"invalid transaction message: Attempted to lookup addresses from a table that does not exist"},
		{"table not owned by the program", base64.StdEncoding.EncodeToString(v0WrongOwner.Serialize()),
			"invalid transaction message: Attempted to lookup addresses from an account owned by the wrong program"},
	} {
		_, err := s.GetFeeForMessage(ctx, &rpcapi.GetFeeForMessageParams{Message: tc.message})
		if err == nil {
			t.Errorf("%s: no error", tc.name)
			continue
		}
		if e := stRPCError(t, err); e.Code != -32602 || !strings.HasPrefix(e.Message, tc.want) {
			t.Errorf("%s: %d %q, want -32602 %q", tc.name, e.Code, e.Message, tc.want)
		}
	}
}

func TestRecentPrioritizationFees(t *testing.T) {
	t.Parallel()
	s, l := newTestServer(t)
	ctx := context.Background()
	payer := stFund(t, l, 10*ledger.LamportsPerSOL)
	hot := stKeypair(t).PublicKey()
	slot, _ := stRun(t, l, payer, []core.Instruction{computebudget.SetComputeUnitPrice(1234), system.Transfer(payer.PublicKey(), hot, ledger.LamportsPerSOL/100)})
	stWaitFrozen(t, l, slot)

	fees, err := s.GetRecentPrioritizationFees(ctx, &rpcapi.GetRecentPrioritizationFeesParams{Addresses: rpcapi.Some([]core.Pubkey{hot})})
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for i, f := range fees {
		if i > 0 && f.Slot <= fees[i-1].Slot {
			t.Errorf("fees not in slot order: %+v", fees)
		}
		if f.Slot == slot {
			found = true
			stCheckJSON(t, "fee of the slot", f, fmt.Sprintf(`{"slot":%d,"prioritizationFee":1234}`, slot))
		}
	}
	if !found {
		t.Errorf("slot %d missing from %+v", slot, fees)
	}
	if all, err := s.GetRecentPrioritizationFees(ctx, &rpcapi.GetRecentPrioritizationFeesParams{}); err != nil || len(all) == 0 || len(all) > 150 {
		t.Errorf("fees without accounts: %d entries, %v", len(all), err)
	}
	many := make([]string, 129)
	for i := range many {
		many[i] = hot.String()
	}
	_, err = viaJSON(s.GetRecentPrioritizationFees, many)
	stWantError(t, "129 keys", err, -32602, "Too many inputs provided; max 128")
	_, err = viaJSON(s.GetRecentPrioritizationFees, []string{"bad0"})
	stWantError(t, "bad key", err, -32602, "Invalid param: Invalid")
}

func TestRecentPerformanceSamples(t *testing.T) {
	t.Parallel()
	s, _ := newTestServer(t)
	ctx := context.Background()
	// The first sample closes after 60 s of slots, so a new ledger has none.
	for _, limit := range []*uint64{nil, stPtr(uint64(0)), stPtr(uint64(720))} {
		got, err := s.GetRecentPerformanceSamples(ctx, &rpcapi.GetRecentPerformanceSamplesParams{Limit: rpcapi.OptOf(limit)})
		if err != nil || !stSameJSON(t, got, `[]`) {
			t.Errorf("limit %v: %+v, %v", limit, got, err)
		}
	}
	_, err := s.GetRecentPerformanceSamples(ctx, &rpcapi.GetRecentPerformanceSamplesParams{Limit: rpcapi.OptOf(stPtr(uint64(721)))})
	stWantError(t, "limit 721", err, -32602, "Invalid limit; max 720")
}
