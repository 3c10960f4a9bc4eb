// A version 0 transaction through an address lookup table with @solana/web3.js v1: createLookupTable and
// extendLookupTable, getAddressLookupTable, a slot's wait (addresses serve from the slot after their extension), a v0
// transfer compiled against the table, and getTransaction showing meta.loadedAddresses (and refusing the
// transaction without maxSupportedTransactionVersion). Run: RPC_URL=http://127.0.0.1:8899 node web3js_alt.mjs

import {
  AddressLookupTableProgram,
  Connection,
  Keypair,
  SystemProgram,
  TransactionMessage,
  VersionedTransaction,
} from '@solana/web3.js';

import {
  LAMPORTS_PER_SIGNATURE,
  LAMPORTS_PER_SOL,
  RPC_URL,
  SYSTEM_PROGRAM,
  WS_URL,
  assert,
  poll,
  runScenario,
  show,
  step,
  waitForSignature,
} from './lib.mjs';

const connection = new Connection(RPC_URL, { commitment: 'confirmed', wsEndpoint: WS_URL });
const statuses = async (signatures) => (await connection.getSignatureStatuses(signatures)).value;
const confirm = (signature) => waitForSignature(statuses, signature, 'confirmed');

const ALT_PROGRAM = 'AddressLookupTab1e1111111111111111111111111';
const U64_MAX = 18446744073709551615n;

async function send(payer, instructions, { version = 'legacy', tables = [], signers = [payer] } = {}) {
  const { blockhash } = await connection.getLatestBlockhash();
  const message = new TransactionMessage({ payerKey: payer.publicKey, recentBlockhash: blockhash, instructions });
  const tx = new VersionedTransaction(version === 0 ? message.compileToV0Message(tables) : message.compileToLegacyMessage());
  tx.sign(signers);
  const signature = await connection.sendTransaction(tx);
  const status = await confirm(signature);
  return { signature, slot: status.slot, tx };
}

await runScenario('web3js_alt', async () => {
  const payer = Keypair.generate();
  const recipients = [Keypair.generate(), Keypair.generate(), Keypair.generate()].map((k) => k.publicKey);

  await step('fund the payer', async () => {
    await confirm(await connection.requestAirdrop(payer.publicKey, 2 * LAMPORTS_PER_SOL));
  });

  let table;
  let extendedSlot;
  await step('createLookupTable and extendLookupTable in one transaction', async () => {
    const recentSlot = await connection.getSlot('finalized');
    const [create, address] = AddressLookupTableProgram.createLookupTable({
      authority: payer.publicKey, payer: payer.publicKey, recentSlot,
    });
    const extend = AddressLookupTableProgram.extendLookupTable({
      payer: payer.publicKey, authority: payer.publicKey, lookupTable: address, addresses: recipients,
    });
    const { slot, signature } = await send(payer, [create, extend]);
    table = address;
    extendedSlot = slot;
    const tx = await connection.getTransaction(signature, { maxSupportedTransactionVersion: 0 });
    assert.equal(tx.meta.err, null);
    assert.ok(tx.meta.logMessages.includes('Program log: Instruction: CreateLookupTable'), show(tx.meta.logMessages));
    assert.ok(tx.meta.logMessages.includes('Program log: Instruction: ExtendLookupTable'), show(tx.meta.logMessages));
  });

  await step('getAddressLookupTable: the addresses, the authority, active', async () => {
    const { value } = await connection.getAddressLookupTable(table);
    assert.ok(value, 'the table exists');
    assert.ok(value.key.equals(table));
    assert.deepEqual(value.state.addresses.map(String), recipients.map(String));
    assert.ok(value.state.authority.equals(payer.publicKey));
    assert.equal(BigInt(value.state.deactivationSlot), U64_MAX);
    assert.equal(value.state.lastExtendedSlot, extendedSlot);
    assert.equal(value.isActive(), true);
  });

  await step('getParsedAccountInfo of the table', async () => {
    const { value } = await connection.getParsedAccountInfo(table);
    assert.equal(value.owner.toBase58(), ALT_PROGRAM);
    assert.equal(value.data.program, 'address-lookup-table');
    assert.equal(value.data.parsed.type, 'lookupTable');
    assert.deepEqual(value.data.parsed.info.addresses, recipients.map(String));
    assert.equal(value.data.parsed.info.authority, payer.publicKey.toBase58());
    assert.equal(value.data.parsed.info.lastExtendedSlot, String(extendedSlot));
  });

  await step('wait for the slot after the extension', async () => {
    await poll('a slot after the extension', async () => ((await connection.getSlot()) > extendedSlot ? true : undefined));
  });

  let v0;
  const amounts = [1_000_000, 2_000_000];
  await step('a v0 transfer to two of the table\'s addresses', async () => {
    const { value: lookupTable } = await connection.getAddressLookupTable(table);
    const instructions = amounts.map((lamports, i) =>
      SystemProgram.transfer({ fromPubkey: payer.publicKey, toPubkey: recipients[i], lamports }));
    v0 = await send(payer, instructions, { version: 0, tables: [lookupTable] });
    const { message } = v0.tx;
    assert.equal(message.version, 0);
    assert.deepEqual(message.staticAccountKeys.map(String), [payer.publicKey.toBase58(), SYSTEM_PROGRAM]);
    assert.equal(message.addressTableLookups.length, 1);
    assert.ok(message.addressTableLookups[0].accountKey.equals(table));
    assert.deepEqual(message.addressTableLookups[0].writableIndexes, [0, 1]);
    assert.deepEqual(message.addressTableLookups[0].readonlyIndexes, []);
    assert.equal(await connection.getBalance(recipients[0]), amounts[0]);
    assert.equal(await connection.getBalance(recipients[1]), amounts[1]);
  });

  await step('getTransaction: version 0, meta.loadedAddresses, balances over all accounts', async () => {
    const tx = await connection.getTransaction(v0.signature, { maxSupportedTransactionVersion: 0 });
    assert.equal(tx.version, 0);
    assert.equal(tx.slot, v0.slot);
    assert.equal(tx.meta.err, null);
    assert.equal(tx.meta.fee, LAMPORTS_PER_SIGNATURE);
    assert.deepEqual(tx.meta.loadedAddresses.writable.map(String), recipients.slice(0, 2).map(String));
    assert.deepEqual(tx.meta.loadedAddresses.readonly, []);
    // Static keys, then the loaded writable ones.
    assert.equal(tx.meta.preBalances.length, 4);
    assert.deepEqual(tx.meta.postBalances.slice(2), amounts);
    const lookups = tx.transaction.message.addressTableLookups;
    assert.equal(lookups.length, 1);
    assert.equal(lookups[0].accountKey.toBase58(), table.toBase58());
    const keys = tx.transaction.message.getAccountKeys({ accountKeysFromLookups: tx.meta.loadedAddresses });
    assert.equal(keys.get(2).toBase58(), recipients[0].toBase58());
  });

  await step('getParsedTransaction: loaded accounts come from the lookup table', async () => {
    const tx = await connection.getParsedTransaction(v0.signature, { maxSupportedTransactionVersion: 0 });
    const keys = tx.transaction.message.accountKeys;
    assert.deepEqual(keys.map((k) => k.source), ['transaction', 'transaction', 'lookupTable', 'lookupTable']);
    assert.deepEqual(keys.slice(2).map((k) => k.pubkey.toBase58()), recipients.slice(0, 2).map(String));
    assert.equal(tx.transaction.message.instructions[0].parsed.type, 'transfer');
  });

  await step('getTransaction without maxSupportedTransactionVersion is refused (-32015)', async () => {
    await assert.rejects(connection.getTransaction(v0.signature), (err) => {
      assert.equal(err.code, -32015, show(err));
      assert.match(err.message, /Transaction version \(0\) is not supported by the requesting client/);
      return true;
    });
  });
});
