package parity

import (
	"crypto"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/sha256"
	"encoding/hex"
	"math/big"

	"github.com/decred/dcrd/dcrec/secp256k1/v4"
	secpecdsa "github.com/decred/dcrd/dcrec/secp256k1/v4/ecdsa"
	"golang.org/x/crypto/sha3"

	"ledgerd/impl/core"
	"ledgerd/impl/programs/precompile"
	"ledgerd/impl/programs/system"
	"ledgerd/impl/runtime"
)

// precompiles runs the ed25519, secp256k1 and secp256r1 precompiles: valid signatures (inline,
// and with the signed message in another instruction), each error the reference reports, and
// instructions verifying several signatures, which are paid for as transaction signatures. The
// keys are fixed and the signatures deterministic, so the transactions never change.
func precompiles() *scenario {
	sc, b := newScenario("precompiles")
	for _, m := range precompile.Modules {
		// As LiteSVM lays them out (and ledgerd's genesis).
		sc.accounts[m.ID] = runtime.Account{Lamports: 1, Owner: core.NativeLoaderProgramID, Executable: true,
			Data: []byte(m.Genesis.Data), RentEpoch: runtime.RentExemptRentEpoch}
	}
	P, B := payer.PublicKey(), bob.PublicKey()
	pre := func(id core.Pubkey, data []byte) core.Instruction { return core.Instruction{ProgramID: id, Data: data} }
	ed := func(data []byte) core.Instruction { return pre(core.Ed25519ProgramID, data) }
	k1 := func(data []byte) core.Instruction { return pre(core.Secp256k1ProgramID, data) }
	r1 := func(data []byte) core.Instruction { return pre(core.Secp256r1ProgramID, data) }
	set := func(d []byte, i int, v ...byte) []byte {
		out := append([]byte(nil), d...)
		copy(out[i:], v)
		return out
	}

	// ed25519.
	edPriv := ed25519.NewKeyFromSeed([]byte("ledgerd parity precompile ed2551"))
	var edPub core.Pubkey
	copy(edPub[:], edPriv.Public().(ed25519.PublicKey))
	msg := []byte("parity message")
	edOK := precompile.NewEd25519Instruction(edPub, core.Signature(ed25519.Sign(edPriv, msg)), msg)
	transfer := system.Transfer(P, B, 1_000)
	// The message is the data of instruction 1 (the transfer); signature and key inline.
	edRemote := precompile.Offsets{SignatureOffset: 16 + 32, SignatureInstructionIndex: 0xffff, PublicKeyOffset: 16,
		PublicKeyInstructionIndex: 0xffff, MessageDataOffset: 0, MessageDataSize: uint16(len(transfer.Data)),
		MessageInstructionIndex: 1}.Encode([]byte{1, 0})
	edRemote = append(edRemote, edPub[:]...)
	edRemote = append(edRemote, ed25519.Sign(edPriv, transfer.Data)...)
	// Two records naming the same inline signature.
	edTwo := precompile.Offsets{SignatureOffset: 30 + 32, SignatureInstructionIndex: 0xffff, PublicKeyOffset: 30,
		PublicKeyInstructionIndex: 0xffff, MessageDataOffset: 30 + 96, MessageDataSize: uint16(len(msg)),
		MessageInstructionIndex: 0xffff}.Encode([]byte{2, 0})
	edTwo = append(precompile.Offsets{SignatureOffset: 30 + 32, SignatureInstructionIndex: 0xffff, PublicKeyOffset: 30,
		PublicKeyInstructionIndex: 0xffff, MessageDataOffset: 30 + 96, MessageDataSize: uint16(len(msg)),
		MessageInstructionIndex: 0xffff}.Encode(edTwo), edOK[16:]...)
	weakPub, _ := hex.DecodeString("10eb7c3acfb2bed3e0d6ab89bf5a3d6afddd1176ce4812e38d9fd485058fdb1f")
	weakSig, _ := hex.DecodeString("00000000000000000000000000000000000000000000000000000000000000009472a69cd9a701a50d130ed52189e2455b23767db52cacb8716fb896ffeeac09")
	edWeak := precompile.NewEd25519Instruction(core.Pubkey(weakPub), core.Signature(weakSig), []byte("ed25519vectors 3"))
	edNotPoint := set(edOK, 16, append([]byte{2}, make([]byte, 31)...)...)

	b.ok("ed25519: inline signature, then a transfer", ixs(ed(edOK), transfer), payer)
	b.ok("ed25519: message in the next instruction", ixs(ed(edRemote), transfer), payer)
	b.ok("ed25519: two signatures cost two fees", ixs(ed(edTwo)), payer)
	b.ok("ed25519: no signatures", ixs(ed([]byte{0, 0})), payer)
	b.fail("ed25519: wrong message", ixs(transfer, ed(set(edOK, len(edOK)-1, 'X'))), payer)
	b.fail("ed25519: message instruction out of range", ixs(ed(set(edOK, 14, 5, 0))), payer)
	b.fail("ed25519: message past the end", ixs(ed(set(edOK, 12, 0xff, 0))), payer)
	b.fail("ed25519: key not a point", ixs(ed(edNotPoint)), payer)
	b.fail("ed25519: R of small order", ixs(ed(edWeak)), payer)
	b.fail("ed25519: zero count with data", ixs(ed([]byte{0, 0, 0})), payer)
	b.fail("ed25519: records cut short", ixs(ed(edOK[:10])), payer)
	// verify_strict: a key of small order (the identity), and S + L (not canonical) for a valid signature.
	b.fail("ed25519: key of small order", ixs(ed(set(edOK, 16, append([]byte{1}, make([]byte, 31)...)...))), payer)
	l, _ := new(big.Int).SetString("7237005577332262213973186563042994240857116359379907606001950938285454250989", 10)
	sLE := edOK[16+32+32 : 16+32+64]
	sBE := make([]byte, 32)
	for i := range sLE {
		sBE[31-i] = sLE[i]
	}
	sPlusL := new(big.Int).Add(new(big.Int).SetBytes(sBE), l).FillBytes(make([]byte, 32))
	for i, j := 0, 31; i < j; i, j = i+1, j-1 {
		sPlusL[i], sPlusL[j] = sPlusL[j], sPlusL[i]
	}
	b.fail("ed25519: S not canonical", ixs(ed(set(edOK, 16+32+32, sPlusL...))), payer)
	// Which check comes first: the key is decoded before the message is sliced.
	b.fail("ed25519: key not a point and message past the end", ixs(ed(set(edNotPoint, 12, 0xff, 0))), payer)

	// secp256k1.
	k1Key := secp256k1.PrivKeyFromBytes([]byte("ledgerd parity precompile secp1k1"))
	addr := precompile.EthAddress(k1Key.PubKey().SerializeUncompressed()[1:])
	k1Sign := func(m []byte) ([64]byte, byte) {
		h := sha3.NewLegacyKeccak256()
		h.Write(m)
		c := secpecdsa.SignCompact(k1Key, h.Sum(nil), false)
		return [64]byte(c[1:]), c[0] - 27
	}
	sig, rid := k1Sign(msg)
	k1OK := precompile.NewSecp256k1Instruction(addr, sig, rid, msg, 0)
	k1At1 := precompile.NewSecp256k1Instruction(addr, sig, rid, msg, 1)
	const k1Sig = 1 + precompile.Secp256k1OffsetsSize + precompile.EthAddressSize
	b.ok("secp256k1: valid", ixs(k1(k1OK)), payer)
	b.ok("secp256k1: valid as instruction 1", ixs(transfer, k1(k1At1)), payer)
	b.ok("secp256k1: no signatures", ixs(k1([]byte{0})), payer)
	b.ok("secp256k1: bytes nothing names after the data", ixs(k1(append(append([]byte(nil), k1OK...), 1, 2, 3))), payer)
	b.fail("secp256k1: recovery id 4", ixs(k1(set(k1OK, k1Sig+64, 4))), payer)
	b.fail("secp256k1: signature instruction out of range", ixs(k1(set(k1OK, 3, 7))), payer)
	b.fail("secp256k1: wrong address", ixs(k1(set(k1OK, k1Sig-20, addr[0]^1))), payer)
	b.fail("secp256k1: address past the end", ixs(k1(set(k1OK, 4, 0xf0, 0xff))), payer)
	b.fail("secp256k1: message instruction out of range", ixs(k1(set(k1OK, 11, 3))), payer)
	b.fail("secp256k1: zero count with data", ixs(k1([]byte{0, 1})), payer)
	// The signature is parsed before its recovery id: r = n with recovery id 9 is a bad signature.
	rTooBig := set(k1OK, k1Sig, secp256k1.S256().N.Bytes()...)
	rTooBig[k1Sig+64] = 9
	b.fail("secp256k1: r not below the order, recovery id 9", ixs(k1(rTooBig)), payer)

	// secp256r1.
	r1Key, err := ecdsa.ParseRawPrivateKey(elliptic.P256(), []byte("ledgerd parity precompile p256 1"))
	if err != nil {
		panic(err)
	}
	var r1Pub [33]byte
	pubBytes, _ := r1Key.PublicKey.Bytes()
	x, y := new(big.Int).SetBytes(pubBytes[1:33]), new(big.Int).SetBytes(pubBytes[33:])
	copy(r1Pub[:], elliptic.MarshalCompressed(elliptic.P256(), x, y))
	order := elliptic.P256().Params().N
	r1Sign := func(m []byte, high bool) [64]byte {
		d := sha256.Sum256(m)
		der, err := r1Key.Sign(nil, d[:], crypto.SHA256) // a nil rand: RFC 6979, deterministic
		if err != nil {
			panic(err)
		}
		r, s := parseDER(der)
		if (s.Cmp(new(big.Int).Rsh(order, 1)) > 0) != high {
			s.Sub(order, s)
		}
		var out [64]byte
		r.FillBytes(out[:32])
		s.FillBytes(out[32:])
		return out
	}
	r1OK := precompile.NewSecp256r1Instruction(r1Pub, r1Sign(msg, false), msg)
	b.ok("secp256r1: valid", ixs(r1(r1OK)), payer)
	b.fail("secp256r1: high S", ixs(r1(precompile.NewSecp256r1Instruction(r1Pub, r1Sign(msg, true), msg))), payer)
	b.fail("secp256r1: key not compressed", ixs(r1(set(r1OK, 16, 4))), payer)
	b.fail("secp256r1: wrong message", ixs(r1(set(r1OK, len(r1OK)-1, 'X'))), payer)
	b.fail("secp256r1: no signatures", ixs(r1([]byte{0, 0})), payer)
	b.fail("secp256r1: signature instruction out of range", ixs(r1(set(r1OK, 4, 1, 0))), payer)
	// The signature's range is checked before the key is decoded.
	b.fail("secp256r1: high S and a bad key", ixs(r1(set(precompile.NewSecp256r1Instruction(r1Pub, r1Sign(msg, true), msg), 16, 4))), payer)
	b.fail("secp256r1: nine signatures", ixs(r1(append([]byte{9, 0}, make([]byte, 9*14)...))), payer)
	return sc
}

// parseDER reads the r and s of an ASN.1 ECDSA signature (two short INTEGERs in a SEQUENCE).
func parseDER(der []byte) (r, s *big.Int) {
	rl := int(der[3])
	r = new(big.Int).SetBytes(der[4 : 4+rl])
	sl := int(der[5+rl])
	s = new(big.Int).SetBytes(der[6+rl : 6+rl+sl])
	return r, s
}
