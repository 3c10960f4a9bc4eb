package suite

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"

	"github.com/mr-tron/base58"

	"ledgerd/generated/rpcapi"
	"ledgerd/impl/core"
)

// Call is one case being run: the shared Env, the case's own variables and, for WebSocket cases, its own
// connection (so its notifications are its own).
type Call struct {
	Env  *Env
	Vars Vars
	ws   *wsConn
}

// provider makes variables for one case on demand: transactions signed with a fresh blockhash (a blockhash
// lives only 150 slots, so they cannot be made once for the whole run), the current slot, ...
type provider func(ctx context.Context, c *Call) (Vars, error)

var providers = map[string]provider{}

func provide(p provider, names ...string) {
	for _, n := range names {
		providers[n] = p
	}
}

func init() {
	// A signed transfer from the funded wallet to the recipient, not sent: {{tx}} (base58), {{tx64}}, its
	// signature {{txSig}} and its message {{msg64}} / {{msg58}}.
	provide(transferVars, "tx", "tx64", "txSig", "msg64")
	// The same with its signature spoiled: signature verification fails.
	provide(badSigVars, "badSigTx", "badSigTx64")
	// A transfer of more lamports than the wallet holds: the preflight simulation fails.
	provide(overdraftVars, "overdraftTx", "overdraftTx64")
	// A transfer signed over a blockhash the node never produced.
	provide(staleVars, "staleTx", "staleTx64", "staleMsg64")
	provide(blockhashVars, "blockhash", "lastValidBlockHeight")
}

// fill resolves every {{name}} in s and returns s with the values in place.
func (c *Call) fill(ctx context.Context, s string) (string, error) {
	for _, name := range placeholders(s) {
		if err := c.resolve(ctx, name); err != nil {
			return "", err
		}
	}
	return c.Vars.fill(s), nil
}

// resolve makes the variable name available in c.Vars.
func (c *Call) resolve(ctx context.Context, name string) error {
	if _, ok := c.Vars[name]; ok {
		return nil
	}
	e := c.Env
	if v, ok := e.vars[name]; ok {
		c.Vars[name] = v
		return nil
	}
	if mv := e.missing[name]; mv != nil {
		return mv
	}
	p, ok := providers[name]
	if !ok {
		return fmt.Errorf("the suite has no variable {{%s}}", name)
	}
	vars, err := p(ctx, c)
	if err != nil {
		if mv := (*missingVar)(nil); errors.As(err, &mv) {
			return mv
		}
		return fmt.Errorf("making {{%s}}: %w", name, err)
	}
	for k, v := range vars {
		c.Vars[k] = v
	}
	return nil
}

func txVars(prefix string, tx *core.Transaction) Vars {
	raw := tx.Serialize()
	return Vars{prefix: encode58(raw), prefix + "64": base64.StdEncoding.EncodeToString(raw)}
}

func transferVars(ctx context.Context, c *Call) (Vars, error) {
	if c.Env.recipient.IsZero() {
		return nil, c.Env.missingOr("recipient")
	}
	tx, err := c.Env.transferTx(ctx, c.Env.recipient, c.Env.uniqueLamports(1_000))
	if err != nil {
		return nil, err
	}
	v := txVars("tx", tx)
	v["txSig"] = tx.Signature().String()
	v["msg64"] = base64.StdEncoding.EncodeToString(tx.Message.Serialize())
	return v, nil
}

func badSigVars(ctx context.Context, c *Call) (Vars, error) {
	if c.Env.recipient.IsZero() {
		return nil, c.Env.missingOr("recipient")
	}
	tx, err := c.Env.transferTx(ctx, c.Env.recipient, c.Env.uniqueLamports(1_000))
	if err != nil {
		return nil, err
	}
	tx.Signatures[0][7] ^= 0xff
	return txVars("badSigTx", tx), nil
}

func overdraftVars(ctx context.Context, c *Call) (Vars, error) {
	if c.Env.recipient.IsZero() {
		return nil, c.Env.missingOr("recipient")
	}
	tx, err := c.Env.transferTx(ctx, c.Env.recipient, c.Env.uniqueLamports(1_000_000_000_000_000))
	if err != nil {
		return nil, err
	}
	return txVars("overdraftTx", tx), nil
}

func staleVars(ctx context.Context, c *Call) (Vars, error) {
	e := c.Env
	if e.payer.IsZero() {
		return nil, e.missingOr("wallet")
	}
	tx := core.NewTransferTx(e.payer, randomKey(), e.uniqueLamports(1_000_000), core.Hash(randomKey()))
	v := txVars("staleTx", tx)
	v["staleMsg64"] = base64.StdEncoding.EncodeToString(tx.Message.Serialize())
	return v, nil
}

func blockhashVars(ctx context.Context, c *Call) (Vars, error) {
	cctx, cancel := c.Env.withTimeout(ctx)
	defer cancel()
	bh, err := c.Env.client.GetLatestBlockhash(cctx, nil)
	if err != nil {
		return nil, fmt.Errorf("getLatestBlockhash: %w", err)
	}
	return Vars{"blockhash": bh.Value.Blockhash, "lastValidBlockHeight": fmt.Sprint(bh.Value.LastValidBlockHeight)}, nil
}

// Subscribe subscribes over the case's connection and returns the subscription id as written.
func (c *Call) Subscribe(ctx context.Context, method, params string) (string, error) {
	if c.ws == nil {
		return "", errors.New("subscribing needs the case to run over the WebSocket")
	}
	cctx, cancel := c.Env.withTimeout(ctx)
	defer cancel()
	rep, err := c.ws.call(cctx, method, params)
	if err != nil {
		return "", err
	}
	if rep.Err != nil {
		return "", fmt.Errorf("%s: %w", method, rep.Err)
	}
	if rep.Envelope != nil {
		return "", fmt.Errorf("%s: %v", method, rep.Envelope)
	}
	return string(rep.Result), nil
}

// Send submits the transaction in variable name (base58) with sendTransaction over HTTP.
func (c *Call) Send(ctx context.Context, name string) error {
	tx, err := c.fill(ctx, "{{"+name+"}}")
	if err != nil {
		return err
	}
	cctx, cancel := c.Env.withTimeout(ctx)
	defer cancel()
	rep, err := c.Env.http.call(cctx, rpcapi.MethodSendTransaction, `["`+tx+`"]`)
	if err != nil {
		return err
	}
	if rep.Err != nil {
		return fmt.Errorf("sendTransaction: %w", rep.Err)
	}
	return rep.Envelope
}

func encode58(b []byte) string { return base58.Encode(b) }

func decode58(s string) ([]byte, error) { return base58.Decode(s) }

// uniqueLamports varies an amount per transaction, so two transfers signed over the same blockhash are never the
// same transaction (which the node would refuse as already processed).
func (e *Env) uniqueLamports(base uint64) uint64 { return base + e.seq.Add(1) }
