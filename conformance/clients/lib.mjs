// Helpers shared by the client scenarios: the endpoint, step reporting, polling, confirmation, and the protocol
// constants every scenario checks against. Everything here holds for a real Solana node as well as for ledgerd.

import assert from 'node:assert/strict';
import { inspect } from 'node:util';

export { assert };

export const RPC_URL = process.env.RPC_URL || 'http://127.0.0.1:8899';
// Empty means "derive it", which is what the clients do by default (the RPC port + 1).
export const WS_URL = process.env.WS_URL || undefined;

export const SYSTEM_PROGRAM = '11111111111111111111111111111111';
export const COMPUTE_BUDGET_PROGRAM = 'ComputeBudget111111111111111111111111111111';

export const LAMPORTS_PER_SOL = 1_000_000_000;
export const LAMPORTS_PER_SIGNATURE = 5000;
// (0 + 128 bytes of account overhead) × 3480 lamports per byte-year × 2 years.
export const RENT_EXEMPT_MINIMUM_EMPTY = 890_880;
// The same for the 80 bytes of a nonce account.
export const RENT_EXEMPT_MINIMUM_NONCE = 1_447_680;
// u64::MAX: the rentEpoch of every rent-exempt account.
export const RENT_EPOCH_EXEMPT = 18446744073709551615n;
// What a builtin program logs when it succeeds; it writes no "consumed" line.
export const invokeLog = (program) => `Program ${program} invoke [1]`;
export const successLog = (program) => `Program ${program} success`;
export const TRANSFER_LOGS = [invokeLog(SYSTEM_PROGRAM), successLog(SYSTEM_PROGRAM)];
// The compute units a system transfer (or any other instruction of a builtin program) consumes.
export const BUILTIN_UNITS = 150;

// The fee of a transaction: 5000 lamports per signature plus the prioritization fee, which the runtime rounds up:
// ceil(price in micro-lamports per unit × unit limit / 1,000,000).
export function expectedFee({ signatures, microLamports = 0n, unitLimit = 0n }) {
  const micro = BigInt(microLamports) * BigInt(unitLimit);
  return BigInt(signatures) * BigInt(LAMPORTS_PER_SIGNATURE) + (micro + 999_999n) / 1_000_000n;
}

const BASE58_ALPHABET = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
const BASE58 = /^[1-9A-HJ-NP-Za-km-z]+$/;

// Base58 of bytes (a signature, a key), independent of the client under test.
export function base58(bytes) {
  let n = 0n;
  for (const b of bytes) n = n * 256n + BigInt(b);
  let out = '';
  while (n > 0n) {
    out = BASE58_ALPHABET[Number(n % 58n)] + out;
    n /= 58n;
  }
  for (const b of bytes) {
    if (b !== 0) break;
    out = '1' + out;
  }
  return out;
}

export function assertBase58(value, what, { minLength = 32, maxLength = 44 } = {}) {
  assert.equal(typeof value, 'string', `${what} is a string`);
  assert.match(value, BASE58, `${what} is base58`);
  assert.ok(value.length >= minLength && value.length <= maxLength, `${what} ${value} has a base58 length for its size`);
}

// Whole numbers: JS numbers (web3.js) or bigints (kit).
export function assertWhole(value, what) {
  if (typeof value === 'bigint') {
    assert.ok(value >= 0n, `${what} = ${value} is not negative`);
    return;
  }
  assert.equal(typeof value, 'number', `${what} is a number, got ${show(value)}`);
  assert.ok(Number.isInteger(value) && value >= 0, `${what} = ${value} is a whole number`);
}

// JSON with bigints written as 123n, for messages.
export function show(value) {
  return JSON.stringify(value, (_, v) => (typeof v === 'bigint' ? `${v}n` : v));
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

// Calls probe until it returns something other than undefined or null, and returns that. An exception from probe
// ends the wait at once: an RPC error is an answer, not a reason to retry.
export async function poll(what, probe, { timeoutMs = 30_000, intervalMs = 100 } = {}) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const got = await probe();
    if (got !== undefined && got !== null) return got;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(intervalMs);
  }
}

const COMMITMENT_RANK = { processed: 0, confirmed: 1, finalized: 2 };

// Waits until getSignatureStatuses reports the signature at the commitment or higher, and returns its status. It
// fails at once when the transaction landed with an error. getStatuses(signatures) returns the statuses array, so
// both web3.js and kit can use it.
export async function waitForSignature(getStatuses, signature, commitment = 'confirmed') {
  let last = null;
  try {
    return await poll(`${signature} to reach ${commitment}`, async () => {
      const statuses = await getStatuses([signature]);
      assert.ok(Array.isArray(statuses) && statuses.length === 1, `one status for one signature, got ${show(statuses)}`);
      const status = statuses[0];
      last = status;
      if (status === null) return undefined;
      if (status.err !== null) throw new Error(`transaction ${signature} failed: ${show(status.err)}`);
      assert.ok(status.confirmationStatus in COMMITMENT_RANK, `confirmationStatus ${show(status.confirmationStatus)}`);
      return COMMITMENT_RANK[status.confirmationStatus] >= COMMITMENT_RANK[commitment] ? status : undefined;
    });
  } catch (err) {
    if (last !== null) err.message += ` (last status ${show(last)})`;
    throw err;
  }
}

// Runs one step of a scenario and prints a line for it.
export async function step(name, fn) {
  const started = performance.now();
  try {
    const result = await fn();
    console.log(`ok    ${name} (${Math.round(performance.now() - started)} ms)`);
    return result;
  } catch (err) {
    console.log(`FAIL  ${name}`);
    throw err;
  }
}

// Runs a scenario: exit status 0 when every step passed, 1 with the error (and its causes) otherwise.
export async function runScenario(name, body) {
  console.log(`${name}: RPC_URL=${RPC_URL}${WS_URL ? ` WS_URL=${WS_URL}` : ''}`);
  try {
    await body();
  } catch (err) {
    console.error(inspect(err, { depth: 8 }));
    process.exit(1);
  }
  console.log(`${name}: PASS`);
  // The clients may hold sockets open; the scenario is over.
  process.exit(0);
}
