package jsonrpc

import (
	"bufio"
	"encoding/binary"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"
)

// rawWS opens a WebSocket connection by hand, so a test can send frames no client library would.
func rawWS(t *testing.T, f *wsFixture) (net.Conn, *bufio.Reader) {
	t.Helper()
	addr := strings.TrimPrefix(f.url, "ws://")
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	_, err = io.WriteString(conn, "GET / HTTP/1.1\r\nHost: "+addr+"\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"+
		"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n")
	if err != nil {
		t.Fatal(err)
	}
	br := bufio.NewReader(conn)
	resp, err := http.ReadResponse(br, nil)
	if err != nil || resp.StatusCode != http.StatusSwitchingProtocols {
		t.Fatalf("handshake: %v %v", resp, err)
	}
	return conn, br
}

// frame builds a final text frame header with the given declared length, masked or not, followed by payload.
func frame(declared uint64, masked bool, payload []byte) []byte {
	b := []byte{0x81, 127}
	b = binary.BigEndian.AppendUint64(b, declared)
	if masked {
		b[1] |= 0x80
		b = append(b, 0, 0, 0, 0) // a zero mask key leaves the payload as it is
	}
	return append(b, payload...)
}

// readClose reads server frames until a close frame and returns its status code.
func readClose(t *testing.T, conn net.Conn, br *bufio.Reader) int {
	t.Helper()
	_ = conn.SetReadDeadline(time.Now().Add(3 * time.Second))
	for {
		var h [2]byte
		if _, err := io.ReadFull(br, h[:]); err != nil {
			t.Fatalf("no close frame within 3 s: %v", err)
		}
		n := int(h[1] & 0x7f)
		switch n {
		case 126:
			var l [2]byte
			io.ReadFull(br, l[:])
			n = int(binary.BigEndian.Uint16(l[:]))
		case 127:
			var l [8]byte
			io.ReadFull(br, l[:])
			n = int(binary.BigEndian.Uint64(l[:]))
		}
		payload := make([]byte, n)
		if _, err := io.ReadFull(br, payload); err != nil {
			t.Fatal(err)
		}
		if h[0]&0x0f == 8 {
			if n < 2 {
				return 1005
			}
			return int(binary.BigEndian.Uint16(payload))
		}
	}
}

// A header declaring far more than the read limit is refused when it arrives, not after limit bytes.
func TestWSFrameDeclaringHugeLengthIsRefusedAtOnce(t *testing.T) {
	t.Parallel()
	f := startWS(t, WSOptions{})
	conn, br := rawWS(t, f)
	if _, err := conn.Write(frame(1<<62, true, []byte(`{"jsonrpc":"2.0"`))); err != nil {
		t.Fatal(err)
	}
	if got := readClose(t, conn, br); got != 1009 {
		t.Errorf("close status %d, want 1009", got)
	}
}

// Fragments add up: a message is refused when its fragments together pass the limit.
func TestWSFragmentsCountTowardsTheLimit(t *testing.T) {
	t.Parallel()
	f := startWS(t, WSOptions{MaxMessageBytes: 100})
	conn, br := rawWS(t, f)
	first := []byte{0x01, 0x80 | 60, 0, 0, 0, 0} // text, not final, 60 bytes
	first = append(first, make([]byte, 60)...)
	second := []byte{0x80, 0x80 | 60, 0, 0, 0, 0} // continuation, final: 120 in all
	if _, err := conn.Write(append(first, second...)); err != nil {
		t.Fatal(err)
	}
	if got := readClose(t, conn, br); got != 1009 {
		t.Errorf("close status %d, want 1009", got)
	}
}

// RFC 6455 §5.1: a server closes on an unmasked client frame with 1002 (protocol error).
func TestWSUnmaskedFrameClosesWith1002(t *testing.T) {
	t.Parallel()
	f := startWS(t, WSOptions{})
	conn, br := rawWS(t, f)
	msg := []byte(`{"jsonrpc":"2.0","method":"ok","id":1}`)
	if _, err := conn.Write(append([]byte{0x81, byte(len(msg))}, msg...)); err != nil {
		t.Fatal(err)
	}
	if got := readClose(t, conn, br); got != 1002 {
		t.Errorf("close status %d, want 1002", got)
	}
}

// Frames sent right behind the handshake, before the server read it, are checked and served too.
func TestWSFrameGuardSeesPipelinedFrames(t *testing.T) {
	t.Parallel()
	f := startWS(t, WSOptions{})
	addr := strings.TrimPrefix(f.url, "ws://")
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	msg := []byte(`{"jsonrpc":"2.0","method":"ok","id":1}`)
	ok := append([]byte{0x81, 0x80 | byte(len(msg)), 0, 0, 0, 0}, msg...)
	req := "GET / HTTP/1.1\r\nHost: " + addr + "\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n" +
		"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
	if _, err := conn.Write(append(append([]byte(req), ok...), frame(1<<40, true, nil)...)); err != nil {
		t.Fatal(err)
	}
	br := bufio.NewReader(conn)
	if resp, err := http.ReadResponse(br, nil); err != nil || resp.StatusCode != http.StatusSwitchingProtocols {
		t.Fatalf("handshake: %v %v", resp, err)
	}
	if got := readClose(t, conn, br); got != 1009 {
		t.Errorf("close status %d, want 1009 after the reply", got)
	}
}

// FuzzFrameGuard checks that the guard never panics and that where it stops a stream does not depend on how the
// stream is split into reads (split reads may have passed the start of the offending header, never a whole one).
func FuzzFrameGuard(f *testing.F) {
	f.Add(frame(1<<62, true, nil), uint8(3))
	f.Add(append([]byte{0x81, 0x85, 1, 2, 3, 4}, "hello"...), uint8(1))
	f.Add([]byte{0x01, 0xfe, 0x10, 0x00, 0, 0, 0, 0}, uint8(5))
	f.Fuzz(func(t *testing.T, stream []byte, chunk uint8) {
		whole := &frameGuard{limit: 4096}
		wantPass := whole.scan(stream)
		split := &frameGuard{limit: 4096}
		step, passed := int(chunk)+1, 0
		for i := 0; i < len(stream) && split.err == nil; i += step {
			end := min(i+step, len(stream))
			passed += split.scan(stream[i:end])
		}
		if passed < wantPass || passed-wantPass >= len(whole.hdr) || split.err != whole.err {
			t.Errorf("in one read: %d bytes pass, err %v; in reads of %d: %d bytes, err %v",
				wantPass, whole.err, step, passed, split.err)
		}
	})
}
