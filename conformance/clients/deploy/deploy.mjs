// Deploying programs over plain RPC with @solana/web3.js v1, the way `solana program deploy --use-rpc` sends it:
// a buffer (system CreateAccount + InitializeBuffer), chunked Writes of 1012 bytes, CreateAccount of the program +
// DeployWithMaxDataLen; the program then runs from the next slot. Then an upgrade, SetAuthority, ExtendProgram (by at least 10,240 bytes),
// getProgramAccounts with memcmp filters, Close, and a failed deployment of a garbage ELF. Also what the CLI asks
// without --use-rpc before falling back to sendTransaction.
//
// Run by deploy_test.go: RPC_URL, WS_URL, DEPLOY_ELF (a program that logs "hello"), MEMO_ELF (SPL Memo 4.0.0, or
// empty), GENESIS_PROGRAM (the address the node was started with --upgradeable-program MEMO_ELF, or empty).

import { readFileSync } from 'node:fs';

import {
  Connection,
  Keypair,
  PublicKey,
  SendTransactionError,
  SystemProgram,
  SYSVAR_CLOCK_PUBKEY,
  SYSVAR_RENT_PUBKEY,
  Transaction,
  TransactionInstruction,
} from '@solana/web3.js';

import { LAMPORTS_PER_SOL, RPC_URL, WS_URL, assert, base58, runScenario, show, step, waitForSignature } from '../lib.mjs';

const LOADER = new PublicKey('BPFLoaderUpgradeab1e11111111111111111111111');
const CHUNK = 1012; // the CLI's chunk when payer and authority are one signer
const BUFFER_HEADER = 37;
const PROGRAM_DATA_HEADER = 45;

const connection = new Connection(RPC_URL, { commitment: 'confirmed', wsEndpoint: WS_URL });

const u32 = (n) => {
  const b = Buffer.alloc(4);
  b.writeUInt32LE(n);
  return b;
};
const u64 = (n) => {
  const b = Buffer.alloc(8);
  b.writeBigUInt64LE(BigInt(n));
  return b;
};
const meta = (pubkey, isSigner, isWritable) => ({ pubkey, isSigner, isWritable });
const loaderIx = (keys, data) => new TransactionInstruction({ programId: LOADER, keys, data: Buffer.from(data) });

const programDataAddress = (program) => PublicKey.findProgramAddressSync([program.toBuffer()], LOADER)[0];

async function send(instructions, signers) {
  const tx = new Transaction().add(...instructions);
  return connection.sendTransaction(tx, signers);
}

async function confirmAll(signatures) {
  for (const sig of signatures) await waitForSignature((s) => connection.getSignatureStatuses(s).then((r) => r.value), sig);
}

async function logsOf(signature) {
  const tx = await connection.getTransaction(signature, { commitment: 'confirmed', maxSupportedTransactionVersion: 0 });
  assert.ok(tx, `transaction ${signature}`);
  assert.equal(tx.meta.err, null, `transaction ${signature} failed: ${show(tx.meta.err)}`);
  return tx.meta.logMessages;
}

// The slot a transaction landed in; the next one's bank sees what it deployed.
async function waitPastSlot(signature) {
  const tx = await connection.getTransaction(signature, { commitment: 'confirmed', maxSupportedTransactionVersion: 0 });
  const deadline = Date.now() + 10_000;
  while ((await connection.getSlot('confirmed')) <= tx.slot) {
    assert.ok(Date.now() < deadline, 'the chain does not advance');
    await new Promise((r) => setTimeout(r, 20));
  }
}

// Writes elf into a new buffer whose authority is payer, as the CLI does.
async function writeBuffer(payer, elf) {
  const buffer = Keypair.generate();
  const rent = await connection.getMinimumBalanceForRentExemption(PROGRAM_DATA_HEADER + elf.length);
  const sig = await send(
    [
      SystemProgram.createAccount({
        fromPubkey: payer.publicKey,
        newAccountPubkey: buffer.publicKey,
        lamports: rent,
        space: BUFFER_HEADER + elf.length,
        programId: LOADER,
      }),
      loaderIx([meta(buffer.publicKey, false, true), meta(payer.publicKey, false, false)], u32(0)),
    ],
    [payer, buffer],
  );
  await confirmAll([sig]);
  const writes = [];
  for (let off = 0; off < elf.length; off += CHUNK) {
    const bytes = elf.subarray(off, off + CHUNK);
    const data = Buffer.concat([u32(1), u32(off), u64(bytes.length), bytes]);
    writes.push(send([loaderIx([meta(buffer.publicKey, false, true), meta(payer.publicKey, true, false)], data)], [payer]));
  }
  await confirmAll(await Promise.all(writes));
  const info = await connection.getAccountInfo(buffer.publicKey);
  assert.ok(info.data.subarray(BUFFER_HEADER).equals(elf), 'the buffer holds the program');
  return buffer;
}

function deployInstructions(payer, program, buffer, maxLen, programRent) {
  return [
    SystemProgram.createAccount({
      fromPubkey: payer.publicKey,
      newAccountPubkey: program.publicKey,
      lamports: programRent,
      space: 36,
      programId: LOADER,
    }),
    loaderIx(
      [
        meta(payer.publicKey, true, true),
        meta(programDataAddress(program.publicKey), false, true),
        meta(program.publicKey, false, true),
        meta(buffer.publicKey, false, true),
        meta(SYSVAR_RENT_PUBKEY, false, false),
        meta(SYSVAR_CLOCK_PUBKEY, false, false),
        meta(SystemProgram.programId, false, false),
        meta(payer.publicKey, true, false),
      ],
      Buffer.concat([u32(2), u64(maxLen)]),
    ),
  ];
}

// Deploys elf at a new program id and returns it with the deploy transaction's signature.
async function deploy(payer, elf, maxLen) {
  const buffer = await writeBuffer(payer, elf);
  const program = Keypair.generate();
  const programRent = await connection.getMinimumBalanceForRentExemption(36);
  const sig = await send(deployInstructions(payer, program, buffer, maxLen, programRent), [payer, program]);
  await confirmAll([sig]);
  return { program: program.publicKey, sig, buffer: buffer.publicKey };
}

async function invoke(payer, program, data = Buffer.alloc(0)) {
  const sig = await send([new TransactionInstruction({ programId: program, keys: [], data })], [payer]);
  await confirmAll([sig]);
  return logsOf(sig);
}

async function expectPreflightFailure(instructions, signers, message, logLine) {
  let caught;
  try {
    await send(instructions, signers);
  } catch (err) {
    caught = err;
  }
  assert.ok(caught instanceof SendTransactionError, `a SendTransactionError, got ${caught}`);
  assert.equal(caught.transactionError.message, `Transaction simulation failed: ${message}`);
  assert.ok(caught.transactionError.logs.includes(logLine), `logs ${show(caught.transactionError.logs)} include ${logLine}`);
  return caught.transactionError.logs;
}

await runScenario('deploy', async () => {
  const elf = readFileSync(process.env.DEPLOY_ELF);
  const payer = Keypair.generate();
  await step('airdrop', async () => {
    const sig = await connection.requestAirdrop(payer.publicKey, 100 * LAMPORTS_PER_SOL);
    await confirmAll([sig]);
  });

  let program, deploySig;
  await step(`deploy a ${elf.length}-byte program: buffer, ${Math.ceil(elf.length / CHUNK)} writes, deploy`, async () => {
    ({ program, sig: deploySig } = await deploy(payer, elf, 2 * elf.length));
    const logs = await logsOf(deploySig);
    assert.ok(logs.includes(`Deployed program ${program.toBase58()}`), show(logs));
    const info = await connection.getAccountInfo(program);
    assert.ok(info.executable && info.owner.equals(LOADER) && info.data.length === 36, show(info));
    const pd = await connection.getParsedAccountInfo(programDataAddress(program));
    const parsed = pd.value.data.parsed;
    assert.equal(parsed.type, 'programData');
    assert.equal(parsed.info.authority, payer.publicKey.toBase58());
    assert.equal(pd.value.data.space, PROGRAM_DATA_HEADER + 2 * elf.length);
  });

  await step('the deploy transaction under jsonParsed shows deployWithMaxDataLen', async () => {
    const tx = await connection.getParsedTransaction(deploySig, { commitment: 'confirmed', maxSupportedTransactionVersion: 0 });
    const ix = tx.transaction.message.instructions[1];
    assert.equal(ix.program, 'bpf-upgradeable-loader');
    assert.equal(ix.parsed.type, 'deployWithMaxDataLen');
    assert.equal(ix.parsed.info.maxDataLen, 2 * elf.length);
    assert.equal(ix.parsed.info.programAccount, program.toBase58());
    const inner = tx.meta.innerInstructions[0].instructions[0];
    assert.equal(inner.parsed.type, 'createAccount', show(inner));
  });

  await step('the program runs in the next slot', async () => {
    await waitPastSlot(deploySig);
    const logs = await invoke(payer, program);
    assert.deepEqual(logs.slice(0, 2), [`Program ${program.toBase58()} invoke [1]`, 'Program log: hello'], show(logs));
    assert.equal(logs.at(-1), `Program ${program.toBase58()} success`);
  });

  await step('without --use-rpc: the TPU client the CLI builds first finds the node, then the writes fall back to sendTransaction', async () => {
    // What the CLI asks before its writes (getSlot, getEpochInfo, getSlotLeaders, getClusterNodes, a WebSocket with
    // slotsUpdatesSubscribe); a failed QUIC send of a write falls back to RPC sendTransaction, which deploy() sends.
    const slot = await connection.getSlot('processed');
    const epoch = await connection.getEpochInfo();
    assert.ok(epoch.absoluteSlot >= slot - 1 && epoch.slotsInEpoch > 0, show(epoch));
    const leaders = await connection.getSlotLeaders(slot, 4);
    assert.equal(leaders.length, 4, show(leaders));
    const nodes = await connection.getClusterNodes();
    const self = nodes.find((n) => n.pubkey === leaders[0].toBase58());
    assert.ok(self && (self.tpuQuic || self.tpu), `the leader ${leaders[0].toBase58()} is a cluster node with a TPU address: ${show(nodes)}`);
    const update = await new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('no slotsUpdatesNotification within 10 s')), 10_000);
      const id = connection.onSlotUpdate((u) => {
        clearTimeout(timer);
        connection.removeSlotUpdateListener(id).then(() => resolve(u), reject);
      });
    });
    assert.ok(typeof update.slot === 'number' && typeof update.type === 'string', show(update));
    const { program: other, sig } = await deploy(payer, elf, elf.length);
    await waitPastSlot(sig);
    const logs = await invoke(payer, other);
    assert.equal(logs[1], 'Program log: hello', show(logs));
  });

  const newAuthority = Keypair.generate();
  await step('upgrade from a new buffer, spill to the payer', async () => {
    const buffer = await writeBuffer(payer, elf);
    const pd = programDataAddress(program);
    const sig = await send(
      [
        loaderIx(
          [
            meta(pd, false, true),
            meta(program, false, true),
            meta(buffer.publicKey, false, true),
            meta(payer.publicKey, false, true),
            meta(SYSVAR_RENT_PUBKEY, false, false),
            meta(SYSVAR_CLOCK_PUBKEY, false, false),
            meta(payer.publicKey, true, false),
          ],
          u32(3),
        ),
      ],
      [payer],
    );
    await confirmAll([sig]);
    assert.ok((await logsOf(sig)).includes(`Upgraded program ${program.toBase58()}`));
    assert.equal(await connection.getAccountInfo(buffer.publicKey), null, 'the buffer is gone');
    await waitPastSlot(sig);
    assert.ok((await invoke(payer, program)).includes('Program log: hello'));
  });

  await step('setAuthority to a new key', async () => {
    const pd = programDataAddress(program);
    const sig = await send(
      [loaderIx([meta(pd, false, true), meta(payer.publicKey, true, false), meta(newAuthority.publicKey, false, false)], u32(4))],
      [payer],
    );
    await confirmAll([sig]);
    assert.ok((await logsOf(sig)).includes(`New authority Some(${newAuthority.publicKey.toBase58()})`));
    const parsed = (await connection.getParsedAccountInfo(pd)).value.data.parsed;
    assert.equal(parsed.info.authority, newAuthority.publicKey.toBase58());
  });

  await step('extendProgram by 10240 bytes (the least the loader takes), paid by the payer', async () => {
    const pd = programDataAddress(program);
    const before = (await connection.getAccountInfo(pd)).data.length;
    const sig = await send(
      [
        loaderIx(
          [meta(pd, false, true), meta(program, false, true), meta(SystemProgram.programId, false, false), meta(payer.publicKey, true, true)],
          Buffer.concat([u32(6), u32(10240)]),
        ),
      ],
      [payer],
    );
    await confirmAll([sig]);
    assert.ok((await logsOf(sig)).includes('Extended ProgramData account by 10240 bytes'));
    const after = await connection.getAccountInfo(pd);
    assert.equal(after.data.length, before + 10240);
    assert.equal(after.lamports, await connection.getMinimumBalanceForRentExemption(before + 10240));
    // The loader refuses another change to the program in the slot that extended it ("Program was deployed in
    // this block already"): the close below must land later.
    await waitPastSlot(sig);
  });

  await step('getProgramAccounts: memcmp at offset 0 on 8 bytes, and on the tag and the authority', async () => {
    const pd = programDataAddress(program);
    const head = (await connection.getAccountInfo(pd)).data.subarray(0, 8);
    const byHead = await connection.getProgramAccounts(LOADER, {
      filters: [{ memcmp: { offset: 0, bytes: base58(head) } }],
      dataSlice: { offset: 0, length: 0 },
    });
    assert.ok(byHead.some((a) => a.pubkey.equals(pd)), `programData in ${show(byHead.map((a) => a.pubkey.toBase58()))}`);
    assert.ok(byHead.every((a) => a.account.data.length === 0));
    // `solana program show --programs` asks for the program data accounts of an authority this way.
    const byAuthority = await connection.getProgramAccounts(LOADER, {
      filters: [
        { memcmp: { offset: 0, bytes: base58(Buffer.from([3, 0, 0, 0])) } },
        { memcmp: { offset: 12, bytes: base58(Buffer.from([1])) } },
        { memcmp: { offset: 13, bytes: newAuthority.publicKey.toBase58() } },
      ],
    });
    assert.deepEqual(byAuthority.map((a) => a.pubkey.toBase58()), [pd.toBase58()]);
    const wrongHead = Buffer.from(head);
    wrongHead[7] ^= 0xff;
    const none = await connection.getProgramAccounts(LOADER, { filters: [{ memcmp: { offset: 0, bytes: base58(wrongHead) } }] });
    assert.ok(!none.some((a) => a.pubkey.equals(pd)), 'a different 8-byte head does not match');
  });

  await step('close the program: its lamports go to the recipient, then it is not deployed', async () => {
    const pd = programDataAddress(program);
    const sig = await send(
      [
        loaderIx(
          [meta(pd, false, true), meta(payer.publicKey, false, true), meta(newAuthority.publicKey, true, false), meta(program, false, true)],
          u32(5),
        ),
      ],
      [payer, newAuthority],
    );
    await confirmAll([sig]);
    assert.ok((await logsOf(sig)).includes(`Closed Program ${program.toBase58()}`));
    assert.equal(await connection.getAccountInfo(pd), null);
    await waitPastSlot(sig);
    await expectPreflightFailure(
      [new TransactionInstruction({ programId: program, keys: [], data: Buffer.alloc(0) })],
      [payer],
      'Error processing Instruction 0: Unsupported program id',
      'Program is not deployed',
    );
  });

  await step('a garbage ELF fails its deployment with InvalidAccountData and the loader error in the logs', async () => {
    const garbage = Buffer.alloc(512, 0x7f);
    const buffer = await writeBuffer(payer, garbage);
    const prog = Keypair.generate();
    const programRent = await connection.getMinimumBalanceForRentExemption(36);
    const logs = await expectPreflightFailure(
      deployInstructions(payer, prog, buffer, garbage.length, programRent),
      [payer, prog],
      'Error processing Instruction 1: invalid account data for instruction',
      `Program ${LOADER.toBase58()} failed: invalid account data for instruction`,
    );
    assert.ok(!logs.some((l) => l.startsWith('Deployed program')), show(logs));
  });

  if (process.env.MEMO_ELF) {
    const memo = readFileSync(process.env.MEMO_ELF);
    await step(`deploy the real SPL Memo 4.0.0 (${memo.length} bytes) and call it`, async () => {
      const { program: memoProgram, sig } = await deploy(payer, memo, memo.length);
      await waitPastSlot(sig);
      const logs = await invoke(payer, memoProgram, Buffer.from('hello memo'));
      assert.deepEqual(logs.slice(1, 3), ['Program log: Memo (len 10)', 'Program log: hello memo'], show(logs));
    });
  }

  if (process.env.GENESIS_PROGRAM) {
    await step('the --upgradeable-program of the node runs', async () => {
      const memoProgram = new PublicKey(process.env.GENESIS_PROGRAM);
      const parsed = (await connection.getParsedAccountInfo(programDataAddress(memoProgram))).value.data.parsed;
      assert.equal(parsed.type, 'programData');
      assert.equal(parsed.info.slot, 0);
      assert.equal(parsed.info.authority, process.env.GENESIS_AUTHORITY);
      const logs = await invoke(payer, memoProgram, Buffer.from('from genesis'));
      assert.deepEqual(logs.slice(1, 3), ['Program log: Memo (len 12)', 'Program log: from genesis'], show(logs));
    });
  }
});
