// litesvm_gen.mjs runs address lookup table instructions through LiteSVM, which executes the
// program's on-chain (Core BPF) build, and writes what happened to stdout as JSON: the corpus that
// TestLiteSVMParity replays through ledgerd's runtime.
//
// Regenerate (node 20+), from a scratch directory so that node_modules stays out of the tree:
//
//	mkdir -p /tmp/altgen && cd /tmp/altgen && npm init -y && npm install litesvm@1.5.0
//	cp <repo>/impl/programs/alt/testdata/litesvm_gen.mjs . && node litesvm_gen.mjs > <repo>/impl/programs/alt/testdata/litesvm_corpus.json
import { LiteSVM } from "litesvm";
import {
  createKeyPairSignerFromPrivateKeyBytes, getProgramDerivedAddress, address, getAddressEncoder,
  createTransactionMessage, setTransactionMessageFeePayerSigner, setTransactionMessageLifetimeUsingBlockhash,
  appendTransactionMessageInstructions, signTransactionMessageWithSigners, pipe, lamports, AccountRole,
} from "@solana/kit";

const ALT = address("AddressLookupTab1e1111111111111111111111111");
const SYS = address("11111111111111111111111111111111");
const enc = getAddressEncoder();
const MAX = (1n << 64n) - 1n;

// Keypairs come from a one-byte seed ([seed, 0, 0, ...]), as core.KeypairFromSeed([32]byte{seed}).
const kps = new Map();
async function kp(seed) {
  if (!kps.has(seed)) {
    const b = new Uint8Array(32); b[0] = seed;
    kps.set(seed, await createKeyPairSignerFromPrivateKeyBytes(b));
  }
  return kps.get(seed);
}
const u32 = (n) => { const b = new Uint8Array(4); new DataView(b.buffer).setUint32(0, n, true); return b; };
const u64 = (n) => { const b = new Uint8Array(8); new DataView(b.buffer).setBigUint64(0, BigInt(n), true); return b; };
const cat = (...a) => { const o = new Uint8Array(a.reduce((s, x) => s + x.length, 0)); let i = 0; for (const x of a) { o.set(x, i); i += x.length; } return o; };
const b64 = (u) => Buffer.from(u).toString("base64");
const pda = (authority, slot) => getProgramDerivedAddress({ programAddress: ALT, seeds: [enc.encode(authority), u64(slot)] });
const range = (lo, hi) => { const o = []; for (let i = hi; i >= lo; i--) o.push(i); return o; };
const rentMin = (len) => BigInt(128 + len) * 3480n * 2n;

function tableData({ deactivation = MAX, lastExtended = 0n, startIndex = 0, authority = null, addresses = [], tag = 1 }) {
  const meta = new Uint8Array(56);
  const dv = new DataView(meta.buffer);
  dv.setUint32(0, tag, true);
  dv.setBigUint64(4, BigInt(deactivation), true);
  dv.setBigUint64(12, BigInt(lastExtended), true);
  meta[20] = startIndex;
  if (authority) { meta[21] = 1; meta.set(enc.encode(authority), 22); }
  return cat(meta, ...addresses.map(a => enc.encode(a)));
}

function parseErr(s) {
  const m = s.match(/^InstructionError\((\d+), (.*)\)$/);
  if (m) {
    const c = m[2].match(/^Custom\((\d+)\)$/);
    return { InstructionError: [Number(m[1]), c ? { Custom: Number(c[1]) } : m[2]] };
  }
  const r = s.match(/^InsufficientFundsForRent \{ account_index: (\d+) \}$/);
  if (r) return { InsufficientFundsForRent: { account_index: Number(r[1]) } };
  return s;
}

// runs writes a newest-first list of slots as runs of consecutive slots: [newest, oldest] pairs.
function runs(slots) {
  const out = [];
  for (const s of slots.map(BigInt)) {
    const last = out[out.length - 1];
    if (last && BigInt(last[1]) === s + 1n) last[1] = String(s);
    else out.push([String(s), String(s)]);
  }
  return out;
}

async function run(scn) {
  const svm = new LiteSVM();
  svm.warpToSlot(BigInt(scn.slot));
  svm.setSlotHashes(scn.hashes.map(s => ({ slot: BigInt(s), hash: "11111111111111111111111111111111" })));
  for (const a of scn.accounts) {
    svm.setAccount({ address: a.address, lamports: lamports(BigInt(a.lamports)), programAddress: a.owner ?? SYS,
      executable: false, data: a.data ?? new Uint8Array(0), space: BigInt((a.data ?? []).length) });
  }
  const signers = new Map();
  for (const s of scn.signers) signers.set((await kp(s)).address, await kp(s));
  const payer = await kp(scn.payer);
  const ixs = scn.ixs.map(ix => ({ programAddress: ix.program ?? ALT, data: ix.data,
    accounts: ix.accounts.map(m => {
      const role = m.signer ? (m.writable ? AccountRole.WRITABLE_SIGNER : AccountRole.READONLY_SIGNER) : (m.writable ? AccountRole.WRITABLE : AccountRole.READONLY);
      return m.signer && signers.has(m.address) ? { address: m.address, role, signer: signers.get(m.address) } : { address: m.address, role };
    }) }));
  const msg = pipe(createTransactionMessage({ version: "legacy" }),
    m => setTransactionMessageFeePayerSigner(payer, m),
    m => setTransactionMessageLifetimeUsingBlockhash({ blockhash: svm.latestBlockhash(), lastValidBlockHeight: 100n }, m),
    m => appendTransactionMessageInstructions(ixs, m));
  const r = svm.sendTransaction(await signTransactionMessageWithSigners(msg));
  const failed = typeof r.err === "function";
  const meta = failed ? r.meta() : r;
  let err = null;
  if (failed) {
    const dbg = r.toString().match(/err: (.*?), meta: TransactionMetadata/);
    err = parseErr(dbg ? dbg[1] : r.toString());
  }
  const post = [];
  const seen = new Set();
  for (const a of [...scn.accounts.map(a => a.address), ...scn.ixs.flatMap(ix => ix.accounts.map(m => m.address))]) {
    if (seen.has(a) || a === SYS || a === ALT) continue;
    seen.add(a);
    const acc = svm.getAccount(a);
    if (!acc.exists) {
      post.push({ address: a, lamports: "0" });
      continue;
    }
    // Data that did not change is left out.
    const pre = scn.accounts.find(x => x.address === a);
    const same = pre && b64(pre.data ?? new Uint8Array(0)) === b64(acc.data);
    post.push({ address: a, lamports: String(acc.lamports), owner: acc.programAddress, ...(same ? {} : { data: b64(acc.data) }) });
  }
  return {
    name: scn.name, slot: String(scn.slot), slotHashes: runs(scn.hashes), payer: scn.payer, signers: scn.signers,
    accounts: scn.accounts.map(a => ({ address: a.address, lamports: String(a.lamports), owner: a.owner ?? SYS, data: b64(a.data ?? new Uint8Array(0)) })),
    instructions: scn.ixs.map(ix => ({ program: ix.program ?? ALT, accounts: ix.accounts.map(m => ({ address: m.address, signer: !!m.signer, writable: !!m.writable })), data: b64(ix.data) })),
    err, computeUnits: Number(meta.computeUnitsConsumed()), logs: meta.logs(), post,
  };
}

// ---------------------------------------------------------------------------------------------
// Scenarios

const P = await kp(1), A = await kp(2), R = await kp(3), X = await kp(4);
const addrs = [];
for (let i = 0; i < 300; i++) addrs.push((await pda(X.address, 1_000_000 + i))[0]);
const H = range(489, 999); // 511 entries: the 512th is the sysvar's zero padding
const H512 = range(488, 999);
const [TABLE] = await pda(A.address, 999);
const scenarios = [];

function add(name, { slot = 1000, hashes = H, table = null, extra = [], metas, data, signers = [1, 2], payerLamports = 10_000_000_000n }) {
  const accounts = [{ address: P.address, lamports: payerLamports }];
  if (table) accounts.push({ address: table.address ?? TABLE, lamports: table.lamports ?? rentMin(table.data.length), owner: table.owner ?? ALT, data: table.data });
  accounts.push(...extra);
  scenarios.push({ name, slot, hashes, payer: 1, signers, accounts, ixs: [{ data, accounts: metas }] });
}
const W = (k) => ({ address: k.address ?? k, writable: true });
const RO = (k) => ({ address: k.address ?? k });
const S = (k) => ({ address: k.address ?? k, signer: true });
const WS = (k) => ({ address: k.address ?? k, signer: true, writable: true });
const td = (o = {}) => tableData({ authority: A.address, ...o });

// CreateLookupTable.
async function create(name, { auth = A, recent = 999, bump, tableKey, metas, signers, tableAccount, extra: more = [], ...rest } = {}) {
  const [t, b] = await pda(auth.address, recent);
  const key = tableKey ?? t;
  const m = metas ? metas(key, auth) : [W(key), S(auth), WS(P), RO(SYS)];
  const extra = [...(tableAccount ? [{ address: key, ...tableAccount }] : []), ...more];
  add(name, { metas: m, data: cat(u32(0), u64(recent), new Uint8Array([bump ?? b])), signers: signers ?? (auth === P ? [1] : [1, 2]), extra, ...rest });
}
await create("create");
await create("create authority is payer", { auth: P });
for (const pos of [1, 2, 3, 7, 100, 255, 256, 400, 510]) await create(`create recent slot at position ${pos}`, { recent: 999 - pos });
await create("create recent slot at position 511 of 512", { hashes: H512, recent: 488 });
await create("create recent slot 0 found in the padding", { recent: 0 });
await create("create with few slot hashes", { slot: 20, hashes: range(10, 19), recent: 15 });
await create("create five accounts", { metas: (t, a) => [W(t), S(a), WS(P), RO(SYS), RO(R)] });
for (const s of [5n, 55n, 333n, 1001n, 5555n, 55555n, 555555n, 5555555n, 55555555n, 555555555n, 5555555555n, 55555555555n, 555555555555n,
  5555555555555n, 55555555555555n, 555555555555555n, 5555555555555555n, 55555555555555555n, 555555555555555555n, 5555555555555555555n, MAX]) {
  await create(`create slot ${s} is not recent`, { recent: s });
}
await create("create not recent with full slot hashes", { hashes: H512, recent: 5 });
await create("create not recent, authority is payer", { auth: P, recent: 5 });
await create("create payer not signer", { metas: (t, a) => [W(t), S(a), W(R), RO(SYS)] });
await create("create two accounts", { metas: (t, a) => [W(t), S(a)] });
await create("create no accounts", { metas: () => [] });
await create("create one account", { metas: (t) => [W(t)] });
await create("create wrong table address", { tableKey: R.address });
for (const [i, slot] of [[1, 998], [2, 700], [3, 500], [4, 489]]) await create(`create wrong table address ${i}`, { tableKey: addrs[i], recent: slot });
await create("create wrong table address, authority is payer", { auth: P, tableKey: addrs[5] });
{
  // Derived addresses whose base58 form is short, or starts with a zero byte, format faster.
  let short = false, zero = false;
  for (let slot = 1; slot < 5000 && !(short && zero); slot++) {
    const [t] = await pda(A.address, slot);
    const b = enc.encode(t);
    if (!zero && b[0] === 0) {
      zero = true;
      await create("create wrong table address, derived address has a zero byte", { tableKey: addrs[6], recent: slot, hashes: [slot] });
    } else if (!short && t.length === 43) {
      short = true;
      await create("create wrong table address, derived address of 43 characters", { tableKey: addrs[6], recent: slot, hashes: [slot] });
    }
  }
}
{
  // A bump above the canonical one gives an address on the curve.
  for (let slot = 999; slot > 900; slot--) {
    const [, b] = await pda(A.address, slot);
    if (b < 255) { await create("create bump on the curve", { recent: slot, bump: 255 }); break; }
  }
}
await create("create already owned by the program", { tableAccount: { lamports: 5n, owner: ALT, data: new Uint8Array(0) } });
await create("create prefunded in full", { tableAccount: { lamports: rentMin(56) } });
await create("create prefunded in part", { tableAccount: { lamports: 1000n } });
await create("create three accounts", { metas: (t, a) => [W(t), S(a), WS(P)] });
await create("create three accounts prefunded", { metas: (t, a) => [W(t), S(a), WS(P)], tableAccount: { lamports: rentMin(56) } });
await create("create payer cannot pay", { metas: (t, a) => [W(t), S(a), WS(R), RO(SYS)], signers: [1, 2, 3], extra: [{ address: R.address, lamports: 1000n }] });
await create("create table not writable", { metas: (t, a) => [RO(t), S(a), WS(P), RO(SYS)] });
await create("create table not writable prefunded", { metas: (t, a) => [RO(t), S(a), WS(P), RO(SYS)], tableAccount: { lamports: rentMin(56) } });
await create("create payer not writable", { metas: (t, a) => [W(t), S(a), S(R), RO(SYS)], signers: [1, 2, 3], extra: [{ address: R.address, lamports: 10_000_000_000n }] });
await create("create table already allocated", { tableAccount: { lamports: rentMin(56), data: new Uint8Array(56) } });

// FreezeLookupTable and DeactivateLookupTable.
for (const [tag, nm] of [[1, "freeze"], [3, "deactivate"]]) {
  const ok = td({ addresses: addrs.slice(0, 2) });
  const d = u32(tag);
  add(`${nm}`, { table: { data: ok }, metas: [W(TABLE), S(A)], data: d });
  add(`${nm} full table`, { table: { data: td({ addresses: addrs.slice(0, 256) }) }, metas: [W(TABLE), S(A)], data: d });
  add(`${nm} extra account`, { table: { data: ok }, metas: [W(TABLE), S(A), RO(R)], data: d });
  add(`${nm} extra writable signer`, { table: { data: ok }, metas: [W(TABLE), S(A), WS(P)], data: d });
  add(`${nm} duplicate accounts`, { table: { data: ok }, metas: [W(TABLE), S(A), RO(TABLE), RO(A)], data: d });
  add(`${nm} authority is payer`, { table: { data: tableData({ authority: P.address, addresses: addrs.slice(0, 1) }) }, metas: [W(TABLE), WS(P)], data: d, signers: [1] });
  add(`${nm} one account`, { table: { data: ok }, metas: [W(TABLE)], data: d, signers: [1] });
  add(`${nm} no accounts`, { table: { data: ok }, metas: [], data: d, signers: [1] });
  add(`${nm} wrong owner`, { table: { data: ok, owner: SYS }, metas: [W(TABLE), S(A)], data: d });
  add(`${nm} authority not signer`, { table: { data: ok }, metas: [W(TABLE), RO(A)], data: d, signers: [1] });
  add(`${nm} data too short`, { table: { data: new Uint8Array([1, 0]) }, metas: [W(TABLE), S(A)], data: d });
  add(`${nm} uninitialized`, { table: { data: new Uint8Array(56) }, metas: [W(TABLE), S(A)], data: d });
  add(`${nm} bad state tag`, { table: { data: cat(u32(2), new Uint8Array(52)) }, metas: [W(TABLE), S(A)], data: d });
  add(`${nm} bad option tag`, { table: { data: (() => { const x = td({ addresses: addrs.slice(0, 1) }); x[21] = 2; return x; })() }, metas: [W(TABLE), S(A)], data: d });
  add(`${nm} misaligned addresses`, { table: { data: cat(td({ addresses: addrs.slice(0, 1) }), new Uint8Array(5)) }, metas: [W(TABLE), S(A)], data: d });
  add(`${nm} frozen`, { table: { data: tableData({ addresses: addrs.slice(0, 1) }) }, metas: [W(TABLE), S(A)], data: d });
  add(`${nm} wrong authority`, { table: { data: tableData({ authority: R.address, addresses: addrs.slice(0, 1) }) }, metas: [W(TABLE), S(A)], data: d });
  add(`${nm} deactivated`, { table: { data: td({ deactivation: 5, addresses: addrs.slice(0, 1) }) }, metas: [W(TABLE), S(A)], data: d });
  add(`${nm} empty`, { table: { data: td({}) }, metas: [W(TABLE), S(A)], data: d });
  add(`${nm} table not writable`, { table: { data: ok }, metas: [RO(TABLE), S(A)], data: d });
  add(`${nm} trailing instruction data`, { table: { data: ok }, metas: [W(TABLE), S(A)], data: cat(d, u32(9)) });
}
add("deactivate at slot 5", { slot: 5, hashes: [4, 3, 2, 1, 0], table: { data: td({}) }, metas: [W(TABLE), S(A)], data: u32(3) });
add("deactivate at a large slot", { slot: 5000000000, hashes: [4999999999], table: { data: td({}) }, metas: [W(TABLE), S(A)], data: u32(3) });

// ExtendLookupTable.
async function ext(name, { n = 1, m = 0, same = false, funded = false, auth = A, metas, signers, payerLamports, table = {}, lastExtended, extra } = {}) {
  const data = table.data ?? tableData({ authority: auth.address, addresses: addrs.slice(0, m), lastExtended: lastExtended ?? (same ? 1000 : 7), startIndex: same ? Math.max(m - 1, 0) : 0 });
  const lam = table.lamports ?? (funded ? rentMin(56 + 32 * (m + n)) : rentMin(56 + 32 * m));
  const ixd = cat(u32(2), u64(n), ...addrs.slice(200, 200 + n).map(a => enc.encode(a)));
  add(name, { table: { data, lamports: lam, owner: table.owner }, metas: metas ?? [W(TABLE), S(auth), WS(P), RO(SYS)], data: ixd,
    signers: signers ?? (auth === P ? [1] : [1, 2]), payerLamports, extra });
}
for (let n = 1; n <= 38; n++) await ext(`extend empty table by ${n}`, { n });
for (const n of [1, 2, 3, 4, 5, 10, 38]) await ext(`extend empty table by ${n} prefunded`, { n, funded: true });
for (const m of [1, 5, 7, 50, 100, 218, 240, 255]) await ext(`extend ${m} by 1`, { m });
await ext("extend 218 by 38", { m: 218, n: 38 });
await ext("extend 5 by 3 in the same slot", { m: 5, n: 3, same: true });
await ext("extend 5 by 1 in the same slot prefunded", { m: 5, same: true, funded: true });
await ext("extend authority is payer", { auth: P, metas: [W(TABLE), WS(P), WS(P), RO(SYS)] });
await ext("extend authority is payer by 10", { auth: P, n: 10, metas: [W(TABLE), WS(P), WS(P), RO(SYS)] });
await ext("extend two accounts prefunded", { funded: true, metas: [W(TABLE), S(A)] });
await ext("extend two accounts", { metas: [W(TABLE), S(A)] });
await ext("extend three accounts", { metas: [W(TABLE), S(A), WS(P)] });
await ext("extend payer not signer", { metas: [W(TABLE), S(A), W(R), RO(SYS)] });
await ext("extend payer not writable", { metas: [W(TABLE), S(A), S(R), RO(SYS)], signers: [1, 2, 3], extra: [{ address: R.address, lamports: 10_000_000_000n }] });
await ext("extend payer cannot pay", { metas: [W(TABLE), S(A), WS(R), RO(SYS)], signers: [1, 2, 3], extra: [{ address: R.address, lamports: 100n }] });
await ext("extend 240 by 38 payer cannot pay", { m: 218, n: 38, metas: [W(TABLE), S(A), WS(R), RO(SYS)], signers: [1, 2, 3], extra: [{ address: R.address, lamports: 100n }] });
await ext("extend payer left below rent", { payerLamports: 1_000_000n });
await ext("extend table not writable", { metas: [RO(TABLE), S(A), WS(P), RO(SYS)] });
await ext("extend full table", { m: 256 });
await ext("extend past capacity", { m: 250, n: 7 });
await ext("extend past capacity by 38", { m: 255, n: 38 });
await ext("extend by none", { n: 0 });
for (const n of [1, 10, 38]) await ext(`extend frozen by ${n}`, { n, table: { data: tableData({}) } });
await ext("extend wrong authority", { table: { data: tableData({ authority: R.address }) } });
await ext("extend deactivated", { table: { data: td({ deactivation: 5 }) } });
await ext("extend wrong owner", { table: { data: td({}), owner: SYS } });
await ext("extend authority not signer", { metas: [W(TABLE), RO(A), WS(P), RO(SYS)], signers: [1] });
await ext("extend uninitialized", { table: { data: new Uint8Array(56) } });
await ext("extend one account", { metas: [W(TABLE)], signers: [1] });
await ext("extend no accounts", { metas: [], signers: [1] });

// CloseLookupTable.
const closeMetas = [W(TABLE), S(A), W(R)];
const close = (name, o) => add(name, { metas: closeMetas, data: u32(4), ...o, table: { lamports: 1_000_000n, ...o.table } });
close("close", { table: { data: td({ deactivation: 5 }) } });
close("close full table", { table: { data: td({ deactivation: 5, addresses: addrs.slice(0, 256) }) } });
close("close deactivated after the oldest slot hash", { hashes: H512, table: { data: td({ deactivation: 487 }) } });
close("close deactivated in a future slot", { table: { data: td({ deactivation: 1001 }) } });
close("close recipient is authority", { table: { data: td({ deactivation: 5 }) }, metas: [W(TABLE), WS(A), W(A)] });
close("close recipient is payer", { table: { data: td({ deactivation: 5 }) }, metas: [W(TABLE), S(A), WS(P)] });
close("close active", { table: { data: td({}) } });
close("close deactivated this slot", { table: { data: td({ deactivation: 1000 }) } });
for (const pos of [0, 1, 2, 3, 7, 100, 255, 256, 400, 510]) close(`close deactivating at position ${pos}`, { table: { data: td({ deactivation: 999 - pos }) } });
close("close deactivating at position 511 of 512", { hashes: H512, table: { data: td({ deactivation: 488 }) } });
close("close deactivated at slot 0 found in the padding", { table: { data: td({ deactivation: 0 }) } });
close("close with few slot hashes", { slot: 10, hashes: [9, 8, 7, 6, 5, 4], table: { data: td({ deactivation: 5 }) } });
close("close recipient is table", { table: { data: td({ deactivation: 5 }) }, metas: [W(TABLE), S(A), W(TABLE)] });
close("close two accounts", { table: { data: td({ deactivation: 5 }) }, metas: [W(TABLE), S(A)] });
close("close one account", { table: { data: td({ deactivation: 5 }) }, metas: [W(TABLE)], signers: [1] });
close("close no accounts", { table: { data: td({ deactivation: 5 }) }, metas: [], signers: [1] });
close("close frozen", { table: { data: tableData({ deactivation: 5 }) } });
close("close wrong authority", { table: { data: tableData({ authority: X.address, deactivation: 5 }) } });
close("close table not writable", { table: { data: td({ deactivation: 5 }) }, metas: [RO(TABLE), S(A), W(R)] });
close("close recipient not writable", { table: { data: td({ deactivation: 5 }) }, metas: [W(TABLE), S(A), RO(R)] });
close("close wrong owner", { table: { data: td({ deactivation: 5 }), owner: SYS } });
close("close authority not signer", { table: { data: td({ deactivation: 5 }) }, metas: [W(TABLE), RO(A), W(R)], signers: [1] });
close("close overflow", { table: { data: td({ deactivation: 5 }) }, extra: [{ address: R.address, lamports: MAX - 10n }] });
close("close uninitialized", { table: { data: new Uint8Array(56) } });

// Instruction data that does not decode.
for (const [nm, d] of [["empty", new Uint8Array(0)], ["unknown tag", u32(5)], ["short tag", new Uint8Array([1, 0])],
  ["short create", cat(u32(0), u64(1))], ["short extend", cat(u32(2), u64(1))], ["extend length 39", cat(u32(2), u64(39))],
  ["extend huge length", cat(u32(2), u64(1n << 40n))], ["extend missing length", u32(2)]]) {
  add(`bad instruction data: ${nm}`, { table: { data: td({}) }, metas: [W(TABLE), S(A)], data: d });
}

const out = [];
for (const s of scenarios) out.push(await run(s));
// One case per line keeps diffs readable.
process.stdout.write("[\n" + out.map(c => JSON.stringify(c)).join(",\n") + "\n]\n");
