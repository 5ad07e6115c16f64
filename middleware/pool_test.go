package middleware_test

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/resilientgo/resilient/breaker"
	"github.com/resilientgo/resilient/limit"
	"github.com/resilientgo/resilient/middleware"
	"github.com/resilientgo/resilient/observe"
	"github.com/resilientgo/resilient/observe/observetest"
	"github.com/resilientgo/resilient/pool"
	"github.com/resilientgo/resilient/run"
	"github.com/resilientgo/resilient/taxonomy"
)

// fleet is the protected function of a pool: each member answers from a
// script of its own, and the order of the members the attempts went to is
// kept.
type fleet struct {
	scripts []*script
	mu      sync.Mutex
	order   []int
}

func newFleet(scripts ...*script) *fleet { return &fleet{scripts: scripts} }

func (f *fleet) fn(ctx context.Context, st middleware.State) (string, error) {
	f.mu.Lock()
	f.order = append(f.order, st.Member)
	f.mu.Unlock()
	return f.scripts[st.Member].fn(ctx, st)
}

// went returns the members the attempts went to, in order, and forgets
// them.
func (f *fleet) went() []int {
	f.mu.Lock()
	defer f.mu.Unlock()
	out := f.order
	f.order = nil
	return out
}

var (
	unavailable = taxonomy.WithClass(errors.New("API returned unexpected status code: 503"),
		taxonomy.Class{Kind: taxonomy.Overloaded, Rule: "status 503"})
	unauthorized = taxonomy.WithClass(errors.New("API returned unexpected status code: 401"),
		taxonomy.Class{Kind: taxonomy.Permanent, Rule: "status 401"})
)

// rateLimited is a 429 asking for wait.
func rateLimited(wait time.Duration) error { return hinted(wait, taxonomy.WaitRetryAfter) }

// members names n members "m0", "m1"..., each with opts.
func members(n int, opts ...middleware.Option) []middleware.Member {
	ms := make([]middleware.Member, n)
	for i := range ms {
		ms[i] = middleware.Member{Name: fmt.Sprintf("m%d", i), Options: opts}
	}
	return ms
}

func mustPool(t testing.TB, ms []middleware.Member, opts ...middleware.Option) *middleware.Pipeline[string] {
	t.Helper()
	return mustPipeline(t, append([]middleware.Option{middleware.Members(ms...)}, opts...)...)
}

// TestPoolRetryGoesToAnotherMember: a member that fails costs the call one
// request: the retry goes at once (no backoff) to another member, and the
// final error of a call that fails everywhere lists each member with its
// attempt.
func TestPoolRetryGoesToAnotherMember(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		rec := &observetest.Recorder{}
		f := newFleet(newScript(fails(unavailable)), newScript(succeeds("ok")), newScript(succeeds("ok")))
		p := mustPool(t, members(3), middleware.Observe(rec))
		start := time.Now()
		got, err := p.Do(t.Context(), f.fn)
		if err != nil || got != "ok" {
			t.Fatalf("got (%q, %v), want ok", got, err)
		}
		if took := time.Since(start); took != 0 {
			t.Errorf("the call took %v, want no wait before the retry on another member", took)
		}
		if went := f.went(); len(went) != 2 || went[0] != 0 || went[1] == 0 {
			t.Errorf("attempts went to %v, want m0 then another member", went)
		}
		retries := observetest.Of[observe.RetryScheduled](rec)
		if len(retries) != 1 || retries[0].Target != "m0" || retries[0].Source != taxonomy.WaitNextMember || retries[0].Wait != 0 {
			t.Errorf("retries %+v, want one of m0 at once to the next member", retries)
		}
		var targets []string
		for _, s := range rec.Starts() {
			if s.Attempt > 0 {
				targets = append(targets, s.Target.Name)
			}
		}
		if len(targets) != 2 || targets[0] != "m0" || targets[1] == "m0" {
			t.Errorf("attempts started for %v, want m0 then another member", targets)
		}

		// Whatever the strategy would prefer: weighted round robin would
		// give the heavy member the retry too.
		f = newFleet(newScript(fails(unavailable)), newScript(succeeds("light")))
		ms := []middleware.Member{{Name: "heavy", Options: []middleware.Option{middleware.Weight(5)}}, {Name: "light"}}
		if got, err := mustPool(t, ms, middleware.Balance(pool.RoundRobin{})).Do(t.Context(), f.fn); err != nil || got != "light" {
			t.Errorf("weighted: got (%q, %v), want the retry on the light member", got, err)
		}

		// Failing everywhere: every member is tried once, and named.
		f = newFleet(newScript(fails(unavailable)), newScript(fails(unavailable)), newScript(fails(unavailable)))
		_, err = mustPool(t, members(3)).Do(t.Context(), f.fn)
		e := asError(t, err)
		if e.Reason != observe.ReasonExhausted || len(e.Attempts) != 3 {
			t.Fatalf("got %v, want exhausted after 3 attempts", err)
		}
		seen := map[string]bool{}
		for _, a := range e.Attempts {
			seen[a.Target] = true
			if !strings.Contains(err.Error(), fmt.Sprintf("attempt %d to %s:", a.Number, a.Target)) {
				t.Errorf("the error does not name attempt %d's member %s: %v", a.Number, a.Target, err)
			}
		}
		if len(seen) != 3 {
			t.Errorf("attempts went to %v, want each of the 3 members once", seen)
		}
	})
}

// TestPoolMemberBreakerMovesTrafficAndBack: a member that fails loses its
// traffic to a healthier idle one at once, save one probe per breaker delay;
// once its breaker opens, no request goes to it (the call that opened it is
// answered by another member); after the breaker's delay one probe finds it
// healthy again, and it gets its share of the traffic back.
func TestPoolMemberBreakerMovesTrafficAndBack(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		const delay = 10 * time.Second
		rec := &observetest.Recorder{}
		sick := newScript(fails(unavailable))
		f := newFleet(sick, newScript(succeeds("ok")))
		p := mustPool(t, members(2), middleware.CircuitBreaker(3, delay), middleware.Observe(rec))
		call := func() []int {
			t.Helper()
			if _, err := p.Do(t.Context(), f.fn); err != nil {
				t.Fatal(err)
			}
			return f.went()
		}
		if went := call(); fmt.Sprint(went) != "[0 1]" {
			t.Fatalf("the first call went to %v, want m0 then the retry to m1", went)
		}
		// One call at a time: m0, less healthy than an idle m1, gets no call
		// until it has had none for its breaker's delay; then one, its probe.
		probes := 1
		for p.Pool().Members()[0].Breaker.State() != observe.BreakerOpen {
			for range 3 {
				if went := call(); fmt.Sprint(went) != "[1]" {
					t.Fatalf("after m0 failed, a call went to %v, want m1 alone", went)
				}
			}
			time.Sleep(delay + time.Second)
			if went := call(); fmt.Sprint(went) != "[0 1]" {
				t.Fatalf("after m0 had no call for its breaker's delay, a call went to %v, want m0's probe, then m1", went)
			}
			if probes++; probes > 3 {
				t.Fatalf("m0's circuit is still %v after %d failures", p.Pool().Members()[0].Breaker.State(), probes)
			}
		}
		f.went()
		for range 10 {
			if _, err := p.Do(t.Context(), f.fn); err != nil {
				t.Fatal(err)
			}
		}
		if went := f.went(); fmt.Sprint(went) != "[1 1 1 1 1 1 1 1 1 1]" {
			t.Errorf("while m0's circuit is open, attempts went to %v, want m1 alone, one per call", went)
		}

		sick.mu.Lock()
		sick.steps = []step{succeeds("ok")} // m0 recovers
		sick.mu.Unlock()
		time.Sleep(delay)
		for range 4 {
			if _, err := p.Do(t.Context(), f.fn); err != nil {
				t.Fatal(err)
			}
		}
		if went := f.went(); fmt.Sprint(went) != "[0 1 0 1]" {
			t.Errorf("after the delay, attempts went to %v, want the probe to m0, then both in turn", went)
		}
		changes := observetest.Of[observe.BreakerChange](rec)
		if len(changes) != 3 || changes[0].Target != "m0" || changes[2].To != observe.BreakerClosed {
			t.Errorf("breaker changes %+v, want m0 open, half-open, closed", changes)
		}
	})
}

// TestPoolAllMembersDownFailsFast: when every member's circuit is open, a
// call fails at once without a request, with the circuit-open reason and a
// detail stating each member's state; with WaitWhileOpen it waits for the
// first probe instead.
func TestPoolAllMembersDownFailsFast(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := newFleet(newScript(fails(unavailable)), newScript(fails(unavailable)))
		p := mustPool(t, members(2), middleware.CircuitBreaker(1, 10*time.Second))
		if _, err := p.Do(t.Context(), f.fn); err == nil {
			t.Fatal("want a failure")
		}
		f.went()
		time.Sleep(time.Second)
		start := time.Now()
		_, err := p.Do(t.Context(), f.fn)
		e := asError(t, err)
		if e.Reason != observe.ReasonCircuitOpen || !errors.Is(err, middleware.ErrCircuitOpen) || time.Since(start) != 0 {
			t.Errorf("got %v after %v, want circuit open at once", err, time.Since(start))
		}
		if went := f.went(); len(went) != 0 {
			t.Errorf("attempts went to %v, want none", went)
		}
		for _, want := range []string{"m0: circuit open (9s left)", "m1: circuit open (9s left)"} {
			if !strings.Contains(e.Detail, want) {
				t.Errorf("detail %q does not say %q", e.Detail, want)
			}
		}

		// WaitWhileOpen: the call waits for the first probe, which succeeds.
		f.scripts[1].mu.Lock()
		f.scripts[1].steps = []step{succeeds("back")}
		f.scripts[1].mu.Unlock()
		w := mustPool(t, members(2), middleware.CircuitBreaker(1, 10*time.Second), middleware.WaitWhileOpen(),
			middleware.Backoff(time.Millisecond, time.Millisecond))
		for _, m := range w.Pool().Members() {
			m.Breaker.Open()
		}
		start = time.Now()
		got, err := w.Do(t.Context(), f.fn)
		if err != nil || got != "back" || time.Since(start) < 10*time.Second {
			t.Errorf("got (%q, %v) after %v, want back after the breaker delay", got, err, time.Since(start))
		}
	})
}

// TestPoolForcedOpenMemberSaysSo: a member an operator forced open is
// named so in a call's error, with no hold of its own invented for it, and
// a call that finds every member forced open stops at once, even with
// WaitWhileOpen: no delay ends a forcing.
func TestPoolForcedOpenMemberSaysSo(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := newFleet(newScript(succeeds("m0")), newScript(succeeds("m1")))
		p := mustPool(t, members(2), middleware.CircuitBreaker(1, 10*time.Second), middleware.WaitWhileOpen(),
			middleware.Backoff(time.Millisecond, time.Millisecond))
		ms := p.Pool().Members()
		ms[0].Breaker.ForceOpen()
		ms[1].Breaker.Open()
		start := time.Now()
		got, err := p.Do(t.Context(), f.fn)
		if err != nil || got != "m1" {
			t.Fatalf("got (%q, %v), want m1 after its delay", got, err)
		}
		if went := f.went(); fmt.Sprint(went) != "[1]" || time.Since(start) < 10*time.Second {
			t.Errorf("attempts went to %v after %v, want m1 alone after its delay", went, time.Since(start))
		}

		ms[1].Breaker.ForceOpen()
		start = time.Now()
		_, err = p.Do(t.Context(), f.fn)
		e := asError(t, err)
		if e.Reason != observe.ReasonCircuitOpen || time.Since(start) != 0 || len(f.went()) != 0 {
			t.Errorf("got %v after %v, want circuit open at once, without a request", err, time.Since(start))
		}
		if want := "no member available: m0: circuit forced open by an operator; m1: circuit forced open by an operator"; e.Detail != want {
			t.Errorf("detail %q, want %q", e.Detail, want)
		}
	})
}

// TestPoolCooldown: a member answering with a Retry-After cools down for
// that long: the retry goes to another member at once, later calls avoid
// it until the wait is over, and a pool of one member waits it out exactly
// as a plain pipeline does.
func TestPoolCooldown(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		rec := &observetest.Recorder{}
		f := newFleet(newScript(fails(rateLimited(5*time.Second)), succeeds("ok")), newScript(succeeds("ok")))
		p := mustPool(t, members(2), middleware.Observe(rec))
		for range 4 {
			if _, err := p.Do(t.Context(), f.fn); err != nil {
				t.Fatal(err)
			}
		}
		if went := f.went(); fmt.Sprint(went) != "[0 1 1 1 1]" {
			t.Errorf("attempts went to %v, want m0's 429, then m1 alone while m0 cools down", went)
		}
		if cd := observetest.Of[observe.Cooldown](rec); len(cd) != 1 || cd[0].Target != "m0" || cd[0].Wait != 5*time.Second {
			t.Errorf("cooldowns %+v, want m0 for 5s", cd)
		}
		if got := p.Pool().Members()[0].Cooldown; got != 5*time.Second {
			t.Errorf("m0 cools down for %v more, want 5s", got)
		}
		time.Sleep(5 * time.Second)
		for range 2 {
			if _, err := p.Do(t.Context(), f.fn); err != nil {
				t.Fatal(err)
			}
		}
		if went := f.went(); len(went) != 2 || went[0] == went[1] {
			t.Errorf("after the wait, attempts went to %v, want both again", went)
		}

		one := newFleet(newScript(fails(rateLimited(5*time.Second)), succeeds("ok")))
		start := time.Now()
		if _, err := mustPool(t, members(1)).Do(t.Context(), one.fn); err != nil {
			t.Fatal(err)
		}
		if took := time.Since(start); took != 5*time.Second {
			t.Errorf("a pool of one waited %v, want the Retry-After, 5s", took)
		}
	})
}

// TestPoolRetryAfterOverCap: a member asking for longer than the cap has
// its circuit held open, and the call goes on with another member; a pool
// of one stops as a plain pipeline does.
func TestPoolRetryAfterOverCap(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := newFleet(newScript(fails(rateLimited(2*time.Minute))), newScript(succeeds("ok")))
		p := mustPool(t, members(2))
		if got, err := p.Do(t.Context(), f.fn); err != nil || got != "ok" {
			t.Fatalf("got (%q, %v), want ok from m1", got, err)
		}
		if b := p.Pool().Members()[0].Breaker; b.State() != observe.BreakerOpen || b.RemainingDelay() != 2*time.Minute {
			t.Errorf("m0's breaker is %v for %v, want held open for 2m", b.State(), b.RemainingDelay())
		}
		one := newFleet(newScript(fails(rateLimited(2 * time.Minute))))
		_, err := mustPool(t, members(1)).Do(t.Context(), one.fn)
		if e := asError(t, err); e.Reason != observe.ReasonRetryAfterOverCap {
			t.Errorf("a pool of one: got %v, want retry-after over the cap", err)
		}
	})
}

// TestPoolPermanentStops: a failure that no other member would fix (a bad
// request; a 401 whose class says nothing of an account) is not retried on
// another member.
func TestPoolPermanentStops(t *testing.T) {
	f := newFleet(newScript(fails(unauthorized)), newScript(succeeds("ok")))
	_, err := mustPool(t, members(2)).Do(t.Context(), f.fn)
	if e := asError(t, err); e.Reason != observe.ReasonPermanent || len(f.went()) != 1 {
		t.Errorf("got %v, want failed permanently after one attempt", err)
	}
}

// TestPoolStrategies: who gets the calls of one caller, and of concurrent
// callers, under each strategy.
func TestPoolStrategies(t *testing.T) {
	t.Run("least in flight spreads one caller round robin", func(t *testing.T) {
		f := newFleet(newScript(succeeds("a")), newScript(succeeds("b")), newScript(succeeds("c")))
		p := mustPool(t, members(3))
		for range 6 {
			if _, err := p.Do(t.Context(), f.fn); err != nil {
				t.Fatal(err)
			}
		}
		if went := f.went(); fmt.Sprint(went) != "[0 1 2 0 1 2]" {
			t.Errorf("got %v, want each member in turn", went)
		}
	})
	t.Run("least in flight avoids a busy member", func(t *testing.T) {
		synctest.Test(t, func(t *testing.T) {
			slow := newScript(step{result: "slow", sleep: time.Minute})
			f := newFleet(slow, newScript(succeeds("fast")))
			p := mustPool(t, members(2))
			go func() { _, _ = p.Do(context.Background(), f.fn) }() // holds m0 for a minute
			synctest.Wait()
			for range 5 {
				if got, err := p.Do(t.Context(), f.fn); err != nil || got != "fast" {
					t.Fatalf("got (%q, %v), want fast", got, err)
				}
			}
			if st := p.Pool().Members(); st[0].InFlight != 1 || st[1].InFlight != 0 {
				t.Errorf("in flight %d and %d, want 1 and 0", st[0].InFlight, st[1].InFlight)
			}
			time.Sleep(time.Minute)
		})
	})
	t.Run("weighted round robin", func(t *testing.T) {
		f := newFleet(newScript(succeeds("a")), newScript(succeeds("b")))
		ms := []middleware.Member{{Name: "big", Options: []middleware.Option{middleware.Weight(3)}}, {Name: "small"}}
		p := mustPool(t, ms, middleware.Balance(pool.RoundRobin{}))
		for range 8 {
			if _, err := p.Do(t.Context(), f.fn); err != nil {
				t.Fatal(err)
			}
		}
		if went := f.went(); fmt.Sprint(went) != "[0 0 1 0 0 0 1 0]" {
			t.Errorf("got %v, want big three times as often as small, interleaved", went)
		}
	})
	t.Run("lowest latency", func(t *testing.T) {
		synctest.Test(t, func(t *testing.T) {
			slow := newScript(step{result: "slow", sleep: 400 * time.Millisecond})
			f := newFleet(slow, newScript(step{result: "fast", sleep: 100 * time.Millisecond}))
			p := mustPool(t, members(2, middleware.CircuitBreaker(10, 10*time.Second)), middleware.Balance(pool.LowestLatency{}))
			for range 6 {
				if _, err := p.Do(t.Context(), f.fn); err != nil {
					t.Fatal(err)
				}
			}
			if went := f.went(); fmt.Sprint(went) != "[0 1 1 1 1 1]" {
				t.Errorf("got %v, want each measured once, then the fast one", went)
			}
			if st := p.Pool().Members(); st[0].Latency != 400*time.Millisecond || st[1].Latency != 100*time.Millisecond {
				t.Errorf("latencies %v and %v, want 400ms and 100ms", st[0].Latency, st[1].Latency)
			}
			time.Sleep(10 * time.Second) // the slow one is measured again, once
			for range 3 {
				if _, err := p.Do(t.Context(), f.fn); err != nil {
					t.Fatal(err)
				}
			}
			if went := f.went(); fmt.Sprint(went) != "[0 1 1]" {
				t.Errorf("after a breaker delay, got %v, want the stale one measured once", went)
			}
		})
	})
}

// TestPoolSticky: the calls of a run, or of a sticky key, stay on the
// member that answered them while it is healthy; when it is not, the
// conversation moves to the member that answers, and stays there.
func TestPoolSticky(t *testing.T) {
	f := newFleet(newScript(succeeds("a")), newScript(succeeds("b")), newScript(succeeds("c")))
	p := mustPool(t, members(3, middleware.CircuitBreaker(1, time.Hour)))
	ctx := run.New(t.Context(), run.RetryBudget(math.MaxInt))
	other := run.New(t.Context())
	for range 3 {
		if _, err := p.Do(ctx, f.fn); err != nil {
			t.Fatal(err)
		}
		if _, err := p.Do(other, f.fn); err != nil {
			t.Fatal(err)
		}
	}
	if went := f.went(); fmt.Sprint(went) != "[0 1 0 1 0 1]" {
		t.Errorf("two runs went to %v, want each on its own member", went)
	}
	keyed := pool.Sticky(t.Context(), "conversation-7")
	var withKey, without []int
	for range 3 {
		if _, err := p.Do(keyed, f.fn); err != nil {
			t.Fatal(err)
		}
		withKey = append(withKey, f.went()...)
		if _, err := p.Do(t.Context(), f.fn); err != nil { // neither run nor key: balanced
			t.Fatal(err)
		}
		without = append(without, f.went()...)
	}
	if withKey[0] != withKey[1] || withKey[1] != withKey[2] || without[0] == without[1] {
		t.Errorf("a key went to %v, plain calls to %v: want the key on one member, the others balanced", withKey, without)
	}

	// The run's member fails: its call is answered elsewhere, and the run
	// follows; the failed member's circuit is open, so it stays away.
	f.scripts[0].mu.Lock()
	f.scripts[0].steps = []step{fails(unavailable)}
	f.scripts[0].mu.Unlock()
	for range 3 {
		if _, err := p.Do(ctx, f.fn); err != nil {
			t.Fatal(err)
		}
	}
	went := f.went()
	if len(went) != 4 || went[0] != 0 || went[1] == 0 || went[2] != went[1] || went[3] != went[1] {
		t.Errorf("the run went to %v, want m0 failing once, then another member for good", went)
	}

	p = mustPool(t, members(3), middleware.NoStickyRuns())
	for range 3 {
		if _, err := p.Do(ctx, f.fn); err != nil {
			t.Fatal(err)
		}
	}
	if went := f.went(); len(went) < 3 || went[0] == went[1] {
		t.Errorf("with NoStickyRuns the run went to %v, want it balanced", went)
	}
}

// TestPoolMemberLimits: a member whose limits have no room is passed over
// for one that has; when none has, the call waits on the first, up to its
// wait, and then stops with the limit's reason, naming the member, without
// counting against any breaker.
func TestPoolMemberLimits(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		limiter, err := limit.NewLocalLimiter(1, time.Hour, time.Millisecond)
		if err != nil {
			t.Fatal(err)
		}
		f := newFleet(newScript(succeeds("limited")), newScript(succeeds("free")))
		p := mustPool(t, []middleware.Member{{Name: "limited", Options: []middleware.Option{middleware.RateLimit(limiter)}}, {Name: "free"}})
		for range 4 {
			if _, err := p.Do(t.Context(), f.fn); err != nil {
				t.Fatal(err)
			}
		}
		if went := f.went(); fmt.Sprint(went) != "[0 1 1 1]" {
			t.Errorf("went to %v, want limited once (its one request of the hour), then free", went)
		}

		rec := &observetest.Recorder{}
		f = newFleet(newScript(step{result: "a", sleep: time.Hour}), newScript(step{result: "b", sleep: time.Hour}))
		p = mustPool(t, members(2, middleware.MaxConcurrent(1, time.Second)), middleware.Observe(rec))
		var wg sync.WaitGroup
		for range 2 {
			wg.Go(func() { _, _ = p.Do(context.Background(), f.fn) })
		}
		synctest.Wait() // each member holds its one slot for an hour
		if went := f.went(); len(went) != 2 || went[0] == went[1] {
			t.Fatalf("went to %v, want one call on each member", went)
		}
		start := time.Now()
		_, err = p.Do(t.Context(), f.fn)
		e := asError(t, err)
		if e.Reason != observe.ReasonConcurrency || !errors.Is(err, limit.ErrConcurrency) {
			t.Errorf("got %v, want the concurrency limit's reason", err)
		}
		if took := time.Since(start); took != time.Second {
			t.Errorf("waited %v, want the member's wait, 1s", took)
		}
		if len(e.Attempts) != 1 || e.Attempts[0].Target == "" || !strings.Contains(e.Detail, "m0: concurrency limit full; m1: concurrency limit full") {
			t.Errorf("attempts %v, detail %q: want the member named, and every member's state", e.Attempts, e.Detail)
		}
		if went := f.went(); len(went) != 0 {
			t.Errorf("requests went to %v, want none", went)
		}
		for _, m := range p.Pool().Members() {
			if m.Breaker.State() != observe.BreakerClosed {
				t.Errorf("%s's breaker is %v, want closed: a limit of ours says nothing of the member", m.Name, m.Breaker.State())
			}
		}
		if r := observetest.Of[observe.Refusal](rec); len(r) != 1 || r[0].Target != e.Attempts[0].Target || r[0].Reason != observe.ReasonConcurrency {
			t.Errorf("refusals %+v, want the member's concurrency limit", r)
		}
		wg.Wait()
	})
}

// TestPoolOptions: options that apply to a pool as a whole are refused in a
// member's options, and member options outside a pool.
func TestPoolOptions(t *testing.T) {
	tests := []struct {
		name string
		opts []middleware.Option
		want string
	}{
		{"a pool option in a member", []middleware.Option{middleware.Members(middleware.Member{Name: "a",
			Options: []middleware.Option{middleware.MaxAttempts(5)}})}, `member "a": option 0 applies to the pool as a whole`},
		{"a member without a name", []middleware.Option{middleware.Members(middleware.Member{})}, "member 0 has no name"},
		{"two members of one name", []middleware.Option{middleware.Members(middleware.Member{Name: "a"}, middleware.Member{Name: "a"})},
			`two members are named "a"`},
		{"Weight outside a pool", []middleware.Option{middleware.Weight(2)}, "Weight applies to a member of a pool"},
		{"UseBreaker on a pool", []middleware.Option{middleware.Members(middleware.Member{Name: "a"}),
			middleware.UseBreaker(breaker.New(breaker.Settings{Name: "b", Failures: 1, Delay: time.Second}))}, "UseBreaker applies to a member"},
		{"Balance outside a pool", []middleware.Option{middleware.Balance(pool.RoundRobin{})}, "apply to a pool"},
		{"no members", []middleware.Option{middleware.Members()}, "at least one member"},
		{"a bad weight", []middleware.Option{middleware.Members(middleware.Member{Name: "a",
			Options: []middleware.Option{middleware.Weight(0)}})}, "Weight(0)"},
	}
	for _, tc := range tests {
		_, err := middleware.New[string]("p", tc.opts...)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: got %v, want an error saying %q", tc.name, err, tc.want)
		}
	}
	p := mustPool(t, []middleware.Member{{Name: "a", Options: []middleware.Option{middleware.Weight(2),
		middleware.CircuitBreaker(2, time.Second), middleware.MaxConcurrent(1, 0), middleware.NoThrottle(), middleware.MaxHold(time.Minute)}},
		{Name: "b", Options: []middleware.Option{middleware.NoBreaker()}}})
	if p.Breaker() != nil {
		t.Error("a pool has a breaker of its own, want none")
	}
	if st := p.Pool().Members(); st[0].Weight != 2 || st[1].Breaker != nil || st[0].Breaker.MaxHold() != time.Minute {
		t.Errorf("members %+v: want a's weight and hold, b without a breaker", st)
	}
}

// TestPoolThrottle: a retry does not go to a member whose retry throttle
// is spent; when no member would take it, the call stops throttled.
func TestPoolThrottle(t *testing.T) {
	f := newFleet(newScript(fails(unavailable)))
	p := mustPool(t, members(1, middleware.CircuitBreaker(1000, time.Second)))
	for range 20 {
		_, _ = p.Do(t.Context(), f.fn)
	}
	f.went()
	_, err := p.Do(t.Context(), f.fn)
	if e := asError(t, err); e.Reason != observe.ReasonThrottled || len(f.went()) != 1 {
		t.Errorf("got %v, want one attempt, throttled", err)
	}
}

// TestPoolHedgeGoesElsewhere: a hedge goes to another member than the slow
// attempt it hedges.
func TestPoolHedgeGoesElsewhere(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := newFleet(newScript(step{result: "slow", sleep: time.Minute}), newScript(succeeds("fast")))
		p := mustPool(t, members(2), middleware.Hedge(time.Second, 1))
		got, err := p.DoHedged(t.Context(), f.fn)
		if err != nil || got != "fast" {
			t.Fatalf("got (%q, %v), want the hedge's answer", got, err)
		}
		if went := f.went(); fmt.Sprint(went) != "[0 1]" {
			t.Errorf("went to %v, want the hedge on the other member", went)
		}
	})
}

// TestPoolAttemptsAreRequestsOfTheRun: each attempt of a pool, whatever
// member it goes to, is a request of the run; the run refuses it before it
// takes anything from a member (a rate-limit unit, a breaker's permit), and
// an attempt that no member took was never sent: it gives its place back.
func TestPoolAttemptsAreRequestsOfTheRun(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ctx := run.New(t.Context(), run.RequestLimit(2))
		limits := []*countingLimiter{{}, {}}
		ms := []middleware.Member{
			{Name: "m0", Options: []middleware.Option{middleware.RateLimit(limits[0]), middleware.CircuitBreaker(1, time.Hour)}},
			{Name: "m1", Options: []middleware.Option{middleware.RateLimit(limits[1]), middleware.CircuitBreaker(1, time.Hour)}},
		}
		f := newFleet(newScript(fails(unavailable)), newScript(succeeds("ok")))
		p := mustPool(t, ms)
		if got, err := p.Do(ctx, f.fn, request(1)); err != nil || got != "ok" {
			t.Fatalf("got (%q, %v), want ok from m1", got, err)
		}
		if got := run.From(ctx).Usage().Requests; got != 2 {
			t.Errorf("usage counts %d requests, want 2: one per member tried", got)
		}
		f.went()
		_, err := p.Do(ctx, f.fn, request(1))
		if e := asError(t, err); e.Reason != observe.ReasonUsageLimit {
			t.Fatalf("got %v, want the request limit", err)
		}
		if went := f.went(); len(went) != 0 || limits[0].n.Load()+limits[1].n.Load() != 2 {
			t.Errorf("attempts went to %v, limiters gave %d units; want none and 2: a refusal takes nothing from a member",
				went, limits[0].n.Load()+limits[1].n.Load())
		}
		if st := p.Pool().Members()[1].Breaker.State(); st != observe.BreakerClosed {
			t.Errorf("m1's breaker is %v, want closed", st)
		}

		// Every circuit open: the attempt no member took is no request.
		fresh := run.New(t.Context(), run.RequestLimit(1))
		for _, m := range p.Pool().Members() {
			m.Breaker.Open()
		}
		if _, err := p.Do(fresh, f.fn, request(1)); !errors.Is(err, middleware.ErrCircuitOpen) {
			t.Fatalf("got %v, want circuit open", err)
		}
		if got := run.From(fresh).Usage().Requests; got != 0 {
			t.Errorf("usage counts %d requests, want 0: none was sent", got)
		}
		p.Pool().Members()[1].Breaker.Close()
		if got, err := p.Do(fresh, f.fn, request(1)); err != nil || got != "ok" {
			t.Errorf("got (%q, %v), want the one request the limit allows", got, err)
		}
	})
}

// TestPoolEventsAreLogged: the log lines of a pool's call name the member
// each decision is about, and the final error lists every member tried
// with its attempts.
func TestPoolEventsAreLogged(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var logs observetest.LogBuffer
		f := newFleet(newScript(fails(rateLimited(5*time.Second))), newScript(fails(unavailable)), newScript(fails(unavailable)))
		p := mustPool(t, members(3, middleware.CircuitBreaker(1, time.Minute)), middleware.Logger(logs.Logger()))
		_, err := p.Do(t.Context(), f.fn)
		for _, want := range []string{
			`level=INFO msg="cooling down" target=m0 delay=5s`,
			`level=WARN msg=retrying target=m0 attempt=1 kind=rate_limited rule="status 429" delay=0s`,
			`level=WARN msg="circuit opened" target=m1 from=closed to=open`,
			`level=WARN msg=retrying target=m1 attempt=2 kind=overloaded rule="status 503" delay=0s`,
			`level=WARN msg="gave up" target=test-target reason=exhausted attempts=3`,
		} {
			if !strings.Contains(logs.String(), want) {
				t.Errorf("logs lack %q:\n%s", want, logs.String())
			}
		}
		for _, want := range []string{"attempt 1 to m0: ", "429", "attempt 2 to m1: ", "attempt 3 to m2: "} {
			if err == nil || !strings.Contains(err.Error(), want) {
				t.Errorf("error %v does not say %q", err, want)
			}
		}
	})
}

// TestPoolWaitForCooldownIsCounted: a member cools down for the wait it
// asked for even when the call that asked makes no retry; a call that
// finds every member cooling down waits for the first to be ready, and the
// wait is the attempt's and the run's, as a Retry-After slept on is.
func TestPoolWaitForCooldownIsCounted(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := newFleet(newScript(fails(rateLimited(5*time.Second)), succeeds("ok"), fails(unavailable)))
		p := mustPool(t, members(1), middleware.MaxAttempts(1))
		if _, err := p.Do(t.Context(), f.fn); err == nil {
			t.Fatal("want the 429")
		}
		time.Sleep(time.Second)
		ctx := run.New(t.Context())
		if got, err := p.Do(ctx, f.fn); err != nil || got != "ok" {
			t.Fatalf("got (%q, %v), want ok once the cooldown is over", got, err)
		}
		if got := run.From(ctx).Usage().Waited; got != 4*time.Second {
			t.Errorf("the run waited %v, want the 4s left of the cooldown", got)
		}
		_, err := p.Do(ctx, f.fn)
		if e := asError(t, err); len(e.Attempts) != 1 || e.Attempts[0].Wait != 0 {
			t.Errorf("attempts %v, want one without a wait", e.Attempts)
		}
	})
}
