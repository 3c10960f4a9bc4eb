package main

import (
	"strings"
	"unicode"
)

// initialisms lists the words whose Go spelling differs from plain capitalisation. It is deliberately short: Go
// names keep the wire name's spelling (Id, Ui, Rpc, Json stay as written), so a reader finds one from the other.
var initialisms = map[string]string{
	"jsonrpc": "JSONRPC",
}

// goName turns a wire name (camelCase, kebab-case, or with '+' and '.') into an exported Go identifier.
func goName(wire string) string {
	var b strings.Builder
	upNext := true
	for _, r := range wire {
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) {
			upNext = true
			continue
		}
		if upNext {
			b.WriteRune(unicode.ToUpper(r))
			upNext = false
		} else {
			b.WriteRune(r)
		}
	}
	s := b.String()
	if v, ok := initialisms[strings.ToLower(s)]; ok {
		return v
	}
	if s == "" {
		return "X"
	}
	if unicode.IsDigit(rune(s[0])) {
		s = "V" + s
	}
	return s
}

// Go names of the per-method declarations.
func paramsName(method string) string        { return goName(method) + "Params" }
func resultName(method string) string        { return goName(method) + "Result" }
func notificationName(method string) string  { return goName(method) + "Notification" }
func callName(method string) string          { return "call" + goName(method) }
func methodConstName(method string) string   { return "Method" + goName(method) }
func groupHandlerName(group string) string   { return goName(group) + "Handler" }
func enumConstName(typ, value string) string { return typ + goName(value) }
func errorCtorName(name string) string       { return "New" + name + "Error" }
func errorCodeName(name string) string       { return "Code" + name }

// sdkRuntimeNames are the names the TypeScript SDK declares itself; no schema type may take one.
var sdkRuntimeNames = []string{
	"U64", "I64", "Client", "ClientOptions", "WSClient", "WSClientOptions", "RpcError", "RpcRequest", "Settled",
	"Subscription", "NotificationHandler", "FetchLike", "WebSocketLike", "WebSocketConstructor", "HttpMethods",
	"WSMethods", "Subscriptions", "ErrorCode", "requests", "subscriptionMethods", "ClientBase", "WSClientBase",
	"EventHandler", "Reply", "Pending", "ResultOf", "requestBody", "replyError",
}

// tsIdent reports whether a wire name can be written bare as a TypeScript property or tuple label.
func tsIdent(s string) bool {
	for i, r := range s {
		if !(r == '_' || r == '$' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || i > 0 && r >= '0' && r <= '9') {
			return false
		}
	}
	return s != ""
}
