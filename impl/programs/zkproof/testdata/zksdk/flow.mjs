// A prover for the confidential transfer flow tests of Token-2022: it reads one JSON request
// per line on stdin and answers one JSON line each, keeping keypairs and the openings of the
// transfer ciphertexts it made between requests (the zk-sdk cannot export openings). Bytes are
// hex; amounts are decimal strings.
import * as zk from '@solana/zk-sdk/node';
import { createInterface } from 'node:readline';

const hex = (b) => Buffer.from(b).toString('hex');
const unhex = (s) => Uint8Array.from(Buffer.from(s, 'hex'));
const keypairs = [];
const transfers = [];
const ct = (s) => zk.ElGamalCiphertext.fromBytes(unhex(s));

// Opening arithmetic. The zk-sdk's JS API cannot add or scale openings, which the fee proofs
// need (the fee's opening is lo + 2^16 * hi; the delta's is 10000 * fee - rate * amount). Its
// WASM build keeps an opening as a 4-byte borrow flag followed by the 32-byte little-endian
// scalar, so the test reads and writes that scalar directly; a wrong layout would make the
// proofs fail, never pass.
const L = 2n ** 252n + 27742317777372353535851937790883648493n;
const memory = () => new Uint8Array(zk.__wasm.memory.buffer);
function scalarOf(opening) {
  const b = memory().slice(opening.__wbg_ptr + 4, opening.__wbg_ptr + 36);
  let v = 0n;
  for (let i = 31; i >= 0; i--) v = (v << 8n) | BigInt(b[i]);
  return v;
}
function openingFrom(v) {
  v = ((v % L) + L) % L;
  const o = new zk.PedersenOpening();
  const b = new Uint8Array(32);
  for (let i = 0; i < 32; i++) { b[i] = Number(v & 0xffn); v >>= 8n; }
  memory().set(b, o.__wbg_ptr + 4);
  return o;
}

const ops = {
  keypair() {
    const kp = new zk.ElGamalKeypair();
    keypairs.push(kp);
    return { id: keypairs.length - 1, pubkey: hex(kp.pubkey().toBytes()) };
  },
  pubkeyValidity({ kp }) {
    return { data: hex(new zk.PubkeyValidityProofData(keypairs[kp]).toBytes()) };
  },
  zeroCiphertext({ kp, ciphertext }) {
    return { data: hex(new zk.ZeroCiphertextProofData(keypairs[kp], ct(ciphertext)).toBytes()) };
  },
  decrypt({ kp, ciphertext }) {
    return { amount: keypairs[kp].secret().decrypt(ct(ciphertext)).toString() };
  },
  // A ciphertext-ciphertext equality proof: ciphertext (under kp) and a new encryption of amount
  // under pubkey hold the same amount.
  ctEquality({ kp, pubkey, ciphertext, amount }) {
    const o = new zk.PedersenOpening();
    const a = BigInt(amount);
    const key = zk.ElGamalPubkey.fromBytes(unhex(pubkey));
    const second = key.encryptWith(a, o);
    return {
      data: hex(new zk.CiphertextCiphertextEqualityProofData(keypairs[kp], key, ct(ciphertext), second, o, a).toBytes()),
      second: hex(second.toBytes()),
    };
  },
  // The equality proof that ciphertext holds remaining, and the 64-bit range proof of its
  // commitment.
  withdraw({ kp, ciphertext, remaining }) {
    const o = new zk.PedersenOpening();
    const amount = BigInt(remaining);
    const c = zk.PedersenCommitment.from(amount, o);
    return {
      equality: hex(new zk.CiphertextCommitmentEqualityProofData(keypairs[kp], ct(ciphertext), c, o, amount).toBytes()),
      range: hex(new zk.BatchedRangeProofU64Data([c], BigUint64Array.from([amount]), Uint8Array.from([64]), [o]).toBytes()),
    };
  },
  // The transfer amount's lo (16 bits) and hi halves encrypted under the source, destination
  // and auditor keys.
  transferCiphertexts({ source, destination, auditor, amount }) {
    const a = BigInt(amount), lo = a & 0xffffn, hi = a >> 16n;
    const keys = [source, destination, auditor].map((k) => zk.ElGamalPubkey.fromBytes(unhex(k)));
    const olo = new zk.PedersenOpening(), ohi = new zk.PedersenOpening();
    const glo = zk.GroupedElGamalCiphertext3Handles.encryptWith(keys[0], keys[1], keys[2], lo, olo);
    const ghi = zk.GroupedElGamalCiphertext3Handles.encryptWith(keys[0], keys[1], keys[2], hi, ohi);
    transfers.push({ keys, lo, hi, olo, ohi, glo, ghi });
    return { id: transfers.length - 1, lo: hex(glo.toBytes()), hi: hex(ghi.toBytes()) };
  },
  // The three proofs of a Transfer: equality of the new source balance, validity of the amount
  // ciphertexts, and the 128-bit range proof over the new balance, the two halves and padding.
  transfer({ kp, transfer, newSource, remaining }) {
    const t = transfers[transfer];
    const o = new zk.PedersenOpening(), pad = new zk.PedersenOpening();
    const r = BigInt(remaining);
    const c = zk.PedersenCommitment.from(r, o);
    return {
      equality: hex(new zk.CiphertextCommitmentEqualityProofData(keypairs[kp], ct(newSource), c, o, r).toBytes()),
      validity: hex(new zk.BatchedGroupedCiphertext3HandlesValidityProofData(t.keys[0], t.keys[1], t.keys[2], t.glo, t.ghi,
        t.lo, t.hi, t.olo, t.ohi).toBytes()),
      range: hex(new zk.BatchedRangeProofU128Data(
        [c, zk.PedersenCommitment.from(t.lo, t.olo), zk.PedersenCommitment.from(t.hi, t.ohi), zk.PedersenCommitment.from(0n, pad)],
        BigUint64Array.from([r, t.lo, t.hi, 0n]), Uint8Array.from([64, 16, 32, 16]), [o, t.olo, t.ohi, pad]).toBytes()),
    };
  },
  // TransferWithFee's five proofs for transfer (made by transferCiphertexts), a fee of
  // ceil(amount * bps / 10000) below the cap, encrypted under the destination and the
  // withdraw-withheld authority keys.
  transferWithFee({ kp, transfer, newSource, remaining, destination, withheld, bps, maxFee }) {
    const t = transfers[transfer];
    const amount = t.lo + (t.hi << 16n), rate = BigInt(bps), max = BigInt(maxFee);
    const numerator = amount * rate;
    const fee = (numerator + 9999n) / 10000n, delta = fee * 10000n - numerator;
    if (fee >= max) throw new Error('the test keeps the fee below the cap');
    const flo = fee & 0xffffn, fhi = fee >> 16n;
    const keys = [destination, withheld].map((k) => zk.ElGamalPubkey.fromBytes(unhex(k)));
    const oflo = new zk.PedersenOpening(), ofhi = new zk.PedersenOpening();
    const gflo = zk.GroupedElGamalCiphertext2Handles.encryptWith(keys[0], keys[1], flo, oflo);
    const gfhi = zk.GroupedElGamalCiphertext2Handles.encryptWith(keys[0], keys[1], fhi, ofhi);
    const sAmount = scalarOf(t.olo) + (scalarOf(t.ohi) << 16n);
    const sFee = scalarOf(oflo) + (scalarOf(ofhi) << 16n);
    const oFee = openingFrom(sFee), oDelta = openingFrom(sFee * 10000n - sAmount * rate), oNet = openingFrom(sAmount - sFee);
    const oClaimed = new zk.PedersenOpening(), oComplement = openingFrom(-scalarOf(oClaimed));
    const o = new zk.PedersenOpening();
    const r = BigInt(remaining);
    const c = zk.PedersenCommitment.from(r, o);
    const cFee = zk.PedersenCommitment.from(fee, oFee);
    const cClaimed = zk.PedersenCommitment.from(delta, oClaimed);
    return {
      fee: fee.toString(),
      equality: hex(new zk.CiphertextCommitmentEqualityProofData(keypairs[kp], ct(newSource), c, o, r).toBytes()),
      validity: hex(new zk.BatchedGroupedCiphertext3HandlesValidityProofData(t.keys[0], t.keys[1], t.keys[2], t.glo, t.ghi,
        t.lo, t.hi, t.olo, t.ohi).toBytes()),
      percentage: hex(new zk.PercentageWithCapProofData(cFee, oFee, fee, zk.PedersenCommitment.from(delta, oDelta), oDelta, delta,
        cClaimed, oClaimed, max).toBytes()),
      feeValidity: hex(new zk.BatchedGroupedCiphertext2HandlesValidityProofData(keys[0], keys[1], gflo, gfhi, flo, fhi, oflo,
        ofhi).toBytes()),
      range: hex(new zk.BatchedRangeProofU256Data(
        [c, zk.PedersenCommitment.from(t.lo, t.olo), zk.PedersenCommitment.from(t.hi, t.ohi), cClaimed,
          zk.PedersenCommitment.from(9999n - delta, oComplement), zk.PedersenCommitment.from(flo, oflo),
          zk.PedersenCommitment.from(fhi, ofhi), zk.PedersenCommitment.from(amount - fee, oNet)],
        BigUint64Array.from([r, t.lo, t.hi, delta, 9999n - delta, flo, fhi, amount - fee]),
        Uint8Array.from([64, 16, 32, 16, 16, 16, 32, 64]),
        [o, t.olo, t.ohi, oClaimed, oComplement, oflo, ofhi, oNet]).toBytes()),
    };
  },
};

const rl = createInterface({ input: process.stdin });
for await (const line of rl) {
  const req = JSON.parse(line);
  let out;
  try {
    out = ops[req.op](req);
  } catch (e) {
    out = { error: String(e) };
  }
  process.stdout.write(JSON.stringify(out) + '\n');
}
