package runtime

import "testing"

// The reference's test_log_messages_bytes_limit.
func TestLogCollectorLimit(t *testing.T) {
	t.Parallel()
	l := logCollector{limit: DefaultLogBytesLimit}
	for range 2 * DefaultLogBytesLimit {
		l.log("x")
	}
	if len(l.msgs) != DefaultLogBytesLimit || l.msgs[len(l.msgs)-1] != "Log truncated" || l.msgs[len(l.msgs)-2] != "x" {
		t.Fatalf("%d messages, last %q", len(l.msgs), l.msgs[len(l.msgs)-1])
	}
}
