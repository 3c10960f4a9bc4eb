// Deploying a program with @solana/kit and @solana-program/loader-v3, the kit client of the upgradeable loader:
// a buffer written in 1012-byte chunks, DeployWithMaxDataLen, the program running from the next slot, then
// ExtendProgram, Upgrade, SetAuthorityChecked and Close, each checked by its log line and the accounts it leaves.
// (Its Close of a program passes the program account read-only, which the loader refuses, as the reference does.)
//
// Run by deploy_test.go with RPC_URL and DEPLOY_ELF (a program that logs "hello"). Its packages are pinned by
// package-lock.json beside it (loader-v3 0.3.0 wants @solana/kit 6, the other scenarios use kit 8).

import { readFileSync } from 'node:fs';

import {
  AccountRole,
  address,
  appendTransactionMessageInstructions,
  createSolanaRpc,
  createTransactionMessage,
  generateKeyPairSigner,
  getAddressEncoder,
  getBase64EncodedWireTransaction,
  getProgramDerivedAddress,
  getSignatureFromTransaction,
  lamports,
  pipe,
  setTransactionMessageFeePayerSigner,
  setTransactionMessageLifetimeUsingBlockhash,
  signTransactionMessageWithSigners,
} from '@solana/kit';
import {
  LOADER_V3_PROGRAM_ADDRESS,
  getCloseInstruction,
  getDeployWithMaxDataLenInstruction,
  getExtendProgramInstruction,
  getInitializeBufferInstruction,
  getSetAuthorityCheckedInstruction,
  getUpgradeInstruction,
  getWriteInstruction,
} from '@solana-program/loader-v3';
import { getCreateAccountInstruction } from '@solana-program/system';

import { LAMPORTS_PER_SOL, RPC_URL, assert, runScenario, show, step, waitForSignature } from '../lib.mjs';

const rpc = createSolanaRpc(RPC_URL);
const SYSTEM_PROGRAM = address('11111111111111111111111111111111');
const CHUNK = 1012;

const statuses = async (signatures) => (await rpc.getSignatureStatuses(signatures).send()).value;
const rent = async (size) => await rpc.getMinimumBalanceForRentExemption(BigInt(size)).send();

async function send(payer, instructions) {
  const { value: latestBlockhash } = await rpc.getLatestBlockhash().send();
  const message = pipe(
    createTransactionMessage({ version: 'legacy' }), // the CLI's 1012-byte chunk fills a legacy message
    (m) => setTransactionMessageFeePayerSigner(payer, m),
    (m) => setTransactionMessageLifetimeUsingBlockhash(latestBlockhash, m),
    (m) => appendTransactionMessageInstructions(instructions, m),
  );
  const tx = await signTransactionMessageWithSigners(message);
  await rpc.sendTransaction(getBase64EncodedWireTransaction(tx), { encoding: 'base64' }).send();
  return getSignatureFromTransaction(tx);
}

const confirm = async (signatures) => {
  for (const s of signatures) await waitForSignature(statuses, s, 'confirmed');
};

async function landed(signature) {
  const tx = await rpc
    .getTransaction(signature, { commitment: 'confirmed', maxSupportedTransactionVersion: 0, encoding: 'json' })
    .send();
  assert.ok(tx, `transaction ${signature}`);
  assert.equal(tx.meta.err, null, `transaction ${signature} failed: ${show(tx.meta.err)}`);
  return tx;
}

async function nextSlot(signature) {
  const { slot } = await landed(signature);
  const deadline = Date.now() + 10_000;
  while ((await rpc.getSlot({ commitment: 'confirmed' }).send()) <= slot) {
    assert.ok(Date.now() < deadline, 'the chain does not advance');
    await new Promise((r) => setTimeout(r, 20));
  }
}

async function writeBuffer(payer, elf) {
  const buffer = await generateKeyPairSigner();
  await confirm([
    await send(payer, [
      getCreateAccountInstruction({
        payer,
        newAccount: buffer,
        lamports: await rent(45 + elf.length),
        space: 37 + elf.length,
        programAddress: LOADER_V3_PROGRAM_ADDRESS,
      }),
      getInitializeBufferInstruction({ sourceAccount: buffer.address, bufferAuthority: payer.address }),
    ]),
  ]);
  const writes = [];
  for (let offset = 0; offset < elf.length; offset += CHUNK) {
    const bytes = elf.subarray(offset, offset + CHUNK);
    writes.push(send(payer, [getWriteInstruction({ bufferAccount: buffer.address, bufferAuthority: payer, offset, bytes })]));
  }
  await confirm(await Promise.all(writes));
  return buffer;
}

async function invoke(payer, program) {
  const sig = await send(payer, [{ programAddress: program, accounts: [], data: new Uint8Array() }]);
  await confirm([sig]);
  return (await landed(sig)).meta.logMessages;
}

await runScenario('deploy-kit', async () => {
  const elf = readFileSync(process.env.DEPLOY_ELF);
  const payer = await generateKeyPairSigner();
  await step('airdrop', async () => {
    await confirm([await rpc.requestAirdrop(payer.address, lamports(BigInt(100 * LAMPORTS_PER_SOL))).send()]);
  });

  const program = await generateKeyPairSigner();
  const [programData] = await getProgramDerivedAddress({
    programAddress: LOADER_V3_PROGRAM_ADDRESS,
    seeds: [getAddressEncoder().encode(program.address)],
  });
  let deploySig;
  await step('deploy with getDeployWithMaxDataLenInstruction', async () => {
    const buffer = await writeBuffer(payer, elf);
    deploySig = await send(payer, [
      getCreateAccountInstruction({
        payer,
        newAccount: program,
        lamports: await rent(36),
        space: 36,
        programAddress: LOADER_V3_PROGRAM_ADDRESS,
      }),
      getDeployWithMaxDataLenInstruction({
        payerAccount: payer,
        programDataAccount: programData,
        programAccount: program.address,
        bufferAccount: buffer.address,
        authority: payer,
        maxDataLen: BigInt(elf.length),
      }),
    ]);
    await confirm([deploySig]);
    const logs = (await landed(deploySig)).meta.logMessages;
    assert.ok(logs.includes(`Deployed program ${program.address}`), show(logs));
  });

  await step('the program runs from the next slot', async () => {
    await nextSlot(deploySig);
    const logs = await invoke(payer, program.address);
    assert.deepEqual(logs.slice(0, 2), [`Program ${program.address} invoke [1]`, 'Program log: hello'], show(logs));
  });

  await step('extend by 10240 bytes, then upgrade into the larger program data', async () => {
    const ext = await send(payer, [
      getExtendProgramInstruction({
        programDataAccount: programData,
        programAccount: program.address,
        systemProgram: SYSTEM_PROGRAM,
        payer,
        additionalBytes: 10240,
      }),
    ]);
    await confirm([ext]);
    assert.ok((await landed(ext)).meta.logMessages.includes('Extended ProgramData account by 10240 bytes'));
    const { value: info } = await rpc.getAccountInfo(programData, { encoding: 'base64' }).send();
    assert.equal(info.space, BigInt(45 + elf.length + 10240));
    await nextSlot(ext);
    const buffer = await writeBuffer(payer, elf);
    const up = await send(payer, [
      getUpgradeInstruction({
        programDataAccount: programData,
        programAccount: program.address,
        bufferAccount: buffer.address,
        spillAccount: payer.address,
        authority: payer,
      }),
    ]);
    await confirm([up]);
    assert.ok((await landed(up)).meta.logMessages.includes(`Upgraded program ${program.address}`));
    await nextSlot(up);
    assert.ok((await invoke(payer, program.address)).includes('Program log: hello'));
  });

  const newAuthority = await generateKeyPairSigner();
  await step('setAuthorityChecked, then close with the new authority', async () => {
    const set = await send(payer, [
      getSetAuthorityCheckedInstruction({
        bufferOrProgramDataAccount: programData,
        currentAuthority: payer,
        newAuthority,
      }),
    ]);
    await confirm([set]);
    assert.ok((await landed(set)).meta.logMessages.includes(`New authority ${newAuthority.address}`));
    const kitClose = getCloseInstruction({
      bufferOrProgramDataAccount: programData,
      destinationAccount: payer.address,
      authority: newAuthority,
      programAccount: program.address,
    });
    // loader-v3 0.3.0 passes the program account read-only, which the loader refuses (it tombstones the program);
    // the reference's own instruction builder marks it writable.
    let refused;
    try {
      await send(payer, [kitClose]);
    } catch (err) {
      refused = err;
    }
    assert.ok(refused?.context?.logs?.includes('Program account is not writable'), `refused with ${show(refused?.context)}`);
    const writableProgram = { ...kitClose, accounts: kitClose.accounts.map((a, i) => (i === 3 ? { ...a, role: AccountRole.WRITABLE } : a)) };
    const close = await send(payer, [writableProgram]);
    await confirm([close]);
    assert.ok((await landed(close)).meta.logMessages.includes(`Closed Program ${program.address}`));
    const { value: gone } = await rpc.getAccountInfo(programData, { encoding: 'base64' }).send();
    assert.equal(gone, null);
  });
});
