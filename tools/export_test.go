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
