package encoding

import (
	"bytes"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/klauspost/compress/zstd"

	"ledgerd/generated/rpcapi"
	"ledgerd/impl/core"
	"ledgerd/impl/runtime"
)

// seq returns n bytes 0, 1, 2, … (wrapping).
func seq(n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(i)
	}
	return b
}

func slice(offset, length uint64) *rpcapi.DataSlice {
	return &rpcapi.DataSlice{Offset: offset, Length: length}
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatalf("json.Marshal: %v", err)
	}
	return string(b)
}

// otherOwner will never have a jsonParsed parser.
var otherOwner = core.MemoProgramID

func TestEncodeAccount(t *testing.T) {
	t.Parallel()
	small := runtime.Account{Lamports: 42, Owner: otherOwner, RentEpoch: math.MaxUint64, Data: []byte{1, 2, 3, 4, 5}}
	wallet := runtime.Account{Lamports: 1_000_000_000, Owner: core.SystemProgramID, RentEpoch: math.MaxUint64}
	exec := runtime.Account{Lamports: 1, Owner: core.BPFLoaderUpgradeableProgramID, Executable: true, RentEpoch: 7, Data: []byte{2, 3}}
	bytes128 := runtime.Account{Owner: otherOwner, Data: seq(128)}
	bytes129 := runtime.Account{Owner: otherOwner, Data: seq(129)}
	bytes200 := runtime.Account{Owner: otherOwner, Data: seq(200)}

	const (
		owner      = `"owner":"MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr"`
		b58Of128   = "12Mc55eJJSx97JNqXmW7TuJSoE9N3JhfHo9hbKS9Pm2qUNVUH1Tgd6xAdqeP8xAxDhjuR6vmAu7KR9Kt2PqaMEEcD2ThugBHeVLCJtW1V1iMZ13ZJfDH7h8E11Xz9hpEDcPUikMCe5p9EHLv7Y3wNXT2bBNYZarpY7Trn3cm8vvo7t"
		b58Of72To  = "8Q2oBcrUuKBYwFrqExvnFFoUXv3PXkbkHzf74xV2mr48hfLojce4ExwtBzLsv7cWdBvz91HF4Y4w26bjdDeLBcfZYoL5GRLYighXtmM8tpiW3SxTbEdndRBwSv7zwKXtDybpDviufKaf3bohptfuD98U7xHDV1hLYv1UjtKpKKmsmWv"
		smallTail  = `,"executable":false,"rentEpoch":18446744073709551615,"space":5}`
		tail128    = `,"executable":false,"rentEpoch":0,"space":128}`
		tail129    = `,"executable":false,"rentEpoch":0,"space":129}`
		tail200    = `,"executable":false,"rentEpoch":0,"space":200}`
		lamports0  = `{"lamports":0,` + owner
		lamports42 = `{"lamports":42,` + owner
	)

	tests := []struct {
		name     string
		acct     runtime.Account
		encoding rpcapi.AccountEncoding
		slice    *rpcapi.DataSlice
		opts     Options
		want     string // the UiAccount's JSON
		wantCode int    // a *rpcapi.Error code instead
	}{
		{name: "binary is a bare string", acct: small, encoding: Binary,
			want: lamports42 + `,"data":"7bWpTW"` + smallTail},
		{name: "base58", acct: small, encoding: Base58,
			want: lamports42 + `,"data":["7bWpTW","base58"]` + smallTail},
		{name: "base64", acct: small, encoding: Base64,
			want: lamports42 + `,"data":["AQIDBAU=","base64"]` + smallTail},
		{name: "binary of empty data", acct: wallet, encoding: Binary,
			want: `{"lamports":1000000000,"owner":"11111111111111111111111111111111","data":"","executable":false,"rentEpoch":18446744073709551615,"space":0}`},
		{name: "executable and small rent epoch", acct: exec, encoding: Base64,
			want: `{"lamports":1,"owner":"BPFLoaderUpgradeab1e11111111111111111111111","data":["AgM=","base64"],"executable":true,"rentEpoch":7,"space":2}`},

		// dataSlice; space stays the full length.
		{name: "slice inside", acct: small, encoding: Base64, slice: slice(1, 2),
			want: lamports42 + `,"data":["AgM=","base64"]` + smallTail},
		{name: "slice base58", acct: small, encoding: Base58, slice: slice(1, 2),
			want: lamports42 + `,"data":["9t","base58"]` + smallTail},
		{name: "slice offset at end", acct: small, encoding: Base64, slice: slice(5, 1),
			want: lamports42 + `,"data":["","base64"]` + smallTail},
		{name: "slice offset past end", acct: small, encoding: Binary, slice: slice(100, 1),
			want: lamports42 + `,"data":""` + smallTail},
		{name: "slice offset max", acct: small, encoding: Base64, slice: slice(math.MaxUint64, math.MaxUint64),
			want: lamports42 + `,"data":["","base64"]` + smallTail},
		{name: "slice length cut at end", acct: small, encoding: Base64, slice: slice(3, 10),
			want: lamports42 + `,"data":["BAU=","base64"]` + smallTail},
		{name: "slice length max does not overflow", acct: small, encoding: Base64, slice: slice(1, math.MaxUint64),
			want: lamports42 + `,"data":["AgMEBQ==","base64"]` + smallTail},
		{name: "slice length zero", acct: small, encoding: Base58, slice: slice(0, 0),
			want: lamports42 + `,"data":["","base58"]` + smallTail},
		{name: "slice whole", acct: small, encoding: Base64, slice: slice(0, 5),
			want: lamports42 + `,"data":["AQIDBAU=","base64"]` + smallTail},

		// The 128-byte base-58 limit, on the sliced data.
		{name: "binary 128 bytes", acct: bytes128, encoding: Binary,
			want: lamports0 + `,"data":"` + b58Of128 + `"` + tail128},
		{name: "base58 128 bytes", acct: bytes128, encoding: Base58,
			want: lamports0 + `,"data":["` + b58Of128 + `","base58"]` + tail128},
		{name: "binary 129 bytes", acct: bytes129, encoding: Binary, wantCode: -32600},
		{name: "base58 129 bytes", acct: bytes129, encoding: Base58, wantCode: -32600},
		{name: "base58 129 bytes sliced to 128", acct: bytes129, encoding: Base58, slice: slice(0, 128),
			want: lamports0 + `,"data":["` + b58Of128 + `","base58"]` + tail129},
		{name: "binary slice of 129 past the limit", acct: bytes129, encoding: Binary, slice: slice(0, 129), wantCode: -32600},
		{name: "binary 200 bytes, last 128", acct: bytes200, encoding: Binary, slice: slice(72, 1000),
			want: lamports0 + `,"data":"` + b58Of72To + `"` + tail200},
		{name: "binary 200 bytes, last 129", acct: bytes200, encoding: Binary, slice: slice(71, 1000), wantCode: -32600},
		{name: "base64 has no limit", acct: bytes129, encoding: Base64,
			want: lamports0 + `,"data":["` + base64.StdEncoding.EncodeToString(seq(129)) + `","base64"]` + tail129},
		{name: "notification binary too large", acct: bytes129, encoding: Binary, opts: Options{Notification: true},
			want: lamports0 + `,"data":"error: data too large for bs58 encoding"` + tail129},
		{name: "notification base58 too large", acct: bytes129, encoding: Base58, opts: Options{Notification: true},
			want: lamports0 + `,"data":["error: data too large for bs58 encoding","base58"]` + tail129},
		{name: "notification within limit", acct: bytes128, encoding: Binary, opts: Options{Notification: true},
			want: lamports0 + `,"data":"` + b58Of128 + `"` + tail128},

		// jsonParsed fallbacks use base64 of the sliced data.
		{name: "jsonParsed system wallet", acct: wallet, encoding: JSONParsed,
			want: `{"lamports":1000000000,"owner":"11111111111111111111111111111111","data":["","base64"],"executable":false,"rentEpoch":18446744073709551615,"space":0}`},
		{name: "jsonParsed no parser", acct: small, encoding: JSONParsed,
			want: lamports42 + `,"data":["AQIDBAU=","base64"]` + smallTail},
		{name: "jsonParsed no parser, sliced", acct: small, encoding: JSONParsed, slice: slice(1, 2),
			want: lamports42 + `,"data":["AgM=","base64"]` + smallTail},
		{name: "jsonParsed ignores the 128-byte limit", acct: bytes129, encoding: JSONParsed,
			want: lamports0 + `,"data":["` + base64.StdEncoding.EncodeToString(seq(129)) + `","base64"]` + tail129},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, err := EncodeAccount(tt.acct, core.Pubkey{9}, tt.encoding, tt.slice, tt.opts)
			if tt.wantCode != 0 {
				var rpcErr *rpcapi.Error
				if !errors.As(err, &rpcErr) || rpcErr.Code != tt.wantCode {
					t.Fatalf("err = %v, want an *rpcapi.Error with code %d", err, tt.wantCode)
				}
				const msg = "Encoded binary (base 58) data should be less than 128 bytes, please use Base64 encoding."
				if rpcErr.Message != msg || rpcErr.Data != nil {
					t.Errorf("error = %q (data %v), want %q without data", rpcErr.Message, rpcErr.Data, msg)
				}
				return
			}
			if err != nil {
				t.Fatalf("EncodeAccount: %v", err)
			}
			if s := mustJSON(t, got); s != tt.want {
				t.Errorf("got  %s\nwant %s", s, tt.want)
			}
		})
	}
}

func TestEncodeAccountUnknownEncoding(t *testing.T) {
	t.Parallel()
	for _, enc := range []string{"", "json", "Base64", "base64+zstd ", "jsonparsed"} {
		_, err := EncodeAccount(runtime.Account{}, core.Pubkey{}, rpcapi.AccountEncoding(enc), nil, Options{})
		if !errors.Is(err, ErrUnknownEncoding) {
			t.Errorf("encoding %q: err = %v, want ErrUnknownEncoding", enc, err)
		}
	}
}

func TestBase64ZstdRoundTrip(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(1, 2))
	random := make([]byte, 10_000)
	for i := range random {
		random[i] = byte(rng.Uint32())
	}
	tests := []struct {
		name  string
		data  []byte
		slice *rpcapi.DataSlice
		want  []byte
	}{
		{name: "empty", data: nil, want: nil},
		{name: "zeros", data: make([]byte, 1024), want: make([]byte, 1024)},
		{name: "random", data: random, want: random},
		{name: "sliced before compression", data: random, slice: slice(100, 300), want: random[100:400]},
		{name: "slice past end", data: random, slice: slice(20_000, 5), want: nil},
	}
	dec, err := zstd.NewReader(nil)
	if err != nil {
		t.Fatal(err)
	}
	defer dec.Close()
	for _, tt := range tests {
		acct := runtime.Account{Owner: otherOwner, Data: tt.data}
		got, err := EncodeAccount(acct, core.Pubkey{}, Base64Zstd, tt.slice, Options{})
		if err != nil {
			t.Fatalf("%s: EncodeAccount: %v", tt.name, err)
		}
		if got.Data.Encoded == nil || got.Data.Encoded[1] != string(Base64Zstd) {
			t.Fatalf("%s: data = %s, want a base64+zstd pair", tt.name, mustJSON(t, got.Data))
		}
		if got.Space != uint64(len(tt.data)) {
			t.Errorf("%s: space = %d, want %d", tt.name, got.Space, len(tt.data))
		}
		compressed, err := base64.StdEncoding.DecodeString(got.Data.Encoded[0])
		if err != nil {
			t.Fatalf("%s: base64: %v", tt.name, err)
		}
		if len(compressed) == 0 {
			t.Fatalf("%s: no zstd frame", tt.name)
		}
		plain, err := dec.DecodeAll(compressed, nil)
		if err != nil {
			t.Fatalf("%s: zstd: %v", tt.name, err)
		}
		if !bytes.Equal(plain, tt.want) {
			t.Errorf("%s: decompressed %d bytes, want %d bytes", tt.name, len(plain), len(tt.want))
		}
	}
}

func TestSliceData(t *testing.T) {
	t.Parallel()
	data := []byte{1, 2, 3, 4, 5}
	tests := []struct {
		slice *rpcapi.DataSlice
		want  []byte
	}{
		{nil, data},
		{slice(0, 5), data},
		{slice(0, 10), data},
		{slice(1, 2), data[1:3]},
		{slice(4, 1), data[4:]},
		{slice(5, 1), nil},
		{slice(10, 2), nil},
		{slice(2, 0), nil},
		{slice(math.MaxUint64, 1), nil},
		{slice(1, math.MaxUint64), data[1:]},
		{slice(math.MaxUint64-1, math.MaxUint64), nil},
	}
	for _, tt := range tests {
		got := SliceData(data, tt.slice)
		if !bytes.Equal(got, tt.want) {
			t.Errorf("SliceData(%v) = %v, want %v", tt.slice, got, tt.want)
		}
	}
	if got := SliceData(nil, slice(0, 1)); len(got) != 0 {
		t.Errorf("SliceData(nil) = %v, want empty", got)
	}
}

// TestNotificationTextMatchesShape guards the texts the PubSub tests of the reference expect.
func TestNotificationTextMatchesShape(t *testing.T) {
	t.Parallel()
	acct := runtime.Account{Owner: otherOwner, Data: bytes.Repeat([]byte{7}, 1000)}
	for enc, want := range map[string]string{
		string(Binary): `"error: data too large for bs58 encoding"`,
		string(Base58): `["error: data too large for bs58 encoding","base58"]`,
	} {
		got, err := EncodeAccount(acct, core.Pubkey{}, rpcapi.AccountEncoding(enc), slice(0, 200), Options{Notification: true})
		if err != nil {
			t.Fatalf("%s: %v", enc, err)
		}
		if s := mustJSON(t, got.Data); s != want {
			t.Errorf("%s: data = %s, want %s", enc, s, want)
		}
	}
}

// The strings the reference answers for the data of @solana/kit's fixtures (its rpc-api and
// rpc-graphql tests compare them as strings), and what libzstd writes for empty data.
func TestBase64ZstdAsReference(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		data  []byte
		slice *rpcapi.DataSlice
		want  string
	}{
		{name: "kit fixture", data: []byte("test data"), want: "KLUv/QBYSQAAdGVzdCBkYXRh"},
		{name: "kit fixture sliced", data: []byte("test data"), slice: slice(0, 5), want: "KLUv/QBYKQAAdGVzdCA="},
		{name: "empty", data: nil, want: "KLUv/SAAAQAA"},
		// kit's get-token-accounts-by-owner and -by-delegate tests: SPL Token accounts of its fixtures, compressed.
		{name: "token account", data: mustHex("1a6f08cbfe080ff69f0922f8e8ceb2d36e7f7288b044725e343f16d9736906c4dfbe6316cd88858cfb3c711d8b95d85cab226647da5f77c932143e8ee00f0e89" +
			"0000000000000000000000000000000000000000000000000000000000000000000000000000000000000000010000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000"),
			want: "KLUv/QBYbQIANAQabwjL/ggP9p8JIvjozrLTbn9yiLBEcl40PxbZc2kGxN++YxbNiIWM+zxxHYuV2FyrImZH2l93yTIUPo7gDw6JAAEAAgAEJwaY4Aw="},
		{name: "delegated token account", data: mustHex("33340918051a2f67ee9a2a171b0c3d3d539780c11a61250faff5f471465d78062c0cbeb3d6192702d6c38e065223b2055ff4f8a691a752f8933727c7e7f9944b0010a5d4e800000001000000dfbe6316cd88858cfb3c711d8b95d85cab226647da5f77c932143e8ee00f0e89" +
			"0100000000000000000000000000e8764817000000000000000000000000000000000000000000000000000000000000000000000000000000"),
			want: "KLUv/QBY5QMANAczNAkYBRovZ+6aKhcbDD09U5eAwRphJQ+v9fRxRl14BiwMvrPWGScC1sOOBlIjsgVf9PimkadS+JM3J8fn+ZRLABCl1OgAAAABAAAA375jFs2IhYz7PHEdi5XYXKsiZkfaX3fJMhQ+juAPDokBAOh2SBcAAgDBoy4Hzg=="},
	}
	for _, tt := range tests {
		acct := runtime.Account{Owner: otherOwner, Data: tt.data}
		got, err := EncodeAccount(acct, core.Pubkey{}, Base64Zstd, tt.slice, Options{})
		if err != nil {
			t.Fatalf("%s: EncodeAccount: %v", tt.name, err)
		}
		if got.Data.Encoded == nil || got.Data.Encoded[0] != tt.want {
			t.Errorf("%s: data = %s, want [%q,\"base64+zstd\"]", tt.name, mustJSON(t, got.Data), tt.want)
		}
	}
}

// Every non-empty frame carries the reference's header (no content size, the 2 MiB window),
// whatever the size, and still decodes.
func TestBase64ZstdHeader(t *testing.T) {
	t.Parallel()
	dec, err := zstd.NewReader(nil)
	if err != nil {
		t.Fatal(err)
	}
	defer dec.Close()
	for _, n := range []int{1, 165, 4096, 200_000, 3 << 20} {
		data := make([]byte, n)
		for i := range data {
			data[i] = byte(i*7 + i/13)
		}
		got, err := EncodeAccount(runtime.Account{Owner: otherOwner, Data: data}, core.Pubkey{}, Base64Zstd, nil, Options{})
		if err != nil {
			t.Fatal(err)
		}
		frame, err := base64.StdEncoding.DecodeString(got.Data.Encoded[0])
		if err != nil {
			t.Fatal(err)
		}
		if want := []byte{0x28, 0xb5, 0x2f, 0xfd, 0x00, 0x58}; !bytes.Equal(frame[:6], want) {
			t.Errorf("%d bytes: header % x, want % x", n, frame[:6], want)
		}
		plain, err := dec.DecodeAll(frame, nil)
		if err != nil || !bytes.Equal(plain, data) {
			t.Errorf("%d bytes: decoded %d bytes, err %v", n, len(plain), err)
		}
	}
}

func mustHex(s string) []byte {
	b, err := hex.DecodeString(s)
	if err != nil {
		panic(err)
	}
	return b
}

// The blocks written as libzstd writes them (referenceBlock) decode to the data, whatever its shape: runs,
// repeats at many distances, random bytes, token-account-like layouts, sizes around the raw-literals and
// sequence-count limits.
func TestBase64ZstdReferenceBlocksDecode(t *testing.T) {
	t.Parallel()
	dec, err := zstd.NewReader(nil)
	if err != nil {
		t.Fatal(err)
	}
	defer dec.Close()
	rng := rand.New(rand.NewPCG(7, 9))
	gen := []func(n int) []byte{
		func(n int) []byte { return make([]byte, n) },
		func(n int) []byte {
			b := make([]byte, n)
			for i := range b {
				b[i] = byte(rng.Uint32())
			}
			return b
		},
		func(n int) []byte { // random keys separated by zeros, as account data
			b := make([]byte, n)
			for i := 0; i < n; i += 64 {
				for j := i; j < min(i+32, n); j++ {
					b[j] = byte(rng.Uint32())
				}
			}
			return b
		},
		func(n int) []byte { // a short alphabet: many matches at many offsets
			b := make([]byte, n)
			for i := range b {
				b[i] = "abcab"[rng.IntN(5)]
			}
			return b
		},
		func(n int) []byte { // a repeated phrase with mutations
			b := make([]byte, n)
			for i := range b {
				b[i] = byte(i % (3 + rng.IntN(40)))
				if rng.IntN(50) == 0 {
					b[i] = byte(rng.Uint32())
				}
			}
			return b
		},
	}
	reproduced := 0
	for round := range 600 {
		n := 1 + rng.IntN(3000)
		if round%7 == 0 {
			n = 1 + rng.IntN(300)
		}
		data := gen[round%len(gen)](n)
		if _, ok := referenceBlock(data); ok {
			reproduced++
		}
		got, err := EncodeAccount(runtime.Account{Owner: otherOwner, Data: data}, core.Pubkey{}, Base64Zstd, nil, Options{})
		if err != nil {
			t.Fatal(err)
		}
		frame, err := base64.StdEncoding.DecodeString(got.Data.Encoded[0])
		if err != nil {
			t.Fatal(err)
		}
		plain, err := dec.DecodeAll(frame, nil)
		if err != nil || !bytes.Equal(plain, data) {
			t.Fatalf("round %d (%d bytes): decoded %d bytes, err %v; frame % x", round, n, len(plain), err, frame)
		}
	}
	if reproduced < 100 {
		t.Errorf("only %d of 600 inputs written as libzstd writes them", reproduced)
	}
}

// BenchmarkBase64ZstdTokenAccount: a 165-byte token account in base64+zstd (libzstd's block, reproduced).
func BenchmarkBase64ZstdTokenAccount(b *testing.B) {
	data := mustHex("1a6f08cbfe080ff69f0922f8e8ceb2d36e7f7288b044725e343f16d9736906c4dfbe6316cd88858cfb3c711d8b95d85cab226647da5f77c932143e8ee00f0e89" +
		"0000000000000000000000000000000000000000000000000000000000000000000000000000000000000000010000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000")
	acct := runtime.Account{Owner: otherOwner, Data: data}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := EncodeAccount(acct, core.Pubkey{}, Base64Zstd, nil, Options{}); err != nil {
			b.Fatal(err)
		}
	}
}
