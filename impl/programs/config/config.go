// Package config is the config program's module: its account at genesis and the jsonParsed
// view of config accounts (stake config and validator info), as the reference's
// parse_config shows them. ledgerd does not execute its instructions yet.
package config

import (
	"bytes"
	"encoding/json"
	"errors"
	"strconv"
	"strings"
	"unicode/utf8"

	"ledgerd/generated/rpcapi"
	"ledgerd/impl/core"
	"ledgerd/impl/programs/internal/jsonparsed"
	"ledgerd/impl/runtime"
)

// Module is the config program as the node assembles it.
var Module = runtime.Module{
	ID:           core.ConfigProgramID,
	Name:         "config",
	Kind:         runtime.Builtin,
	Genesis:      runtime.Deployment{Loader: core.NativeLoaderProgramID, Data: "config_program"},
	ParseAccount: &runtime.AccountParser{Program: "config", Parse: parseConfig},
}

// ValidatorInfoID is the first key of a validator-info config account.
var ValidatorInfoID = core.MustParsePubkey("Va1idator1nfo111111111111111111111111111111")

var errNotConfig = errors.New("config account not parsable")

// ConfigKey is one entry of a config account's key list.
type ConfigKey struct {
	Pubkey core.Pubkey
	Signer bool
}

// decodeConfigKeys reads the key list at the start of a config account (a short_vec of (pubkey, bool)) and
// returns it with the config data after it.
func decodeConfigKeys(data []byte) ([]ConfigKey, []byte, bool) {
	n, used, err := core.DecodeShortU16(data)
	if err != nil {
		return nil, nil, false
	}
	r := jsonparsed.Layout{B: data, Off: used}
	keys := make([]ConfigKey, 0, min(int(n), len(data)/33))
	for range n {
		keys = append(keys, ConfigKey{Pubkey: r.Pubkey(), Signer: r.Boolean()})
		if r.Bad {
			return nil, nil, false
		}
	}
	return keys, data[r.Off:], true
}

// parseConfig is the reference's parse_config: a validator-info account (first key Va1idator1nfo…, data a JSON
// string shown as the JSON value it holds); other config accounts are not parsable. Since 4.1 that includes the
// stake config account, which the reference no longer parses (it falls back to base64).
func parseConfig(_ core.Pubkey, data []byte, _ runtime.AccountLookup) (any, error) {
	keys, rest, ok := decodeConfigKeys(data)
	if !ok {
		return nil, errNotConfig
	}
	if len(keys) == 0 || keys[0].Pubkey != ValidatorInfoID {
		return nil, errNotConfig
	}
	r := jsonparsed.Layout{B: rest}
	n := r.U64()
	if r.Bad || n > uint64(len(rest)-r.Off) {
		return nil, errNotConfig
	}
	text := r.Take(int(n))
	if !utf8.Valid(text) {
		return nil, errNotConfig
	}
	value, ok := serdeJSONValue(text)
	if !ok {
		return nil, errNotConfig
	}
	uiKeys := make([]any, len(keys))
	for i, k := range keys {
		uiKeys[i] = map[string]any{"pubkey": k.Pubkey.String(), "signer": k.Signer}
	}
	return jsonparsed.Typed("validatorInfo", map[string]any{"keys": uiKeys, "configData": value}), nil
}

// serdeJSONValue parses text as serde_json::Value would and returns a value that marshals as serde_json writes
// it back: object keys sorted, integers that fit i64/u64 kept, other numbers as f64 (2.0 stays 2.0).
func serdeJSONValue(text []byte) (any, bool) {
	dec := json.NewDecoder(bytes.NewReader(text))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, false
	}
	if _, err := dec.Token(); err == nil { // trailing data
		return nil, false
	}
	return serdeNumbers(v), true
}

func serdeNumbers(v any) any {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			x[k] = serdeNumbers(e)
		}
	case []any:
		for i, e := range x {
			x[i] = serdeNumbers(e)
		}
	case json.Number:
		s := string(x)
		if !strings.ContainsAny(s, ".eE") {
			if _, err := strconv.ParseInt(s, 10, 64); err == nil {
				return x
			}
			if _, err := strconv.ParseUint(s, 10, 64); err == nil {
				return x
			}
		}
		f, _ := strconv.ParseFloat(s, 64)
		return rpcapi.Float(f)
	}
	return v
}
