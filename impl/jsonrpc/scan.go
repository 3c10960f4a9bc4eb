package jsonrpc

import (
	"bytes"
	"encoding/json"
)

// A small scanner over JSON that json.Valid has already accepted. It finds the members of the request object and
// the elements of a batch without reflection or copies: decoding through encoding/json validated the body a second
// time and took half of the transport's time. The raw slices it returns point into the body, which is never reused,
// so a Dispatcher may keep its params.

// rawRequest holds the raw members of one request object; a nil slice means the member is absent.
type rawRequest struct {
	version, method, params, id []byte
}

// scanRequest splits the object b (valid JSON starting with '{') into its members. Keys are matched exactly,
// after decoding escapes; of duplicated keys the last wins, as with encoding/json.
func scanRequest(b []byte) rawRequest {
	var r rawRequest
	i := skipSpace(b, 1)
	if b[i] == '}' {
		return r
	}
	for {
		keyEnd := skipString(b, i)
		key := b[i:keyEnd]
		i = skipSpace(b, skipSpace(b, keyEnd)+1) // past the ':'
		valueEnd := skipValue(b, i)
		value := b[i:valueEnd]
		switch keyName(key) {
		case "jsonrpc":
			r.version = value
		case "method":
			r.method = value
		case "params":
			r.params = value
		case "id":
			r.id = value
		}
		i = skipSpace(b, valueEnd)
		if b[i] == '}' {
			return r
		}
		i = skipSpace(b, i+1) // past the ','
	}
}

// scanArray returns the elements of the array b (valid JSON starting with '[').
func scanArray(b []byte) [][]byte {
	var out [][]byte
	i := skipSpace(b, 1)
	if b[i] == ']' {
		return out
	}
	for {
		end := skipValue(b, i)
		out = append(out, b[i:end])
		i = skipSpace(b, end)
		if b[i] == ']' {
			return out
		}
		i = skipSpace(b, i+1)
	}
}

// keyName returns the decoded key for the four names a request uses, and "" for any other key.
func keyName(raw []byte) string {
	if bytes.IndexByte(raw, '\\') < 0 {
		switch string(raw[1 : len(raw)-1]) { // no allocation: the compiler compares in place
		case "jsonrpc":
			return "jsonrpc"
		case "method":
			return "method"
		case "params":
			return "params"
		case "id":
			return "id"
		}
		return ""
	}
	s, _ := decodeString(raw)
	return s
}

// decodeString decodes raw when it is a JSON string.
func decodeString(raw []byte) (string, bool) {
	if len(raw) < 2 || raw[0] != '"' {
		return "", false
	}
	if bytes.IndexByte(raw, '\\') < 0 {
		return string(raw[1 : len(raw)-1]), true
	}
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		return "", false
	}
	return s, true
}

func skipSpace(b []byte, i int) int {
	for i < len(b) {
		switch b[i] {
		case ' ', '\t', '\r', '\n':
			i++
		default:
			return i
		}
	}
	return i
}

// skipString returns the index just past the string that opens at b[i].
func skipString(b []byte, i int) int {
	for i++; i < len(b); i++ {
		switch b[i] {
		case '\\':
			i++
		case '"':
			return i + 1
		}
	}
	return i
}

// skipValue returns the index just past the value that starts at b[i].
func skipValue(b []byte, i int) int {
	switch b[i] {
	case '"':
		return skipString(b, i)
	case '{', '[':
		depth := 0
		for ; i < len(b); i++ {
			switch b[i] {
			case '"':
				i = skipString(b, i) - 1
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return i + 1
				}
			}
		}
		return i
	default: // a number, true, false or null
		for i < len(b) {
			switch b[i] {
			case ',', '}', ']', ' ', '\t', '\r', '\n':
				return i
			}
			i++
		}
		return i
	}
}
