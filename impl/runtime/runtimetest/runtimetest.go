// Package runtimetest holds the assertions that the runtime's tests and every program's tests share.
package runtimetest

import (
	"slices"
	"testing"

	"ledgerd/impl/runtime"
)

// ErrString is a transaction error in its wire JSON form, or "<nil>" on success.
func ErrString(e *runtime.TransactionError) string {
	if e == nil {
		return "<nil>"
	}
	b, _ := e.MarshalJSON()
	return string(b)
}

// WantErr fails t unless res ended with the error whose wire JSON is want ("<nil>" for success).
func WantErr(t testing.TB, res *runtime.Result, want string) {
	t.Helper()
	if got := ErrString(res.Err); got != want {
		t.Fatalf("err = %s, want %s\nlogs: %q", got, want, res.Logs)
	}
}

// WantLogs fails t unless res logged exactly want.
func WantLogs(t testing.TB, res *runtime.Result, want ...string) {
	t.Helper()
	if !slices.Equal(res.Logs, want) {
		t.Fatalf("logs:\n got %q\nwant %q", res.Logs, want)
	}
}
