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
// fields instead of hashing it for the map.
type cache[K comparable, V any] struct {
	max   int32
	build func(K) V
	m     sync.Map // K -> *entry[K, V]
	n     atomic.Int32
	last  atomic.Pointer[entry[K, V]]
}

type entry[K comparable, V any] struct {
	k K
	v V
}

func newCache[K comparable, V any](max int32, build func(K) V) *cache[K, V] {
	return &cache[K, V]{max: max, build: build}
}

func (c *cache[K, V]) get(k K) V {
	if e := c.last.Load(); e != nil && e.k == k {
		return e.v
	}
	if e, ok := c.m.Load(k); ok {
		c.last.Store(e.(*entry[K, V]))
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
