package ledger

import (
	"strings"
	"testing"
)

func TestParseAccountSnapshot(t *testing.T) {
	const ok = `{
  "83astBRguLMdt2h5U1Tpdq5tjFoJ6noeGwaY3mDLVcri": {"lamports": 5, "owner": "11111111111111111111111111111111", "executable": false, "rentEpoch": 7, "data": "AQID", "parsedData": null},
  "SysvarC1ock11111111111111111111111111111111": {"lamports": 1, "owner": "Sysvar1111111111111111111111111111111111111", "executable": false, "rentEpoch": 0, "data": ""},
  "4EXSeLGxVBpAZwq7vm6evLdewpcvE2H56fpqL2pPiLFa": null
}`
	accts, skipped, err := ParseAccountSnapshot([]byte(ok), "f")
	if err != nil || skipped != 2 || len(accts) != 1 {
		t.Fatalf("got %v skipped %d err %v", accts, skipped, err)
	}
	a := accts[0]
	if a.Pubkey.String() != "83astBRguLMdt2h5U1Tpdq5tjFoJ6noeGwaY3mDLVcri" || a.Lamports != 5 || a.RentEpoch != 7 || string(a.Data) != "\x01\x02\x03" {
		t.Fatalf("account %+v", a)
	}
	for _, bad := range []struct{ text, want string }{
		{`[]`, "not surfpool's account snapshot"},
		{`null`, "not surfpool's account snapshot"},
		{`{"x": null}`, "not an address"},
		{`{"83astBRguLMdt2h5U1Tpdq5tjFoJ6noeGwaY3mDLVcri": {"owner": "11111111111111111111111111111111", "data": ""}}`, "needs lamports"},
		{`{"83astBRguLMdt2h5U1Tpdq5tjFoJ6noeGwaY3mDLVcri": {"lamports": 1, "owner": "nope", "data": ""}}`, "invalid owner"},
		{`{"83astBRguLMdt2h5U1Tpdq5tjFoJ6noeGwaY3mDLVcri": {"lamports": 1, "owner": "11111111111111111111111111111111"}}`, "no data"},
		{`{"83astBRguLMdt2h5U1Tpdq5tjFoJ6noeGwaY3mDLVcri": {"lamports": 1, "owner": "11111111111111111111111111111111", "data": "%%"}}`, "not base64"},
		{`{} {}`, "text after"},
	} {
		if _, _, err := ParseAccountSnapshot([]byte(bad.text), "f"); err == nil || !strings.Contains(err.Error(), bad.want) {
			t.Errorf("%s: err %v, want %q", bad.text, err, bad.want)
		}
	}
}

func FuzzParseAccountSnapshot(f *testing.F) {
	f.Add([]byte(`{"83astBRguLMdt2h5U1Tpdq5tjFoJ6noeGwaY3mDLVcri": {"lamports": 5, "owner": "11111111111111111111111111111111", "executable": false, "rentEpoch": 7, "data": "AQID", "parsedData": null}}`))
	f.Add([]byte(`{"4EXSeLGxVBpAZwq7vm6evLdewpcvE2H56fpqL2pPiLFa": null}`))
	f.Fuzz(func(t *testing.T, raw []byte) {
		accts, _, err := ParseAccountSnapshot(raw, "f")
		if err != nil {
			return
		}
		for _, a := range accts {
			if a.Lamports == 0 {
				t.Fatalf("an account without lamports passed: %+v", a)
			}
		}
	})
}
