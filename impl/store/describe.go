package store

import (
	"context"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/cockroachdb/pebble/v2"
	"github.com/cockroachdb/pebble/v2/sstable"
	"github.com/cockroachdb/pebble/v2/vfs"
)

// TableBlock is one data block of a table file: where it lies in the file and the user keys it holds.
type TableBlock struct {
	Offset, Length int64
	Keys           [][]byte
}

// TableBlocks lists the data blocks of the table file at path, in file (and key) order, from pebble's own
// description of the table. It is for drills and tests that damage one chosen block of a real ledger.
func TableBlocks(path string) ([]TableBlock, error) {
	f, err := vfs.Default.Open(path)
	if err != nil {
		return nil, err
	}
	readable, err := sstable.NewSimpleReadable(f)
	if err != nil {
		return nil, err
	}
	po := &pebble.Options{Comparer: comparer}
	po.EnsureDefaults()
	r, err := sstable.NewReader(context.Background(), readable, po.MakeReaderOptions())
	if err != nil {
		return nil, err
	}
	defer r.Close()
	layout, err := r.Layout()
	if err != nil {
		return nil, err
	}
	var keys [][]byte
	desc := layout.Describe(true, r, func(k *pebble.InternalKey, _ []byte) string {
		keys = append(keys, append([]byte(nil), k.UserKey...))
		return fmt.Sprintf("kv#%d#", len(keys)-1)
	})
	var out []TableBlock
	inData := false
	for _, line := range strings.Split(desc, "\n") {
		if m := blockHeader.FindStringSubmatch(line); m != nil {
			inData = m[1] == "data"
			if inData {
				off, _ := strconv.ParseInt(m[2], 10, 64)
				n, _ := strconv.ParseInt(m[3], 10, 64)
				out = append(out, TableBlock{Offset: off, Length: n})
			}
			continue
		}
		if m := kvMark.FindStringSubmatch(line); m != nil && inData {
			i, _ := strconv.Atoi(m[1])
			out[len(out)-1].Keys = append(out[len(out)-1].Keys, keys[i])
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("store: no data blocks found in %s", path)
	}
	return out, nil
}

var (
	blockHeader = regexp.MustCompile(`(\S+)  offset: (\d+)  length: (\d+)`)
	kvMark      = regexp.MustCompile(`kv#(\d+)#`)
)
