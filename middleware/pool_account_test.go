package middleware_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/resilientgo/resilient/breaker"
	"github.com/resilientgo/resilient/middleware"
	"github.com/resilientgo/resilient/observe"
	"github.com/resilientgo/resilient/observe/observetest"
	"github.com/resilientgo/resilient/run"
	"github.com/resilientgo/resilient/taxonomy"
)

var (
	// keyRefused is a member's key refused: its account's failure, not
	// the request's.
	keyRefused = taxonomy.WithClass(errors.New("API returned unexpected status code: 401: Incorrect API key provided"),
		taxonomy.Class{Kind: taxonomy.Permanent, Rule: `code "invalid_api_key"`, Status: 401, AccountFailure: true})
	// invalidRequest is the request's own failure: every member refuses it.
	invalidRequest = taxonomy.WithClass(errors.New("API returned unexpected status code: 400: Invalid value: 'tool'"),
		taxonomy.Class{Kind: taxonomy.Permanent, Rule: "status 400", Status: 400})
)

// TestPoolAccountFailure: a member whose key is refused costs the pool one
// request per MaxHold. The call that meets it goes at once to another
// member; the member is out of rotation (its circuit held open for
// MaxHold, reported by a Suspended event and its BreakerChange); after
// MaxHold one probe finds out whether it is back: refused again, it is out
// for another MaxHold; answered, it has its share again.
func TestPoolAccountFailure(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		rec := &observetest.Recorder{}
		bad := newScript(fails(keyRefused), fails(keyRefused), succeeds("back"))
		f := newFleet(bad, newScript(succeeds("ok")))
		p := mustPool(t, members(2), middleware.Observe(rec))
		calls := func(n int) {
			t.Helper()
			for i := range n {
				start := time.Now()
				if _, err := p.Do(t.Context(), f.fn); err != nil {
					t.Fatalf("call %d: %v", i, err)
				}
				if took := time.Since(start); took != 0 {
					t.Fatalf("call %d took %v, want no wait", i, took)
				}
			}
		}
		calls(20)
		if went := f.went(); fmt.Sprint(went[:2]) != "[0 1]" || strings.Count(fmt.Sprint(went), "0") != 1 {
			t.Errorf("attempts went to %v, want m0 once, then m1 alone", went)
		}
		sus := observetest.Of[observe.Suspended](rec)
		if len(sus) != 1 || sus[0].Target != "m0" || sus[0].For != breaker.DefaultMaxHold || !sus[0].Class.AccountFailure {
			t.Errorf("suspensions %+v, want m0 for %v", sus, breaker.DefaultMaxHold)
		}
		opened := false
		for _, e := range observetest.Of[observe.BreakerChange](rec) {
			opened = opened || e.Target == "m0" && e.To == observe.BreakerOpen
		}
		if !opened {
			t.Errorf("no BreakerChange opened m0's circuit")
		}
		retries := observetest.Of[observe.RetryScheduled](rec)
		if len(retries) != 1 || retries[0].Target != "m0" || retries[0].Source != taxonomy.WaitNextMember || retries[0].Wait != 0 {
			t.Errorf("retries %+v, want one of m0 at once to the next member", retries)
		}
		m0 := p.Pool().Members()[0]
		if b := m0.Breaker; b.State() != observe.BreakerOpen || b.RemainingDelay() != breaker.DefaultMaxHold {
			t.Errorf("m0's circuit is %v for %v, want held open for %v", b.State(), b.RemainingDelay(), breaker.DefaultMaxHold)
		}
		if m0.Suspended != breaker.DefaultMaxHold || m0.AccountFailure != `code "invalid_api_key", status 401` {
			t.Errorf("m0 is suspended for %v after %q, want %v after the refused key", m0.Suspended, m0.AccountFailure, breaker.DefaultMaxHold)
		}

		time.Sleep(breaker.DefaultMaxHold - time.Second)
		calls(10)
		if went := f.went(); strings.Contains(fmt.Sprint(went), "0") {
			t.Errorf("within MaxHold attempts went to %v, want none to m0", went)
		}
		time.Sleep(time.Second)
		calls(10)
		if went := f.went(); strings.Count(fmt.Sprint(went), "0") != 1 {
			t.Errorf("after MaxHold attempts went to %v, want one probe of m0 (refused again)", went)
		}
		if n := len(observetest.Of[observe.Suspended](rec)); n != 2 {
			t.Errorf("%d suspensions, want a second one after the failed probe", n)
		}
		closings := func() int {
			n := 0
			for _, e := range observetest.Of[observe.BreakerChange](rec) {
				if e.Target == "m0" && e.To == observe.BreakerClosed {
					n++
				}
			}
			return n
		}
		if n := closings(); n != 0 {
			t.Errorf("m0's circuit closed %d times, want never: a refused probe does not close it", n)
		}

		time.Sleep(breaker.DefaultMaxHold)
		calls(10)
		if went := f.went(); strings.Count(fmt.Sprint(went), "0") != 5 {
			t.Errorf("after m0 came back attempts went to %v, want half of them to m0", went)
		}
		if n := closings(); n != 1 {
			t.Errorf("m0's circuit closed %d times, want once, by the probe it answered", n)
		}
	})
}

// TestPoolAccountFailureWithoutBreaker: a member without a circuit breaker
// is out of rotation for MaxHold all the same, and an error's detail says
// why.
func TestPoolAccountFailureWithoutBreaker(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := newFleet(newScript(fails(keyRefused)), newScript(succeeds("ok")))
		p := mustPool(t, members(2), middleware.NoBreaker(), middleware.MaxHold(time.Minute))
		for range 10 {
			if _, err := p.Do(t.Context(), f.fn); err != nil {
				t.Fatal(err)
			}
		}
		if went := f.went(); strings.Count(fmt.Sprint(went), "0") != 1 {
			t.Errorf("attempts went to %v, want m0 once", went)
		}
		if m0 := p.Pool().Members()[0]; m0.Suspended != time.Minute || m0.AccountFailure == "" {
			t.Errorf("m0 is suspended for %v after %q, want a minute after the refused key", m0.Suspended, m0.AccountFailure)
		}
		time.Sleep(time.Minute)
		if m0 := p.Pool().Members()[0]; m0.Suspended != 0 || m0.AccountFailure != "" {
			t.Errorf("after MaxHold m0 is suspended for %v after %q, want back in rotation", m0.Suspended, m0.AccountFailure)
		}
		for range 4 {
			if _, err := p.Do(t.Context(), f.fn); err != nil {
				t.Fatal(err)
			}
		}
		if went := f.went(); strings.Count(fmt.Sprint(went), "0") != 1 {
			t.Errorf("after MaxHold attempts went to %v, want m0 once more", went)
		}
	})
}

// TestPoolEveryAccountFails: when every member's key is refused, the call
// fails permanently after one request to each, its error naming each
// member and its failure; the next call fails fast without a request.
func TestPoolEveryAccountFails(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := newFleet(newScript(fails(keyRefused)), newScript(fails(keyRefused)))
		p := mustPool(t, members(2))
		_, err := p.Do(t.Context(), f.fn)
		e := asError(t, err)
		if e.Reason != observe.ReasonPermanent || !errors.Is(err, middleware.ErrPermanent) || len(f.went()) != 2 {
			t.Fatalf("got %v, want failed permanently after one attempt to each member", err)
		}
		for _, want := range []string{
			`m0: out of rotation (5m0s left) after an account failure: code "invalid_api_key", status 401`,
			`m1: out of rotation (5m0s left) after an account failure: code "invalid_api_key", status 401`,
			"attempt 1 to m0:", "attempt 2 to m1:",
		} {
			if !strings.Contains(err.Error(), want) {
				t.Errorf("error %q does not say %q", err, want)
			}
		}
		if !e.Class().AccountFailure {
			t.Errorf("the error's class %v is no account failure: a caller's fallback would not take the call", e.Class())
		}
		_, err = p.Do(t.Context(), f.fn)
		if !errors.Is(err, middleware.ErrPermanent) || !asError(t, err).Class().AccountFailure ||
			!strings.Contains(err.Error(), "m1: out of rotation (5m0s left) after an account failure") || len(f.went()) != 0 {
			t.Errorf("the next call: got %v, want failed permanently without a request, saying why", err)
		}
	})
}

// TestPoolAccountSwitchesPastLimits: a switch after an account failure is
// no retry of the request: neither the attempt limit nor the run's retry
// budget stops one to a member the call has not tried, and there are never
// more than the pool has members. SingleAttempt makes none.
func TestPoolAccountSwitchesPastLimits(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := newFleet(newScript(fails(keyRefused)), newScript(fails(keyRefused)), newScript(fails(keyRefused)), newScript(succeeds("ok")))
		p := mustPool(t, members(4), middleware.MaxAttempts(2), middleware.NoStickyRuns())
		ctx := run.New(t.Context(), run.RetryBudget(0))
		if got, err := p.Do(ctx, f.fn); err != nil || got != "ok" {
			t.Fatalf("got (%q, %v), want ok from m3", got, err)
		}
		if went := f.went(); fmt.Sprint(went) != "[0 1 2 3]" {
			t.Errorf("attempts went to %v, want each member once", went)
		}

		one := newFleet(newScript(fails(keyRefused)), newScript(succeeds("ok")))
		_, err := mustPool(t, members(2), middleware.SingleAttempt()).Do(t.Context(), one.fn)
		if e := asError(t, err); e.Reason != observe.ReasonPermanent || len(one.went()) != 1 {
			t.Errorf("SingleAttempt: got %v, want failed permanently after one attempt", err)
		}
	})
}

// TestPoolAccountFailureRetriesATriedMember: when every member the call
// has not tried is out, an account failure is retried, within the limits,
// on a member that failed the call before for a reason of its own.
func TestPoolAccountFailureRetriesATriedMember(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := newFleet(newScript(fails(unavailable), succeeds("ok")), newScript(fails(keyRefused)))
		p := mustPool(t, members(2))
		if got, err := p.Do(t.Context(), f.fn); err != nil || got != "ok" {
			t.Fatalf("got (%q, %v), want ok from m0's second attempt", got, err)
		}
		if went := f.went(); fmt.Sprint(went) != "[0 1 0]" {
			t.Errorf("attempts went to %v, want m0, m1, m0", went)
		}
		f = newFleet(newScript(fails(unavailable), succeeds("ok")), newScript(fails(keyRefused)))
		_, err := mustPool(t, members(2), middleware.MaxAttempts(2)).Do(t.Context(), f.fn)
		if e := asError(t, err); e.Reason != observe.ReasonPermanent || len(f.went()) != 2 {
			t.Errorf("with 2 attempts: got %v, want failed permanently after 2", err)
		}
	})
}

// TestPoolNestedAccountFailure: a member that is itself a resilient
// pipeline and gives up for its account is taken out of rotation too, and
// the call goes on to another member.
func TestPoolNestedAccountFailure(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		inner := mustPipeline(t, middleware.NoBreaker())
		refused := newScript(fails(keyRefused))
		ok := newScript(succeeds("ok"))
		fn := func(ctx context.Context, st middleware.State) (string, error) {
			if st.Member == 0 {
				return inner.Do(ctx, refused.fn)
			}
			return ok.fn(ctx, st)
		}
		p := mustPool(t, members(2))
		for range 5 {
			if got, err := p.Do(t.Context(), fn); err != nil || got != "ok" {
				t.Fatalf("got (%q, %v), want ok from m1", got, err)
			}
		}
		if n := refused.count(); n != 1 {
			t.Errorf("the refusing member got %d requests, want 1", n)
		}
		if m0 := p.Pool().Members()[0]; m0.Suspended != breaker.DefaultMaxHold {
			t.Errorf("m0 is suspended for %v, want %v", m0.Suspended, breaker.DefaultMaxHold)
		}
	})
}

// TestPoolRequestFailureStops: a failure of the request itself (a 400
// invalid request) would fail on every member: the call stops at once,
// and the member stays in rotation.
func TestPoolRequestFailureStops(t *testing.T) {
	f := newFleet(newScript(fails(invalidRequest), succeeds("ok")), newScript(succeeds("ok")))
	p := mustPool(t, members(2))
	_, err := p.Do(t.Context(), f.fn)
	if e := asError(t, err); e.Reason != observe.ReasonPermanent || len(f.went()) != 1 {
		t.Errorf("got %v, want failed permanently after one attempt", err)
	}
	if b := p.Pool().Members()[0].Breaker; b.State() != observe.BreakerClosed {
		t.Errorf("m0's circuit is %v, want closed", b.State())
	}
}

// TestPlainPipelineAccountFailureStops: outside a pool an account failure
// stops the call as any permanent failure does, and counts nothing
// against the breaker.
func TestPlainPipelineAccountFailureStops(t *testing.T) {
	s := newScript(fails(keyRefused))
	p := mustPipeline(t, middleware.CircuitBreaker(1, time.Minute))
	for range 3 {
		_, err := p.Do(t.Context(), s.fn)
		if e := asError(t, err); e.Reason != observe.ReasonPermanent {
			t.Fatalf("got %v, want failed permanently", err)
		}
	}
	if p.Breaker().State() != observe.BreakerClosed || len(s.calls) != 3 {
		t.Errorf("breaker %v after %d calls, want closed after 3", p.Breaker().State(), len(s.calls))
	}
}

// TestPoolSuspendedReportedOnce: two calls in flight on a member when its
// key is refused take it out of rotation once: one Suspended event, one
// log line, not one per call, as for a cooldown.
func TestPoolSuspendedReportedOnce(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		rec := &observetest.Recorder{}
		f := newFleet(newScript(step{err: keyRefused, sleep: time.Second}))
		p := mustPool(t, members(1), middleware.Observe(rec))
		var wg sync.WaitGroup
		for range 2 {
			wg.Go(func() { _, _ = p.Do(context.Background(), f.fn) })
		}
		wg.Wait()
		if went := f.went(); len(went) != 2 {
			t.Fatalf("attempts went to %v, want both calls on m0", went)
		}
		if sus := observetest.Of[observe.Suspended](rec); len(sus) != 1 || sus[0].For != breaker.DefaultMaxHold {
			t.Errorf("suspensions %+v, want one for %v", sus, breaker.DefaultMaxHold)
		}
	})
}
