package jsonrpc

import (
	"bufio"
	"encoding/binary"
	"errors"
	"net"
	"net/http"

	"github.com/coder/websocket"
)

// coder/websocket checks its read limit only as payload bytes arrive, so a frame header declaring 2^62 bytes is
// accepted and the connection waits for bytes that never come; and it answers an unmasked client frame by dropping
// the connection without the 1002 close RFC 6455 §5.1 asks for. frameGuard watches the frame headers on their way
// from the socket to the library, and stops the stream at the first header that declares a message over the limit
// or is not masked; the reader then closes with the matching status.

var (
	errFrameTooBig   = errors.New("jsonrpc: WebSocket frame declares a message over the read limit")
	errFrameUnmasked = errors.New("jsonrpc: unmasked WebSocket frame from a client")
)

// frameGuard parses the frame headers of the client's byte stream. It never changes a byte it passes on.
type frameGuard struct {
	net.Conn
	limit int64

	hdr       [14]byte // the header being read: at most 2 + 8 (length) + 4 (mask key) bytes
	hdrLen    int
	remaining uint64 // payload bytes of the current frame still to pass
	message   uint64 // payload bytes of the current data message so far (fragments add up)
	err       error  // sticky, returned once the bytes before the offending header have passed
}

func (g *frameGuard) Read(p []byte) (int, error) {
	if g.err != nil {
		return 0, g.err
	}
	n, err := g.Conn.Read(p)
	if ok := g.scan(p[:n]); ok < n {
		// Pass what came before the offending header; the next read reports it.
		return ok, nil
	}
	return n, err
}

// scan follows the frames in b and returns how many bytes of it may pass: all of them, or those before a
// header that breaks the rules (g.err is then set).
func (g *frameGuard) scan(b []byte) int {
	i := 0
	for i < len(b) {
		if g.remaining > 0 {
			skip := uint64(len(b) - i)
			if skip > g.remaining {
				skip = g.remaining
			}
			g.remaining -= skip
			i += int(skip)
			continue
		}
		start := i - g.hdrLen // where the header began; negative when it began in an earlier read
		for i < len(b) && (g.hdrLen < 2 || g.hdrLen < headerSize(g.hdr[:g.hdrLen])) {
			g.hdr[g.hdrLen] = b[i]
			g.hdrLen++
			i++
		}
		if g.hdrLen < 2 || g.hdrLen < headerSize(g.hdr[:g.hdrLen]) {
			return len(b) // the header continues in the next read
		}
		h := g.hdr[:g.hdrLen]
		g.hdrLen = 0
		fin, opcode, masked := h[0]&0x80 != 0, h[0]&0x0f, h[1]&0x80 != 0
		var size uint64
		switch l := h[1] & 0x7f; l {
		case 126:
			size = uint64(binary.BigEndian.Uint16(h[2:4]))
		case 127:
			size = binary.BigEndian.Uint64(h[2:10])
		default:
			size = uint64(l)
		}
		if !masked {
			g.err = errFrameUnmasked
			return max(start, 0)
		}
		if opcode < 8 { // data or continuation; control frames are checked by the library (at most 125 bytes)
			g.message += size
			if g.message > uint64(g.limit) || g.message < size {
				g.err = errFrameTooBig
				return max(start, 0)
			}
			if fin {
				g.message = 0
			}
		}
		g.remaining = size
	}
	return len(b)
}

// headerSize is the length of the frame header whose first two bytes are h.
func headerSize(h []byte) int {
	n := 2
	switch h[1] & 0x7f {
	case 126:
		n += 2
	case 127:
		n += 8
	}
	if h[1]&0x80 != 0 {
		n += 4
	}
	return n
}

// guardedWriter hands coder/websocket a hijacked connection whose reads pass through a frameGuard.
type guardedWriter struct {
	http.ResponseWriter
	limit int64
	guard *frameGuard
}

func (w *guardedWriter) Hijack() (net.Conn, *bufio.ReadWriter, error) {
	conn, brw, err := http.NewResponseController(w.ResponseWriter).Hijack()
	if err != nil {
		return nil, nil, err
	}
	// Bytes the server already buffered (a client may send frames right behind its handshake) go through the
	// guard too, ahead of the socket's.
	buffered, _ := brw.Reader.Peek(brw.Reader.Buffered())
	w.guard = &frameGuard{Conn: &prefixConn{Conn: conn, prefix: append([]byte(nil), buffered...)}, limit: w.limit}
	return w.guard, bufio.NewReadWriter(bufio.NewReader(w.guard), brw.Writer), nil
}

// prefixConn reads prefix before the connection's own bytes.
type prefixConn struct {
	net.Conn
	prefix []byte
}

func (c *prefixConn) Read(p []byte) (int, error) {
	if len(c.prefix) > 0 {
		n := copy(p, c.prefix)
		c.prefix = c.prefix[n:]
		return n, nil
	}
	return c.Conn.Read(p)
}

// closeStatusFor names the close status for a read that the guard stopped, or -1.
func (g *frameGuard) closeStatusFor() (websocket.StatusCode, string) {
	if g == nil {
		return -1, ""
	}
	switch g.err {
	case errFrameTooBig:
		return websocket.StatusMessageTooBig, "message too big"
	case errFrameUnmasked:
		return websocket.StatusProtocolError, "unmasked frame"
	}
	return -1, ""
}
