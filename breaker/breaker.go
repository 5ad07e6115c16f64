package breaker

import (
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/failsafe-go/failsafe-go/circuitbreaker"

	"github.com/resilientgo/resilient/observe"
)

// Breaker holds the health of one protected target (a model, a provider
// account, a tool). Its circuit opens after a run of consecutive failures
// that count, fails fast while open, and lets one probe through when
// half-open: a success closes it, a failure opens it again. The state
// machine is failsafe-go's; Breaker adds holds (see [Breaker.HoldOpen]) and
// slog events. It also throttles retries: while most recent attempts of the
// target failed (more than half of a bucket of [DefaultRetryThrottle]
// tokens, one taken per failure and given back per success), calls make no
// retries, so that an outage is met with one attempt per call, not three.
//
// A Breaker is safe for concurrent use and may be shared by several pipelines
// (see middleware.UseBreaker).
type Breaker struct {
	name     string
	cb       circuitbreaker.CircuitBreaker[any]
	throttle *throttle

	holdUntil atomic.Int64  // UnixNano; 0 = no hold
	maxHold   time.Duration // the longest hold; set at construction

	// closed is the circuit's state read after its last change: true when
	// closed (see Closed). closedMu orders the reads and the stores.
	closed   atomic.Bool
	closedMu sync.Mutex

	mu        sync.Mutex
	listeners []*func(observe.BreakerState) // copy on write
}

// The defaults of [Settings].
const (
	DefaultFailures = 10
	DefaultDelay    = 10 * time.Second
	// DefaultMaxHold bounds how long a provider's wait hint may hold a
	// breaker open: long enough that a provider asking for minutes gets
	// them, short enough that a wrong or hostile hint (Retry-After of a
	// year) costs minutes, not the provider. A provider still limiting after
	// the hold answers the probe with a new hint: one request per hold.
	DefaultMaxHold = 5 * time.Minute
)

// Settings configure a [Breaker]. The zero Settings give an unnamed breaker
// with the defaults.
type Settings struct {
	// Name names the breaker in events and logs.
	Name string
	// Failures is how many consecutive counted failures open the circuit.
	// Default: 10 ([DefaultFailures]).
	Failures int
	// Delay is how long the circuit stays open before one probe goes
	// through. Default: 10 s ([DefaultDelay]).
	Delay time.Duration
	// MaxHold bounds how long [Breaker.HoldOpen] holds the circuit open.
	// Default: 5 min ([DefaultMaxHold]).
	MaxHold time.Duration
	// Observers receive the breaker's changes of state as
	// observe.BreakerChange events (nil ones are skipped; observe.Log writes
	// them as log lines). Default: none.
	Observers []observe.Observer
}

// New returns a breaker configured by s; values of s below 1 give the
// defaults.
func New(s Settings) *Breaker {
	name, failures, delay, maxHold := s.Name, s.Failures, s.Delay, s.MaxHold
	if failures < 1 {
		failures = DefaultFailures
	}
	if delay <= 0 {
		delay = DefaultDelay
	}
	if maxHold <= 0 {
		maxHold = DefaultMaxHold
	}
	var obs observe.Observers
	for _, o := range s.Observers {
		if o != nil {
			obs = append(obs, o)
		}
	}
	b := &Breaker{name: name, throttle: newThrottle(DefaultRetryThrottle), maxHold: maxHold}
	b.cb = circuitbreaker.NewBuilder[any]().
		WithFailureThreshold(uint(failures)).
		WithSuccessThreshold(1). // one probe when half-open; it decides
		WithDelay(delay).
		OnStateChanged(func(e circuitbreaker.StateChangedEvent) {
			if obs.Active() {
				obs.Observe(e.Context(), observe.BreakerChange{Target: name, From: e.OldState, To: e.NewState})
			}
			b.noteState()
			b.notify(e.NewState)
		}).
		Build()
	b.closed.Store(true)
	return b
}

// noteState records whether the circuit is closed, after a change of its
// state. failsafe-go reports a change after it releases its lock, so two
// reports may come in either order: each reads the state afresh, under
// closedMu, so that the last store is of the state after the last change.
func (b *Breaker) noteState() {
	b.closedMu.Lock()
	defer b.closedMu.Unlock()
	b.closed.Store(b.cb.State() == circuitbreaker.ClosedState)
}

// Closed reports whether the breaker is closed and not held open, without
// taking its lock while it is: a pool asks it of each member on every
// attempt. It may answer true for a moment after a change that opened the
// circuit, as State may answer just before it; the breaker's TryAcquire
// settles it.
func (b *Breaker) Closed() bool {
	return b.closed.Load() && !b.held()
}

// Name returns the breaker's name.
func (b *Breaker) Name() string { return b.name }

// State returns the current state. A breaker held open reports BreakerOpen.
func (b *Breaker) State() observe.BreakerState {
	if b.held() {
		return observe.BreakerOpen
	}
	return b.cb.State()
}

// RemainingDelay returns how long the breaker will stay open, 0 if it is not.
func (b *Breaker) RemainingDelay() time.Duration {
	d := b.cb.RemainingDelay()
	if until := b.holdUntil.Load(); until != 0 {
		d = max(d, time.Until(time.Unix(0, until)))
	}
	return d
}

// HoldOpen opens the breaker and keeps it open for at least d, whatever its
// configured delay: a provider that answers Retry-After: 120 is not probed
// before two minutes have passed. A shorter hold never shortens a longer one.
// A d over the breaker's maximum ([Breaker.MaxHold]) holds it for the
// maximum: a hint of a year must not silence a provider for a year.
func (b *Breaker) HoldOpen(d time.Duration) {
	d = min(d, b.maxHold)
	wasOpen, extends := b.cb.IsOpen() || b.held(), d > b.RemainingDelay()
	until := time.Now().Add(d).UnixNano()
	for {
		// The later of the two ends wins. (Written with max, the loop has no
		// condition that could be inverted into one spinning forever.)
		old := b.holdUntil.Load()
		if b.holdUntil.CompareAndSwap(old, max(old, until)) {
			break
		}
	}
	b.cb.Open()
	if wasOpen && extends {
		// No state change, but a longer open period: listeners that share
		// the state (package resilientredis) must hear of it.
		b.notify(observe.BreakerOpen)
	}
}

// MaxHold returns the longest that [Breaker.HoldOpen] holds the breaker
// open: [Settings.MaxHold] (a pipeline's MaxHold option, for its own
// breaker).
func (b *Breaker) MaxHold() time.Duration { return b.maxHold }

// Open opens the breaker for its configured delay.
func (b *Breaker) Open() { b.cb.Open() }

// Close closes the breaker and ends any hold.
func (b *Breaker) Close() {
	b.holdUntil.Store(0)
	b.cb.Close()
}

// OnStateChange registers f to be called after every state change, outside
// the breaker's lock, and when [Breaker.HoldOpen] lengthens the open period
// of a breaker already open (with BreakerOpen). It returns a function that
// unregisters f.
func (b *Breaker) OnStateChange(f func(observe.BreakerState)) (remove func()) {
	entry := &f
	b.mu.Lock()
	b.listeners = append(b.listeners[:len(b.listeners):len(b.listeners)], entry)
	b.mu.Unlock()
	return func() {
		b.mu.Lock()
		defer b.mu.Unlock()
		b.listeners = slices.DeleteFunc(slices.Clone(b.listeners), func(e *func(observe.BreakerState)) bool { return e == entry })
	}
}

func (b *Breaker) notify(s observe.BreakerState) {
	b.mu.Lock()
	ls := b.listeners
	b.mu.Unlock()
	for _, l := range ls {
		(*l)(s)
	}
}

// held reports whether a hold keeps the breaker open. Without a hold it
// does not read the clock: this is on every attempt's path.
func (b *Breaker) held() bool {
	until := b.holdUntil.Load()
	if until == 0 {
		return false
	}
	if time.Now().UnixNano() < until {
		return true
	}
	b.holdUntil.CompareAndSwap(until, 0) // expired: back to the fast path
	return false
}

// TryAcquire reports whether an attempt may proceed. A true answer must be
// followed by exactly one call to [Breaker.Record].
func (b *Breaker) TryAcquire() bool {
	if b.held() {
		return false
	}
	return b.cb.TryAcquirePermit()
}

// Outcome is what an attempt says about the target's health.
type Outcome uint8

// The outcomes of [Breaker.Record].
const (
	Healthy    Outcome = iota // the target answered, even if with a 4xx
	Unhealthy                 // a failure that counts toward opening
	NoEvidence                // the caller gave up: no evidence either way
)

// Record reports an attempt's outcome and releases its permit. An attempt
// that gave no evidence (canceled) is not recorded while closed; while
// half-open its probe permit must be released, and it is recorded as a
// failure, which reopens the breaker rather than closing it on no evidence.
func (b *Breaker) Record(o Outcome) {
	switch o {
	case Healthy:
		b.cb.RecordSuccess()
		b.throttle.success()
	case Unhealthy:
		b.cb.RecordFailure()
		b.throttle.failure()
	default:
		if b.cb.IsHalfOpen() {
			b.cb.RecordFailure()
		}
	}
}

// AllowsRetry reports whether the retry throttle lets a failed call retry:
// false while most recent attempts of the target failed.
func (b *Breaker) AllowsRetry() bool { return b.throttle.allowsRetry() }
