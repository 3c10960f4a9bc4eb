package bigtable

import (
	"context"
	"encoding/binary"
	"errors"
	"io"
	"log/slog"
	"net"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	bt "cloud.google.com/go/bigtable"
	"cloud.google.com/go/bigtable/bttest"
	"github.com/bufbuild/protocompile"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/dynamicpb"

	"ledgerd/impl/core"
	"ledgerd/impl/ledger"
	"ledgerd/impl/runtime"
)

// proxy stands between the client and the emulator so a test can cut Bigtable off and bring it back with its
// data (an emulator restarted would come back empty).
type proxy struct {
	ln     net.Listener
	target string
	mu     sync.Mutex
	down   bool
	conns  []net.Conn
}

func newProxy(t testing.TB, target string) *proxy {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &proxy{ln: ln, target: target}
	t.Cleanup(func() { ln.Close(); p.setDown(true) })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			p.mu.Lock()
			if p.down {
				p.mu.Unlock()
				c.Close()
				continue
			}
			up, err := net.Dial("tcp", p.target)
			if err != nil {
				p.mu.Unlock()
				c.Close()
				continue
			}
			p.conns = append(p.conns, c, up)
			p.mu.Unlock()
			go func() { io.Copy(up, c); up.Close() }()
			go func() { io.Copy(c, up); c.Close() }()
		}
	}()
	return p
}

func (p *proxy) addr() string { return p.ln.Addr().String() }

// retarget sends the connections made from now on to another emulator (one restarted empty).
func (p *proxy) retarget(target string) {
	p.setDown(true)
	p.mu.Lock()
	p.target = target
	p.mu.Unlock()
	p.setDown(false)
}

// setDown cuts every connection and refuses new ones (down), or lets them through again.
func (p *proxy) setDown(down bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.down = down
	if down {
		for _, c := range p.conns {
			c.Close()
		}
		p.conns = nil
	}
}

// emulator starts bttest behind a proxy and connects to it with the four tables created.
func emulator(t *testing.T) (*Client, *proxy) { return emulatorTimeout(t, 2*time.Second) }

// emulatorTimeout is emulator with the client's timeout for each call.
func emulatorTimeout(t testing.TB, timeout time.Duration) (*Client, *proxy) {
	t.Helper()
	srv, err := bttest.NewServer("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Close)
	p := newProxy(t, srv.Addr)
	c, err := Dial(context.Background(), Config{EmulatorHost: p.addr(), CreateTables: true, Timeout: timeout})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c, p
}

var quiet = slog.New(slog.NewTextHandler(io.Discard, nil))

// chain opens a ledger producing slots on request, every slot rooted at once.
func chain(t *testing.T) *ledger.Ledger {
	t.Helper()
	l, err := ledger.Open(ledger.Config{Dir: t.TempDir(), FinalityDepthZero: true, BlockProduction: ledger.ProduceOnRequest,
		Logger: quiet})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Stop(); l.Close() })
	return l
}

func advance(t *testing.T, l *ledger.Ledger, n uint64) {
	t.Helper()
	if _, err := l.AdvanceSlots(context.Background(), n); err != nil {
		t.Fatal(err)
	}
}

func execute(t *testing.T, l *ledger.Ledger, tx *core.Transaction) *ledger.Executed {
	t.Helper()
	ex, err := l.Execute(context.Background(), tx)
	if err != nil {
		t.Fatal(err)
	}
	return ex
}

// history produces a few slots with a memo transfer, a failed transfer and a plain one; it returns the two
// parties.
func history(t *testing.T, l *ledger.Ledger) (alice, bob core.Keypair) {
	t.Helper()
	alice, _ = core.NewKeypair()
	bob, _ = core.NewKeypair()
	advance(t, l, 2)
	faucet := l.Genesis.Faucet
	hash := l.Bank(ledger.Processed).LastBlockhash()
	tx, err := core.NewTransaction(faucet.PublicKey(), []core.Instruction{
		core.TransferInstruction(faucet.PublicKey(), alice.PublicKey(), 5_000_000_000),
		{ProgramID: core.MemoProgramID, Data: []byte("to bigtable")},
	}, hash, faucet)
	if err != nil {
		t.Fatal(err)
	}
	execute(t, l, tx)
	advance(t, l, 1)
	hash = l.Bank(ledger.Processed).LastBlockhash()
	failed := core.NewTransferTx(alice, bob.PublicKey(), 9_000_000_000, hash) // more than alice holds
	if ex := execute(t, l, failed); ex.Result == nil || ex.Result.Err == nil {
		t.Fatalf("the overdraft did not fail: %+v", ex)
	}
	execute(t, l, core.NewTransferTx(alice, bob.PublicKey(), 1_000_000, hash))
	advance(t, l, 3)
	return alice, bob
}

// uploadAll runs the uploader until it has caught up with the root.
func uploadAll(t *testing.T, c *Client, l *ledger.Ledger, state string) *Uploader {
	t.Helper()
	u, err := NewUploader(c, l, UploaderConfig{StateFile: state, Logger: quiet})
	if err != nil {
		t.Fatal(err)
	}
	if err := u.catchUp(context.Background()); err != nil {
		t.Fatal(err)
	}
	return u
}

// local reads a block and its transactions from the ledger, in the shape the archive gives them back: the
// fields the layout does not carry (kept by the ledger for its own restart) zeroed.
func local(t *testing.T, l *ledger.Ledger, slot uint64) (*ledger.BlockInfo, []*ledger.TxRecord) {
	t.Helper()
	info, found, err := l.Block(slot, ledger.Finalized)
	if err != nil || !found {
		t.Fatalf("block %d: %v %v", slot, found, err)
	}
	txs, err := l.BlockTransactions(info)
	if err != nil {
		t.Fatal(err)
	}
	cp := *info
	cp.TransactionCount, cp.Capitalization, cp.EpochStartTimestamp = 0, 0, 0
	return &cp, txs
}

func TestUploadReadsBackAsStored(t *testing.T) {
	c, _ := emulator(t)
	l := chain(t)
	alice, _ := history(t, l)
	u := uploadAll(t, c, l, t.TempDir()+"/state")
	_, _, root := l.Slots()
	if last, ok := u.Last(); !ok || last != root || u.Lag() != 0 {
		t.Fatalf("uploaded through %d (%v), lag %d; root %d", last, ok, u.Lag(), root)
	}
	a := NewArchive(c)
	for s := uint64(0); s <= root; s++ {
		want, wantTxs := local(t, l, s)
		got, gotTxs, found, err := a.Block(s)
		if err != nil || !found {
			t.Fatalf("archive block %d: %v %v", s, found, err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("block %d:\n got %+v\nwant %+v", s, got, want)
		}
		if !reflect.DeepEqual(gotTxs, wantTxs) {
			dump(t, gotTxs, wantTxs, "txs")
			t.Errorf("block %d transactions differ", s)
		}
	}
	slots, err := a.Blocks(1, 3)
	if err != nil || !reflect.DeepEqual(slots, []uint64{1, 2, 3}) {
		t.Errorf("Blocks(1, 3) = %v, %v", slots, err)
	}
	if last, found, err := a.LastBlock(); err != nil || !found || last != root {
		t.Errorf("LastBlock = %d %v %v, want %d", last, found, err, root)
	}

	// The address index: alice's three transactions, newest first, with the memo of the first and the error of
	// the overdraft, as the ledger lists them.
	want, err := l.SignaturesForAddress(alice.PublicKey(), nil, nil, 10, ledger.Finalized)
	if err != nil || len(want) != 3 {
		t.Fatalf("local list: %d %v", len(want), err)
	}
	got, err := a.SignaturesForAddress(alice.PublicKey(), nil, nil, 10)
	if err != nil || len(got) != len(want) {
		t.Fatalf("archive list: %d %v", len(got), err)
	}
	for i := range want {
		w, g := want[i], got[i]
		if g.Tx.Signature() != w.Tx.Signature() || g.Slot != w.Slot || g.BlockTime != w.BlockTime ||
			!reflect.DeepEqual(g.Meta.Err, w.Meta.Err) {
			t.Errorf("entry %d: got %v@%d, want %v@%d", i, g.Tx.Signature(), g.Slot, w.Tx.Signature(), w.Slot)
		}
	}
	if got[2].Memo == nil || *got[2].Memo != "[11] to bigtable" || got[0].Memo != nil {
		t.Errorf("memos: %v %v", got[2].Memo, got[0].Memo)
	}
	// Paging: before the newest, until the oldest leaves the middle one.
	s0, s2 := want[0].Tx.Signature(), want[2].Tx.Signature()
	mid, err := a.SignaturesForAddress(alice.PublicKey(), &s0, &s2, 10)
	if err != nil || len(mid) != 1 || mid[0].Tx.Signature() != want[1].Tx.Signature() {
		t.Errorf("before/until: %v %v", mid, err)
	}
	// The system program is a reserved key: not indexed, as the reference leaves it out.
	if sys, err := a.SignaturesForAddress(core.SystemProgramID, nil, nil, 10); err != nil || len(sys) != 0 {
		t.Errorf("system program listed %d entries (%v)", len(sys), err)
	}
	st, txErr, found, err := a.TransactionStatus(want[1].Tx.Signature())
	if err != nil || !found || st != want[1].Slot || !reflect.DeepEqual(txErr, want[1].Meta.Err) {
		t.Errorf("status: %d %v %v %v", st, txErr, found, err)
	}
	rec, found, err := a.Transaction(want[2].Tx.Signature())
	if err != nil || !found || rec.Tx.Signature() != s2 || !reflect.DeepEqual(rec.Meta, want[2].Meta) {
		t.Errorf("transaction: %v %v", found, err)
	}
	if _, found, err := a.Transaction(core.Signature{1}); found || err != nil {
		t.Errorf("unknown transaction: %v %v", found, err)
	}

	// Idempotent: uploading everything again changes nothing a reader sees.
	u2, _ := NewUploader(c, l, UploaderConfig{Logger: quiet})
	u2.last, u2.haveLast = 0, true
	if err := u2.catchUp(context.Background()); err != nil {
		t.Fatal(err)
	}
	again, _ := a.SignaturesForAddress(alice.PublicKey(), nil, nil, 10)
	if len(again) != 3 {
		t.Errorf("after a second upload alice lists %d entries", len(again))
	}
}

// compile builds descriptors from the .proto files in testdata, written from the reference's definitions.
func compile(t *testing.T) map[string]protoreflect.MessageDescriptor {
	t.Helper()
	comp := protocompile.Compiler{Resolver: &protocompile.SourceResolver{ImportPaths: []string{"testdata"}}}
	files, err := comp.Compile(context.Background(), "confirmed_block.proto", "transaction_by_addr.proto", "entries.proto")
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]protoreflect.MessageDescriptor{}
	for _, f := range files {
		msgs := f.Messages()
		for i := range msgs.Len() {
			out[string(msgs.Get(i).FullName())] = msgs.Get(i)
		}
	}
	return out
}

// rawCell reads a row's newest cell straight from the emulator and strips the compression header by hand.
func rawCell(t *testing.T, c *Client, table, key, cell string) []byte {
	t.Helper()
	r, err := c.tables[table].ReadRow(context.Background(), key, bt.RowFilter(bt.LatestNFilter(1)))
	if err != nil || r == nil {
		t.Fatalf("%s/%s: %v", table, key, err)
	}
	items := r[Family]
	if len(items) != 1 || items[0].Column != Family+":"+cell {
		t.Fatalf("%s/%s: cells %+v, want one %s:%s", table, key, items, Family, cell)
	}
	v := items[0].Value
	switch m := binary.LittleEndian.Uint32(v); m {
	case 0:
		return v[4:]
	case 3:
		out, err := zstdDecoder.DecodeAll(v[4:], nil)
		if err != nil {
			t.Fatal(err)
		}
		return out
	default:
		t.Fatalf("%s/%s: compression method %d", table, key, m)
	}
	return nil
}

func field(m protoreflect.Message, name string) protoreflect.Value {
	return m.Get(m.Descriptor().Fields().ByName(protoreflect.Name(name)))
}

// TestRowsDecodeWithTheReferenceDefinitions decodes what the uploader wrote with a decoder built from the
// reference's .proto definitions (protocompile + dynamicpb), not from this package's own code.
func TestRowsDecodeWithTheReferenceDefinitions(t *testing.T) {
	c, _ := emulator(t)
	l := chain(t)
	alice, _ := history(t, l)
	uploadAll(t, c, l, "")
	descs := compile(t)
	list, err := l.SignaturesForAddress(alice.PublicKey(), nil, nil, 10, ledger.Finalized)
	if err != nil || len(list) != 3 {
		t.Fatal(len(list), err)
	}
	failed := list[1]
	for _, r := range list {
		t.Logf("%s slot %d index %d err %v", r.Tx.Signature(), r.Slot, r.Index, r.Meta.Err)
	}
	info, txs := local(t, l, failed.Slot)

	block := dynamicpb.NewMessage(descs["solana.storage.ConfirmedBlock.ConfirmedBlock"])
	if err := proto.Unmarshal(rawCell(t, c, TableBlocks, slotKey(failed.Slot), CellProto), block); err != nil {
		t.Fatal(err)
	}
	if got := field(block, "blockhash").String(); got != info.Blockhash.String() {
		t.Errorf("blockhash %q, want %s", got, info.Blockhash)
	}
	if got := field(block, "previous_blockhash").String(); got != info.PreviousBlockhash.String() {
		t.Errorf("previous_blockhash %q", got)
	}
	if got := field(block, "parent_slot").Uint(); got != info.ParentSlot {
		t.Errorf("parent_slot %d, want %d", got, info.ParentSlot)
	}
	if got := field(field(block, "block_time").Message(), "timestamp").Int(); got != info.BlockTime {
		t.Errorf("block_time %d, want %d", got, info.BlockTime)
	}
	if got := field(field(block, "block_height").Message(), "block_height").Uint(); got != info.BlockHeight {
		t.Errorf("block_height %d, want %d", got, info.BlockHeight)
	}
	ptxs := field(block, "transactions").List()
	if ptxs.Len() != len(txs) {
		t.Fatalf("%d transactions, want %d", ptxs.Len(), len(txs))
	}
	for i := range ptxs.Len() {
		ct := ptxs.Get(i).Message()
		ptx := field(ct, "transaction").Message()
		sig := field(ptx, "signatures").List().Get(0).Bytes()
		if core.Signature(sig) != txs[i].Tx.Signature() {
			t.Errorf("tx %d signature", i)
		}
		msg := field(ptx, "message").Message()
		keys := field(msg, "account_keys").List()
		if keys.Len() != len(txs[i].Tx.Message.AccountKeys) || core.Pubkey(keys.Get(0).Bytes()) != txs[i].Tx.Message.AccountKeys[0] {
			t.Errorf("tx %d account keys", i)
		}
		if core.Hash(field(msg, "recent_blockhash").Bytes()) != txs[i].Tx.Message.RecentBlockhash {
			t.Errorf("tx %d recent blockhash", i)
		}
		meta := field(ct, "meta").Message()
		if got := field(meta, "fee").Uint(); got != txs[i].Meta.Fee {
			t.Errorf("tx %d fee %d, want %d", i, got, txs[i].Meta.Fee)
		}
		pre := field(meta, "pre_balances").List()
		if pre.Len() != len(txs[i].Meta.PreBalances) || pre.Get(0).Uint() != txs[i].Meta.PreBalances[0] {
			t.Errorf("tx %d pre balances", i)
		}
		if got := field(meta, "log_messages").List(); got.Len() != len(txs[i].Meta.Logs) {
			t.Errorf("tx %d: %d logs, want %d", i, got.Len(), len(txs[i].Meta.Logs))
		}
		if !meta.Has(meta.Descriptor().Fields().ByName("compute_units_consumed")) ||
			field(meta, "compute_units_consumed").Uint() != txs[i].Meta.ComputeUnitsConsumed {
			t.Errorf("tx %d compute units", i)
		}
		errCell := meta.Has(meta.Descriptor().Fields().ByName("err"))
		if errCell != (txs[i].Meta.Err != nil) {
			t.Errorf("tx %d: err present %v", i, errCell)
		}
		if errCell {
			// TransactionError is bincode: InstructionError (8), instruction 0, Custom (25), code 1.
			want := []byte{8, 0, 0, 0, 0, 25, 0, 0, 0, 1, 0, 0, 0}
			if got := field(field(meta, "err").Message(), "err").Bytes(); !reflect.DeepEqual(got, want) {
				t.Errorf("tx %d err bytes %v, want %v", i, got, want)
			}
		}
	}

	// tx-by-addr: alice's row of the overdraft's slot, the error in its structured form.
	row := dynamicpb.NewMessage(descs["solana.storage.TransactionByAddr.TransactionByAddr"])
	if err := proto.Unmarshal(rawCell(t, c, TableTxByAddr, alice.PublicKey().String()+"/"+slotKey(^failed.Slot), CellProto), row); err != nil {
		t.Fatal(err)
	}
	entries := field(row, "tx_by_addrs").List()
	if entries.Len() != 2 {
		t.Fatalf("alice's row has %d entries, want 2", entries.Len())
	}
	e0 := entries.Get(0).Message()
	if core.Signature(field(e0, "signature").Bytes()) != failed.Tx.Signature() || field(e0, "index").Uint() != uint64(failed.Index) {
		t.Errorf("first entry is not the overdraft: %x index %d, want %s", field(e0, "signature").Bytes()[:4], field(e0, "index").Uint(), failed.Tx.Signature())
	}
	te := field(e0, "err").Message()
	ie := field(te, "instruction_error").Message()
	if field(te, "transaction_error").Uint() != 8 || field(ie, "index").Uint() != 0 || field(ie, "error").Uint() != 25 ||
		field(field(ie, "custom").Message(), "custom").Uint() != 1 {
		t.Errorf("structured error %v", te)
	}
	if got := field(field(e0, "block_time").Message(), "timestamp").Int(); got != info.BlockTime {
		t.Errorf("entry block time %d", got)
	}

	// tx: the bincode TransactionInfo, read field by field.
	v := rawCell(t, c, TableTx, list[2].Tx.Signature().String(), CellBin)
	memo := "[11] to bigtable"
	want := binary.LittleEndian.AppendUint64(nil, list[2].Slot)
	want = binary.LittleEndian.AppendUint32(want, list[2].Index)
	want = append(want, 0, 1)
	want = binary.LittleEndian.AppendUint64(want, uint64(len(memo)))
	want = append(want, memo...)
	if !reflect.DeepEqual(v, want) {
		t.Errorf("tx cell %v, want %v", v, want)
	}

	// entries: one entry, the blockhash, every transaction.
	ents := dynamicpb.NewMessage(descs["solana.storage.Entries.Entries"])
	if err := proto.Unmarshal(rawCell(t, c, TableEntries, slotKey(failed.Slot), CellProto), ents); err != nil {
		t.Fatal(err)
	}
	e := field(ents, "entries").List().Get(0).Message()
	if core.Hash(field(e, "hash").Bytes()) != info.Blockhash || field(e, "num_transactions").Uint() != uint64(len(txs)) {
		t.Errorf("entry %v", e)
	}
}

// A block with every field the layout carries survives encoding and decoding, and the independent decoder
// reads the same values.
func TestBlockRoundTripAllFields(t *testing.T) {
	k := func(b byte) core.Pubkey { return core.Pubkey{b, 1} }
	commission := uint8(7)
	tx := &core.Transaction{Signatures: []core.Signature{{9}, {8}}, Message: core.Message{Version: core.Version0,
		Header:      core.MessageHeader{NumRequiredSignatures: 2, NumReadonlySignedAccounts: 1, NumReadonlyUnsignedAccounts: 1},
		AccountKeys: []core.Pubkey{k(1), k(2), k(3)}, RecentBlockhash: core.Hash{4},
		Instructions:        []core.CompiledInstruction{{ProgramIDIndex: 2, Accounts: []uint8{0, 1, 3}, Data: []byte{1, 2}}},
		AddressTableLookups: []core.AddressTableLookup{{AccountKey: k(5), WritableIndexes: []uint8{0}, ReadonlyIndexes: []uint8{1, 2}}},
	}}
	meta := &ledger.TxMeta{Err: runtime.InstructionErrorAt(0, runtime.CustomError(6001)), Fee: 10_000,
		PreBalances: []uint64{5, 6, 7, 8, 9}, PostBalances: []uint64{4, 6, 7, 8, 9},
		Logs:              []string{"Program x invoke [1]", "Program x failed"},
		InnerInstructions: []runtime.InnerInstructions{{Index: 0, Instructions: []runtime.InnerInstruction{{ProgramIDIndex: 2, Accounts: []uint8{1}, Data: []byte{3}, StackHeight: 2}}}},
		ReturnData:        &runtime.ReturnData{ProgramID: k(3), Data: []byte("ret")}, ComputeUnitsConsumed: 1234, CostUnits: 99,
		LoadedAddresses:   &core.LoadedAddresses{Writable: []core.Pubkey{k(6)}, Readonly: []core.Pubkey{k(7)}},
		PreTokenBalances:  []ledger.TokenBalance{{AccountIndex: 1, Mint: k(8), Owner: k(9), ProgramID: k(10), Amount: 123456, Decimals: 3}},
		PostTokenBalances: []ledger.TokenBalance{{AccountIndex: 1, Mint: k(8), Owner: k(9), ProgramID: k(10), Amount: 0, Decimals: 3}},
	}
	plain := &core.Transaction{Signatures: []core.Signature{{7}}, Message: core.Message{Header: core.MessageHeader{NumRequiredSignatures: 1},
		AccountKeys: []core.Pubkey{k(1)}}}
	plainMeta := &ledger.TxMeta{PreBalances: []uint64{1}, PostBalances: []uint64{1}} // logs, inner and return data absent
	info := &ledger.BlockInfo{Slot: 77, ParentSlot: 70, BlockHeight: 60, Blockhash: core.Hash{1}, PreviousBlockhash: core.Hash{2},
		BlockTime: 1_700_000_000, Signatures: []core.Signature{{9}, {7}}, Failed: []bool{true, false},
		Rewards: []ledger.Reward{{Pubkey: k(1), Lamports: -5, PostBalance: 3, RewardType: "Voting", Commission: &commission},
			{Pubkey: k(2), Lamports: 2500, PostBalance: 9, RewardType: "Fee"}}}
	txs := []*ledger.TxRecord{{Slot: 77, Index: 0, BlockTime: info.BlockTime, Tx: tx, Meta: meta},
		{Slot: 77, Index: 1, BlockTime: info.BlockTime, Tx: plain, Meta: plainMeta}}
	raw, err := EncodeBlock(info, txs)
	if err != nil {
		t.Fatal(err)
	}
	gotInfo, gotTxs, err := DecodeBlock(77, raw)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(gotInfo, info) {
		t.Errorf("block:\n got %+v\nwant %+v", gotInfo, info)
	}
	if !reflect.DeepEqual(gotTxs, txs) {
		dump(t, gotTxs, txs, "txs")
		t.Error("transactions differ")
	}

	block := dynamicpb.NewMessage(compile(t)["solana.storage.ConfirmedBlock.ConfirmedBlock"])
	if err := proto.Unmarshal(raw, block); err != nil {
		t.Fatal(err)
	}
	ct := field(block, "transactions").List().Get(0).Message()
	msg := field(field(ct, "transaction").Message(), "message").Message()
	if !field(msg, "versioned").Bool() || field(msg, "address_table_lookups").List().Len() != 1 {
		t.Error("v0 message not marked versioned with its lookup")
	}
	m := field(ct, "meta").Message()
	inner := field(m, "inner_instructions").List().Get(0).Message()
	if field(field(inner, "instructions").List().Get(0).Message(), "stack_height").Uint() != 2 {
		t.Error("stack height")
	}
	tb := field(m, "pre_token_balances").List().Get(0).Message()
	ui := field(tb, "ui_token_amount").Message()
	if field(ui, "amount").String() != "123456" || field(ui, "ui_amount_string").String() != "123.456" ||
		field(ui, "ui_amount").Float() != 123.456 || field(tb, "owner").String() != k(9).String() {
		t.Errorf("token balance %v", tb)
	}
	if field(m, "loaded_writable_addresses").List().Len() != 1 || field(m, "cost_units").Uint() != 99 {
		t.Error("loaded addresses or cost units")
	}
	if field(field(m, "return_data").Message(), "data").Bytes() == nil || field(m, "return_data_none").Bool() {
		t.Error("return data")
	}
	r0 := field(block, "rewards").List().Get(0).Message()
	if field(r0, "lamports").Int() != -5 || field(r0, "reward_type").Enum() != 4 || field(r0, "commission").String() != "7" {
		t.Errorf("reward %v", r0)
	}
	pm := field(field(block, "transactions").List().Get(1).Message(), "meta").Message()
	if !field(pm, "log_messages_none").Bool() || !field(pm, "inner_instructions_none").Bool() || !field(pm, "return_data_none").Bool() {
		t.Error("absent logs, inner instructions and return data are not marked none")
	}
}

func TestCompressionHeader(t *testing.T) {
	small := []byte("short")
	if c := compressCell(small); binary.LittleEndian.Uint32(c) != methodNone || string(c[4:]) != "short" {
		t.Errorf("small cell %v", c)
	}
	big := make([]byte, 4096)
	c := compressCell(big)
	if binary.LittleEndian.Uint32(c) != methodZstd || len(c) >= len(big) {
		t.Errorf("big cell: method %d, %d bytes", binary.LittleEndian.Uint32(c), len(c))
	}
	for _, bad := range [][]byte{nil, {1, 2}, {9, 0, 0, 0, 1}, {3, 0, 0, 0, 1, 2, 3}, {2, 0, 0, 0, 1}, {1, 0, 0, 0, 1}} {
		if _, err := decompressCell(bad); err == nil {
			t.Errorf("decompressCell(%v) took it", bad)
		}
	}
}

// errContains reports whether err is a Bigtable Error.
func isBigtableErr(err error) bool {
	var e *Error
	return errors.As(err, &e)
}

// A transaction without status metadata is refused with an error, before any row is written: the archive could
// not serve it back (the reader refuses such a transaction), and the upload must not panic on it.
func TestUploadSlotRefusesATransactionWithoutStatus(t *testing.T) {
	c, _ := emulator(t)
	payer, _ := core.NewKeypair()
	to, _ := core.NewKeypair()
	tx := core.NewTransferTx(payer, to.PublicKey(), 1, core.Hash{1})
	info := &ledger.BlockInfo{Slot: 5, ParentSlot: 4, Blockhash: core.Hash{2}}
	err := c.UploadSlot(context.Background(), info, []*ledger.TxRecord{{Slot: 5, Tx: tx}})
	if err == nil || !strings.Contains(err.Error(), "no status metadata") {
		t.Fatalf("UploadSlot = %v, want the missing status named", err)
	}
	if _, _, found, err := NewArchive(c).Block(5); err != nil || found {
		t.Errorf("block 5 after the refused upload: found %v, %v", found, err)
	}
	if _, found, err := NewArchive(c).txInfo(tx.Signature()); err != nil || found {
		t.Errorf("tx row after the refused upload: found %v, %v", found, err)
	}
}
