package resilientotel

import (
	"sync"
	"sync/atomic"
)

// cache keeps values derived from keys that recur on every call (attribute
// sets, span names), at most max of them: past the bound, values are
// derived per call instead of kept. It is safe for concurrent use.
//
// The entry found last is kept aside and compared first: most processes
// call one target at a time, whose key then costs one comparison of its
// fields instead of hashing it for the map. Keys of different kinds that
// follow each other on every call (the attribute sets of a call's
// instruments) each have a slot of their own for it.
type cache[K comparable, V any] struct {
	max   int32
	build func(K) V
	slot  func(K) int // the slot of a key's last entry; nil for one slot
	m     sync.Map    // K -> *entry[K, V]
	n     atomic.Int32
	last  []atomic.Pointer[entry[K, V]]
}

type entry[K comparable, V any] struct {
	k K
	v V
}

func newCache[K comparable, V any](max int32, build func(K) V) *cache[K, V] {
	return &cache[K, V]{max: max, build: build, last: make([]atomic.Pointer[entry[K, V]], 1)}
}

// newSlottedCache is newCache with a last entry kept for each of slots
// kinds of key, slot(k) telling k's.
func newSlottedCache[K comparable, V any](max int32, slots int, slot func(K) int, build func(K) V) *cache[K, V] {
	return &cache[K, V]{max: max, build: build, slot: slot, last: make([]atomic.Pointer[entry[K, V]], slots)}
}

func (c *cache[K, V]) get(k K) V {
	last := &c.last[0]
	if c.slot != nil {
		last = &c.last[c.slot(k)]
	}
	if e := last.Load(); e != nil && e.k == k {
		return e.v
	}
	if e, ok := c.m.Load(k); ok {
		last.Store(e.(*entry[K, V]))
		return e.(*entry[K, V]).v
	}
	e := &entry[K, V]{k: k, v: c.build(k)}
	if c.n.Load() < c.max {
		if _, loaded := c.m.LoadOrStore(k, e); !loaded {
			c.n.Add(1)
		}
	}
	return e.v
}
