// litesvm_bench.mjs is the LiteSVM side of BenchmarkTokenTransferVsLiteSVM: it times LiteSVM (npm litesvm, the
// reference's runtime compiled to machine code) executing the same signed transactions as ledgerd's side, from the
// same accounts and the same ELF, and prints the time per transaction as JSON.
//
//   node litesvm_bench.mjs PARITY_DIR input.json > result.json
//
// PARITY_DIR holds the node_modules installed from conformance/parity's lockfile (litesvm, @solana/kit). Input:
// {programs: [{id, loader, elf}], accounts: [{address, lamports, owner, executable, data}], txs: [base64 wire
// bytes], sigverify, warmup, minMillis}, u64 values as decimal strings. The transactions are sent in turn, round
// robin, warmup times first, then for at least minMillis milliseconds, each timed loop checking every result.
// Two loops are timed: the public sendTransaction(tx) (what a LiteSVM user calls: it encodes the kit transaction
// to wire bytes, then calls the native module), and the native module's sendLegacyTransaction(bytes) alone.
//
// Result: {sendTransaction: {n, ns}, native: {n, ns}, computeUnits, logs}, ns the total of n transactions, units and
// logs those of the first transaction (ledgerd's side checks it ran the same program the same way).
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";

const require = createRequire(join(process.argv[2], "package.json"));
const { LiteSVM } = require("litesvm");
const { address, getTransactionDecoder, getTransactionEncoder, lamports } = require("@solana/kit");

const input = JSON.parse(readFileSync(process.argv[3], "utf8"));
const unb64 = (s) => new Uint8Array(Buffer.from(s, "base64"));

// The transactions are never repeated within the status cache, because there is none: history 0, as ledgerd's side
// runs them without one. Blockhashes are not checked (ledgerd's side holds the transactions' blockhash as recent).
const svm = new LiteSVM().withSigverify(input.sigverify).withBlockhashCheck(false).withTransactionHistory(0n);
for (const p of input.programs) {
  svm.addProgramWithLoader(address(p.id), new Uint8Array(readFileSync(p.elf)), address(p.loader));
}
for (const a of input.accounts) {
  const data = unb64(a.data);
  svm.setAccount({ address: address(a.address), lamports: lamports(BigInt(a.lamports)), programAddress: address(a.owner),
    executable: a.executable, data, space: BigInt(data.length) });
}

const decoder = getTransactionDecoder();
const txs = input.txs.map((s) => decoder.decode(unb64(s)));
const wire = txs.map((tx) => getTransactionEncoder().encode(tx));

const failed = (r) => typeof r.err === "function";
const check = (r, i) => {
  if (failed(r)) throw new Error(`transaction ${i}: ${r.toString()}`);
  return r;
};

const first = check(svm.sendTransaction(txs[0]), 0);
const result = { computeUnits: String(first.computeUnitsConsumed()), logs: first.logs() };

function time(send) {
  for (let i = 0; i < input.warmup; i++) check(send(i % txs.length), i);
  const min = BigInt(input.minMillis) * 1_000_000n;
  let n = 0;
  const t0 = process.hrtime.bigint();
  let elapsed = 0n;
  do {
    for (let j = 0; j < 1000; j++, n++) check(send(n % txs.length), n);
    elapsed = process.hrtime.bigint() - t0;
  } while (elapsed < min);
  return { n, ns: String(elapsed) };
}

const inner = svm.inner;
result.sendTransaction = time((i) => svm.sendTransaction(txs[i]));
result.native = time((i) => inner.sendLegacyTransaction(wire[i]));
process.stdout.write(JSON.stringify(result));
