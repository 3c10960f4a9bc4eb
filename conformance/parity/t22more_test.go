//go:build unix

package parity

import (
	"encoding/base64"
	"encoding/binary"
	"fmt"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"

	"ledgerd/conformance/realelf"
	"ledgerd/impl/core"
	"ledgerd/impl/programs/system"
	"ledgerd/impl/programs/token"
	"ledgerd/impl/runtime"
)

// Token-2022's instructions that ledgerd's native program learned after the rest of the corpus: CreateNativeMint,
// WithdrawExcessLamports, the group and group member pointers with the token-group interface, ScaledUiAmount,
// Pausable, UnwrapLamports, PermissionedBurn, Batch and the transfer hook's configuration. TestToken2022More runs
// them through ledgerd's native Token-2022 and through LiteSVM running the real Token-2022 11.0.0 build, and
// requires the same outcome, fee, return data, accounts byte for byte and program log lines (the lines that
// report compute units aside: the native program's units are estimates).

var (
	grp1 = keypair(50)
	grp2 = keypair(51)
	mem1 = keypair(52)
	mem2 = keypair(53)
	wsol = keypair(54)
)

// t22 is Token-2022's id.
var t22 = token.Program2022ID

func t22More() []*scenario {
	return []*scenario{t22NativeAndLamports(), t22Groups(), t22ScaledUiAmount(), t22Pausable(), t22PermissionedBurn(),
		t22Batch(), t22TransferHookConfig(), t22TransferHookExecution(), t22Confidential(), t22OwnerChecks()}
}

// t22OwnerChecks runs the base instructions on accounts Token-2022 does not own, where 11.0.0 checks owners before
// anything else (IncorrectProgramId rather than the error the data would give).
func t22OwnerChecks() *scenario {
	sc, b := newScenario("t22more/owner checks first")
	A, B, M := alice.PublicKey(), bob.PublicKey(), mint1.PublicKey()
	a1, a2 := acct1.PublicKey(), acct2.PublicKey()
	b.ok("a mint and an account", append(createMint(t22, mint1, A, &A, 2), createAccount22(acct1, M, A, token.AccountSize)...),
		payer, mint1, acct1)
	b.ok("mint", ixs(token.MintTo(t22, M, a1, A, nil, 100)), alice)
	b.fail("SetAuthority of a system account", ixs(token.SetAuthority(t22, A, &B, token.AuthorityMintTokens, A, nil)), alice)
	b.fail("Transfer to a system account", ixs(token.Transfer(t22, a1, B, A, nil, 1)), alice)
	b.fail("Transfer from a system account by someone else", ixs(token.Transfer(t22, B, a1, A, nil, 1)), alice)
	b.fail("TransferChecked naming a system account as mint", ixs(token.TransferChecked(t22, a1, B, a2, A, nil, 1, 2)), alice)
	b.fail("Approve of a system account", ixs(token.Approve(t22, A, B, A, nil, 1)), alice)
	b.fail("ApproveChecked naming a system account as mint", ixs(token.ApproveChecked(t22, a1, B, B, A, nil, 1, 2)), alice)
	b.fail("Revoke of a system account", ixs(token.Revoke(t22, A, A, nil)), alice)
	b.fail("CloseAccount of a system account into itself", ixs(token.CloseAccount(t22, A, A, A, nil)), alice)
	b.fail("FreezeAccount naming a system account as mint", ixs(token.FreezeAccount(t22, a1, B, A, nil)), alice)
	b.fail("MintTo naming a system account as mint", ixs(token.MintTo(t22, B, a1, A, nil, 1)), alice)
	b.fail("Burn of a system account", ixs(token.Burn(t22, A, M, A, nil, 1)), alice)
	return sc
}

// createAccount22 creates a Token-2022 account of mint for owner, sized for the mint's required extensions.
func createAccount22(acct core.Keypair, mint, owner core.Pubkey, size int) []core.Instruction {
	return ixs(system.CreateAccount(payer.PublicKey(), acct.PublicKey(), rentFor(size), uint64(size), t22),
		token.InitializeAccount3(t22, acct.PublicKey(), mint, owner))
}

func extLen(exts ...token.ExtensionType) int {
	n, err := token.MintExtensionLen(exts...)
	if err != nil {
		panic(err)
	}
	return n
}

func acctLen(exts ...token.ExtensionType) int {
	n, err := token.AccountExtensionLen(exts...)
	if err != nil {
		panic(err)
	}
	return n
}

func t22NativeAndLamports() *scenario {
	sc, b := newScenario("t22more/native mint, excess lamports, unwrap")
	A, B, M := alice.PublicKey(), bob.PublicKey(), mint1.PublicKey()
	a1, a2, w := acct1.PublicKey(), acct2.PublicKey(), wsol.PublicKey()
	b.fail("CreateNativeMint naming another address", ixs(func() core.Instruction {
		in := token.CreateNativeMint(payer.PublicKey())
		in.Accounts[1] = core.Writable(M)
		return in
	}()), payer)
	b.ok("CreateNativeMint", ixs(token.CreateNativeMint(payer.PublicKey())), payer)
	b.fail("CreateNativeMint again", ixs(token.CreateNativeMint(payer.PublicKey())), payer)
	b.ok("a mint and two accounts", append(append(createMint(t22, mint1, A, nil, 2), createAccount22(acct1, M, A, token.AccountSize)...),
		createAccount22(acct2, M, B, token.AccountSize)...), payer, mint1, acct1, acct2)
	b.ok("lamports sent to the mint and an account", ixs(system.Transfer(payer.PublicKey(), M, 5_000_000),
		system.Transfer(payer.PublicKey(), a1, 7_000_000)), payer)
	b.fail("WithdrawExcessLamports of an account by someone else", ixs(token.WithdrawExcessLamports(a1, B, B, nil)), bob)
	b.ok("WithdrawExcessLamports of an account by its owner", ixs(token.WithdrawExcessLamports(a1, B, A, nil)), alice)
	b.fail("WithdrawExcessLamports of a mint by someone else", ixs(token.WithdrawExcessLamports(M, B, B, nil)), bob)
	b.ok("WithdrawExcessLamports of a mint by its mint authority", ixs(token.WithdrawExcessLamports(M, A, A, nil)), alice)
	b.ok("WithdrawExcessLamports with nothing in excess", ixs(token.WithdrawExcessLamports(a1, B, A, nil)), alice)
	b.fail("WithdrawExcessLamports of a system account", ixs(token.WithdrawExcessLamports(B, A, B, nil)), bob)
	b.ok("a wrapped SOL account with 3 SOL", ixs(
		system.CreateAccount(payer.PublicKey(), w, rentFor(token.AccountSize)+3_000_000_000, token.AccountSize, t22),
		token.InitializeAccount3(t22, w, token.NativeMint2022, A)), payer, wsol)
	b.fail("WithdrawExcessLamports of a wrapped SOL account", ixs(token.WithdrawExcessLamports(w, B, A, nil)), alice)
	one := uint64(1_000_000_000)
	b.ok("UnwrapLamports of 1 SOL", ixs(token.UnwrapLamports(w, B, A, nil, &one)), alice)
	b.fail("UnwrapLamports by someone else", ixs(token.UnwrapLamports(w, B, B, nil, &one)), bob)
	much := uint64(5_000_000_000)
	b.fail("UnwrapLamports of more than held", ixs(token.UnwrapLamports(w, B, A, nil, &much)), alice)
	b.ok("Approve a delegate", ixs(token.Approve(t22, w, C(), A, nil, 500_000_000)), alice)
	half := uint64(500_000_000)
	b.ok("UnwrapLamports by the delegate", ixs(token.UnwrapLamports(w, A, C(), nil, &half)), carol)
	b.fail("UnwrapLamports of a non-native account", ixs(token.UnwrapLamports(a2, A, B, nil, nil)), bob)
	b.ok("UnwrapLamports of the rest", ixs(token.UnwrapLamports(w, B, A, nil, nil)), alice)
	b.ok("UnwrapLamports of nothing", ixs(token.UnwrapLamports(w, B, A, nil, nil)), alice)
	return sc
}

// C is carol's address.
func C() core.Pubkey { return carol.PublicKey() }

func t22Groups() *scenario {
	sc, b := newScenario("t22more/group pointers and token groups")
	A, B, G, G2, M1, M2 := alice.PublicKey(), bob.PublicKey(), grp1.PublicKey(), grp2.PublicKey(), mem1.PublicKey(), mem2.PublicKey()
	extra := uint64(10_000_000)
	b.fail("a group pointer with neither authority nor address", createMint2022(grp1, A, nil, 0, 0,
		[]token.ExtensionType{token.ExtGroupPointer}, token.InitializePointer(token.ExtGroupPointer, G, nil, nil)), payer, grp1)
	b.ok("a group mint", createMint2022(grp1, A, nil, 0, extra, []token.ExtensionType{token.ExtGroupPointer},
		token.InitializePointer(token.ExtGroupPointer, G, &A, &G)), payer, grp1)
	b.fail("InitializeGroup signed by someone else", ixs(token.InitializeTokenGroup(G, B, &A, 2)), bob)
	b.ok("InitializeGroup", ixs(token.InitializeTokenGroup(G, A, &A, 2)), alice)
	b.fail("InitializeGroup twice", ixs(token.InitializeTokenGroup(G, A, &A, 2)), alice)
	b.ok("UpdateGroupMaxSize", ixs(token.UpdateTokenGroupMaxSize(G, A, 3)), alice)
	b.fail("UpdateGroupMaxSize by someone else", ixs(token.UpdateTokenGroupMaxSize(G, B, 3)), bob)
	b.ok("UpdatePointer of the group pointer", ixs(token.UpdatePointer(token.ExtGroupPointer, G, A, nil, &B)), alice)
	b.fail("UpdatePointer by someone else", ixs(token.UpdatePointer(token.ExtGroupPointer, G, B, nil, &A)), bob)
	b.ok("a member mint", createMint2022(mem1, A, nil, 0, extra, []token.ExtensionType{token.ExtGroupMemberPointer},
		token.InitializePointer(token.ExtGroupMemberPointer, M1, &A, &M1)), payer, mem1)
	b.ok("InitializeMember", ixs(token.InitializeTokenGroupMember(M1, A, G, A)), alice)
	b.fail("InitializeMember twice", ixs(token.InitializeTokenGroupMember(M1, A, G, A)), alice)
	b.ok("a second member mint without authority on its pointer", createMint2022(mem2, A, nil, 0, extra,
		[]token.ExtensionType{token.ExtGroupMemberPointer}, token.InitializePointer(token.ExtGroupMemberPointer, M2, nil, &M2)), payer, mem2)
	b.fail("UpdatePointer of a pointer without authority", ixs(token.UpdatePointer(token.ExtGroupMemberPointer, M2, A, nil, nil)), alice)
	b.fail("InitializeMember with the group's wrong update authority", ixs(token.InitializeTokenGroupMember(M2, A, G, B)), alice, bob)
	b.fail("a group that is its own member", ixs(token.InitializeTokenGroupMember(G, A, G, A)), alice)
	b.ok("UpdateGroupMaxSize to the size", ixs(token.UpdateTokenGroupMaxSize(G, A, 1)), alice)
	b.fail("InitializeMember past the max size", ixs(token.InitializeTokenGroupMember(M2, A, G, A)), alice)
	b.fail("UpdateGroupMaxSize below the size", ixs(token.UpdateTokenGroupMaxSize(G, A, 0)), alice)
	b.ok("UpdateGroupMaxSize and InitializeMember", ixs(token.UpdateTokenGroupMaxSize(G, A, 5),
		token.InitializeTokenGroupMember(M2, A, G, A)), alice)
	b.ok("UpdateGroupAuthority to bob", ixs(token.UpdateTokenGroupAuthority(G, A, &B)), alice)
	b.fail("UpdateGroupAuthority by the old authority", ixs(token.UpdateTokenGroupAuthority(G, A, &A)), alice)
	b.ok("UpdateGroupAuthority to none", ixs(token.UpdateTokenGroupAuthority(G, B, nil)), bob)
	b.fail("UpdateGroupMaxSize of an immutable group", ixs(token.UpdateTokenGroupMaxSize(G, B, 9)), bob)
	b.fail("InitializeGroup on a mint without a group pointer", append(createMint2022(grp2, A, nil, 0, extra,
		[]token.ExtensionType{token.ExtMintCloseAuthority}, token.InitializeMintCloseAuthority(G2, &A)),
		token.InitializeTokenGroup(G2, A, &A, 1)), payer, grp2, alice)
	b.fail("InitializeGroup in another account than the mint", ixs(func() core.Instruction {
		in := token.InitializeTokenGroup(M1, A, &A, 1)
		in.Accounts[0] = core.Writable(G)
		return in
	}()), alice)
	b.fail("a group instruction with a short payload", ixs(func() core.Instruction {
		in := token.UpdateTokenGroupMaxSize(G, B, 9)
		in.Data = in.Data[:12]
		return in
	}()), bob)
	return sc
}

func t22ScaledUiAmount() *scenario {
	sc, b := newScenario("t22more/scaled ui amount")
	A, B, M := alice.PublicKey(), bob.PublicKey(), mint1.PublicKey()
	b.fail("a zero multiplier", createMint2022(mint1, A, nil, 2, 0, []token.ExtensionType{token.ExtScaledUiAmount},
		token.InitializeScaledUiAmount(M, &A, 0)), payer, mint1)
	b.fail("a negative multiplier", createMint2022(mint1, A, nil, 2, 0, []token.ExtensionType{token.ExtScaledUiAmount},
		token.InitializeScaledUiAmount(M, &A, -2)), payer, mint1)
	b.fail("with interest", createMint2022(mint1, A, nil, 2, 0, []token.ExtensionType{token.ExtScaledUiAmount, token.ExtInterestBearingConfig},
		token.InitializeScaledUiAmount(M, &A, 2), token.InitializeInterestBearingConfig(M, &A, 5)), payer, mint1)
	b.ok("a scaled mint", createMint2022(mint1, A, nil, 2, 0, []token.ExtensionType{token.ExtScaledUiAmount},
		token.InitializeScaledUiAmount(M, &A, 1.5)), payer, mint1)
	b.ok("AmountToUiAmount", ixs(token.AmountToUiAmount(t22, M, 12_345)), payer)
	b.ok("UiAmountToAmount", ixs(token.UiAmountToAmount(t22, M, "185.17")), payer)
	b.ok("UiAmountToAmount in exponent form", ixs(token.UiAmountToAmount(t22, M, "1e3")), payer)
	b.fail("UiAmountToAmount of text", ixs(token.UiAmountToAmount(t22, M, "many")), payer)
	b.fail("UiAmountToAmount of a negative amount", ixs(token.UiAmountToAmount(t22, M, "-1")), payer)
	b.ok("UpdateMultiplier now", ixs(token.UpdateScaledUiAmountMultiplier(M, A, nil, 3, 0)), alice)
	b.ok("AmountToUiAmount at 3", ixs(token.AmountToUiAmount(t22, M, 7)), payer)
	b.ok("UpdateMultiplier later", ixs(token.UpdateScaledUiAmountMultiplier(M, A, nil, 0.25, unixTimestamp+3600)), alice)
	b.ok("AmountToUiAmount before the new multiplier", ixs(token.AmountToUiAmount(t22, M, 1)), payer)
	b.fail("UpdateMultiplier by someone else", ixs(token.UpdateScaledUiAmountMultiplier(M, B, nil, 2, 0)), bob)
	b.fail("UpdateMultiplier to infinity", ixs(token.UpdateScaledUiAmountMultiplier(M, A, nil, math.Inf(1), 0)), alice)
	b.ok("SetAuthority of the scaled ui amount", ixs(token.SetAuthority(t22, M, &B, token.AuthorityScaledUiAmount, A, nil)), alice)
	b.ok("UpdateMultiplier by the new authority, in the past", ixs(token.UpdateScaledUiAmountMultiplier(M, B, nil, 10, -5)), bob)
	b.ok("SetAuthority to none", ixs(token.SetAuthority(t22, M, nil, token.AuthorityScaledUiAmount, B, nil)), bob)
	b.fail("UpdateMultiplier without authority", ixs(token.UpdateScaledUiAmountMultiplier(M, B, nil, 2, 0)), bob)
	return sc
}

func t22Pausable() *scenario {
	sc, b := newScenario("t22more/pausable")
	A, B, M := alice.PublicKey(), bob.PublicKey(), mint1.PublicKey()
	a1, a2 := acct1.PublicKey(), acct2.PublicKey()
	b.fail("a zero pause authority", createMint2022(mint1, A, nil, 2, 0, []token.ExtensionType{token.ExtPausable},
		token.InitializePausable(M, core.Pubkey{})), payer, mint1)
	b.ok("a pausable mint", createMint2022(mint1, A, nil, 2, 0, []token.ExtensionType{token.ExtPausable},
		token.InitializePausable(M, A)), payer, mint1)
	size := acctLen(token.ExtPausableAccount)
	b.ok("two accounts", append(createAccount22(acct1, M, A, size), createAccount22(acct2, M, B, size)...), payer, acct1, acct2)
	b.ok("mint", ixs(token.MintTo(t22, M, a1, A, nil, 1_000)), alice)
	b.fail("Pause by someone else", ixs(token.Pause(M, B, nil, true)), bob)
	b.ok("Pause", ixs(token.Pause(M, A, nil, true)), alice)
	b.fail("transfer while paused", ixs(token.TransferChecked(t22, a1, M, a2, A, nil, 1, 2)), alice)
	b.fail("unchecked transfer of a pausable account", ixs(token.Transfer(t22, a1, a2, A, nil, 1)), alice)
	b.fail("mint while paused", ixs(token.MintTo(t22, M, a1, A, nil, 1)), alice)
	b.fail("burn while paused", ixs(token.Burn(t22, a1, M, A, nil, 1)), alice)
	b.ok("Pause again", ixs(token.Pause(M, A, nil, true)), alice)
	b.ok("Resume", ixs(token.Pause(M, A, nil, false)), alice)
	b.ok("transfer, mint and burn", ixs(token.TransferChecked(t22, a1, M, a2, A, nil, 10, 2), token.MintTo(t22, M, a1, A, nil, 5),
		token.Burn(t22, a1, M, A, nil, 3)), alice)
	b.ok("SetAuthority of pause", ixs(token.SetAuthority(t22, M, &B, token.AuthorityPause, A, nil)), alice)
	b.ok("Pause by the new authority", ixs(token.Pause(M, B, nil, true)), bob)
	b.ok("SetAuthority of pause to none", ixs(token.SetAuthority(t22, M, nil, token.AuthorityPause, B, nil)), bob)
	b.fail("Resume without an authority", ixs(token.Pause(M, B, nil, false)), bob)
	return sc
}

func t22PermissionedBurn() *scenario {
	sc, b := newScenario("t22more/permissioned burn")
	A, B, M := alice.PublicKey(), bob.PublicKey(), mint1.PublicKey()
	a1 := acct1.PublicKey()
	b.ok("a mint with a permissioned burn authority", createMint2022(mint1, A, nil, 2, 0,
		[]token.ExtensionType{token.ExtPermissionedBurn}, token.InitializePermissionedBurn(M, C())), payer, mint1)
	b.ok("an account and tokens", append(createAccount22(acct1, M, A, token.AccountSize), token.MintTo(t22, M, a1, A, nil, 1_000)), payer, acct1, alice)
	b.fail("a standard burn", ixs(token.Burn(t22, a1, M, A, nil, 1)), alice)
	b.ok("a permissioned burn", ixs(token.PermissionedBurn(a1, M, C(), A, nil, 10, nil)), alice, carol)
	d := uint8(2)
	b.ok("a permissioned checked burn", ixs(token.PermissionedBurn(a1, M, C(), A, nil, 10, &d)), alice, carol)
	bad := uint8(3)
	b.fail("a permissioned checked burn with the wrong decimals", ixs(token.PermissionedBurn(a1, M, C(), A, nil, 10, &bad)), alice, carol)
	b.fail("a permissioned burn with another burn authority", ixs(token.PermissionedBurn(a1, M, B, A, nil, 10, nil)), alice, bob)
	b.fail("a permissioned burn by someone else", ixs(token.PermissionedBurn(a1, M, C(), B, nil, 10, nil)), bob, carol)
	b.ok("SetAuthority of permissioned burn to none", ixs(token.SetAuthority(t22, M, nil, token.AuthorityPermissionedBurn, C(), nil)), carol)
	b.fail("a permissioned burn without the authority", ixs(token.PermissionedBurn(a1, M, C(), A, nil, 10, nil)), alice, carol)
	b.ok("a standard burn again", ixs(token.Burn(t22, a1, M, A, nil, 1)), alice)
	b.ok("a plain mint", createMint2022(mint2, A, nil, 2, 0, nil), payer, mint2)
	b.fail("a permissioned burn on a mint without the extension", ixs(token.PermissionedBurn(a1, mint2.PublicKey(), C(), A, nil, 1, nil)), alice, carol)
	return sc
}

func t22Batch() *scenario {
	sc, b := newScenario("t22more/batch")
	A, B, M := alice.PublicKey(), bob.PublicKey(), mint1.PublicKey()
	a1, a2 := acct1.PublicKey(), acct2.PublicKey()
	b.ok("create the accounts", ixs(
		system.CreateAccount(payer.PublicKey(), M, rentFor(token.MintSize), token.MintSize, t22),
		system.CreateAccount(payer.PublicKey(), a1, rentFor(token.AccountSize), token.AccountSize, t22),
		system.CreateAccount(payer.PublicKey(), a2, rentFor(token.AccountSize), token.AccountSize, t22)), payer, mint1, acct1, acct2)
	b.ok("a batch initializing, minting and transferring", ixs(token.Batch(
		token.InitializeMint2(t22, M, A, nil, 3),
		token.InitializeAccount3(t22, a1, M, A),
		token.InitializeAccount3(t22, a2, M, B),
		token.MintTo(t22, M, a1, A, nil, 900),
		token.TransferChecked(t22, a1, M, a2, A, nil, 300, 3),
		token.AmountToUiAmount(t22, M, 1234))), alice)
	b.fail("a batch whose last instruction fails", ixs(token.Batch(
		token.Transfer(t22, a1, a2, A, nil, 1),
		token.Transfer(t22, a1, a2, A, nil, 10_000))), alice)
	b.fail("a batch in a batch", ixs(token.Batch(token.Batch(token.Transfer(t22, a1, a2, A, nil, 1)))), alice)
	b.fail("an empty batch", ixs(token.Batch()), alice)
	b.fail("a batch short of accounts", ixs(func() core.Instruction {
		in := token.Batch(token.Transfer(t22, a1, a2, A, nil, 1))
		in.Accounts = in.Accounts[:2]
		return in
	}()), alice)
	b.fail("a batch with a truncated entry", ixs(func() core.Instruction {
		in := token.Batch(token.Transfer(t22, a1, a2, A, nil, 1))
		in.Data = in.Data[:5]
		return in
	}()), alice)
	b.ok("a batch burning with a multisig-free delegate", ixs(token.Batch(
		token.Approve(t22, a2, C(), B, nil, 50),
		token.Burn(t22, a2, M, C(), nil, 20))), bob, carol)
	return sc
}

func t22TransferHookConfig() *scenario {
	sc, b := newScenario("t22more/transfer hook configuration")
	A, B, M := alice.PublicKey(), bob.PublicKey(), mint1.PublicKey()
	hook := core.MustParsePubkey("Memo1UhkJRfHyvLMcVucJwxXeuD728EqVDDwQDxFMNo")
	b.fail("a transfer hook with neither", createMint2022(mint1, A, nil, 2, 0, []token.ExtensionType{token.ExtTransferHook},
		token.InitializePointer(token.ExtTransferHook, M, nil, nil)), payer, mint1)
	b.fail("a transfer hook naming Token-2022", createMint2022(mint1, A, nil, 2, 0, []token.ExtensionType{token.ExtTransferHook},
		token.InitializePointer(token.ExtTransferHook, M, &A, &t22)), payer, mint1)
	b.ok("a mint with a transfer hook authority and no program", createMint2022(mint1, A, nil, 2, 0,
		[]token.ExtensionType{token.ExtTransferHook}, token.InitializePointer(token.ExtTransferHook, M, &A, nil)), payer, mint1)
	size := acctLen(token.ExtTransferHookAccount)
	b.ok("two accounts", append(createAccount22(acct1, M, A, size), createAccount22(acct2, M, B, size)...), payer, acct1, acct2)
	b.ok("mint and transfer without a hook program", ixs(token.MintTo(t22, M, acct1.PublicKey(), A, nil, 100),
		token.TransferChecked(t22, acct1.PublicKey(), M, acct2.PublicKey(), A, nil, 10, 2)), alice)
	b.fail("an unchecked transfer of a hooked account", ixs(token.Transfer(t22, acct1.PublicKey(), acct2.PublicKey(), A, nil, 1)), alice)
	b.fail("Update naming Token-2022", ixs(token.UpdatePointer(token.ExtTransferHook, M, A, nil, &t22)), alice)
	b.fail("Update by someone else", ixs(token.UpdatePointer(token.ExtTransferHook, M, B, nil, &hook)), bob)
	b.ok("Update to a program", ixs(token.UpdatePointer(token.ExtTransferHook, M, A, nil, &hook)), alice)
	b.ok("SetAuthority of the transfer hook", ixs(token.SetAuthority(t22, M, &B, token.AuthorityTransferHookProgramID, A, nil)), alice)
	b.ok("Update to none by the new authority", ixs(token.UpdatePointer(token.ExtTransferHook, M, B, nil, nil)), bob)
	return sc
}

// extraMetas is a validation account's data listing metas for the transfer-hook interface's Execute.
func extraMetas(metas ...[35]byte) []byte {
	v := binary.LittleEndian.AppendUint32(nil, uint32(len(metas)))
	for _, m := range metas {
		v = append(v, m[:]...)
	}
	d := append([]byte{105, 37, 101, 197, 75, 251, 102, 26}, binary.LittleEndian.AppendUint32(nil, uint32(len(v)))...)
	return append(d, v...)
}

// meta is an extra account meta: discriminator, address configuration, signer, writable.
func meta(disc byte, config []byte, signer, writable bool) [35]byte {
	var m [35]byte
	m[0] = disc
	copy(m[1:33], config)
	if signer {
		m[33] = 1
	}
	if writable {
		m[34] = 1
	}
	return m
}

// t22TransferHookExecution runs checked transfers of a mint whose transfer hook is memo v1 (the real builds hold no
// transfer-hook program): the hook's Execute is invoked with the transfer's accounts and the extra accounts its
// validation account lists (a fixed address, a program address of literal, account, instruction-data and
// account-data seeds, a key read from account data), and memo v1 refuses Execute's data, which is not UTF-8, so
// the transfers fail inside the hook, after the resolution; a missing extra account fails the transfer in the token
// program with IncorrectAccount, and a hook program absent from the transaction in the runtime.
func t22TransferHookExecution() *scenario {
	sc, b := newScenario("t22more/transfer hook execution")
	A, B, M := alice.PublicKey(), bob.PublicKey(), mint1.PublicKey()
	a1, a2 := acct1.PublicKey(), acct2.PublicKey()
	memo1 := core.MemoV1ProgramID
	validation := token.ExtraAccountMetasAddress(M, memo1)
	pdaSeeds := append([]byte{1, 4, 'h', 'o', 'o', 'k', 3, 0, 3, 2, 2, 8, 8}, 4, 0, 32, 32) // "hook", source, destination, amount, the source's owner
	b.sc.accounts[validation] = runtime.Account{Lamports: rentFor(200), Owner: memo1, RentEpoch: runtime.RentExemptRentEpoch,
		Data: extraMetas(meta(0, B[:], false, true), meta(1, pdaSeeds, false, false), meta(2, []byte{2, 0, 32}, false, false))}
	pda, _, _ := core.FindProgramAddress([][]byte{[]byte("hook"), a1[:], a2[:], binary.LittleEndian.AppendUint64(nil, 10), A[:]}, memo1)
	size := acctLen(token.ExtTransferHookAccount)
	b.ok("a mint hooked to memo v1", createMint2022(mint1, A, nil, 2, 0, []token.ExtensionType{token.ExtTransferHook},
		token.InitializePointer(token.ExtTransferHook, M, &A, &memo1)), payer, mint1)
	b.ok("accounts", slices.Concat(createAccount22(acct1, M, A, size), createAccount22(acct2, M, B, size)), payer, acct1, acct2)
	b.ok("mint", ixs(token.MintTo(t22, M, a1, A, nil, 100)), alice)
	withExtra := func(in core.Instruction, extra ...core.AccountMeta) core.Instruction {
		in.Accounts = append(in.Accounts, extra...)
		return in
	}
	b.fail("a transfer whose hook program is not in the transaction", ixs(token.TransferChecked(t22, a1, M, a2, A, nil, 10, 2)), alice)
	b.fail("a transfer whose hook is memo v1, without a validation account", ixs(withExtra(token.TransferChecked(t22, a1, M, a2, A, nil, 10, 2),
		core.Readonly(memo1))), alice)
	b.fail("a transfer with the validation account and every extra account", ixs(withExtra(token.TransferChecked(t22, a1, M, a2, A, nil, 10, 2),
		core.Readonly(memo1), core.Readonly(validation), core.Writable(B), core.Readonly(pda), core.Readonly(A))), alice)
	b.fail("a transfer with the validation account and an extra account missing", ixs(withExtra(token.TransferChecked(t22, a1, M, a2, A, nil, 10, 2),
		core.Readonly(memo1), core.Readonly(validation), core.Writable(B))), alice)
	b.fail("a transfer whose extra PDA is of another amount", ixs(withExtra(token.TransferChecked(t22, a1, M, a2, A, nil, 11, 2),
		core.Readonly(memo1), core.Readonly(validation), core.Writable(B), core.Readonly(pda), core.Readonly(A))), alice)
	// Validation accounts the resolution cannot read: too short, another TLV entry only, then zeros, a count past the
	// entry's metas, an entry running past the data, a list of partial metas.
	exec := []byte{105, 37, 101, 197, 75, 251, 102, 26}
	for i, data := range [][]byte{{1, 2, 3}, append([]byte{1, 2, 3, 4, 5, 6, 7, 8, 4, 0, 0, 0}, 0, 0, 0, 0),
		append([]byte{1, 2, 3, 4, 5, 6, 7, 8, 4, 0, 0, 0}, make([]byte, 16)...), slices.Concat(exec, []byte{4, 0, 0, 0, 2, 0, 0, 0}),
		slices.Concat(exec, []byte{39, 0, 0, 0, 1, 0, 0, 0, 9}), slices.Concat(exec, []byte{7, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0})} {
		mk := []core.Keypair{mint2, mint3, mint4, mint5, mint6, mint7}[i]
		m := mk.PublicKey()
		ac, ad := keypair(byte(70+i)), keypair(byte(60+i))
		b.sc.accounts[token.ExtraAccountMetasAddress(m, memo1)] = runtime.Account{Lamports: rentFor(100), Owner: memo1,
			RentEpoch: runtime.RentExemptRentEpoch, Data: data}
		b.ok(fmt.Sprintf("hooked mint %d", i), slices.Concat(createMint2022(mk, A, nil, 2, 0, []token.ExtensionType{token.ExtTransferHook},
			token.InitializePointer(token.ExtTransferHook, m, &A, &memo1)), createAccount22(ac, m, A, size), createAccount22(ad, m, B, size),
			ixs(token.MintTo(t22, m, ac.PublicKey(), A, nil, 5))), payer, mk, ac, ad, alice)
		b.fail(fmt.Sprintf("a transfer whose validation account is malformed (%d)", i), ixs(withExtra(token.TransferChecked(t22,
			ac.PublicKey(), m, ad.PublicKey(), A, nil, 1, 2), core.Readonly(memo1), core.Readonly(token.ExtraAccountMetasAddress(m, memo1)))), alice)
	}
	b.ok("Update the hook to none", ixs(token.UpdatePointer(token.ExtTransferHook, M, A, nil, nil)), alice)
	b.ok("the transfer without a hook", ixs(token.TransferChecked(t22, a1, M, a2, A, nil, 10, 2)), alice)
	return sc
}

// confidentialAccount is a Token-2022 account of mint for owner holding a ConfidentialTransferAccount as
// ConfigureAccount leaves it (not approved, confidential and non-confidential credits allowed), which the
// confidential instructions without proofs work on.
func confidentialAccount(mint, owner core.Pubkey) runtime.Account {
	size := acctLen(token.ExtConfidentialTransferAccount)
	d := make([]byte, size)
	copy(d, mint[:])
	copy(d[32:], owner[:])
	d[108] = 1               // initialized
	d[165] = 2               // account type: account
	d[166], d[168] = 5, 0x27 // ConfidentialTransferAccount, 295 bytes
	d[169] = 0x01            // 295 = 0x0127
	v := d[170:]
	for i := 1; i < 33; i++ { // an ElGamal key
		v[i] = byte(i)
	}
	v[261], v[262] = 1, 1
	binary.LittleEndian.PutUint64(v[271:], 65536) // maximum pending balance credit counter
	return runtime.Account{Lamports: rentFor(size), Owner: t22, Data: d, RentEpoch: runtime.RentExemptRentEpoch}
}

// t22Confidential runs the confidential extensions' instructions that need no proof.
func t22Confidential() *scenario {
	sc, b := newScenario("t22more/confidential configuration")
	A, B, M, M2, M3 := alice.PublicKey(), bob.PublicKey(), mint1.PublicKey(), mint2.PublicKey(), mint3.PublicKey()
	a1 := acct1.PublicKey()
	auditor := [32]byte{9, 8, 7}
	b.sc.accounts[a1] = confidentialAccount(M, B)
	b.ok("a confidential transfer mint", createMint2022(mint1, A, nil, 2, 0, []token.ExtensionType{token.ExtConfidentialTransferMint},
		token.InitializeConfidentialTransferMint(M, &A, false, &auditor)), payer, mint1)
	b.ok("UpdateMint", ixs(token.UpdateConfidentialTransferMint(M, A, true, nil)), alice)
	b.fail("UpdateMint by someone else", ixs(token.UpdateConfidentialTransferMint(M, B, false, nil)), bob)
	b.fail("ApproveAccount by someone else", ixs(token.ApproveConfidentialTransferAccount(a1, M, B)), bob)
	b.ok("ApproveAccount", ixs(token.ApproveConfidentialTransferAccount(a1, M, A)), alice)
	b.ok("DisableConfidentialCredits", ixs(token.ConfidentialCredits(a1, B, nil, false, false)), bob)
	b.ok("DisableNonConfidentialCredits", ixs(token.ConfidentialCredits(a1, B, nil, true, false)), bob)
	b.fail("DisableNonConfidentialCredits by someone else", ixs(token.ConfidentialCredits(a1, A, nil, true, false)), alice)
	b.ok("another account of the mint", createAccount22(acct2, M, A, token.AccountSize), payer, acct2)
	b.ok("mint to it", ixs(token.MintTo(t22, M, acct2.PublicKey(), A, nil, 10)), alice)
	b.fail("a transfer to the account without non-confidential credits", ixs(token.TransferChecked(t22, acct2.PublicKey(), M, a1, A, nil, 1, 2)), alice)
	b.ok("EnableNonConfidentialCredits and the transfer", ixs(token.ConfidentialCredits(a1, B, nil, true, true),
		token.TransferChecked(t22, acct2.PublicKey(), M, a1, A, nil, 1, 2)), bob, alice)
	b.ok("EnableConfidentialCredits", ixs(token.ConfidentialCredits(a1, B, nil, false, true)), bob)
	b.fail("ApproveAccount of an account without the extension", ixs(token.ApproveConfidentialTransferAccount(acct2.PublicKey(), M, A)), alice)
	b.fail("a transfer fee without its confidential config", createMint2022(mint2, A, nil, 2, 0,
		[]token.ExtensionType{token.ExtConfidentialTransferMint, token.ExtTransferFeeConfig},
		token.InitializeConfidentialTransferMint(M2, &A, true, nil), token.InitializeTransferFeeConfig(M2, &A, &A, 10, 100)), payer, mint2)
	b.ok("a confidential transfer fee mint", createMint2022(mint2, A, nil, 2, 0,
		[]token.ExtensionType{token.ExtConfidentialTransferMint, token.ExtTransferFeeConfig, token.ExtConfidentialTransferFeeConfig},
		token.InitializeConfidentialTransferMint(M2, &A, true, nil), token.InitializeTransferFeeConfig(M2, &A, &A, 10, 100),
		token.InitializeConfidentialTransferFeeConfig(M2, &A, auditor)), payer, mint2)
	b.ok("DisableHarvestToMint", ixs(token.HarvestToMint(M2, A, nil, false)), alice)
	b.fail("EnableHarvestToMint by someone else", ixs(token.HarvestToMint(M2, B, nil, true)), bob)
	b.ok("EnableHarvestToMint", ixs(token.HarvestToMint(M2, A, nil, true)), alice)
	b.fail("a confidential mint-burn mint without confidential transfers", createMint2022(mint3, A, nil, 2, 0,
		[]token.ExtensionType{token.ExtConfidentialMintBurn}, token.InitializeConfidentialMintBurn(M3, auditor, [36]byte{1})), payer, mint3)
	b.ok("a confidential mint-burn mint", createMint2022(mint3, A, nil, 2, 0,
		[]token.ExtensionType{token.ExtConfidentialTransferMint, token.ExtConfidentialMintBurn},
		token.InitializeConfidentialTransferMint(M3, &A, true, nil), token.InitializeConfidentialMintBurn(M3, auditor, [36]byte{1})), payer, mint3)
	b.ok("UpdateDecryptableSupply", ixs(token.UpdateDecryptableSupply(M3, A, nil, [36]byte{2, 3})), alice)
	b.fail("UpdateDecryptableSupply by someone else", ixs(token.UpdateDecryptableSupply(M3, B, nil, [36]byte{4})), bob)
	b.ok("an account of the mint-burn mint", createAccount22(acct3, M3, A, token.AccountSize), payer, acct3)
	b.fail("MintTo a confidential mint-burn mint", ixs(token.MintTo(t22, M3, acct3.PublicKey(), A, nil, 1)), alice)
	return sc
}

// TestToken2022More compares ledgerd's native Token-2022 with the real 11.0.0 build run by LiteSVM on t22More.
func TestToken2022More(t *testing.T) {
	progs := realelf.Programs(t)
	oracle := realelf.LiteSVM(t)
	scenarios := t22More()
	native := make([][]outcome, len(scenarios))
	var oscs []realelf.Scenario
	for i, sc := range scenarios {
		native[i] = runLedgerd(t, sc)
		o := realelf.Scenario{Name: sc.name, Programs: []realelf.Program{progs[realelf.Token2022], progs[realelf.Memo1], progs[realelf.Memo4]},
			UnixTimestamp: unixTimestamp}
		for _, k := range sortedKeys(sc.accounts) {
			a := sc.accounts[k]
			o.Accounts = append(o.Accounts, realelf.Account{Address: k, Exists: true, Lamports: a.Lamports, Owner: a.Owner,
				Executable: a.Executable, Data: a.Data})
		}
		for j, st := range sc.steps {
			slot := st.slot
			o.Steps = append(o.Steps, realelf.Step{Name: st.name, Tx: st.tx, Slot: &slot, Watch: native[i][j].watch})
		}
		oscs = append(oscs, o)
	}
	lite := oracle.Run(oscs...)
	for i, sc := range scenarios {
		t.Run(sc.name, func(t *testing.T) {
			for j, st := range sc.steps {
				r := lite[i][j]
				if st.mustFail == r.Succeeded() {
					t.Errorf("%s: the real build's outcome is %s, the corpus expects failure %v\n  %s", st.name, r.ErrDebug,
						st.mustFail, strings.Join(r.Logs, "\n  "))
				}
				for _, d := range compareT22(native[i][j], r) {
					t.Errorf("%s: %s", st.name, d)
				}
				if os.Getenv("PARITY_LOGS") != "" {
					t.Logf("%s: native %d units, real %d units\n  %s", st.name, native[i][j].units, r.ComputeUnits,
						strings.Join(r.Logs, "\n  "))
				}
			}
		})
	}
}

// compareT22 lists how a native outcome differs from the real build's.
func compareT22(got outcome, r realelf.Result) []string {
	var out []string
	if !jsonEqualT22(got.err, string(r.Err)) {
		out = append(out, fmt.Sprintf("outcome: native %s, real %s", got.err, r.Err))
	}
	if got.fee != r.Fee {
		out = append(out, fmt.Sprintf("fee: native %d, real %d", got.fee, r.Fee))
	}
	want := ""
	if r.ReturnData != nil {
		want = r.ReturnData.ProgramID.String() + " " + base64.StdEncoding.EncodeToString(r.ReturnData.Data)
	}
	if got.returnData != want {
		out = append(out, fmt.Sprintf("return data: native %q, real %q", got.returnData, want))
	}
	for _, a := range r.Accounts {
		g, ok := got.accounts[a.Address.String()]
		if !ok {
			out = append(out, "account "+a.Address.String()+" not reported by ledgerd")
			continue
		}
		w := accountJSON{Address: a.Address.String(), Exists: a.Exists, Lamports: "0"}
		if a.Exists {
			w.Lamports, w.Owner, w.Executable = strconv.FormatUint(a.Lamports, 10), a.Owner.String(), a.Executable
			w.Data = base64.StdEncoding.EncodeToString(a.Data)
		}
		if g != w {
			gd, _ := base64.StdEncoding.DecodeString(g.Data)
			out = append(out, fmt.Sprintf("account %s: native %s %s %x, real %s %s %x", w.Address, g.Lamports, g.Owner, gd,
				w.Lamports, w.Owner, a.Data))
		}
	}
	if gl, wl := t22LogLines(got.logs), t22LogLines(r.Logs); !slices.Equal(gl, wl) {
		out = append(out, "logs: native\n    "+strings.Join(gl, "\n    ")+"\n  real\n    "+strings.Join(wl, "\n    "))
	}
	return out
}

// t22LogLines drops the lines reporting compute units.
func t22LogLines(logs []string) []string {
	return slices.DeleteFunc(slices.Clone(logs), func(l string) bool { return strings.Contains(l, " compute units") })
}

func jsonEqualT22(a, b string) bool {
	return strings.Join(strings.Fields(a), "") == strings.Join(strings.Fields(b), "")
}

// TestToken2022HookIntoELF runs the transfer hook scenario with ledgerd's native Token-2022 invoking the real Memo
// 1.0.0 build in ledgerd's VM as the hook program, against LiteSVM running both real builds: the native program's
// invocation of a deployed sBPF hook gives the same outcome, accounts and log lines.
func TestToken2022HookIntoELF(t *testing.T) {
	progs := realelf.Programs(t)
	oracle := realelf.LiteSVM(t)
	sc := t22TransferHookExecution()
	reg, accounts := elfSide(progs, []realelf.Name{realelf.Memo1})
	got := runWith(t, sc, reg, accounts)
	o := realelf.Scenario{Name: sc.name, Programs: []realelf.Program{progs[realelf.Token2022], progs[realelf.Memo1]},
		UnixTimestamp: unixTimestamp}
	for _, k := range sortedKeys(sc.accounts) {
		a := sc.accounts[k]
		o.Accounts = append(o.Accounts, realelf.Account{Address: k, Exists: true, Lamports: a.Lamports, Owner: a.Owner,
			Executable: a.Executable, Data: a.Data})
	}
	for j, st := range sc.steps {
		slot := st.slot
		o.Steps = append(o.Steps, realelf.Step{Name: st.name, Tx: st.tx, Slot: &slot, Watch: got[j].watch})
	}
	lite := oracle.Run(o)[0]
	invoked := 0
	for j, st := range sc.steps {
		for _, d := range compareT22(got[j], lite[j]) {
			t.Errorf("%s: %s", st.name, d)
		}
		if slices.Contains(got[j].logs, "Program "+core.MemoV1ProgramID.String()+" invoke [2]") {
			invoked++
		}
	}
	if invoked < 2 {
		t.Errorf("the hook program ran in %d steps, want at least 2", invoked)
	}
}
