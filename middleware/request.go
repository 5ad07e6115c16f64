package middleware

import (
	"context"
	"errors"
	"time"

	"github.com/resilientgo/resilient/run"
)

// CallOption configures one call of a [Pipeline], given to [Pipeline.Do] or
// [Pipeline.DoHedged]. The zero CallOption changes nothing.
type CallOption struct {
	estimate        func(ctx context.Context, s State) int
	repairsOverflow bool
	deadline        time.Time
	returned        func(taken bool)
}

// Deadline bounds the call at t, as a deadline of the caller's context
// would: every attempt's context ends by t, no retry waits past it, and a
// call whose attempt ends at t stops with [observe.ReasonDeadline], its
// error matching context.DeadlineExceeded as for the caller's own. Unlike
// a context made with context.WithDeadline, it costs no context and no
// timer of its own when the pipeline has no gate that waits (no
// [RateLimit], [MaxConcurrent] or [Members]) and the call is not hedged:
// the attempts' contexts, which have a timer anyway, end at the sooner of
// their timeout and t. The zero time sets no deadline; the soonest of
// several is kept.
func Deadline(t time.Time) CallOption {
	return CallOption{deadline: t}
}

// Returned has f called on an attempt's goroutine each time the call's
// function returns (or panics), once it is settled whether its result was
// taken by the call (taken true: the caller was waiting for it, and goes
// on with it) or discarded (false: the attempt had been abandoned, see
// [Pipeline.Do]). A function with work to settle after it returns (package
// tools stores an idempotent call's result) leaves it to its caller when
// the result was taken, so that the attempt's goroutine, which starts with
// a small stack, does no more than the function did, and settles it in f
// when the result was discarded: the caller may be waiting to retry, or
// gone. With taken true, f runs as the caller goes on. An abandoned
// attempt counts against [MaxAbandoned] until f returns. f must not
// panic.
func Returned(f func(taken bool)) CallOption {
	return CallOption{returned: f}
}

// RepairsOverflow is for a caller that repairs a context overflow itself
// once the call stops for one ([observe.ReasonContextOverflow]), as package
// llms splits an embeddings batch too large in two: the pipeline does not
// report such an end as an [observe.GaveUp] (nor log "gave up"), since the
// work goes on; the caller reports what it does instead, and the give-up
// when it cannot repair.
func RepairsOverflow() CallOption { return CallOption{repairsOverflow: true} }

// Request makes each attempt of the call a request to a model, counted by
// the run in the call's context (see [run.Run.StartRequest]) before the attempt
// takes a unit from the limiter or a permit from the breaker: a request the
// run refuses costs neither, says nothing about the target's health, and
// stops the call with [observe.ReasonUsageLimit], never retried. An attempt that the
// limiter or the breaker refuses after the run admitted it was never sent:
// it gives its place back.
//
// estimate returns the request's input tokens, estimated, for the run's
// token budget; it is called before each attempt, with the attempt's State
// (whose End is nil), only when the run has a token budget.
func Request(estimate func(ctx context.Context, s State) int) CallOption {
	return CallOption{estimate: estimate}
}

// startRequest takes the place of the attempt described by s in the run's
// limits. It reports whether a place was taken, and the concluded error of
// an attempt the run refused.
func (c *call[R]) startRequest(ctx context.Context, s State) (bool, error) {
	if c.run == nil {
		return false, nil
	}
	estimate := 0
	if c.run.HasTokenBudget() {
		estimate = c.estimate(ctx, s)
	}
	if err := c.run.StartRequest(estimate); err != nil {
		var refused *run.UsageLimitError
		errors.As(err, &refused)
		class := refused.Class()
		return false, c.conclude(s.Attempt, 0, refused, class, c.decide(s.Attempt, class, refused, nil))
	}
	return true, nil
}
