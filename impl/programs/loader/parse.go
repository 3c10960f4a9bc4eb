package loader

import (
	"encoding/base64"
	"errors"

	"ledgerd/impl/core"
	"ledgerd/impl/programs/internal/jsonparsed"
	"ledgerd/impl/runtime"
)

var errNotLoaderState = errors.New("bpf-upgradeable-loader account not parsable")

// parseUpgradeableLoader is the reference's parse_bpf_upgradeable_loader (bincode UpgradeableLoaderState):
// buffers and program data show the bytes after their header as a base64 pair.
func parseUpgradeableLoader(_ core.Pubkey, data []byte, _ runtime.AccountLookup) (any, error) {
	r := jsonparsed.Layout{B: data}
	tag := r.U32()
	optPubkey := func() *core.Pubkey {
		switch r.U8() {
		case 0:
			return nil
		case 1:
			k := r.Pubkey()
			return &k
		default:
			r.Bad = true
			return nil
		}
	}
	program := func(off int) []string { return []string{base64.StdEncoding.EncodeToString(data[off:]), "base64"} }
	switch tag {
	case 0:
		if r.Bad {
			return nil, errNotLoaderState
		}
		return map[string]any{"type": "uninitialized"}, nil
	case 1:
		authority := optPubkey()
		if r.Bad {
			return nil, errNotLoaderState
		}
		// The data starts after the full header (37 bytes), or 5 bytes in without an authority.
		off := 37
		if authority == nil {
			off = 5
		}
		return jsonparsed.Typed("buffer", map[string]any{"authority": jsonparsed.OptPubkey(authority), "data": program(off)}), nil
	case 2:
		k := r.Pubkey()
		if r.Bad {
			return nil, errNotLoaderState
		}
		return jsonparsed.Typed("program", map[string]any{"programData": k.String()}), nil
	case 3:
		slot := r.U64()
		authority := optPubkey()
		if r.Bad {
			return nil, errNotLoaderState
		}
		off := 45
		if authority == nil {
			off = 13
		}
		return jsonparsed.Typed("programData", map[string]any{"slot": slot, "authority": jsonparsed.OptPubkey(authority), "data": program(off)}), nil
	default:
		return nil, errNotLoaderState
	}
}
