package middleware_test

import (
	"context"
	"testing"
	"testing/synctest"
	"time"

	"github.com/resilientgo/resilient/internal/observetest"
	"github.com/resilientgo/resilient/middleware"
)

// TestPoolCooldownPastDeadlineFailsFast: when every member cools down for
// longer than the call has left, the call fails at once with
// ReasonDeadline, as a plain pipeline does before a wait that would pass
// its deadline, rather than sleeping until its deadline and failing then.
func TestPoolCooldownPastDeadlineFailsFast(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := newFleet(newScript(fails(rateLimited(30*time.Second))), newScript(fails(rateLimited(30*time.Second))))
		p := mustPool(t, members(2), middleware.MaxAttempts(1))
		for range 2 { // each member answers a 429 and cools down for 30s
			_, _ = p.Do(t.Context(), f.fn)
		}
		if went := f.went(); len(went) != 2 || went[0] == went[1] {
			t.Fatalf("attempts went to %v, want each member once", went)
		}
		ctx, cancel := context.WithTimeout(t.Context(), time.Second)
		defer cancel()
		start := time.Now()
		_, err := p.Do(ctx, f.fn)
		if took := time.Since(start); took != 0 {
			t.Errorf("the call took %v, want it to fail at once: the first member is back after its deadline", took)
		}
		if e := asError(t, err); e.Reason != middleware.ReasonDeadline {
			t.Errorf("reason %v (%v), want %v", e.Reason, e, middleware.ReasonDeadline)
		}
		if went := f.went(); len(went) != 0 {
			t.Errorf("attempts went to %v, want none", went)
		}
	})
}

// TestPoolLateResultNamesMember: the late result of an attempt abandoned at
// its timeout names the member the attempt went to, as every other event
// of an attempt does.
func TestPoolLateResultNamesMember(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		rec := &observetest.Recorder{}
		p := mustPool(t, members(2), middleware.Observe(rec), middleware.Timeout(time.Second))
		release := make(chan struct{})
		fn := func(_ context.Context, st middleware.State) (string, error) {
			if st.Member == 0 {
				<-release // a client that ignores its context
				return "late", nil
			}
			return "ok", nil
		}
		if got, err := p.Do(t.Context(), fn); err != nil || got != "ok" {
			t.Fatalf("got (%q, %v), want ok from m1", got, err)
		}
		close(release)
		synctest.Wait()
		late := observetest.Of[middleware.LateResult](rec)
		if len(late) != 1 || late[0].Target != "m0" {
			t.Errorf("late results %+v, want one naming m0", late)
		}
	})
}
