package middleware

import (
	"context"
	"sync"
)

// Run is the scope of one agent run, carried in the context: a retry budget
// shared by every model and tool call of the run, and per-run state that
// layers above the pipeline keep in it (see [Run.Local]). Without a Run in
// the context, calls have no shared budget.
//
// The zero Run is ready to use, with the default budget
// ([DefaultRetryBudget]). A Run is safe for concurrent use.
type Run struct {
	mu        sync.Mutex
	budget    int // < 0: unlimited; read through maxRetries
	budgetSet bool
	retries   int
	refusals  int
	locals    map[any]any
}

// RunOption configures a [Run].
type RunOption func(*Run)

// RetryBudget caps the retries (and hedges) of every call in the run
// together. A negative value means unlimited. Default: 10
// ([DefaultRetryBudget]).
func RetryBudget(n int) RunOption { return func(r *Run) { r.budget, r.budgetSet = n, true } }

// DefaultRetryBudget is the retry budget of a run without [RetryBudget].
const DefaultRetryBudget = 10

// NewRun returns a context carrying a new run configured by opts. Every
// wrapped model and tool called with that context (or one derived from it)
// shares the run's budget; [RunFrom] returns the run.
func NewRun(ctx context.Context, opts ...RunOption) context.Context {
	r := &Run{}
	for _, o := range opts {
		if o != nil {
			o(r)
		}
	}
	return context.WithValue(ctx, runKey{}, r)
}

type runKey struct{}

// RunFrom returns the run carried by ctx, nil if none.
func RunFrom(ctx context.Context) *Run {
	r, _ := ctx.Value(runKey{}).(*Run)
	return r
}

// maxRetries returns the budget; r.mu is held.
func (r *Run) maxRetries() int {
	if !r.budgetSet {
		return DefaultRetryBudget
	}
	return r.budget
}

// TryRetry takes one retry from the budget, reporting false when it is spent.
// A nil Run has an unlimited budget.
func (r *Run) TryRetry() bool {
	if r == nil {
		return true
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if m := r.maxRetries(); m >= 0 && r.retries >= m {
		r.refusals++
		return false
	}
	r.retries++
	return true
}

// Retries returns how many retries the run has spent.
func (r *Run) Retries() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.retries
}

// Refusals returns how many retries the budget refused.
func (r *Run) Refusals() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.refusals
}

// Remaining returns the retries left, -1 when unlimited.
func (r *Run) Remaining() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	m := r.maxRetries()
	if m < 0 {
		return -1
	}
	return m - r.retries
}

// Local returns the run's value for key, storing init() first when the run
// has none: per-run state of the layers above the pipeline, which the
// pipeline does not know (package tools keeps its repeat counter there).
// Keys follow the rules of context keys: an unexported type of the package
// that owns the value. init runs at most once per key and run, under the
// run's lock, so it must not call back into the run. The value must be safe
// for concurrent use: every call of the run shares it.
func (r *Run) Local(key any, init func() any) any {
	r.mu.Lock()
	defer r.mu.Unlock()
	if v, ok := r.locals[key]; ok {
		return v
	}
	if r.locals == nil {
		r.locals = make(map[any]any)
	}
	v := init()
	r.locals[key] = v
	return v
}
