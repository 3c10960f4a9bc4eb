#!/usr/bin/env python3
# Independent derivation of the test vectors used in transaction_test.go and pda_test.go:
# base58, SHA-256, the Ed25519 on-curve test and the legacy message layout written from scratch,
# signing with the `cryptography` package. Run: python3 impl/core/testdata/vectors.py
import hashlib, base64, struct
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives import serialization

ALPH = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"
def b58d(s):
    n = 0
    for c in s: n = n*58 + ALPH.index(c)
    out = n.to_bytes((n.bit_length()+7)//8, 'big') if n else b''
    z = len(s) - len(s.lstrip('1'))
    return b'\0'*z + out
def b58e(b):
    n = int.from_bytes(b, 'big'); s = ''
    while n: n, r = divmod(n, 58); s = ALPH[r] + s
    z = len(b) - len(b.lstrip(b'\0'))
    return '1'*z + s

p = 2**255 - 19
d = (-121665 * pow(121666, p-2, p)) % p
def on_curve(b):
    y = int.from_bytes(b, 'little') & ((1<<255)-1)
    y %= p  # dalek reduces non-canonical y
    u = (y*y - 1) % p
    v = (d*y*y + 1) % p
    # x^2 = u/v ; square iff (u/v)^((p-1)/2) in {0,1}
    x2 = u * pow(v, p-2, p) % p
    if x2 == 0: return True
    return pow(x2, (p-1)//2, p) == 1

def cpa(seeds, prog):
    h = hashlib.sha256(b''.join(seeds) + prog + b"ProgramDerivedAddress").digest()
    return None if on_curve(h) else h
def fpa(seeds, prog):
    for bump in range(255, 0, -1):
        h = cpa(seeds + [bytes([bump])], prog)
        if h is not None: return h, bump

up = b58d("BPFLoaderUpgradeab1e11111111111111111111111")
seedpk = b58d("SeedPubey1111111111111111111111111111111111")
print("cpa1", b58e(cpa([b"", bytes([1])], up)))
print("cpa2", b58e(cpa(["☉".encode(), bytes([0])], up)))
print("cpa3", b58e(cpa([b"Talking", b"Squirrels"], up)))
print("cpa4", b58e(cpa([seedpk, bytes([1])], up)))
ata = b58d("ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL")
tok = b58d("TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA")
tok22 = b58d("TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb")
wallet = b58d("E645TckHQnDcavVv92Etc6xSWQaq8zzPtPRGBheviRAk")
usdc = b58d("EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v")
h, bump = fpa([wallet, tok, usdc], ata); print("ata_usdc", b58e(h), bump)
h, bump = fpa([wallet, tok22, usdc], ata); print("ata22_usdc", b58e(h), bump)
h, bump = fpa([b"Lil'", b"Bits"], up); print("find_lilbits", b58e(h), bump)
print("seed", b58e(hashlib.sha256(bytes(32) + b"limber chicken: 4/45" + bytes(32)).digest()))
# on-curve checks
print("wallet_on_curve", on_curve(wallet), "usdc_on_curve", on_curve(usdc))

# keypair from seed 1..32 and a transfer transaction
seed = bytes(range(1, 33))
sk = Ed25519PrivateKey.from_private_bytes(seed)
pub = sk.public_key().public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)
print("kp_pub", b58e(pub))
to = b58d("E645TckHQnDcavVv92Etc6xSWQaq8zzPtPRGBheviRAk")
bh = hashlib.sha256(b"blockhash").digest()
system = bytes(32)
def sv(n):
    out = b''
    while True:
        b = n & 0x7f; n >>= 7
        if n == 0: return out + bytes([b])
        out += bytes([b | 0x80])
# legacy: payer, to (writable non-signer), system (readonly non-signer)
msg = bytes([1, 0, 1]) + sv(3) + pub + to + system + bh + sv(1) + bytes([2]) + sv(2) + bytes([0, 1]) + sv(12) + struct.pack('<IQ', 2, 1_000_000)
sig = sk.sign(msg)
tx = sv(1) + sig + msg
print("transfer_msg_b64", base64.b64encode(msg).decode())
print("transfer_tx_b64", base64.b64encode(tx).decode())
print("transfer_sig", b58e(sig))
print("blockhash", b58e(bh))
