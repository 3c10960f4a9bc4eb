package encoding

import (
	"encoding/base64"
	"errors"

	"ledgerd/impl/core"
)

func init() {
	Register(core.BPFLoaderUpgradeableProgramID, "bpf-upgradeable-loader", parseUpgradeableLoader)
}

var errNotLoaderState = errors.New("bpf-upgradeable-loader account not parsable")

// parseUpgradeableLoader is the reference's parse_bpf_upgradeable_loader (bincode UpgradeableLoaderState):
// buffers and program data show the bytes after their header as a base64 pair.
func parseUpgradeableLoader(_ core.Pubkey, data []byte, _ Lookup) (any, error) {
	r := layout{b: data}
	tag := r.u32()
	optPubkey := func() *core.Pubkey {
		switch r.u8() {
		case 0:
			return nil
		case 1:
			k := r.pubkey()
			return &k
		default:
			r.bad = true
			return nil
		}
	}
	program := func(off int) []string { return []string{base64.StdEncoding.EncodeToString(data[off:]), "base64"} }
	switch tag {
	case 0:
		if r.bad {
			return nil, errNotLoaderState
		}
		return map[string]any{"type": "uninitialized"}, nil
	case 1:
		authority := optPubkey()
		if r.bad {
			return nil, errNotLoaderState
		}
		// The data starts after the full header (37 bytes), or 5 bytes in without an authority.
		off := 37
		if authority == nil {
			off = 5
		}
		return typed("buffer", map[string]any{"authority": optPubkeyValue(authority), "data": program(off)}), nil
	case 2:
		k := r.pubkey()
		if r.bad {
			return nil, errNotLoaderState
		}
		return typed("program", map[string]any{"programData": k.String()}), nil
	case 3:
		slot := r.u64()
		authority := optPubkey()
		if r.bad {
			return nil, errNotLoaderState
		}
		off := 45
		if authority == nil {
			off = 13
		}
		return typed("programData", map[string]any{"slot": slot, "authority": optPubkeyValue(authority), "data": program(off)}), nil
	default:
		return nil, errNotLoaderState
	}
}
