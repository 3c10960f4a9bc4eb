package jsonrpc

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"
)

// DefaultMaxBodyBytes is the reference's MAX_REQUEST_BODY_SIZE (50 KiB). SDKs size their requests to it.
const DefaultMaxBodyBytes = 50 * 1024

// The reference's plain-text replies (jsonrpc-http-server response.rs and handler.rs), byte for byte: the 415 and
// 405 texts end with a newline, the 413 and 400 texts do not.
const (
	textUnsupportedContentType = "Supplied content type is not allowed. Content-Type: application/json is required\n"
	textMethodNotAllowed       = "Used HTTP Method is not allowed. POST or OPTIONS is required\n"
	textTooLarge               = "request body size exceeds allowed maximum"
	textUTF8Error              = "utf-8 encoding error at byte %d in request body"
	// Not the reference's: its server answers an unreadable body with a closed connection.
	textUnreadableBody = "request body could not be read"
)

// HTTPOptions configures NewHTTPHandler. The zero value is usable.
type HTTPOptions struct {
	// MaxBodyBytes is the largest accepted request body; 0 means DefaultMaxBodyBytes.
	MaxBodyBytes int64
	// Limits bound the batch size, reply size and run time of one request.
	Limits Limits
	// Health returns the /health body ("ok", "behind", "unknown"); nil always answers "ok".
	Health func() string
	// OpenRPC is served at GET /openrpc.json and as the result of rpc.discover; nil serves neither.
	OpenRPC []byte
	// Docs is the HTML reference served at GET /docs (generated/docs.HTML); nil does not serve it.
	Docs []byte
	// Extra maps more paths to handlers for GET and HEAD.
	Extra map[string]http.Handler
	// Logger receives internal errors and recovered panics; nil means slog.Default().
	Logger *slog.Logger
	// Observer hears of every call answered; nil counts nothing.
	Observer Observer
}

type httpHandler struct {
	engine  *engine
	maxBody int64
	health  func() string
	openrpc []byte
	docs    []byte
	extra   map[string]http.Handler
}

// NewHTTPHandler serves JSON-RPC 2.0 over HTTP POST on every path, like the reference, except /health (any
// method), GET /openrpc.json, GET /docs and the Extra paths. It panics if d is nil or OpenRPC is not valid JSON.
func NewHTTPHandler(d Dispatcher, o HTTPOptions) http.Handler {
	h := &httpHandler{
		engine:  newEngine(d, o.Logger, o.OpenRPC, o.Limits, o.Observer),
		maxBody: o.MaxBodyBytes,
		health:  o.Health,
		openrpc: o.OpenRPC,
		docs:    o.Docs,
		extra:   o.Extra,
	}
	if h.maxBody <= 0 {
		h.maxBody = DefaultMaxBodyBytes
	}
	if h.health == nil {
		h.health = func() string { return "ok" }
	}
	return h
}

func (h *httpHandler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	setCORS(w.Header(), r)
	switch {
	case r.URL.Path == "/health":
		writeBody(w, http.StatusOK, headerText, []byte(h.health()))
	case r.Method == http.MethodPost:
		h.serveRPC(w, r)
	case r.Method == http.MethodOptions:
		w.Header().Set("Allow", "OPTIONS, POST")
		w.Header().Set("Accept", "application/json")
		w.Header().Set("Content-Length", "0")
		w.WriteHeader(http.StatusOK)
	case (r.Method == http.MethodGet || r.Method == http.MethodHead) && r.URL.Path == "/openrpc.json" && h.openrpc != nil:
		writeBody(w, http.StatusOK, headerJSON, h.openrpc)
	case (r.Method == http.MethodGet || r.Method == http.MethodHead) && r.URL.Path == "/docs" && h.docs != nil:
		writeBody(w, http.StatusOK, headerHTML, h.docs)
	case (r.Method == http.MethodGet || r.Method == http.MethodHead) && h.extra[r.URL.Path] != nil:
		h.extra[r.URL.Path].ServeHTTP(w, r)
	default:
		writeBody(w, http.StatusMethodNotAllowed, headerText, []byte(textMethodNotAllowed))
	}
}

func (h *httpHandler) serveRPC(w http.ResponseWriter, r *http.Request) {
	if !isJSONContentType(r.Header.Get("Content-Type")) {
		writeBody(w, http.StatusUnsupportedMediaType, headerText, []byte(textUnsupportedContentType))
		return
	}
	if r.ContentLength > h.maxBody {
		writeAndClose(w, http.StatusRequestEntityTooLarge, []byte(textTooLarge))
		return
	}
	body, err := readAtMost(r.Body, h.maxBody+1, r.ContentLength)
	if err != nil {
		// A malformed chunked encoding, a body shorter than its Content-Length, or the server's read timeout:
		// the request cannot be answered, and the connection cannot carry another one. When the client is still
		// there it learns why; an empty 200 would read as a successful call.
		h.engine.log.DebugContext(r.Context(), "jsonrpc: reading request body", "err", err)
		writeAndClose(w, http.StatusBadRequest, []byte(textUnreadableBody))
		return
	}
	if int64(len(body)) > h.maxBody {
		writeAndClose(w, http.StatusRequestEntityTooLarge, []byte(textTooLarge))
		return
	}
	if !utf8.Valid(body) {
		writeBody(w, http.StatusBadRequest, headerText,
			fmt.Appendf(nil, textUTF8Error, validUTF8Prefix(body)))
		return
	}
	reply := h.engine.handle(r.Context(), body, false)
	if reply != nil {
		reply = append(reply, '\n') // the reference ends every JSON-RPC reply with a newline
	}
	writeBody(w, http.StatusOK, headerJSON, reply)
}

// isJSONContentType accepts exactly the three spellings jsonrpc-http-server accepts, ignoring case.
func isJSONContentType(ct string) bool {
	return strings.EqualFold(ct, "application/json") ||
		strings.EqualFold(ct, "application/json; charset=utf-8") ||
		strings.EqualFold(ct, "application/json;charset=utf-8")
}

// setCORS allows any origin, as the reference does. It echoes the Origin (the reference does too) and the
// requested headers: web3.js sends a "solana-client" header, so a browser preflight that got only
// "Content-Type" back would block every call.
func setCORS(h http.Header, r *http.Request) {
	if origin := r.Header.Get("Origin"); origin != "" {
		h.Set("Access-Control-Allow-Origin", origin)
	} else {
		h["Access-Control-Allow-Origin"] = headerAny
	}
	if requested := r.Header.Get("Access-Control-Request-Headers"); requested != "" {
		h.Set("Access-Control-Allow-Headers", requested)
	} else {
		h["Access-Control-Allow-Headers"] = headerContentType
	}
	h["Access-Control-Allow-Methods"] = headerOptionsPost
	h["Access-Control-Max-Age"] = headerMaxAge
	h["Vary"] = headerOrigin
}

// Constant header values, shared to save an allocation per header per reply (http.Header.Set allocates a slice).
// Their keys are written in canonical form. net/http never modifies a value slice in place, and Header.Add on a
// full slice copies it.
var (
	headerAny         = []string{"*"}
	headerContentType = []string{"Content-Type"}
	headerOptionsPost = []string{"OPTIONS, POST"}
	headerMaxAge      = []string{"86400"}
	headerOrigin      = []string{"origin"}
	headerJSON        = []string{"application/json"}
	headerText        = []string{"text/plain; charset=utf-8"}
	headerHTML        = []string{"text/html; charset=utf-8"}
	headerClose       = []string{"close"}
)

func writeBody(w http.ResponseWriter, status int, contentType []string, body []byte) {
	hdr := w.Header()
	hdr["Content-Type"] = contentType
	hdr.Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(status)
	_, _ = w.Write(body) // a failed write means the client left; nothing to do
}

// writeAndClose sends a plain-text reply and closes the connection without reading the rest of the request body.
// After a handler returns, net/http drains up to 256 KiB of unread body to keep the connection (even with
// "Connection: close"), so a client that declared a large body and sends it slowly, or never, would get this
// reply only at the server's read timeout. Hijacking the connection once the reply is flushed ends it at once.
func writeAndClose(w http.ResponseWriter, status int, body []byte) {
	w.Header()["Connection"] = headerClose
	writeBody(w, status, headerText, body)
	rc := http.NewResponseController(w)
	if err := rc.Flush(); err != nil {
		return
	}
	conn, _, err := rc.Hijack()
	if err != nil { // HTTP/2 and test recorders cannot hijack; they need not
		return
	}
	// As net/http closes a connection it will not reuse: a FIN first, then a short wait that discards what the
	// client still sends, so that closing does not reset the connection (a reset can destroy the reply in the
	// client's receive buffer before it reads it).
	if cw, ok := conn.(interface{ CloseWrite() error }); ok {
		_ = cw.CloseWrite()
		_ = conn.SetReadDeadline(time.Now().Add(closeLinger))
		_, _ = io.Copy(io.Discard, io.LimitReader(conn, closeLingerBytes))
	}
	conn.Close()
}

// How long, and for how many bytes, writeAndClose waits for the client to see the reply and close.
const (
	closeLinger      = 500 * time.Millisecond
	closeLingerBytes = 4 << 20
)

// readAtMost reads r up to its end or n bytes, whichever comes first, so an oversized body is never read whole.
// sizeHint (the Content-Length, or -1) sizes the buffer once for the common case.
func readAtMost(r io.Reader, n, sizeHint int64) ([]byte, error) {
	size := int64(512)
	if sizeHint >= 0 && sizeHint < n {
		size = sizeHint + 1 // +1: room for the read that reports EOF, so the buffer never grows
	}
	b := make([]byte, 0, size)
	lr := io.LimitReader(r, n)
	for {
		if len(b) == cap(b) {
			b = append(b, 0)[:len(b)]
		}
		m, err := lr.Read(b[len(b):cap(b)])
		b = b[:len(b)+m]
		if err == io.EOF {
			return b, nil
		}
		if err != nil {
			return b, err
		}
	}
}

// validUTF8Prefix returns the length of the longest valid UTF-8 prefix of b (Rust's Utf8Error::valid_up_to).
func validUTF8Prefix(b []byte) int {
	i := 0
	for i < len(b) {
		r, size := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && size <= 1 {
			return i
		}
		i += size
	}
	return i
}

// NewHTTPServer wraps h in a server whose timeouts keep slow or stalled clients from holding connections and
// goroutines. WebSocket connections are not cut by them: net/http clears deadlines when a connection is hijacked.
func NewHTTPServer(addr string, h http.Handler) *http.Server {
	s := &http.Server{
		Addr:    addr,
		Handler: h,
		// Headers are small and sent at once by every real client; this ends slowloris-style trickling.
		ReadHeaderTimeout: 10 * time.Second,
		// The whole request, headers and a 50 KiB body: 30 s is under 2 KiB/s, far slower than any live link.
		ReadTimeout: 30 * time.Second,
		// Counted from the end of the request headers to the end of the reply, so it includes the method's run
		// time; it must exceed the call timeout (raised below when that is longer) and still end a client that
		// stopped reading its reply.
		WriteTimeout: 60 * time.Second,
		// Idle keep-alive connections cost a goroutine and a socket each; clients reconnect cheaply.
		IdleTimeout: 120 * time.Second,
		// JSON-RPC needs a handful of short headers; the default 1 MiB only helps an attacker.
		MaxHeaderBytes: 64 << 10,
		ErrorLog:       slog.NewLogLogger(slog.Default().Handler(), slog.LevelWarn),
	}
	// A request may run for its whole CallTimeout; its reply, the "request timed out" error at the least, still
	// needs time to be written.
	if jh, ok := h.(*httpHandler); ok && s.WriteTimeout < jh.engine.limits.CallTimeout+30*time.Second {
		s.WriteTimeout = jh.engine.limits.CallTimeout + 30*time.Second
	}
	return s
}

// Server is an http.Server (made by NewHTTPServer) whose Shutdown does not wait for connections that never sent
// a request. http.Server.Shutdown treats such a connection as busy for its first 5 s, and Go's own client opens
// them: a dial it started for a request that an idle connection then served stays in its pool unused. A node
// stopping would wait those 5 s for nothing.
type Server struct {
	*http.Server
	mu      sync.Mutex
	fresh   map[net.Conn]struct{} // connections in http.StateNew
	closing bool
	open    int // connections accepted and neither closed nor hijacked
}

// OpenConns returns the number of connections the server holds (a hijacked one, a WebSocket's, is no longer its).
func (s *Server) OpenConns() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.open
}

// NewServer returns NewHTTPServer(addr, h) with that Shutdown.
func NewServer(addr string, h http.Handler) *Server {
	s := &Server{Server: NewHTTPServer(addr, h), fresh: make(map[net.Conn]struct{})}
	s.ConnState = s.track
	return s
}

func (s *Server) track(c net.Conn, state http.ConnState) {
	s.mu.Lock()
	defer s.mu.Unlock()
	switch state {
	case http.StateNew:
		s.open++
	case http.StateClosed, http.StateHijacked:
		s.open--
	}
	if state != http.StateNew {
		delete(s.fresh, c)
		return
	}
	if s.closing {
		c.Close()
		return
	}
	s.fresh[c] = struct{}{}
}

// Shutdown closes the connections that have not sent a request yet, then shuts down as http.Server does:
// requests in flight get until ctx ends to finish.
func (s *Server) Shutdown(ctx context.Context) error {
	s.mu.Lock()
	s.closing = true
	for c := range s.fresh {
		c.Close()
	}
	clear(s.fresh)
	s.mu.Unlock()
	return s.Server.Shutdown(ctx)
}
