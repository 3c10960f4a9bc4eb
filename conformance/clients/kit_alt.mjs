// A version 0 transaction through an address lookup table with @solana/kit: the table created and extended with
// instructions built from the program's layout (a program client for kit 8 is not published yet), read back with
// getAccountInfo jsonParsed, then a transfer message compressed with compressTransactionMessageUsingAddressLookupTables
// and getTransaction showing the lookups and meta.loadedAddresses. Run: RPC_URL=http://127.0.0.1:8899 node kit_alt.mjs

import {
  AccountRole,
  SOLANA_ERROR__JSON_RPC__SERVER_ERROR_UNSUPPORTED_TRANSACTION_VERSION,
  address,
  appendTransactionMessageInstructions,
  compressTransactionMessageUsingAddressLookupTables,
  createSolanaRpc,
  createTransactionMessage,
  generateKeyPairSigner,
  getAddressEncoder,
  getBase64EncodedWireTransaction,
  getProgramDerivedAddress,
  getSignatureFromTransaction,
  getU32Encoder,
  getU64Encoder,
  isSolanaError,
  lamports,
  pipe,
  setTransactionMessageFeePayerSigner,
  setTransactionMessageLifetimeUsingBlockhash,
  signTransactionMessageWithSigners,
} from '@solana/kit';
import { getTransferSolInstruction } from '@solana-program/system';

import { LAMPORTS_PER_SIGNATURE, LAMPORTS_PER_SOL, RPC_URL, SYSTEM_PROGRAM, assert, poll, runScenario, show, step, waitForSignature } from './lib.mjs';

const rpc = createSolanaRpc(RPC_URL);
const statuses = async (signatures) => (await rpc.getSignatureStatuses(signatures).send()).value;
const confirm = (signature) => waitForSignature(statuses, signature, 'confirmed');

const ALT_PROGRAM = address('AddressLookupTab1e1111111111111111111111111');
const addressEncoder = getAddressEncoder();
const u32 = getU32Encoder();
const u64 = getU64Encoder();
const concat = (...parts) => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let i = 0;
  for (const p of parts) {
    out.set(p, i);
    i += p.length;
  }
  return out;
};

// CreateLookupTable (instruction 0): the table derived from [authority, recent slot], funded by the payer.
async function createLookupTableInstruction({ authority, payer, recentSlot }) {
  const [table, bump] = await getProgramDerivedAddress({
    programAddress: ALT_PROGRAM,
    seeds: [addressEncoder.encode(authority.address), u64.encode(recentSlot)],
  });
  const instruction = {
    programAddress: ALT_PROGRAM,
    accounts: [
      { address: table, role: AccountRole.WRITABLE },
      { address: authority.address, role: AccountRole.READONLY_SIGNER, signer: authority },
      { address: payer.address, role: AccountRole.WRITABLE_SIGNER, signer: payer },
      { address: SYSTEM_PROGRAM, role: AccountRole.READONLY },
    ],
    data: concat(u32.encode(0), u64.encode(recentSlot), new Uint8Array([bump])),
  };
  return { instruction, table };
}

// ExtendLookupTable (instruction 2): appends addresses; the payer tops up the rent.
function extendLookupTableInstruction({ table, authority, payer, addresses }) {
  return {
    programAddress: ALT_PROGRAM,
    accounts: [
      { address: table, role: AccountRole.WRITABLE },
      { address: authority.address, role: AccountRole.READONLY_SIGNER, signer: authority },
      { address: payer.address, role: AccountRole.WRITABLE_SIGNER, signer: payer },
      { address: SYSTEM_PROGRAM, role: AccountRole.READONLY },
    ],
    data: concat(u32.encode(2), u64.encode(addresses.length), ...addresses.map((a) => addressEncoder.encode(a))),
  };
}

async function send(payer, instructions, { version = 0, tables } = {}) {
  const { value: latestBlockhash } = await rpc.getLatestBlockhash().send();
  let message = pipe(
    createTransactionMessage({ version }),
    (m) => setTransactionMessageFeePayerSigner(payer, m),
    (m) => setTransactionMessageLifetimeUsingBlockhash(latestBlockhash, m),
    (m) => appendTransactionMessageInstructions(instructions, m),
  );
  if (tables) message = compressTransactionMessageUsingAddressLookupTables(message, tables);
  const tx = await signTransactionMessageWithSigners(message);
  const signature = await rpc.sendTransaction(getBase64EncodedWireTransaction(tx), { encoding: 'base64' }).send();
  assert.equal(signature, getSignatureFromTransaction(tx));
  const status = await confirm(signature);
  return { signature, slot: status.slot, message };
}

await runScenario('kit_alt', async () => {
  const payer = await generateKeyPairSigner();
  const recipients = [];
  for (let i = 0; i < 3; i++) recipients.push((await generateKeyPairSigner()).address);

  await step('fund the payer', async () => {
    await confirm(await rpc.requestAirdrop(payer.address, lamports(BigInt(2 * LAMPORTS_PER_SOL))).send());
  });

  let table;
  let extendedSlot;
  await step('create and extend a lookup table', async () => {
    const recentSlot = await rpc.getSlot({ commitment: 'finalized' }).send();
    const created = await createLookupTableInstruction({ authority: payer, payer, recentSlot });
    table = created.table;
    const extend = extendLookupTableInstruction({ table, authority: payer, payer, addresses: recipients });
    const { slot } = await send(payer, [created.instruction, extend]);
    extendedSlot = slot;
  });

  await step('getAccountInfo jsonParsed: the table', async () => {
    const { value } = await rpc.getAccountInfo(table, { encoding: 'jsonParsed' }).send();
    assert.equal(value.owner, ALT_PROGRAM);
    assert.equal(value.data.program, 'address-lookup-table');
    assert.equal(value.data.parsed.type, 'lookupTable');
    const { info } = value.data.parsed;
    assert.deepEqual(info.addresses, recipients);
    assert.equal(info.authority, payer.address);
    assert.equal(info.deactivationSlot, '18446744073709551615');
    assert.equal(BigInt(info.lastExtendedSlot), extendedSlot);
    assert.equal(info.lastExtendedSlotStartIndex, 0);
  });

  await step('wait for the slot after the extension', async () => {
    await poll('a slot after the extension', async () => ((await rpc.getSlot().send()) > extendedSlot ? true : undefined));
  });

  let v0;
  let loadedOrder; // the table indexes of the loaded writable accounts, in the message's order
  const amounts = [1_000_000n, 3_000_000n];
  await step('a v0 transfer compressed with the table', async () => {
    const instructions = amounts.map((amount, i) => getTransferSolInstruction({ source: payer, destination: recipients[i], amount }));
    v0 = await send(payer, instructions, { tables: { [table]: recipients } });
    assert.equal(v0.message.version, 0);
    for (const [i, amount] of amounts.entries()) {
      assert.equal((await rpc.getBalance(recipients[i]).send()).value, amount);
    }
  });

  await step('getTransaction json: the lookup and meta.loadedAddresses', async () => {
    const tx = await rpc.getTransaction(v0.signature, { encoding: 'json', maxSupportedTransactionVersion: 0 }).send();
    assert.ok(tx, 'the transaction is found');
    assert.equal(tx.version, 0);
    assert.equal(tx.slot, v0.slot);
    const { message } = tx.transaction;
    assert.deepEqual(message.accountKeys, [payer.address, SYSTEM_PROGRAM]);
    // Kit chooses the order of the indexes; the loaded addresses follow it.
    assert.equal(message.addressTableLookups.length, 1);
    const [lookup] = message.addressTableLookups;
    assert.equal(lookup.accountKey, table);
    assert.deepEqual([...lookup.writableIndexes].sort(), [0, 1]);
    assert.deepEqual(lookup.readonlyIndexes, []);
    loadedOrder = lookup.writableIndexes;
    assert.equal(tx.meta.err, null);
    assert.equal(tx.meta.fee, BigInt(LAMPORTS_PER_SIGNATURE));
    assert.deepEqual(tx.meta.loadedAddresses, { writable: loadedOrder.map((i) => recipients[i]), readonly: [] });
    // Loaded accounts come after the static ones, in the balances and in the instructions' indexes.
    const position = (i) => 2 + loadedOrder.indexOf(i);
    for (const [i, amount] of amounts.entries()) assert.equal(tx.meta.postBalances[position(i)], amount);
    assert.deepEqual(message.instructions.map((ix) => ix.accounts), [[0, position(0)], [0, position(1)]]);
  });

  await step('getTransaction jsonParsed: loaded accounts have source lookupTable', async () => {
    const tx = await rpc.getTransaction(v0.signature, { encoding: 'jsonParsed', maxSupportedTransactionVersion: 0 }).send();
    const keys = tx.transaction.message.accountKeys;
    assert.deepEqual(keys.map((k) => [k.pubkey, k.source, k.writable]), [
      [payer.address, 'transaction', true],
      [SYSTEM_PROGRAM, 'transaction', false],
      ...loadedOrder.map((i) => [recipients[i], 'lookupTable', true]),
    ]);
    assert.equal(tx.transaction.message.instructions[1].parsed.info.destination, recipients[1]);
  });

  await step('getTransaction without maxSupportedTransactionVersion: -32015', async () => {
    await assert.rejects(rpc.getTransaction(v0.signature, { encoding: 'json' }).send(), (err) => {
      assert.ok(isSolanaError(err, SOLANA_ERROR__JSON_RPC__SERVER_ERROR_UNSUPPORTED_TRANSACTION_VERSION), show(err));
      return true;
    });
  });
});
