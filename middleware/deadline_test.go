package middleware_test

import (
	"context"
	"errors"
	"testing"
	"testing/synctest"
	"time"

	"github.com/resilientgo/resilient/middleware"
	"github.com/resilientgo/resilient/observe"
)

// errors.Is(err, context.DeadlineExceeded) holds exactly when the caller's
// deadline is why the call stopped; the library's own attempt timeouts
// match ErrAttemptTimeout instead.
func TestDeadlineExceededMeansTheCallersDeadline(t *testing.T) {
	for _, c := range []struct {
		name     string
		callerIn time.Duration // 0: no deadline
		given    time.Duration // a Deadline call option this far off; 0: none
		opts     []middleware.Option
		fn       middleware.Func[string]
		reason   observe.Reason
		deadline bool // errors.Is(err, context.DeadlineExceeded)
		timeout  bool // errors.Is(err, ErrAttemptTimeout)
	}{
		{"attempt timeouts alone, the caller fine", 0, 0, []middleware.Option{middleware.Timeout(time.Second)},
			deaf(time.Hour, "late", nil), observe.ReasonExhausted, false, true},
		{"a function that returns its attempt's deadline", 0, 0, []middleware.Option{middleware.Timeout(time.Second)},
			bounded(func(ctx context.Context, _ middleware.State) (string, error) { <-ctx.Done(); return "", ctx.Err() }),
			observe.ReasonExhausted, false, true},
		{"the next wait would pass the caller's deadline", 10 * time.Second, 0, []middleware.Option{middleware.Backoff(time.Minute, time.Minute), middleware.NoJitter()},
			newScript(fails(err500)).fn, observe.ReasonDeadline, true, false},
		{"the caller's deadline passes during an attempt", time.Second, 0, []middleware.Option{middleware.Timeout(time.Minute)},
			deaf(time.Hour, "late", nil), observe.ReasonCanceled, true, false},
		{"an attempt timeout, then the caller's deadline would pass", 90 * time.Second, 0, []middleware.Option{middleware.Timeout(time.Minute), middleware.Backoff(time.Minute, time.Minute), middleware.NoJitter()},
			deaf(time.Hour, "late", nil), observe.ReasonDeadline, true, true},
		{"the next wait would pass the Deadline given", 0, 10 * time.Second, []middleware.Option{middleware.Backoff(time.Minute, time.Minute), middleware.NoJitter()},
			newScript(fails(err500)).fn, observe.ReasonDeadline, true, false},
		{"the Deadline given passes during an attempt", 0, time.Second, []middleware.Option{middleware.Timeout(time.Minute)},
			deaf(time.Hour, "late", nil), observe.ReasonDeadline, true, false},
		{"the call's MaxDuration, the caller fine", 0, 0, []middleware.Option{middleware.MaxDuration(10 * time.Second), middleware.Backoff(time.Minute, time.Minute), middleware.NoJitter()},
			newScript(fails(err500)).fn, observe.ReasonDeadline, false, false},
		{"MaxDuration passes during an attempt", 0, 0, []middleware.Option{middleware.MaxDuration(10 * time.Second), middleware.Timeout(time.Minute)},
			deaf(time.Hour, "late", nil), observe.ReasonDeadline, false, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				ctx := t.Context()
				if c.callerIn > 0 {
					var cancel context.CancelFunc
					ctx, cancel = context.WithTimeout(ctx, c.callerIn)
					defer cancel()
				}
				var opts []middleware.CallOption
				if c.given > 0 {
					opts = append(opts, middleware.Deadline(time.Now().Add(c.given)))
				}
				_, err := mustPipeline(t, c.opts...).Do(ctx, c.fn, opts...)
				if e := asError(t, err); e.Reason != c.reason {
					t.Errorf("reason %v, want %v (%v)", e.Reason, c.reason, err)
				}
				if got := errors.Is(err, context.DeadlineExceeded); got != c.deadline {
					t.Errorf("errors.Is(err, context.DeadlineExceeded) = %v, want %v: %v", got, c.deadline, err)
				}
				if got := errors.Is(err, middleware.ErrAttemptTimeout); got != c.timeout {
					t.Errorf("errors.Is(err, ErrAttemptTimeout) = %v, want %v: %v", got, c.timeout, err)
				}
				time.Sleep(2 * time.Hour) // the deaf functions return
			})
		})
	}
}
