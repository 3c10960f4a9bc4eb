package ledger

// SetRestoreKeep makes pruning leave only n slots below the confirmed slot of l instead of what a restart reads
// back, so a test prunes recent history without producing 512 slots first. The ledger must not be restarted
// from its directory afterwards.
func SetRestoreKeep(l *Ledger, n uint64) { keepOverrides.Store(l, n) }
