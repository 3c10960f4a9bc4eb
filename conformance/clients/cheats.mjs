// The developer's methods through @solana/web3.js v1, as a test written against ledgerd (or surfpool) would call
// them with connection._rpcRequest: snapshot the chain, change it with a real transfer, revert, and read the old
// state back at every commitment level and in onAccountChange subscriptions at each level; then surfpool's
// whole-chain methods with the params arrays its SDK sends (an absent optional param serialized as null). A node
// without the methods (the reference test validator answers -32601) skips the scenario.
// Run: RPC_URL=http://127.0.0.1:8899 WS_URL=ws://127.0.0.1:8900 node cheats.mjs

import { Connection, Keypair, LAMPORTS_PER_SOL, SystemProgram, Transaction } from '@solana/web3.js';

import { LAMPORTS_PER_SIGNATURE, RPC_URL, WS_URL, assert, poll, runScenario, show, step, waitForSignature } from './lib.mjs';

const connection = new Connection(RPC_URL, { commitment: 'confirmed', wsEndpoint: WS_URL });
const statuses = async (signatures) => (await connection.getSignatureStatuses(signatures, { searchTransactionHistory: true })).value;
const COMMITMENTS = ['processed', 'confirmed', 'finalized'];
const WAIT_MS = 20_000;

// call sends a developer method as web3.js users do, returning the result or throwing the RPC error.
async function call(method, params) {
  const reply = await connection._rpcRequest(method, params);
  if (reply.error) {
    const err = new Error(`${method}: ${reply.error.code} ${reply.error.message}`);
    err.code = reply.error.code;
    throw err;
  }
  return reply.result;
}

// balances reads an account's lamports at each commitment level (0 for no account).
async function balances(pubkey) {
  const out = {};
  for (const c of COMMITMENTS) out[c] = await connection.getBalance(pubkey, c);
  return out;
}

runScenario('cheats', async () => {
  try {
    await call('surfnet_getSurfnetInfo', []);
    await call('ledgerd_advanceSlots', [1]);
  } catch (err) {
    if (err.code === -32601) {
      console.log(`skip  the node has no developer methods (${err.message})`);
      return;
    }
    throw err;
  }

  const payer = Keypair.generate();
  const recipient = Keypair.generate();
  const funded = 2 * LAMPORTS_PER_SOL;
  const sent = LAMPORTS_PER_SOL / 2;

  await step('airdrop, finalized', async () => {
    const sig = await connection.requestAirdrop(payer.publicKey, funded);
    await waitForSignature(statuses, sig, 'finalized');
    assert.deepEqual(await balances(payer.publicKey), { processed: funded, confirmed: funded, finalized: funded });
  });

  // What each level's subscription reported, newest last.
  const seen = { payer: {}, recipient: {} };
  const subs = [];
  await step('onAccountChange at each commitment', async () => {
    for (const c of COMMITMENTS) {
      for (const [name, kp] of [['payer', payer], ['recipient', recipient]]) {
        seen[name][c] = [];
        subs.push(connection.onAccountChange(kp.publicKey, (info) => seen[name][c].push(info.lamports), { commitment: c }));
      }
    }
    // Let the node register them before the chain changes.
    await new Promise((resolve) => setTimeout(resolve, 300));
  });
  const notified = (name, lamports) =>
    poll(`every level's ${name} subscription to report ${lamports}`, () =>
      COMMITMENTS.every((c) => seen[name][c].at(-1) === lamports) ? true : undefined, { timeoutMs: WAIT_MS });

  const id = await step('ledgerd_snapshot', async () => {
    const id = await call('ledgerd_snapshot', []);
    assert.ok(Number.isInteger(id) && id >= 1, `snapshot id ${show(id)}`);
    return id;
  });

  const signature = await step('a transfer after the snapshot, finalized and notified', async () => {
    const { blockhash } = await connection.getLatestBlockhash();
    const tx = new Transaction({ feePayer: payer.publicKey, recentBlockhash: blockhash }).add(
      SystemProgram.transfer({ fromPubkey: payer.publicKey, toPubkey: recipient.publicKey, lamports: sent }));
    tx.sign(payer);
    const sig = await connection.sendRawTransaction(tx.serialize());
    await waitForSignature(statuses, sig, 'finalized');
    const left = funded - sent - LAMPORTS_PER_SIGNATURE;
    assert.deepEqual(await balances(payer.publicKey), { processed: left, confirmed: left, finalized: left });
    await notified('payer', left);
    await notified('recipient', sent);
    return sig;
  });

  await step('ledgerd_revert: the old state at every commitment', async () => {
    assert.equal(await call('ledgerd_revert', [id]), true);
    assert.deepEqual(await balances(payer.publicKey), { processed: funded, confirmed: funded, finalized: funded });
    assert.deepEqual(await balances(recipient.publicKey), { processed: 0, confirmed: 0, finalized: 0 });
    assert.equal(await connection.getTransaction(signature, { commitment: 'confirmed', maxSupportedTransactionVersion: 0 }), null);
    assert.deepEqual(await statuses([signature]), [null]);
    assert.deepEqual(await connection.getSignaturesForAddress(recipient.publicKey, {}, 'confirmed'), []);
  });

  await step('ledgerd_revert: the old state in every subscription', async () => {
    await notified('payer', funded);
    await notified('recipient', 0);
  });

  await step('ledgerd_revert of a used-up snapshot', async () => {
    assert.equal(await call('ledgerd_revert', [id]), false);
  });

  for (const sub of subs) await connection.removeAccountChangeListener(sub);

  // surfpool's whole-chain methods, with the params arrays its TypeScript SDK builds: [config] with config
  // undefined is [null]; [tx, tag, config] with both left out is [tx, null, null].
  await step('surfnet_exportSnapshot as the SDK sends it', async () => {
    const snapshot = await call('surfnet_exportSnapshot', [undefined]);
    const entry = snapshot.value[payer.publicKey.toBase58()];
    assert.deepEqual(entry, { lamports: funded, owner: SystemProgram.programId.toBase58(), executable: false,
      rentEpoch: entry.rentEpoch, data: '', parsedData: null });
    assert.ok(Number.isInteger(snapshot.context.slot));
  });

  await step('surfnet_profileTransaction as the SDK sends it', async () => {
    const { blockhash } = await connection.getLatestBlockhash();
    const tx = new Transaction({ feePayer: payer.publicKey, recentBlockhash: blockhash }).add(
      SystemProgram.transfer({ fromPubkey: payer.publicKey, toPubkey: recipient.publicKey, lamports: sent }));
    tx.sign(payer);
    const profile = await call('surfnet_profileTransaction', [tx.serialize().toString('base64'), undefined, undefined]);
    const v = profile.value;
    assert.match(v.key, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    assert.equal(v.instructionProfiles.length, 1);
    assert.equal(v.transactionProfile.computeUnitsConsumed, 150);
    assert.equal(v.transactionProfile.errorMessage, null);
    const change = v.transactionProfile.accountStates[recipient.publicKey.toBase58()];
    assert.equal(change.type, 'writable');
    assert.equal(change.accountChange.type, 'create');
    assert.equal(change.accountChange.data.lamports, sent);
    assert.deepEqual(v.transactionProfile.accountStates[SystemProgram.programId.toBase58()], { type: 'readonly' });
    // Nothing was sent.
    assert.equal(await connection.getBalance(recipient.publicKey, 'processed'), 0);
    const again = await call('surfnet_getTransactionProfile', [v.key, undefined]);
    assert.equal(again.value.key, v.key);
  });
});
