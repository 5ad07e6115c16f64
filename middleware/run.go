package middleware

import (
	"context"
	"sync"
)

// Run is the scope of one agent run, carried in the context: a retry budget
// shared by every model and tool call of the run, and counters that the tool
// layer uses to notice a model looping on the same call. Without a Run in the
// context, calls have no shared budget.
//
// A Run is safe for concurrent use.
type Run struct {
	mu          sync.Mutex
	maxRetries  int // < 0: unlimited
	retries     int
	refusals    int
	counts      map[string]int
	repeatLimit int
}

// RunOption configures a [Run].
type RunOption func(*Run)

// RetryBudget caps the retries (and hedges) of every call in the run
// together. Default: 10. A negative value means unlimited.
func RetryBudget(n int) RunOption { return func(r *Run) { r.maxRetries = n } }

// RepeatLimit sets how many times one tool may be called with the same input
// in the run before the tool layer stops the run as stuck. Default: 3. Zero
// or less disables the check.
func RepeatLimit(n int) RunOption { return func(r *Run) { r.repeatLimit = n } }

// Default run limits.
const (
	DefaultRetryBudget = 10
	DefaultRepeatLimit = 3
)

// NewRun returns a run scope with the given options.
func NewRun(opts ...RunOption) *Run {
	r := &Run{maxRetries: DefaultRetryBudget, repeatLimit: DefaultRepeatLimit}
	for _, o := range opts {
		o(r)
	}
	return r
}

type runKey struct{}

// WithRun returns a context carrying r. Every wrapped model and tool called
// with that context (or one derived from it) shares r's budget.
func WithRun(ctx context.Context, r *Run) context.Context {
	return context.WithValue(ctx, runKey{}, r)
}

// RunFrom returns the run carried by ctx, nil if none.
func RunFrom(ctx context.Context) *Run {
	r, _ := ctx.Value(runKey{}).(*Run)
	return r
}

// TryRetry takes one retry from the budget, reporting false when it is spent.
// A nil Run has an unlimited budget.
func (r *Run) TryRetry() bool {
	if r == nil {
		return true
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.maxRetries >= 0 && r.retries >= r.maxRetries {
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
	if r.maxRetries < 0 {
		return -1
	}
	return r.maxRetries - r.retries
}

// Repeat counts one more occurrence of key in the run and returns the count
// and the run's repeat limit (0 when disabled). The tool layer keys by tool
// name and input.
func (r *Run) Repeat(key string) (count, limit int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.counts == nil {
		r.counts = make(map[string]int)
	}
	r.counts[key]++
	return r.counts[key], max(r.repeatLimit, 0)
}
