package middleware_test

import (
	"context"
	"fmt"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/resilientgo/resilient/breaker"
	"github.com/resilientgo/resilient/limit"
	"github.com/resilientgo/resilient/middleware"
	"github.com/resilientgo/resilient/observe"
	"github.com/resilientgo/resilient/observe/observetest"
	"github.com/resilientgo/resilient/pool"
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
		if e := asError(t, err); e.Reason != observe.ReasonDeadline {
			t.Errorf("reason %v (%v), want %v", e.Reason, e, observe.ReasonDeadline)
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
		late := observetest.Of[observe.LateResult](rec)
		if len(late) != 1 || late[0].Target != "m0" {
			t.Errorf("late results %+v, want one naming m0", late)
		}
	})
}

// slowGate is a member's concurrency limit that takes a round trip to
// answer, as one shared through a store does: a millisecond, then a slot.
type slowGate struct{}

func (slowGate) Acquire(ctx context.Context, _ time.Duration) (func(), error) {
	select {
	case <-time.After(time.Millisecond):
		return func() {}, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// burst makes callers calls of p at once and returns how many attempts
// went to member 0.
func burst(t *testing.T, p *middleware.Pipeline[string], f *fleet, callers int) int {
	t.Helper()
	done := make(chan struct{})
	for range callers {
		go func() {
			defer func() { done <- struct{}{} }()
			_, _ = p.Do(t.Context(), f.fn)
		}()
	}
	for range callers {
		<-done
	}
	n := 0
	for _, m := range f.went() {
		if m == 0 {
			n++
		}
	}
	return n
}

// TestPoolProbeOncePerDelayUnderBurst: a member due for its probe (least
// in flight: of poor health and neglected for a breaker delay; lowest
// latency: not measured for one) gets one attempt of a burst of calls that
// all arrive as it falls due, not one per caller, even when its gates take
// a round trip between the choice and the attempt.
func TestPoolProbeOncePerDelayUnderBurst(t *testing.T) {
	gate := middleware.ConcurrencyLimit(slowGate{}, 0)
	t.Run("least in flight", func(t *testing.T) {
		synctest.Test(t, func(t *testing.T) {
			f := newFleet(newScript(fails(unavailable)), newScript(succeeds("ok")))
			p := mustPool(t, members(2, middleware.NoBreaker(), gate))
			for range 14 { // m0 is probed once per delay, and fails
				time.Sleep(breaker.DefaultDelay + time.Second)
				if _, err := p.Do(t.Context(), f.fn); err != nil {
					t.Fatal(err)
				}
			}
			if h := p.Pool().Members()[0].Health; h > 0.2 {
				t.Fatalf("m0's health is %.2f, want it low after its failures", h)
			}
			f.went()
			time.Sleep(breaker.DefaultDelay + time.Second)
			if n := burst(t, p, f, 5); n != 1 {
				t.Errorf("%d attempts of a burst of 5 went to the neglected member, want its one probe", n)
			}
		})
	})
	t.Run("a burst spreads over idle members", func(t *testing.T) {
		synctest.Test(t, func(t *testing.T) {
			f := newFleet(newScript(succeeds("a")), newScript(succeeds("b")))
			p := mustPool(t, members(2, gate))
			if n := burst(t, p, f, 4); n != 2 {
				t.Errorf("%d attempts of a burst of 4 went to m0, want 2 on each member", n)
			}
		})
	})
	t.Run("lowest latency", func(t *testing.T) {
		synctest.Test(t, func(t *testing.T) {
			f := newFleet(newScript(step{result: "slow", sleep: time.Second}), newScript(step{result: "fast", sleep: 10 * time.Millisecond}))
			p := mustPool(t, members(2, gate), middleware.Balance(pool.LowestLatency{}))
			for range 3 {
				if _, err := p.Do(t.Context(), f.fn); err != nil {
					t.Fatal(err)
				}
			}
			if went := f.went(); fmt.Sprint(went) != "[0 1 1]" {
				t.Fatalf("attempts went to %v, want each measured, then the fast one", went)
			}
			time.Sleep(breaker.DefaultDelay + time.Second)
			if n := burst(t, p, f, 5); n != 1 {
				t.Errorf("%d attempts of a burst of 5 went to the member due for a new measurement, want one", n)
			}
		})
	})
}

// toggle is a member's rate limiter with room or not, as the test says.
type toggle struct{ full atomic.Bool }

func (l *toggle) Acquire(context.Context, int) error {
	if l.full.Load() {
		return limit.ErrLimited
	}
	return nil
}

func (l *toggle) TryAcquire(ctx context.Context, cost int) bool { return l.Acquire(ctx, cost) == nil }

// TestPoolRefusedProbeStaysDue: a member due for its probe whose rate
// limiter has no room loses nothing by it: the call goes to another
// member, nothing is left counted in flight, and the next call, once the
// limiter has room, is the probe.
func TestPoolRefusedProbeStaysDue(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		lim := &toggle{}
		f := newFleet(newScript(fails(unavailable), succeeds("back")), newScript(succeeds("ok")))
		ms := members(2, middleware.NoBreaker())
		ms[0].Options = append(ms[0].Options, middleware.RateLimit(lim))
		p := mustPool(t, ms)
		if _, err := p.Do(t.Context(), f.fn); err != nil { // m0 fails, m1 answers
			t.Fatal(err)
		}
		time.Sleep(breaker.DefaultDelay + time.Second)
		lim.full.Store(true)
		if _, err := p.Do(t.Context(), f.fn); err != nil {
			t.Fatal(err)
		}
		lim.full.Store(false)
		if got, err := p.Do(t.Context(), f.fn); err != nil || got != "back" {
			t.Errorf("got (%q, %v), want the probe of m0, refused by its limiter before", got, err)
		}
		if went := f.went(); fmt.Sprint(went) != "[0 1 1 0]" {
			t.Errorf("attempts went to %v, want m0, m1, m1 while m0's limiter is full, then m0's probe", went)
		}
		for _, st := range p.Pool().Members() {
			if st.InFlight != 0 {
				t.Errorf("%s has %d in flight, want 0", st.Name, st.InFlight)
			}
		}
	})
}

// TestPoolNestedMemberMovesOn: a member that is itself a resilient
// pipeline answers with its own final error once it has retried its
// target: the pool does not retry that member (its retries would multiply
// the inner ones) but goes on to a member not tried yet, as fallbacks
// would; a final error another target cannot fix stops the call.
func TestPoolNestedMemberMovesOn(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		inner := mustPipeline(t, middleware.MaxAttempts(2), middleware.NoBreaker())
		sick := newScript(fails(unavailable))
		f := newFleet(newScript(), newScript(succeeds("ok")))
		fn := func(ctx context.Context, st middleware.State) (string, error) {
			if st.Member == 0 {
				f.mu.Lock()
				f.order = append(f.order, 0)
				f.mu.Unlock()
				return inner.Do(ctx, sick.fn)
			}
			return f.fn(ctx, st)
		}
		p := mustPool(t, members(2), middleware.Balance(pool.RoundRobin{}))
		if got, err := p.Do(t.Context(), fn); err != nil || got != "ok" {
			t.Fatalf("got (%q, %v), want ok from m1 after m0's inner pipeline gave up", got, err)
		}
		if went := f.went(); fmt.Sprint(went) != "[0 1]" {
			t.Errorf("attempts went to %v, want m0 once, then m1", went)
		}
		if n := sick.count(); n != 2 {
			t.Errorf("the inner pipeline made %d attempts, want its own 2, not multiplied", n)
		}

		// Every member nested and failing: each is tried once.
		both := mustPool(t, members(2))
		start := sick.count()
		_, err := both.Do(t.Context(), func(ctx context.Context, _ middleware.State) (string, error) {
			return inner.Do(ctx, sick.fn)
		})
		if e := asError(t, err); len(e.Attempts) != 2 || e.Attempts[0].Target == e.Attempts[1].Target || e.Reason != observe.ReasonExhausted {
			t.Errorf("got %v, want one attempt on each member, exhausted", err)
		}
		if n := sick.count() - start; n != 4 {
			t.Errorf("the inner pipelines made %d attempts, want 2 each", n)
		}

		// A nested member that gave up is not asked again by the call, even
		// when a plain member's failure is retried after it.
		sick = newScript(fails(unavailable))
		f = newFleet(newScript(), newScript(fails(unavailable), succeeds("ok")))
		ms := members(2)
		ms[0].Options = []middleware.Option{middleware.Weight(5)} // the round robin's choice when both were tried
		mixed := mustPool(t, ms, middleware.Balance(pool.RoundRobin{}))
		if got, err := mixed.Do(t.Context(), fn); err != nil || got != "ok" {
			t.Fatalf("mixed: got (%q, %v), want ok from m1's second attempt", got, err)
		}
		if went := f.went(); fmt.Sprint(went) != "[0 1 1]" || sick.count() != 2 {
			t.Errorf("mixed: attempts went to %v, the inner pipeline made %d, want [0 1 1] and 2", went, sick.count())
		}

		// A final error no other member can fix stops the call at once.
		denied := newScript(fails(unauthorized))
		start = denied.count()
		_, err = both.Do(t.Context(), func(ctx context.Context, _ middleware.State) (string, error) {
			return inner.Do(ctx, denied.fn)
		})
		if e := asError(t, err); e.Reason != observe.ReasonPermanent || denied.count()-start != 1 {
			t.Errorf("got %v after %d requests, want the inner permanent failure after one", err, denied.count()-start)
		}
	})
}

// counting is a member's rate limiter that always has room and counts the
// units taken from it.
type counting struct{ taken atomic.Int32 }

func (l *counting) Acquire(context.Context, int) error { l.taken.Add(1); return nil }

func (l *counting) TryAcquire(context.Context, int) bool { l.taken.Add(1); return true }

// TestPoolProbeInFlightTakesNoLimit: while a member's probe is in flight
// (half-open, its one permit taken), the calls that go elsewhere take
// nothing from its rate limiter: a member's limit is spent only on
// requests sent to it, so that it has its room when it recovers.
func TestPoolProbeInFlightTakesNoLimit(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		lim := &counting{}
		f := newFleet(newScript(fails(unavailable), step{result: "back", sleep: time.Minute}), newScript(succeeds("ok")))
		ms := members(2, middleware.CircuitBreaker(1, 10*time.Second))
		ms[0].Options = append(ms[0].Options, middleware.RateLimit(lim))
		p := mustPool(t, ms)
		if _, err := p.Do(t.Context(), f.fn); err != nil { // m0 fails and opens, m1 answers
			t.Fatal(err)
		}
		time.Sleep(11 * time.Second)
		probe := make(chan error)
		go func() { _, err := p.Do(t.Context(), f.fn); probe <- err }()
		synctest.Wait() // m0's probe is in flight for a minute
		for range 5 {
			if got, err := p.Do(t.Context(), f.fn); err != nil || got != "ok" {
				t.Fatalf("got (%q, %v), want ok from m1", got, err)
			}
		}
		if err := <-probe; err != nil {
			t.Fatal(err)
		}
		if went := f.went(); fmt.Sprint(went) != "[0 1 0 1 1 1 1 1]" {
			t.Errorf("attempts went to %v, want m0, m1, the probe of m0, then m1 while it is in flight", went)
		}
		if n := lim.taken.Load(); n != 2 {
			t.Errorf("m0's limiter gave %d units, want 2, one per request sent to m0", n)
		}
	})
}

// TestPoolAbandonedProbeFreesTheNext: a probe abandoned at its timeout,
// whose function never returns, decides the circuit (open again) and does
// not keep the member from its next probe after another delay.
func TestPoolAbandonedProbeFreesTheNext(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		hung := make(chan struct{})
		defer close(hung)
		var m0 atomic.Int32
		fn := func(_ context.Context, st middleware.State) (string, error) {
			if st.Member != 0 {
				return "m1", nil
			}
			switch m0.Add(1) {
			case 1:
				return "", unavailable
			case 2:
				<-hung // a client that ignores its context
				return "late", nil
			}
			return "m0", nil
		}
		p := mustPool(t, members(2, middleware.CircuitBreaker(1, 10*time.Second)), middleware.Timeout(time.Second))
		for range 2 { // m0 fails and opens; after its delay, its probe hangs and is abandoned
			if _, err := p.Do(t.Context(), fn); err != nil {
				t.Fatal(err)
			}
			time.Sleep(11 * time.Second)
		}
		if got, err := p.Do(t.Context(), fn); err != nil || got != "m0" {
			t.Errorf("got (%q, %v), want m0's next probe, answered", got, err)
		}
	})
}

// TestPoolCanceledWhileWaitingForSlot: a caller that gives up while it
// waits for a member's slot (the pool's own limit and the members' both
// set) returns at once, canceled, and leaves every slot as it found it.
func TestPoolCanceledWhileWaitingForSlot(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := newFleet(newScript(step{result: "a", sleep: time.Hour}, succeeds("a")), newScript(step{result: "b", sleep: time.Hour}, succeeds("b")))
		p := mustPool(t, members(2, middleware.MaxConcurrent(1, time.Minute)), middleware.MaxConcurrent(3, time.Minute))
		done := make(chan struct{})
		for range 2 {
			go func() { _, _ = p.Do(context.Background(), f.fn); done <- struct{}{} }()
		}
		synctest.Wait() // each member's one slot is held for an hour
		ctx, cancel := context.WithCancel(t.Context())
		time.AfterFunc(time.Second, cancel)
		start := time.Now()
		_, err := p.Do(ctx, f.fn)
		if e := asError(t, err); e.Reason != observe.ReasonCanceled || time.Since(start) != time.Second {
			t.Errorf("got %v after %v, want canceled after 1s", err, time.Since(start))
		}
		<-done
		<-done
		for range 3 { // every slot is free again
			if _, err := p.Do(t.Context(), f.fn); err != nil {
				t.Fatal(err)
			}
		}
		for _, st := range p.Pool().Members() {
			if st.InFlight != 0 {
				t.Errorf("%s has %d in flight, want 0", st.Name, st.InFlight)
			}
		}
	})
}

// TestPoolCooldownWaitHoldsNoSlot: a caller waiting for a member to end
// its cooldown holds no slot of the pool's concurrency limit, which bounds
// the attempts in flight: callers arriving meanwhile wait for the cooldown
// too, rather than being refused for a limit no request fills.
func TestPoolCooldownWaitHoldsNoSlot(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := newFleet(newScript(fails(rateLimited(5*time.Second)), succeeds("a")), newScript(fails(rateLimited(5*time.Second)), succeeds("b")))
		p := mustPool(t, members(2), middleware.MaxAttempts(1), middleware.MaxConcurrent(1, time.Second))
		for range 2 { // each member answers a 429 and cools down for 5s
			_, _ = p.Do(t.Context(), f.fn)
		}
		errs := make(chan error, 2)
		for range 2 {
			go func() { _, err := p.Do(t.Context(), f.fn); errs <- err }()
		}
		for range 2 {
			if err := <-errs; err != nil {
				t.Errorf("got %v, want each caller answered once the cooldowns end", err)
			}
		}
	})
}
