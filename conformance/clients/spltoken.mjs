// The token flow through @solana/spl-token with @solana/web3.js v1: createMint, getOrCreateAssociatedTokenAccount,
// mintTo, transfer, transferChecked, approve, burn, freeze and thaw, closeAccount, and a Token-2022 mint with a
// transfer fee, a metadata pointer and its metadata; balances read back with getTokenAccountBalance,
// getParsedAccountInfo, getTokenAccountsByOwner, getTokenSupply and the transactions' token balances. The actions of
// spl-token confirm through sendAndConfirmTransaction (a signature subscription). Run:
// RPC_URL=http://127.0.0.1:8899 node spltoken.mjs

import {
  ASSOCIATED_TOKEN_PROGRAM_ID,
  ExtensionType,
  TOKEN_2022_PROGRAM_ID,
  TOKEN_PROGRAM_ID,
  approve,
  burn,
  closeAccount,
  createInitializeMetadataPointerInstruction,
  createInitializeMintInstruction,
  createInitializeTransferFeeConfigInstruction,
  createMint,
  freezeAccount,
  getAccount,
  getAssociatedTokenAddressSync,
  getMetadataPointerState,
  getMint,
  getMintLen,
  getOrCreateAssociatedTokenAccount,
  getTokenMetadata,
  getTransferFeeAmount,
  getTransferFeeConfig,
  mintTo,
  thawAccount,
  tokenMetadataInitializeWithRentTransfer,
  transfer,
  transferChecked,
  transferCheckedWithFee,
} from '@solana/spl-token';
import { Connection, Keypair, SystemProgram, Transaction, sendAndConfirmTransaction } from '@solana/web3.js';

import { LAMPORTS_PER_SOL, RPC_URL, WS_URL, assert, runScenario, show, step, waitForSignature } from './lib.mjs';

const connection = new Connection(RPC_URL, { commitment: 'confirmed', wsEndpoint: WS_URL });
const statuses = async (signatures) => (await connection.getSignatureStatuses(signatures)).value;

const DECIMALS = 6;
// A token account's rent-exempt balance: (165 + 128 bytes) × 3480 × 2.
const ACCOUNT_RENT = 2_039_280;

// The uiAmount fields of a token amount, as the reference writes them.
function tokenAmount(amount, decimals) {
  const s = amount.toString().padStart(decimals + 1, '0');
  const whole = s.slice(0, s.length - decimals);
  const frac = s.slice(s.length - decimals).replace(/0+$/, '');
  const uiAmountString = frac ? `${whole}.${frac}` : whole;
  return { amount: amount.toString(), decimals, uiAmount: Number(uiAmountString), uiAmountString };
}

const balanceOf = async (account) => (await connection.getTokenAccountBalance(account)).value;

// spl-token's actions throw SendTransactionError when preflight fails; its logs carry the program's error.
async function assertPreflightFails(promise, logPattern) {
  await assert.rejects(promise, (err) => {
    const text = `${err.message}\n${(err.logs ?? err.transactionLogs ?? []).join('\n')}`;
    assert.match(text, logPattern, `the failure mentions ${logPattern}: ${text}`);
    return true;
  });
}

await runScenario('spltoken', async () => {
  const payer = Keypair.generate();
  const alice = Keypair.generate();
  const bob = Keypair.generate();
  const carol = Keypair.generate();

  await step('fund the payer, alice and bob', async () => {
    for (const [who, sol] of [[payer, 10], [alice, 1], [bob, 1]]) {
      const signature = await connection.requestAirdrop(who.publicKey, sol * LAMPORTS_PER_SOL);
      await waitForSignature(statuses, signature, 'confirmed');
    }
  });

  let mint;
  await step('createMint (SPL Token, 6 decimals, with a freeze authority)', async () => {
    mint = await createMint(connection, payer, payer.publicKey, payer.publicKey, DECIMALS);
    const info = await getMint(connection, mint);
    assert.equal(info.decimals, DECIMALS);
    assert.equal(info.supply, 0n);
    assert.equal(info.isInitialized, true);
    assert.ok(info.mintAuthority.equals(payer.publicKey));
    assert.ok(info.freezeAuthority.equals(payer.publicKey));
  });

  await step('getParsedAccountInfo of the mint', async () => {
    const { value } = await connection.getParsedAccountInfo(mint);
    assert.ok(value.owner.equals(TOKEN_PROGRAM_ID), `owner ${value.owner}`);
    assert.equal(value.data.program, 'spl-token');
    assert.equal(value.data.space, 82);
    assert.deepEqual(value.data.parsed, {
      type: 'mint',
      info: {
        decimals: DECIMALS,
        freezeAuthority: payer.publicKey.toBase58(),
        isInitialized: true,
        mintAuthority: payer.publicKey.toBase58(),
        supply: '0',
      },
    });
  });

  let aliceATA;
  let bobATA;
  await step('getOrCreateAssociatedTokenAccount creates alice\'s account, then finds it', async () => {
    const created = await getOrCreateAssociatedTokenAccount(connection, payer, mint, alice.publicKey);
    aliceATA = created.address;
    assert.ok(aliceATA.equals(getAssociatedTokenAddressSync(mint, alice.publicKey)));
    assert.ok(created.owner.equals(alice.publicKey));
    assert.ok(created.mint.equals(mint));
    assert.equal(created.amount, 0n);
    const again = await getOrCreateAssociatedTokenAccount(connection, payer, mint, alice.publicKey);
    assert.ok(again.address.equals(aliceATA));
    const info = await connection.getAccountInfo(aliceATA);
    assert.equal(info.lamports, ACCOUNT_RENT);
    assert.equal(info.data.length, 165);
    bobATA = (await getOrCreateAssociatedTokenAccount(connection, payer, mint, bob.publicKey)).address;
  });

  await step('the associated token account program\'s transaction: inner instructions and logs', async () => {
    const [sig] = await connection.getSignaturesForAddress(bobATA, { limit: 1 });
    const tx = await connection.getTransaction(sig.signature, { maxSupportedTransactionVersion: 0 });
    assert.equal(tx.meta.err, null);
    const logs = tx.meta.logMessages;
    assert.equal(logs[0], `Program ${ASSOCIATED_TOKEN_PROGRAM_ID.toBase58()} invoke [1]`);
    assert.ok(logs.includes('Program log: Initialize the associated token account'), show(logs));
    const inner = tx.meta.innerInstructions[0].instructions;
    const keys = tx.transaction.message.staticAccountKeys;
    assert.deepEqual(inner.map((ix) => keys[ix.programIdIndex].toBase58()), [
      TOKEN_PROGRAM_ID.toBase58(), SystemProgram.programId.toBase58(), TOKEN_PROGRAM_ID.toBase58(), TOKEN_PROGRAM_ID.toBase58(),
    ]);
    assert.deepEqual(inner.map((ix) => ix.stackHeight), [2, 2, 2, 2]);
  });

  await step('mintTo alice; getTokenAccountBalance and getTokenSupply', async () => {
    await mintTo(connection, payer, mint, aliceATA, payer, 1_000_000n);
    assert.deepEqual(await balanceOf(aliceATA), tokenAmount(1_000_000n, DECIMALS));
    assert.deepEqual((await connection.getTokenSupply(mint)).value, tokenAmount(1_000_000n, DECIMALS));
  });

  let transferSignature;
  await step('transfer 250000 to bob; the transaction\'s token balances', async () => {
    transferSignature = await transfer(connection, payer, aliceATA, bobATA, alice, 250_000n);
    assert.deepEqual(await balanceOf(aliceATA), tokenAmount(750_000n, DECIMALS));
    assert.deepEqual(await balanceOf(bobATA), tokenAmount(250_000n, DECIMALS));
    const tx = await connection.getTransaction(transferSignature, { maxSupportedTransactionVersion: 0 });
    const keys = tx.transaction.message.staticAccountKeys.map(String);
    const byAccount = (list) => Object.fromEntries(list.map((b) => [keys[b.accountIndex], b]));
    const pre = byAccount(tx.meta.preTokenBalances);
    const post = byAccount(tx.meta.postTokenBalances);
    assert.deepEqual(pre[aliceATA.toBase58()], { accountIndex: keys.indexOf(aliceATA.toBase58()), mint: mint.toBase58(),
      owner: alice.publicKey.toBase58(), programId: TOKEN_PROGRAM_ID.toBase58(), uiTokenAmount: tokenAmount(1_000_000n, DECIMALS) });
    assert.deepEqual(post[bobATA.toBase58()].uiTokenAmount, tokenAmount(250_000n, DECIMALS));
    assert.ok(tx.meta.logMessages.includes('Program log: Instruction: Transfer'), show(tx.meta.logMessages));
  });

  await step('transferChecked 100000 to bob', async () => {
    await transferChecked(connection, payer, aliceATA, mint, bobATA, alice, 100_000n, DECIMALS);
    assert.deepEqual(await balanceOf(bobATA), tokenAmount(350_000n, DECIMALS));
  });

  await step('transferChecked with the wrong decimals fails preflight (MintDecimalsMismatch)', async () => {
    await assertPreflightFails(transferChecked(connection, payer, aliceATA, mint, bobATA, alice, 1n, 2), /custom program error: 0x12/);
  });

  await step('approve a delegate; getAccount and getParsedAccountInfo show it', async () => {
    await approve(connection, payer, aliceATA, carol.publicKey, alice, 50_000n);
    const account = await getAccount(connection, aliceATA);
    assert.ok(account.delegate.equals(carol.publicKey));
    assert.equal(account.delegatedAmount, 50_000n);
    const { value } = await connection.getParsedAccountInfo(aliceATA);
    assert.equal(value.data.program, 'spl-token');
    assert.equal(value.data.parsed.type, 'account');
    assert.deepEqual(value.data.parsed.info, {
      delegate: carol.publicKey.toBase58(),
      delegatedAmount: tokenAmount(50_000n, DECIMALS),
      isNative: false,
      mint: mint.toBase58(),
      owner: alice.publicKey.toBase58(),
      state: 'initialized',
      tokenAmount: tokenAmount(650_000n, DECIMALS),
    });
  });

  await step('burn 10000; the supply follows', async () => {
    await burn(connection, payer, aliceATA, mint, alice, 10_000n);
    assert.deepEqual(await balanceOf(aliceATA), tokenAmount(640_000n, DECIMALS));
    assert.deepEqual((await connection.getTokenSupply(mint)).value, tokenAmount(990_000n, DECIMALS));
  });

  await step('freezeAccount: bob\'s account is frozen and cannot send', async () => {
    await freezeAccount(connection, payer, bobATA, mint, payer);
    assert.equal((await getAccount(connection, bobATA)).isFrozen, true);
    const { value } = await connection.getParsedAccountInfo(bobATA);
    assert.equal(value.data.parsed.info.state, 'frozen');
    await assertPreflightFails(transfer(connection, payer, bobATA, aliceATA, bob, 1n), /custom program error: 0x11/);
  });

  await step('thawAccount', async () => {
    await thawAccount(connection, payer, bobATA, mint, payer);
    assert.equal((await getAccount(connection, bobATA)).isFrozen, false);
  });

  await step('getTokenAccountsByOwner by mint and by program; getParsedTokenAccountsByOwner', async () => {
    const byMint = await connection.getTokenAccountsByOwner(alice.publicKey, { mint });
    assert.equal(byMint.value.length, 1);
    assert.ok(byMint.value[0].pubkey.equals(aliceATA));
    assert.ok(byMint.value[0].account.owner.equals(TOKEN_PROGRAM_ID));
    assert.equal(byMint.value[0].account.data.length, 165);
    const byProgram = await connection.getTokenAccountsByOwner(alice.publicKey, { programId: TOKEN_PROGRAM_ID });
    assert.deepEqual(byProgram.value.map((a) => a.pubkey.toBase58()), [aliceATA.toBase58()]);
    const parsed = await connection.getParsedTokenAccountsByOwner(bob.publicKey, { mint });
    assert.equal(parsed.value.length, 1);
    assert.deepEqual(parsed.value[0].account.data.parsed.info.tokenAmount, tokenAmount(350_000n, DECIMALS));
    const none = await connection.getTokenAccountsByOwner(carol.publicKey, { mint });
    assert.deepEqual(none.value, []);
  });

  await step('closeAccount: bob empties his account and closes it, recovering its rent', async () => {
    await transfer(connection, payer, bobATA, aliceATA, bob, 350_000n);
    const before = await connection.getBalance(bob.publicKey);
    await closeAccount(connection, payer, bobATA, bob.publicKey, bob);
    assert.equal(await connection.getAccountInfo(bobATA), null);
    assert.equal(await connection.getBalance(bob.publicKey), before + ACCOUNT_RENT);
    const left = await connection.getTokenAccountsByOwner(bob.publicKey, { mint });
    assert.deepEqual(left.value, []);
  });

  // Token-2022: a mint with a 0.5% transfer fee (at most 5000), a metadata pointer to itself and the metadata.
  const mint22 = Keypair.generate();
  const FEE_BPS = 50;
  const MAX_FEE = 5_000n;
  const metadata = { name: 'Ledgerd Coin', symbol: 'LDG', uri: 'https://example.com/ldg.json' };

  await step('Token-2022 mint with TransferFeeConfig and MetadataPointer, then its metadata', async () => {
    const extensions = [ExtensionType.TransferFeeConfig, ExtensionType.MetadataPointer];
    const space = getMintLen(extensions);
    const lamports = await connection.getMinimumBalanceForRentExemption(space);
    const tx = new Transaction().add(
      SystemProgram.createAccount({ fromPubkey: payer.publicKey, newAccountPubkey: mint22.publicKey, space, lamports,
        programId: TOKEN_2022_PROGRAM_ID }),
      createInitializeTransferFeeConfigInstruction(mint22.publicKey, payer.publicKey, payer.publicKey, FEE_BPS, MAX_FEE,
        TOKEN_2022_PROGRAM_ID),
      createInitializeMetadataPointerInstruction(mint22.publicKey, payer.publicKey, mint22.publicKey, TOKEN_2022_PROGRAM_ID),
      createInitializeMintInstruction(mint22.publicKey, 2, payer.publicKey, null, TOKEN_2022_PROGRAM_ID),
    );
    await sendAndConfirmTransaction(connection, tx, [payer, mint22]);
    await tokenMetadataInitializeWithRentTransfer(connection, payer, mint22.publicKey, payer.publicKey, payer,
      metadata.name, metadata.symbol, metadata.uri);

    const info = await getMint(connection, mint22.publicKey, 'confirmed', TOKEN_2022_PROGRAM_ID);
    assert.equal(info.decimals, 2);
    const fee = getTransferFeeConfig(info);
    assert.equal(fee.newerTransferFee.transferFeeBasisPoints, FEE_BPS);
    assert.equal(fee.newerTransferFee.maximumFee, MAX_FEE);
    assert.ok(getMetadataPointerState(info).metadataAddress.equals(mint22.publicKey));
    const md = await getTokenMetadata(connection, mint22.publicKey);
    assert.equal(md.name, metadata.name);
    assert.equal(md.symbol, metadata.symbol);
    assert.equal(md.uri, metadata.uri);
    assert.ok(md.mint.equals(mint22.publicKey));
  });

  await step('getParsedAccountInfo of the Token-2022 mint lists its extensions', async () => {
    const { value } = await connection.getParsedAccountInfo(mint22.publicKey);
    assert.equal(value.data.program, 'spl-token-2022');
    assert.equal(value.data.parsed.type, 'mint');
    const kinds = value.data.parsed.info.extensions.map((e) => e.extension);
    assert.deepEqual(kinds, ['transferFeeConfig', 'metadataPointer', 'tokenMetadata']);
    const md = value.data.parsed.info.extensions[2].state;
    assert.equal(md.name, metadata.name);
    assert.equal(md.symbol, metadata.symbol);
  });

  await step('Token-2022 accounts, mintTo, transferCheckedWithFee: the fee stays withheld', async () => {
    const from = await getOrCreateAssociatedTokenAccount(connection, payer, mint22.publicKey, alice.publicKey, false,
      'confirmed', undefined, TOKEN_2022_PROGRAM_ID);
    const to = await getOrCreateAssociatedTokenAccount(connection, payer, mint22.publicKey, bob.publicKey, false,
      'confirmed', undefined, TOKEN_2022_PROGRAM_ID);
    assert.ok(from.address.equals(getAssociatedTokenAddressSync(mint22.publicKey, alice.publicKey, false, TOKEN_2022_PROGRAM_ID)));
    await mintTo(connection, payer, mint22.publicKey, from.address, payer, 100_000n, [], undefined, TOKEN_2022_PROGRAM_ID);
    // 0.5% of 10000 is 50.
    await transferCheckedWithFee(connection, payer, from.address, mint22.publicKey, to.address, alice, 10_000n, 2, 50n,
      [], undefined, TOKEN_2022_PROGRAM_ID);
    assert.deepEqual(await balanceOf(to.address), tokenAmount(9_950n, 2));
    const account = await getAccount(connection, to.address, 'confirmed', TOKEN_2022_PROGRAM_ID);
    assert.equal(account.amount, 9_950n);
    assert.equal(getTransferFeeAmount(account).withheldAmount, 50n);
    const byProgram = await connection.getTokenAccountsByOwner(bob.publicKey, { programId: TOKEN_2022_PROGRAM_ID });
    assert.deepEqual(byProgram.value.map((a) => a.pubkey.toBase58()), [to.address.toBase58()]);
    const { value } = await connection.getParsedAccountInfo(to.address);
    assert.equal(value.data.program, 'spl-token-2022');
    const exts = Object.fromEntries(value.data.parsed.info.extensions.map((e) => [e.extension, e.state]));
    assert.deepEqual(exts.transferFeeAmount, { withheldAmount: 50 });
    assert.ok('immutableOwner' in exts, show(value.data.parsed.info.extensions));
  });
});
