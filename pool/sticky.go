package pool

import (
	"container/list"
	"context"
	"hash/maphash"
	"sync"
	"sync/atomic"

	"github.com/resilientgo/resilient/run"
)

// Sticky returns ctx carrying key: the calls of a pool made with it (or a
// context derived from it) go to the member that answered the last of them,
// while that member is healthy, so that a provider's prompt cache keeps
// serving one conversation. A member that fails or is unavailable loses the
// key to the one that answers instead: a member whose health has fallen
// (see [Picker]) but whose circuit is closed keeps the key until one of
// its attempts fails, which then costs the call one retry elsewhere, as
// any call sent there would. An empty key removes any key ctx
// carries. Without a key, the run in ctx is the key (see
// [Settings.NoStickyRuns]).
// A pool remembers the members of its 10,000 keys used most recently.
func Sticky(ctx context.Context, key string) context.Context {
	return context.WithValue(ctx, stickyKey{}, key)
}

type stickyKey struct{}

// stickyFrom returns the sticky key ctx carries, "" if none.
func stickyFrom(ctx context.Context) string {
	k, _ := ctx.Value(stickyKey{}).(string)
	return k
}

// pin holds the member that a sticky key or a run sticks to.
type pin struct{ m atomic.Pointer[Member] }

// runPin is the key of a run's pin for one pool, in [run.Run.Local].
type runPin struct{ p *Pool }

// pinFor returns the pin of a call made with ctx: its sticky key's, else
// its run's (unless NoStickyRuns), else nil.
func (p *Pool) pinFor(ctx context.Context) *pin {
	if key := stickyFrom(ctx); key != "" {
		return p.keys.get(key)
	}
	if run := run.From(ctx); run != nil && p.stickyRuns {
		return run.Local(runPin{p}, func() any { return new(pin) }).(*pin)
	}
	return nil
}

// pins holds the pins of sticky keys, at most max of them: the least
// recently used is forgotten first. Keys are kept as hashes, so that long
// keys cost nothing; two keys that collide share a member, which is
// harmless.
type pins struct {
	seed  maphash.Seed
	max   int
	mu    sync.Mutex
	byKey map[uint64]*list.Element // of *keyPin
	lru   list.List                // most recently used first
}

type keyPin struct {
	hash uint64
	pin  *pin
}

func newPins(max int) *pins {
	return &pins{seed: maphash.MakeSeed(), max: max, byKey: make(map[uint64]*list.Element)}
}

// get returns key's pin, a new one if key has none.
func (ps *pins) get(key string) *pin {
	h := maphash.String(ps.seed, key)
	ps.mu.Lock()
	defer ps.mu.Unlock()
	if e, ok := ps.byKey[h]; ok {
		ps.lru.MoveToFront(e)
		return e.Value.(*keyPin).pin
	}
	if ps.lru.Len() >= ps.max {
		oldest := ps.lru.Back()
		ps.lru.Remove(oldest)
		delete(ps.byKey, oldest.Value.(*keyPin).hash)
	}
	p := new(pin)
	ps.byKey[h] = ps.lru.PushFront(&keyPin{hash: h, pin: p})
	return p
}

// len returns how many keys are remembered.
func (ps *pins) len() int {
	ps.mu.Lock()
	defer ps.mu.Unlock()
	return ps.lru.Len()
}
