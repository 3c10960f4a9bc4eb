package alt_test

import (
	"slices"
	"strings"
	"testing"

	"ledgerd/impl/core"
	"ledgerd/impl/core/sysvar"
	"ledgerd/impl/programs/alt"
	"ledgerd/impl/programs/system"
	"ledgerd/impl/runtime"
)

// harness is a bank stand-in: accounts, a slot and its SlotHashes (the slots before it).
type harness struct {
	t     *testing.T
	env   *runtime.Env
	accts runtime.MapSource
}

func newHarness(t *testing.T, slot uint64) *harness {
	reg := runtime.NewRegistry()
	reg.Add(system.Module)
	reg.Add(alt.Module)
	h := &harness{t: t, env: runtime.DefaultEnv(core.HashBytes([]byte("alt")), reg), accts: runtime.MapSource{
		core.SystemProgramID: {Lamports: 1, Owner: core.NativeLoaderProgramID, Executable: true, Data: []byte("system_program")},
		alt.ProgramID:        {Lamports: 1, Owner: core.NativeLoaderProgramID, Executable: true, Data: []byte("address_lookup_table_program")},
	}}
	h.setSlot(slot)
	return h
}

// setSlot moves the bank to slot, with every earlier slot (up to 512 of them) in SlotHashes.
func (h *harness) setSlot(slot uint64) {
	env := *h.env
	env.Clock.Slot = slot
	var hashes sysvar.SlotHashes
	for s := slot; s > 0 && len(hashes) < sysvar.SlotHashesMaxEntries; s-- {
		hashes = append(hashes, sysvar.SlotHash{Slot: s - 1, Hash: core.HashBytes([]byte{byte(s)})})
	}
	env.SysvarData = map[core.Pubkey][]byte{core.SysvarSlotHashesID: hashes.AccountData()}
	h.env = &env
}

func (h *harness) fund(k core.Pubkey, lamports uint64) {
	h.accts[k] = runtime.Account{Lamports: lamports, Owner: core.SystemProgramID}
}

// exec signs and runs ixs paid by signers[0], and commits the result.
func (h *harness) exec(ixs []core.Instruction, signers ...core.Keypair) *runtime.Result {
	h.t.Helper()
	tx, err := core.NewTransaction(signers[0].PublicKey(), ixs, h.env.Blockhash, signers...)
	if err != nil {
		h.t.Fatal(err)
	}
	if !tx.VerifySignatures() {
		h.t.Fatal("bad signatures")
	}
	res := runtime.Execute(h.env, h.accts, tx, runtime.Options{})
	h.accts.Apply(res.Writes)
	return res
}

func (h *harness) ok(res *runtime.Result) {
	h.t.Helper()
	if res.Err != nil {
		h.t.Fatalf("unexpected error %v\n%s", res.Err, strings.Join(res.Logs, "\n"))
	}
}

// fails expects InstructionError(0, want) and, when given, a log line.
func (h *harness) fails(res *runtime.Result, want runtime.InstructionError, log string) {
	h.t.Helper()
	if res.Err == nil || res.Err.Kind != runtime.TxInstructionError || res.Err.Instruction != want {
		h.t.Fatalf("error = %v, want %v\n%s", res.Err, want, strings.Join(res.Logs, "\n"))
	}
	if log != "" && !slices.Contains(res.Logs, log) {
		h.t.Fatalf("no log %q in\n%s", log, strings.Join(res.Logs, "\n"))
	}
}

func (h *harness) table(k core.Pubkey) *alt.Table {
	h.t.Helper()
	a, ok := h.accts[k]
	if !ok {
		h.t.Fatalf("no table %s", k)
	}
	if a.Owner != alt.ProgramID {
		h.t.Fatalf("table owner %s", a.Owner)
	}
	if !h.env.Rent.IsExempt(a.Lamports, uint64(len(a.Data))) {
		h.t.Fatalf("table not rent exempt: %d lamports for %d bytes", a.Lamports, len(a.Data))
	}
	tbl, err := alt.Decode(a.Data)
	if err != nil {
		h.t.Fatal(err)
	}
	return tbl
}

func key(seed byte) core.Keypair { return core.KeypairFromSeed([32]byte{seed}) }

func addresses(n int, seed byte) []core.Pubkey {
	out := make([]core.Pubkey, n)
	for i := range out {
		out[i] = core.Pubkey(core.HashBytes([]byte{seed, byte(i), byte(i >> 8)}))
	}
	return out
}

// TestLifecycle walks a table through every instruction with signed transactions.
func TestLifecycle(t *testing.T) {
	t.Parallel()
	h := newHarness(t, 100)
	payer, authority, recipient := key(1), key(2), key(3)
	h.fund(payer.PublicKey(), 10*1_000_000_000)

	createIx, table := alt.CreateLookupTable(authority.PublicKey(), payer.PublicKey(), 99)
	res := h.exec([]core.Instruction{createIx}, payer)
	h.ok(res)
	wantLogs := []string{
		"Program AddressLookupTab1e1111111111111111111111111 invoke [1]",
		"Program log: Instruction: CreateLookupTable",
		"Program 11111111111111111111111111111111 invoke [2]",
		"Program 11111111111111111111111111111111 success",
		"Program 11111111111111111111111111111111 invoke [2]",
		"Program 11111111111111111111111111111111 success",
		"Program 11111111111111111111111111111111 invoke [2]",
		"Program 11111111111111111111111111111111 success",
		"Program AddressLookupTab1e1111111111111111111111111 consumed 10593 of 200000 compute units", // the authority does not sign: one unit more than in the corpus
		"Program AddressLookupTab1e1111111111111111111111111 success",
	}
	if !slices.Equal(res.Logs, wantLogs) {
		t.Fatalf("create logs:\n%s", strings.Join(res.Logs, "\n"))
	}
	if len(res.InnerInstructions) != 1 || len(res.InnerInstructions[0].Instructions) != 3 {
		t.Fatalf("inner instructions = %+v", res.InnerInstructions)
	}
	tbl := h.table(table)
	if tbl.Meta.Authority == nil || *tbl.Meta.Authority != authority.PublicKey() || tbl.Meta.DeactivationSlot != alt.Active ||
		len(tbl.Addresses) != 0 || len(h.accts[table].Data) != alt.MetaSize {
		t.Fatalf("new table = %+v", tbl)
	}
	// Creating it again succeeds without changing anything.
	before := h.accts[table].Clone()
	h.ok(h.exec([]core.Instruction{createIx}, payer))
	if a := h.accts[table]; a.Lamports != before.Lamports || !slices.Equal(a.Data, before.Data) {
		t.Fatal("a repeated create changed the table")
	}

	// Two extensions in slot 100, one in 101.
	p := payer.PublicKey()
	addrs := addresses(40, 1)
	h.ok(h.exec([]core.Instruction{alt.ExtendLookupTable(table, authority.PublicKey(), &p, addrs[:30])}, payer, authority))
	h.ok(h.exec([]core.Instruction{alt.ExtendLookupTable(table, authority.PublicKey(), &p, addrs[30:35])}, payer, authority))
	tbl = h.table(table)
	if tbl.Meta.LastExtendedSlot != 100 || tbl.Meta.LastExtendedSlotStartIndex != 0 || !slices.Equal(tbl.Addresses, addrs[:35]) {
		t.Fatalf("after two extensions: %+v", tbl.Meta)
	}
	h.setSlot(101)
	h.ok(h.exec([]core.Instruction{alt.ExtendLookupTable(table, authority.PublicKey(), &p, addrs[35:])}, payer, authority))
	tbl = h.table(table)
	if tbl.Meta.LastExtendedSlot != 101 || tbl.Meta.LastExtendedSlotStartIndex != 35 || !slices.Equal(tbl.Addresses, addrs) {
		t.Fatalf("after the next slot's extension: %+v", tbl.Meta)
	}
	// A table with rent to spare needs no payer.
	h.accts[table] = runtime.Account{Lamports: h.accts[table].Lamports + 1_000_000, Owner: alt.ProgramID, Data: h.accts[table].Data}
	h.ok(h.exec([]core.Instruction{alt.ExtendLookupTable(table, authority.PublicKey(), nil, addresses(1, 2))}, payer, authority))

	// Deactivation starts a cool-down that lasts until the slot leaves SlotHashes.
	h.ok(h.exec([]core.Instruction{alt.DeactivateLookupTable(table, authority.PublicKey())}, payer, authority))
	if got := h.table(table).Meta.DeactivationSlot; got != 101 {
		t.Fatalf("deactivation slot = %d", got)
	}
	closeIx := alt.CloseLookupTable(table, authority.PublicKey(), recipient.PublicKey())
	h.fails(h.exec([]core.Instruction{closeIx}, payer, authority), runtime.ErrInvalidArgument,
		"Program log: Table cannot be closed until it's fully deactivated in 513 blocks")
	h.setSlot(102)
	h.fails(h.exec([]core.Instruction{closeIx}, payer, authority), runtime.ErrInvalidArgument,
		"Program log: Table cannot be closed until it's fully deactivated in 512 blocks")
	h.setSlot(101 + 512)
	h.fails(h.exec([]core.Instruction{closeIx}, payer, authority), runtime.ErrInvalidArgument,
		"Program log: Table cannot be closed until it's fully deactivated in 1 blocks")
	h.setSlot(101 + 513)
	lamports := h.accts[table].Lamports
	h.ok(h.exec([]core.Instruction{closeIx}, payer, authority))
	if _, ok := h.accts[table]; ok {
		t.Fatal("closed table still exists")
	}
	if got := h.accts[recipient.PublicKey()].Lamports; got != lamports {
		t.Fatalf("recipient got %d, want %d", got, lamports)
	}
}

// TestFreeze checks that a frozen table is immutable and still serves lookups.
func TestFreeze(t *testing.T) {
	t.Parallel()
	h := newHarness(t, 10)
	payer, authority := key(1), key(2)
	h.fund(payer.PublicKey(), 1_000_000_000)
	createIx, table := alt.CreateLookupTableSigned(authority.PublicKey(), payer.PublicKey(), 5)
	p := payer.PublicKey()
	h.ok(h.exec([]core.Instruction{createIx}, payer, authority))
	h.fails(h.exec([]core.Instruction{alt.FreezeLookupTable(table, authority.PublicKey())}, payer, authority),
		runtime.ErrInvalidInstructionData, "Program log: Empty lookup tables cannot be frozen")
	h.ok(h.exec([]core.Instruction{alt.ExtendLookupTable(table, authority.PublicKey(), &p, addresses(2, 1))}, payer, authority))
	h.ok(h.exec([]core.Instruction{alt.FreezeLookupTable(table, authority.PublicKey())}, payer, authority))
	if tbl := h.table(table); tbl.Meta.Authority != nil {
		t.Fatal("frozen table keeps its authority")
	}
	for _, c := range []struct {
		ix  core.Instruction
		log string
	}{
		{alt.FreezeLookupTable(table, authority.PublicKey()), "Program log: Lookup table is already frozen"},
		{alt.ExtendLookupTable(table, authority.PublicKey(), &p, addresses(1, 2)), "Program log: Lookup table is frozen"},
		{alt.DeactivateLookupTable(table, authority.PublicKey()), "Program log: Lookup table is frozen"},
		{alt.CloseLookupTable(table, authority.PublicKey(), p), "Program log: Lookup table is frozen"},
	} {
		h.fails(h.exec([]core.Instruction{c.ix}, payer, authority), runtime.ErrImmutable, c.log)
	}
	h.setSlot(11)
	src := h.accts
	loaded, terr := alt.LoadAddresses([]core.AddressTableLookup{{AccountKey: table, ReadonlyIndexes: []uint8{1, 0}}}, src, 11,
		alt.SlotHashes(h.env.SysvarData[core.SysvarSlotHashesID]))
	if terr != nil || !slices.Equal(loaded.Readonly, []core.Pubkey{addresses(2, 1)[1], addresses(2, 1)[0]}) {
		t.Fatalf("lookup in a frozen table: %v %v", loaded, terr)
	}
}

// TestFailures covers the program's refusals of well-formed instructions (the LiteSVM corpus
// covers every path, costs included).
func TestFailures(t *testing.T) {
	t.Parallel()
	payer, authority, other := key(1), key(2), key(3)
	p := payer.PublicKey()
	table, _ := alt.DeriveAddress(authority.PublicKey(), 5)
	withTable := func(t *testing.T, meta alt.Meta, n int) *harness {
		h := newHarness(t, 10)
		h.fund(payer.PublicKey(), 1_000_000_000)
		data := alt.Encode(meta, addresses(n, 9))
		h.accts[table] = runtime.Account{Lamports: h.env.Rent.MinimumBalance(uint64(len(data))), Owner: alt.ProgramID, Data: data}
		return h
	}
	active := alt.NewMeta(authority.PublicKey())
	deactivated := active
	deactivated.DeactivationSlot = 9
	for _, c := range []struct {
		name    string
		meta    alt.Meta
		n       int
		ix      core.Instruction
		signers []core.Keypair
		want    runtime.InstructionError
		log     string
	}{
		{"create from an old slot", active, 0, func() core.Instruction {
			ix, _ := alt.CreateLookupTable(other.PublicKey(), p, 10)
			return ix
		}(), nil, runtime.ErrInvalidInstructionData, "Program log: 10 is not a recent slot"},
		{"extend by another authority", active, 1, alt.ExtendLookupTable(table, other.PublicKey(), &p, addresses(1, 1)),
			[]core.Keypair{other}, runtime.ErrIncorrectAuthority, "Program log: Incorrect lookup table authority"},
		{"extend a deactivated table", deactivated, 1, alt.ExtendLookupTable(table, authority.PublicKey(), &p, addresses(1, 1)),
			[]core.Keypair{authority}, runtime.ErrInvalidArgument, "Program log: Deactivated tables cannot be extended"},
		{"extend a full table", active, 256, alt.ExtendLookupTable(table, authority.PublicKey(), &p, addresses(1, 1)),
			[]core.Keypair{authority}, runtime.ErrInvalidArgument, "Program log: Lookup table is full and cannot contain more addresses"},
		{"extend past capacity", active, 250, alt.ExtendLookupTable(table, authority.PublicKey(), &p, addresses(7, 1)),
			[]core.Keypair{authority}, runtime.ErrInvalidInstructionData, "Program log: Extended lookup table length 257 would exceed max capacity of 256"},
		{"extend by nothing", active, 1, alt.ExtendLookupTable(table, authority.PublicKey(), &p, nil),
			[]core.Keypair{authority}, runtime.ErrInvalidInstructionData, "Program log: Must extend with at least one address"},
		{"extend without a payer", active, 1, alt.ExtendLookupTable(table, authority.PublicKey(), nil, addresses(1, 1)),
			[]core.Keypair{authority}, runtime.ErrNotEnoughAccountKeys, "Program log: Error: NotEnoughAccountKeys"},
		{"freeze a deactivated table", deactivated, 1, alt.FreezeLookupTable(table, authority.PublicKey()),
			[]core.Keypair{authority}, runtime.ErrInvalidArgument, "Program log: Deactivated tables cannot be frozen"},
		{"deactivate twice", deactivated, 1, alt.DeactivateLookupTable(table, authority.PublicKey()),
			[]core.Keypair{authority}, runtime.ErrInvalidArgument, "Program log: Lookup table is already deactivated"},
		{"close an active table", active, 1, alt.CloseLookupTable(table, authority.PublicKey(), p),
			[]core.Keypair{authority}, runtime.ErrInvalidArgument, "Program log: Lookup table is not deactivated"},
		{"close into the table", deactivated, 1, alt.CloseLookupTable(table, authority.PublicKey(), table),
			[]core.Keypair{authority}, runtime.ErrInvalidArgument, "Program log: Lookup table cannot be the recipient of reclaimed lamports"},
		{"close by another authority", deactivated, 1, alt.CloseLookupTable(table, other.PublicKey(), p),
			[]core.Keypair{other}, runtime.ErrIncorrectAuthority, "Program log: Incorrect lookup table authority"},
		{"freeze a system account", active, 1, alt.FreezeLookupTable(p, authority.PublicKey()),
			[]core.Keypair{authority}, runtime.ErrInvalidAccountOwner, "Program log: Lookup table owner should be the Address Lookup Table program"},
	} {
		t.Run(c.name, func(t *testing.T) {
			h := withTable(t, c.meta, c.n)
			before := h.accts[table].Clone()
			h.fails(h.exec([]core.Instruction{c.ix}, append([]core.Keypair{payer}, c.signers...)...), c.want, c.log)
			if a := h.accts[table]; a.Lamports != before.Lamports || !slices.Equal(a.Data, before.Data) {
				t.Fatal("a failed instruction changed the table")
			}
		})
	}

	// Authorities must sign: instructions built by hand without the signature.
	h := withTable(t, active, 1)
	ix := alt.DeactivateLookupTable(table, authority.PublicKey())
	ix.Accounts[1].IsSigner = false
	h.fails(h.exec([]core.Instruction{ix}, payer), runtime.ErrMissingRequiredSignature, "Program log: Authority account must be a signer")

	// A read-only table cannot be extended or closed.
	ix = alt.ExtendLookupTable(table, authority.PublicKey(), &p, addresses(1, 1))
	ix.Accounts[0].IsWritable = false
	h.fails(h.exec([]core.Instruction{ix}, payer, authority), alt.ReadonlyDataModified.Instruction(),
		"Program log: Instruction modified data of a read-only account")
}
