package ata_test

import (
	"regexp"
	"slices"
	"strconv"
	"testing"

	"ledgerd/impl/core"
	"ledgerd/impl/programs/ata"
	"ledgerd/impl/programs/system"
	"ledgerd/impl/programs/token"
	"ledgerd/impl/runtime"
	"ledgerd/impl/runtime/runtimetest"
)

var blockhash = core.HashBytes([]byte("ata bank"))

func key(seed byte) core.Keypair { return core.KeypairFromSeed([32]byte{seed, 'A'}) }

var (
	payer  = key(1)
	alice  = key(2)
	bob    = key(3)
	mintKP = key(4)
	mint2  = key(5)
)

var tokenPrograms = []struct {
	name string
	id   core.Pubkey
}{{"spl-token", token.ProgramID}, {"token-2022", token.Program2022ID}}

type harness struct {
	t    *testing.T
	env  *runtime.Env
	accs runtime.MapSource
}

func newHarness(t *testing.T) *harness {
	reg := runtime.NewRegistry()
	reg.Add(system.Module)
	reg.Add(token.Modules...)
	reg.Add(ata.Module)
	h := &harness{t: t, env: runtime.DefaultEnv(blockhash, reg), accs: runtime.MapSource{}}
	h.accs[core.SystemProgramID] = runtime.Account{Lamports: 1, Owner: core.NativeLoaderProgramID, Executable: true}
	for _, id := range []core.Pubkey{token.ProgramID, token.Program2022ID, ata.ProgramID} {
		h.accs[id] = runtime.Account{Lamports: 1e9, Owner: core.BPFLoaderUpgradeableProgramID, Executable: true}
	}
	for _, k := range []core.Keypair{payer, alice, bob} {
		h.accs[k.PublicKey()] = runtime.Account{Lamports: 10e9, Owner: core.SystemProgramID}
	}
	return h
}

func (h *harness) rent(n int) uint64 { return h.env.Rent.MinimumBalance(uint64(n)) }

// exec signs with signers (the first pays) and executes, committing the writes.
func (h *harness) exec(ixs []core.Instruction, signers ...core.Keypair) *runtime.Result {
	h.t.Helper()
	msg, err := core.CompileLegacyMessage(signers[0].PublicKey(), ixs, blockhash)
	if err != nil {
		h.t.Fatal(err)
	}
	tx, err := core.NewSignedTransaction(msg, signers...)
	if err != nil {
		h.t.Fatal(err)
	}
	res := runtime.Execute(h.env, h.accs, tx, runtime.Options{})
	h.accs.Apply(res.Writes)
	return res
}

func (h *harness) ok(ixs []core.Instruction, signers ...core.Keypair) *runtime.Result {
	h.t.Helper()
	res := h.exec(ixs, signers...)
	runtimetest.WantErr(h.t, res, "<nil>")
	return res
}

// createMint makes mint (decimals 2, authority alice) under program.
func (h *harness) createMint(program core.Pubkey, mint core.Keypair) {
	h.t.Helper()
	h.ok([]core.Instruction{
		system.CreateAccount(payer.PublicKey(), mint.PublicKey(), h.rent(token.MintSize), token.MintSize, program),
		token.InitializeMint2(program, mint.PublicKey(), alice.PublicKey(), nil, 2),
	}, payer, mint)
}

func (h *harness) tokenAccount(k core.Pubkey) token.Account {
	h.t.Helper()
	a, err := token.UnpackAccount(h.accs[k].Data)
	if err != nil {
		h.t.Fatalf("token account %s: %v", k, err)
	}
	return a
}

func ixErr(name string) string { return `{"InstructionError":[0,"` + name + `"]}` }

var consumedLine = regexp.MustCompile(`^Program (\S+) consumed (\d+) of \d+ compute units$`)

// ownUnits is what the top-level ATA instruction consumed itself: its "consumed" line minus
// the lines of the programs it invoked (and the system program's 150 units per invocation,
// which as a builtin it does not log).
func ownUnits(t *testing.T, res *runtime.Result) uint64 {
	t.Helper()
	var top, inner uint64
	depth := 0
	for _, l := range res.Logs {
		switch {
		case l == "Program "+core.SystemProgramID.String()+" invoke [2]":
			inner += 150
		case len(l) > 0 && regexp.MustCompile(`invoke \[\d\]$`).MatchString(l):
			depth, _ = strconv.Atoi(l[len(l)-2 : len(l)-1])
		}
		if m := consumedLine.FindStringSubmatch(l); m != nil {
			n, _ := strconv.ParseUint(m[2], 10, 64)
			if m[1] == ata.ProgramID.String() {
				top = n
			} else if depth >= 2 {
				inner += n
			}
		}
	}
	return top - inner
}

// tries is how many bump seeds the derivation of the associated account of wallet tried.
func tries(wallet, mint, program core.Pubkey) uint64 {
	_, bump := core.FindAssociatedTokenAddress(wallet, mint, program)
	return uint64(256 - int(bump))
}

// innerSummary lists the invoked programs and the first data byte of each inner instruction,
// with their stack heights.
func innerSummary(res *runtime.Result) []string {
	var out []string
	for _, g := range res.InnerInstructions {
		for _, ix := range g.Instructions {
			out = append(out, res.AccountKeys[ix.ProgramIDIndex].String()[:6]+"/"+strconv.Itoa(int(ix.Data[0]))+"@"+strconv.Itoa(int(ix.StackHeight)))
		}
	}
	return out
}

func TestCreate(t *testing.T) {
	t.Parallel()
	for _, tp := range tokenPrograms {
		t.Run(tp.name, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t)
			h.createMint(tp.id, mintKP)
			mint, wallet := mintKP.PublicKey(), bob.PublicKey()
			addr := ata.Address(wallet, mint, tp.id)
			res := h.ok([]core.Instruction{ata.Create(payer.PublicKey(), wallet, mint, tp.id)}, payer)

			size := token.AccountSize
			if tp.id == token.Program2022ID {
				size += 5 // account type, then ImmutableOwner's empty TLV entry
			}
			got := h.accs[addr]
			if got.Owner != tp.id || len(got.Data) != size || got.Lamports != h.rent(size) {
				t.Fatalf("account: owner %s, %d bytes, %d lamports; want %s, %d, %d", got.Owner, len(got.Data), got.Lamports, tp.id, size, h.rent(size))
			}
			acct := h.tokenAccount(addr)
			if acct.Mint != mint || acct.Owner != wallet || acct.Amount != 0 || acct.State != token.StateInitialized {
				t.Fatalf("token account = %+v", acct)
			}
			if tp.id == token.Program2022ID {
				if _, exts, err := token.ParseExtensions(got.Data); err != nil || len(exts) != 1 || exts[0].Type != token.ExtImmutableOwner {
					t.Fatalf("extensions = %v, %v; want ImmutableOwner", exts, err)
				}
			}

			p, s := tp.id.String()[:6], core.SystemProgramID.String()[:6]
			want := []string{p + "/21@2", s + "/0@2", p + "/22@2", p + "/18@2"}
			if got := innerSummary(res); !slices.Equal(got, want) {
				t.Errorf("inner instructions = %v, want %v", got, want)
			}
			// The create CPI is signed by the derived address: it appears as a signer in the inner instruction.
			create := res.InnerInstructions[0].Instructions[1]
			if keys := []core.Pubkey{res.AccountKeys[create.Accounts[0]], res.AccountKeys[create.Accounts[1]]}; keys[0] != payer.PublicKey() || keys[1] != addr {
				t.Errorf("CreateAccount accounts = %v", keys)
			}
			for _, line := range []string{"Program log: Create", "Program log: Initialize the associated token account"} {
				if !slices.Contains(res.Logs, line) {
					t.Errorf("logs lack %q: %q", line, res.Logs)
				}
			}
			// LiteSVM's on-chain build: 11411 (SPL Token) / 11145 (Token-2022) plus 1500 per bump tried.
			base := uint64(11411)
			if tp.id == token.Program2022ID {
				base = 11145
			}
			if got, want := ownUnits(t, res), base+1500*tries(wallet, mint, tp.id); got != want {
				t.Errorf("own compute units = %d, want %d\n%q", got, want, res.Logs)
			}
		})
	}
}

func TestCreateExisting(t *testing.T) {
	t.Parallel()
	for _, tp := range tokenPrograms {
		t.Run(tp.name, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t)
			h.createMint(tp.id, mintKP)
			h.createMint(tp.id, mint2)
			mint, wallet := mintKP.PublicKey(), bob.PublicKey()
			addr := ata.Address(wallet, mint, tp.id)
			h.ok([]core.Instruction{ata.CreateIdempotent(payer.PublicKey(), wallet, mint, tp.id)}, payer)
			before := h.accs[addr].Clone()

			// Idempotent again: success, nothing invoked, nothing changed.
			res := h.ok([]core.Instruction{ata.CreateIdempotent(payer.PublicKey(), wallet, mint, tp.id)}, payer)
			if len(res.InnerInstructions) != 0 {
				t.Errorf("idempotent re-create invoked %v", innerSummary(res))
			}
			if got := h.accs[addr]; !slices.Equal(got.Data, before.Data) || got.Lamports != before.Lamports {
				t.Error("idempotent re-create changed the account")
			}
			base := uint64(2937)
			if tp.id == token.Program2022ID {
				base = 2956
			}
			if got, want := ownUnits(t, res), base+1500*tries(wallet, mint, tp.id); got != want {
				t.Errorf("idempotent re-create: own compute units = %d, want %d", got, want)
			}

			// Create again: the account is no longer the system program's.
			res = h.exec([]core.Instruction{ata.Create(payer.PublicKey(), wallet, mint, tp.id)}, payer)
			runtimetest.WantErr(t, res, ixErr("IllegalOwner"))
			if got, want := ownUnits(t, res), 2058+1500*tries(wallet, mint, tp.id); got != want {
				t.Errorf("create again: own compute units = %d, want %d", got, want)
			}
			if res.Logs[len(res.Logs)-1] != "Program "+ata.ProgramID.String()+" failed: Provided owner is not allowed" {
				t.Errorf("last log = %q", res.Logs[len(res.Logs)-1])
			}
		})
	}
}

func TestCreateIdempotentWrongAccount(t *testing.T) {
	t.Parallel()
	for _, tp := range tokenPrograms {
		t.Run(tp.name, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t)
			h.createMint(tp.id, mintKP)
			h.createMint(tp.id, mint2)
			mint, wallet := mintKP.PublicKey(), bob.PublicKey()
			addr := ata.Address(wallet, mint, tp.id)
			h.ok([]core.Instruction{ata.Create(payer.PublicKey(), wallet, mint, tp.id)}, payer)

			// The account at bob's address held by alice (as could only happen through an
			// owner change on a classic account): InvalidOwner.
			wrongOwner := h.accs[addr].Clone()
			a := alice.PublicKey()
			copy(wrongOwner.Data[32:64], a[:])
			h.accs[addr] = wrongOwner
			res := h.exec([]core.Instruction{ata.CreateIdempotent(payer.PublicKey(), wallet, mint, tp.id)}, payer)
			runtimetest.WantErr(t, res, `{"InstructionError":[0,{"Custom":0}]}`)
			if !slices.Contains(res.Logs, "Program log: Associated token account owner does not match address derivation") {
				t.Errorf("logs = %q", res.Logs)
			}
			if !slices.Contains(res.Logs, "Program "+ata.ProgramID.String()+" failed: custom program error: 0x0") {
				t.Errorf("logs = %q", res.Logs)
			}

			// Another mint: InvalidAccountData.
			wrongMint := h.accs[addr].Clone()
			m2 := mint2.PublicKey()
			copy(wrongMint.Data[32:64], wallet[:])
			copy(wrongMint.Data[0:32], m2[:])
			h.accs[addr] = wrongMint
			res = h.exec([]core.Instruction{ata.CreateIdempotent(payer.PublicKey(), wallet, mint, tp.id)}, payer)
			runtimetest.WantErr(t, res, ixErr("InvalidAccountData"))

			// Owned by the token program but not a token account: IllegalOwner.
			h.accs[addr] = runtime.Account{Lamports: h.rent(10), Owner: tp.id, Data: make([]byte, 10)}
			res = h.exec([]core.Instruction{ata.CreateIdempotent(payer.PublicKey(), wallet, mint, tp.id)}, payer)
			runtimetest.WantErr(t, res, ixErr("IllegalOwner"))
		})
	}
}

func TestCreatePrefunded(t *testing.T) {
	t.Parallel()
	for _, tp := range tokenPrograms {
		for _, prefund := range []uint64{1000, 3_000_000} {
			t.Run(tp.name+"/"+strconv.FormatUint(prefund, 10), func(t *testing.T) {
				t.Parallel()
				h := newHarness(t)
				h.createMint(tp.id, mintKP)
				mint, wallet := mintKP.PublicKey(), bob.PublicKey()
				addr := ata.Address(wallet, mint, tp.id)
				res := h.ok([]core.Instruction{
					system.Transfer(payer.PublicKey(), addr, prefund),
					ata.CreateIdempotent(payer.PublicKey(), wallet, mint, tp.id),
				}, payer)
				size := token.AccountSize
				if tp.id == token.Program2022ID {
					size += 5
				}
				if got, want := h.accs[addr].Lamports, max(prefund, h.rent(size)); got != want {
					t.Errorf("lamports = %d, want %d", got, want)
				}
				if acct := h.tokenAccount(addr); acct.Owner != wallet {
					t.Errorf("owner = %s", acct.Owner)
				}
				p, s := tp.id.String()[:6], core.SystemProgramID.String()[:6]
				want := []string{p + "/21@2", s + "/8@2", s + "/1@2", p + "/22@2", p + "/18@2"}
				base := uint64(12596)
				if prefund < h.rent(size) {
					want = slices.Insert(want, 1, s+"/2@2") // the top-up transfer
					base = 14200
				}
				if tp.id == token.Program2022ID {
					base -= 266
				}
				if got := innerSummary(res); !slices.Equal(got, want) {
					t.Errorf("inner instructions = %v, want %v", got, want)
				}
				if got, want := ownUnits(t, res), base+1500*tries(wallet, mint, tp.id); got != want {
					t.Errorf("own compute units = %d, want %d", got, want)
				}
			})
		}
	}
}

func TestCreateFailures(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.createMint(token.ProgramID, mintKP)
	mint, wallet := mintKP.PublicKey(), bob.PublicKey()
	good := ata.Create(payer.PublicKey(), wallet, mint, token.ProgramID)

	withData := func(d []byte) core.Instruction { ix := good; ix.Data = d; return ix }
	wrongAddress := good
	wrongAddress.Accounts = slices.Clone(good.Accounts)
	wrongAddress.Accounts[1] = core.Writable(ata.Address(alice.PublicKey(), mint, token.ProgramID))
	fewAccounts := good
	fewAccounts.Accounts = good.Accounts[:5]
	// The memo program as the "token program": the address derives, the builder refuses.
	memoProgram := core.MemoProgramID
	h.accs[memoProgram] = runtime.Account{Lamports: 1e9, Owner: core.BPFLoaderProgramID, Executable: true}
	notToken := ata.Create(payer.PublicKey(), wallet, mint, memoProgram)
	unsigned := good
	unsigned.Accounts = slices.Clone(good.Accounts)
	unsigned.Accounts[0] = core.Writable(alice.PublicKey())

	for _, tt := range []struct {
		name  string
		ix    core.Instruction
		want  string
		log   string
		units uint64 // own units, 0 to skip
	}{
		{"unknown variant", withData([]byte{3}), ixErr("InvalidInstructionData"), "", 1842},
		{"trailing data", withData([]byte{0, 0}), ixErr("InvalidInstructionData"), "", 1448},
		{"few accounts", fewAccounts, ixErr("NotEnoughAccountKeys"), "Program log: Create", 1606},
		{"wrong address", wrongAddress, ixErr("InvalidSeeds"), "Program log: Error: Associated address does not match seed derivation",
			2088 + 1500*tries(wallet, mint, token.ProgramID)},
		{"not a token program", notToken, ixErr("IncorrectProgramId"), "", 0},
		{"funder does not sign", unsigned, ixErr("PrivilegeEscalation"), "", 0},
	} {
		t.Run(tt.name, func(t *testing.T) {
			res := h.exec([]core.Instruction{tt.ix}, payer)
			runtimetest.WantErr(t, res, tt.want)
			if tt.log != "" && !slices.Contains(res.Logs, tt.log) {
				t.Errorf("logs lack %q: %q", tt.log, res.Logs)
			}
			if tt.units != 0 {
				if got := ownUnits(t, res); got != tt.units {
					t.Errorf("own compute units = %d, want %d", got, tt.units)
				}
			}
		})
	}
	// Empty data is Create.
	h.ok([]core.Instruction{withData(nil)}, payer)
}

func TestRecoverNested(t *testing.T) {
	t.Parallel()
	for _, tp := range tokenPrograms {
		t.Run(tp.name, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t)
			h.createMint(tp.id, mintKP)
			h.createMint(tp.id, mint2)
			wallet, ownerMint, nestedMint := bob.PublicKey(), mintKP.PublicKey(), mint2.PublicKey()
			owner := ata.Address(wallet, ownerMint, tp.id)
			nested := ata.Address(owner, nestedMint, tp.id)
			dest := ata.Address(wallet, nestedMint, tp.id)
			h.ok([]core.Instruction{
				ata.Create(payer.PublicKey(), wallet, ownerMint, tp.id),
				ata.Create(payer.PublicKey(), owner, nestedMint, tp.id), // the mistake: the owner is an ATA
				token.MintTo(tp.id, nestedMint, nested, alice.PublicKey(), nil, 700),
			}, payer, alice)

			recover := ata.RecoverNested(wallet, ownerMint, nestedMint, tp.id)
			// Without the wallet's signature.
			unsigned := recover
			unsigned.Accounts = slices.Clone(recover.Accounts)
			unsigned.Accounts[5] = core.Writable(wallet)
			res := h.exec([]core.Instruction{unsigned}, payer)
			runtimetest.WantErr(t, res, ixErr("MissingRequiredSignature"))
			if !slices.Contains(res.Logs, "Program log: Wallet of the owner associated token account must sign") {
				t.Errorf("logs = %q", res.Logs)
			}
			// Before the destination exists, the token program refuses the transfer.
			res = h.exec([]core.Instruction{recover}, payer, bob)
			if res.Err == nil {
				t.Fatal("recover without a destination account succeeded")
			}

			h.ok([]core.Instruction{ata.Create(payer.PublicKey(), wallet, nestedMint, tp.id)}, payer)
			nestedLamports := h.accs[nested].Lamports
			bobBefore := h.accs[wallet].Lamports
			res = h.ok([]core.Instruction{recover}, payer, bob)
			if _, ok := h.accs[nested]; ok {
				t.Error("nested account still exists")
			}
			if got := h.tokenAccount(dest).Amount; got != 700 {
				t.Errorf("destination amount = %d, want 700", got)
			}
			if got := h.accs[wallet].Lamports; got != bobBefore+nestedLamports {
				t.Errorf("wallet lamports = %d, want %d", got, bobBefore+nestedLamports)
			}
			p := tp.id.String()[:6]
			if got, want := innerSummary(res), []string{p + "/12@2", p + "/9@2"}; !slices.Equal(got, want) {
				t.Errorf("inner instructions = %v, want %v", got, want)
			}
			base := uint64(12259)
			if tp.id == token.Program2022ID {
				base = 12117
			}
			want := base + 1500*(tries(wallet, ownerMint, tp.id)+tries(owner, nestedMint, tp.id)+tries(wallet, nestedMint, tp.id))
			if got := ownUnits(t, res); got != want {
				t.Errorf("own compute units = %d, want %d", got, want)
			}
			if res.Logs[1] != "Program log: RecoverNested" {
				t.Errorf("logs = %q", res.Logs)
			}
		})
	}
}

func TestRecoverNestedChecks(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	p := token.ProgramID
	h.createMint(p, mintKP)
	h.createMint(p, mint2)
	wallet, ownerMint, nestedMint := bob.PublicKey(), mintKP.PublicKey(), mint2.PublicKey()
	owner := ata.Address(wallet, ownerMint, p)
	recover := ata.RecoverNested(wallet, ownerMint, nestedMint, p)
	swap := func(i int, k core.Pubkey) core.Instruction {
		ix := recover
		ix.Accounts = slices.Clone(recover.Accounts)
		ix.Accounts[i].Pubkey = k
		return ix
	}
	for _, tt := range []struct {
		name string
		ix   core.Instruction
		want string
		log  string
	}{
		{"owner address", swap(3, alice.PublicKey()), ixErr("InvalidSeeds"), "Error: Owner associated address does not match seed derivation"},
		{"nested address", swap(0, alice.PublicKey()), ixErr("InvalidSeeds"), "Error: Nested associated address does not match seed derivation"},
		{"destination address", swap(2, alice.PublicKey()), ixErr("InvalidSeeds"), "Error: Destination associated address does not match seed derivation"},
		{"owner account missing", recover, ixErr("IllegalOwner"),
			"Owner associated token account not owned by provided token program, recreate the owner associated token account first"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			res := h.exec([]core.Instruction{tt.ix}, payer, bob)
			runtimetest.WantErr(t, res, tt.want)
			if !slices.Contains(res.Logs, "Program log: "+tt.log) {
				t.Errorf("logs lack %q: %q", tt.log, res.Logs)
			}
		})
	}

	// The nested account belongs to bob, not to his owner account.
	h.ok([]core.Instruction{ata.Create(payer.PublicKey(), wallet, ownerMint, p)}, payer)
	h.ok([]core.Instruction{ata.Create(payer.PublicKey(), wallet, nestedMint, p)}, payer)
	nested := ata.Address(owner, nestedMint, p)
	h.accs[nested] = h.accs[ata.Address(wallet, nestedMint, p)].Clone()
	res := h.exec([]core.Instruction{recover}, payer, bob)
	runtimetest.WantErr(t, res, `{"InstructionError":[0,{"Custom":0}]}`)
	if !slices.Contains(res.Logs, "Program log: Nested associated token account not owned by provided associated token account") {
		t.Errorf("logs = %q", res.Logs)
	}
}
