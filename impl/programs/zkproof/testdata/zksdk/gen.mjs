// Writes fresh proofs of every type of the ZK ElGamal proof program, made by the reference's
// zk-sdk, as JSON on stdout: for each, the proof data (context then proof, hex) and, for the
// tampered copies the Go test also checks, the error the reference's verifier gives (its
// Display text; "" when the copy still verifies).
import * as zk from '@solana/zk-sdk/node';

const hex = (b) => Buffer.from(b).toString('hex');
const kp = () => new zk.ElGamalKeypair();
const op = () => new zk.PedersenOpening();

// Which bytes the test flips (bit 0): every byte of a sigma proof's data; the first and last
// byte of each 32-byte field of a range proof's data (and its bit lengths), which is enough
// to reach every check while keeping the run short.
function positions(len, range) {
  if (!range) return [...Array(len).keys()];
  const out = [];
  for (let i = 0; i < 256; i += 32) out.push(i, i + 31);
  for (let i = 256; i < 264; i++) out.push(i);
  for (let i = 264; i < len; i += 32) out.push(i, i + 31);
  return out;
}

function entry(name, cls, data, range = false) {
  const bytes = data.toBytes();
  const tampered = positions(bytes.length, range).map((pos) => {
    const b = Uint8Array.from(bytes);
    b[pos] ^= 1;
    try {
      cls.fromBytes(b).verify();
      return [pos, ''];
    } catch (e) {
      return [pos, String(e)];
    }
  });
  return { name, data: hex(bytes), tampered };
}

const out = [];
{
  const k = kp();
  out.push(entry('ZeroCiphertext', zk.ZeroCiphertextProofData,
    new zk.ZeroCiphertextProofData(k, k.pubkey().encryptWith(0n, op()))));
}
{
  const a = kp(), b = kp(), o = op();
  const amount = 55n;
  out.push(entry('CiphertextCiphertextEquality', zk.CiphertextCiphertextEqualityProofData,
    new zk.CiphertextCiphertextEqualityProofData(a, b.pubkey(), a.pubkey().encryptWith(amount, op()),
      b.pubkey().encryptWith(amount, o), o, amount)));
}
{
  const k = kp(), o = op();
  const amount = 77n;
  out.push(entry('CiphertextCommitmentEquality', zk.CiphertextCommitmentEqualityProofData,
    new zk.CiphertextCommitmentEqualityProofData(k, k.pubkey().encryptWith(amount, op()),
      zk.PedersenCommitment.from(amount, o), o, amount)));
}
out.push(entry('PubkeyValidity', zk.PubkeyValidityProofData, new zk.PubkeyValidityProofData(kp())));
for (const [name, pct, max, delta] of [['PercentageWithCap', 3n, 10n, 5n], ['PercentageWithCapAtMax', 10n, 10n, 4n]]) {
  const po = op(), dO = op(), co = op();
  out.push(entry(name, zk.PercentageWithCapProofData,
    new zk.PercentageWithCapProofData(zk.PedersenCommitment.from(pct, po), po, pct,
      zk.PedersenCommitment.from(delta, dO), dO, delta, zk.PedersenCommitment.from(delta, co), co, max)));
}
for (const [name, cls, amounts, bits] of [
  ['BatchedRangeProofU64', zk.BatchedRangeProofU64Data, [7n, 1000n], [32, 32]],
  ['BatchedRangeProofU128', zk.BatchedRangeProofU128Data, [1n, 2n, 3n], [64, 32, 32]],
  ['BatchedRangeProofU256', zk.BatchedRangeProofU256Data, [5n, 6n, 7n, 8n], [64, 64, 64, 64]],
]) {
  const openings = amounts.map(() => op());
  const commitments = amounts.map((a, i) => zk.PedersenCommitment.from(a, openings[i]));
  out.push(entry(name, cls, new cls(commitments, BigUint64Array.from(amounts), Uint8Array.from(bits), openings), true));
}
{
  const a = kp(), b = kp(), o = op();
  const g = zk.GroupedElGamalCiphertext2Handles.encryptWith(a.pubkey(), b.pubkey(), 9n, o);
  out.push(entry('GroupedCiphertext2HandlesValidity', zk.GroupedCiphertext2HandlesValidityProofData,
    new zk.GroupedCiphertext2HandlesValidityProofData(a.pubkey(), b.pubkey(), g, 9n, o)));
  const lo = op(), hi = op();
  out.push(entry('BatchedGroupedCiphertext2HandlesValidity', zk.BatchedGroupedCiphertext2HandlesValidityProofData,
    new zk.BatchedGroupedCiphertext2HandlesValidityProofData(a.pubkey(), b.pubkey(),
      zk.GroupedElGamalCiphertext2Handles.encryptWith(a.pubkey(), b.pubkey(), 3n, lo),
      zk.GroupedElGamalCiphertext2Handles.encryptWith(a.pubkey(), b.pubkey(), 4n, hi), 3n, 4n, lo, hi)));
}
{
  const a = kp(), b = kp(), c = kp(), o = op();
  const g = zk.GroupedElGamalCiphertext3Handles.encryptWith(a.pubkey(), b.pubkey(), c.pubkey(), 11n, o);
  out.push(entry('GroupedCiphertext3HandlesValidity', zk.GroupedCiphertext3HandlesValidityProofData,
    new zk.GroupedCiphertext3HandlesValidityProofData(a.pubkey(), b.pubkey(), c.pubkey(), g, 11n, o)));
  const lo = op(), hi = op();
  out.push(entry('BatchedGroupedCiphertext3HandlesValidity', zk.BatchedGroupedCiphertext3HandlesValidityProofData,
    new zk.BatchedGroupedCiphertext3HandlesValidityProofData(a.pubkey(), b.pubkey(), c.pubkey(),
      zk.GroupedElGamalCiphertext3Handles.encryptWith(a.pubkey(), b.pubkey(), c.pubkey(), 1n, lo),
      zk.GroupedElGamalCiphertext3Handles.encryptWith(a.pubkey(), b.pubkey(), c.pubkey(), 2n, hi), 1n, 2n, lo, hi)));
}
process.stdout.write(JSON.stringify(out));
