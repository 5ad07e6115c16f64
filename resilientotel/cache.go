package resilientotel

import (
	"sync"
	"sync/atomic"
)

// cache keeps values derived from keys that recur on every call (attribute
// sets, span names), at most max of them: past the bound, values are
// derived per call instead of kept. It is safe for concurrent use.
type cache[K comparable, V any] struct {
	max   int32
	build func(K) V
	m     sync.Map // K -> V
	n     atomic.Int32
}

func newCache[K comparable, V any](max int32, build func(K) V) *cache[K, V] {
	return &cache[K, V]{max: max, build: build}
}

func (c *cache[K, V]) get(k K) V {
	if v, ok := c.m.Load(k); ok {
		return v.(V)
	}
	v := c.build(k)
	if c.n.Load() < c.max {
		if _, loaded := c.m.LoadOrStore(k, v); !loaded {
			c.n.Add(1)
		}
	}
	return v
}
