package suite

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"fmt"
	"sync/atomic"
	"time"

	"ledgerd/generated/rpcapi"
	"ledgerd/generated/rpcclient"
	"ledgerd/impl/core"
)

// The suite prepares its own state through the endpoint, as a client would: it funds a fresh keypair with
// requestAirdrop, makes a transfer, and waits for both by polling getSignatureStatuses. Everything goes through
// the generated typed client and the project's transaction builder (impl/core).

// fixture is one step of the preparation: what it provides (variables the cases use as {{name}}), what it
// needs, and how it is made. A fixture without Run is a hook for a later issue; the cases that use its
// variables are reported as not covered, with Later as the reason.
type fixture struct {
	Name     string
	Needs    []string
	Provides []string
	Run      func(ctx context.Context, e *Env) (Vars, error)
	Later    string
}

var fixtures = []fixture{
	{Name: "funded wallet", Provides: []string{"wallet", "airdropSig", "airdropSlot"}, Run: prepareWallet},
	{Name: "transfer", Needs: []string{"wallet"}, Provides: []string{"recipient", "transferSig", "transferSlot"}, Run: prepareTransfer},
	{Name: "node identity", Provides: []string{"identity"}, Run: prepareIdentity},
	{Name: "stake account", Provides: []string{"stakeAccount"}, Run: findOwnedBy("stakeAccount", core.StakeProgramID)},
	{Name: "vote account", Provides: []string{"voteAccount"}, Run: findOwnedBy("voteAccount", core.VoteProgramID)},
	{Name: "token mint and account", Needs: []string{"wallet"}, Provides: []string{"mint", "tokenAccount", "tokenOwner", "tokenDelegate"},
		Run: prepareToken},
	{Name: "address lookup table", Needs: []string{"wallet"}, Provides: []string{"lookupTable", "v0Sig", "v0Slot"},
		Run: prepareLookupTable},
}

// Lamports the suite asks the faucet for, and sends in its transfers.
const (
	airdropLamports  = 2_000_000_000
	transferLamports = 10_000_000
)

// Env is the state shared by every case: the endpoint, the prepared fixtures and the keypair paying for
// transactions.
type Env struct {
	http        *httpConn
	client      *rpcclient.Client
	wsURL       string
	callTimeout time.Duration
	waitTimeout time.Duration

	payer     core.Keypair
	recipient core.Pubkey

	vars    Vars
	missing map[string]*missingVar
	seq     atomic.Uint64
}

// missingVar says why a variable is not available.
type missingVar struct {
	Name    string
	Reason  string
	NotImpl bool // because the node does not implement a method the fixture needs
	Failed  bool // because preparing it failed (the failure is reported once, as a setup failure)
}

func (m *missingVar) Error() string {
	return fmt.Sprintf("{{%s}} is not available: %s", m.Name, m.Reason)
}

func newEnv(cfg *Config) *Env {
	e := &Env{
		http:        newHTTPConn(cfg.URL, cfg.HTTPClient),
		client:      rpcclient.New(cfg.URL),
		wsURL:       cfg.WSURL,
		callTimeout: cfg.CallTimeout,
		waitTimeout: cfg.WaitTimeout,
		vars:        Vars{},
		missing:     map[string]*missingVar{},
	}
	if cfg.HTTPClient != nil {
		e.client.HTTP = cfg.HTTPClient
	}
	e.vars["fresh"] = randomKey().String()
	e.vars["fresh2"] = randomKey().String()
	e.vars["unfunded"] = randomKey().String() // never funded by any case
	var sig core.Signature
	_, _ = rand.Read(sig[:])
	e.vars["freshSig"] = sig.String()
	e.vars["freshHash"] = core.Hash(randomKey()).String()
	e.vars["systemProgram"] = core.SystemProgramID.String()
	e.vars["sysvarOwner"] = core.SysvarOwnerID.String()
	e.vars["clockSysvar"] = core.SysvarClockID.String()
	e.vars["rentSysvar"] = core.SysvarRentID.String()
	e.vars["slotHashesSysvar"] = core.SysvarSlotHashesID.String()
	e.vars["stakeProgram"] = core.StakeProgramID.String()
	e.vars["voteProgram"] = core.VoteProgramID.String()
	e.vars["tokenProgram"] = core.TokenProgramID.String()
	e.vars["token2022Program"] = core.Token2022ProgramID.String()
	e.vars["memoProgram"] = core.MemoProgramID.String()
	return e
}

func randomKey() core.Pubkey {
	var k core.Pubkey
	_, _ = rand.Read(k[:])
	return k
}

// StepResult is how one fixture went.
type StepResult struct {
	Name     string   `json:"name"`
	Provides []string `json:"provides"`
	Outcome  Outcome  `json:"outcome"`
	Reason   string   `json:"reason,omitempty"`
	Millis   int64    `json:"millis"`
}

// prepare runs the fixtures in order. A fixture whose needs are missing is not run; its variables are missing
// for the same reason.
func (e *Env) prepare(ctx context.Context, logf func(string, ...any)) []StepResult {
	var steps []StepResult
	for _, f := range fixtures {
		start := time.Now()
		step := StepResult{Name: f.Name, Provides: f.Provides}
		var m *missingVar
		for _, n := range f.Needs {
			if mv := e.missing[n]; mv != nil {
				m = &missingVar{Reason: fmt.Sprintf("needs %s: %s", n, mv.Reason), NotImpl: mv.NotImpl, Failed: mv.Failed}
				break
			}
		}
		switch {
		case m != nil:
		case f.Run == nil:
			m = &missingVar{Reason: f.Later}
		default:
			vars, err := f.Run(ctx, e)
			if err != nil {
				m = &missingVar{Reason: err.Error()}
				var absent absentError
				switch {
				case notImplemented(err):
					m.NotImpl = true
				case errors.As(err, &absent):
				default:
					m.Failed = true
				}
			} else {
				for k, v := range vars {
					e.vars[k] = v
				}
			}
		}
		step.Millis = time.Since(start).Milliseconds()
		switch {
		case m == nil:
			step.Outcome = Pass
		case m.NotImpl:
			step.Outcome, step.Reason = NotImplemented, m.Reason
		case m.Failed && e.allPresent(f.Needs):
			step.Outcome, step.Reason = SetupFailed, m.Reason
		default:
			step.Outcome, step.Reason = NotCovered, m.Reason
		}
		if m != nil {
			for _, p := range f.Provides {
				mv := *m
				mv.Name = p
				e.missing[p] = &mv
			}
		}
		logf("setup: %-24s %s %s", f.Name, step.Outcome, step.Reason)
		steps = append(steps, step)
	}
	return steps
}

func (e *Env) allPresent(names []string) bool {
	for _, n := range names {
		if e.missing[n] != nil {
			return false
		}
	}
	return true
}

// absentError is a fixture the node cannot provide without being wrong (a node may have no stake account): the
// cases that need it are not covered, and nothing fails.
type absentError string

func (e absentError) Error() string { return string(e) }

// notImplemented reports an RPC error saying the node does not serve the method: -32601, either "Method not
// found" (the reference's answer for a method it does not have or has disabled) or ledgerd's "Method not
// available yet: <method>" for methods a later issue implements.
func notImplemented(err error) bool {
	if e, ok := rpcapi.AsError(err); ok {
		return e.Code == -32601
	}
	var re *RPCError
	if errors.As(err, &re) {
		return re.Code == -32601
	}
	var mv *missingVar
	if errors.As(err, &mv) {
		return mv.NotImpl
	}
	return false
}

func (e *Env) withTimeout(ctx context.Context) (context.Context, context.CancelFunc) {
	return context.WithTimeout(ctx, e.callTimeout)
}

func prepareWallet(ctx context.Context, e *Env) (Vars, error) {
	kp, err := core.NewKeypair()
	if err != nil {
		return nil, err
	}
	cctx, cancel := e.withTimeout(ctx)
	sig, err := e.client.RequestAirdrop(cctx, &rpcapi.RequestAirdropParams{Pubkey: kp.PublicKey(), Lamports: airdropLamports})
	cancel()
	if err != nil {
		return nil, fmt.Errorf("requestAirdrop: %w", err)
	}
	slot, err := e.waitFinalized(ctx, sig)
	if err != nil {
		return nil, fmt.Errorf("airdrop %s: %w", sig, err)
	}
	e.payer = kp
	return Vars{"wallet": kp.PublicKey().String(), "airdropSig": sig, "airdropSlot": fmt.Sprint(slot)}, nil
}

func prepareTransfer(ctx context.Context, e *Env) (Vars, error) {
	to, err := core.NewKeypair()
	if err != nil {
		return nil, err
	}
	tx, err := e.transferTx(ctx, to.PublicKey(), transferLamports)
	if err != nil {
		return nil, err
	}
	sig, err := e.send(ctx, tx)
	if err != nil {
		return nil, err
	}
	slot, err := e.waitFinalized(ctx, sig)
	if err != nil {
		return nil, fmt.Errorf("transfer %s: %w", sig, err)
	}
	e.recipient = to.PublicKey()
	return Vars{"recipient": to.PublicKey().String(), "transferSig": sig, "transferSlot": fmt.Sprint(slot)}, nil
}

func prepareIdentity(ctx context.Context, e *Env) (Vars, error) {
	cctx, cancel := e.withTimeout(ctx)
	defer cancel()
	id, err := e.client.GetIdentity(cctx)
	if err != nil {
		return nil, fmt.Errorf("getIdentity: %w", err)
	}
	return Vars{"identity": id.Identity}, nil
}

// findOwnedBy finds an account owned by program (the test validator's genesis has a vote and a stake account).
func findOwnedBy(name string, program core.Pubkey) func(ctx context.Context, e *Env) (Vars, error) {
	return func(ctx context.Context, e *Env) (Vars, error) {
		cctx, cancel := e.withTimeout(ctx)
		defer cancel()
		enc := rpcapi.AccountEncodingBase64
		res, err := e.client.GetProgramAccounts(cctx, &rpcapi.GetProgramAccountsParams{ProgramId: program,
			Config: rpcapi.Some(rpcapi.ProgramAccountsConfig{Encoding: &enc, DataSlice: &rpcapi.DataSlice{}})})
		if err != nil {
			return nil, fmt.Errorf("getProgramAccounts %s: %w", program, err)
		}
		if res.Accounts == nil || len(*res.Accounts) == 0 {
			return nil, absentError(fmt.Sprintf("the node has no account owned by %s", program))
		}
		return Vars{name: (*res.Accounts)[0].Pubkey}, nil
	}
}

// latestBlockhash asks for a blockhash at the default commitment (finalized), as clients do before signing.
func (e *Env) latestBlockhash(ctx context.Context) (core.Hash, error) {
	cctx, cancel := e.withTimeout(ctx)
	defer cancel()
	bh, err := e.client.GetLatestBlockhash(cctx, &rpcapi.GetLatestBlockhashParams{})
	if err != nil {
		return core.Hash{}, fmt.Errorf("getLatestBlockhash: %w", err)
	}
	return core.ParseHash(bh.Value.Blockhash)
}

// transferTx signs a transfer of lamports from the payer.
func (e *Env) transferTx(ctx context.Context, to core.Pubkey, lamports uint64) (*core.Transaction, error) {
	if e.payer.IsZero() {
		return nil, e.missingOr("wallet")
	}
	bh, err := e.latestBlockhash(ctx)
	if err != nil {
		return nil, err
	}
	return core.NewTransferTx(e.payer, to, lamports, bh), nil
}

func (e *Env) missingOr(name string) error {
	if mv := e.missing[name]; mv != nil {
		return mv
	}
	return &missingVar{Name: name, Reason: "not prepared"}
}

func (e *Env) send(ctx context.Context, tx *core.Transaction) (string, error) {
	cctx, cancel := e.withTimeout(ctx)
	defer cancel()
	enc := "base64"
	sig, err := e.client.SendTransaction(cctx, &rpcapi.SendTransactionParams{
		Transaction: base64.StdEncoding.EncodeToString(tx.Serialize()), Config: rpcapi.Some(rpcapi.SendTransactionConfig{Encoding: &enc})})
	if err != nil {
		return "", fmt.Errorf("sendTransaction: %w", err)
	}
	return sig, nil
}

// waitFinalized polls getSignatureStatuses until the transaction is finalized, so the cases may read it at the
// default commitment. It returns the transaction's slot.
func (e *Env) waitFinalized(ctx context.Context, sig string) (uint64, error) {
	ctx, cancel := context.WithTimeout(ctx, e.waitTimeout)
	defer cancel()
	parsed, err := core.ParseSignature(sig)
	if err != nil {
		return 0, fmt.Errorf("signature %q: %w", sig, err)
	}
	last := "not seen"
	for {
		cctx, ccancel := e.withTimeout(ctx)
		st, err := e.client.GetSignatureStatuses(cctx, &rpcapi.GetSignatureStatusesParams{Signatures: []core.Signature{parsed},
			Config: rpcapi.Some(rpcapi.GetSignatureStatusesConfig{SearchTransactionHistory: true})})
		ccancel()
		if err != nil {
			return 0, fmt.Errorf("getSignatureStatuses: %w", err)
		}
		if len(st.Value) == 1 && st.Value[0] != nil {
			s := st.Value[0]
			if s.Err != nil {
				return 0, fmt.Errorf("the transaction failed: %s", mustJSON(s.Err))
			}
			if s.ConfirmationStatus != nil {
				last = string(*s.ConfirmationStatus)
				if *s.ConfirmationStatus == rpcapi.TransactionConfirmationStatusFinalized {
					return s.Slot, nil
				}
			}
		}
		select {
		case <-ctx.Done():
			return 0, fmt.Errorf("not finalized within %s (last status: %s)", e.waitTimeout, last)
		case <-time.After(50 * time.Millisecond):
		}
	}
}
