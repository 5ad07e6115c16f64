package middleware_test

import (
	"context"
	"errors"
	"testing"
	"testing/synctest"
	"time"

	"github.com/resilientgo/resilient/limit"
	"github.com/resilientgo/resilient/middleware"
	"github.com/resilientgo/resilient/observe"
)

// TestCallerGivingUpWhileLimited: a caller whose context ends while it
// waits for the limiter is canceled, not rejected, and sends nothing.
func TestCallerGivingUpWhileLimited(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		l, err := limit.NewLocalLimiter(1, time.Minute, middleware.Forever)
		if err != nil {
			t.Fatal(err)
		}
		p := mustPipeline(t, middleware.RateLimit(l))
		s := newScript(succeeds("ok"))
		if _, err := p.Do(t.Context(), s.fn); err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithTimeout(t.Context(), time.Second)
		defer cancel()
		_, err = p.Do(ctx, s.fn)
		if e := asError(t, err); e.Reason != observe.ReasonCanceled || !errors.Is(err, context.DeadlineExceeded) || s.count() != 1 {
			t.Errorf("got %v after %d calls, want canceled by the caller's deadline after 1", err, s.count())
		}
	})
}
