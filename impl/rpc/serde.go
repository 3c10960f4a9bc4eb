package rpc

import (
	"bytes"
	"encoding/json"
)

// serdeValue renders v as the reference renders a value it first turns into a serde_json::Value (the data of a
// -32002 preflight failure, built with json!): the keys of every object in sorted order, since that Value's map
// is ordered by key, at every depth; numbers exactly as written (u64 included); no HTML escaping, as serde_json
// escapes none.
func serdeValue(v any) (json.RawMessage, error) {
	raw, err := marshalNoEscape(v)
	if err != nil {
		return nil, err
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var tree any
	if err := dec.Decode(&tree); err != nil {
		return nil, err
	}
	// encoding/json writes map keys sorted by their bytes, the order of the reference's string keys.
	return marshalNoEscape(tree)
}

func marshalNoEscape(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}
