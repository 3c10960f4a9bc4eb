package jsonrpc

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"runtime/debug"
	"strconv"
	"sync"
	"time"
)

// engine turns one request body (a single request or a batch) into one reply body. It is shared by both
// transports; they differ only in framing, limits and the ws flag handed to the Dispatcher.
type engine struct {
	d       Dispatcher
	log     *slog.Logger
	openrpc json.RawMessage // compacted; nil: rpc.discover goes to the Dispatcher
	limits  Limits
	obs     Observer // nil: nobody counts the calls
}

func newEngine(d Dispatcher, log *slog.Logger, openrpc []byte, limits Limits, obs Observer) *engine {
	if d == nil {
		panic("jsonrpc: nil Dispatcher")
	}
	if log == nil {
		log = slog.Default()
	}
	e := &engine{d: d, log: log, limits: limits.withDefaults(), obs: obs}
	if len(openrpc) > 0 {
		var buf bytes.Buffer
		if err := json.Compact(&buf, openrpc); err != nil {
			// The document is built into the binary; a broken one is a build error, not a runtime condition.
			panic(fmt.Sprintf("jsonrpc: OpenRPC document is not valid JSON: %v", err))
		}
		e.openrpc = buf.Bytes()
	}
	return e
}

var nullID = json.RawMessage("null")

// handle processes a body that the transport has already checked for size and UTF-8. It returns the reply
// without a trailing newline, or nil when nothing is to be sent (only notifications).
//
// Batch members run one after another, in order. Concurrency comes from serving many connections at once;
// running a batch's members in parallel would let one 50 KiB request (about a thousand calls) occupy every core
// and starve other clients, and ordering and logs stay simple. The reference does not parallelise them either.
func (e *engine) handle(ctx context.Context, body []byte, ws bool) []byte {
	body = bytes.Trim(body, " \t\r\n") // JSON's whitespace only: bytes.TrimSpace would also accept U+00A0 and friends
	if !json.Valid(body) || hasLoneSurrogate(body) {
		e.observe("", ws, errParse.Code, time.Time{})
		return encodeError(nil, errParse, nullID)
	}
	// One deadline for the whole body: a batch of slow calls must not run a timeout per member.
	ctx, cancel := context.WithTimeout(ctx, e.limits.CallTimeout)
	defer cancel()
	if body[0] != '[' {
		reply, _, _ := e.handleOne(ctx, body, ws, e.limits.MaxResponseBytes)
		return reply
	}
	members := scanArray(body)
	if len(members) == 0 {
		// jsonrpc-core answers an empty batch with a single error object, not an array.
		e.observe("", ws, errInvalidRequest.Code, time.Time{})
		return encodeError(nil, errInvalidRequest, nullID)
	}
	if len(members) > e.limits.MaxBatchItems {
		e.observe("", ws, errBatchTooLarge.Code, time.Time{})
		return encodeError(nil, errBatchTooLarge, nullID)
	}
	out := make([]byte, 0, 64*len(members))
	out = append(out, '[')
	n, full := 0, false
	for _, m := range members {
		if errors.Is(context.Cause(ctx), context.Canceled) {
			// The client left (HTTP) or the connection is closing (WS): nobody will read the rest.
			return nil
		}
		// The member whose reply would pass the limit gets the error instead, and so does every member after it,
		// without running: the batch's reply stops growing there.
		budget := e.limits.MaxResponseBytes - int64(len(out)) - 1 // 1: the closing bracket
		if full {
			budget = 0
		}
		reply, ok, over := e.handleOne(ctx, m, ws, budget)
		full = full || over
		if !ok {
			continue
		}
		if n > 0 {
			out = append(out, ',')
		}
		out = append(out, reply...)
		n++
	}
	if n == 0 {
		return nil
	}
	return append(out, ']')
}

// handleOne processes one request object (raw is valid JSON). ok is false for a notification, which gets no reply.
//
// Rules, after jsonrpc-core: a request is an object with a string "method", an "id" that is a string, a number
// or null, and "params" that is an array, an object, null or absent; "jsonrpc" must be "2.0". An object without an
// "id" key and with a string method is a notification: it never gets a reply, and runs only when it is otherwise
// valid. Anything else is an invalid request, answered with its id when the id could be read, else null.
// Unknown members are ignored (jsonrpc-core rejects them; no client depends on that and leniency costs nothing).
//
// budget is what is left of Limits.MaxResponseBytes for this reply: at or below zero the call does not run and
// gets the "response too large" error; a reply larger than it is replaced by that error. over reports either.
func (e *engine) handleOne(ctx context.Context, raw []byte, ws bool, budget int64) (reply []byte, ok, over bool) {
	var start time.Time
	if e.obs != nil {
		start = time.Now()
	}
	reply, ok, over, method, code := e.answerOne(ctx, raw, ws, budget)
	e.observe(method, ws, code, start)
	return reply, ok, over
}

// observe reports one call to the Observer, if any; a zero start is a reply made without running anything.
func (e *engine) observe(method string, ws bool, code int, start time.Time) {
	if e.obs == nil {
		return
	}
	var elapsed time.Duration
	if !start.IsZero() {
		elapsed = time.Since(start)
	}
	e.obs.ObserveCall(method, ws, code, elapsed)
}

// answerOne is handleOne, also returning the method named (when it could be read) and the reply's error code
// (0 for a result, or for a notification that succeeded).
func (e *engine) answerOne(ctx context.Context, raw []byte, ws bool, budget int64) (reply []byte, ok, over bool,
	method string, code int) {
	if raw[0] != '{' {
		return encodeError(nil, errInvalidRequest, nullID), true, false, "", errInvalidRequest.Code
	}
	req := scanRequest(raw) // exact keys: encoding/json would also match "METHOD" to a Method field

	id, hasID := json.RawMessage(req.id), req.id != nil
	method, methodOK := decodeString(req.method)
	if !methodOK {
		method = ""
	}
	params, paramsOK := json.RawMessage(req.params), true
	switch {
	case params == nil || bytes.Equal(params, nullID):
		params = nil
	default:
		paramsOK = params[0] == '[' || params[0] == '{'
	}
	versionOK := bytes.Equal(req.version, []byte(`"2.0"`))
	if !versionOK && req.version != nil {
		version, _ := decodeString(req.version) // "\u0032.0" is "2.0" too
		versionOK = version == "2.0"
	}

	if !hasID && methodOK {
		// The code is what a call would have got; a notification gets no reply.
		switch {
		case !paramsOK || !versionOK:
			code = errInvalidRequest.Code
		case budget <= 0:
			code = errResponseTooLarge.Code
		case ctx.Err() != nil:
			code = errRequestTimedOut.Code
		default:
			// The result is dropped, but a failure that would be logged for a call is logged here too.
			if _, err := e.call(ctx, method, params, ws); err != nil {
				var ce CodedError
				if !errors.As(err, &ce) {
					e.log.ErrorContext(ctx, "jsonrpc: notification failed", "method", method, "err", err)
				}
				code = errorCode(err)
			}
		}
		return nil, false, budget <= 0, method, code
	}
	if !hasID || !validID(id) {
		return encodeError(nil, errInvalidRequest, nullID), true, false, method, errInvalidRequest.Code
	}
	if !methodOK || !paramsOK {
		return encodeError(nil, errInvalidRequest, id), true, false, method, errInvalidRequest.Code
	}
	if !versionOK {
		return encodeError(nil, errUnsupportedVersion, id), true, false, method, errUnsupportedVersion.Code
	}
	if ctx.Err() != nil {
		return encodeError(nil, errRequestTimedOut, id), true, false, method, errRequestTimedOut.Code
	}
	if budget <= 0 {
		return encodeError(nil, errResponseTooLarge, id), true, true, method, errResponseTooLarge.Code
	}
	result, err := e.call(WithReplyBudget(ctx, budget), method, params, ws)
	switch cause := context.Cause(ctx); {
	case errors.Is(cause, context.DeadlineExceeded):
		// Whatever the method made of its cancelled context (often ctx.Err(), an internal error), the caller is
		// told why.
		return encodeError(nil, errRequestTimedOut, id), true, false, method, errRequestTimedOut.Code
	case cause != nil:
		// The client left: nobody reads this, and the method's ctx.Err() is no failure to log.
		return encodeError(nil, errInternal, id), true, false, method, errInternal.Code
	}
	if err != nil {
		var ce CodedError
		over = errors.As(err, &ce) && ce.ErrorCode() == errResponseTooLarge.Code // the method's own estimate
		reply, code = e.encodeCallError(method, err, id)
	} else {
		reply, code = e.encodeResult(method, result, id)
	}
	if int64(len(reply)) > budget {
		return encodeError(nil, errResponseTooLarge, id), true, true, method, errResponseTooLarge.Code
	}
	return reply, true, over, method, code
}

// errorCode is the code of the reply to a call that failed with err (encodeCallError's, before encoding).
func errorCode(err error) int {
	var ce CodedError
	if !errors.As(err, &ce) {
		return errInternal.Code
	}
	return ce.ErrorCode()
}

// call runs the Dispatcher, answers rpc.discover itself when it holds the OpenRPC document, and turns a panic
// into an internal error so that one broken method cannot take the server down.
func (e *engine) call(ctx context.Context, method string, params json.RawMessage, ws bool) (result any, err error) {
	if method == "rpc.discover" && e.openrpc != nil {
		return e.openrpc, nil
	}
	defer func() {
		if p := recover(); p != nil {
			e.log.ErrorContext(ctx, "jsonrpc: method panicked", "method", method, "ws", ws,
				"panic", fmt.Sprint(p), "stack", string(debug.Stack()))
			result, err = nil, errInternal
		}
	}()
	return e.d.Call(ctx, method, params, ws)
}

// encodeCallError returns the reply to a call that failed with err, and the code it carries.
func (e *engine) encodeCallError(method string, err error, id json.RawMessage) ([]byte, int) {
	var ce CodedError
	if !errors.As(err, &ce) {
		e.log.Error("jsonrpc: method failed", "method", method, "err", err)
		return encodeError(nil, errInternal, id), errInternal.Code
	}
	if ce == errInternal { // the recovered panic, already logged
		return encodeError(nil, errInternal, id), errInternal.Code
	}
	reply, encErr := encodeErrorChecked(nil, ce, id)
	if encErr != nil {
		e.log.Error("jsonrpc: cannot encode error data", "method", method, "code", ce.ErrorCode(), "err", encErr)
		return encodeError(nil, errInternal, id), errInternal.Code
	}
	return reply, ce.ErrorCode()
}

// encodeResult returns the reply carrying result, and its code: 0, or -32603 when result cannot be encoded.
func (e *engine) encodeResult(method string, result any, id json.RawMessage) ([]byte, int) {
	buf := getBuffer()
	defer putBuffer(buf)
	buf.WriteString(`{"jsonrpc":"2.0","result":`)
	if err := encodeValue(buf, result); err != nil {
		e.log.Error("jsonrpc: cannot encode result", "method", method, "err", err)
		return encodeError(nil, errInternal, id), errInternal.Code
	}
	buf.WriteString(`,"id":`)
	buf.Write(id)
	buf.WriteByte('}')
	return bytes.Clone(buf.Bytes()), 0
}

// encodeError appends {"jsonrpc":"2.0","error":{...},"id":id} for an error whose data is known to encode.
func encodeError(dst []byte, ce CodedError, id json.RawMessage) []byte {
	out, err := encodeErrorChecked(dst, ce, id)
	if err != nil {
		panic(err) // only reached for the transport's own errors, which have no data
	}
	return out
}

func encodeErrorChecked(dst []byte, ce CodedError, id json.RawMessage) ([]byte, error) {
	buf := getBuffer()
	defer putBuffer(buf)
	buf.WriteString(`{"jsonrpc":"2.0","error":{"code":`)
	buf.WriteString(strconv.Itoa(ce.ErrorCode()))
	buf.WriteString(`,"message":`)
	if err := encodeValue(buf, ce.Error()); err != nil {
		return nil, err
	}
	if data := ce.ErrorData(); data != nil {
		mark := buf.Len()
		buf.WriteString(`,"data":`)
		start := buf.Len()
		if err := encodeValue(buf, data); err != nil {
			return nil, err
		}
		if bytes.Equal(buf.Bytes()[start:], nullID) { // a typed nil behind the interface
			buf.Truncate(mark)
		}
	}
	buf.WriteString(`},"id":`)
	buf.Write(id)
	buf.WriteByte('}')
	return append(dst, buf.Bytes()...), nil
}

// encodeValue writes v as compact JSON without HTML escaping (serde_json does not escape <, > and &).
// encoding/json writes uint64 and big json.Number values exactly, never as floats.
func encodeValue(buf *bytes.Buffer, v any) error {
	enc := json.NewEncoder(buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return err
	}
	buf.Truncate(buf.Len() - 1) // Encode appends a newline
	return nil
}

var bufferPool = sync.Pool{New: func() any { return new(bytes.Buffer) }}

func getBuffer() *bytes.Buffer { return bufferPool.Get().(*bytes.Buffer) }

func putBuffer(b *bytes.Buffer) {
	if b.Cap() > 64<<10 { // do not pin the memory of one huge reply
		return
	}
	b.Reset()
	bufferPool.Put(b)
}

// validID reports whether raw (valid JSON) is a string, a number or null. The id is echoed byte for byte, so
// big integers and string escapes come back exactly as sent.
func validID(raw json.RawMessage) bool {
	switch c := raw[0]; {
	case c == '"', c == '-', c >= '0' && c <= '9':
		return true
	default:
		return bytes.Equal(raw, nullID)
	}
}

// hasLoneSurrogate reports whether a string in b (valid JSON) holds a \u escape of a UTF-16 surrogate that is not
// part of a pair. serde_json rejects those, so the reference answers -32700; encoding/json would silently turn
// them into U+FFFD.
func hasLoneSurrogate(b []byte) bool {
	if !bytes.Contains(b, []byte(`\u`)) {
		return false
	}
	inString := false
	for i := 0; i < len(b); i++ {
		c := b[i]
		if !inString {
			inString = c == '"'
			continue
		}
		switch c {
		case '"':
			inString = false
		case '\\':
			i++
			if b[i] != 'u' {
				continue
			}
			r := hex4(b[i+1 : i+5])
			i += 4
			switch {
			case r >= 0xDC00 && r <= 0xDFFF:
				return true
			case r >= 0xD800 && r <= 0xDBFF:
				if i+6 < len(b) && b[i+1] == '\\' && b[i+2] == 'u' {
					if r2 := hex4(b[i+3 : i+7]); r2 >= 0xDC00 && r2 <= 0xDFFF {
						i += 6
						continue
					}
				}
				return true
			}
		}
	}
	return false
}

func hex4(b []byte) rune {
	var r rune
	for _, c := range b {
		r <<= 4
		switch {
		case c >= '0' && c <= '9':
			r |= rune(c - '0')
		case c >= 'a' && c <= 'f':
			r |= rune(c - 'a' + 10)
		case c >= 'A' && c <= 'F':
			r |= rune(c - 'A' + 10)
		}
	}
	return r
}
