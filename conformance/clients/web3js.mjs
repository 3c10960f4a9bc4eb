// The everyday developer flow through @solana/web3.js v1: airdrop, transfers (legacy and v0), history, simulation,
// a failed preflight, a durable nonce and a priority fee. Run: RPC_URL=http://127.0.0.1:8899 node web3js.mjs

import {
  ComputeBudgetProgram,
  Connection,
  Keypair,
  NONCE_ACCOUNT_LENGTH,
  NonceAccount,
  PublicKey,
  SendTransactionError,
  SystemProgram,
  Transaction,
  TransactionMessage,
  VersionedTransaction,
} from '@solana/web3.js';

import {
  COMPUTE_BUDGET_PROGRAM,
  LAMPORTS_PER_SIGNATURE,
  LAMPORTS_PER_SOL,
  RENT_EXEMPT_MINIMUM_EMPTY,
  RENT_EXEMPT_MINIMUM_NONCE,
  RPC_URL,
  SYSTEM_PROGRAM,
  TRANSFER_LOGS,
  BUILTIN_UNITS,
  WS_URL,
  assert,
  assertBase58,
  assertWhole,
  base58,
  expectedFee,
  invokeLog,
  runScenario,
  show,
  step,
  successLog,
  waitForSignature,
} from './lib.mjs';

const connection = new Connection(RPC_URL, { commitment: 'confirmed', wsEndpoint: WS_URL });
const statuses = async (signatures) => (await connection.getSignatureStatuses(signatures)).value;
const confirm = (signature) => waitForSignature(statuses, signature, 'confirmed');

const AIRDROP = 2 * LAMPORTS_PER_SOL;
const FEE = LAMPORTS_PER_SIGNATURE;

// A signed transaction with the given blockhash, sent exactly as built (web3.js fetches its own blockhash for a
// legacy Transaction passed with signers; a VersionedTransaction is sent as it is).
async function buildVersioned({ payer, instructions, version = 'legacy', signers = [payer] }) {
  const { blockhash, lastValidBlockHeight } = await connection.getLatestBlockhash();
  const message = new TransactionMessage({ payerKey: payer.publicKey, recentBlockhash: blockhash, instructions });
  const tx = new VersionedTransaction(version === 0 ? message.compileToV0Message() : message.compileToLegacyMessage());
  tx.sign(signers);
  return { tx, blockhash, lastValidBlockHeight };
}

await runScenario('web3js', async () => {
  await step('getVersion has solana-core', async () => {
    const version = await connection.getVersion();
    assert.match(version['solana-core'], /^\d+\.\d+\.\d+/);
    assertWhole(version['feature-set'], 'feature-set');
    assert.ok(version['feature-set'] < 2 ** 32, 'feature-set fits in a u32');
  });

  await step('getBlockHeight, getSlot, getEpochInfo and getLatestBlockhash shapes', async () => {
    const height = await connection.getBlockHeight();
    const slot = await connection.getSlot();
    assertWhole(height, 'block height');
    assertWhole(slot, 'slot');
    assert.ok(height <= slot, `block height ${height} <= slot ${slot}`);

    const epoch = await connection.getEpochInfo();
    for (const key of ['epoch', 'slotIndex', 'slotsInEpoch', 'absoluteSlot', 'blockHeight']) assertWhole(epoch[key], key);
    assert.ok(epoch.slotIndex < epoch.slotsInEpoch, `slotIndex ${epoch.slotIndex} < slotsInEpoch ${epoch.slotsInEpoch}`);
    assert.ok(epoch.absoluteSlot >= slot, `absoluteSlot ${epoch.absoluteSlot} >= earlier slot ${slot}`);
    assert.ok(epoch.blockHeight >= height, `blockHeight ${epoch.blockHeight} >= earlier block height ${height}`);
    if (epoch.transactionCount !== undefined && epoch.transactionCount !== null) assertWhole(epoch.transactionCount, 'transactionCount');

    const latest = await connection.getLatestBlockhash();
    assertBase58(latest.blockhash, 'blockhash');
    assert.equal(new PublicKey(latest.blockhash).toBytes().length, 32);
    assertWhole(latest.lastValidBlockHeight, 'lastValidBlockHeight');
    assert.ok(latest.lastValidBlockHeight > height, `lastValidBlockHeight ${latest.lastValidBlockHeight} > block height ${height}`);
  });

  await step('getMinimumBalanceForRentExemption(0) is 890880', async () => {
    assert.equal(await connection.getMinimumBalanceForRentExemption(0), RENT_EXEMPT_MINIMUM_EMPTY);
  });

  const payer = Keypair.generate();
  let payerBalance = 0;

  await step('requestAirdrop confirms and getBalance equals it', async () => {
    const signature = await connection.requestAirdrop(payer.publicKey, AIRDROP);
    assertBase58(signature, 'airdrop signature', { minLength: 64, maxLength: 88 });
    await confirm(signature);
    payerBalance = AIRDROP;
    assert.equal(await connection.getBalance(payer.publicKey), payerBalance);
  });

  await step('getAccountInfo of a wallet', async () => {
    const info = await connection.getAccountInfo(payer.publicKey);
    assert.ok(info, 'the wallet exists');
    assert.equal(info.lamports, payerBalance);
    assert.ok(info.owner.equals(SystemProgram.programId), `owner ${info.owner}`);
    assert.equal(info.executable, false);
    assert.ok(Buffer.isBuffer(info.data), 'data is a Buffer');
    assert.equal(info.data.length, 0);
    // u64::MAX, which a JS number can only hold as 2^64.
    assert.equal(info.rentEpoch, 2 ** 64);
  });

  await step('getMultipleAccountsInfo: a wallet and a missing account', async () => {
    const missing = Keypair.generate().publicKey;
    const infos = await connection.getMultipleAccountsInfo([payer.publicKey, missing]);
    assert.equal(infos.length, 2);
    assert.equal(infos[0]?.lamports, payerBalance);
    assert.equal(infos[1], null);
  });

  const recipient = Keypair.generate();
  const amount = LAMPORTS_PER_SOL / 10;
  let transfer; // {signature, slot, blockhash}

  await step('transfer: sendTransaction with a blockhash from getLatestBlockhash, confirmed by polling', async () => {
    const ix = SystemProgram.transfer({ fromPubkey: payer.publicKey, toPubkey: recipient.publicKey, lamports: amount });
    const { tx, blockhash } = await buildVersioned({ payer, instructions: [ix] });
    const signature = await connection.sendTransaction(tx);
    assert.equal(signature, base58(tx.signatures[0]), 'sendTransaction returns the first signature');
    const status = await confirm(signature);
    transfer = { signature, slot: status.slot, blockhash };
  });

  await step('balances after the transfer: the payer paid the amount and a 5000 fee', async () => {
    payerBalance -= amount + FEE;
    assert.equal(await connection.getBalance(payer.publicKey), payerBalance);
    assert.equal(await connection.getBalance(recipient.publicKey), amount);
  });

  await step('getTransaction: fee, balances, logs, compute units', async () => {
    const tx = await connection.getTransaction(transfer.signature, { maxSupportedTransactionVersion: 0 });
    assert.ok(tx, 'the transaction is found');
    assert.equal(tx.slot, transfer.slot);
    assert.equal(tx.version, 'legacy');
    assert.ok(tx.blockTime === null || Number.isInteger(tx.blockTime), `blockTime ${tx.blockTime}`);
    assert.equal(tx.transaction.signatures[0], transfer.signature);
    assert.equal(tx.transaction.message.recentBlockhash, transfer.blockhash);
    const keys = tx.transaction.message.staticAccountKeys.map(String);
    assert.deepEqual(keys, [payer.publicKey.toBase58(), recipient.publicKey.toBase58(), SYSTEM_PROGRAM]);
    const { meta } = tx;
    assert.equal(meta.err, null);
    assert.equal(meta.fee, FEE);
    assert.deepEqual(meta.preBalances.slice(0, 2), [AIRDROP, 0]);
    assert.deepEqual(meta.postBalances.slice(0, 2), [AIRDROP - amount - FEE, amount]);
    assert.ok(meta.logMessages.includes(invokeLog(SYSTEM_PROGRAM)), `logs ${show(meta.logMessages)}`);
    assert.deepEqual(meta.logMessages, TRANSFER_LOGS);
    assert.equal(meta.computeUnitsConsumed, BUILTIN_UNITS);
    assert.deepEqual(meta.innerInstructions, []);
  });

  await step('getParsedTransaction: a parsed system transfer', async () => {
    const tx = await connection.getParsedTransaction(transfer.signature, { maxSupportedTransactionVersion: 0 });
    assert.ok(tx, 'the transaction is found');
    assert.equal(tx.meta.fee, FEE);
    const [feePayer] = tx.transaction.message.accountKeys;
    assert.ok(feePayer.pubkey.equals(payer.publicKey));
    assert.equal(feePayer.signer, true);
    assert.equal(feePayer.writable, true);
    const [ix] = tx.transaction.message.instructions;
    assert.equal(ix.program, 'system');
    assert.ok(ix.programId.equals(SystemProgram.programId));
    assert.equal(ix.parsed.type, 'transfer');
    assert.deepEqual(ix.parsed.info, {
      source: payer.publicKey.toBase58(),
      destination: recipient.publicKey.toBase58(),
      lamports: amount,
    });
  });

  await step('getBlock (full, accounts, none) and getParsedBlock contain the transfer', async () => {
    const block = await connection.getBlock(transfer.slot, { maxSupportedTransactionVersion: 0 });
    assert.ok(block, `block ${transfer.slot} is found`);
    assertBase58(block.blockhash, 'blockhash');
    assertBase58(block.previousBlockhash, 'previousBlockhash');
    assert.ok(block.parentSlot < transfer.slot, `parentSlot ${block.parentSlot} < slot ${transfer.slot}`);
    assertWhole(block.blockHeight, 'blockHeight');
    const entry = block.transactions.find((t) => t.transaction.signatures[0] === transfer.signature);
    assert.ok(entry, 'getBlock lists the transfer');
    assert.equal(entry.meta.fee, FEE);
    assert.equal(entry.version, 'legacy');

    const parsed = await connection.getParsedBlock(transfer.slot, { maxSupportedTransactionVersion: 0 });
    const parsedEntry = parsed.transactions.find((t) => t.transaction.signatures[0] === transfer.signature);
    assert.ok(parsedEntry, 'getParsedBlock lists the transfer');
    assert.equal(parsedEntry.transaction.message.instructions[0].parsed.type, 'transfer');
    assert.equal(parsed.blockhash, block.blockhash);

    // web3.js v1 reads the 'accounts' and 'none' details (not 'signatures').
    const accounts = await connection.getBlock(transfer.slot, {
      maxSupportedTransactionVersion: 0,
      transactionDetails: 'accounts',
      rewards: false,
    });
    const accountsEntry = accounts.transactions.find((t) => t.transaction.signatures[0] === transfer.signature);
    assert.ok(accountsEntry, 'an accounts-only getBlock lists the transfer');
    assert.deepEqual(
      accountsEntry.transaction.accountKeys.map((k) => [k.pubkey.toBase58(), k.signer, k.writable, k.source]),
      [
        [payer.publicKey.toBase58(), true, true, 'transaction'],
        [recipient.publicKey.toBase58(), false, true, 'transaction'],
        [SYSTEM_PROGRAM, false, false, 'transaction'],
      ],
    );
    assert.equal(accountsEntry.meta.fee, FEE);
    const none = await connection.getBlock(transfer.slot, { maxSupportedTransactionVersion: 0, transactionDetails: 'none' });
    assert.equal(none.blockhash, block.blockhash);
    assert.equal(none.transactions, undefined);
  });

  await step('getSignaturesForAddress lists the transfer with its confirmationStatus', async () => {
    for (const who of [payer.publicKey, recipient.publicKey]) {
      const list = await connection.getSignaturesForAddress(who, { limit: 10 });
      const item = list.find((s) => s.signature === transfer.signature);
      assert.ok(item, `listed for ${who}: ${show(list)}`);
      assert.equal(item.slot, transfer.slot);
      assert.equal(item.err, null);
      assert.equal(item.memo, null);
      assert.ok(['confirmed', 'finalized'].includes(item.confirmationStatus), `confirmationStatus ${item.confirmationStatus}`);
    }
    // The recipient took part in nothing else; the payer's list is newest first, so the transfer precedes the airdrop.
    assert.equal((await connection.getSignaturesForAddress(recipient.publicKey)).length, 1);
    const payerList = await connection.getSignaturesForAddress(payer.publicKey);
    assert.equal(payerList.length, 2);
    assert.equal(payerList[0].signature, transfer.signature);
  });

  await step('simulateTransaction of a transfer: err null, logs, 150 units, nothing changes', async () => {
    const ix = SystemProgram.transfer({ fromPubkey: payer.publicKey, toPubkey: recipient.publicKey, lamports: 12345 });
    const { tx } = await buildVersioned({ payer, instructions: [ix] });
    const { context, value } = await connection.simulateTransaction(tx, { sigVerify: true });
    assertWhole(context.slot, 'context.slot');
    assert.equal(value.err, null);
    assert.deepEqual(value.logs, TRANSFER_LOGS);
    assert.equal(value.unitsConsumed, BUILTIN_UNITS);
    assert.equal(await connection.getBalance(payer.publicKey), payerBalance);
  });

  await step('getFeeForMessage of a one-signature message is 5000', async () => {
    const { blockhash } = await connection.getLatestBlockhash();
    const message = new TransactionMessage({
      payerKey: payer.publicKey,
      recentBlockhash: blockhash,
      instructions: [SystemProgram.transfer({ fromPubkey: payer.publicKey, toPubkey: recipient.publicKey, lamports: 1 })],
    }).compileToLegacyMessage();
    assert.equal((await connection.getFeeForMessage(message)).value, FEE);
  });

  await step('sendTransaction of an overdraft throws SendTransactionError with the preflight logs', async () => {
    const tooMuch = payerBalance + 1;
    const tx = new Transaction().add(
      SystemProgram.transfer({ fromPubkey: payer.publicKey, toPubkey: Keypair.generate().publicKey, lamports: tooMuch }),
    );
    let caught;
    try {
      await connection.sendTransaction(tx, [payer]);
    } catch (err) {
      caught = err;
    }
    assert.ok(caught instanceof SendTransactionError, `a SendTransactionError, got ${caught}`);
    assert.ok(caught.message.includes('Transaction simulation failed'), caught.message);
    assert.equal(
      caught.transactionError.message,
      'Transaction simulation failed: Error processing Instruction 0: custom program error: 0x1',
    );
    const logs = caught.logs;
    assert.ok(Array.isArray(logs) && logs.length > 0, `logs from error.data.logs: ${show(logs)}`);
    assert.deepEqual(await caught.getLogs(connection), logs);
    // The fee is taken before the instruction runs, so the transfer sees the balance less the fee.
    assert.deepEqual(logs, [
      invokeLog(SYSTEM_PROGRAM),
      `Transfer: insufficient lamports ${payerBalance - FEE}, need ${tooMuch}`,
      `Program ${SYSTEM_PROGRAM} failed: custom program error: 0x1`,
    ]);
    assert.equal(await connection.getBalance(payer.publicKey), payerBalance, 'a failed preflight charges nothing');
  });

  const nonceAccount = Keypair.generate();
  let nonce; // the stored durable nonce

  await step('durable nonce: createAccount + nonceInitialize, read back with getNonce and NonceAccount', async () => {
    assert.equal(await connection.getMinimumBalanceForRentExemption(NONCE_ACCOUNT_LENGTH), RENT_EXEMPT_MINIMUM_NONCE);
    const tx = new Transaction().add(
      SystemProgram.createAccount({
        fromPubkey: payer.publicKey,
        newAccountPubkey: nonceAccount.publicKey,
        lamports: RENT_EXEMPT_MINIMUM_NONCE,
        space: NONCE_ACCOUNT_LENGTH,
        programId: SystemProgram.programId,
      }),
      SystemProgram.nonceInitialize({ noncePubkey: nonceAccount.publicKey, authorizedPubkey: payer.publicKey }),
    );
    // A legacy Transaction with signers: web3.js fetches the blockhash itself.
    const signature = await connection.sendTransaction(tx, [payer, nonceAccount]);
    await confirm(signature);
    const landed = await connection.getTransaction(signature, { maxSupportedTransactionVersion: 0 });
    assert.equal(landed.meta.fee, 2 * FEE, 'two signatures');
    payerBalance -= RENT_EXEMPT_MINIMUM_NONCE + 2 * FEE;
    assert.equal(await connection.getBalance(payer.publicKey), payerBalance);

    const info = await connection.getAccountInfo(nonceAccount.publicKey);
    assert.ok(info.owner.equals(SystemProgram.programId));
    assert.equal(info.data.length, NONCE_ACCOUNT_LENGTH);
    assert.equal(info.lamports, RENT_EXEMPT_MINIMUM_NONCE);
    const fromData = NonceAccount.fromAccountData(info.data);
    const fetched = await connection.getNonce(nonceAccount.publicKey);
    assert.ok(fetched.authorizedPubkey.equals(payer.publicKey));
    assert.equal(fetched.nonce, fromData.nonce);
    assert.equal(fetched.feeCalculator.lamportsPerSignature, FEE);
    assertBase58(fetched.nonce, 'nonce');
    nonce = fetched.nonce;
  });

  await step('durable nonce: a transfer with nonceAdvance first and the nonce as its blockhash; the nonce moves', async () => {
    const { context, value } = await connection.getNonceAndContext(nonceAccount.publicKey);
    assert.equal(value.nonce, nonce);
    const tx = new Transaction({
      feePayer: payer.publicKey,
      minContextSlot: context.slot,
      nonceInfo: {
        nonce,
        nonceInstruction: SystemProgram.nonceAdvance({
          noncePubkey: nonceAccount.publicKey,
          authorizedPubkey: payer.publicKey,
        }),
      },
    }).add(SystemProgram.transfer({ fromPubkey: payer.publicKey, toPubkey: recipient.publicKey, lamports: amount }));
    const message = tx.compileMessage();
    assert.equal(message.recentBlockhash, nonce);
    assert.equal(message.accountKeys[message.instructions[0].programIdIndex].toBase58(), SYSTEM_PROGRAM);
    assert.equal(message.instructions.length, 2);
    // With nonceInfo set, web3.js signs without replacing the blockhash.
    const signature = await connection.sendTransaction(tx, [payer]);
    await confirm(signature);

    const landed = await connection.getParsedTransaction(signature, { maxSupportedTransactionVersion: 0 });
    assert.equal(landed.transaction.message.recentBlockhash, nonce);
    assert.deepEqual(landed.transaction.message.instructions.map((ix) => ix.parsed.type), ['advanceNonce', 'transfer']);
    assert.equal(landed.meta.fee, FEE);
    payerBalance -= amount + FEE;
    assert.equal(await connection.getBalance(payer.publicKey), payerBalance);
    assert.equal(await connection.getBalance(recipient.publicKey), 2 * amount);

    const after = await connection.getNonce(nonceAccount.publicKey);
    assert.notEqual(after.nonce, nonce, 'the nonce advanced');
    assert.ok(after.authorizedPubkey.equals(payer.publicKey));
  });

  await step('priority fee: v0 transfer with a 1,000,000 micro-lamport price and a 1000 unit limit pays 6000', async () => {
    const microLamports = 1_000_000;
    const units = 1000;
    const fee = Number(expectedFee({ signatures: 1, microLamports, unitLimit: units }));
    assert.equal(fee, 6000); // 5000 + ceil(1,000,000 × 1000 / 1,000,000)
    const instructions = [
      ComputeBudgetProgram.setComputeUnitLimit({ units }),
      ComputeBudgetProgram.setComputeUnitPrice({ microLamports }),
      SystemProgram.transfer({ fromPubkey: payer.publicKey, toPubkey: recipient.publicKey, lamports: amount }),
    ];
    const { tx } = await buildVersioned({ payer, instructions, version: 0 });
    assert.equal((await connection.getFeeForMessage(tx.message)).value, fee, 'getFeeForMessage counts the priority fee');
    const signature = await connection.sendTransaction(tx);
    await confirm(signature);

    const landed = await connection.getTransaction(signature, { maxSupportedTransactionVersion: 0 });
    assert.equal(landed.version, 0);
    assert.equal(landed.meta.fee, fee);
    assert.ok(landed.meta.computeUnitsConsumed <= units, `consumed ${landed.meta.computeUnitsConsumed} <= ${units}`);
    for (const line of [invokeLog(COMPUTE_BUDGET_PROGRAM), successLog(COMPUTE_BUDGET_PROGRAM), ...TRANSFER_LOGS]) {
      assert.ok(landed.meta.logMessages.includes(line), `logs have ${line}: ${show(landed.meta.logMessages)}`);
    }
    payerBalance -= amount + fee;
    assert.equal(await connection.getBalance(payer.publicKey), payerBalance);
  });
});
