package middleware_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/resilientgo/resilient/breaker"
	"github.com/resilientgo/resilient/middleware"
	"github.com/resilientgo/resilient/observe"
	"github.com/resilientgo/resilient/observe/observetest"
	"github.com/resilientgo/resilient/pool"
	"github.com/resilientgo/resilient/taxonomy"
)

// hinted is a 429 whose wait comes from source.
func hinted(wait time.Duration, source taxonomy.WaitSource) error {
	return taxonomy.WithClass(errors.New("API returned unexpected status code: 429"),
		taxonomy.Class{Kind: taxonomy.RateLimited, Rule: "status 429", RetryAfter: wait, WaitSource: source})
}

// TestPoolStrategyChecked: a nil strategy is refused, named as such; the
// strategies' names are those of the logs; the pool reports its strategy,
// the default when none is given.
func TestPoolStrategyChecked(t *testing.T) {
	_, err := middleware.New[string]("p", middleware.Members(members(2)...), middleware.Balance(nil))
	if err == nil || !strings.Contains(err.Error(), "Balance(nil)") {
		t.Errorf("got %v, want Balance(nil) refused", err)
	}
	for s, want := range map[pool.Picker]string{pool.LeastInFlight{}: "least_in_flight",
		pool.RoundRobin{}: "round_robin", pool.LowestLatency{}: "lowest_latency"} {
		if got := s.String(); got != want {
			t.Errorf("strategy %T is named %q, want %q", s, got, want)
		}
		if got := mustPool(t, members(2), middleware.Balance(s)).Pool().Picker(); got != s {
			t.Errorf("a pool built with Balance(%v) reports %v", s, got)
		}
	}
	if got := mustPool(t, members(2)).Pool().Picker(); got != (pool.LeastInFlight{}) {
		t.Errorf("a pool built without Balance reports %v, want least_in_flight", got)
	}
	// The least weight is a valid one.
	p := mustPool(t, []middleware.Member{{Name: "a", Options: []middleware.Option{middleware.Weight(1)}}})
	if w := p.Pool().Members()[0].Weight; w != 1 {
		t.Errorf("weight %d, want 1", w)
	}
}

// TestPoolNoCooldownWithoutHint: a failure that asks for no wait cools no
// member down, and reports no cooldown.
func TestPoolNoCooldownWithoutHint(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		rec := &observetest.Recorder{}
		f := newFleet(newScript(fails(unavailable)), newScript(fails(hinted(0, taxonomy.WaitRetryAfter))), newScript(succeeds("ok")))
		p := mustPool(t, members(3), middleware.Observe(rec))
		if got, err := p.Do(t.Context(), f.fn); err != nil || got != "ok" {
			t.Fatalf("got (%q, %v), want ok from m2", got, err)
		}
		if cd := observetest.Of[observe.Cooldown](rec); len(cd) != 0 {
			t.Errorf("cooldowns %+v, want none: neither failure asked for a wait", cd)
		}
		for _, m := range p.Pool().Members() {
			if m.Cooldown != 0 {
				t.Errorf("%s cools down for %v, want not at all", m.Name, m.Cooldown)
			}
		}
	})
}

// TestPoolCooldownReportedOnce: two calls that get the same wait hint from
// a member at the same moment make it cool down once: one event, one log
// line, not one per call.
func TestPoolCooldownReportedOnce(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		rec := &observetest.Recorder{}
		f := newFleet(newScript(step{err: rateLimited(5 * time.Second), sleep: time.Second}))
		p := mustPool(t, members(1), middleware.MaxAttempts(1), middleware.Observe(rec))
		var wg sync.WaitGroup
		for range 2 {
			wg.Go(func() { _, _ = p.Do(context.Background(), f.fn) })
		}
		wg.Wait()
		if went := f.went(); len(went) != 2 {
			t.Fatalf("attempts went to %v, want both calls on m0", went)
		}
		if cd := observetest.Of[observe.Cooldown](rec); len(cd) != 1 || cd[0].Wait != 5*time.Second {
			t.Errorf("cooldowns %+v, want one of 5s", cd)
		}
	})
}

// TestPoolCooldownAtTheCap: a wait hint of exactly the RetryAfterCap is
// within it: a pool of one waits it out and retries, as a plain pipeline
// does, rather than holding the member's circuit open.
func TestPoolCooldownAtTheCap(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := newFleet(newScript(fails(rateLimited(30*time.Second)), succeeds("ok")))
		p := mustPool(t, members(1), middleware.RetryAfterCap(30*time.Second))
		start := time.Now()
		if got, err := p.Do(t.Context(), f.fn); err != nil || got != "ok" {
			t.Fatalf("got (%q, %v), want ok after the wait", got, err)
		}
		if took := time.Since(start); took != 30*time.Second {
			t.Errorf("the call took %v, want the hint, 30s", took)
		}
		if st := p.Pool().Members()[0].Breaker.State(); st != observe.BreakerClosed {
			t.Errorf("m0's breaker is %v, want closed", st)
		}
	})
}

// TestPoolRetryWaitSource: when every member cools down, the retry waits
// for the first to be ready, and reports where that wait comes from: the
// hint of the member that failed when it is the first back (a rate-limit
// reset, or a Retry-After when the classifier names no source, as for a
// plain pipeline), else another member's cooldown.
func TestPoolRetryWaitSource(t *testing.T) {
	tests := []struct {
		name       string
		scripts    []*script
		wantWait   time.Duration
		wantSource taxonomy.WaitSource
	}{
		{"a reset of the member that failed",
			[]*script{newScript(fails(hinted(3*time.Second, taxonomy.WaitReset)), succeeds("ok"))},
			3 * time.Second, taxonomy.WaitReset},
		{"a wait of no named source",
			[]*script{newScript(fails(hinted(3*time.Second, taxonomy.WaitBackoff)), succeeds("ok"))},
			3 * time.Second, taxonomy.WaitRetryAfter},
		{"another member is back first", []*script{
			newScript(fails(hinted(3*time.Second, taxonomy.WaitReset)), succeeds("ok")),
			newScript(fails(hinted(5*time.Second, taxonomy.WaitReset))),
		}, 3 * time.Second, taxonomy.WaitRetryAfter},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				rec := &observetest.Recorder{}
				f := newFleet(tc.scripts...)
				p := mustPool(t, members(len(tc.scripts)), middleware.Observe(rec))
				start := time.Now()
				if got, err := p.Do(t.Context(), f.fn); err != nil || got != "ok" {
					t.Fatalf("got (%q, %v), want ok from m0 once it is back", got, err)
				}
				if took := time.Since(start); took != tc.wantWait {
					t.Errorf("the call took %v, want %v", took, tc.wantWait)
				}
				retries := observetest.Of[observe.RetryScheduled](rec)
				last := retries[len(retries)-1]
				if last.Wait != tc.wantWait || last.Source != tc.wantSource {
					t.Errorf("the last retry waits %v from %v, want %v from %v", last.Wait, last.Source, tc.wantWait, tc.wantSource)
				}
			})
		})
	}
}

// TestPoolWaitsForOneCooldown: a call that finds every member cooling down
// waits for the first to be ready, once: if meanwhile the member is asked
// to cool down longer, the call stops without a request, with the members'
// states, rather than wait again.
func TestPoolWaitsForOneCooldown(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := newFleet(newScript(
			step{err: rateLimited(10 * time.Second), sleep: 3 * time.Second}, // x
			step{err: rateLimited(5 * time.Second), sleep: time.Second},      // y
			succeeds("ok")))
		p := mustPool(t, members(1), middleware.MaxAttempts(1))
		var wg sync.WaitGroup
		for range 2 { // x, then y, in flight at once
			wg.Go(func() { _, _ = p.Do(context.Background(), f.fn) })
			synctest.Wait()
		}
		time.Sleep(2 * time.Second) // y's 429 cools m0 down until 6s; x's, at 3s, until 13s
		start := time.Now()
		_, err := p.Do(t.Context(), f.fn)
		e := asError(t, err)
		if took := time.Since(start); took != 4*time.Second {
			t.Errorf("the call ended after %v, want the 4s left of the first cooldown", took)
		}
		if e.Reason != observe.ReasonCircuitOpen || !strings.Contains(e.Detail, "m0: cooling down (7s left)") {
			t.Errorf("got %v (detail %q), want no member available, m0 cooling down for 7s more", err, e.Detail)
		}
		if went := f.went(); len(went) != 2 {
			t.Errorf("attempts went to %v, want x's and y's alone", went)
		}
		wg.Wait()
	})
}

// TestPoolWaitWhileOpenWaitsForFirstProbe: with every circuit open, a call
// with WaitWhileOpen waits for the first circuit to allow its probe, not
// for the last.
func TestPoolWaitWhileOpenWaitsForFirstProbe(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := newFleet(newScript(succeeds("m0")), newScript(succeeds("m1")))
		p := mustPool(t, members(2), middleware.CircuitBreaker(1, 10*time.Second), middleware.WaitWhileOpen(),
			middleware.Backoff(time.Millisecond, time.Millisecond))
		st := p.Pool().Members()
		st[1].Breaker.Open()
		time.Sleep(4 * time.Second)
		st[0].Breaker.Open() // m1's probe is due in 6s, m0's in 10s
		start := time.Now()
		got, err := p.Do(t.Context(), f.fn)
		if took := time.Since(start); err != nil || got != "m1" || took < 6*time.Second || took > 7*time.Second {
			t.Errorf("got (%q, %v) after %v, want m1's probe after 6s", got, err, took)
		}
	})
}

// TestPoolWaiterGoesWhereQueueIsShortest: when every member's concurrency
// limit is full, a call waits on one member: its own sticky member when
// the queues are as long, else the member with the shortest queue, so that
// waiters spread over the members.
func TestPoolWaiterGoesWhereQueueIsShortest(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		// Each member answers at once the first time, then holds its slot:
		// m0 for 10s, m1 for 20s.
		f := newFleet(newScript(succeeds("m0"), step{result: "m0", sleep: 10 * time.Second}),
			newScript(succeeds("m1"), step{result: "m1", sleep: 20 * time.Second}))
		p := mustPool(t, members(2, middleware.MaxConcurrent(1, time.Minute)))
		keyed := pool.Sticky(t.Context(), "conversation")
		if _, err := p.Do(t.Context(), f.fn); err != nil {
			t.Fatal(err)
		}
		if got, err := p.Do(keyed, f.fn); err != nil || got != "m1" {
			t.Fatalf("got (%q, %v), want the key's call answered by m1, the next in turn", got, err)
		}
		var wg sync.WaitGroup
		for range 2 { // one call holds each member's slot
			wg.Go(func() { _, _ = p.Do(context.Background(), f.fn) })
			synctest.Wait()
		}
		if st := p.Pool().Members(); st[0].InFlight != 1 || st[1].InFlight != 1 {
			t.Fatalf("in flight %d and %d, want one call on each member", st[0].InFlight, st[1].InFlight)
		}
		var sticky, plain string
		wg.Go(func() { sticky, _ = p.Do(keyed, f.fn) })
		synctest.Wait() // it waits on m1, its member, though m0 is free first
		wg.Go(func() { plain, _ = p.Do(context.Background(), f.fn) })
		wg.Wait()
		if sticky != "m1" || plain != "m0" {
			t.Errorf("the sticky call was served by %q, the other by %q; want m1 (its own), and m0 (no one waiting there)", sticky, plain)
		}
	})
}

// TestPoolLatencyIsAnAverage: under LowestLatency, one slow answer from
// the fastest member does not move its traffic to a slower one: its
// latency is a moving average of its attempts.
func TestPoolLatencyIsAnAverage(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		answers := func(d ...time.Duration) *script {
			steps := make([]step, len(d))
			for i := range d {
				steps[i] = step{result: "ok", sleep: d[i]}
			}
			return newScript(steps...)
		}
		ms := time.Millisecond
		f := newFleet(answers(100*ms, 100*ms, 400*ms, 100*ms), answers(200*ms))
		p := mustPool(t, members(2, middleware.CircuitBreaker(10, time.Hour)), middleware.Balance(pool.LowestLatency{}))
		for range 5 {
			if _, err := p.Do(t.Context(), f.fn); err != nil {
				t.Fatal(err)
			}
		}
		if went := f.went(); fmt.Sprint(went) != "[0 1 0 0 0]" {
			t.Errorf("attempts went to %v, want m0 again after its one slow answer", went)
		}
		// 100ms, then a quarter of the way to each new answer: 175ms after
		// the slow one, 156.25ms after the next.
		if got := p.Pool().Members()[0].Latency; got != 156250*time.Microsecond {
			t.Errorf("m0's latency %v, want its moving average, 156.25ms", got)
		}
	})
}

// TestPoolStaleMemberMeasuredOnce: under LowestLatency, a member not
// measured for more than one breaker delay gets the next attempt, one
// only: calls in flight at the same time go to the member they measured
// fast.
func TestPoolStaleMemberMeasuredOnce(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := newFleet(newScript(step{result: "slow", sleep: 400 * time.Millisecond}),
			newScript(step{result: "fast", sleep: 100 * time.Millisecond}))
		p := mustPool(t, members(2, middleware.CircuitBreaker(10, 10*time.Second)), middleware.Balance(pool.LowestLatency{}))
		start := time.Now()
		for range 2 { // each measured once: slow at 0.4s, fast at 0.5s
			if _, err := p.Do(t.Context(), f.fn); err != nil {
				t.Fatal(err)
			}
		}
		time.Sleep(time.Until(start.Add(10400 * time.Millisecond))) // the slow one measured exactly 10s ago
		if got, err := p.Do(t.Context(), f.fn); err != nil || got != "fast" {
			t.Errorf("one delay after it was measured: got (%q, %v), want fast, the slow one not due yet", got, err)
		}
		var wg sync.WaitGroup
		for range 4 { // at 10.5s, in flight at once
			wg.Go(func() { _, _ = p.Do(context.Background(), f.fn) })
			synctest.Wait()
		}
		wg.Wait()
		if went := f.went(); fmt.Sprint(went) != "[0 1 1 0 1 1 1]" {
			t.Errorf("attempts went to %v, want the slow one measured again once, past its delay", went)
		}
	})
}

// TestPoolNeglectedMemberProbedPastDelay: under LeastInFlight, a member
// that failed gets no call while a healthier one is idle until it has had
// none for more than its breaker's delay; then one, its probe, whatever its
// place in the list.
func TestPoolNeglectedMemberProbedPastDelay(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := newFleet(newScript(succeeds("m0")), newScript(fails(unavailable), succeeds("m1")))
		p := mustPool(t, members(2, middleware.CircuitBreaker(3, 10*time.Second)))
		for range 3 { // m0; m1 failing, then m0; m0
			if _, err := p.Do(t.Context(), f.fn); err != nil {
				t.Fatal(err)
			}
		}
		time.Sleep(10 * time.Second) // m1 had its last attempt exactly one delay ago
		if got, err := p.Do(t.Context(), f.fn); err != nil || got != "m0" {
			t.Errorf("one delay after m1's last attempt: got (%q, %v), want m0, m1's probe not due yet", got, err)
		}
		time.Sleep(time.Nanosecond)
		if got, err := p.Do(t.Context(), f.fn); err != nil || got != "m1" {
			t.Errorf("past the delay: got (%q, %v), want m1's probe", got, err)
		}
		if went := f.went(); fmt.Sprint(went) != "[0 1 0 0 0 1]" {
			t.Errorf("attempts went to %v, want m1 failing once, then m0 alone until m1's probe", went)
		}
	})
}

// TestPoolUsePool: two pipelines on one pool share what it knows of the
// members: a cooldown one of them caused keeps the other's calls away too.
// A nil pool is refused.
func TestPoolUsePool(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := newFleet(newScript(fails(rateLimited(5*time.Second)), succeeds("m0")), newScript(succeeds("m1")))
		p := mustPool(t, members(2))
		q := mustPipeline(t, middleware.UsePool(p.Pool()))
		if q.Pool() != p.Pool() {
			t.Fatal("the second pipeline has a pool of its own, want the first's")
		}
		if got, err := p.Do(t.Context(), f.fn); err != nil || got != "m1" {
			t.Fatalf("got (%q, %v), want m1 after m0's 429", got, err)
		}
		for range 2 {
			if got, err := q.Do(t.Context(), f.fn); err != nil || got != "m1" {
				t.Errorf("the other pipeline got (%q, %v), want m1 while m0 cools down", got, err)
			}
		}
	})
	if _, err := middleware.New[string]("p", middleware.UsePool(nil)); err == nil || !strings.Contains(err.Error(), "UsePool(nil)") {
		t.Errorf("got %v, want UsePool(nil) refused", err)
	}
}

// TestPoolProbeElsewhereTakesNoLimit: a member whose breaker is shared with
// another pipeline (UseBreaker) and half-open there, its probe in flight in
// that pipeline, is passed over without taking anything from its limits.
func TestPoolProbeElsewhereTakesNoLimit(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		shared := breaker.New(breaker.Settings{Name: "m0", Failures: 1, Delay: 10 * time.Second})
		other := mustPipeline(t, middleware.UseBreaker(shared))
		lim := &counting{}
		f := newFleet(newScript(succeeds("m0")), newScript(succeeds("m1")))
		p := mustPool(t, []middleware.Member{
			{Name: "m0", Options: []middleware.Option{middleware.UseBreaker(shared), middleware.RateLimit(lim)}},
			{Name: "m1"},
		})
		shared.Open()
		time.Sleep(10 * time.Second)
		probe := make(chan error)
		go func() { // the other pipeline's probe, in flight for a minute
			_, err := other.Do(t.Context(), newScript(step{result: "back", sleep: time.Minute}).fn)
			probe <- err
		}()
		synctest.Wait()
		for range 3 {
			if got, err := p.Do(t.Context(), f.fn); err != nil || got != "m1" {
				t.Fatalf("got (%q, %v), want m1 while m0's probe is in flight elsewhere", got, err)
			}
		}
		if n := lim.taken.Load(); n != 0 {
			t.Errorf("m0's limiter gave %d units, want none: no request went to m0", n)
		}
		if err := <-probe; err != nil {
			t.Fatal(err)
		}
	})
}

// heldLimiter is a pool's rate limiter that lets its first attempt through
// at once and holds the others until open is closed.
type heldLimiter struct {
	calls atomic.Int32
	open  chan struct{}
}

func (l *heldLimiter) Acquire(ctx context.Context, _ int) error {
	if l.calls.Add(1) == 1 {
		return nil
	}
	select {
	case <-l.open:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// TestPoolCooldownAfterPoolLimit: a call that waited for the pool's own
// rate limit and finds then that its member began to cool down meanwhile
// waits for the cooldown, or fails at once when the wait would pass its
// deadline.
func TestPoolCooldownAfterPoolLimit(t *testing.T) {
	for _, deadline := range []time.Duration{0, 5 * time.Second} {
		t.Run(fmt.Sprintf("deadline=%v", deadline), func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				f := newFleet(newScript(step{err: rateLimited(5 * time.Second), sleep: 2 * time.Second}, succeeds("ok")))
				lim := &heldLimiter{open: make(chan struct{})}
				p := mustPool(t, members(1), middleware.RateLimit(lim), middleware.MaxAttempts(1))
				go func() { _, _ = p.Do(context.Background(), f.fn) }() // a 429 of 5s at 2s
				synctest.Wait()
				ctx := t.Context()
				if deadline > 0 {
					var cancel context.CancelFunc
					ctx, cancel = context.WithTimeout(ctx, deadline)
					defer cancel()
				}
				type result struct {
					got  string
					err  error
					took time.Duration
				}
				done := make(chan result)
				go func() { // m0 ready as it starts; it waits for the pool's limit
					start := time.Now()
					got, err := p.Do(ctx, f.fn)
					done <- result{got, err, time.Since(start)}
				}()
				time.Sleep(3 * time.Second) // meanwhile, at 2s, m0 began to cool down until 7s
				close(lim.open)
				r := <-done
				if deadline == 0 {
					if r.err != nil || r.got != "ok" || r.took != 7*time.Second {
						t.Errorf("got (%q, %v) after %v, want ok after the limit (3s) and the cooldown (4s more)", r.got, r.err, r.took)
					}
					return
				}
				if e := asError(t, r.err); e.Reason != observe.ReasonDeadline || r.took != 3*time.Second {
					t.Errorf("got %v after %v, want the deadline's reason as soon as the limit let it through", r.err, r.took)
				}
			})
		})
	}
}

// TestPoolNestedMembersWithinAttempts: members that are themselves
// resilient and give up each take one attempt of the call, and the call
// makes no more attempts than its own limit for the failure's kind.
func TestPoolNestedMembersWithinAttempts(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		inner := mustPipeline(t, middleware.MaxAttempts(2), middleware.NoBreaker())
		sick := newScript(fails(unavailable))
		p := mustPool(t, members(3), middleware.MaxAttempts(2))
		_, err := p.Do(t.Context(), func(ctx context.Context, _ middleware.State) (string, error) {
			return inner.Do(ctx, sick.fn)
		})
		if e := asError(t, err); len(e.Attempts) != 2 || e.Attempts[0].Target == e.Attempts[1].Target {
			t.Errorf("got %v, want 2 attempts, each on its own member", err)
		}
		if n := sick.count(); n != 4 {
			t.Errorf("the inner pipelines made %d attempts, want 2 for each of the 2 members asked", n)
		}
	})
}

// TestPoolMemberWithoutBreakerOverCap: a member without a breaker that asks
// for a wait over the Retry-After cap cools down for it (bounded by
// MaxHold), and a call with no other member to go to stops at once for the
// cap, as a plain pipeline does, rather than waiting the cooldown out; the
// next call, finding the member still cooling down, does the same without
// a request. With another member ready, the call goes there.
func TestPoolMemberWithoutBreakerOverCap(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		asks := 2 * time.Minute
		f := newFleet(newScript(fails(rateLimited(asks)), succeeds("ok")))
		p := mustPool(t, members(1, middleware.NoBreaker()))
		for i := range 2 {
			start := time.Now()
			_, err := p.Do(t.Context(), f.fn)
			e := asError(t, err)
			if e.Reason != observe.ReasonRetryAfterOverCap || time.Since(start) != 0 {
				t.Fatalf("call %d: got %v after %v, want the Retry-After cap at once", i, err, time.Since(start))
			}
			if i == 1 && !strings.Contains(e.Detail, "cap is 1m0s") {
				t.Errorf("call %d: detail %q does not name the cap", i, e.Detail)
			}
		}
		if went := f.went(); fmt.Sprint(went) != "[0]" {
			t.Errorf("attempts went to %v, want one to m0", went)
		}

		two := newFleet(newScript(fails(rateLimited(asks))), newScript(succeeds("ok")))
		q := mustPool(t, members(2, middleware.NoBreaker()))
		if _, err := q.Do(t.Context(), two.fn); err != nil {
			t.Fatalf("with another member ready: %v", err)
		}
		if _, err := q.Do(t.Context(), two.fn); err != nil {
			t.Fatalf("with m0 cooling down: %v", err)
		}
		if went := two.went(); fmt.Sprint(went) != "[0 1 1]" {
			t.Errorf("attempts went to %v, want m0 once, then m1", went)
		}
	})
}
