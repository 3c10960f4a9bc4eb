// litesvm_run.mjs is the LiteSVM side of the differential parity test (parity_test.go) and the LiteSVM oracle of
// conformance/realelf (any ELF run by the real runtime): it runs every scenario of the corpus through LiteSVM and
// prints what happened as JSON.
//
//   node litesvm_run.mjs corpus.json > results.json
//
// Corpus: {unixTimestamp, scenarios: [{name, programs: [{id, loader, elf}], features: {activate: [id],
// deactivate: [id]}, accounts: [{address, lamports, owner, executable, data}], steps: [{name, slot,
// slotHashes: [[newest, oldest], ...], tx, watch: [address]}]}]}, with u64 values as decimal strings, data and
// transactions (signed wire bytes) in base64, elf the path of an ELF file. Each scenario starts from a fresh LiteSVM
// (all features enabled but the deactivated ones) holding its programs, each under its loader and replacing
// LiteSVM's own build at that id, and its accounts; its steps run in order. Optional: programs, features, a step's
// slot (the Clock is then left alone) and slotHashes (likewise SlotHashes), watch (the scenario's accounts and the
// transaction's static keys).
//
// Results: [{name, steps: [{err, errDebug, fee, computeUnits, logs, returnData, accounts}]}], err being the
// TransactionError in its serde JSON form (null on success), fee what the watched accounts lost in total (LiteSVM
// keeps no fee collector, so it is the fee), and accounts the watched accounts afterwards.
import { readFileSync } from "node:fs";
import { LiteSVM, Clock, FeatureSet } from "litesvm";
import { address, getTransactionDecoder, getAddressDecoder, getAddressEncoder, getCompiledTransactionMessageDecoder,
  lamports } from "@solana/kit";

const corpus = JSON.parse(readFileSync(process.argv[2], "utf8"));
const txDecoder = getTransactionDecoder();
const addressDecoder = getAddressDecoder();
const addressEncoder = getAddressEncoder();
const messageDecoder = getCompiledTransactionMessageDecoder();
const b64 = (u) => Buffer.from(u).toString("base64");
const unb64 = (s) => new Uint8Array(Buffer.from(s, "base64"));

// debugToJSON turns a Rust Debug rendering of a TransactionError into its serde JSON value: `Name` is "Name",
// `Name(a, b)` is {"Name": [a, b]} (one field: {"Name": a}), `Name { f: v }` is {"Name": {"f": v}}.
function debugToJSON(text) {
  let i = 0;
  const ws = () => { while (text[i] === " ") i++; };
  const value = () => {
    ws();
    if (text[i] === '"') {
      let j = i + 1, s = "";
      while (text[j] !== '"') { if (text[j] === "\\") j++; s += text[j++]; }
      i = j + 1;
      return s;
    }
    const m = /^-?\d+/.exec(text.slice(i));
    if (m) { i += m[0].length; return Number(m[0]); }
    const id = /^[A-Za-z_][A-Za-z0-9_]*/.exec(text.slice(i))[0];
    i += id.length;
    ws();
    if (text[i] === "(") {
      i++;
      const items = [];
      for (;;) { items.push(value()); ws(); if (text[i++] === ")") break; }
      return { [id]: items.length === 1 ? items[0] : items };
    }
    if (text[i] === "{") {
      i++;
      const obj = {};
      for (;;) {
        ws();
        const f = /^[A-Za-z_][A-Za-z0-9_]*/.exec(text.slice(i))[0];
        i += f.length; ws(); i++; // ':'
        obj[f] = value(); ws();
        if (text[i++] === "}") break;
      }
      return { [id]: obj };
    }
    return id;
  };
  return value();
}

function snapshot(svm, watch) {
  return watch.map((a) => {
    const acc = svm.getAccount(address(a));
    if (!acc.exists) return { address: a, exists: false, lamports: "0" };
    return { address: a, exists: true, lamports: String(acc.lamports), owner: acc.programAddress,
      executable: acc.executable, data: b64(acc.data) };
  });
}

const total = (accounts) => accounts.reduce((s, a) => s + BigInt(a.lamports), 0n);

// newSVM is LiteSVM as its constructor sets it up, but for the features: all enabled, less features.deactivate, plus
// features.activate (at slot 0), before the builtins, precompiles and default programs that depend on them.
function newSVM(features) {
  if (!features) return new LiteSVM();
  const fs = FeatureSet.allEnabled();
  for (const id of features.deactivate ?? []) fs.deactivate(addressEncoder.encode(address(id)));
  for (const id of features.activate ?? []) fs.activate(addressEncoder.encode(address(id)), 0n);
  return LiteSVM.default().withFeatureSet(fs).withBuiltins().withLamports(1_000_000_000_000_000n).withSysvars()
    .withPrecompiles().withDefaultPrograms().withNativeMints();
}

const results = [];
for (const sc of corpus.scenarios) {
  const svm = newSVM(sc.features).withSigverify(true).withBlockhashCheck(false).withTransactionHistory(0n)
    .withLogBytesLimit(10_000n);
  for (const p of sc.programs ?? []) {
    svm.addProgramWithLoader(address(p.id), new Uint8Array(readFileSync(p.elf)), address(p.loader));
  }
  for (const a of sc.accounts) {
    const data = unb64(a.data);
    svm.setAccount({ address: address(a.address), lamports: lamports(BigInt(a.lamports)), programAddress: address(a.owner),
      executable: a.executable, data, space: BigInt(data.length) });
  }
  const steps = [];
  for (const st of sc.steps) {
    if (st.slot !== undefined) {
      svm.setClock(new Clock(BigInt(st.slot), 0n, 0n, 0n, BigInt(corpus.unixTimestamp ?? 0)));
    }
    if (st.slotHashes !== undefined) {
      const hashes = [];
      for (const [newest, oldest] of st.slotHashes) {
        for (let s = BigInt(newest); s >= BigInt(oldest); s--) hashes.push({ slot: s, hash: "11111111111111111111111111111111" });
      }
      svm.setSlotHashes(hashes);
    }
    const tx = txDecoder.decode(unb64(st.tx));
    const watch = st.watch ?? [...new Set([...sc.accounts.map((a) => a.address),
      ...messageDecoder.decode(tx.messageBytes).staticAccounts])];
    const pre = snapshot(svm, watch);
    const r = svm.sendTransaction(tx);
    const failed = typeof r.err === "function";
    const meta = failed ? r.meta() : r;
    let err = null, errDebug = null;
    if (failed) {
      const m = /err: (.*?), meta: TransactionMetadata/.exec(r.toString());
      errDebug = m ? m[1] : r.toString();
      err = debugToJSON(errDebug);
    }
    const post = snapshot(svm, watch);
    const rd = meta.returnData();
    const returnData = rd.data().length > 0 ? { programId: addressDecoder.decode(rd.programId()), data: b64(rd.data()) } : null;
    steps.push({ err, errDebug, fee: String(total(pre) - total(post)), computeUnits: String(meta.computeUnitsConsumed()),
      logs: meta.logs(), returnData, accounts: post });
  }
  results.push({ name: sc.name, steps });
}
process.stdout.write(JSON.stringify(results));
