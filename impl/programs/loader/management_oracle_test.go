package loader

import (
	"bytes"
	"fmt"
	"testing"

	"ledgerd/conformance/realelf"
	"ledgerd/impl/core"
	"ledgerd/impl/programs/system"
	"ledgerd/impl/runtime"
)

// TestManagementEqualsLiteSVM runs the whole life of an upgradeable program, and the loaders' refusals, through
// LiteSVM (the reference's bpf_loader) and through this package, step by step at the same slots, and compares
// the outcome, the logs, the compute units and every byte of the accounts involved. LiteSVM does not delay a new
// deployment to the next slot, so the program is only invoked in later slots.
func TestManagementEqualsLiteSVM(t *testing.T) {
	if testing.Short() {
		t.Skip("runs LiteSVM")
	}
	payer, buffer, buffer2, program, other, garbageBuf, garbageProg := testKey(1), testKey(2), testKey(3), testKey(4), testKey(5), testKey(6), testKey(7)
	pk := func(k core.Keypair) core.Pubkey { return k.PublicKey() }
	pd, _ := ProgramDataAddress(pk(program))
	rent := runtime.DefaultEnv(core.Hash{}, nil).Rent
	elf := testELF
	garbage := bytes.Repeat([]byte{0x7f, 'E', 'L', 'F'}, 100)
	watch := []core.Pubkey{pk(payer), pk(buffer), pk(buffer2), pk(program), pd, pk(other), pk(garbageBuf), pk(garbageProg)}

	var steps []realelf.Step
	at := func(slot uint64, name string, signers []core.Keypair, ixs ...core.Instruction) {
		steps = append(steps, realelf.Step{Name: name, Instructions: ixs, Payer: signers[0], Signers: signers[1:], Slot: &slot, Watch: watch})
	}
	createBuffer := func(slot uint64, buf core.Keypair, data []byte) {
		at(slot, "create buffer "+pk(buf).String()[:4], []core.Keypair{payer, buf},
			system.CreateAccount(pk(payer), pk(buf), rent.MinimumBalance(uint64(BufferMetadataSize+len(data))),
				uint64(BufferMetadataSize+len(data)), core.BPFLoaderUpgradeableProgramID),
			InitializeBuffer(pk(buf), pk(payer)))
		for off := 0; off < len(data); off += 600 {
			at(slot, "write", []core.Keypair{payer}, Write(pk(buf), pk(payer), uint32(off), data[off:min(off+600, len(data))]))
		}
	}
	deployIxs := func(prog, buf core.Keypair, maxLen int) []core.Instruction {
		return []core.Instruction{
			system.CreateAccount(pk(payer), pk(prog), rent.MinimumBalance(ProgramSize), ProgramSize, core.BPFLoaderUpgradeableProgramID),
			DeployWithMaxDataLen(pk(payer), pk(prog), pk(buf), pk(payer), uint64(maxLen)),
		}
	}
	invoke := core.Instruction{ProgramID: pk(program)}
	pid := pk(program)
	newAuth := pk(other)

	createBuffer(1, buffer, elf)
	at(1, "write with the wrong authority", []core.Keypair{payer, other}, Write(pk(buffer), pk(other), 0, []byte{1}))
	at(1, "write past the end", []core.Keypair{payer}, Write(pk(buffer), pk(payer), uint32(len(elf)), []byte{1}))
	at(1, "initialize twice", []core.Keypair{payer}, InitializeBuffer(pk(buffer), pk(payer)))
	at(1, "max data length too small", []core.Keypair{payer, program}, deployIxs(program, buffer, len(elf)-1)...)
	at(1, "deploy", []core.Keypair{payer, program}, deployIxs(program, buffer, 2*len(elf))...)
	at(2, "invoke", []core.Keypair{payer}, invoke)
	createBuffer(2, buffer2, elf)
	at(2, "upgrade by another authority", []core.Keypair{payer, other},
		Upgrade(pid, pk(buffer2), pk(other), pk(other)))
	at(2, "upgrade", []core.Keypair{payer}, Upgrade(pid, pk(buffer2), pk(payer), pk(other)))
	at(2, "upgrade again in its slot", []core.Keypair{payer}, Upgrade(pid, pk(buffer2), pk(payer), pk(other)))
	at(3, "invoke the upgrade", []core.Keypair{payer}, invoke)
	at(3, "extend", []core.Keypair{payer}, ExtendProgram(pid, pk(payer), MinimumExtendProgramBytes))
	at(3, "extend again in its slot", []core.Keypair{payer}, ExtendProgram(pid, pk(payer), MinimumExtendProgramBytes))
	at(4, "extend by zero", []core.Keypair{payer}, ExtendProgram(pid, pk(payer), 0))
	at(4, "extend below the minimum", []core.Keypair{payer}, ExtendProgram(pid, pk(payer), MinimumExtendProgramBytes-1))
	at(4, "extend checked", []core.Keypair{payer}, core.Instruction{ProgramID: core.BPFLoaderUpgradeableProgramID,
		Data: UpgradeableInstruction{Tag: TagExtendProgramChecked, AdditionalBytes: 8}.Encode(),
		Accounts: []core.AccountMeta{core.Writable(pd), core.Writable(pid), core.ReadonlySigner(pk(payer)),
			core.Readonly(core.SystemProgramID), core.WritableSigner(pk(payer))}})
	at(4, "migrate", []core.Keypair{payer}, core.Instruction{ProgramID: core.BPFLoaderUpgradeableProgramID,
		Data:     UpgradeableInstruction{Tag: TagMigrate}.Encode(),
		Accounts: []core.AccountMeta{core.Writable(pd), core.Writable(pid), core.ReadonlySigner(pk(payer))}})
	at(4, "set authority checked without the new signature", []core.Keypair{payer}, core.Instruction{
		ProgramID: core.BPFLoaderUpgradeableProgramID, Data: UpgradeableInstruction{Tag: TagSetAuthorityChecked}.Encode(),
		Accounts: []core.AccountMeta{core.Writable(pd), core.ReadonlySigner(pk(payer)), core.Readonly(newAuth)}})
	at(4, "set authority", []core.Keypair{payer}, SetAuthority(pd, pk(payer), &newAuth))
	at(4, "close by the old authority", []core.Keypair{payer}, Close(pd, pk(payer), pk(payer), &pid))
	at(4, "close a program account", []core.Keypair{payer}, Close(pid, pk(payer), pk(payer), nil))
	readonlyProgram := Close(pd, pk(payer), pk(payer), &pid)
	readonlyProgram.Accounts[3].IsWritable = false
	at(4, "close with the program read-only", []core.Keypair{payer}, readonlyProgram)
	at(5, "set authority checked back", []core.Keypair{payer, other}, SetAuthorityChecked(pd, newAuth, pk(payer)))
	at(5, "make it final", []core.Keypair{payer}, SetAuthority(pd, pk(payer), nil))
	at(6, "upgrade a final program", []core.Keypair{payer}, Upgrade(pid, pk(buffer), pk(payer), pk(other)))
	at(6, "close a final program", []core.Keypair{payer}, Close(pd, pk(payer), pk(payer), &pid))
	createBuffer(6, garbageBuf, garbage)
	at(6, "deploy a garbage ELF", []core.Keypair{payer, garbageProg}, deployIxs(garbageProg, garbageBuf, len(garbage))...)
	at(6, "close a buffer", []core.Keypair{payer}, Close(pk(garbageBuf), pk(other), pk(payer), nil))
	at(6, "loader v2 management", []core.Keypair{payer}, core.Instruction{ProgramID: core.BPFLoaderProgramID, Data: []byte{1, 0, 0, 0},
		Accounts: []core.AccountMeta{core.Writable(pk(other))}})
	at(6, "deprecated loader management", []core.Keypair{payer}, core.Instruction{ProgramID: core.BPFLoaderDeprecatedProgramID, Data: []byte{1, 0, 0, 0}})
	at(6, "not an instruction", []core.Keypair{payer}, core.Instruction{ProgramID: core.BPFLoaderUpgradeableProgramID, Data: []byte{10, 0, 0, 0}})
	for _, flag := range []byte{0, 1, 2} {
		// Newer clients append a close_buffer flag to Upgrade (SIMD-0430).
		up := Upgrade(pid, pk(buffer), pk(payer), pk(other))
		up.Data = append(up.Data, flag)
		at(6, fmt.Sprintf("upgrade with trailing flag %d", flag), []core.Keypair{payer}, up)
	}

	sc := realelf.Scenario{
		Name:     "upgradeable loader management",
		Accounts: []realelf.Account{{Address: pk(payer), Lamports: 100_000_000_000, Owner: core.SystemProgramID}, {Address: pk(other), Lamports: 1_000_000_000, Owner: core.SystemProgramID}},
		// As on mainnet, SBPF v0 programs may still be deployed, and program data keeps its max_data_len.
		Deactivate: featureKeys(featureDisableSBPFv0v1v2Deployment, featureSetProgramDataToELFLength),
		Steps:      steps,
	}
	oracle := realelf.LiteSVM(t).Run(sc)[0]

	b := newBank(t)
	for _, a := range sc.Accounts {
		b.accounts[a.Address] = runtime.Account{Lamports: a.Lamports, Owner: a.Owner}
	}
	for i, st := range sc.Steps {
		want := oracle[i]
		b.env.Clock.Slot = *st.Slot
		got := b.run(st.Instructions, append([]core.Keypair{st.Payer}, st.Signers...)...)
		checkOutcome(t, st.Name, got, want)
		for _, w := range want.Accounts {
			g, exists := b.accounts[w.Address]
			exists = exists && g.Lamports > 0
			if exists != w.Exists {
				t.Errorf("%s: account %s exists %v, LiteSVM %v", st.Name, w.Address, exists, w.Exists)
				continue
			}
			if exists && (g.Lamports != w.Lamports || g.Owner != w.Owner || g.Executable != w.Executable || !bytes.Equal(g.Data, w.Data)) {
				t.Errorf("%s: account %s\n %d %s %v %x\nLiteSVM\n %d %s %v %x", st.Name, w.Address,
					g.Lamports, g.Owner, g.Executable, head(g.Data), w.Lamports, w.Owner, w.Executable, head(w.Data))
			}
		}
	}
}

// Features LiteSVM 1.5.0 enables that mainnet has not activated, and that change what the loader does.
const (
	featureDisableSBPFv0v1v2Deployment = "B8JJXCy5amZyWG9r7EnUYLwzXSXTxG7GZ1qZ1qggo83g"
	featureSetProgramDataToELFLength   = "EhisBfVtGvEA8bVCVN5VMaYEaX6iTfoUrmcDi8LY7Kxy"
)

func featureKeys(ids ...string) []core.Pubkey {
	out := make([]core.Pubkey, len(ids))
	for i, id := range ids {
		out[i] = core.MustParsePubkey(id)
	}
	return out
}

// head is the start of account data, for messages.
func head(d []byte) []byte { return d[:min(len(d), 64)] }
