package breaker

import (
	"slices"
	"strconv"
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
	forced    atomic.Uint32 // a Forcing; NotForced = the breaker follows its evidence
	maxHold   time.Duration // the longest hold; set at construction
	failures  int           // the threshold; set at construction

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
	b := &Breaker{name: name, throttle: newThrottle(DefaultRetryThrottle), maxHold: maxHold, failures: failures}
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

// Closed reports whether the breaker is closed and has no hold, without
// taking its lock or reading the clock: a pool asks it of each member on
// every attempt. It may answer true for a moment after a change that
// opened the circuit, as State may answer just before it (the breaker's
// TryAcquire settles it), and false after a hold that is over until State
// or TryAcquire has seen it over. A breaker forced closed is closed, one
// forced open is not: forcing sets the circuit's state.
func (b *Breaker) Closed() bool {
	return b.closed.Load() && b.holdUntil.Load() == 0
}

// Name returns the breaker's name.
func (b *Breaker) Name() string { return b.name }

// State returns the current state. A breaker held open or forced open
// reports BreakerOpen; one forced closed, BreakerClosed.
func (b *Breaker) State() observe.BreakerState {
	switch Forcing(b.forced.Load()) {
	case ForcedOpen:
		return observe.BreakerOpen
	case ForcedClosed:
		return observe.BreakerClosed
	}
	if b.held() {
		return observe.BreakerOpen
	}
	return b.cb.State()
}

// RemainingDelay returns how long the breaker will stay open, 0 if it is not.
// A breaker forced open stays open until it is closed or forced closed; it
// reports its longest hold ([Breaker.MaxHold]), the longest wait anything
// else can ask of its callers.
func (b *Breaker) RemainingDelay() time.Duration {
	switch Forcing(b.forced.Load()) {
	case ForcedOpen:
		return b.maxHold
	case ForcedClosed:
		return 0
	}
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
// maximum: a hint of a year must not silence a provider for a year. A
// breaker forced open or closed ignores holds.
func (b *Breaker) HoldOpen(d time.Duration) {
	if b.forced.Load() != uint32(NotForced) {
		return
	}
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

// Open opens the breaker for its configured delay, and ends any forcing.
func (b *Breaker) Open() {
	b.forced.Store(uint32(NotForced))
	b.cb.Open()
}

// Close closes the breaker, and ends any hold and any forcing: the breaker
// follows its evidence again from a clean slate. It is the reset of an
// operator (package status).
func (b *Breaker) Close() {
	b.force(NotForced, observe.BreakerClosed)
}

// Forcing says whether an operator forced a breaker's state, as
// Resilience4j's FORCED_OPEN and DISABLED states do.
type Forcing uint8

// The forcings of a [Breaker].
const (
	// NotForced: the breaker follows its evidence.
	NotForced Forcing = iota
	// ForcedOpen: every attempt is refused, no probe goes through, until
	// the breaker is closed ([Breaker.Close]) or forced closed.
	ForcedOpen
	// ForcedClosed: every attempt goes through, and no failure and no
	// hold opens the breaker, until it is closed or forced open.
	ForcedClosed
)

var forcingNames = [...]string{"", "forced_open", "forced_closed"}

// String returns "forced_open", "forced_closed", or "" for NotForced.
func (f Forcing) String() string {
	if int(f) < len(forcingNames) {
		return forcingNames[f]
	}
	return "forcing(" + strconv.Itoa(int(f)) + ")"
}

// ForceOpen opens the breaker until it is closed ([Breaker.Close]) or
// forced closed: every attempt is refused, whatever its delay and its
// evidence, and no probe goes through. For an operator who knows a target
// is down, or must not be called.
func (b *Breaker) ForceOpen() { b.force(ForcedOpen, observe.BreakerOpen) }

// ForceClosed closes the breaker until it is closed ([Breaker.Close]) or
// forced open: every attempt goes through, and neither failures nor holds
// open it. For an operator who knows that a target its breaker keeps
// opening on is sound.
func (b *Breaker) ForceClosed() { b.force(ForcedClosed, observe.BreakerClosed) }

// Forced returns the breaker's forcing, NotForced unless an operator forced
// it.
func (b *Breaker) Forced() Forcing { return Forcing(b.forced.Load()) }

// force sets the forcing to f and the underlying state to s, ending any
// hold. The listeners hear of a change of forcing even when the state does
// not change (a breaker already open forced open): a shared breaker shares
// the forcing.
func (b *Breaker) force(f Forcing, s observe.BreakerState) {
	prev := Forcing(b.forced.Swap(uint32(f)))
	b.holdUntil.Store(0)
	if b.cb.State() == s {
		if prev != f {
			b.notify(s)
		}
		return
	}
	if s == observe.BreakerOpen {
		b.cb.Open()
	} else {
		b.cb.Close()
	}
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
// does not read the clock, and is inlined: this is on every attempt's path.
func (b *Breaker) held() bool {
	until := b.holdUntil.Load()
	return until != 0 && b.holdsUntil(until)
}

// holdsUntil reports whether the hold until the UnixNano until still keeps
// the breaker open, and forgets it when it is over.
func (b *Breaker) holdsUntil(until int64) bool {
	if time.Now().UnixNano() < until {
		return true
	}
	b.holdUntil.CompareAndSwap(until, 0) // expired: back to the fast path
	return false
}

// TryAcquire reports whether an attempt may proceed. A true answer must be
// followed by exactly one call to [Breaker.Record].
func (b *Breaker) TryAcquire() bool {
	switch Forcing(b.forced.Load()) {
	case ForcedOpen:
		return false
	case ForcedClosed:
		return true
	}
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
// While the breaker is forced, outcomes count toward its retry throttle
// only: forcing reset the state that permits belong to.
func (b *Breaker) Record(o Outcome) {
	forced := b.forced.Load() != uint32(NotForced)
	switch o {
	case Healthy:
		if !forced {
			b.cb.RecordSuccess()
		}
		b.throttle.success()
	case Unhealthy:
		if !forced {
			b.cb.RecordFailure()
		}
		b.throttle.failure()
	default:
		if !forced && b.cb.IsHalfOpen() {
			b.cb.RecordFailure()
		}
	}
}

// AllowsRetry reports whether the retry throttle lets a failed call retry:
// false while most recent attempts of the target failed.
func (b *Breaker) AllowsRetry() bool { return b.throttle.allowsRetry() }

// Snapshot is what a [Breaker] knows of its target at a moment.
type Snapshot struct {
	// Name is the breaker's name.
	Name string
	// State is its state, as [Breaker.State] reports it.
	State observe.BreakerState
	// Forced says whether an operator forced it.
	Forced Forcing
	// Held is true while a hold keeps it open ([Breaker.HoldOpen]: a
	// provider's wait hint over the cap, an account failure of a pool's
	// member, or a replica's open period shared through Redis).
	Held bool
	// Remaining is how long it stays open, as [Breaker.RemainingDelay].
	Remaining time.Duration
	// Failures counts the failures among its recent attempts (in the
	// closed state; while open, those that opened it); Threshold is the
	// count that opens it.
	Failures, Threshold int
	// RetriesAllowed is false while its retry throttle stops retries.
	RetriesAllowed bool
}

// Snapshot returns the breaker's state, hold, forcing and counts. It reads
// them one after another, not under one lock: a breaker changing meanwhile
// may show the state before the change with the counts after it.
func (b *Breaker) Snapshot() Snapshot {
	return Snapshot{
		Name:           b.name,
		State:          b.State(),
		Forced:         b.Forced(),
		Held:           b.Forced() == NotForced && b.held(),
		Remaining:      b.RemainingDelay(),
		Failures:       int(b.cb.Metrics().Failures()),
		Threshold:      b.failures,
		RetriesAllowed: b.AllowsRetry(),
	}
}
