// Package observetest is the test kit of package observe, as httptest is
// net/http's: a [Recorder] keeps the events an observe.Observer receives,
// in place of parsing log lines, and a [LogBuffer] keeps the lines of
// observe.Log for the tests that assert on them.
package observetest

import (
	"context"
	"sync"

	"github.com/resilientgo/resilient/observe"
)

// Recorder is an observe.Observer that keeps every Start and event, in
// order. Start puts the Start it received into the context it returns, so
// that tests can check which context reaches the called function. It is
// safe for concurrent use.
type Recorder struct {
	mu     sync.Mutex
	starts []observe.Start
	events []observe.Event
}

type startKey struct{}

// Start records s and returns ctx carrying it.
func (r *Recorder) Start(ctx context.Context, s observe.Start) context.Context {
	r.mu.Lock()
	r.starts = append(r.starts, s)
	r.mu.Unlock()
	return context.WithValue(ctx, startKey{}, s)
}

// Observe records e.
func (r *Recorder) Observe(_ context.Context, e observe.Event) {
	r.mu.Lock()
	r.events = append(r.events, e)
	r.mu.Unlock()
}

// StartFrom returns the Start that the Recorder put into ctx, if any.
func StartFrom(ctx context.Context) (observe.Start, bool) {
	s, ok := ctx.Value(startKey{}).(observe.Start)
	return s, ok
}

// Starts returns the recorded Starts.
func (r *Recorder) Starts() []observe.Start {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]observe.Start(nil), r.starts...)
}

// Events returns the recorded events.
func (r *Recorder) Events() []observe.Event {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]observe.Event(nil), r.events...)
}

// Of returns the recorded events of type E, in order.
func Of[E observe.Event](r *Recorder) []E {
	var out []E
	for _, e := range r.Events() {
		if e, ok := e.(E); ok {
			out = append(out, e)
		}
	}
	return out
}
