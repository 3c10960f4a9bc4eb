package sbpf

import "testing"

func TestHashSymbolName(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name string
		want uint32
	}{
		{"entrypoint", EntrypointHash},
		{"sol_log_", 0x207559bd},
		{"abort", 0xb6fc1a11},
		{"sol_panic_", 0x686093bb},
		{"sol_log_64_", 0x5c2a3178},
		{"sol_memcpy_", 0x717cc4a3},
		{"sol_invoke_signed_rust", 0xd7449092},
		{"sol_alloc_free_", 0x83f00e8f},
	} {
		if got := HashSymbolName([]byte(c.name)); got != c.want {
			t.Errorf("HashSymbolName(%q) = %#x, want %#x", c.name, got, c.want)
		}
	}
}
