package middleware_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/url"
	"testing"
	"time"

	"github.com/failsafe-go/failsafe-go/circuitbreaker"
	"github.com/failsafe-go/failsafe-go/retrypolicy"

	"github.com/resilientgo/resilient/middleware"
	"github.com/resilientgo/resilient/observe"
	"github.com/resilientgo/resilient/taxonomy"
)

// TestStoppedText: the final error says why the call stopped in words,
// one phrase per reason.
func TestStoppedText(t *testing.T) {
	for r, want := range map[observe.Reason]string{
		observe.ReasonPermanent:         "m failed permanently",
		observe.ReasonExhausted:         "m failed after 0 attempts",
		observe.ReasonCircuitOpen:       "m stopped: circuit open",
		observe.ReasonCanceled:          "m stopped: canceled",
		observe.ReasonRetryAfterOverCap: "m stopped: retry-after over the cap",
		observe.ReasonBudgetSpent:       "m stopped: retry budget spent",
		observe.ReasonDeadline:          "m stopped: deadline exceeded",
		observe.ReasonContextOverflow:   "m stopped: context overflow",
		observe.ReasonUnretryable:       "m stopped: not retryable",
		observe.ReasonRejected:          "m stopped: rejected by a policy",
		observe.ReasonThrottled:         "m stopped: retries throttled",
		observe.ReasonUsageLimit:        "m stopped: usage limit",
		observe.ReasonConcurrency:       "m stopped: concurrency limit",
		observe.ReasonRateLimit:         "m stopped: rate limit",
		observe.ReasonAbandoned:         "m stopped: abandoned attempts",
	} {
		e := &middleware.Error{Target: "m", Reason: r}
		if got := e.Error(); got != "middleware: "+want {
			t.Errorf("%v: Error() = %q, want %q", r, got, "middleware: "+want)
		}
	}
}

// classifiedNoUnwrap is a classified error that wraps nothing.
type classifiedNoUnwrap struct{}

func (classifiedNoUnwrap) Error() string         { return "classified" }
func (classifiedNoUnwrap) Class() taxonomy.Class { return taxonomy.Class{Kind: taxonomy.Permanent} }

// TestAttemptString: the type shown is the provider's, under this library's
// transparent wrappers (evidence, forced classes, no-retry marks) and
// fmt.Errorf's; the standard library's plain errors show no type.
func TestAttemptString(t *testing.T) {
	base := errors.New("boom")
	for _, c := range []struct {
		a    middleware.Attempt
		want string
	}{
		{middleware.Attempt{Number: 1, Err: base}, "attempt 1: boom [unknown]"},
		{middleware.Attempt{Number: 2, Wait: 1500 * time.Microsecond, Err: base, Class: taxonomy.Class{Kind: taxonomy.Transient, Rule: "r"}},
			"attempt 2 after 2ms: boom [transient, r]"},
		{middleware.Attempt{Number: 3, Wait: 1}, "attempt 3 after 0s: <nil> [unknown]"},
		{middleware.Attempt{Number: 1, Err: errors.New("")}, "attempt 1: *errors.errorString [unknown]"},
		{middleware.Attempt{Number: 1, Err: taxonomy.WithEvidence(base, taxonomy.Evidence{Status: 503})}, "attempt 1: boom [unknown]"},
		{middleware.Attempt{Number: 1, Err: taxonomy.WithClass(taxonomy.WithEvidence(base, taxonomy.Evidence{Status: 503}), taxonomy.Class{})},
			"attempt 1: boom [unknown]"},
		{middleware.Attempt{Number: 1, Err: middleware.Unretryable(base, "streamed")}, "attempt 1: boom [unknown]"},
		{middleware.Attempt{Number: 1, Err: fmt.Errorf("%w", base)}, "attempt 1: boom [unknown]"},
		{middleware.Attempt{Number: 1, Err: fmt.Errorf("call: %w", base)}, "attempt 1: call: boom [unknown]"},
		{middleware.Attempt{Number: 1, Err: errors.Join(base, errors.New("two"))}, "attempt 1: boom\ntwo [unknown]"},
		{middleware.Attempt{Number: 1, Err: context.DeadlineExceeded}, "attempt 1: context deadline exceeded [unknown]"},
		{middleware.Attempt{Number: 1, Err: fmt.Errorf("openai: %w", &url.Error{Op: "Post", URL: "https://x", Err: io.EOF})},
			"attempt 1: *url.Error: openai: Post \"https://x\": EOF [unknown]"},
		{middleware.Attempt{Number: 1, Err: &middleware.PanicError{Value: base}}, "attempt 1: *middleware.PanicError: panic: boom [unknown]"},
		{middleware.Attempt{Number: 1, Err: &middleware.PanicError{Value: 7}}, "attempt 1: *middleware.PanicError: panic: 7 [unknown]"},
		{middleware.Attempt{Number: 1, Err: classifiedNoUnwrap{}}, "attempt 1: middleware_test.classifiedNoUnwrap: classified [unknown]"},
	} {
		if got := c.a.String(); got != c.want {
			t.Errorf("got  %s\nwant %s", got, c.want)
		}
	}
}

// TestErrorText: the final error reads as one sentence, whatever it holds.
func TestErrorText(t *testing.T) {
	a1 := middleware.Attempt{Number: 1, Err: errors.New("one")}
	a2 := middleware.Attempt{Number: 2, Wait: time.Second, Err: errors.New("two")}
	for _, c := range []struct {
		e    middleware.Error
		want string
	}{
		{middleware.Error{Reason: observe.ReasonPermanent}, "middleware: failed permanently"},
		{middleware.Error{Target: "m", Reason: observe.ReasonExhausted, Attempts: []middleware.Attempt{a1}},
			"middleware: m failed after 1 attempt: attempt 1: one [unknown]"},
		{middleware.Error{Target: "m", Reason: observe.ReasonExhausted, Attempts: []middleware.Attempt{a1, a2}},
			"middleware: m failed after 2 attempts: attempt 1: one [unknown]; attempt 2 after 1s: two [unknown]"},
		{middleware.Error{Target: "m", Reason: observe.ReasonUnretryable, Detail: "streamed", Attempts: []middleware.Attempt{a1}},
			"middleware: m stopped: not retryable (streamed): attempt 1: one [unknown]"},
	} {
		if got := c.e.Error(); got != c.want {
			t.Errorf("got  %s\nwant %s", got, c.want)
		}
	}
}

// TestErrorUnwrapsEveryAttemptAndTheCause: errors.Is and errors.As reach
// every attempt's error and, for a canceled call, the context's error and
// its cause; attempts without an error (refused before any request) add
// nothing.
func TestErrorUnwrapsEveryAttemptAndTheCause(t *testing.T) {
	e := &middleware.Error{Reason: observe.ReasonExhausted, Attempts: []middleware.Attempt{{Number: 1}, {Number: 2, Err: err500}}}
	if got := e.Unwrap(); len(got) != 1 || got[0] != err500 {
		t.Errorf("Unwrap() = %v, want [err500]", got)
	}

	stop := errors.New("the user closed the tab")
	ctx, cancel := context.WithCancelCause(context.Background())
	// The first attempt fails with err500; the second cancels and waits:
	// an attempt that cancels and returns at once races the caller's
	// return, and its error may never be recorded.
	s := newScript(fails(err500), step{block: true, cancel: func() { cancel(stop) }})
	_, err := mustPipeline(t, middleware.Backoff(time.Millisecond, time.Millisecond)).Do(ctx, s.fn)
	if !errors.Is(err, context.Canceled) || !errors.Is(err, stop) || !errors.Is(err, err500) {
		t.Errorf("%v does not reach context.Canceled, its cause and the attempt's error", err)
	}
}

// TestErrorIs: an Error matches its reason's sentinel (and failsafe-go's
// for exhausted and circuit open) and nothing else: not a nil target, not
// out of range.
func TestErrorIs(t *testing.T) {
	for _, c := range []struct {
		reason observe.Reason
		target error
		want   bool
	}{
		{observe.ReasonExhausted, retrypolicy.ErrExceeded, true},
		{observe.ReasonCircuitOpen, retrypolicy.ErrExceeded, false},
		{observe.ReasonCircuitOpen, circuitbreaker.ErrOpen, true},
		{observe.ReasonExhausted, circuitbreaker.ErrOpen, false},
		{observe.ReasonCanceled, nil, false},
		{0, nil, false},
		{observe.ReasonUsageLimit + 1, middleware.ErrExhausted, false},
		{observe.ReasonUsageLimit + 1, nil, false},
	} {
		if got := (&middleware.Error{Reason: c.reason}).Is(c.target); got != c.want {
			t.Errorf("Error{%v}.Is(%v) = %v, want %v", c.reason, c.target, got, c.want)
		}
	}
}

func TestErrorClassAndLast(t *testing.T) {
	last := middleware.Attempt{Number: 2, Err: err500, Class: taxonomy.Class{Kind: taxonomy.Transient, Rule: "status 500"}}
	for _, c := range []struct {
		e     *middleware.Error
		class taxonomy.Class
		last  error
	}{
		{&middleware.Error{Reason: observe.ReasonExhausted, Attempts: []middleware.Attempt{{Number: 1, Err: err529}, last}}, last.Class, err500},
		{&middleware.Error{Reason: observe.ReasonCanceled, Attempts: []middleware.Attempt{last}},
			taxonomy.Class{Kind: taxonomy.Canceled, Rule: "caller gave up"}, err500},
		{&middleware.Error{Reason: observe.ReasonBudgetSpent}, taxonomy.Class{Kind: taxonomy.Unknown, Rule: "retry budget spent"}, nil},
	} {
		if got := c.e.Class(); got != c.class {
			t.Errorf("%v: Class() = %+v, want %+v", c.e.Reason, got, c.class)
		}
		if got := c.e.Last(); got != c.last {
			t.Errorf("%v: Last() = %v, want %v", c.e.Reason, got, c.last)
		}
	}
}

func TestUnretryableNilIsNil(t *testing.T) {
	if err := middleware.Unretryable(nil, "x"); err != nil {
		t.Errorf("Unretryable(nil) = %v, want nil", err)
	}
	if err := middleware.Unretryable(err500, "x"); err.Error() != err500.Error() || !errors.Is(err, err500) {
		t.Errorf("Unretryable(err500) = %v, want err500's text, unwrapping to it", err)
	}
}
