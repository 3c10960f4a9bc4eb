package rpc

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"

	"ledgerd/generated/rpcapi"
	"ledgerd/impl/core"
	"ledgerd/impl/encoding"
	"ledgerd/impl/ledger"
	"ledgerd/impl/runtime"
)

// The whole-chain developer methods: surfpool's surfnet_resetNetwork and surfnet_exportSnapshot (its account
// snapshot JSON, which `ledgerd --snapshot FILE.json` loads at start), and ledgerd's own ledgerd_dumpState (the
// whole chain, history included, which `ledgerd --snapshot DIR` starts from).

func (s *Server) SurfnetResetNetwork(ctx context.Context) (r rpcapi.SurfnetResetNetworkResult, err error) {
	if err := s.cheat(rpcapi.MethodSurfnetResetNetwork); err != nil {
		return r, err
	}
	slot, err := s.ledger.ResetNetwork(ctx)
	if err != nil {
		return r, cheatError(err)
	}
	s.profiles.clear()
	return nullResponse(slot), nil
}

// isLoaderOwned reports whether owner is one of the BPF loaders, whose accounts (programs and their data)
// surfpool's snapshot leaves out by default.
func isLoaderOwned(owner core.Pubkey) bool {
	return owner == core.BPFLoaderProgramID || owner == core.BPFLoaderDeprecatedProgramID ||
		owner == core.BPFLoaderUpgradeableProgramID
}

func (s *Server) SurfnetExportSnapshot(ctx context.Context, p *rpcapi.SurfnetExportSnapshotParams) (r rpcapi.SurfnetExportSnapshotResult, err error) {
	if err := s.cheat(rpcapi.MethodSurfnetExportSnapshot); err != nil {
		return r, err
	}
	cfg := p.Config.OrZero()
	if err := checkSnapshotScope(cfg.Scope); err != nil {
		return r, err
	}
	parsed := cfg.IncludeParsedAccounts != nil && *cfg.IncludeParsedAccounts
	var withPrograms bool
	include, exclude := map[core.Pubkey]bool{}, map[core.Pubkey]bool{}
	if f := cfg.Filter; f != nil {
		withPrograms = f.IncludeProgramAccounts != nil && *f.IncludeProgramAccounts
		in, err := decodedPubkeys(f.IncludeAccountsBytes())
		if err != nil {
			return r, err
		}
		out, err := decodedPubkeys(f.ExcludeAccountsBytes())
		if err != nil {
			return r, err
		}
		for _, k := range in {
			include[k] = true
		}
		for _, k := range out {
			exclude[k] = true
		}
	}
	bank := s.ledger.Bank(ledger.Processed)
	value := map[string]rpcapi.AccountSnapshot{}
	var encErr error
	scanErr := bank.ScanAccounts(func(k core.Pubkey, a runtime.Account) bool {
		if a.Lamports == 0 || core.IsSysvarID(k) || exclude[k] || (isLoaderOwned(a.Owner) && !withPrograms && !include[k]) {
			return ctx.Err() == nil
		}
		snap := rpcapi.AccountSnapshot{Lamports: a.Lamports, Owner: a.Owner.String(), Executable: a.Executable,
			RentEpoch: a.RentEpoch, Data: base64.StdEncoding.EncodeToString(a.Data)}
		if parsed {
			ui, err := encoding.EncodeAccount(a, k, encoding.JSONParsed, nil, encoding.Options{Lookup: bank.GetAccount})
			if err != nil {
				encErr = err
				return false
			}
			if ui.Data.Parsed != nil {
				snap.ParsedData = ui.Data.Parsed
			}
		}
		value[k.String()] = snap
		return ctx.Err() == nil
	})
	if err := ctx.Err(); err != nil {
		return r, err
	}
	if scanErr != nil {
		return r, rpcapi.NewScanErrorError(scanErr.Error())
	}
	if encErr != nil {
		return r, encErr
	}
	return rpcapi.RpcResponseAccountSnapshots{Context: rpcContext(bank.Slot), Value: value}, nil
}

// checkSnapshotScope accepts surfpool's scope "network" (or none). Its other scope, {"preTransaction":
// signature}, exports an executed transaction's accounts as they were before it ran, from the profile surfpool
// keeps of every executed transaction; ledgerd profiles only on request, so it has none to export from.
func checkSnapshotScope(scope any) error {
	switch v := scope.(type) {
	case nil:
		return nil
	case string:
		if v == "network" {
			return nil
		}
	case map[string]any:
		if _, ok := v["preTransaction"]; ok && len(v) == 1 {
			return rpcapi.NewInvalidParamsError("Invalid scope: preTransaction needs the profile of an executed transaction, " +
				"which ledgerd does not keep (it profiles only through surfnet_profileTransaction); use \"network\"")
		}
	}
	b, _ := json.Marshal(scope)
	return rpcapi.NewInvalidParamsError(fmt.Sprintf("Invalid scope %s: want \"network\"", b))
}

func (s *Server) LedgerdDumpState(ctx context.Context, p *rpcapi.LedgerdDumpStateParams) (r rpcapi.LedgerdDumpStateResult, err error) {
	if err := s.cheat(rpcapi.MethodLedgerdDumpState); err != nil {
		return r, err
	}
	path, slot, err := s.ledger.DumpState(ctx, p.Path)
	if err != nil {
		return r, cheatError(err)
	}
	return rpcapi.DumpStateResult{Path: path, Slot: slot}, nil
}
