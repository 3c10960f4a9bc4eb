package suite

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"time"

	"ledgerd/generated/rpcapi"
)

// The developer's methods (surfnet_*, ledgerd_*). A node that does not serve them (a reference node, or ledgerd
// bound beyond loopback without --enable-cheats) answers -32601, which every case accepts. The cases change only
// accounts no other case reads, and undo what would disturb the others: the clock paused by one case is resumed
// by its own Setup's helper, and no snapshot is reverted (a revert would erase the other cases' fixtures), so
// ledgerd_revert is called with an id never handed out.

// Two addresses no other case touches (SHA-256 of a label).
const (
	cheatAccount = "DyaNDJF4MbV2sYYGXGHp3JmVGPq8RkSKSVDMdNehgJi3"
	cheatOwner   = "GeA41fvkBgo2C7PiXKBTutJD71S6h95SrhuHkVJM5RuW"
	cheatProgram = "86cjCdfoH5yemDKvpFVStzhfnTZS2iyush4Y5VmTYGwy"
	cheatClone   = "BrG457kmtQbMkkY2sXeHv8aQAVnzvTgyzbBWjnfZRasq"
)

// writeCheatProgram makes cheatProgram an upgradeable program (an ELF's first bytes: never run) for the cases
// that need one, whatever order they run in.
func writeCheatProgram(ctx context.Context, c *Call) error {
	_, _, err := c.Env.http.post(ctx, []byte(`{"jsonrpc":"2.0","id":1,"method":"surfnet_writeProgram","params":["`+cheatProgram+`","7f454c46",0]}`))
	return err
}

// soonVars sets {{soon}} to a unix time in milliseconds two seconds ahead, so a time travel moves the chain's
// clock by little.
func soonVars(ctx context.Context, c *Call) error {
	c.Vars["soon"] = strconv.FormatInt(time.Now().Add(2*time.Second).UnixMilli(), 10)
	return nil
}

// resumeSoon makes sure a paused clock runs again: it resumes the clock a few times over the next seconds, so
// the pause reaches the node first, however late.
func resumeSoon(ctx context.Context, c *Call) error {
	go func() {
		for range 20 {
			time.Sleep(100 * time.Millisecond)
			rctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			_, _, _ = c.Env.http.post(rctx, []byte(`{"jsonrpc":"2.0","id":1,"method":"surfnet_resumeClock"}`))
			cancel()
		}
	}()
	return nil
}

var cheatCases = group(
	ok(rpcapi.MethodSurfnetSetAccount, `["`+cheatAccount+`",{"lamports":1000000,"data":"0102ff","owner":"11111111111111111111111111111111"}]`,
		at("value", `null`)).orError(-32601),
	bad(rpcapi.MethodSurfnetSetAccount, `["`+cheatAccount+`",{"data":"xyz"}]`, -32602, "").orError(-32601).named("data that is not hex"),
	badKeys(rpcapi.MethodSurfnetSetAccount, `["%s",{"lamports":1}]`),

	ok(rpcapi.MethodSurfnetSetTokenAccount, `["`+cheatOwner+`","{{mint}}",{"amount":0}]`, at("value", `null`)).orError(-32601),
	bad(rpcapi.MethodSurfnetSetTokenAccount, `["`+cheatOwner+`","{{wallet}}",{"amount":1}]`, -32602, "").orError(-32601).
		named("a mint that is not one"),
	badKeys(rpcapi.MethodSurfnetSetTokenAccount, `["%s","{{mint}}",{"amount":1}]`),

	ok(rpcapi.MethodSurfnetTimeTravel, `[{"absoluteTimestamp":{{soon}}}]`, atLeast("slotsInEpoch", "1")).with(soonVars).orError(-32601),
	bad(rpcapi.MethodSurfnetTimeTravel, `[{"absoluteSlot":0}]`, -32602, "").orError(-32601).named("a slot in the past"),

	ok(rpcapi.MethodSurfnetPauseClock, ``, atLeast("slotsInEpoch", "1")).with(resumeSoon).orError(-32601),
	noParams(rpcapi.MethodSurfnetPauseClock).orError(-32601),
	ok(rpcapi.MethodSurfnetResumeClock, ``, atLeast("slotsInEpoch", "1")).orError(-32601),
	noParams(rpcapi.MethodSurfnetResumeClock).orError(-32601),

	ok(rpcapi.MethodSurfnetResetAccount, `["`+cheatAccount+`",{"includeOwnedAccounts":false}]`, at("value", `null`)).orError(-32601),
	badKeys(rpcapi.MethodSurfnetResetAccount, `["%s"]`),

	ok(rpcapi.MethodSurfnetGetSurfnetInfo, ``, at("value", `{"runbookExecutions":[]}`)).orError(-32601),
	noParams(rpcapi.MethodSurfnetGetSurfnetInfo).orError(-32601),

	ok(rpcapi.MethodLedgerdAdvanceSlots, `[1]`).orError(-32601),
	bad(rpcapi.MethodLedgerdAdvanceSlots, `[0]`, -32602, "Invalid count; 1 to 10000").orError(-32601),
	ok(rpcapi.MethodLedgerdSnapshot, ``).orError(-32601),
	noParams(rpcapi.MethodLedgerdSnapshot).orError(-32601),
	ok(rpcapi.MethodLedgerdRevert, `[18446744073709551615]`, exact(`false`)).orError(-32601).named("an id never handed out"),
	badParams(rpcapi.MethodLedgerdRevert, `["x"]`).orError(-32601),

	// Impersonating an address no other case signs with changes nothing they see; verification and the blockhash
	// check are only ever set on (their default), as turning them off would change other cases' answers.
	ok(rpcapi.MethodLedgerdImpersonate, `["`+cheatOwner+`"]`, at("value", `null`)).orError(-32601),
	badKeys(rpcapi.MethodLedgerdImpersonate, `["%s"]`),
	ok(rpcapi.MethodLedgerdStopImpersonating, `["`+cheatAccount+`"]`, exact(`false`)).orError(-32601).named("an address never impersonated"),
	badKeys(rpcapi.MethodLedgerdStopImpersonating, `["%s"]`),
	ok(rpcapi.MethodLedgerdSetSigVerify, `[true]`, exact(`true`)).orError(-32601),
	badParams(rpcapi.MethodLedgerdSetSigVerify, `["yes"]`).orError(-32601),
	ok(rpcapi.MethodLedgerdSetBlockhashCheck, `[true]`, exact(`true`)).orError(-32601),
	badParams(rpcapi.MethodLedgerdSetBlockhashCheck, `[1]`).orError(-32601),

	ok(rpcapi.MethodSurfnetWriteProgram, `["`+cheatProgram+`","7f454c46",0]`, at("value", `null`)).orError(-32601),
	bad(rpcapi.MethodSurfnetWriteProgram, `["`+cheatProgram+`","xyz",0]`, -32602, "").orError(-32601).named("data that is not hex"),
	bad(rpcapi.MethodSurfnetWriteProgram, `["`+cheatProgram+`","00",10485760]`, -32602, "").orError(-32601).named("past the largest program"),
	badKeys(rpcapi.MethodSurfnetWriteProgram, `["%s","00",0]`),
	ok(rpcapi.MethodSurfnetSetProgramAuthority, `["`+cheatProgram+`","`+cheatOwner+`"]`, at("value", `null`)).with(writeCheatProgram).orError(-32601),
	bad(rpcapi.MethodSurfnetSetProgramAuthority, `["`+cheatAccount+`"]`, -32602, "").orError(-32601).named("an account that is not a program"),
	badKeys(rpcapi.MethodSurfnetSetProgramAuthority, `["%s"]`),
	ok(rpcapi.MethodSurfnetCloneProgramAccount, `["`+cheatProgram+`","`+cheatClone+`"]`, at("value", `null`)).with(writeCheatProgram).orError(-32601),
	bad(rpcapi.MethodSurfnetCloneProgramAccount, `["`+cheatAccount+`","`+cheatClone+`"]`, -32602, "").orError(-32601).named("a source that is not a program"),
	badKeys(rpcapi.MethodSurfnetCloneProgramAccount, `["%s","`+cheatClone+`"]`),

	// The suite's node forks nothing: the exclusion is recorded and changes nothing else.
	ok(rpcapi.MethodSurfnetOfflineAccount, `["`+cheatOwner+`",{"includeOwnedAccounts":true}]`, at("value", `null`)).orError(-32601),
	ok(rpcapi.MethodSurfnetOfflineAccount, `["`+cheatOwner+`"]`, at("value", `null`)).orError(-32601).named("without a config"),
	badKeys(rpcapi.MethodSurfnetOfflineAccount, `["%s"]`),

	// An empty update overrides nothing, so getSupply's own cases see the chain's figures.
	ok(rpcapi.MethodSurfnetSetSupply, `[{}]`, at("value", `null`)).orError(-32601),
	badKeys(rpcapi.MethodSurfnetSetSupply, `[{"non_circulating_accounts":["%s"]}]`),

	// The whole-chain methods. surfnet_resetNetwork takes every other case's fixtures with it, so it runs last;
	// a profile runs the transfer without sending it; a dump is written under the temporary directory (the suite
	// may talk to a node on another machine, so it cannot remove its own; see dumpDirVars).
	ok(rpcapi.MethodSurfnetResetNetwork, ``, at("value", `null`)).orError(-32601).last(),
	noParams(rpcapi.MethodSurfnetResetNetwork).orError(-32601),
	ok(rpcapi.MethodSurfnetExportSnapshot, ``, atLeast("context.slot", "0")).orError(-32601).named("without params"),
	ok(rpcapi.MethodSurfnetExportSnapshot, `[{"includeParsedAccounts":true,"filter":{"includeProgramAccounts":true,"excludeAccounts":["`+cheatOwner+`"]},"scope":"network"}]`,
		atLeast("context.slot", "0")).orError(-32601),
	bad(rpcapi.MethodSurfnetExportSnapshot, `[{"scope":{"preTransaction":"{{txSig}}"}}]`, -32602, "").orError(-32601).named("the preTransaction scope"),
	badKeys(rpcapi.MethodSurfnetExportSnapshot, `[{"filter":{"excludeAccounts":["%s"]}}]`),
	ok(rpcapi.MethodSurfnetProfileTransaction, `["{{tx64}}","conformance",{"encoding":"base64","depth":"instruction"}]`,
		atLeast("value.transactionProfile.computeUnitsConsumed", "1")).orError(-32601),
	bad(rpcapi.MethodSurfnetProfileTransaction, `["{{badSigTx64}}",null]`, -32602, "Transaction signature verification failure").orError(-32601).named("a bad signature"),
	badParams(rpcapi.MethodSurfnetProfileTransaction, `["{{tx64}}",null,{"depth":"everything"}]`).orError(-32601).named("an unknown depth"),
	ok(rpcapi.MethodSurfnetGetProfileResultsByTag, `["a tag never used"]`, at("value", `null`)).orError(-32601),
	badParams(rpcapi.MethodSurfnetGetProfileResultsByTag, `[]`).orError(-32601).named("no tag"),
	ok(rpcapi.MethodSurfnetGetTransactionProfile, `["00000000-0000-4000-8000-000000000000",{"encoding":"jsonParsed"}]`, at("value", `null`)).orError(-32601),
	badParams(rpcapi.MethodSurfnetGetTransactionProfile, `["00000000-0000-4000-8000-000000000000",{"encoding":"bogus"}]`).orError(-32601).named("an unknown encoding"),
	ok(rpcapi.MethodLedgerdDumpState, `["{{dumpDir}}"]`, at("path", `"{{dumpDir}}"`)).with(dumpDirVars).orError(-32601),
	bad(rpcapi.MethodLedgerdDumpState, `[""]`, -32602, "").orError(-32601).named("no path"),
	badParams(rpcapi.MethodLedgerdDumpState, `[1]`).orError(-32601),
)

// dumpDirVars sets {{dumpDir}} to a path that does not exist yet under one directory of the temporary
// directory, where it first removes the dumps of runs older than an hour (a node on this machine wrote them).
func dumpDirVars(ctx context.Context, c *Call) error {
	parent := filepath.Join(os.TempDir(), "ledgerd-conformance-dumps")
	if entries, err := os.ReadDir(parent); err == nil {
		for _, e := range entries {
			if info, err := e.Info(); err == nil && time.Since(info.ModTime()) > time.Hour {
				_ = os.RemoveAll(filepath.Join(parent, e.Name()))
			}
		}
	}
	c.Vars["dumpDir"] = filepath.Join(parent, fmt.Sprintf("dump-%d", time.Now().UnixNano()))
	return os.MkdirAll(parent, 0o755)
}
