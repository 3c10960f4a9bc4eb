package pubsub

import (
	"bytes"
	"encoding/json"
	"strconv"

	"ledgerd/generated/rpcapi"
	"ledgerd/impl/core"
	"ledgerd/impl/encoding"
	"ledgerd/impl/ledger"
	"ledgerd/impl/parse"
	"ledgerd/impl/runtime"
)

// The worker matches an event against the registry under h.mu (read), then encodes and sends outside it: a
// subscription's parameters never change, and its index entries are copied on removal.

// delivery is a notification due to the connections of one subscription; pubkey and acct are set for account
// and program notifications.
type delivery struct {
	s      *sub
	to     []*connState
	pubkey core.Pubkey
	acct   runtime.Account
}

// notifyAccounts notifies the account and program subscriptions at commitment c of the accounts keys, as bank
// holds them; a subscription hears of account k when it was made before the event numbered seqOf(k).
func (h *Hub) notifyAccounts(slot uint64, bank *ledger.Bank, c ledger.Commitment, keys []core.Pubkey,
	seqOf func(core.Pubkey) uint64) {
	if bank == nil || len(keys) == 0 {
		return
	}
	var ds []delivery
	h.mu.RLock()
	accounts, programs := h.accounts[c], h.programs[c]
	if len(accounts) > 0 || len(programs) > 0 {
		for _, k := range keys {
			if len(accounts[k]) == 0 && len(programs) == 0 {
				continue
			}
			acct, _ := bank.GetAccount(k)
			ds = h.matchAccount(ds, seqOf(k), c, slot, k, acct)
		}
	}
	h.mu.RUnlock()
	h.sendAccounts(ds, slot, bank)
}

// matchAccount appends the deliveries due for account pk, now acct, at commitment c. A program subscription sees
// existing accounts owned by its program that pass its filters. Caller holds h.mu (read).
func (h *Hub) matchAccount(ds []delivery, seq uint64, c ledger.Commitment, slot uint64, pk core.Pubkey,
	acct runtime.Account) []delivery {
	for _, s := range h.accounts[c][pk] {
		if to := s.targets(seq, c, slot); len(to) > 0 {
			ds = append(ds, delivery{s: s, to: to, pubkey: pk, acct: acct})
		}
	}
	if acct.Lamports == 0 {
		return ds
	}
	for _, s := range h.programs[c][acct.Owner] {
		if s.match != nil && !s.match(acct.Data) {
			continue
		}
		if to := s.targets(seq, c, slot); len(to) > 0 {
			ds = append(ds, delivery{s: s, to: to, pubkey: pk, acct: acct})
		}
	}
	return ds
}

func (h *Hub) sendAccounts(ds []delivery, slot uint64, bank *ledger.Bank) {
	if len(ds) == 0 {
		return
	}
	var lookup encoding.Lookup
	if bank != nil {
		lookup = bank.GetAccount
	}
	ctx := rpcapi.NotificationContext{Slot: slot}
	for _, d := range ds {
		acct := d.acct
		if acct.Lamports == 0 {
			// A deleted account is sent as the default account, as the reference does.
			acct = runtime.Account{Owner: core.SystemProgramID}
		}
		ui, err := encoding.EncodeAccount(acct, d.pubkey, d.s.encoding, d.s.slice, encoding.Options{Notification: true, Lookup: lookup})
		if err != nil {
			h.log.Error("pubsub: encoding an account notification", "account", d.pubkey, "err", err)
			continue
		}
		if d.s.kind == kindProgram {
			// jsonParsed token accounts that do not parse are left out, as getProgramAccounts leaves them out.
			if d.s.encoding == encoding.JSONParsed && isTokenProgram(acct.Owner) && ui.Data.Parsed == nil {
				continue
			}
			h.send(d.s, d.to, rpcapi.ProgramNotification{Context: ctx,
				Value: rpcapi.KeyedAccount{Pubkey: d.pubkey.String(), Account: ui}})
			continue
		}
		h.send(d.s, d.to, rpcapi.AccountNotification{Context: ctx, Value: ui})
	}
}

// notifyOutcome notifies the signature and logs subscriptions at commitment c of one transaction of slot; keys
// are its full account keys. Signature subscriptions are removed once notified.
func (h *Hub) notifyOutcome(seq, slot uint64, c ledger.Commitment, tx *core.Transaction, keys []core.Pubkey,
	txErr *runtime.TransactionError, logs []string) {
	h.notifyOutcomeFrom(0, seq, slot, c, tx, keys, txErr, logs)
}

// notifyOutcomeFrom is notifyOutcome for the subscriptions made at or after queue item from only.
func (h *Hub) notifyOutcomeFrom(from, seq, slot uint64, c ledger.Commitment, tx *core.Transaction, keys []core.Pubkey,
	txErr *runtime.TransactionError, logs []string) {
	sig := tx.Signature()
	var sigs, logSubs []delivery
	h.mu.RLock()
	for _, s := range h.signatures[sig] {
		if s.commitment == c {
			if to := s.targetsFrom(from, seq, c, slot); len(to) > 0 {
				sigs = append(sigs, delivery{s: s, to: to})
			}
		}
	}
	if all := h.logsAll[c]; len(all) > 0 {
		vote := isSimpleVote(tx)
		for _, s := range all {
			if s.logs == logsAllWithVotes || !vote {
				if to := s.targetsFrom(from, seq, c, slot); len(to) > 0 {
					logSubs = append(logSubs, delivery{s: s, to: to})
				}
			}
		}
	}
	if mentions := h.logsMentions[c]; len(mentions) > 0 {
		for _, k := range keys {
			for _, s := range mentions[k] {
				if to := s.targetsFrom(from, seq, c, slot); len(to) > 0 {
					logSubs = append(logSubs, delivery{s: s, to: to})
				}
			}
		}
	}
	h.mu.RUnlock()

	ctx := rpcapi.NotificationContext{Slot: slot}
	if len(sigs) > 0 {
		h.sendAll(sigs, rpcapi.SignatureNotification{Context: ctx, Value: rpcapi.SignatureNotificationValue{
			Processed: &rpcapi.SignatureNotificationValueProcessed{Err: parse.TransactionErr(txErr)}}})
		// The processed notification is the last: the node removes the subscription, as the reference does.
		h.mu.Lock()
		for _, d := range sigs {
			for _, cs := range d.to {
				if h.conns[cs.conn] == cs {
					h.release(cs, d.s)
				}
			}
		}
		h.mu.Unlock()
	}
	if len(logSubs) > 0 {
		if logs == nil {
			logs = []string{}
		}
		h.sendAll(logSubs, rpcapi.LogsNotification{Context: ctx, Value: rpcapi.LogsNotificationValue{
			Signature: sig.String(), Err: parse.TransactionErr(txErr), Logs: logs}})
	}
}

// notifyBlock notifies the signature, logs and block subscriptions at commitment c of the transactions of a
// slot that reached c. The block's transactions come from the record; only a slot frozen before the node started
// has them read from the store, and only when someone watches them.
func (h *Hub) notifyBlock(seq, slot uint64, c ledger.Commitment, rec *slotRecord) {
	info := rec.info
	if info == nil {
		return
	}
	h.mu.RLock()
	watched := len(h.logsAll[c]) > 0 || len(h.logsMentions[c]) > 0
	for i := 0; i < len(info.Signatures) && !watched; i++ {
		for _, s := range h.signatures[info.Signatures[i]] {
			watched = watched || s.commitment == c
		}
	}
	var blocks []delivery
	for _, s := range h.blocks[c] {
		if to := s.targets(seq, c, slot); len(to) > 0 {
			blocks = append(blocks, delivery{s: s, to: to})
		}
	}
	h.mu.RUnlock()
	if !watched && len(blocks) == 0 {
		return
	}
	txs, err := rec.txs, error(nil)
	if txs == nil {
		if txs, err = h.blockTxs(info); err != nil {
			h.log.Error("pubsub: reading a block's transactions", "slot", slot, "err", err)
		}
	}
	if watched && err == nil {
		for _, tx := range txs {
			h.notifyOutcome(seq, slot, c, tx.Tx, tx.Tx.Message.FullAccountKeys(tx.Meta.LoadedAddresses), tx.Meta.Err, tx.Meta.Logs)
		}
	}
	for _, d := range blocks {
		if note, ok := h.blockNotification(slot, info, txs, err, d.s.block); ok {
			h.send(d.s, d.to, note)
		}
	}
}

// onReceived sends "receivedSignature" to the signature subscriptions that asked for it; they stay.
func (h *Hub) onReceived(it *item) {
	var ds []delivery
	h.mu.RLock()
	for _, s := range h.signatures[it.sig] {
		if s.received {
			if to := s.targets(it.seq, ledger.Processed, anySlot); len(to) > 0 {
				ds = append(ds, delivery{s: s, to: to})
			}
		}
	}
	h.mu.RUnlock()
	received := "receivedSignature"
	h.sendAll(ds, rpcapi.SignatureNotification{Context: rpcapi.NotificationContext{Slot: it.recvSlot},
		Value: rpcapi.SignatureNotificationValue{Received: &received}})
}

// broadcast sends result to the subscriptions of a parameterless method (list reads its index under h.mu).
func (h *Hub) broadcast(seq uint64, list func() subList, result any) {
	var ds []delivery
	h.mu.RLock()
	for _, s := range list() {
		if to := s.targets(seq, ledger.Processed, anySlot); len(to) > 0 {
			ds = append(ds, delivery{s: s, to: to})
		}
	}
	h.mu.RUnlock()
	h.sendAll(ds, result)
}

func (h *Hub) slotUpdate(it *item, typ rpcapi.SlotUpdateType, slot uint64, parent *uint64, stats *rpcapi.SlotUpdateStats) {
	h.broadcast(it.seq, func() subList { return h.slotsUpdates }, rpcapi.SlotUpdate{
		Type: typ, Slot: slot, Timestamp: uint64(it.at.UnixMilli()), Parent: parent, Stats: stats})
}

func slotInfo(parent, root, slot uint64) rpcapi.SlotInfo {
	return rpcapi.SlotInfo{Parent: parent, Root: root, Slot: slot}
}

// frozenStats are the frozen update's counts. The producer runs transactions one at a time, so each is its own
// entry.
func frozenStats(info *ledger.BlockInfo) *rpcapi.SlotUpdateStats {
	n, failed := uint64(len(info.Signatures)), uint64(0)
	for _, f := range info.Failed {
		if f {
			failed++
		}
	}
	return &rpcapi.SlotUpdateStats{NumTransactionEntries: n, NumSuccessfulTransactions: n - failed,
		NumFailedTransactions: failed, MaxTransactionsPerEntry: min(n, 1)}
}

// sendAll sends the same result to several subscriptions, encoding it once.
func (h *Hub) sendAll(ds []delivery, result any) {
	if len(ds) == 0 {
		return
	}
	raw, err := encodeJSON(result)
	if err != nil {
		h.log.Error("pubsub: encoding a notification", "method", notificationMethods[ds[0].s.kind], "err", err)
		return
	}
	for _, d := range ds {
		h.sendEncoded(d.s, d.to, raw)
	}
}

func (h *Hub) send(s *sub, to []*connState, result any) {
	raw, err := encodeJSON(result)
	if err != nil {
		h.log.Error("pubsub: encoding a notification", "method", notificationMethods[s.kind], "err", err)
		return
	}
	h.sendEncoded(s, to, raw)
}

// sendEncoded sends {"result":result,"subscription":id} to each connection. A connection whose queue is full is
// dropped by the transport, which frees its subscriptions.
func (h *Hub) sendEncoded(s *sub, to []*connState, result []byte) {
	params := make([]byte, 0, len(result)+48)
	params = append(params, `{"result":`...)
	params = append(params, result...)
	params = append(params, `,"subscription":`...)
	params = strconv.AppendUint(params, s.id, 10)
	params = append(params, '}')
	method := notificationMethods[s.kind]
	for _, cs := range to {
		cs.notify(method, params)
	}
}

// encodeJSON marshals v as the reference's serde_json does: no HTML escaping.
func encodeJSON(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}

// isSimpleVote is the reference's is_simple_vote_transaction: a legacy transaction with at most two signatures
// and exactly one instruction, of the vote program. logsSubscribe "all" leaves these out.
func isSimpleVote(tx *core.Transaction) bool {
	m := &tx.Message
	if len(tx.Signatures) >= 3 || m.Version != core.VersionLegacy || len(m.Instructions) != 1 {
		return false
	}
	i := int(m.Instructions[0].ProgramIDIndex)
	return i < len(m.AccountKeys) && m.AccountKeys[i] == core.VoteProgramID
}

func isTokenProgram(k core.Pubkey) bool {
	return k == core.TokenProgramID || k == core.Token2022ProgramID
}
