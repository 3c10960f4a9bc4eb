package main

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"ledgerd/generated/rpcapi"
	"ledgerd/generated/rpcclient"
)

// --snapshot FILE.json refuses a file that is not surfpool's account snapshot before anything starts, naming it.
func TestSnapshotFlagRefusesBadAccountSnapshot(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "bad.json")
	if err := os.WriteFile(file, []byte(`{"83astBRguLMdt2h5U1Tpdq5tjFoJ6noeGwaY3mDLVcri": {"lamports": 1, "owner": "11111111111111111111111111111111", "data": "%%"}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	err := run([]string{"--ledger", filepath.Join(dir, "ledger"), "--snapshot", file}, io.Discard, &stderr)
	if err == nil || !strings.Contains(err.Error(), "bad.json") || !strings.Contains(err.Error(), "not base64") {
		t.Fatalf("run = %v", err)
	}
	if err := run([]string{"--ledger", filepath.Join(dir, "ledger"), "--snapshot", filepath.Join(dir, "missing.json")}, io.Discard, &stderr); err == nil {
		t.Fatal("a missing snapshot file was accepted")
	}
}

// surfpool's account snapshot loaded at start: `ledgerd --snapshot FILE.json` (twice, the later file winning)
// serves its accounts, and skips its null entries and sysvars.
func TestAccountSnapshotBinary(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	dir := t.TempDir()
	first, second := filepath.Join(dir, "a.json"), filepath.Join(dir, "b.json")
	const key = "83astBRguLMdt2h5U1Tpdq5tjFoJ6noeGwaY3mDLVcri"
	if err := os.WriteFile(first, []byte(`{"`+key+`": {"lamports": 5, "owner": "11111111111111111111111111111111", "executable": false, "rentEpoch": 0, "data": "", "parsedData": null},
  "4EXSeLGxVBpAZwq7vm6evLdewpcvE2H56fpqL2pPiLFa": null,
  "SysvarC1ock11111111111111111111111111111111": {"lamports": 1, "owner": "Sysvar1111111111111111111111111111111111111", "executable": false, "rentEpoch": 0, "data": ""}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(second, []byte(`{"`+key+`": {"lamports": 7000000, "owner": "11111111111111111111111111111111", "executable": false, "rentEpoch": 0, "data": "AQID", "parsedData": null}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	bin := buildBinary(t)
	_, url := startBinary(t, bin, "--ledger", filepath.Join(dir, "ledger"), "--snapshot", first, "--snapshot", second, "--slot-ms", "20")
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	var info struct {
		Value *struct {
			Lamports uint64    `json:"lamports"`
			Data     [2]string `json:"data"`
		} `json:"value"`
	}
	if err := rpcclient.New(url).Call(ctx, rpcapi.MethodGetAccountInfo, []any{key, map[string]string{"encoding": "base64", "commitment": "processed"}}, &info); err != nil {
		t.Fatal(err)
	}
	if info.Value == nil || info.Value.Lamports != 7000000 || info.Value.Data[0] != "AQID" {
		t.Fatalf("the snapshot's account: %+v", info.Value)
	}
}
