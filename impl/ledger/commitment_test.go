package ledger

import "testing"

// Only the three commitment names are levels; the names the reference retired are not aliases of any.
func TestParseCommitment(t *testing.T) {
	t.Parallel()
	for name, want := range map[string]Commitment{"processed": Processed, "confirmed": Confirmed, "finalized": Finalized} {
		if got, ok := ParseCommitment(name); !ok || got != want {
			t.Errorf("ParseCommitment(%q) = %v, %v", name, got, ok)
		}
	}
	for _, name := range []string{"recent", "single", "singleGossip", "root", "max", "", "Processed"} {
		if got, ok := ParseCommitment(name); ok {
			t.Errorf("ParseCommitment(%q) = %v, want refused", name, got)
		}
	}
}
