// Subscriptions through @solana/kit's createSolanaRpcSubscriptions: accountNotifications, programNotifications,
// logsNotifications, signatureNotifications (and sendAndConfirmTransactionFactory, which uses them),
// slotNotifications and rootNotifications, each read as an async iterable and ended with an AbortController. Kit
// reads every u64 as a bigint. Run:
// RPC_URL=http://127.0.0.1:8899 WS_URL=ws://127.0.0.1:8900 node kit_subscriptions.mjs

import {
  appendTransactionMessageInstructions,
  createDefaultRpcSubscriptionsTransport,
  createDefaultSolanaRpcSubscriptionsChannelCreator,
  createSolanaRpc,
  createSolanaRpcSubscriptions,
  createSolanaRpcSubscriptionsFromTransport,
  createTransactionMessage,
  generateKeyPairSigner,
  getBase64EncodedWireTransaction,
  getSignatureFromTransaction,
  lamports,
  pipe,
  sendAndConfirmTransactionFactory,
  setTransactionMessageFeePayerSigner,
  setTransactionMessageLifetimeUsingBlockhash,
  signTransactionMessageWithSigners,
} from '@solana/kit';
import {
  getAdvanceNonceAccountInstruction,
  getCreateAccountInstruction,
  getInitializeNonceAccountInstruction,
  getNonceDecoder,
  getTransferSolInstruction,
} from '@solana-program/system';

import {
  LAMPORTS_PER_SOL,
  RENT_EPOCH_EXEMPT,
  RENT_EXEMPT_MINIMUM_NONCE,
  RPC_URL,
  SYSTEM_PROGRAM,
  TRANSFER_LOGS,
  WS_URL,
  assert,
  invokeLog,
  poll,
  runScenario,
  show,
  step,
  waitForSignature,
} from './lib.mjs';

// Kit cannot derive the WebSocket URL; the default is the RPC port + 1, as web3.js does.
const wsUrl = WS_URL ?? (() => {
  const url = new URL(RPC_URL);
  url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
  if (url.port) url.port = String(Number(url.port) + 1);
  return url.toString();
})();

const rpc = createSolanaRpc(RPC_URL);
const rpcSubscriptions = createSolanaRpcSubscriptions(wsUrl);
const statuses = async (signatures) => (await rpc.getSignatureStatuses(signatures).send()).value;

// Every wait for a notification gives up after this long, so a missing one fails the step instead of hanging.
const WAIT_MS = 20_000;
const COMMITMENTS = ['processed', 'confirmed', 'finalized'];
const NONCE_LENGTH = 80n;

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

async function within(what, promise, ms = WAIT_MS) {
  let timer;
  const timeout = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms waiting for ${what}`)), ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

// Subscribes (kit resolves once the node has answered with the subscription id) and reads the notifications into
// items until the subscription is aborted; done settles when the iteration ends.
async function consume(what, pending) {
  const controller = new AbortController();
  const iterable = await within(`${what} to subscribe`, pending.subscribe({ abortSignal: controller.signal }));
  const items = [];
  const done = (async () => {
    for await (const notification of iterable) items.push(notification);
  })();
  done.catch(() => {}); // checked by end()
  return { what, items, controller, done };
}

async function received(sub, count) {
  await poll(`${sub.what}: ${count} notification(s), have ${sub.items.length}`, () => (sub.items.length >= count ? true : undefined), {
    timeoutMs: WAIT_MS,
    intervalMs: 20,
  });
  return sub.items;
}

// Aborts the subscription and checks that its iteration ends, without an error.
async function end(sub) {
  sub.controller.abort();
  await within(`${sub.what}'s iteration to end after abort`, sub.done);
}

// Waits until the slot is finalized and two more slots are, plus time to deliver: by then every commitment has had
// its chance to notify a change made in that slot.
async function settle(slot) {
  await poll(`slot ${slot} + 2 to be finalized`, async () =>
    (await rpc.getSlot({ commitment: 'finalized' }).send()) >= BigInt(slot) + 2n ? true : undefined,
  { timeoutMs: WAIT_MS, intervalMs: 50 });
  await sleep(150);
}

// A second client built the way createSolanaRpcSubscriptions builds one, with a tap on its channel: it shows the
// node's side of an abort (the unsubscribe reply, and no frames for the subscription afterwards) and when a
// subscription is in place.
const tap = { sent: [], frames: [] };
const tappedSubscriptions = (() => {
  const createChannel = createDefaultSolanaRpcSubscriptionsChannelCreator({ url: wsUrl });
  const seen = new WeakSet();
  return createSolanaRpcSubscriptionsFromTransport(
    createDefaultRpcSubscriptionsTransport({
      createChannel: async (config) => {
        const channel = await createChannel(config);
        if (!seen.has(channel)) {
          seen.add(channel);
          channel.on('message', (message) => tap.frames.push(message));
        }
        return {
          on: (...args) => channel.on(...args),
          send: (message) => {
            tap.sent.push(message);
            return channel.send(message);
          },
        };
      },
    }),
  );
})();

// The node's reply to the last tapped request matching method and params: {result, index of the frames after it}.
async function tappedReply(method, matches = () => true) {
  const request = await poll(`a tapped ${method} request`, () => tap.sent.findLast((m) => m.method === method && matches(m.params ?? [])), {
    timeoutMs: WAIT_MS,
    intervalMs: 10,
  });
  const at = await poll(`the reply to ${method}`, () => {
    const i = tap.frames.findIndex((f) => f.id !== undefined && String(f.id) === String(request.id));
    return i >= 0 ? i : undefined;
  }, { timeoutMs: WAIT_MS, intervalMs: 10 });
  const reply = tap.frames[at];
  assert.ok(!('error' in reply), `${method} ${show(request.params)} failed: ${show(reply.error)}`);
  return { result: reply.result, after: at + 1 };
}

const tappedNotifications = (method, id, from = 0) =>
  tap.frames.slice(from).filter((f) => f.method === method && f.params?.subscription === id);

await runScenario('kit_subscriptions', async () => {
  const payer = await generateKeyPairSigner();
  // The slots in which the payer changed: its watcher must see each once, in order.
  const payerSlots = [];

  async function build(instructions) {
    const { value: latestBlockhash } = await rpc.getLatestBlockhash().send();
    const message = pipe(
      createTransactionMessage({ version: 0 }),
      (m) => setTransactionMessageFeePayerSigner(payer, m),
      (m) => setTransactionMessageLifetimeUsingBlockhash(latestBlockhash, m),
      (m) => appendTransactionMessageInstructions(instructions, m),
    );
    const tx = await signTransactionMessageWithSigners(message);
    return { tx, signature: getSignatureFromTransaction(tx), wire: getBase64EncodedWireTransaction(tx) };
  }

  // Sends instructions paid by the payer, confirmed by polling; returns {signature, slot}.
  async function send(instructions) {
    const { signature, wire } = await build(instructions);
    await rpc.sendTransaction(wire, { encoding: 'base64' }).send();
    const status = await waitForSignature(statuses, signature, 'confirmed');
    payerSlots.push(status.slot);
    return { signature, slot: status.slot };
  }
  const transfer = (destination, amount) => send([getTransferSolInstruction({ source: payer, destination, amount })]);

  await step('requestAirdrop to the payer, confirmed by polling', async () => {
    const signature = await rpc.requestAirdrop(payer.address, lamports(BigInt(10 * LAMPORTS_PER_SOL))).send();
    await waitForSignature(statuses, signature, 'confirmed');
  });

  // The payer's watcher stays until the end: it must see every change of the payer once.
  const sentinel = await consume('payer accountNotifications', rpcSubscriptions.accountNotifications(payer.address, { commitment: 'confirmed', encoding: 'base64' }));

  const watched = (await generateKeyPairSigner()).address;
  const amount = BigInt(LAMPORTS_PER_SOL / 100);
  const watchers = {};

  await step('accountNotifications at processed, confirmed and finalized: a transfer is notified once each, with bigints', async () => {
    for (const commitment of COMMITMENTS) {
      watchers[commitment] = await consume(`${commitment} accountNotifications`, rpcSubscriptions.accountNotifications(watched, { commitment, encoding: 'base64' }));
    }
    const t = await transfer(watched, amount);
    for (const commitment of COMMITMENTS) {
      const [{ context, value }] = await received(watchers[commitment], 1);
      assert.equal(context.slot, t.slot, `${commitment}: the context slot is the transfer's slot`);
      assert.deepEqual(value, {
        data: ['', 'base64'],
        executable: false,
        lamports: amount,
        owner: SYSTEM_PROGRAM,
        rentEpoch: RENT_EPOCH_EXEMPT,
        space: 0n,
      }, commitment);
    }
    await settle(t.slot);
    for (const commitment of COMMITMENTS) assert.equal(watchers[commitment].items.length, 1, `${commitment}: ${show(watchers[commitment].items)}`);
  });

  await step('accountNotifications made after a transfer\'s slot is not notified for it; the next transfer is', async () => {
    const late = await consume('late accountNotifications', rpcSubscriptions.accountNotifications(watched, { commitment: 'confirmed', encoding: 'base64', dataSlice: { offset: 0, length: 0 } }));
    await settle(await rpc.getSlot({ commitment: 'confirmed' }).send());
    assert.deepEqual(late.items, [], 'nothing for the transfer before the subscription');
    const t = await transfer(watched, amount);
    const [{ context, value }] = await received(late, 1);
    assert.equal(context.slot, t.slot);
    assert.equal(value.lamports, 2n * amount);
    assert.equal(value.space, 0n);
    for (const commitment of COMMITMENTS) {
      const items = await received(watchers[commitment], 2);
      assert.equal(items[1].value.lamports, 2n * amount, commitment);
      assert.equal(items[1].context.slot, t.slot, commitment);
    }
    await settle(t.slot);
    assert.equal(late.items.length, 1);
    for (const commitment of COMMITMENTS) assert.equal(watchers[commitment].items.length, 2, commitment);
    for (const sub of [late, ...Object.values(watchers)]) await end(sub);
  });

  await step('abort: the node answers the unsubscribe with true and sends nothing more for the subscription', async () => {
    // On the tapped client: a second subscription keeps the channel open (kit closes a channel with none left).
    const keep = await consume('tapped payer accountNotifications', tappedSubscriptions.accountNotifications(payer.address, { commitment: 'confirmed', encoding: 'base64' }));
    const sub = await consume('tapped accountNotifications', tappedSubscriptions.accountNotifications(watched, { commitment: 'confirmed', encoding: 'base64' }));
    const { result: id } = await tappedReply('accountSubscribe', (p) => p[0] === watched);
    assert.equal(typeof id, 'bigint', `subscription id ${show(id)}`);
    const before = await transfer(watched, amount);
    await received(sub, 1);
    assert.equal(sub.items[0].context.slot, before.slot);
    assert.equal(tappedNotifications('accountNotification', id).length, 1);

    await end(sub);
    const { result, after } = await tappedReply('accountUnsubscribe', (p) => p[0] === id);
    assert.equal(result, true, 'accountUnsubscribe answers true');
    const t = await transfer(watched, amount);
    await received(keep, 2);
    assert.equal(keep.items[1].context.slot, t.slot, 'the channel still delivers (the payer changed)');
    await settle(t.slot);
    assert.deepEqual(tappedNotifications('accountNotification', id, after), [], 'no notification after accountUnsubscribe');
    assert.equal(sub.items.length, 1);
    await end(keep);
  });

  await step('programNotifications of the System program with dataSize and memcmp filters: a nonce account', async () => {
    const authority = await generateKeyPairSigner();
    const nonceAccount = await generateKeyPairSigner();
    const filtered = (bytes) =>
      rpcSubscriptions.programNotifications(SYSTEM_PROGRAM, {
        commitment: 'confirmed',
        encoding: 'base64',
        filters: [{ dataSize: NONCE_LENGTH }, { memcmp: { offset: 8n, bytes, encoding: 'base58' } }],
      });
    const sub = await consume('programNotifications', filtered(authority.address));
    const other = await consume('programNotifications (no match)', filtered((await generateKeyPairSigner()).address));
    const created = await send([
      getCreateAccountInstruction({
        payer,
        newAccount: nonceAccount,
        lamports: lamports(BigInt(RENT_EXEMPT_MINIMUM_NONCE)),
        space: NONCE_LENGTH,
        programAddress: SYSTEM_PROGRAM,
      }),
      getInitializeNonceAccountInstruction({ nonceAccount: nonceAccount.address, nonceAuthority: authority.address }),
    ]);
    const [{ context, value }] = await received(sub, 1);
    assert.equal(context.slot, created.slot);
    assert.equal(value.pubkey, nonceAccount.address);
    assert.equal(value.account.lamports, BigInt(RENT_EXEMPT_MINIMUM_NONCE));
    assert.equal(value.account.owner, SYSTEM_PROGRAM);
    assert.equal(value.account.space, NONCE_LENGTH);
    const first = getNonceDecoder().decode(Buffer.from(value.account.data[0], 'base64'));
    assert.equal(first.authority, authority.address);

    const advanced = await send([getAdvanceNonceAccountInstruction({ nonceAccount: nonceAccount.address, nonceAuthority: authority })]);
    const items = await received(sub, 2);
    assert.equal(items[1].context.slot, advanced.slot);
    const second = getNonceDecoder().decode(Buffer.from(items[1].value.account.data[0], 'base64'));
    assert.notEqual(second.blockhash, first.blockhash, 'the nonce advanced');
    await settle(advanced.slot);
    assert.equal(sub.items.length, 2, `only the nonce account, got ${show(sub.items.map((i) => i.value.pubkey))}`);
    assert.deepEqual(other.items, []);
    await end(sub);
    await end(other);
  });

  await step('logsNotifications mentioning an address: the transfer\'s logs with the System program\'s invoke line', async () => {
    const target = (await generateKeyPairSigner()).address;
    const sub = await consume('logsNotifications', rpcSubscriptions.logsNotifications({ mentions: [target] }, { commitment: 'confirmed' }));
    const t = await transfer(target, amount);
    const [{ context, value }] = await received(sub, 1);
    assert.equal(context.slot, t.slot);
    assert.equal(value.signature, t.signature);
    assert.equal(value.err, null);
    assert.ok(value.logs.includes(invokeLog(SYSTEM_PROGRAM)), `logs ${show(value.logs)}`);
    assert.deepEqual(value.logs, TRANSFER_LOGS);
    await settle(t.slot);
    assert.equal(sub.items.length, 1);
    await end(sub);
  });

  await step('signatureNotifications at each commitment, and receivedSignature with enableReceivedNotification', async () => {
    const target = (await generateKeyPairSigner()).address;
    const { signature, wire } = await build([getTransferSolInstruction({ source: payer, destination: target, amount })]);
    const subs = {};
    for (const commitment of COMMITMENTS) {
      subs[commitment] = await consume(`${commitment} signatureNotifications`, rpcSubscriptions.signatureNotifications(signature, { commitment }));
    }
    const withReceived = await consume('signatureNotifications with receivedSignature', rpcSubscriptions.signatureNotifications(signature, { commitment: 'confirmed', enableReceivedNotification: true }));
    await rpc.sendTransaction(wire, { encoding: 'base64' }).send();
    const status = await waitForSignature(statuses, signature, 'confirmed');
    payerSlots.push(status.slot);
    for (const commitment of COMMITMENTS) {
      const [{ context, value }] = await received(subs[commitment], 1);
      assert.deepEqual(value, { err: null }, commitment);
      assert.equal(context.slot, status.slot, commitment);
    }
    await received(withReceived, 2);
    await settle(status.slot);
    // The node sends one final notification and drops the subscription; the iteration stays open until aborted.
    for (const commitment of COMMITMENTS) assert.equal(subs[commitment].items.length, 1, `${commitment}: ${show(subs[commitment].items)}`);
    assert.deepEqual(withReceived.items.map((n) => n.value), ['receivedSignature', { err: null }]);
    assert.ok(withReceived.items[0].context.slot <= status.slot, `received at ${withReceived.items[0].context.slot}`);
    assert.equal(withReceived.items[1].context.slot, status.slot);
    for (const sub of [...Object.values(subs), withReceived]) await end(sub);
  });

  await step('signatureNotifications made after the transaction was confirmed is not notified', async () => {
    const t = await transfer((await generateKeyPairSigner()).address, amount);
    const late = await consume('late signatureNotifications', rpcSubscriptions.signatureNotifications(t.signature, { commitment: 'confirmed' }));
    await settle(t.slot);
    assert.deepEqual(late.items, []);
    await end(late);
  });

  await step('sendAndConfirmTransactionFactory confirms a transfer through signatureNotifications', async () => {
    // On the tapped client, to see its subscriptions.
    const sendAndConfirm = sendAndConfirmTransactionFactory({ rpc, rpcSubscriptions: tappedSubscriptions });
    const { tx, signature } = await build([getTransferSolInstruction({ source: payer, destination: (await generateKeyPairSigner()).address, amount })]);
    await within('sendAndConfirmTransaction', sendAndConfirm(tx, { commitment: 'confirmed' }));
    const [status] = await statuses([signature]);
    assert.ok(status && status.err === null && status.confirmationStatus !== 'processed', show(status));
    payerSlots.push(status.slot);
    const { result: id } = await tappedReply('signatureSubscribe', (p) => p[0] === signature);
    assert.equal(typeof id, 'bigint', 'it subscribed to the signature');
    // It may have been confirmed by the node's notification or by its one getSignatureStatuses lookup, depending on
    // which was first; a notification, if any, is the only one and carries the transaction's slot.
    const frames = tappedNotifications('signatureNotification', id);
    assert.ok(frames.length <= 1, show(frames));
    if (frames.length) assert.equal(frames[0].params.result.context.slot, status.slot);
  });

  await step('slotNotifications: consecutive banks with bigint slot, parent and root', async () => {
    const before = await rpc.getSlot({ commitment: 'processed' }).send();
    const sub = await consume('slotNotifications', rpcSubscriptions.slotNotifications());
    const items = await received(sub, 10);
    assert.ok(items[0].slot > before, `first notified slot ${items[0].slot} > ${before}`);
    for (const [i, info] of items.entries()) {
      for (const key of ['slot', 'parent', 'root']) assert.equal(typeof info[key], 'bigint', `${key} of ${show(info)}`);
      assert.ok(info.parent < info.slot && info.root <= info.parent, `root <= parent < slot: ${show(info)}`);
      if (i > 0) {
        assert.equal(info.parent, items[i - 1].slot, `each bank's parent is the previous one: ${show(items.slice(0, i + 1))}`);
        assert.ok(info.root >= items[i - 1].root, `roots do not go back: ${show(items.slice(0, i + 1))}`);
      }
    }
    await end(sub);
  });

  await step('rootNotifications: every finalized block, in order', async () => {
    const sub = await consume('rootNotifications', rpcSubscriptions.rootNotifications());
    const roots = (await received(sub, 8)).slice(0, 8);
    for (const root of roots) assert.equal(typeof root, 'bigint');
    const blocks = await rpc.getBlocks(roots[0], roots.at(-1), { commitment: 'finalized' }).send();
    assert.deepEqual(roots, blocks, 'one notification per rooted block');
    await end(sub);
  });

  await step('the payer\'s accountNotifications saw each change of the payer once, in slot order, with its balance', async () => {
    await settle(payerSlots.at(-1));
    assert.deepEqual(sentinel.items.map((n) => n.context.slot), payerSlots);
    assert.equal(sentinel.items.at(-1).value.lamports, (await rpc.getBalance(payer.address).send()).value);
    await end(sentinel);
  });
});
