package jsonrpc

import (
	"context"
	"encoding/json"
	"time"
)

// Dispatcher runs one JSON-RPC method. params is the raw "params" value (nil when absent or null).
type Dispatcher interface {
	// Call returns the result to encode, or an error. ws tells which transport asked (a method served only on the
	// other transport must answer as unknown: -32601 Method not found).
	Call(ctx context.Context, method string, params json.RawMessage, ws bool) (any, error)
}

// Observer hears of every call the transports answer, to count them (impl/metrics); the transports never
// import what implements it. ObserveCall runs on the request's goroutine once the call's reply is built, so it
// must be quick and safe for concurrent use.
type Observer interface {
	// ObserveCall reports one call. method is as the client sent it ("" when the request had none that could be
	// read; an Observer must not trust it to be a known name), ws tells the transport, code is 0 for a result
	// and otherwise the error code of the reply (a request the transport refused before running anything, such
	// as a body that is not JSON, counts as one call with method ""), elapsed is the call's run time.
	ObserveCall(method string, ws bool, code int, elapsed time.Duration)
}

// CodedError is what errors.As looks for: a JSON-RPC error with its code and optional data.
// Error() is the reply's "message".
type CodedError interface {
	error
	ErrorCode() int
	// ErrorData returns the "data" member; nil (or a value that encodes as null) means no "data" key.
	ErrorData() any
}

// Standard JSON-RPC 2.0 codes, with the texts jsonrpc-core uses (docs/reference-behaviour.md §1.2).
const (
	CodeParseError     = -32700
	CodeInvalidRequest = -32600
	CodeMethodNotFound = -32601
	CodeInvalidParams  = -32602
	CodeInternalError  = -32603
)

// Error is a ready-made CodedError for callers that have no error type of their own.
type Error struct {
	Code    int
	Message string
	Data    any // nil: no "data" key
}

func (e *Error) Error() string  { return e.Message }
func (e *Error) ErrorCode() int { return e.Code }
func (e *Error) ErrorData() any { return e.Data }

var _ CodedError = (*Error)(nil)

// The transport's own errors. They are values, never mutated.
var (
	errParse              = &Error{Code: CodeParseError, Message: "Parse error"}
	errInvalidRequest     = &Error{Code: CodeInvalidRequest, Message: "Invalid request"}
	errUnsupportedVersion = &Error{Code: CodeInvalidRequest, Message: "Unsupported JSON-RPC protocol version"}
	errInternal           = &Error{Code: CodeInternalError, Message: "Internal error"}
)

// MethodNotFound returns the reply a Dispatcher gives for a method it does not serve on the asking transport.
func MethodNotFound() *Error { return &Error{Code: CodeMethodNotFound, Message: "Method not found"} }
