package pubsub

import (
	"encoding/json"
	"strconv"
	"strings"

	"ledgerd/generated/rpcapi"
	"ledgerd/impl/core"
	"ledgerd/impl/encoding"
	"ledgerd/impl/ledger"
	"ledgerd/impl/parse"
)

// The subscribe calls below take the generated params, already validated by the dispatcher, apply the
// reference's defaults, and register the subscription for conn. Two subscriptions share an id when their
// method and parameters are the same after the defaults are applied (the reference compares its parsed
// params the same way). minContextSlot is accepted and ignored, as in the reference. Keys and signatures come
// from the generated accessors (p.XBytes()): the bytes Validate decoded, or Validate's error when it has not run.

// Account subscribes to one account (accountNotification). Default encoding binary, commitment finalized.
func (h *Hub) Account(c Conn, p *rpcapi.AccountSubscribeParams) (uint64, error) {
	pk := p.Pubkey
	s := &sub{kind: kindAccount, pubkey: pk, encoding: encoding.Binary, commitment: ledger.Finalized}
	if cfg, ok := p.Config.Get(); ok {
		s.commitment = commitmentOf(cfg.Commitment)
		if cfg.Encoding != nil {
			s.encoding = *cfg.Encoding
		}
		s.slice = copySlice(cfg.DataSlice)
	}
	s.key = key(s.kind, pk.String(), string(s.encoding), sliceKey(s.slice), s.commitment.String())
	return h.add(c, s)
}

// Program subscribes to the accounts owned by a program (programNotification). match is the compiled filter
// list (nil keeps every account): the caller compiles it as getProgramAccounts does, so both share the checks
// and their error texts.
func (h *Hub) Program(c Conn, p *rpcapi.ProgramSubscribeParams, match func(data []byte) bool) (uint64, error) {
	pk := p.ProgramId
	s := &sub{kind: kindProgram, pubkey: pk, encoding: encoding.Binary, commitment: ledger.Finalized, match: match}
	filters := ""
	if cfg, ok := p.Config.Get(); ok {
		s.commitment = commitmentOf(cfg.Commitment)
		if cfg.Encoding != nil {
			s.encoding = *cfg.Encoding
		}
		s.slice = copySlice(cfg.DataSlice)
		if cfg.Filters != nil && len(*cfg.Filters) > 0 {
			b, err := json.Marshal(*cfg.Filters)
			if err != nil {
				return 0, rpcapi.NewInvalidParamsError("Invalid params: " + err.Error())
			}
			filters = string(b)
		}
	}
	// withContext is left out of the key: notifications are wrapped either way.
	s.key = key(s.kind, pk.String(), string(s.encoding), sliceKey(s.slice), s.commitment.String(), filters)
	return h.add(c, s)
}

// Logs subscribes to the logs of processed transactions (logsNotification).
func (h *Hub) Logs(c Conn, p *rpcapi.LogsSubscribeParams) (uint64, error) {
	s := &sub{kind: kindLogs, commitment: ledger.Finalized}
	if cfg, ok := p.Config.Get(); ok {
		s.commitment = commitmentOf(cfg.Commitment)
	}
	var filter string
	switch f := p.Filter; {
	case f.Mentions != nil:
		if len(f.Mentions.Mentions) != 1 {
			return 0, rpcapi.NewInvalidParamsError("Invalid Request: Only 1 address supported")
		}
		mentions, err := f.Mentions.MentionsBytes()
		if err != nil {
			return 0, err
		}
		pk, err := pubkeyOf(mentions[0], nil)
		if err != nil {
			return 0, err
		}
		s.logs, s.pubkey, filter = logsMentions, pk, "mentions:"+pk.String()
	case f.All != nil && *f.All == "allWithVotes":
		s.logs, filter = logsAllWithVotes, *f.All
	default:
		s.logs, filter = logsAll, "all"
	}
	s.key = key(s.kind, filter, s.commitment.String())
	return h.add(c, s)
}

// Signature subscribes to the outcome of one transaction (signatureNotification). The node removes the
// subscription after its processed notification.
func (h *Hub) Signature(c Conn, p *rpcapi.SignatureSubscribeParams) (uint64, error) {
	sig := p.Signature
	s := &sub{kind: kindSignature, sig: sig, commitment: ledger.Finalized}
	if cfg, ok := p.Config.Get(); ok {
		s.commitment = commitmentOf(cfg.Commitment)
		s.received = cfg.EnableReceivedNotification != nil && *cfg.EnableReceivedNotification
	}
	s.key = key(s.kind, sig.String(), s.commitment.String(), strconv.FormatBool(s.received))
	return h.add(c, s)
}

// Slot subscribes to the creation of banks (slotNotification).
func (h *Hub) Slot(c Conn) (uint64, error) { return h.add(c, &sub{kind: kindSlot, key: key(kindSlot)}) }

// SlotsUpdates subscribes to the stages of every slot (slotsUpdatesNotification).
func (h *Hub) SlotsUpdates(c Conn) (uint64, error) {
	return h.add(c, &sub{kind: kindSlotsUpdates, key: key(kindSlotsUpdates)})
}

// Root subscribes to new roots (rootNotification).
func (h *Hub) Root(c Conn) (uint64, error) { return h.add(c, &sub{kind: kindRoot, key: key(kindRoot)}) }

// Vote subscribes to votes (voteNotification): the node's own, one per slot, as they execute.
func (h *Hub) Vote(c Conn) (uint64, error) { return h.add(c, &sub{kind: kindVote, key: key(kindVote)}) }

// blockOptions is how a block subscription wants its blocks.
type blockOptions struct {
	parse.BlockOptions
	mentions *core.Pubkey
}

// Block subscribes to blocks reaching confirmed or finalized (blockNotification). Defaults as the reference:
// encoding base64, transactionDetails full, showRewards false, commitment finalized.
func (h *Hub) Block(c Conn, p *rpcapi.BlockSubscribeParams) (uint64, error) {
	o := &blockOptions{BlockOptions: parse.BlockOptions{Encoding: rpcapi.TransactionEncodingBase64,
		Details: rpcapi.TransactionDetailsFull}}
	s := &sub{kind: kindBlock, commitment: ledger.Finalized, block: o}
	filter := "all"
	if m := p.Filter.MentionsAccountOrProgram; m != nil {
		pk, err := pubkeyOf(m.MentionsAccountOrProgramBytes())
		if err != nil {
			return 0, err
		}
		o.mentions, filter = &pk, "mentions:"+pk.String()
	}
	if cfg, ok := p.Config.Get(); ok {
		s.commitment = commitmentOf(cfg.Commitment)
		if cfg.Encoding != nil {
			o.Encoding = *cfg.Encoding
		}
		if cfg.TransactionDetails != nil {
			o.Details = *cfg.TransactionDetails
		}
		o.Rewards = cfg.ShowRewards != nil && *cfg.ShowRewards
		if v := cfg.MaxSupportedTransactionVersion; v != nil {
			n := *v
			o.MaxVersion = &n
		}
	}
	if s.commitment == ledger.Processed {
		return 0, rpcapi.NewUnsupportedCommitmentError()
	}
	maxVersion := "none"
	if o.MaxVersion != nil {
		maxVersion = strconv.Itoa(int(*o.MaxVersion))
	}
	s.key = key(s.kind, filter, s.commitment.String(), string(o.Encoding), string(o.Details), strconv.FormatBool(o.Rewards), maxVersion)
	return h.add(c, s)
}

// commitmentOf reads an optional commitment; the default is finalized.
func commitmentOf(c *rpcapi.Commitment) ledger.Commitment {
	if c == nil {
		return ledger.Finalized
	}
	if level, ok := ledger.ParseCommitment(string(*c)); ok {
		return level
	}
	return ledger.Finalized
}

func key(k kind, parts ...string) string {
	return subscribeMethods[k] + "\x00" + strings.Join(parts, "\x00")
}

func sliceKey(s *rpcapi.DataSlice) string {
	if s == nil {
		return "-"
	}
	return strconv.FormatUint(s.Offset, 10) + ":" + strconv.FormatUint(s.Length, 10)
}

func copySlice(s *rpcapi.DataSlice) *rpcapi.DataSlice {
	if s == nil {
		return nil
	}
	c := *s
	return &c
}

// pubkeyOf takes a key from its generated accessor.
func pubkeyOf(b []byte, err error) (core.Pubkey, error) {
	if err != nil {
		return core.Pubkey{}, err
	}
	k, err := core.PubkeyFromBytes(b)
	if err != nil {
		return k, rpcapi.NewInvalidParamsError("Invalid Request: Invalid pubkey provided")
	}
	return k, nil
}
