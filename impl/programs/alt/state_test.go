package alt_test

import (
	"encoding/hex"
	"errors"
	"slices"
	"strings"
	"testing"

	"ledgerd/impl/core"
	"ledgerd/impl/core/sysvar"
	"ledgerd/impl/programs/alt"
	"ledgerd/impl/runtime"
)

func TestLayout(t *testing.T) {
	t.Parallel()
	authority := core.Pubkey{1, 2, 3}
	got := hex.EncodeToString(alt.Encode(alt.NewMeta(authority), []core.Pubkey{{9}}))
	want := "01000000" + "ffffffffffffffff" + "0000000000000000" + "00" + "01" + hex.EncodeToString(authority[:]) + "0000" +
		"09" + "00000000000000000000000000000000000000000000000000000000000000"
	if got != want {
		t.Fatalf("table data\n got %s\nwant %s", got, want)
	}
	m := alt.Meta{DeactivationSlot: 7, LastExtendedSlot: 0x0102, LastExtendedSlotStartIndex: 3}
	got = hex.EncodeToString(alt.Encode(m, nil))
	want = "01000000" + "0700000000000000" + "0201000000000000" + "03" + "00" + "0000" + hex.EncodeToString(make([]byte, 32))
	if got != want {
		t.Fatalf("frozen table data\n got %s\nwant %s", got, want)
	}
}

func TestDecode(t *testing.T) {
	t.Parallel()
	authority := core.Pubkey{7}
	addrs := addresses(3, 1)
	good := alt.Encode(alt.Meta{DeactivationSlot: 5, LastExtendedSlot: 4, LastExtendedSlotStartIndex: 2, Authority: &authority}, addrs)
	tbl, err := alt.Decode(good)
	if err != nil || tbl.Meta.DeactivationSlot != 5 || tbl.Meta.LastExtendedSlot != 4 || tbl.Meta.LastExtendedSlotStartIndex != 2 ||
		*tbl.Meta.Authority != authority || !slices.Equal(tbl.Addresses, addrs) {
		t.Fatalf("decode = %+v, %v", tbl, err)
	}
	frozen, err := alt.Decode(alt.Encode(alt.Meta{}, nil))
	if err != nil || frozen.Meta.Authority != nil || len(frozen.Addresses) != 0 {
		t.Fatalf("frozen = %+v, %v", frozen, err)
	}
	badOption := slices.Clone(good)
	badOption[21] = 2
	badTag := slices.Clone(good)
	badTag[0] = 2
	for _, c := range []struct {
		name string
		data []byte
		want error
	}{
		{"empty", nil, alt.ErrInvalidData},
		{"short tag", []byte{1, 0}, alt.ErrInvalidData},
		{"uninitialized", make([]byte, 4), alt.ErrUninitialized},
		{"uninitialized table", make([]byte, alt.MetaSize), alt.ErrUninitialized},
		{"unknown state", badTag, alt.ErrInvalidData},
		{"bad option tag", badOption, alt.ErrInvalidData},
		{"short meta", good[:40], alt.ErrInvalidData},
		{"meta without padding", alt.Encode(alt.Meta{}, nil)[:24], alt.ErrInvalidData},
		{"partial address", good[:len(good)-1], alt.ErrInvalidData},
	} {
		if _, err := alt.Decode(c.data); !errors.Is(err, c.want) {
			t.Errorf("%s: err = %v, want %v", c.name, err, c.want)
		}
	}
}

func slotHashes(slots ...uint64) alt.SlotHashes {
	var sh sysvar.SlotHashes
	for _, s := range slots {
		sh = append(sh, sysvar.SlotHash{Slot: s})
	}
	return alt.SlotHashes(sh.AccountData())
}

func TestStatus(t *testing.T) {
	t.Parallel()
	hashes := slotHashes(99, 98, 97, 50)
	for _, c := range []struct {
		deactivation uint64
		status       alt.Status
		remaining    int
	}{
		{alt.Active, alt.Activated, 0},
		{100, alt.Deactivating, 513},
		{99, alt.Deactivating, 512},
		{50, alt.Deactivating, 509},
		{49, alt.Deactivated, 0},
		{60, alt.Deactivated, 0}, // skipped slots are not in SlotHashes
		{0, alt.Deactivated, 0},  // the sysvar's padding is not a slot
	} {
		m := alt.Meta{DeactivationSlot: c.deactivation}
		if s, r := m.Status(100, hashes); s != c.status || r != c.remaining {
			t.Errorf("deactivated at %d: status %d, %d blocks; want %d, %d", c.deactivation, s, r, c.status, c.remaining)
		}
	}
}

func TestLookup(t *testing.T) {
	t.Parallel()
	addrs := addresses(5, 1)
	hashes := slotHashes(9, 8, 7)
	// Three addresses before slot 10, two more in slot 10.
	tbl := &alt.Table{Meta: alt.Meta{DeactivationSlot: alt.Active, LastExtendedSlot: 10, LastExtendedSlotStartIndex: 3}, Addresses: addrs}
	for _, c := range []struct {
		slot    uint64
		indexes []uint8
		want    []core.Pubkey
		err     error
	}{
		{10, []uint8{2, 0}, []core.Pubkey{addrs[2], addrs[0]}, nil},
		{10, []uint8{3}, nil, alt.ErrInvalidIndex},
		{11, []uint8{4, 3}, []core.Pubkey{addrs[4], addrs[3]}, nil},
		{11, []uint8{5}, nil, alt.ErrInvalidIndex},
		{11, nil, []core.Pubkey{}, nil},
	} {
		got, err := tbl.Lookup(c.slot, c.indexes, hashes)
		if !errors.Is(err, c.err) || (err == nil && !slices.Equal(got, c.want)) {
			t.Errorf("slot %d indexes %v: %v, %v; want %v, %v", c.slot, c.indexes, got, err, c.want, c.err)
		}
	}
	// Metadata claiming more active addresses than the table holds.
	bad := &alt.Table{Meta: alt.Meta{DeactivationSlot: alt.Active, LastExtendedSlot: 10, LastExtendedSlotStartIndex: 9}, Addresses: addrs}
	if _, err := bad.Lookup(10, []uint8{0}, hashes); !errors.Is(err, alt.ErrInvalidData) {
		t.Errorf("inconsistent table: %v", err)
	}
	// A deactivated table serves while cooling down, and then not even for no index.
	tbl.Meta.DeactivationSlot = 8
	if _, err := tbl.Lookup(11, []uint8{0}, hashes); err != nil {
		t.Errorf("cooling down: %v", err)
	}
	tbl.Meta.DeactivationSlot = 6
	if _, err := tbl.Lookup(11, nil, hashes); !errors.Is(err, alt.ErrTableNotFound) {
		t.Errorf("deactivated: %v", err)
	}
}

func TestLoadAddresses(t *testing.T) {
	t.Parallel()
	a1, a2 := addresses(4, 1), addresses(4, 2)
	t1, t2, sys, junk, gone := core.Pubkey{1}, core.Pubkey{2}, core.Pubkey{3}, core.Pubkey{4}, core.Pubkey{5}
	deactivated := alt.Meta{DeactivationSlot: 3}
	src := runtime.MapSource{
		t1:   {Lamports: 1, Owner: alt.ProgramID, Data: alt.Encode(alt.Meta{DeactivationSlot: alt.Active}, a1)},
		t2:   {Lamports: 1, Owner: alt.ProgramID, Data: alt.Encode(deactivated, a2)},
		sys:  {Lamports: 1, Owner: core.SystemProgramID},
		junk: {Lamports: 1, Owner: alt.ProgramID, Data: []byte{1, 0, 0}},
		gone: {Lamports: 0, Owner: alt.ProgramID, Data: alt.Encode(alt.Meta{DeactivationSlot: alt.Active}, a1)},
	}
	cooling := slotHashes(19, 18, 3)
	lookups := []core.AddressTableLookup{
		{AccountKey: t1, WritableIndexes: []uint8{1}, ReadonlyIndexes: []uint8{0, 3}},
		{AccountKey: t2, WritableIndexes: []uint8{2, 2}, ReadonlyIndexes: []uint8{1}},
	}
	loaded, terr := alt.LoadAddresses(lookups, src, 20, cooling)
	if terr != nil {
		t.Fatal(terr)
	}
	if w := []core.Pubkey{a1[1], a2[2], a2[2]}; !slices.Equal(loaded.Writable, w) {
		t.Errorf("writable = %v, want %v", loaded.Writable, w)
	}
	if r := []core.Pubkey{a1[0], a1[3], a2[1]}; !slices.Equal(loaded.Readonly, r) {
		t.Errorf("readonly = %v, want %v", loaded.Readonly, r)
	}
	for _, c := range []struct {
		name    string
		lookups []core.AddressTableLookup
		hashes  alt.SlotHashes
		want    runtime.TransactionErrorKind
	}{
		{"no account", []core.AddressTableLookup{{AccountKey: core.Pubkey{9}, WritableIndexes: []uint8{0}}}, cooling, runtime.TxAddressLookupTableNotFound},
		{"closed account", []core.AddressTableLookup{{AccountKey: gone, WritableIndexes: []uint8{0}}}, cooling, runtime.TxAddressLookupTableNotFound},
		{"wrong owner", []core.AddressTableLookup{{AccountKey: sys, ReadonlyIndexes: []uint8{0}}}, cooling, runtime.TxInvalidAddressLookupTableOwner},
		{"bad data", []core.AddressTableLookup{{AccountKey: junk, ReadonlyIndexes: []uint8{0}}}, cooling, runtime.TxInvalidAddressLookupTableData},
		{"writable index out of range", []core.AddressTableLookup{{AccountKey: t1, WritableIndexes: []uint8{4}}}, cooling, runtime.TxInvalidAddressLookupTableIndex},
		{"readonly index out of range", []core.AddressTableLookup{{AccountKey: t1, ReadonlyIndexes: []uint8{0, 255}}}, cooling, runtime.TxInvalidAddressLookupTableIndex},
		{"deactivated", lookups, slotHashes(19, 18), runtime.TxAddressLookupTableNotFound},
		{"first failure wins", append(slices.Clone(lookups[:1]), core.AddressTableLookup{AccountKey: sys, WritableIndexes: []uint8{0}},
			core.AddressTableLookup{AccountKey: core.Pubkey{9}, WritableIndexes: []uint8{0}}), cooling, runtime.TxInvalidAddressLookupTableOwner},
	} {
		got, terr := alt.LoadAddresses(c.lookups, src, 20, c.hashes)
		if terr == nil || terr.Kind != c.want || got != nil {
			t.Errorf("%s: %v, %v; want %s", c.name, got, terr, c.want.Name())
			continue
		}
		if text := alt.AddressLoaderErrorText(terr); !strings.HasPrefix(text, "Attempted to lookup addresses from ") &&
			text != "Address lookup contains an invalid index" {
			t.Errorf("%s: loader text %q", c.name, text)
		}
	}
}

func TestSlotHashes(t *testing.T) {
	t.Parallel()
	sh := slotHashes(30, 20, 10)
	if sh.Len() != 3 {
		t.Fatalf("len = %d", sh.Len())
	}
	for slot, want := range map[uint64]int{30: 0, 20: 1, 10: 2, 25: -1, 0: -1, 31: -1} {
		pos, ok := sh.Position(slot)
		if (want < 0) == ok || (ok && pos != want) {
			t.Errorf("position(%d) = %d, %v", slot, pos, ok)
		}
	}
	// A truncated account holds only its whole entries.
	if n := alt.SlotHashes(sh[:8+40*2+5]).Len(); n != 2 {
		t.Errorf("truncated len = %d", n)
	}
	if alt.SlotHashes(nil).Len() != 0 {
		t.Error("empty data has entries")
	}
}
