package status

import (
	"context"
	"fmt"
	"math"
	"time"

	"github.com/resilientgo/resilient/breaker"
	"github.com/resilientgo/resilient/internal/redact"
	"github.com/resilientgo/resilient/limit"
	"github.com/resilientgo/resilient/observe"
	"github.com/resilientgo/resilient/pool"
)

// Report is the state of everything a [Registry] holds at a moment, as the
// [Handler] serves it in JSON. Every text in it (names, keys, descriptions,
// account failures, errors) has been through the library's redaction
// rules, as a log line's values are; durations are in seconds. Each list
// is in the order the entries were added.
type Report struct {
	// Ready is false while some model has no member that can take a call
	// (see [Registry.Ready]).
	Ready      bool              `json:"ready"`
	Models     []ModelReport     `json:"models"`
	Breakers   []BreakerReport   `json:"breakers"`
	Limiters   []LimiterReport   `json:"limiters"`
	Semaphores []SemaphoreReport `json:"semaphores"`
	Shared     []SharedReport    `json:"shared"`
}

// ModelReport is the state of a model added with [Registry.AddModel]:
// its breaker's, or, for a pool, its members'.
type ModelReport struct {
	Name string `json:"name"`
	// Ready is false while none of its members (a model that is not a pool
	// is its own one member) can take a call: each has its circuit open,
	// held or forced open, or is out of rotation after an account failure.
	// A member cooling down after a wait hint can: calls wait for it.
	Ready bool `json:"ready"`
	// Breaker is the model's breaker, absent for a pool and a model
	// without one.
	Breaker *BreakerReport `json:"breaker,omitempty"`
	// Limiter, TokenLimiter and Semaphore are the rate, token and
	// concurrency limits the model enforces itself (a pool's, for all its
	// members together), absent when it has none: those resilient.RateLimit,
	// llms.TokenLimit, resilient.MaxConcurrent and resilient.ConcurrencyLimit
	// set.
	Limiter      *LimiterReport   `json:"limiter,omitempty"`
	TokenLimiter *LimiterReport   `json:"token_limiter,omitempty"`
	Semaphore    *SemaphoreReport `json:"semaphore,omitempty"`
	// Strategy and Members are a pool's.
	Strategy string         `json:"strategy,omitempty"`
	Members  []MemberReport `json:"members,omitempty"`
}

// MemberReport is the state of one member of a pool (see
// pool.MemberState).
type MemberReport struct {
	Name string `json:"name"`
	// Usable is false while the member can take no call (see
	// [ModelReport.Ready]).
	Usable   bool    `json:"usable"`
	Weight   int     `json:"weight"`
	Health   float64 `json:"health"`
	InFlight int     `json:"in_flight"`
	// LatencySeconds is the moving average of its recent attempts.
	LatencySeconds float64 `json:"latency_seconds"`
	// CooldownSeconds is what remains of its cooldown after a wait hint.
	CooldownSeconds float64 `json:"cooldown_seconds"`
	// SuspendedSeconds is how long an account failure still keeps it out
	// of rotation; AccountFailure is that failure (its rule and status).
	SuspendedSeconds float64        `json:"suspended_seconds"`
	AccountFailure   string         `json:"account_failure,omitempty"`
	Breaker          *BreakerReport `json:"breaker,omitempty"`
	// Limiter and Semaphore are the member's own rate and concurrency
	// limits, absent when it has none.
	Limiter   *LimiterReport   `json:"limiter,omitempty"`
	Semaphore *SemaphoreReport `json:"semaphore,omitempty"`
}

// The reasons of [BreakerReport.Why].
const (
	WhyFailures     = "failures"      // open after a run of failures (or breaker.Breaker.Open)
	WhyHeld         = "held"          // held open: a wait hint over the cap, a member's account failure, or a replica's open period
	WhyProbing      = "probing"       // half-open: its probe is in flight
	WhyForcedOpen   = "forced_open"   // an operator forced it open
	WhyForcedClosed = "forced_closed" // an operator forced it closed
)

// BreakerReport is the state of a circuit breaker (see breaker.Snapshot).
type BreakerReport struct {
	// Name is the entry's name in [Report.Breakers], the breaker's own
	// name elsewhere (a model's, a member's, an action's answer).
	Name string `json:"name"`
	// State is "closed", "open" or "half_open".
	State string `json:"state"`
	// Why says why it is not simply closed: one of WhyFailures, WhyHeld,
	// WhyProbing, WhyForcedOpen, WhyForcedClosed; empty when closed by its
	// evidence.
	Why string `json:"why,omitempty"`
	// RemainingSeconds is how long it stays open (for a breaker forced
	// open: until an operator ends it; its longest hold is shown).
	RemainingSeconds float64 `json:"remaining_seconds"`
	// Failures counts the failures among its recent attempts, Threshold
	// those that open it.
	Failures  int `json:"failures"`
	Threshold int `json:"threshold"`
	// RetriesAllowed is false while its retry throttle stops retries.
	RetriesAllowed bool `json:"retries_allowed"`
}

// LimiterReport is the state of a rate limiter.
type LimiterReport struct {
	// Name is the entry's name, empty inside a model's or a member's
	// report.
	Name string `json:"name,omitempty"`
	// Type is the limiter's Go type, such as "*limit.LocalLimiter".
	Type string `json:"type"`
	// Limit is its String, when it has one: "10 per 1s, waiting up to 5s".
	Limit  string        `json:"limit,omitempty"`
	Shared *SharedReport `json:"shared,omitempty"`
}

// SemaphoreReport is the state of a concurrency limit.
type SemaphoreReport struct {
	// Name is the entry's name, empty inside a model's or a member's
	// report.
	Name string `json:"name,omitempty"`
	Type string `json:"type"`
	// Size is its number of slots, InUse those taken (in this process for
	// limit.Bulkhead, by the whole fleet for resilientredis.Semaphore);
	// each absent when the semaphore does not say, InUse also when Redis
	// did not answer.
	Size   *int          `json:"size,omitempty"`
	InUse  *int          `json:"in_use,omitempty"`
	Shared *SharedReport `json:"shared,omitempty"`
}

// SharedReport is the reachability of a shared-state feature's store (see
// observe.SharedState).
type SharedReport struct {
	// Name is the entry's name, empty inside a limiter's or a semaphore's
	// report.
	Name      string `json:"name,omitempty"`
	Feature   string `json:"feature"`
	Key       string `json:"key"`
	Reachable bool   `json:"reachable"`
	// Action is what the feature does while the store is unreachable
	// ("fail_open", "local", "fail_closed"), in force when Reachable is
	// false; Detail says it in words.
	Action      string  `json:"action"`
	Detail      string  `json:"detail"`
	DownSeconds float64 `json:"down_seconds"`
	Error       string  `json:"error,omitempty"`
}

// Report returns the state of everything r holds now. Each entry is read
// on its own, not all under one lock: the report is a view, not a
// transaction.
func (r *Registry) Report() Report { return r.report(context.Background()) }

// report is Report with ctx bounding the round trips a semaphore's count
// takes (resilientredis.Semaphore.InUse).
func (r *Registry) report(ctx context.Context) Report {
	rep := Report{Ready: true, Models: []ModelReport{}, Breakers: []BreakerReport{}, Limiters: []LimiterReport{},
		Semaphores: []SemaphoreReport{}, Shared: []SharedReport{}}
	for _, e := range r.list() {
		switch {
		case e.model != nil:
			m := reportModel(ctx, e)
			rep.Ready = rep.Ready && m.Ready
			rep.Models = append(rep.Models, m)
		case e.breaker != nil:
			b := reportBreaker(e.breaker)
			b.Name = redact.String(e.name)
			rep.Breakers = append(rep.Breakers, b)
		case e.limiter != nil:
			l := reportLimiter(e.limiter)
			l.Name = redact.String(e.name)
			rep.Limiters = append(rep.Limiters, *l)
		case e.semaphore != nil:
			s := reportSemaphore(ctx, e.semaphore)
			s.Name = redact.String(e.name)
			rep.Semaphores = append(rep.Semaphores, *s)
		case e.shared != nil:
			s := reportShared(e.shared.SharedState())
			s.Name = redact.String(e.name)
			rep.Shared = append(rep.Shared, s)
		}
	}
	return rep
}

// Ready reports whether every model r holds has a member that can take a
// call, and names those that have none. A model that is not a pool is its
// own one member; a pool's member can take no call while its circuit is
// open (failures, a hold, an operator's forcing) or an account failure
// keeps it out of rotation; a member cooling down can, as calls wait for
// it. Breakers, limiters and shared state added on their own do not count:
// a tool's open circuit or an unreachable Redis does not make a replica
// worth taking out of service.
func (r *Registry) Ready() (bool, []string) {
	var unready []string
	for _, e := range r.list() {
		if e.model != nil && !readyModel(e) {
			unready = append(unready, redact.String(e.name))
		}
	}
	return len(unready) == 0, unready
}

// readyModel reports whether e, a model, has a member that can take a
// call, reading nothing else.
func readyModel(e entry) bool {
	if e.pool == nil {
		return usable(e.model.Breaker(), 0)
	}
	for _, s := range e.pool.Members() {
		if usable(s.Breaker, s.Suspended) {
			return true
		}
	}
	return false
}

func reportModel(ctx context.Context, e entry) ModelReport {
	m := ModelReport{Name: redact.String(e.name)}
	if x, ok := e.model.(interface{ Limiter() limit.Limiter }); ok {
		m.Limiter = reportLimiter(x.Limiter())
	}
	if x, ok := e.model.(interface{ TokenLimiter() limit.Limiter }); ok {
		m.TokenLimiter = reportLimiter(x.TokenLimiter())
	}
	if x, ok := e.model.(interface {
		Concurrency() (limit.Semaphore, time.Duration)
	}); ok {
		sem, _ := x.Concurrency()
		m.Semaphore = reportSemaphore(ctx, sem)
	}
	if e.pool == nil {
		b := e.model.Breaker()
		m.Ready = usable(b, 0)
		if b != nil {
			br := reportBreaker(b)
			m.Breaker = &br
		}
		return m
	}
	m.Strategy = e.pool.Picker().String()
	for _, s := range e.pool.Members() {
		mr := reportMember(ctx, s)
		m.Ready = m.Ready || mr.Usable
		m.Members = append(m.Members, mr)
	}
	return m
}

func reportMember(ctx context.Context, s pool.MemberState) MemberReport {
	mr := MemberReport{Name: redact.String(s.Name), Usable: usable(s.Breaker, s.Suspended), Weight: s.Weight,
		Health: math.Round(s.Health*1000) / 1000, InFlight: s.InFlight, LatencySeconds: seconds(s.Latency),
		CooldownSeconds: seconds(s.Cooldown), SuspendedSeconds: seconds(s.Suspended), AccountFailure: redact.String(s.AccountFailure)}
	if s.Breaker != nil {
		br := reportBreaker(s.Breaker)
		mr.Breaker = &br
	}
	mr.Limiter, mr.Semaphore = reportLimiter(s.Limiter), reportSemaphore(ctx, s.Semaphore)
	return mr
}

// usable reports whether a target with breaker b (nil: none), kept out of
// rotation for suspended, can take a call now, as a pool sees its members:
// not while its circuit is open with time left (a circuit whose delay is
// over lets the next caller through as its probe); a suspension counts
// only for a target without a breaker, as the suspension holds the breaker
// open (and a breaker forced closed overrides it).
func usable(b *breaker.Breaker, suspended time.Duration) bool {
	if b == nil {
		return suspended <= 0
	}
	return b.State() != observe.BreakerOpen || b.RemainingDelay() <= 0
}

func reportBreaker(b *breaker.Breaker) BreakerReport {
	s := b.Snapshot()
	r := BreakerReport{Name: redact.String(s.Name), State: observe.BreakerStateName(s.State), RemainingSeconds: seconds(s.Remaining),
		Failures: s.Failures, Threshold: s.Threshold, RetriesAllowed: s.RetriesAllowed}
	switch {
	case s.Forced != breaker.NotForced:
		r.Why = s.Forced.String()
	case s.State == observe.BreakerHalfOpen:
		r.Why = WhyProbing
	case s.State == observe.BreakerOpen && s.Held:
		r.Why = WhyHeld
	case s.State == observe.BreakerOpen:
		r.Why = WhyFailures
	}
	return r
}

// reportLimiter returns the state of l, nil when l is nil.
func reportLimiter(l limit.Limiter) *LimiterReport {
	if isNil(l) {
		return nil
	}
	r := &LimiterReport{Type: fmt.Sprintf("%T", l), Shared: sharedOf(l)}
	if x, ok := l.(fmt.Stringer); ok {
		r.Limit = redact.String(x.String())
	}
	return r
}

// reportSemaphore returns the state of sem, nil when sem is nil. A count
// of the slots in use that takes a round trip (an InUse method with a
// context: resilientredis.Semaphore's) is bounded by ctx, and absent when
// it fails.
func reportSemaphore(ctx context.Context, sem limit.Semaphore) *SemaphoreReport {
	if isNil(sem) {
		return nil
	}
	s := &SemaphoreReport{Type: fmt.Sprintf("%T", sem), Shared: sharedOf(sem)}
	if x, ok := sem.(interface{ Size() int }); ok {
		n := x.Size()
		s.Size = &n
	}
	switch x := sem.(type) {
	case interface{ InUse() int }:
		n := x.InUse()
		s.InUse = &n
	case interface {
		InUse(context.Context) (int, error)
	}:
		if n, err := x.InUse(ctx); err == nil {
			s.InUse = &n
		}
	}
	return s
}

// sharedOf returns the shared state of x, nil when x is not [Shared].
func sharedOf(x any) *SharedReport {
	s, ok := x.(Shared)
	if !ok {
		return nil
	}
	r := reportShared(s.SharedState())
	return &r
}

func reportShared(s observe.SharedState) SharedReport {
	r := SharedReport{Feature: s.Feature, Key: redact.String(s.Key), Reachable: s.Reachable, Action: s.Action.String(),
		Detail: redact.String(s.Detail), DownSeconds: seconds(s.Down)}
	if s.Err != nil {
		r.Error = redact.String(s.Err.Error())
	}
	return r
}

// seconds returns d in seconds, to the millisecond.
func seconds(d time.Duration) float64 { return d.Round(time.Millisecond).Seconds() }
