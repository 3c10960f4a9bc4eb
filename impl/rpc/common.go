package rpc

import (
	"fmt"

	"ledgerd/generated/rpcapi"
	"ledgerd/impl/core"
	"ledgerd/impl/ledger"
)

// apiVersion is the version every wrapped HTTP reply carries in its context.
var apiVersion = Version

// rpcContext is the context of a wrapped reply evaluated at slot.
func rpcContext(slot uint64) rpcapi.RpcContext {
	return rpcapi.RpcContext{Slot: slot, ApiVersion: &apiVersion}
}

// commitmentOf reads an optional commitment, defaulting to finalized as the reference does.
func commitmentOf(c *rpcapi.Commitment) ledger.Commitment {
	if c == nil {
		return ledger.Finalized
	}
	level, ok := ledger.ParseCommitment(string(*c))
	if !ok {
		return ledger.Finalized
	}
	return level
}

// bankAt returns the bank of the commitment, checking minContextSlot (-32016 with the context slot when the
// bank is older).
func (s *Server) bankAt(c *rpcapi.Commitment, minContextSlot *uint64) (*ledger.Bank, error) {
	bank := s.ledger.Bank(commitmentOf(c))
	if minContextSlot != nil && bank.Slot < *minContextSlot {
		return nil, rpcapi.NewMinContextSlotNotReachedError(bank.Slot)
	}
	return bank, nil
}

// historyCommitment reads the commitment of a history method, which serves confirmed or finalized only:
// processed is refused with -32602 as the reference does.
func historyCommitment(c *rpcapi.Commitment) (ledger.Commitment, error) {
	level := commitmentOf(c)
	if level == ledger.Processed {
		return 0, rpcapi.NewUnsupportedCommitmentError()
	}
	return level, nil
}

// decodeWire decodes an encoded transaction or message parameter (base58, the default, or base64), with the
// reference's size limits and error texts.
func decodeWire(data string, encoding *string, what string) ([]byte, error) {
	enc := "base58"
	if encoding != nil {
		enc = *encoding
	}
	switch enc {
	case "base58", "binary":
		if len(data) > core.MaxBase58TransactionSize {
			return nil, rpcapi.NewInvalidParamsError(fmt.Sprintf("base58 encoded %s too large: %d bytes (max: encoded/raw %d/%d)",
				what, len(data), core.MaxBase58TransactionSize, core.PacketDataSize))
		}
		b, bad := rustBase58Decode(data)
		if bad != "" {
			return nil, rpcapi.NewInvalidParamsError("invalid base58 encoding: " + bad)
		}
		return checkWireSize(b, what)
	case "base64":
		if len(data) > core.MaxBase64TransactionSize {
			return nil, rpcapi.NewInvalidParamsError(fmt.Sprintf("base64 encoded %s too large: %d bytes (max: encoded/raw %d/%d)",
				what, len(data), core.MaxBase64TransactionSize, core.PacketDataSize))
		}
		b, bad := rustBase64Decode(data)
		if bad != "" {
			return nil, rpcapi.NewInvalidParamsError("invalid base64 encoding: " + bad)
		}
		return checkWireSize(b, what)
	default:
		return nil, rpcapi.NewInvalidParamsError(fmt.Sprintf("unsupported encoding: %s. Supported encodings: base58, base64", enc))
	}
}

func checkWireSize(b []byte, what string) ([]byte, error) {
	if len(b) > core.PacketDataSize {
		return nil, rpcapi.NewInvalidParamsError(fmt.Sprintf("decoded %s too large: %d bytes (max: %d bytes)", what, len(b), core.PacketDataSize))
	}
	return b, nil
}
