// Subscriptions through @solana/web3.js v1 over the node's WebSocket: onAccountChange, onProgramAccountChange,
// onLogs, onSignature (and confirmTransaction and sendAndConfirmTransaction, which use it), onSlotChange and
// onRootChange. A subscription made before a change is notified once, at its commitment, with the slot of the change;
// one made after the change's slot is not; a removed listener's server subscription answers its unsubscribe with true
// and gets nothing more. Run: RPC_URL=http://127.0.0.1:8899 WS_URL=ws://127.0.0.1:8900 node subscriptions.mjs

import {
  Connection,
  Keypair,
  NONCE_ACCOUNT_LENGTH,
  NonceAccount,
  SystemProgram,
  Transaction,
  TransactionMessage,
  VersionedTransaction,
  sendAndConfirmTransaction,
} from '@solana/web3.js';

import {
  LAMPORTS_PER_SIGNATURE,
  LAMPORTS_PER_SOL,
  RENT_EXEMPT_MINIMUM_NONCE,
  RPC_URL,
  SYSTEM_PROGRAM,
  TRANSFER_LOGS,
  WS_URL,
  assert,
  assertWhole,
  base58,
  invokeLog,
  poll,
  runScenario,
  show,
  step,
  waitForSignature,
} from './lib.mjs';

const connection = new Connection(RPC_URL, { commitment: 'confirmed', wsEndpoint: WS_URL });
const statuses = async (signatures) => (await connection.getSignatureStatuses(signatures)).value;

// Every wait for a notification gives up after this long, so a missing one fails the step instead of hanging.
const WAIT_MS = 20_000;
const COMMITMENTS = ['processed', 'confirmed', 'finalized'];
const VOTE_PROGRAM = 'Vote111111111111111111111111111111111111111';
const FEE = LAMPORTS_PER_SIGNATURE;
const OVERDRAFT_ERR = { InstructionError: [0, { Custom: 1 }] };

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

// What crosses the socket under web3.js: each call with its reply, and each notification frame's params. web3.js
// keeps the server's side (subscription ids, unsubscribe replies, notifications for listeners it dropped) to itself,
// and the checks that the node stops notifying need it.
const wire = { calls: [], notifications: [] };
const NOTIFICATIONS = ['accountNotification', 'programNotification', 'logsNotification', 'signatureNotification', 'slotNotification', 'rootNotification'];
{
  const socket = connection._rpcWebSocket;
  const call = socket.call.bind(socket);
  socket.call = async (method, params, ...rest) => {
    const entry = { method, params };
    wire.calls.push(entry);
    try {
      entry.result = await call(method, params, ...rest);
      return entry.result;
    } catch (err) {
      entry.error = err;
      throw err;
    } finally {
      // How many notifications arrived before the reply: those after it came from the node after it answered.
      entry.notificationsBefore = wire.notifications.length;
    }
  };
  for (const method of NOTIFICATIONS) socket.on(method, (params) => wire.notifications.push({ method, ...params }));
}

const rawNotifications = (method, serverId, from = 0) =>
  wire.notifications.slice(from).filter((n) => n.method === method && n.subscription === serverId);

// Callbacks' arguments, in arrival order.
function recorder() {
  const items = [];
  return { items, record: (...args) => items.push(args) };
}

async function received(got, count, what) {
  await poll(`${what}: ${count} notification(s), have ${got.items.length}`, () => (got.items.length >= count ? true : undefined), {
    timeoutMs: WAIT_MS,
    intervalMs: 20,
  });
  return got.items;
}

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

// Registers a listener and waits for the node's reply to its subscribe call (matched by method and params); returns
// the client id, the server's subscription id and the recorder of its callbacks.
async function listen(method, matches, register) {
  const from = wire.calls.length;
  const got = recorder();
  const clientId = register(got.record);
  const entry = await poll(
    `the reply to ${method}`,
    () => wire.calls.slice(from).find((c) => c.method === method && matches(c.params ?? []) && ('result' in c || 'error' in c)),
    { timeoutMs: WAIT_MS, intervalMs: 10 },
  );
  if (entry.error) throw new Error(`${method} ${show(entry.params)} failed: ${show(entry.error)}`);
  assertWhole(entry.result, `${method} subscription id`);
  return { clientId, serverId: entry.result, got };
}

// The reply to the unsubscribe web3.js sent for a server subscription: true. Returns the index of the first
// notification that arrived after it.
function unsubscribed(method, serverId) {
  const entry = wire.calls.findLast((c) => c.method === method && c.params?.[0] === serverId);
  assert.ok(entry, `web3.js sent ${method} [${serverId}]`);
  assert.ok(!entry.error, `${method} [${serverId}] failed: ${show(entry.error)}`);
  assert.equal(entry.result, true, `${method} [${serverId}] answers true`);
  return entry.notificationsBefore;
}

// Waits until the slot is finalized and two more slots are, plus time to deliver: by then every commitment has had
// its chance to notify a change made in that slot.
async function settle(slot) {
  await poll(`slot ${slot} + 2 to be finalized`, async () =>
    (await connection.getSlot({ commitment: 'finalized' })) >= slot + 2 ? true : undefined,
  { timeoutMs: WAIT_MS, intervalMs: 50 });
  await sleep(150);
}

// A signed legacy transaction over the latest blockhash, with the payer first.
async function build(payer, instructions, signers = []) {
  const { blockhash, lastValidBlockHeight } = await connection.getLatestBlockhash();
  const message = new TransactionMessage({ payerKey: payer.publicKey, recentBlockhash: blockhash, instructions });
  const tx = new VersionedTransaction(message.compileToLegacyMessage());
  tx.sign([payer, ...signers]);
  return { tx, signature: base58(tx.signatures[0]), blockhash, lastValidBlockHeight };
}

// The confirmed status of a signature, whether the transaction failed or not.
async function landed(signature) {
  return poll(`${signature} to be confirmed`, async () => {
    const [status] = await statuses([signature]);
    return status && status.confirmationStatus !== 'processed' ? status : undefined;
  });
}

await runScenario('subscriptions', async () => {
  const payer = Keypair.generate();
  // The slots in which the payer changed: its watcher must see each once, in order.
  const payerSlots = [];

  // Sends instructions paid by the payer, confirmed by polling; returns {signature, slot}.
  async function send(instructions, signers = []) {
    const { tx, signature } = await build(payer, instructions, signers);
    await connection.sendTransaction(tx);
    const status = await waitForSignature(statuses, signature, 'confirmed');
    payerSlots.push(status.slot);
    return { signature, slot: status.slot };
  }
  const transfer = (to, lamports) => send([SystemProgram.transfer({ fromPubkey: payer.publicKey, toPubkey: to, lamports })]);

  await step('requestAirdrop to the payer, confirmed by polling', async () => {
    const signature = await connection.requestAirdrop(payer.publicKey, 10 * LAMPORTS_PER_SOL);
    await waitForSignature(statuses, signature, 'confirmed');
  });

  // The payer's watcher stays until the end, so the socket stays open and shows that it still delivers while the
  // removed listeners get nothing.
  let sentinel;
  await step('onAccountChange of the payer, made after its airdrop (kept to the end)', async () => {
    sentinel = await listen('accountSubscribe', (p) => p[0] === payer.publicKey.toBase58(), (record) =>
      connection.onAccountChange(payer.publicKey, record, 'confirmed'),
    );
  });

  const watched = Keypair.generate().publicKey;
  const amount = LAMPORTS_PER_SOL / 100;
  const watchers = {};

  await step('onAccountChange at processed, confirmed and finalized: three server subscriptions', async () => {
    for (const commitment of COMMITMENTS) {
      watchers[commitment] = await listen(
        'accountSubscribe',
        (p) => p[0] === watched.toBase58() && p[1]?.commitment === commitment,
        (record) => connection.onAccountChange(watched, record, { commitment }),
      );
    }
    const ids = COMMITMENTS.map((c) => watchers[c].serverId);
    assert.equal(new Set([...ids, sentinel.serverId]).size, 4, `distinct ids ${show(ids)} and ${sentinel.serverId}`);
  });

  await step('a transfer to the watched account is notified once at each commitment, with its lamports and slot', async () => {
    const t = await transfer(watched, amount);
    for (const commitment of COMMITMENTS) {
      const [[info, context]] = await received(watchers[commitment].got, 1, `${commitment} accountNotification`);
      assert.equal(info.lamports, amount, `${commitment} lamports`);
      assert.ok(info.owner.equals(SystemProgram.programId), `${commitment} owner ${info.owner}`);
      assert.equal(info.executable, false);
      assert.ok(Buffer.isBuffer(info.data) && info.data.length === 0, `${commitment} data ${show(info.data)}`);
      assert.equal(context.slot, t.slot, `${commitment} notification's context slot is the transfer's slot`);
    }
    await settle(t.slot);
    for (const commitment of COMMITMENTS) {
      assert.equal(watchers[commitment].got.items.length, 1, `${commitment}: one notification, got ${show(watchers[commitment].got.items)}`);
    }
    const [raw] = rawNotifications('accountNotification', watchers.confirmed.serverId);
    assert.deepEqual(Object.keys(raw.result.context), ['slot'], 'the context holds only slot');
    assert.deepEqual(raw.result.value.data, ['', 'base64']);
    assert.equal(raw.result.value.space, 0);
  });

  await step('removeAccountChangeListener: accountUnsubscribe answers true and a later transfer is not notified', async () => {
    const after = {};
    for (const commitment of COMMITMENTS) {
      await connection.removeAccountChangeListener(watchers[commitment].clientId);
      after[commitment] = unsubscribed('accountUnsubscribe', watchers[commitment].serverId);
    }
    const t = await transfer(watched, amount);
    await settle(t.slot);
    for (const commitment of COMMITMENTS) {
      const late = rawNotifications('accountNotification', watchers[commitment].serverId, after[commitment]);
      assert.deepEqual(late, [], `${commitment}: nothing after accountUnsubscribe`);
      assert.equal(watchers[commitment].got.items.length, 1);
    }
    assert.equal(sentinel.got.items.at(-1)?.[1].slot, t.slot, 'the payer watcher on the same socket saw the transfer');
  });

  await step('onAccountChange made after a transfer\'s slot is not notified for it; the next transfer is', async () => {
    const late = await listen('accountSubscribe', (p) => p[0] === watched.toBase58() && p[1]?.commitment === 'confirmed', (record) =>
      connection.onAccountChange(watched, record, 'confirmed'),
    );
    assert.ok(late.serverId > watchers.confirmed.serverId, `a new id ${late.serverId} from the node-wide counter`);
    await settle(await connection.getSlot({ commitment: 'confirmed' }));
    assert.deepEqual(late.got.items, [], 'nothing for the transfers made before the subscription');
    const t = await transfer(watched, amount);
    const [[info, context]] = await received(late.got, 1, 'accountNotification');
    assert.equal(info.lamports, 3 * amount);
    assert.equal(context.slot, t.slot);
    await settle(t.slot);
    assert.equal(late.got.items.length, 1, `one notification, got ${show(late.got.items)}`);
    await connection.removeAccountChangeListener(late.clientId);
    unsubscribed('accountUnsubscribe', late.serverId);
  });

  const authority = Keypair.generate();
  const nonceAccount = Keypair.generate();
  const nonceFilters = (key) => [{ dataSize: NONCE_ACCOUNT_LENGTH }, { memcmp: { offset: 8, bytes: key.toBase58() } }];
  let programWatch;
  let otherWatch;
  const advance = () => send([SystemProgram.nonceAdvance({ noncePubkey: nonceAccount.publicKey, authorizedPubkey: authority.publicKey })], [authority]);

  await step('onProgramAccountChange of the System program with dataSize and memcmp filters: a new nonce account is notified', async () => {
    const subscribe = (key) =>
      listen('programSubscribe', (p) => p[0] === SYSTEM_PROGRAM && p[1]?.filters?.[1]?.memcmp?.bytes === key.toBase58(), (record) =>
        connection.onProgramAccountChange(SystemProgram.programId, record, { commitment: 'confirmed', filters: nonceFilters(key) }),
      );
    programWatch = await subscribe(authority.publicKey);
    otherWatch = await subscribe(Keypair.generate().publicKey); // matches no account
    const t = await send(
      [
        SystemProgram.createAccount({
          fromPubkey: payer.publicKey,
          newAccountPubkey: nonceAccount.publicKey,
          lamports: RENT_EXEMPT_MINIMUM_NONCE,
          space: NONCE_ACCOUNT_LENGTH,
          programId: SystemProgram.programId,
        }),
        SystemProgram.nonceInitialize({ noncePubkey: nonceAccount.publicKey, authorizedPubkey: authority.publicKey }),
      ],
      [nonceAccount],
    );
    const [[{ accountId, accountInfo }, context]] = await received(programWatch.got, 1, 'programNotification');
    assert.ok(accountId.equals(nonceAccount.publicKey), `accountId ${accountId}`);
    assert.equal(context.slot, t.slot);
    assert.equal(accountInfo.lamports, RENT_EXEMPT_MINIMUM_NONCE);
    assert.ok(accountInfo.owner.equals(SystemProgram.programId));
    assert.equal(accountInfo.data.length, NONCE_ACCOUNT_LENGTH);
    assert.ok(NonceAccount.fromAccountData(accountInfo.data).authorizedPubkey.equals(authority.publicKey));
    await settle(t.slot);
    assert.equal(programWatch.got.items.length, 1, `only the nonce account (not the payer), got ${show(programWatch.got.items.map((i) => i[0].accountId))}`);
    assert.deepEqual(otherWatch.got.items, [], 'the subscription whose memcmp matches nothing');
    const [raw] = rawNotifications('programNotification', programWatch.serverId);
    assert.deepEqual(Object.keys(raw.result.context), ['slot']);
    assert.equal(raw.result.value.pubkey, nonceAccount.publicKey.toBase58());
    assert.equal(raw.result.value.account.space, NONCE_ACCOUNT_LENGTH);
  });

  await step('onProgramAccountChange: nonceAdvance is notified with the new nonce', async () => {
    const t = await advance();
    const items = await received(programWatch.got, 2, 'programNotification');
    const [{ accountInfo }, context] = items[1];
    assert.equal(context.slot, t.slot);
    const before = NonceAccount.fromAccountData(items[0][0].accountInfo.data).nonce;
    const after = NonceAccount.fromAccountData(accountInfo.data).nonce;
    assert.notEqual(after, before, 'the nonce advanced');
    assert.equal(after, (await connection.getNonce(nonceAccount.publicKey)).nonce);
    await settle(t.slot);
    assert.equal(programWatch.got.items.length, 2);
    assert.deepEqual(otherWatch.got.items, []);
  });

  await step('removeProgramAccountChangeListener: programUnsubscribe answers true and a later change is not notified', async () => {
    await connection.removeProgramAccountChangeListener(programWatch.clientId);
    const after = unsubscribed('programUnsubscribe', programWatch.serverId);
    await connection.removeProgramAccountChangeListener(otherWatch.clientId);
    unsubscribed('programUnsubscribe', otherWatch.serverId);
    const t = await advance();
    await settle(t.slot);
    assert.deepEqual(rawNotifications('programNotification', programWatch.serverId, after), []);
    assert.equal(programWatch.got.items.length, 2);
    assert.equal(sentinel.got.items.at(-1)?.[1].slot, t.slot, 'the payer watcher saw the nonceAdvance');
  });

  const target = Keypair.generate().publicKey;
  const logWatch = {};

  await step('onLogs (mentions, all, allWithVotes): a transfer\'s logs with the System program\'s invoke line', async () => {
    logWatch.mentions = await listen('logsSubscribe', (p) => p[0]?.mentions?.[0] === target.toBase58(), (record) =>
      connection.onLogs(target, record, 'confirmed'),
    );
    logWatch.all = await listen('logsSubscribe', (p) => p[0] === 'all', (record) => connection.onLogs('all', record, 'confirmed'));
    logWatch.allWithVotes = await listen('logsSubscribe', (p) => p[0] === 'allWithVotes', (record) =>
      connection.onLogs('allWithVotes', record, 'confirmed'),
    );
    const t = await transfer(target, amount);
    const [[logs, context]] = await received(logWatch.mentions.got, 1, 'logsNotification (mentions)');
    assert.equal(logs.signature, t.signature);
    assert.equal(logs.err, null);
    assert.ok(logs.logs.includes(invokeLog(SYSTEM_PROGRAM)), `logs ${show(logs.logs)}`);
    assert.deepEqual(logs.logs, TRANSFER_LOGS);
    assert.equal(context.slot, t.slot);
    for (const filter of ['all', 'allWithVotes']) {
      const items = await poll(`the transfer in the ${filter} logs`, () =>
        logWatch[filter].got.items.some(([l]) => l.signature === t.signature) ? logWatch[filter].got.items : undefined,
      { timeoutMs: WAIT_MS, intervalMs: 20 });
      const [[l, ctx]] = items.filter(([x]) => x.signature === t.signature);
      assert.deepEqual(l.logs, TRANSFER_LOGS, filter);
      assert.equal(ctx.slot, t.slot, filter);
    }
    await poll('a vote transaction in the allWithVotes logs', () =>
      logWatch.allWithVotes.got.items.some(([l]) => l.logs.includes(invokeLog(VOTE_PROGRAM))) || undefined,
    { timeoutMs: WAIT_MS, intervalMs: 20 });
    await settle(t.slot);
    assert.equal(logWatch.mentions.got.items.length, 1, `one notification, got ${show(logWatch.mentions.got.items)}`);
    const votes = logWatch.all.got.items.filter(([l]) => l.logs.includes(invokeLog(VOTE_PROGRAM)));
    assert.deepEqual(votes, [], '"all" leaves out votes');
    const transferInAll = logWatch.all.got.items.filter(([l]) => l.signature === t.signature);
    assert.equal(transferInAll.length, 1, 'the transfer once in "all"');
  });

  await step('a failed transaction (skipPreflight) is notified to onLogs and onSignature with its error', async () => {
    const stranger = Keypair.generate().publicKey;
    const balance = await connection.getBalance(payer.publicKey);
    const tooMuch = balance + 1;
    const { tx, signature } = await build(payer, [SystemProgram.transfer({ fromPubkey: payer.publicKey, toPubkey: stranger, lamports: tooMuch })]);
    const logs = await listen('logsSubscribe', (p) => p[0]?.mentions?.[0] === stranger.toBase58(), (record) =>
      connection.onLogs(stranger, record, 'confirmed'),
    );
    const sig = await listen('signatureSubscribe', (p) => p[0] === signature, (record) => connection.onSignature(signature, record, 'confirmed'));
    assert.equal(await connection.sendRawTransaction(tx.serialize(), { skipPreflight: true }), signature);
    const status = await landed(signature);
    assert.deepEqual(status.err, OVERDRAFT_ERR);
    payerSlots.push(status.slot); // the fee was charged
    const [[result, sigContext]] = await received(sig.got, 1, 'signatureNotification');
    assert.deepEqual(result, { err: OVERDRAFT_ERR });
    assert.equal(sigContext.slot, status.slot);
    const [[l, context]] = await received(logs.got, 1, 'logsNotification');
    assert.equal(l.signature, signature);
    assert.deepEqual(l.err, OVERDRAFT_ERR);
    assert.deepEqual(l.logs, [
      invokeLog(SYSTEM_PROGRAM),
      `Transfer: insufficient lamports ${balance - FEE}, need ${tooMuch}`,
      `Program ${SYSTEM_PROGRAM} failed: custom program error: 0x1`,
    ]);
    assert.equal(context.slot, status.slot);
    await connection.removeOnLogsListener(logs.clientId);
    unsubscribed('logsUnsubscribe', logs.serverId);
  });

  await step('removeOnLogsListener: logsUnsubscribe answers true and a later transfer is not notified', async () => {
    const after = {};
    for (const filter of ['mentions', 'all', 'allWithVotes']) {
      await connection.removeOnLogsListener(logWatch[filter].clientId);
      after[filter] = unsubscribed('logsUnsubscribe', logWatch[filter].serverId);
    }
    const t = await transfer(target, amount);
    await settle(t.slot);
    for (const filter of ['mentions', 'all', 'allWithVotes']) {
      assert.deepEqual(rawNotifications('logsNotification', logWatch[filter].serverId, after[filter]), [], `${filter}: nothing after logsUnsubscribe`);
    }
    assert.equal(logWatch.mentions.got.items.length, 1);
    assert.equal(sentinel.got.items.at(-1)?.[1].slot, t.slot, 'the payer watcher saw the transfer');
  });

  await step('onSignature at processed, confirmed and finalized, and with enableReceivedNotification', async () => {
    const { tx, signature } = await build(payer, [SystemProgram.transfer({ fromPubkey: payer.publicKey, toPubkey: target, lamports: amount })]);
    const watch = {};
    for (const commitment of COMMITMENTS) {
      watch[commitment] = await listen(
        'signatureSubscribe',
        (p) => p[0] === signature && p[1]?.commitment === commitment && !p[1]?.enableReceivedNotification,
        (record) => connection.onSignature(signature, record, commitment),
      );
    }
    const receivedWatch = await listen('signatureSubscribe', (p) => p[0] === signature && p[1]?.enableReceivedNotification === true, (record) =>
      connection.onSignatureWithOptions(signature, record, { commitment: 'finalized', enableReceivedNotification: true }),
    );
    await connection.sendRawTransaction(tx.serialize());
    const status = await waitForSignature(statuses, signature, 'confirmed');
    payerSlots.push(status.slot);

    // web3.js passes the first notification, removes its listener, and unsubscribes, the node having kept the
    // subscription after "receivedSignature".
    const [[first, firstContext]] = await received(receivedWatch.got, 1, 'receivedSignature');
    assert.deepEqual(first, { type: 'received' });
    assertWhole(firstContext.slot, 'receivedSignature context slot');
    assert.ok(firstContext.slot <= status.slot, `received at ${firstContext.slot}, processed at ${status.slot}`);

    for (const commitment of COMMITMENTS) {
      const [[result, context]] = await received(watch[commitment].got, 1, `${commitment} signatureNotification`);
      assert.deepEqual(result, { err: null }, commitment);
      assert.equal(context.slot, status.slot, `${commitment} context slot`);
    }
    await settle(status.slot);
    unsubscribed('signatureUnsubscribe', receivedWatch.serverId);
    for (const commitment of COMMITMENTS) {
      assert.equal(watch[commitment].got.items.length, 1, commitment);
      const raw = rawNotifications('signatureNotification', watch[commitment].serverId);
      assert.equal(raw.length, 1, `${commitment}: one signatureNotification frame`);
      assert.deepEqual(raw[0].result.value, { err: null });
      assert.deepEqual(Object.keys(raw[0].result.context), ['slot']);
      // The node removed the subscription after its notification; web3.js knows and sends no unsubscribe.
      assert.ok(
        !wire.calls.some((c) => c.method === 'signatureUnsubscribe' && c.params?.[0] === watch[commitment].serverId),
        `web3.js sent no signatureUnsubscribe for the ${commitment} subscription`,
      );
      const gone = await connection._rpcWebSocket.call('signatureUnsubscribe', [watch[commitment].serverId]).then(
        (result) => ({ result }),
        (error) => ({ error }),
      );
      assert.equal(gone.error?.code, -32602, `${commitment}: the node already removed it, got ${show(gone)}`);
      assert.equal(gone.error?.message, 'Invalid subscription id.');
    }
  });

  await step('onSignature made after the transaction was confirmed is not notified', async () => {
    const t = await transfer(target, amount);
    const late = await listen('signatureSubscribe', (p) => p[0] === t.signature, (record) => connection.onSignature(t.signature, record, 'confirmed'));
    await settle(t.slot);
    assert.deepEqual(late.got.items, [], 'nothing for a signature that landed before the subscription');
    await connection.removeSignatureListener(late.clientId);
    unsubscribed('signatureUnsubscribe', late.serverId);
  });

  await step('confirmTransaction with a blockhash strategy resolves through signatureSubscribe', async () => {
    const { tx, signature, blockhash, lastValidBlockHeight } = await build(payer, [
      SystemProgram.transfer({ fromPubkey: payer.publicKey, toPubkey: target, lamports: amount }),
    ]);
    // Confirming before sending: its one getSignatureStatus check finds nothing, so only the notification can resolve it.
    const from = wire.calls.length;
    const confirming = connection.confirmTransaction({ signature, blockhash, lastValidBlockHeight }, 'confirmed');
    const sub = await poll('confirmTransaction\'s signatureSubscribe', () =>
      wire.calls.slice(from).find((c) => c.method === 'signatureSubscribe' && c.params[0] === signature && 'result' in c),
    { timeoutMs: WAIT_MS, intervalMs: 10 });
    assert.deepEqual(sub.params[1], { commitment: 'confirmed' });
    await connection.sendRawTransaction(tx.serialize());
    const { context, value } = await within('confirmTransaction', confirming);
    assert.deepEqual(value, { err: null });
    const status = await waitForSignature(statuses, signature, 'confirmed');
    payerSlots.push(status.slot);
    assert.equal(context.slot, status.slot);
    assert.equal(rawNotifications('signatureNotification', sub.result).length, 1, 'the node notified it');
  });

  await step('sendAndConfirmTransaction (confirmTransaction underneath) confirms a transfer', async () => {
    const from = wire.calls.length;
    // One lamport more than the previous step's transfer: web3.js signs with the finalized blockhash, which can be
    // the confirmed one that transfer used, and the same transaction again is refused as already processed.
    const tx = new Transaction().add(SystemProgram.transfer({ fromPubkey: payer.publicKey, toPubkey: target, lamports: amount + 1 }));
    const signature = await within('sendAndConfirmTransaction', sendAndConfirmTransaction(connection, tx, [payer], { commitment: 'confirmed' }));
    assert.ok(wire.calls.slice(from).some((c) => c.method === 'signatureSubscribe' && c.params[0] === signature), 'it subscribed');
    const [status] = await statuses([signature]);
    assert.ok(status && status.err === null && status.confirmationStatus !== 'processed', show(status));
    payerSlots.push(status.slot);
  });

  await step('onSlotChange: consecutive banks with slot, parent and root', async () => {
    const before = await connection.getSlot({ commitment: 'processed' });
    const slots = await listen('slotSubscribe', () => true, (record) => connection.onSlotChange(record));
    const items = (await received(slots.got, 10, 'slotNotification')).map(([info]) => info);
    assert.ok(items[0].slot > before, `first notified slot ${items[0].slot} > ${before}, the slot before subscribing`);
    for (const [i, info] of items.entries()) {
      for (const key of ['slot', 'parent', 'root']) assertWhole(info[key], `${key} of ${show(info)}`);
      assert.ok(info.parent < info.slot && info.root <= info.parent, `root <= parent < slot: ${show(info)}`);
      if (i > 0) {
        assert.equal(info.parent, items[i - 1].slot, `each bank's parent is the previous one: ${show(items.slice(0, i + 1))}`);
        assert.ok(info.root >= items[i - 1].root, `roots do not go back: ${show(items.slice(0, i + 1))}`);
      }
    }
    const finalized = await connection.getSlot({ commitment: 'finalized' });
    assert.ok(items.at(-1).root <= finalized, `root ${items.at(-1).root} <= finalized ${finalized}`);
    await connection.removeSlotChangeListener(slots.clientId);
    const after = unsubscribed('slotUnsubscribe', slots.serverId);
    await sleep(100);
    const count = rawNotifications('slotNotification', slots.serverId, after).length;
    await sleep(500);
    assert.equal(rawNotifications('slotNotification', slots.serverId, after).length, count, 'no slot notifications after slotUnsubscribe');
  });

  await step('onRootChange: every finalized block, in order', async () => {
    const roots = await listen('rootSubscribe', () => true, (record) => connection.onRootChange(record));
    const items = (await received(roots.got, 8, 'rootNotification')).map(([root]) => root);
    items.forEach((root, i) => {
      assertWhole(root, 'root');
      if (i > 0) assert.ok(root > items[i - 1], `increasing roots ${show(items)}`);
    });
    const blocks = await connection.getBlocks(items[0], items.at(-1), 'finalized');
    assert.deepEqual(items, blocks, 'one notification per rooted block');
    await connection.removeRootChangeListener(roots.clientId);
    const after = unsubscribed('rootUnsubscribe', roots.serverId);
    await sleep(100);
    const count = rawNotifications('rootNotification', roots.serverId, after).length;
    await sleep(500);
    assert.equal(rawNotifications('rootNotification', roots.serverId, after).length, count, 'no root notifications after rootUnsubscribe');
  });

  await step('the payer\'s watcher saw each change of the payer once, in slot order, with its balance', async () => {
    await settle(payerSlots.at(-1));
    const seen = sentinel.got.items.map(([, context]) => context.slot);
    assert.deepEqual(seen, payerSlots, 'one notification per slot that changed the payer');
    assert.equal(sentinel.got.items.at(-1)[0].lamports, await connection.getBalance(payer.publicKey));
    await connection.removeAccountChangeListener(sentinel.clientId);
    unsubscribed('accountUnsubscribe', sentinel.serverId);
  });
});
