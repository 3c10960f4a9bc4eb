package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/big"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"
)

// Kind is the JSON kind of a Node.
type Kind int

const (
	KNull Kind = iota
	KBool
	KNumber
	KString
	KArray
	KObject
)

// Node is a JSON value that remembers the order of object keys and where it came from, so the assembled document
// keeps the authors' order (stable output) and every problem can be reported with its file and path.
type Node struct {
	Kind  Kind
	Bool  bool
	Num   string // a JSON number literal
	Str   string
	Items []*Node
	Keys  []string
	Vals  []*Node
	File  string
	Line  int
}

// Get returns the value of key in an object, or nil.
func (n *Node) Get(key string) *Node {
	if n == nil || n.Kind != KObject {
		return nil
	}
	for i, k := range n.Keys {
		if k == key {
			return n.Vals[i]
		}
	}
	return nil
}

// Set adds or replaces key in an object.
func (n *Node) Set(key string, v *Node) {
	for i, k := range n.Keys {
		if k == key {
			n.Vals[i] = v
			return
		}
	}
	n.Keys = append(n.Keys, key)
	n.Vals = append(n.Vals, v)
}

// Delete removes key from an object.
func (n *Node) Delete(key string) {
	for i, k := range n.Keys {
		if k == key {
			n.Keys = append(n.Keys[:i], n.Keys[i+1:]...)
			n.Vals = append(n.Vals[:i], n.Vals[i+1:]...)
			return
		}
	}
}

func (n *Node) String() string {
	if n == nil || n.Kind != KString {
		return ""
	}
	return n.Str
}

func (n *Node) Truthy() bool { return n != nil && n.Kind == KBool && n.Bool }

func (n *Node) Where() string {
	if n == nil {
		return "?"
	}
	return fmt.Sprintf("%s:%d", n.File, n.Line)
}

// MarshalJSON writes the node with its keys in their original order.
func (n *Node) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	n.write(&b)
	return b.Bytes(), nil
}

func (n *Node) write(b *bytes.Buffer) {
	switch n.Kind {
	case KNull:
		b.WriteString("null")
	case KBool:
		b.WriteString(strconv.FormatBool(n.Bool))
	case KNumber:
		b.WriteString(n.Num)
	case KString:
		s, _ := json.Marshal(n.Str)
		b.Write(s)
	case KArray:
		b.WriteByte('[')
		for i, it := range n.Items {
			if i > 0 {
				b.WriteByte(',')
			}
			it.write(b)
		}
		b.WriteByte(']')
	case KObject:
		b.WriteByte('{')
		for i, k := range n.Keys {
			if i > 0 {
				b.WriteByte(',')
			}
			s, _ := json.Marshal(k)
			b.Write(s)
			b.WriteByte(':')
			n.Vals[i].write(b)
		}
		b.WriteByte('}')
	}
}

// Plain converts the node to the values encoding/json produces with UseNumber, for the schema validator.
func (n *Node) Plain() any {
	switch n.Kind {
	case KBool:
		return n.Bool
	case KNumber:
		return json.Number(n.Num)
	case KString:
		return n.Str
	case KArray:
		out := make([]any, len(n.Items))
		for i, it := range n.Items {
			out[i] = it.Plain()
		}
		return out
	case KObject:
		out := make(map[string]any, len(n.Keys))
		for i, k := range n.Keys {
			out[k] = n.Vals[i].Plain()
		}
		return out
	}
	return nil
}

// Clone copies a node deeply.
func (n *Node) Clone() *Node {
	c := *n
	c.Items = nil
	c.Vals = nil
	c.Keys = append([]string(nil), n.Keys...)
	for _, it := range n.Items {
		c.Items = append(c.Items, it.Clone())
	}
	for _, v := range n.Vals {
		c.Vals = append(c.Vals, v.Clone())
	}
	return &c
}

// fromYAML converts a parsed YAML node into a Node, rejecting what JSON cannot hold.
func fromYAML(file string, y *yaml.Node) (*Node, error) {
	switch y.Kind {
	case yaml.DocumentNode:
		if len(y.Content) == 0 {
			return &Node{Kind: KNull, File: file, Line: y.Line}, nil
		}
		return fromYAML(file, y.Content[0])
	case yaml.AliasNode:
		return fromYAML(file, y.Alias)
	case yaml.SequenceNode:
		n := &Node{Kind: KArray, File: file, Line: y.Line, Items: []*Node{}}
		for _, c := range y.Content {
			v, err := fromYAML(file, c)
			if err != nil {
				return nil, err
			}
			n.Items = append(n.Items, v)
		}
		return n, nil
	case yaml.MappingNode:
		n := &Node{Kind: KObject, File: file, Line: y.Line}
		for i := 0; i+1 < len(y.Content); i += 2 {
			k := y.Content[i]
			if k.Kind != yaml.ScalarNode {
				return nil, fmt.Errorf("%s:%d: a mapping key must be a scalar", file, k.Line)
			}
			if n.Get(k.Value) != nil {
				return nil, fmt.Errorf("%s:%d: key %q defined twice", file, k.Line, k.Value)
			}
			v, err := fromYAML(file, y.Content[i+1])
			if err != nil {
				return nil, err
			}
			n.Keys = append(n.Keys, k.Value)
			n.Vals = append(n.Vals, v)
		}
		return n, nil
	case yaml.ScalarNode:
		n := &Node{File: file, Line: y.Line}
		switch y.ShortTag() {
		case "!!null":
			n.Kind = KNull
		case "!!bool":
			n.Kind = KBool
			n.Bool = y.Value == "true" || y.Value == "True" || y.Value == "TRUE"
		case "!!int":
			v, ok := new(big.Int).SetString(strings.ReplaceAll(y.Value, "_", ""), 0)
			if !ok {
				return nil, fmt.Errorf("%s:%d: bad integer %q", file, y.Line, y.Value)
			}
			n.Kind = KNumber
			n.Num = v.String()
		case "!!float":
			f, err := strconv.ParseFloat(y.Value, 64)
			if err != nil {
				return nil, fmt.Errorf("%s:%d: bad number %q", file, y.Line, y.Value)
			}
			n.Kind = KNumber
			n.Num = strconv.FormatFloat(f, 'g', -1, 64)
		default:
			n.Kind = KString
			n.Str = y.Value
		}
		return n, nil
	}
	return nil, fmt.Errorf("%s:%d: unsupported YAML node", file, y.Line)
}

// fromJSON builds a Node from JSON text, keeping key order (used for the golden tests and the meta-schema).
func fromJSON(file string, data []byte) (*Node, error) {
	var y yaml.Node
	// JSON is YAML; yaml.v3 keeps the key order for us.
	if err := yaml.Unmarshal(data, &y); err != nil {
		return nil, fmt.Errorf("%s: %v", file, err)
	}
	return fromYAML(file, &y)
}
