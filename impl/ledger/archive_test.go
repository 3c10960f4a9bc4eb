package ledger

import (
	"context"
	"errors"
	"testing"

	"ledgerd/impl/core"
	"ledgerd/impl/runtime"
)

// downArchive fails every call, as Bigtable out of reach does, and counts the calls.
type downArchive struct{ calls int }

var errDown = errors.New("unreachable")

func (d *downArchive) Block(uint64) (*BlockInfo, []*TxRecord, bool, error) {
	d.calls++
	return nil, nil, false, errDown
}
func (d *downArchive) Blocks(uint64, int) ([]uint64, error) { d.calls++; return nil, errDown }
func (d *downArchive) FirstBlock() (uint64, bool, error)    { d.calls++; return 0, false, errDown }
func (d *downArchive) Transaction(core.Signature) (*TxRecord, bool, error) {
	d.calls++
	return nil, false, errDown
}
func (d *downArchive) TransactionStatus(core.Signature) (uint64, *runtime.TransactionError, bool, error) {
	d.calls++
	return 0, nil, false, errDown
}
func (d *downArchive) SignaturesForAddress(core.Pubkey, *core.Signature, *core.Signature, int) ([]*TxRecord, error) {
	d.calls++
	return nil, errDown
}

// A ledger that holds its whole history (its first block is slot 0) never asks its archive for a signature or
// an address's list, so an archive that is down costs it nothing; once it pruned, the archive's failure is the
// caller's error, never "not found".
func TestArchiveAskedOnlyBelowTheLocalHistory(t *testing.T) {
	l, err := Open(Config{Dir: t.TempDir(), FinalityDepthZero: true, BlockProduction: ProduceOnRequest})
	if err != nil {
		t.Fatal(err)
	}
	defer func() { l.Stop(); l.Close() }()
	down := &downArchive{}
	l.SetArchive(down)
	ctx := context.Background()
	if _, err := l.AdvanceSlots(ctx, 3); err != nil {
		t.Fatal(err)
	}
	someone := core.Pubkey{5}
	if _, found, err := l.Transaction(core.Signature{1}, Finalized); found || err != nil {
		t.Errorf("unknown transaction: %v %v", found, err)
	}
	if list, err := l.SignaturesForAddress(someone, nil, nil, 10, Finalized); err != nil || len(list) != 0 {
		t.Errorf("list: %v %v", list, err)
	}
	if st, err := l.SignatureStatuses([]core.Signature{{1}}, true); err != nil || st[0] != nil {
		t.Errorf("status: %v %v", st, err)
	}
	if down.calls != 0 {
		t.Errorf("the archive was asked %d times for history the ledger holds whole", down.calls)
	}

	if _, err := l.AdvanceSlots(ctx, 600); err != nil {
		t.Fatal(err)
	}
	if first, err := l.PruneHistory(1, nil); err != nil || first == 0 {
		t.Fatalf("pruned to %d: %v", first, err)
	}
	if _, _, err := l.Transaction(core.Signature{1}, Finalized); !errors.Is(err, errDown) {
		t.Errorf("transaction with the archive down: %v", err)
	}
	if _, err := l.SignaturesForAddress(someone, nil, nil, 10, Finalized); !errors.Is(err, errDown) {
		t.Errorf("list with the archive down: %v", err)
	}
	if _, err := l.SignatureStatuses([]core.Signature{{1}}, true); !errors.Is(err, errDown) {
		t.Errorf("status with the archive down: %v", err)
	}
	if _, _, err := l.ArchivedBlock(3); !errors.Is(err, errDown) {
		t.Errorf("block with the archive down: %v", err)
	}
	if _, err := l.Blocks(0, 10, 0, Finalized); !errors.Is(err, errDown) {
		t.Errorf("blocks with the archive down: %v", err)
	}
}
