package jsonrpc

import (
	"context"
	"math"
	"time"
)

// Defaults of Limits. A 50 KiB body holds about a thousand calls, and one call such as getLeaderSchedule or an
// unfiltered getProgramAccounts can build megabytes, so without these one small request could make the node
// build gigabytes of reply. The figures are go-ethereum's, which clients of Ethereum nodes already meet.
const (
	DefaultMaxBatchItems    = 1000
	DefaultMaxResponseBytes = 25 << 20
	DefaultCallTimeout      = 30 * time.Second
)

// Limits bound the work one request body (a single call or a batch) can cause. The zero value takes the defaults.
type Limits struct {
	// MaxBatchItems is the most members a batch may have; a larger batch gets a single -32600 "batch too large".
	MaxBatchItems int
	// MaxResponseBytes bounds the reply to one request or to a whole batch. A call whose result would pass it gets
	// -32091 "response too large"; once a batch's reply has passed it, its remaining members get that error
	// without running.
	MaxResponseBytes int64
	// CallTimeout bounds the run time of one request body: a single call, or every member of a batch together.
	// A call still running at the deadline, and every member after it, gets -32090 "request timed out".
	CallTimeout time.Duration
}

func (l Limits) withDefaults() Limits {
	if l.MaxBatchItems <= 0 {
		l.MaxBatchItems = DefaultMaxBatchItems
	}
	if l.MaxResponseBytes <= 0 {
		l.MaxResponseBytes = DefaultMaxResponseBytes
	}
	if l.CallTimeout <= 0 {
		l.CallTimeout = DefaultCallTimeout
	}
	return l
}

// The limits' errors. Their codes and messages are catalogued in schema/errors/limits.yaml; a test checks that
// they match the generated constructors.
var (
	errRequestTimedOut  = &Error{Code: -32090, Message: "request timed out"}
	errResponseTooLarge = &Error{Code: -32091, Message: "response too large"}
	errBatchTooLarge    = &Error{Code: CodeInvalidRequest, Message: "batch too large"}
)

type budgetKey struct{}

// ReplyBudget returns how many bytes the result of the running call may still take before the reply passes
// Limits.MaxResponseBytes. Methods that collect results of unbounded size (scans over accounts) stop and return
// the "response too large" error (-32091) once their estimate passes it, instead of building the whole result first. It is
// math.MaxInt64 outside a call of the transports.
func ReplyBudget(ctx context.Context) int64 {
	if b, ok := ctx.Value(budgetKey{}).(int64); ok {
		return b
	}
	return math.MaxInt64
}

// WithReplyBudget returns ctx with a reply budget of n bytes, as the transports give each call.
func WithReplyBudget(ctx context.Context, n int64) context.Context {
	return context.WithValue(ctx, budgetKey{}, n)
}
