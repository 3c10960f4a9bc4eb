package nonce_test

import (
	"crypto/sha256"
	"testing"

	"ledgerd/impl/core"
	"ledgerd/impl/runtime/nonce"
)

func TestDurableNonce(t *testing.T) {
	t.Parallel()
	bh := core.HashBytes([]byte("x"))
	want := sha256.Sum256(append([]byte("DURABLE_NONCE"), bh[:]...))
	if nonce.DurableNonceFromBlockhash(bh) != core.Hash(want) {
		t.Fatal("durable nonce")
	}
}

func TestCodec(t *testing.T) {
	t.Parallel()
	auth := core.Pubkey{7}
	v := nonce.NewInitialized(auth, core.Hash{9}, 5000)
	b := v.Encode()
	if len(b) != nonce.Size || b[0] != 1 || b[4] != 1 || b[8] != 7 || b[40] != 9 || b[72] != 0x88 || b[73] != 0x13 {
		t.Fatalf("encoding %x", b)
	}
	got, err := nonce.Decode(append(b, 1, 2)) // trailing bytes are ignored
	if err != nil || got != v {
		t.Fatalf("decode %+v %v", got, err)
	}
	if !nonce.IsNonceAccount(core.SystemProgramID, b) || nonce.IsNonceAccount(core.SystemProgramID, append(b, 0)) ||
		nonce.IsNonceAccount(auth, b) || nonce.IsNonceAccount(core.SystemProgramID, make([]byte, 80)) {
		t.Fatal("IsNonceAccount")
	}
	if _, ok := nonce.Verify(core.SystemProgramID, b, core.Hash{9}); !ok {
		t.Fatal("Verify current")
	}
	legacy := v
	legacy.Version = nonce.Legacy
	if _, ok := nonce.Verify(core.SystemProgramID, legacy.Encode(), core.Hash{9}); ok {
		t.Fatal("legacy nonce verified")
	}
	up, ok := legacy.Upgrade()
	if !ok || up.Version != nonce.Current || up.Data.DurableNonce != nonce.DurableNonceFromBlockhash(core.Hash{9}) {
		t.Fatalf("upgrade %+v", up)
	}
	if _, ok := v.Upgrade(); ok {
		t.Fatal("current upgraded")
	}
	un := nonce.Versions{Version: nonce.Current}
	if b := un.Encode(); len(b) != 8 || b[0] != 1 || b[4] != 0 {
		t.Fatalf("uninitialized %x", b)
	}
	for _, bad := range [][]byte{nil, make([]byte, 7), {2, 0, 0, 0, 0, 0, 0, 0}, {1, 0, 0, 0, 2, 0, 0, 0}, {1, 0, 0, 0, 1, 0, 0, 0}} {
		if _, err := nonce.Decode(bad); err == nil {
			t.Errorf("%x accepted", bad)
		}
	}
}

func FuzzDecode(f *testing.F) {
	f.Add(nonce.NewInitialized(core.Pubkey{1}, core.Hash{2}, 3).Encode())
	f.Add(make([]byte, 80))
	f.Fuzz(func(t *testing.T, data []byte) {
		v, err := nonce.Decode(data)
		if err != nil {
			return
		}
		if again, err := nonce.Decode(v.Encode()); err != nil || again != v {
			t.Fatalf("%x: %+v %v", data, again, err)
		}
	})
}
