package main

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"net"
	"strconv"
	"sync"
	"sync/atomic"
	"time"
)

// rawConn is one keep-alive HTTP/1.1 connection that POSTs prepared JSON bodies to / and reads the replies.
// It is deliberately lean (no net/http client: no per-request goroutines, header maps or body wrappers): the
// load generator shares the machine's cores with the server under test, so the less it costs, the more of the
// machine the server gets, and it costs the same whichever server it drives.
type rawConn struct {
	c    net.Conn
	r    *bufio.Reader
	host string
	wbuf []byte
	body []byte
}

func dialRaw(addr string) (*rawConn, error) {
	c, err := net.DialTimeout("tcp", addr, 5*time.Second)
	if err != nil {
		return nil, err
	}
	return &rawConn{c: c, r: bufio.NewReaderSize(c, 16<<10), host: addr}, nil
}

func (c *rawConn) Close() error { return c.c.Close() }

// post sends body and returns the reply's status and body; the body is valid until the next call.
func (c *rawConn) post(body []byte) (int, []byte, error) {
	w := append(c.wbuf[:0], "POST / HTTP/1.1\r\nHost: "...)
	w = append(w, c.host...)
	w = append(w, "\r\nContent-Type: application/json\r\nContent-Length: "...)
	w = strconv.AppendInt(w, int64(len(body)), 10)
	w = append(w, "\r\n\r\n"...)
	w = append(w, body...)
	c.wbuf = w
	if _, err := c.c.Write(w); err != nil {
		return 0, nil, err
	}
	status, b, err := readReply(c.r, c.body)
	c.body = b
	return status, b, err
}

var errChunked = errors.New("chunked replies are not supported")

// readReply reads one HTTP/1.1 reply with a Content-Length body into buf (grown as needed).
func readReply(r *bufio.Reader, buf []byte) (status int, body []byte, err error) {
	line, err := r.ReadSlice('\n')
	if err != nil {
		return 0, buf, err
	}
	if len(line) < 12 || !bytes.HasPrefix(line, []byte("HTTP/1.")) {
		return 0, buf, fmt.Errorf("malformed status line %q", line)
	}
	status, err = strconv.Atoi(string(line[9:12]))
	if err != nil {
		return 0, buf, fmt.Errorf("malformed status line %q", line)
	}
	length := -1
	for {
		line, err = r.ReadSlice('\n')
		if err != nil {
			return 0, buf, err
		}
		line = bytes.TrimRight(line, "\r\n")
		if len(line) == 0 {
			break
		}
		name, value, ok := bytes.Cut(line, []byte(":"))
		if !ok {
			return 0, buf, fmt.Errorf("malformed header %q", line)
		}
		value = bytes.TrimSpace(value)
		switch {
		case bytes.EqualFold(name, []byte("Content-Length")):
			if length, err = strconv.Atoi(string(value)); err != nil || length < 0 {
				return 0, buf, fmt.Errorf("malformed Content-Length %q", value)
			}
		case bytes.EqualFold(name, []byte("Transfer-Encoding")) && !bytes.EqualFold(value, []byte("identity")):
			return 0, buf, errChunked
		}
	}
	if length < 0 {
		return 0, buf, errors.New("reply without Content-Length")
	}
	if cap(buf) < length {
		buf = make([]byte, length, max(length, 2*cap(buf)))
	}
	buf = buf[:length]
	if _, err := io.ReadFull(r, buf); err != nil {
		return 0, buf, err
	}
	return status, buf, nil
}

// loadResult is what a closed-loop run measured.
type loadResult struct {
	OK, Failed int64
	Elapsed    time.Duration
	FirstFail  string // the first failure, for the report
}

// Rate is the successful requests per second.
func (r loadResult) Rate() float64 { return float64(r.OK) / r.Elapsed.Seconds() }

// closedLoop drives addr with conns connections, each sending its next request as soon as the previous reply
// arrived (a closed loop: the offered load follows the server's speed, so there is no queueing collapse to
// measure instead of the server). next returns the body of the next request, or false when the work is done;
// the run also ends at the deadline (the zero time means none). check judges a 200 reply's body.
func closedLoop(addr string, conns int, deadline time.Time, next func() ([]byte, bool), check func([]byte) error) (loadResult, error) {
	cs := make([]*rawConn, conns)
	for i := range cs {
		c, err := dialRaw(addr)
		if err != nil {
			for _, c := range cs[:i] {
				c.Close()
			}
			return loadResult{}, err
		}
		cs[i] = c
	}
	var (
		ok, failed atomic.Int64
		failOnce   sync.Once
		firstFail  string
		wg         sync.WaitGroup
	)
	fail := func(msg string) {
		failed.Add(1)
		failOnce.Do(func() { firstFail = msg })
	}
	start := time.Now()
	for _, c := range cs {
		wg.Go(func() {
			defer c.Close()
			var n int64
			defer func() { ok.Add(n) }()
			for deadline.IsZero() || time.Now().Before(deadline) {
				body, more := next()
				if !more {
					return
				}
				status, reply, err := c.post(body)
				switch {
				case err != nil:
					fail(err.Error())
					return // the connection is unusable
				case status != 200:
					fail(fmt.Sprintf("HTTP %d: %.200s", status, reply))
				default:
					if err := check(reply); err != nil {
						fail(err.Error())
					} else {
						n++
					}
				}
			}
		})
	}
	wg.Wait()
	return loadResult{OK: ok.Load(), Failed: failed.Load(), Elapsed: time.Since(start), FirstFail: firstFail}, nil
}

// isResult accepts a JSON-RPC reply that carries a result, and reports an error reply with its text.
func isResult(reply []byte) error {
	if bytes.Contains(reply, []byte(`"error":`)) || !bytes.Contains(reply, []byte(`"result":`)) {
		return fmt.Errorf("%.300s", bytes.TrimSpace(reply))
	}
	return nil
}
