package breaker_test

import (
	"fmt"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/resilientgo/resilient/breaker"
	"github.com/resilientgo/resilient/observe"
	"github.com/resilientgo/resilient/observe/observetest"
)

const year = 365 * 24 * time.Hour

// listen records what b's listeners are told.
func listen(b *breaker.Breaker) func() []observe.BreakerState {
	var seen []observe.BreakerState
	b.OnStateChange(func(s observe.BreakerState) { seen = append(seen, s) })
	return func() []observe.BreakerState { return seen }
}

// TestHoldOpenTellsListenersOfLongerPeriods: a hold that lengthens the open
// period is news for the listeners (package resilientredis shares it), even
// without a change of state; one that would shorten it or leaves it as it
// is changes nothing and tells nobody. Each step checks the remaining delay.
func TestHoldOpenTellsListenersOfLongerPeriods(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		b := breaker.New(breaker.Settings{Name: "b", Failures: 1, Delay: 10 * time.Second})
		seen := listen(b)
		steps := []struct {
			name      string
			do        func()
			remaining time.Duration
			told      string
		}{
			{"a hold opens a closed breaker", func() { b.HoldOpen(30 * time.Second) }, 30 * time.Second, "[open]"},
			{"a shorter hold does not shorten it", func() { b.HoldOpen(10 * time.Second) }, 30 * time.Second, "[open]"},
			{"an equal hold is no news", func() { b.HoldOpen(30 * time.Second) }, 30 * time.Second, "[open]"},
			{"a longer hold lengthens it", func() { b.HoldOpen(31 * time.Second) }, 31 * time.Second, "[open open]"},
			{"time passes", func() { time.Sleep(11 * time.Second) }, 20 * time.Second, "[open open]"},
			{"a hold longer than what remains", func() { b.HoldOpen(25 * time.Second) }, 25 * time.Second, "[open open open]"},
			{"a hold of a year is held for the maximum", func() { b.HoldOpen(year) }, breaker.DefaultMaxHold, "[open open open open]"},
			{"another is no news", func() { b.HoldOpen(year) }, breaker.DefaultMaxHold, "[open open open open]"},
			{"Close ends the hold", b.Close, 0, "[open open open open closed]"},
			{"Open opens for the delay", b.Open, 10 * time.Second, "[open open open open closed open]"},
			{"a shorter hold leaves the delay", func() { b.HoldOpen(5 * time.Second) }, 10 * time.Second, "[open open open open closed open]"},
			{"a longer one lengthens it", func() { b.HoldOpen(12 * time.Second) }, 12 * time.Second, "[open open open open closed open open]"},
		}
		for _, st := range steps {
			st.do()
			if got := b.RemainingDelay(); got != st.remaining {
				t.Errorf("%s: remaining delay %v, want %v", st.name, got, st.remaining)
			}
			if got := fmt.Sprint(seen()); got != st.told {
				t.Errorf("%s: listeners told %s, want %s", st.name, got, st.told)
			}
		}
	})
}

// TestNewDefaults: a delay not positive and failures below 1 take the
// defaults; one failure is a valid threshold, not a default.
func TestNewDefaults(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		for _, delay := range []time.Duration{0, -time.Second} {
			b := breaker.New(breaker.Settings{Name: "b", Failures: 1, Delay: delay})
			b.Open()
			if got := b.RemainingDelay(); got != breaker.DefaultDelay {
				t.Errorf("New(delay %v): open for %v, want %v", delay, got, breaker.DefaultDelay)
			}
			if got := b.MaxHold(); got != breaker.DefaultMaxHold {
				t.Errorf("New: MaxHold %v, want %v", got, breaker.DefaultMaxHold)
			}
		}
		for _, c := range []struct{ failures, opensAfter int }{{0, breaker.DefaultFailures}, {-1, breaker.DefaultFailures}, {1, 1}, {2, 2}} {
			b := breaker.New(breaker.Settings{Name: "b", Failures: c.failures, Delay: time.Second})
			n := 0
			for b.State() == observe.BreakerClosed && n < 100 {
				if !b.TryAcquire() {
					t.Fatalf("New(failures %d): closed breaker refused a permit", c.failures)
				}
				b.Record(breaker.Unhealthy)
				n++
			}
			if n != c.opensAfter {
				t.Errorf("New(failures %d): opened after %d failures, want %d", c.failures, n, c.opensAfter)
			}
		}
	})
}

// TestHoldOpenOfABreakerOpenedByFailures: a breaker opened by failures,
// not by a hold, is already open: a longer hold is news for the listeners,
// not a change of state.
func TestHoldOpenOfABreakerOpenedByFailures(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		rec := &observetest.Recorder{}
		b := breaker.New(breaker.Settings{Name: "b", Failures: 1, Delay: 10 * time.Second, Observers: []observe.Observer{rec}})
		seen := listen(b)
		if !b.TryAcquire() {
			t.Fatal("a closed breaker refused a permit")
		}
		b.Record(breaker.Unhealthy)
		b.HoldOpen(20 * time.Second)
		if got := fmt.Sprint(seen()); got != "[open open]" {
			t.Errorf("listeners told %s, want [open open]", got)
		}
		if got := b.RemainingDelay(); got != 20*time.Second {
			t.Errorf("remaining delay %v, want 20s", got)
		}
		// Observers hear of changes of state only; nil observers are skipped.
		changes := observetest.Of[observe.BreakerChange](rec)
		if want := (observe.BreakerChange{Target: "b", From: observe.BreakerClosed, To: observe.BreakerOpen}); len(changes) != 1 || changes[0] != want {
			t.Errorf("breaker changes %+v, want %+v", changes, want)
		}
	})
}

// TestForcing: a breaker forced open refuses every attempt whatever its
// delay, and failures, holds and successes change nothing; forced closed,
// it admits every attempt and no failure or hold opens it; Close returns it
// to its evidence. Each step checks the state, an attempt's admission, what
// the listeners heard and the snapshot.
func TestForcing(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		b := breaker.New(breaker.Settings{Name: "b", Failures: 2, Delay: 10 * time.Second})
		seen := listen(b)
		fail := func() {
			if b.TryAcquire() {
				b.Record(breaker.Unhealthy)
			}
		}
		steps := []struct {
			name   string
			do     func()
			state  observe.BreakerState
			forced breaker.Forcing
			admits bool
			told   string
		}{
			{"forced open", b.ForceOpen, observe.BreakerOpen, breaker.ForcedOpen, false, "[open]"},
			{"its delay passes", func() { time.Sleep(time.Minute) }, observe.BreakerOpen, breaker.ForcedOpen, false, "[open]"},
			{"a hold changes nothing", func() { b.HoldOpen(time.Second) }, observe.BreakerOpen, breaker.ForcedOpen, false, "[open]"},
			{"forced open again is no news", b.ForceOpen, observe.BreakerOpen, breaker.ForcedOpen, false, "[open]"},
			{"forced closed", b.ForceClosed, observe.BreakerClosed, breaker.ForcedClosed, true, "[open closed]"},
			{"failures do not open it", func() { fail(); fail(); fail() }, observe.BreakerClosed, breaker.ForcedClosed, true, "[open closed]"},
			{"nor does a hold", func() { b.HoldOpen(time.Minute) }, observe.BreakerClosed, breaker.ForcedClosed, true, "[open closed]"},
			{"Close ends the forcing: news, not a change of state", b.Close, observe.BreakerClosed, breaker.NotForced, true, "[open closed closed]"},
			{"failures open it again", func() { fail(); fail() }, observe.BreakerOpen, breaker.NotForced, false, "[open closed closed open]"},
			{"forced open while open is news", b.ForceOpen, observe.BreakerOpen, breaker.ForcedOpen, false, "[open closed closed open open]"},
			{"Close closes it", b.Close, observe.BreakerClosed, breaker.NotForced, true, "[open closed closed open open closed]"},
		}
		for _, st := range steps {
			st.do()
			snap := b.Snapshot()
			if snap.State != st.state || b.State() != st.state {
				t.Errorf("%s: state %v (snapshot %v), want %v", st.name, b.State(), snap.State, st.state)
			}
			if closed := st.state == observe.BreakerClosed; b.Closed() != closed {
				t.Errorf("%s: Closed() %v, want %v", st.name, b.Closed(), closed)
			}
			if snap.Forced != st.forced || b.Forced() != st.forced {
				t.Errorf("%s: forced %v (snapshot %v), want %v", st.name, b.Forced(), snap.Forced, st.forced)
			}
			admits := b.TryAcquire()
			if admits {
				b.Record(breaker.NoEvidence)
			}
			if admits != st.admits {
				t.Errorf("%s: an attempt admitted %v, want %v", st.name, admits, st.admits)
			}
			if got := fmt.Sprint(seen()); got != st.told {
				t.Errorf("%s: listeners told %s, want %s", st.name, got, st.told)
			}
		}
	})
}

// TestSnapshot: the snapshot counts the failures toward the threshold,
// says whether a hold keeps the breaker open and for how long, and whether
// retries are throttled.
func TestSnapshot(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		b := breaker.New(breaker.Settings{Name: "b", Failures: 3, Delay: 10 * time.Second})
		for range 2 {
			if !b.TryAcquire() {
				t.Fatal("a closed breaker refused a permit")
			}
			b.Record(breaker.Unhealthy)
		}
		want := breaker.Snapshot{Name: "b", State: observe.BreakerClosed, Failures: 2, Threshold: 3, RetriesAllowed: true}
		if got := b.Snapshot(); got != want {
			t.Errorf("after 2 failures: %+v, want %+v", got, want)
		}
		b.HoldOpen(time.Minute)
		want = breaker.Snapshot{Name: "b", State: observe.BreakerOpen, Held: true, Remaining: time.Minute, Failures: 2, Threshold: 3, RetriesAllowed: true}
		if got := b.Snapshot(); got != want {
			t.Errorf("held: %+v, want %+v", got, want)
		}
		b.ForceOpen()
		want = breaker.Snapshot{Name: "b", State: observe.BreakerOpen, Forced: breaker.ForcedOpen, Remaining: breaker.DefaultMaxHold, Failures: 2, Threshold: 3, RetriesAllowed: true}
		if got := b.Snapshot(); got != want {
			t.Errorf("forced open: %+v, want %+v", got, want)
		}
		b.Close()
		for range breaker.DefaultRetryThrottle / 2 {
			b.Record(breaker.Unhealthy) // no permit needed for the throttle; the third failure opens
		}
		if got := b.Snapshot(); got.RetriesAllowed || got.State != observe.BreakerOpen {
			t.Errorf("after a run of failures: %+v, want open with retries throttled", got)
		}
	})
}

// TestClosedFollowsTheState: Closed, read without the breaker's lock,
// answers true exactly while the circuit is closed with no hold: false once
// failures open it, while half-open, after a hold (until the hold is seen to
// be over), and true again once the probe closes it or Close is called; and
// after changes made from many goroutines at once, it agrees with State.
func TestClosedFollowsTheState(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		b := breaker.New(breaker.Settings{Failures: 2, Delay: 10 * time.Second})
		check := func(step string, want bool) {
			t.Helper()
			if got := b.Closed(); got != want {
				t.Errorf("%s: Closed() = %v, want %v (state %v)", step, got, want, b.State())
			}
		}
		check("new", true)
		for range 2 {
			b.TryAcquire()
			b.Record(breaker.Unhealthy)
		}
		check("after 2 failures", false)
		time.Sleep(10 * time.Second)
		if !b.TryAcquire() || b.State() != observe.BreakerHalfOpen {
			t.Fatalf("no probe after the delay (state %v)", b.State())
		}
		check("half-open", false)
		b.Record(breaker.Healthy)
		check("after the probe", true)
		b.HoldOpen(time.Minute)
		check("held", false)
		time.Sleep(time.Minute)
		check("hold over, not seen yet", false)
		if b.State() != observe.BreakerOpen || !b.TryAcquire() {
			t.Fatalf("no probe after the hold (state %v)", b.State())
		}
		b.Record(breaker.Healthy)
		check("after the hold's probe", true)
		b.Open()
		check("opened", false)
		b.Close()
		check("closed by Close", true)
	})
	b := breaker.New(breaker.Settings{Failures: 1, Delay: time.Hour})
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Go(func() {
			for range 200 {
				switch i % 3 {
				case 0:
					b.Open()
				case 1:
					b.Close()
				default:
					if b.TryAcquire() {
						b.Record(breaker.Unhealthy)
					}
				}
			}
		})
	}
	wg.Wait()
	if closed := b.State() == observe.BreakerClosed; b.Closed() != closed {
		t.Errorf("after concurrent changes Closed() = %v, state %v", b.Closed(), b.State())
	}
}
