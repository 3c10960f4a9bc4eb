// The everyday developer flow through @solana/kit (with its companions @solana-program/system and
// @solana-program/compute-budget): airdrop, v0 and legacy transfers, history, simulation, a failed preflight and a
// priority fee. Kit reads every u64 as a bigint. Run: RPC_URL=http://127.0.0.1:8899 node kit.mjs

import {
  SOLANA_ERROR__INSTRUCTION_ERROR__CUSTOM,
  SOLANA_ERROR__JSON_RPC__SERVER_ERROR_SEND_TRANSACTION_PREFLIGHT_FAILURE,
  appendTransactionMessageInstructions,
  createSolanaRpc,
  createTransactionMessage,
  generateKeyPairSigner,
  getBase64Decoder,
  getBase64EncodedWireTransaction,
  getSignatureFromTransaction,
  isSolanaError,
  lamports,
  pipe,
  setTransactionMessageFeePayerSigner,
  setTransactionMessageLifetimeUsingBlockhash,
  signTransactionMessageWithSigners,
} from '@solana/kit';
import { getSetComputeUnitLimitInstruction, getSetComputeUnitPriceInstruction } from '@solana-program/compute-budget';
import { getTransferSolInstruction } from '@solana-program/system';

import {
  BUILTIN_UNITS,
  COMPUTE_BUDGET_PROGRAM,
  LAMPORTS_PER_SIGNATURE,
  LAMPORTS_PER_SOL,
  RENT_EPOCH_EXEMPT,
  RENT_EXEMPT_MINIMUM_EMPTY,
  RPC_URL,
  SYSTEM_PROGRAM,
  TRANSFER_LOGS,
  assert,
  assertBase58,
  assertWhole,
  expectedFee,
  invokeLog,
  runScenario,
  show,
  step,
  successLog,
  waitForSignature,
} from './lib.mjs';

const rpc = createSolanaRpc(RPC_URL);
const statuses = async (signatures) => (await rpc.getSignatureStatuses(signatures).send()).value;
const confirm = (signature) => waitForSignature(statuses, signature, 'confirmed');
const balance = async (address) => (await rpc.getBalance(address).send()).value;

const AIRDROP = BigInt(2 * LAMPORTS_PER_SOL);
const FEE = BigInt(LAMPORTS_PER_SIGNATURE);

// A signed transaction over the latest blockhash, in the kit style.
async function buildSigned({ payer, instructions, version }) {
  const { value: latestBlockhash } = await rpc.getLatestBlockhash().send();
  const message = pipe(
    createTransactionMessage({ version }),
    (m) => setTransactionMessageFeePayerSigner(payer, m),
    (m) => setTransactionMessageLifetimeUsingBlockhash(latestBlockhash, m),
    (m) => appendTransactionMessageInstructions(instructions, m),
  );
  const tx = await signTransactionMessageWithSigners(message);
  return {
    tx,
    signature: getSignatureFromTransaction(tx),
    wire: getBase64EncodedWireTransaction(tx),
    messageBase64: getBase64Decoder().decode(tx.messageBytes),
    blockhash: latestBlockhash.blockhash,
  };
}

await runScenario('kit', async () => {
  await step('getVersion has solana-core', async () => {
    const version = await rpc.getVersion().send();
    assert.match(version['solana-core'], /^\d+\.\d+\.\d+/);
    // Kit keeps feature-set a plain number (its one numeric exception here), so it must fit in a u32.
    assertWhole(version['feature-set'], 'feature-set');
    assert.equal(typeof version['feature-set'], 'number');
    assert.ok(version['feature-set'] < 2 ** 32, 'feature-set fits in a u32');
  });

  await step('getSlot, getBlockHeight, getEpochInfo, getLatestBlockhash are bigints', async () => {
    const height = await rpc.getBlockHeight().send();
    const slot = await rpc.getSlot().send();
    assert.equal(typeof height, 'bigint');
    assert.equal(typeof slot, 'bigint');
    assert.ok(height <= slot, `block height ${height} <= slot ${slot}`);
    const epoch = await rpc.getEpochInfo().send();
    for (const key of ['epoch', 'slotIndex', 'slotsInEpoch', 'absoluteSlot', 'blockHeight']) {
      assert.equal(typeof epoch[key], 'bigint', `${key} is a bigint`);
    }
    assert.ok(epoch.slotIndex < epoch.slotsInEpoch);
    const { value: latest } = await rpc.getLatestBlockhash().send();
    assertBase58(latest.blockhash, 'blockhash');
    assert.ok(latest.lastValidBlockHeight > height, `lastValidBlockHeight ${latest.lastValidBlockHeight} > ${height}`);
    assert.equal(await rpc.getMinimumBalanceForRentExemption(0n).send(), BigInt(RENT_EXEMPT_MINIMUM_EMPTY));
  });

  const payer = await generateKeyPairSigner();
  const recipient = await generateKeyPairSigner();
  let payerBalance = 0n;

  await step('requestAirdrop, confirmed by polling getSignatureStatuses; getBalance is a bigint', async () => {
    const signature = await rpc.requestAirdrop(payer.address, lamports(AIRDROP)).send();
    assertBase58(signature, 'airdrop signature', { minLength: 64, maxLength: 88 });
    await confirm(signature);
    payerBalance = AIRDROP;
    assert.equal(await balance(payer.address), payerBalance);
  });

  await step('getAccountInfo with base64 encoding; rentEpoch is u64::MAX exactly', async () => {
    const { context, value } = await rpc.getAccountInfo(payer.address, { encoding: 'base64' }).send();
    assert.equal(typeof context.slot, 'bigint');
    assert.ok(value, 'the wallet exists');
    assert.deepEqual(value.data, ['', 'base64']);
    assert.equal(value.executable, false);
    assert.equal(value.lamports, payerBalance);
    assert.equal(value.owner, SYSTEM_PROGRAM);
    assert.equal(value.rentEpoch, RENT_EPOCH_EXEMPT);
    const missing = await rpc.getAccountInfo(recipient.address, { encoding: 'base64' }).send();
    assert.equal(missing.value, null);
  });

  const amount = BigInt(LAMPORTS_PER_SOL / 10);
  let transfer; // {signature, slot, blockhash}

  await step('v0 transfer: sign, sendTransaction base64, confirm by polling', async () => {
    const built = await buildSigned({
      payer,
      version: 0,
      instructions: [getTransferSolInstruction({ source: payer, destination: recipient.address, amount })],
    });
    const signature = await rpc.sendTransaction(built.wire, { encoding: 'base64' }).send();
    assert.equal(signature, built.signature);
    const status = await confirm(signature);
    transfer = { signature, slot: status.slot, blockhash: built.blockhash };
    payerBalance -= amount + FEE;
    assert.equal(await balance(payer.address), payerBalance);
    assert.equal(await balance(recipient.address), amount);
  });

  await step('getTransaction json: version 0, fee, balances, logs, units', async () => {
    const tx = await rpc
      .getTransaction(transfer.signature, { encoding: 'json', maxSupportedTransactionVersion: 0 })
      .send();
    assert.ok(tx, 'the transaction is found');
    assert.equal(tx.slot, transfer.slot);
    assert.equal(tx.version, 0);
    const { message } = tx.transaction;
    assert.deepEqual(message.accountKeys, [payer.address, recipient.address, SYSTEM_PROGRAM]);
    assert.equal(message.recentBlockhash, transfer.blockhash);
    assert.deepEqual(message.addressTableLookups, []);
    assert.deepEqual(message.header, { numRequiredSignatures: 1, numReadonlySignedAccounts: 0, numReadonlyUnsignedAccounts: 1 });
    const { meta } = tx;
    assert.equal(meta.err, null);
    assert.deepEqual(meta.status, { Ok: null });
    assert.equal(meta.fee, FEE);
    assert.deepEqual(meta.preBalances.slice(0, 2), [AIRDROP, 0n]);
    assert.deepEqual(meta.postBalances.slice(0, 2), [AIRDROP - amount - FEE, amount]);
    assert.deepEqual(meta.logMessages, TRANSFER_LOGS);
    assert.equal(meta.computeUnitsConsumed, BigInt(BUILTIN_UNITS));
    assert.deepEqual(meta.loadedAddresses, { writable: [], readonly: [] });
  });

  await step('getTransaction jsonParsed: a parsed system transfer', async () => {
    const tx = await rpc
      .getTransaction(transfer.signature, { encoding: 'jsonParsed', maxSupportedTransactionVersion: 0 })
      .send();
    const { message } = tx.transaction;
    assert.deepEqual(message.accountKeys[0], { pubkey: payer.address, signer: true, writable: true, source: 'transaction' });
    const [ix] = message.instructions;
    assert.equal(ix.program, 'system');
    assert.equal(ix.programId, SYSTEM_PROGRAM);
    assert.equal(ix.parsed.type, 'transfer');
    assert.equal(ix.parsed.info.source, payer.address);
    assert.equal(ix.parsed.info.destination, recipient.address);
    assert.equal(BigInt(ix.parsed.info.lamports), amount);
    assert.equal(tx.meta.fee, FEE);
    assert.equal('loadedAddresses' in tx.meta, false, 'jsonParsed leaves out meta.loadedAddresses');
  });

  await step('getBlock lists the transfer (full and signatures-only)', async () => {
    const block = await rpc
      .getBlock(transfer.slot, { maxSupportedTransactionVersion: 0, transactionDetails: 'full', encoding: 'json' })
      .send();
    assert.ok(block, `block ${transfer.slot} is found`);
    assert.equal(typeof block.blockHeight, 'bigint');
    assert.ok(block.parentSlot < transfer.slot);
    const entry = block.transactions.find((t) => t.transaction.signatures[0] === transfer.signature);
    assert.ok(entry, 'the full block lists the transfer');
    assert.equal(entry.version, 0);
    assert.equal(entry.meta.fee, FEE);
    const sigs = await rpc
      .getBlock(transfer.slot, { maxSupportedTransactionVersion: 0, transactionDetails: 'signatures', rewards: false })
      .send();
    assert.ok(sigs.signatures.includes(transfer.signature));
    assert.equal('rewards' in sigs, false, 'rewards:false leaves rewards out');
  });

  await step('getSignaturesForAddress of the recipient is exactly the transfer', async () => {
    const list = await rpc.getSignaturesForAddress(recipient.address, { limit: 10 }).send();
    assert.equal(list.length, 1, show(list));
    const [item] = list;
    assert.equal(item.signature, transfer.signature);
    assert.equal(item.slot, transfer.slot);
    assert.equal(item.err, null);
    assert.equal(item.memo, null);
    assert.ok(['confirmed', 'finalized'].includes(item.confirmationStatus), item.confirmationStatus);
  });

  await step('simulateTransaction: signed (sigVerify) and with replaceRecentBlockhash', async () => {
    const built = await buildSigned({
      payer,
      version: 0,
      instructions: [getTransferSolInstruction({ source: payer, destination: recipient.address, amount: 777n })],
    });
    const verified = await rpc.simulateTransaction(built.wire, { encoding: 'base64', sigVerify: true }).send();
    assert.equal(verified.value.err, null);
    assert.deepEqual(verified.value.logs, TRANSFER_LOGS);
    assert.equal(verified.value.unitsConsumed, BigInt(BUILTIN_UNITS));
    assert.equal(verified.value.replacementBlockhash, null);

    const replaced = await rpc
      .simulateTransaction(built.wire, { encoding: 'base64', replaceRecentBlockhash: true })
      .send();
    assert.equal(replaced.value.err, null);
    assertBase58(replaced.value.replacementBlockhash?.blockhash, 'replacementBlockhash.blockhash');
    assert.equal(typeof replaced.value.replacementBlockhash.lastValidBlockHeight, 'bigint');
    assert.equal(await balance(payer.address), payerBalance, 'simulation changes nothing');
  });

  await step('sendTransaction of an overdraft: preflight failure with logs, caused by custom error 1', async () => {
    const tooMuch = payerBalance + 1n;
    const stranger = await generateKeyPairSigner();
    const built = await buildSigned({
      payer,
      version: 0,
      instructions: [getTransferSolInstruction({ source: payer, destination: stranger.address, amount: tooMuch })],
    });
    let caught;
    try {
      await rpc.sendTransaction(built.wire, { encoding: 'base64' }).send();
    } catch (err) {
      caught = err;
    }
    assert.ok(
      isSolanaError(caught, SOLANA_ERROR__JSON_RPC__SERVER_ERROR_SEND_TRANSACTION_PREFLIGHT_FAILURE),
      `a preflight failure, got ${caught}`,
    );
    assert.deepEqual(caught.context.logs, [
      invokeLog(SYSTEM_PROGRAM),
      `Transfer: insufficient lamports ${payerBalance - FEE}, need ${tooMuch}`,
      `Program ${SYSTEM_PROGRAM} failed: custom program error: 0x1`,
    ]);
    assert.ok(isSolanaError(caught.cause, SOLANA_ERROR__INSTRUCTION_ERROR__CUSTOM), `cause ${caught.cause}`);
    assert.equal(caught.cause.context.code, 1);
    assert.equal(caught.cause.context.index, 0);
    assert.equal(await balance(payer.address), payerBalance, 'a failed preflight charges nothing');
  });

  await step('priority fee: legacy transfer at 1500 micro-lamports × 1000 units pays 5000 + ceil(1.5) = 5002', async () => {
    const microLamports = 1500n;
    const units = 1000;
    const fee = expectedFee({ signatures: 1, microLamports, unitLimit: units });
    assert.equal(fee, 5002n);
    const built = await buildSigned({
      payer,
      version: 'legacy',
      instructions: [
        getSetComputeUnitLimitInstruction({ units }),
        getSetComputeUnitPriceInstruction({ microLamports }),
        getTransferSolInstruction({ source: payer, destination: recipient.address, amount }),
      ],
    });
    const quoted = await rpc.getFeeForMessage(built.messageBase64).send();
    assert.equal(quoted.value, fee, 'getFeeForMessage counts the priority fee');
    const signature = await rpc.sendTransaction(built.wire, { encoding: 'base64' }).send();
    await confirm(signature);

    const tx = await rpc.getTransaction(signature, { encoding: 'json', maxSupportedTransactionVersion: 0 }).send();
    assert.equal(tx.version, 'legacy');
    assert.equal(tx.meta.fee, fee);
    assert.ok(tx.meta.computeUnitsConsumed <= BigInt(units), `consumed ${tx.meta.computeUnitsConsumed} <= ${units}`);
    for (const line of [invokeLog(COMPUTE_BUDGET_PROGRAM), successLog(COMPUTE_BUDGET_PROGRAM), ...TRANSFER_LOGS]) {
      assert.ok(tx.meta.logMessages.includes(line), `logs have ${line}: ${show(tx.meta.logMessages)}`);
    }
    payerBalance -= amount + fee;
    assert.equal(await balance(payer.address), payerBalance);
    assert.equal(await balance(recipient.address), 2n * amount);
  });
});
