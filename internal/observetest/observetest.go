// Package observetest records the events of middleware.Observer for tests,
// in place of parsing log lines.
package observetest

import (
	"context"
	"sync"

	"github.com/resilientgo/resilient/middleware"
)

// Recorder is a middleware.Observer that keeps every Start and event, in
// order. Start puts the Start it received into the context it returns, so
// that tests can check which context reaches the called function. It is
// safe for concurrent use.
type Recorder struct {
	mu     sync.Mutex
	starts []middleware.Start
	events []middleware.Event
}

type startKey struct{}

// Start records s and returns ctx carrying it.
func (r *Recorder) Start(ctx context.Context, s middleware.Start) context.Context {
	r.mu.Lock()
	r.starts = append(r.starts, s)
	r.mu.Unlock()
	return context.WithValue(ctx, startKey{}, s)
}

// Observe records e.
func (r *Recorder) Observe(_ context.Context, e middleware.Event) {
	r.mu.Lock()
	r.events = append(r.events, e)
	r.mu.Unlock()
}

// StartFrom returns the Start that the Recorder put into ctx, if any.
func StartFrom(ctx context.Context) (middleware.Start, bool) {
	s, ok := ctx.Value(startKey{}).(middleware.Start)
	return s, ok
}

// Starts returns the recorded Starts.
func (r *Recorder) Starts() []middleware.Start {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]middleware.Start(nil), r.starts...)
}

// Events returns the recorded events.
func (r *Recorder) Events() []middleware.Event {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]middleware.Event(nil), r.events...)
}

// Of returns the recorded events of type E, in order.
func Of[E middleware.Event](r *Recorder) []E {
	var out []E
	for _, e := range r.Events() {
		if e, ok := e.(E); ok {
			out = append(out, e)
		}
	}
	return out
}
