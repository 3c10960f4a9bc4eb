package node

import (
	"context"
	"io"
	"log/slog"
	"testing"
	"time"

	"ledgerd/generated/rpcapi"
	"ledgerd/generated/rpcclient"
	"ledgerd/impl/core"
	"ledgerd/impl/programs"
	"ledgerd/impl/runtime"
)

// The node runs the module list it is given: a new ledger has the accounts of exactly those programs.
func TestNodeProgramModules(t *testing.T) {
	t.Parallel()
	extra := core.Pubkey{0xAB, 2}
	var mods []runtime.Module
	for _, m := range programs.All() {
		if m.ID != core.MemoV1ProgramID {
			mods = append(mods, m)
		}
	}
	mods = append(mods, runtime.Module{ID: extra, Name: "extra", Kind: runtime.Builtin,
		Genesis: runtime.Deployment{Loader: core.NativeLoaderProgramID, Data: "extra_program"}})
	n, err := Start(Config{LedgerDir: t.TempDir(), RPCPort: -1, WSPort: -1, NoSnapshots: true,
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil)), Programs: mods})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { n.Close(context.Background()) })
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	c := rpcclient.New(n.HTTPURL)
	base64 := rpcapi.AccountEncoding(rpcapi.AccountEncodingBase64)
	for id, want := range map[core.Pubkey]bool{extra: true, core.MemoV1ProgramID: false, core.MemoProgramID: true} {
		r, err := c.GetAccountInfo(ctx, &rpcapi.GetAccountInfoParams{Pubkey: id,
			Config: rpcapi.Some(rpcapi.AccountInfoConfig{Encoding: &base64})})
		if err != nil {
			t.Fatal(err)
		}
		if got := r.Value != nil; got != want {
			t.Errorf("account of %s exists = %v, want %v", id, got, want)
		}
	}
}
