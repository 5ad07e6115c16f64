package tools

// MostStoreWork returns the most records that one call or one tick of m's
// timer removed or copied: the work that bounds how long it held the
// store's lock.
func MostStoreWork(m *MemoryStore) int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.most
}

// StoreShards returns how many shards m's index has.
func StoreShards(m *MemoryStore) int { return len(m.shards) }

// Pooled reports whether a canonicalizer whose buffers have these
// capacities goes back to the pool.
func Pooled(out, scratch int) bool {
	return (&canonicalizer{out: make([]byte, 0, out), scratch: make([]byte, 0, scratch)}).small()
}

// ScheduledClaims returns how many of t's claims its renewals hold.
func ScheduledClaims(t *Tool) int {
	t.renewals.mu.Lock()
	defer t.renewals.mu.Unlock()
	n := 0
	for c := t.renewals.head; c != nil; c = c.next {
		n++
	}
	return n
}
