package rpcapi

import (
	"context"
	"encoding/json"
)

// Stand-ins for what the generator emits from the schema next to the runtime (the Handler interface, the dispatch
// table and the catalogue's constructors the runtime builds its own errors with). This file is not copied.

// Handler stands in for the generated interface of every method.
type Handler interface {
	GetHealth(ctx context.Context) (string, error)
}

// Methods stands in for the generated dispatch table.
var Methods = map[string]*MethodInfo{
	"getHealth": {Name: "getHealth", call: func(ctx context.Context, h Handler, raw json.RawMessage) (any, error) {
		if _, err := splitParams(raw, 0); err != nil {
			return nil, err
		}
		return h.GetHealth(ctx)
	}},
}

const (
	CodeInvalidParams         = -32602
	CodeMethodNotFound        = -32601
	CodeMethodNotAvailable    = -32601
	CodeUnsupportedCommitment = -32602
)

func NewInvalidParamsError(message string) *Error {
	return &Error{Code: CodeInvalidParams, Message: message}
}

func NewMethodNotFoundError() *Error {
	return &Error{Code: CodeMethodNotFound, Message: "Method not found"}
}

func NewMethodNotAvailableError(method string) *Error {
	return &Error{Code: CodeMethodNotAvailable, Message: "Method not available yet: " + method}
}

func NewUnsupportedCommitmentError() *Error {
	return &Error{Code: CodeUnsupportedCommitment, Message: "Method does not support commitment below `confirmed`"}
}
