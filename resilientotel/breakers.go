package resilientotel

import (
	"sync"
)

// breakers holds the last known state of each circuit breaker, for the
// resilient.breaker.state gauge: at most max of them (see [MaxBreakers]).
// It is safe for concurrent use.
type breakers struct {
	max   int
	mu    sync.Mutex
	state map[string]int64 // breaker name -> gauge value
}

func newBreakers(max int) *breakers {
	return &breakers{max: max, state: make(map[string]int64)}
}

// set records a breaker's new state. When the registry is full, a
// newcomer takes the place of a closed breaker; a closed newcomer, or one
// that finds every place open or half-open, is left out.
func (b *breakers) set(name string, value int64) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if _, ok := b.state[name]; ok || len(b.state) < b.max {
		b.state[name] = value
		return
	}
	if value == 0 {
		return
	}
	for other, v := range b.state {
		if v == 0 {
			delete(b.state, other)
			b.state[name] = value
			return
		}
	}
}

// each calls fn with every breaker's name and value. fn must not call back
// into b.
func (b *breakers) each(fn func(name string, value int64)) {
	b.mu.Lock()
	defer b.mu.Unlock()
	for name, v := range b.state {
		fn(name, v)
	}
}
