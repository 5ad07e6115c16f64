package status

import (
	"errors"
	"fmt"
	"reflect"
	"sync"

	"github.com/resilientgo/resilient/breaker"
	"github.com/resilientgo/resilient/limit"
	"github.com/resilientgo/resilient/observe"
	"github.com/resilientgo/resilient/pool"
)

// DefaultMaxEntries bounds how many entries a [Registry] holds, of every
// kind together: past it, Add methods fail. A status report lists every
// entry, so the bound is also that of a report's length.
const DefaultMaxEntries = 1000

// A Model is a model (or a tool, or a pipeline) whose health a
// [Registry] reads: its circuit breaker, or, when it is a pool (it has a
// Pool method returning a non-nil *pool.Pool), its members. *llms.Model
// (what resilient.Model and resilient.Pool return), *tools.Tool and
// *middleware.Pipeline are Models.
type Model interface {
	// Breaker returns the model's breaker, nil when it has none (a pool's
	// members have one each).
	Breaker() *breaker.Breaker
}

// A Shared is a feature that keeps its state in a store shared by the
// replicas of a service: package resilientredis's Store, Limiter,
// SharedBreaker and Semaphore are.
type Shared interface {
	SharedState() observe.SharedState
}

// Registry holds what a status [Handler] lists: models, breakers, rate
// limiters, concurrency limits and shared-state features, each under a
// name unique in the registry. Nothing is registered by itself: the
// program adds what it wants seen, once, when it builds it, and removes
// what it drops. A registry holds at most [DefaultMaxEntries] entries.
//
// The zero Registry is empty and ready to use. A Registry is safe for
// concurrent use.
type Registry struct {
	mu      sync.Mutex
	entries []entry // in the order added
	names   map[string]bool
}

// entry is one registered thing: exactly one of its fields is set.
type entry struct {
	name      string
	model     Model
	pool      *pool.Pool // the model's, when it is a pool
	breaker   *breaker.Breaker
	limiter   limit.Limiter
	semaphore limit.Semaphore
	shared    Shared
}

// ErrFull is returned by the Add methods of a [Registry] that holds
// [DefaultMaxEntries] entries.
var ErrFull = errors.New("status: registry full")

// AddModel registers m under name: the report lists its breaker's state,
// or each member's when it is a pool, with the rate, token and concurrency
// limits the model and each member enforce (read through Limiter,
// TokenLimiter and Concurrency methods, which *llms.Model has, and
// *tools.Tool but TokenLimiter, and pool.MemberState), and [Registry.Ready] is false while
// none of them can take a call. Administrative actions reach its breaker
// as the breaker of name, a member's as name with the member's name (see
// [Handler]).
func (r *Registry) AddModel(name string, m Model) error {
	if isNil(m) {
		return fmt.Errorf("status: AddModel(%q, nil)", name)
	}
	e := entry{name: name, model: m}
	if p, ok := m.(interface{ Pool() *pool.Pool }); ok {
		e.pool = p.Pool()
	}
	return r.add(e)
}

// AddBreaker registers b under name: a tool's breaker, one shared through
// Redis, any breaker that is not a model's. It does not count toward
// readiness.
func (r *Registry) AddBreaker(name string, b *breaker.Breaker) error {
	if b == nil {
		return fmt.Errorf("status: AddBreaker(%q, nil)", name)
	}
	return r.add(entry{name: name, breaker: b})
}

// AddLimiter registers a rate limiter under name. The report describes it
// with its String method when it has one (limit.LocalLimiter and
// resilientredis.Limiter do), and gives its reachability of Redis when it
// is [Shared].
func (r *Registry) AddLimiter(name string, l limit.Limiter) error {
	if isNil(l) {
		return fmt.Errorf("status: AddLimiter(%q, nil)", name)
	}
	return r.add(entry{name: name, limiter: l})
}

// AddSemaphore registers a concurrency limit under name: the report gives
// its size and the slots in use when it says them (Size and InUse
// methods: limit.Bulkhead has both; resilientredis.Semaphore's InUse
// takes a context and counts the fleet's slots in one round trip, which
// a report makes bounded by the request's context and the semaphore's
// Timeout), and its reachability of Redis when it is [Shared].
func (r *Registry) AddSemaphore(name string, s limit.Semaphore) error {
	if isNil(s) {
		return fmt.Errorf("status: AddSemaphore(%q, nil)", name)
	}
	return r.add(entry{name: name, semaphore: s})
}

// AddShared registers a shared-state feature under name: an idempotency
// store, or a resilientredis.SharedBreaker (whose breaker [Registry.AddBreaker]
// or [Registry.AddModel] registers). The report says whether it reaches
// its store and what it does while it does not.
func (r *Registry) AddShared(name string, s Shared) error {
	if isNil(s) {
		return fmt.Errorf("status: AddShared(%q, nil)", name)
	}
	return r.add(entry{name: name, shared: s})
}

// Remove forgets the entry named name, if there is one.
func (r *Registry) Remove(name string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if !r.names[name] {
		return
	}
	delete(r.names, name)
	for i, e := range r.entries {
		if e.name == name {
			r.entries = append(r.entries[:i:i], r.entries[i+1:]...)
			return
		}
	}
}

func (r *Registry) add(e entry) error {
	if e.name == "" {
		return errors.New("status: an entry needs a name")
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	switch {
	case r.names[e.name]:
		return fmt.Errorf("status: %q is already registered", e.name)
	case len(r.entries) >= DefaultMaxEntries:
		return fmt.Errorf("%w: %d entries, adding %q", ErrFull, len(r.entries), e.name)
	}
	if r.names == nil {
		r.names = map[string]bool{}
	}
	r.names[e.name] = true
	r.entries = append(r.entries, e)
	return nil
}

// list returns the entries, in the order added.
func (r *Registry) list() []entry {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.entries[:len(r.entries):len(r.entries)]
}

// isNil reports whether x is nil, or holds a nil pointer.
func isNil(x any) bool {
	if x == nil {
		return true
	}
	v := reflect.ValueOf(x)
	return v.Kind() == reflect.Pointer && v.IsNil()
}
