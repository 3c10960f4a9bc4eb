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
