package rpc

import (
	"context"
	"errors"
	"fmt"
	"time"

	"ledgerd/generated/rpcapi"
	"ledgerd/impl/core"
	"ledgerd/impl/encoding"
	"ledgerd/impl/ledger"
	"ledgerd/impl/parse"
	"ledgerd/impl/runtime"
)

// wireTxType is the Rust type name the reference puts in its transaction decoding errors.
const wireTxType = "solana_transaction::versioned::VersionedTransaction"

// maxSignaturesForAddressLimit is the default and the largest limit of getSignaturesForAddress.
const maxSignaturesForAddressLimit = 1000

// decodeWireTx decodes the transaction parameter of sendTransaction and simulateTransaction with the reference's
// texts: the encoding and size errors of decodeWire, then `failed to deserialize …`.
func decodeWireTx(data string, enc *string) (*core.Transaction, error) {
	wire, err := decodeWire(data, enc, wireTxType)
	if err != nil {
		return nil, err
	}
	tx, err := core.DecodeTransaction(wire)
	if err != nil {
		return nil, rpcapi.NewInvalidParamsError(fmt.Sprintf("failed to deserialize %s: %v", wireTxType, err))
	}
	return tx, nil
}

// sanitizeWireTx applies what the reference's sanitize_transaction checks before a transaction may be simulated
// or sent: the structural checks, then the loading of its address lookup tables in bank, which it returns for
// the simulation and the producer to reuse.
func sanitizeWireTx(tx *core.Transaction, bank *ledger.Bank) (*ledger.Lookups, error) {
	if err := tx.Sanitize(); err != nil {
		return nil, rpcapi.NewInvalidParamsError("invalid transaction: " + err.Error())
	}
	lk := bank.ResolveLookups(&tx.Message)
	if lk.Err != nil {
		return nil, rpcapi.NewInvalidParamsError("invalid transaction: " + lk.Err.Error())
	}
	return lk, nil
}

// encodeTxVersionErr maps impl/parse's version refusal to -32015.
func encodeTxVersionErr(err error) error {
	var v *parse.UnsupportedVersionError
	if errors.As(err, &v) {
		return rpcapi.NewUnsupportedTransactionVersionError(v.Version)
	}
	return err
}

// simulationValue is the value of simulateTransaction and the data of a -32002 preflight failure: every key is
// always present, logs an array even when nothing ran. As the reference since its 3.x line, it carries the fee
// the balances and token balances of its accounts, and the addresses its lookup tables loaded (all null when the
// transaction would not be processed).
func simulationValue(sim *ledger.Simulation) rpcapi.SimulateTransactionValue {
	res := sim.Result
	logs := res.Logs
	if logs == nil {
		logs = []string{}
	}
	v := rpcapi.SimulateTransactionValue{
		Err:                    parse.TransactionErr(res.Err),
		Logs:                   logs,
		UnitsConsumed:          res.ComputeUnitsConsumed,
		LoadedAccountsDataSize: res.LoadedAccountsDataSize,
		ReturnData:             parse.EncodeReturnData(res.ReturnData),
	}
	// A transaction refused before it would be processed (signatures, blockhash, fee payer) has no fee, balances
	// or loaded addresses: the reference writes null for each.
	if !res.Processed {
		return v
	}
	v.Fee = &res.Fee
	v.LoadedAddresses = uiLoadedAddresses(sim.Loaded)
	v.PreBalances, v.PostBalances = sim.PreBalances, sim.PostBalances
	if sim.PreBalances != nil {
		v.PreTokenBalances = parse.TokenBalances(sim.PreTokenBalances)
		v.PostTokenBalances = parse.TokenBalances(sim.PostTokenBalances)
	}
	return v
}

// signatureFailure is the simulation of a transaction whose signatures do not verify: since its 3.x line the
// reference answers it as a simulation that failed with SignatureFailure before running (no fee, no balances),
// instead of the -32003 error it used to answer.
func signatureFailure(loaded *core.LoadedAddresses) *ledger.Simulation {
	return &ledger.Simulation{Result: &runtime.Result{Err: runtime.NewTransactionError(runtime.TxSignatureFailure)},
		Loaded: loaded}
}

// uiLoadedAddresses is loadedAddresses: the lookup tables' keys, empty lists for a transaction without lookups.
func uiLoadedAddresses(loaded *core.LoadedAddresses) *rpcapi.LoadedAddresses {
	out := &rpcapi.LoadedAddresses{Writable: []rpcapi.Pubkey{}, Readonly: []rpcapi.Pubkey{}}
	if loaded != nil {
		for _, k := range loaded.Writable {
			out.Writable = append(out.Writable, k.String())
		}
		for _, k := range loaded.Readonly {
			out.Readonly = append(out.Readonly, k.String())
		}
	}
	return out
}

// SendTransaction checks the transaction as the reference does (decode, preflight bank and minContextSlot,
// sanitize, then unless skipPreflight: signatures, health and a simulation), runs it in the working bank and
// returns its signature. Like the reference, which forwards and answers at once, the outcome of the execution
// itself is not reported: clients read it with getSignatureStatuses.
func (s *Server) SendTransaction(ctx context.Context, p *rpcapi.SendTransactionParams) (rpcapi.SendTransactionResult, error) {
	cfg := p.Config.OrZero()
	tx, err := decodeWireTx(p.Transaction, cfg.Encoding)
	if err != nil {
		return "", err
	}
	skip := cfg.SkipPreflight != nil && *cfg.SkipPreflight
	commitment := cfg.PreflightCommitment
	if skip {
		processed := rpcapi.Commitment(ledger.Processed.String())
		commitment = &processed
	}
	bank, err := s.bankAt(commitment, cfg.MinContextSlot)
	if err != nil {
		return "", err
	}
	lookups, err := sanitizeWireTx(tx, bank)
	if err != nil {
		return "", err
	}
	// A leader drops a transaction whose signatures do not verify; with skipPreflight the reference still
	// answers with the signature, so only the execution is left out. Without it, the failed verification is the
	// preflight's failure (SignatureFailure), as the reference answers it since its 3.x line.
	verified := s.ledger.SignaturesAccepted(tx)
	if !skip {
		var sim *ledger.Simulation
		if !verified {
			sim = signatureFailure(lookups.Loaded)
		} else {
			if err := s.healthError(); err != nil {
				return "", err
			}
			if sim, err = s.ledger.Simulate(bank, tx, false, lookups); err != nil {
				return "", err
			}
		}
		if res := sim.Result; res.Err != nil {
			// The reference writes this data through a serde_json Value: keys sorted at every depth.
			data, err := serdeValue(simulationValue(sim))
			if err != nil {
				return "", err
			}
			return "", rpcapi.NewSendTransactionPreflightFailureError(res.Err.Error(), data)
		}
	}
	if verified {
		s.signatureReceived(tx.Signature())
		if _, err := s.ledger.ExecuteResolved(ctx, tx, lookups); err != nil {
			return "", err
		}
	}
	return tx.Signature().String(), nil
}

// SimulateTransaction runs the transaction against the bank of the commitment without recording it.
func (s *Server) SimulateTransaction(ctx context.Context, p *rpcapi.SimulateTransactionParams) (rpcapi.SimulateTransactionResult, error) {
	cfg := p.Config.OrZero()
	var out rpcapi.SimulateTransactionResult
	tx, err := decodeWireTx(p.Transaction, cfg.Encoding)
	if err != nil {
		return out, err
	}
	bank, err := s.bankAt(cfg.Commitment, cfg.MinContextSlot)
	if err != nil {
		return out, err
	}
	sigVerify := cfg.SigVerify != nil && *cfg.SigVerify
	replace := cfg.ReplaceRecentBlockhash != nil && *cfg.ReplaceRecentBlockhash
	if replace && sigVerify {
		return out, rpcapi.NewInvalidParamsError("sigVerify may not be used with replaceRecentBlockhash")
	}
	lookups, err := sanitizeWireTx(tx, bank)
	if err != nil {
		return out, err
	}
	var sim *ledger.Simulation
	if sigVerify && !s.ledger.SignaturesAccepted(tx) {
		sim = signatureFailure(lookups.Loaded)
	} else if sim, err = s.ledger.Simulate(bank, tx, replace, lookups); err != nil {
		return out, err
	}
	res := sim.Result
	value := simulationValue(sim)
	keys := tx.Message.AccountKeys
	if cfg.Accounts != nil {
		if value.Accounts, err = simulatedAccounts(bank, keys, res, cfg.Accounts); err != nil {
			return out, err
		}
	}
	if cfg.InnerInstructions != nil && *cfg.InnerInstructions && parse.RanInstructions(res.Processed, res.Err) {
		if value.InnerInstructions, err = parse.EncodeInnerInstructions(res.InnerInstructions, keys, true); err != nil {
			return out, err
		}
	}
	if sim.ReplacementBlockhash != nil {
		value.ReplacementBlockhash = &rpcapi.RpcBlockhash{
			Blockhash:            sim.ReplacementBlockhash.String(),
			LastValidBlockHeight: sim.LastValidBlockHeight,
		}
	}
	out.Context = rpcContext(bank.Slot)
	out.Value = value
	return out, nil
}

// simulatedAccounts is the `accounts` of a simulation: each requested address as the transaction left it (its
// own accounts, including ones it did not create, which the reference loads as empty system accounts), or as the
// bank holds it; all null when the simulation failed.
func simulatedAccounts(bank *ledger.Bank, keys []core.Pubkey, res *runtime.Result, req *rpcapi.SimulateTransactionConfigAccounts) ([]*rpcapi.UiAccount, error) {
	enc := encoding.Base64
	if req.Encoding != nil {
		enc = rpcapi.AccountEncoding(*req.Encoding)
	}
	if enc == encoding.Binary || enc == encoding.Base58 {
		return nil, rpcapi.NewInvalidParamsError("base58 encoding not supported")
	}
	if len(req.Addresses) > len(keys) {
		return nil, rpcapi.NewInvalidParamsError(fmt.Sprintf("Too many accounts provided; max %d", len(keys)))
	}
	addrs, err := decodedPubkeys(req.AddressesBytes())
	if err != nil {
		return nil, err
	}
	out := make([]*rpcapi.UiAccount, len(req.Addresses))
	if res.Err != nil {
		return out, nil
	}
	written := make(map[core.Pubkey]runtime.Account, len(res.Writes))
	for _, w := range res.Writes {
		written[w.Pubkey] = w.Account
	}
	inTx := make(map[core.Pubkey]bool, len(keys))
	for _, k := range keys {
		inTx[k] = true
	}
	for i, k := range addrs {
		acct, ok := written[k]
		if !ok {
			if acct, ok, err = bank.Account(k); err != nil {
				return nil, err
			}
		}
		if !ok && inTx[k] {
			acct, ok = runtime.Account{RentEpoch: runtime.RentExemptRentEpoch}, true
		}
		if !ok {
			continue
		}
		ui, err := encoding.EncodeAccount(acct, k, enc, nil, encoding.Options{Lookup: bank.GetAccount})
		if err != nil {
			return nil, err
		}
		out[i] = &ui
	}
	return out, nil
}

// RequestAirdrop sends lamports from the faucet and returns the transaction's signature once it is processed. A
// request over the per-request cap is the reference's faucet failure, a bare -32603; an empty faucet and a
// recipient past the per-time cap get errors that say so, and none of these is logged (a client can repeat them
// at will).
func (s *Server) RequestAirdrop(ctx context.Context, p *rpcapi.RequestAirdropParams) (rpcapi.RequestAirdropResult, error) {
	to := p.Pubkey
	sig, err := s.ledger.Airdrop(ctx, to, p.Lamports)
	var empty *ledger.FaucetEmptyError
	var limited *ledger.FaucetLimitError
	var failed *ledger.AirdropFailedError
	switch {
	case err == nil:
		return sig.String(), nil
	case errors.Is(err, ledger.ErrAirdropTooLarge), errors.As(err, &failed):
		return "", rpcapi.NewInternalErrorError()
	case errors.As(err, &empty):
		return "", rpcapi.NewFaucetEmptyError(empty.Available, empty.Needed)
	case errors.As(err, &limited):
		return "", rpcapi.NewFaucetRateLimitedError(limited.Recipient.String(), limited.Cap,
			uint64(limited.Slice/time.Second), limited.Given, limited.Requested)
	}
	return "", err // logged by the transport, answered as -32603
}

// GetSignatureStatuses reports the status of each signature from the status cache (and, when asked, the
// history), in the context of the processed bank.
func (s *Server) GetSignatureStatuses(ctx context.Context, p *rpcapi.GetSignatureStatusesParams) (rpcapi.GetSignatureStatusesResult, error) {
	var out rpcapi.GetSignatureStatusesResult
	if len(p.Signatures) > 256 {
		return out, rpcapi.NewInvalidParamsError("Too many inputs provided; max 256")
	}
	sigs := p.Signatures
	search := p.Config.OrZero().SearchTransactionHistory
	// The reference reads statuses from its processed bank, the newest frozen one it voted on, and answers in its
	// context: a transaction of the working bank has no status yet, and the context slot is the frozen one. Both
	// matter to clients. web3.js's confirmTransaction polls once right after subscribing and throws the error of a
	// status it finds, where the notification would have resolved with it; its durable-nonce confirmation, once it
	// reads the advanced nonce at processed (here the working bank), asks for the status until the context slot
	// reaches the nonce's, and takes no status then for an expired transaction.
	_, frozen, _ := s.ledger.Slots()
	statuses, err := s.ledger.SignatureStatuses(sigs, search)
	if err != nil {
		return out, err
	}
	out.Context = rpcContext(frozen)
	out.Value = make([]*rpcapi.SignatureStatus, len(statuses))
	for i, st := range statuses {
		if st == nil || st.Slot > frozen {
			continue
		}
		level := rpcapi.TransactionConfirmationStatus(st.Status.String())
		out.Value[i] = &rpcapi.SignatureStatus{
			Slot:               st.Slot,
			Confirmations:      st.Confirmations,
			Status:             parse.TransactionStatus(st.Err),
			Err:                parse.TransactionErr(st.Err),
			ConfirmationStatus: &level,
		}
	}
	return out, nil
}

// addressSignature is one entry of getSignaturesForAddress before it takes the shape of either method.
type addressSignature struct {
	rec       *ledger.TxRecord
	finalized bool
}

// signaturesForAddress is the common part of getSignaturesForAddress and its deprecated form.
// The keys come as the generated accessors return them (the bytes Validate decoded).
func (s *Server) signaturesForAddress(addr core.Pubkey, before, until func() ([]byte, error), limit *uint64, c *rpcapi.Commitment, minContextSlot *uint64) ([]addressSignature, error) {
	beforeSig, err := decodedOptionalSignature(before())
	if err != nil {
		return nil, err
	}
	untilSig, err := decodedOptionalSignature(until())
	if err != nil {
		return nil, err
	}
	n := uint64(maxSignaturesForAddressLimit)
	if limit != nil {
		n = *limit
	}
	if n == 0 || n > maxSignaturesForAddressLimit {
		return nil, rpcapi.NewInvalidParamsError(fmt.Sprintf("Invalid limit; max %d", maxSignaturesForAddressLimit))
	}
	level, err := historyCommitment(c)
	if err != nil {
		return nil, err
	}
	_, confirmed, root := s.ledger.Slots()
	highest := root
	if level == ledger.Confirmed {
		highest = confirmed
	}
	if minContextSlot != nil && highest < *minContextSlot {
		return nil, rpcapi.NewMinContextSlotNotReachedError(highest)
	}
	recs, err := s.ledger.SignaturesForAddress(addr, beforeSig, untilSig, int(n), level)
	if err != nil {
		return nil, err
	}
	out := make([]addressSignature, len(recs))
	for i, rec := range recs {
		out[i] = addressSignature{rec: rec, finalized: rec.Slot <= root}
	}
	return out, nil
}

func addressSignatureMemo(rec *ledger.TxRecord) *string {
	if rec.MemoKnown { // an archive's address entry carries its memo, not the transaction
		return rec.Memo
	}
	var loaded *core.LoadedAddresses
	if rec.Meta != nil {
		loaded = rec.Meta.LoadedAddresses
	}
	return parse.ExtractMemo(rec.Tx, loaded)
}

func addressSignatureErr(rec *ledger.TxRecord) rpcapi.TransactionError {
	if rec.Meta == nil {
		return nil
	}
	return parse.TransactionErr(rec.Meta.Err)
}

// GetSignaturesForAddress lists the confirmed transactions that mention an address, newest first.
func (s *Server) GetSignaturesForAddress(ctx context.Context, p *rpcapi.GetSignaturesForAddressParams) (rpcapi.GetSignaturesForAddressResult, error) {
	cfg := p.Config.OrZero()
	entries, err := s.signaturesForAddress(p.Address, cfg.BeforeBytes, cfg.UntilBytes, cfg.Limit, cfg.Commitment, cfg.MinContextSlot)
	if err != nil {
		return nil, err
	}
	out := make(rpcapi.GetSignaturesForAddressResult, len(entries))
	for i, e := range entries {
		status := rpcapi.TransactionConfirmationStatusConfirmed
		if e.finalized {
			status = rpcapi.TransactionConfirmationStatusFinalized
		}
		blockTime := e.rec.BlockTime
		out[i] = rpcapi.ConfirmedSignatureInfo{
			Signature:          e.rec.Tx.Signature().String(),
			Slot:               e.rec.Slot,
			Err:                addressSignatureErr(e.rec),
			Memo:               addressSignatureMemo(e.rec),
			BlockTime:          &blockTime,
			ConfirmationStatus: &status,
		}
	}
	return out, nil
}

// GetConfirmedSignaturesForAddress2 is the deprecated getSignaturesForAddress, without confirmationStatus.
func (s *Server) GetConfirmedSignaturesForAddress2(ctx context.Context, p *rpcapi.GetConfirmedSignaturesForAddress2Params) (rpcapi.GetConfirmedSignaturesForAddress2Result, error) {
	cfg := p.Config.OrZero()
	entries, err := s.signaturesForAddress(p.Address, cfg.BeforeBytes, cfg.UntilBytes, cfg.Limit, cfg.Commitment, nil)
	if err != nil {
		return nil, err
	}
	out := make(rpcapi.GetConfirmedSignaturesForAddress2Result, len(entries))
	for i, e := range entries {
		blockTime := e.rec.BlockTime
		out[i] = rpcapi.DeprecatedConfirmedSignatureInfo{
			Signature: e.rec.Tx.Signature().String(),
			Slot:      e.rec.Slot,
			Err:       addressSignatureErr(e.rec),
			Memo:      addressSignatureMemo(e.rec),
			BlockTime: &blockTime,
		}
	}
	return out, nil
}

// confirmedTransaction looks a transaction up at a history commitment and encodes it; nil when it is unknown or
// not yet at that commitment.
func (s *Server) confirmedTransaction(sig core.Signature, c *rpcapi.Commitment, enc *rpcapi.TransactionEncoding, maxVersion *uint8) (*rpcapi.EncodedConfirmedTransactionWithMeta, error) {
	level, err := historyCommitment(c)
	if err != nil {
		return nil, err
	}
	rec, found, err := s.ledger.Transaction(sig, level)
	if err != nil || !found {
		return nil, err
	}
	if err := parse.CheckVersion(rec.Tx, maxVersion); err != nil {
		return nil, encodeTxVersionErr(err)
	}
	encodingName := rpcapi.TransactionEncodingJson
	if enc != nil {
		encodingName = *enc
	}
	encoded, err := parse.EncodeTransaction(parse.StoredTx(rec), encodingName, maxVersion != nil, true)
	if err != nil {
		return nil, encodeTxVersionErr(err)
	}
	blockTime := rec.BlockTime
	return &rpcapi.EncodedConfirmedTransactionWithMeta{
		Slot:        rec.Slot,
		Transaction: encoded.Transaction,
		Meta:        encoded.Meta,
		BlockTime:   &blockTime,
		Version:     encoded.Version,
	}, nil
}

// GetTransaction returns a confirmed transaction with its metadata, or null.
func (s *Server) GetTransaction(ctx context.Context, p *rpcapi.GetTransactionParams) (rpcapi.GetTransactionResult, error) {
	var (
		c          *rpcapi.Commitment
		enc        *rpcapi.TransactionEncoding
		maxVersion *uint8
	)
	if config, ok := p.Config.Get(); ok {
		enc = config.Encoding
		if cfg := config.Config; cfg != nil {
			c, enc, maxVersion = cfg.Commitment, cfg.Encoding, cfg.MaxSupportedTransactionVersion
		}
	}
	return s.confirmedTransaction(p.Signature, c, enc, maxVersion)
}

// GetConfirmedTransaction is the deprecated getTransaction: legacy transactions only, and a meta without rewards,
// loadedAddresses and returnData.
func (s *Server) GetConfirmedTransaction(ctx context.Context, p *rpcapi.GetConfirmedTransactionParams) (rpcapi.GetConfirmedTransactionResult, error) {
	var (
		c   *rpcapi.Commitment
		enc *rpcapi.TransactionEncoding
	)
	if config, ok := p.Config.Get(); ok {
		enc = config.Encoding
		if cfg := config.Config; cfg != nil {
			c, enc = cfg.Commitment, cfg.Encoding
		}
	}
	tx, err := s.confirmedTransaction(p.Signature, c, enc, nil)
	if err != nil || tx == nil {
		return nil, err
	}
	return &rpcapi.ConfirmedTransactionWithMeta{
		Slot:        tx.Slot,
		Transaction: tx.Transaction,
		Meta:        deprecatedTxMeta(tx.Meta),
		BlockTime:   tx.BlockTime,
	}, nil
}

// deprecatedTxMeta is the meta of the deprecated methods: the current one without rewards, loadedAddresses and
// returnData.
func deprecatedTxMeta(m *rpcapi.UiTransactionStatusMeta) *rpcapi.ConfirmedTransactionStatusMeta {
	if m == nil {
		return nil
	}
	return &rpcapi.ConfirmedTransactionStatusMeta{
		Err:                  m.Err,
		Status:               m.Status,
		Fee:                  m.Fee,
		PreBalances:          m.PreBalances,
		PostBalances:         m.PostBalances,
		InnerInstructions:    m.InnerInstructions,
		LogMessages:          m.LogMessages,
		PreTokenBalances:     m.PreTokenBalances,
		PostTokenBalances:    m.PostTokenBalances,
		ComputeUnitsConsumed: m.ComputeUnitsConsumed,
	}
}
