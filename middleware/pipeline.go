package middleware

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"runtime/debug"
	"sync"
	"sync/atomic"
	"time"

	"github.com/failsafe-go/failsafe-go"
	"github.com/failsafe-go/failsafe-go/circuitbreaker"
	"github.com/failsafe-go/failsafe-go/hedgepolicy"
	"github.com/failsafe-go/failsafe-go/retrypolicy"

	"github.com/resilientgo/resilient/breaker"
	"github.com/resilientgo/resilient/internal/redact"
	"github.com/resilientgo/resilient/limit"
	"github.com/resilientgo/resilient/observe"
	"github.com/resilientgo/resilient/pool"
	"github.com/resilientgo/resilient/run"
	"github.com/resilientgo/resilient/taxonomy"
)

// Func is the protected call. It should use ctx, the attempt's own context,
// for its work: the pipeline cancels it on the attempt timeout, on the
// caller's cancellation and when a hedge wins. A function that ignores it
// is abandoned then: the pipeline returns on time and the function's late
// result is discarded when it comes (see [Pipeline.Do]).
type Func[R any] func(ctx context.Context, s State) (R, error)

// State tells the protected function where it stands.
type State struct {
	// Attempt counts attempts from 1.
	Attempt int
	// Previous is the attempt before this one; its Number is 0 on the first
	// attempt. A function that can repair its request reads Previous.Class
	// (llms compacts the messages after a context overflow).
	Previous Attempt
	// Hedge is true for a hedged attempt running beside another.
	Hedge bool
	// Member is the index, among the [Members] of a pool, of the member
	// the attempt goes to; 0 for a plain pipeline.
	Member int
	// End ends the attempt at once with err as its failure, whether or not
	// the function has returned: for a function that sees for itself that
	// its work is hung, such as a stream that stalled inside a provider
	// client that ignores its context. The pipeline classifies err and goes
	// on; what the function returns later is discarded (see [observe.LateResult]).
	// A nil err is ignored.
	End func(err error)
}

// Pipeline runs calls to one protected target (a model, a tool) under the
// configured policies, expanded as
//
//	retry(hedge(policies...(limiter(concurrency(breaker(timeout(fn)))))))
//
// where hedge is present for [Pipeline.DoHedged] only, policies are those
// added with [Policies], the limiter is the one set with [RateLimit] and
// the concurrency limit the one set with [MaxConcurrent]. A pool (see
// [Members]) puts the choice of a member, with that member's own
// concurrency limit, limiter and breaker, in place of the breaker. A call
// made with the [Request] option takes each attempt's place in the run's
// usage limits before the limiter (and, in a pool, before the member's
// gates). The retry decides from [taxonomy.Classify]'s answer: permanent,
// canceled and programming failures stop at once; retryable kinds retry up
// to their limit with full-jitter backoff, or wait as long as the provider
// asked (a little longer while other calls wait on a hint too: see
// [HintJitterDivisor]); a call inside a run may go past its limit on the
// run's unspent budget (see [PastLimitAttempts]).
//
// Build a Pipeline once per target and share it: it is safe for concurrent
// use, and its breaker's state is what makes it useful.
//
// The zero Pipeline is not usable: Do returns an error saying so.
type Pipeline[R any] struct {
	name    string
	target  observe.Target
	cfg     config
	obs     observe.Observers
	breaker *breaker.Breaker
	sem     limit.Semaphore
	pool    *pool.Pool // of a pool; nil for a plain pipeline
	exec    failsafe.Executor[R]
	hedged  failsafe.Executor[R]
	// own says the retry runs in the pipeline's own loop (see retry): no
	// policy was added with Policies, so failsafe-go would only run the
	// retry, which decide drives anyway.
	own bool
	// abandoned counts the attempts abandoned whose function is still
	// running (see MaxAbandoned).
	abandoned atomic.Int64
	// hinted counts the calls waiting, before a retry, on a wait the
	// provider asked for (see afterHint).
	hinted atomic.Int64
}

// New builds a pipeline for the target called name (it appears in errors and
// logs). Invalid options make it fail with an error naming each problem.
func New[R any](name string, opts ...Option) (*Pipeline[R], error) {
	cfg := defaultConfig()
	for _, o := range opts {
		if o == nil {
			cfg.errorf("nil option")
			continue
		}
		o(&cfg)
	}
	policies := make([]failsafe.Policy[R], 0, len(cfg.policies)+2)
	for _, p := range cfg.policies {
		typed, ok := p.(failsafe.Policy[R])
		if !ok {
			var zero R
			cfg.errorf("Policies: %T is not a failsafe.Policy[%T]", p, zero)
			continue
		}
		policies = append(policies, typed)
	}
	isPool := cfg.members != nil || cfg.pool != nil
	switch {
	case cfg.weight != 0:
		cfg.errorf("Weight applies to a member of a pool (see Member), not to a pipeline")
	case isPool && cfg.breaker != nil:
		cfg.errorf("UseBreaker applies to a member of a pool (see Member): a pool has no breaker of its own")
	case !isPool && (cfg.picker != nil || cfg.noStickyRuns):
		cfg.errorf("Balance and NoStickyRuns apply to a pool (see Members)")
	}
	if err := errors.Join(cfg.errs...); err != nil {
		return nil, err
	}
	p := &Pipeline[R]{name: name, target: cfg.target, cfg: cfg, obs: observe.Observers(cfg.observers), sem: cfg.newSemaphore()}
	p.target.Name = name
	if cfg.logger != nil {
		p.obs = append(p.obs[:len(p.obs):len(p.obs)], observe.Log(cfg.logger))
	}
	if cfg.pool != nil {
		p.pool = cfg.pool
	} else if cfg.members != nil {
		var err error
		if p.pool, err = newPool(&cfg, p.obs); err != nil {
			return nil, err
		}
	} else {
		p.breaker = cfg.breaker // one shared with UseBreaker, or none
		if p.breaker == nil && !cfg.breakerOff {
			p.breaker = breaker.New(breaker.Settings{Name: name, Failures: cfg.breakerThresh, Delay: cfg.breakerDelay, MaxHold: cfg.maxHold, Observers: p.obs})
		}
	}

	retry := retrypolicy.NewBuilder[R]().
		HandleIf(func(_ R, err error) bool { return err != nil }).
		AbortIf(func(_ R, err error) bool { return !decisionOf(err).retries() }).
		WithMaxRetries(-1). // every stop is decided by decide, which always ends
		WithDelayFunc(func(exec failsafe.ExecutionAttempt[R]) time.Duration {
			if d := decisionOf(exec.LastError()); d != nil {
				return d.wait
			}
			return 0
		}).
		Build()
	p.exec = failsafe.With(append([]failsafe.Policy[R]{retry}, policies...)...)
	p.own = len(policies) == 0
	if h := cfg.hedge; h != nil {
		hedge := hedgepolicy.NewBuilderWithDelayFunc[R](func(exec failsafe.ExecutionAttempt[R]) time.Duration {
			if run := run.From(exec.Context()); run != nil && run.Remaining() == 0 {
				return -1 // the run cannot pay for another hedge
			}
			return h.delay
		}).
			WithMaxHedges(h.max).
			CancelIf(func(_ R, err error) bool { return err == nil || isFinal(err) }).
			Build()
		p.hedged = failsafe.With(append([]failsafe.Policy[R]{retry, hedge}, policies...)...)
	}
	return p, nil
}

// Name returns the target's name.
func (p *Pipeline[R]) Name() string { return p.name }

// Breaker returns the pipeline's circuit breaker, nil when disabled and
// for a pool, whose members have one each (see [pool.Pool.Members]).
func (p *Pipeline[R]) Breaker() *breaker.Breaker { return p.breaker }

// Limiter returns the limiter set with [RateLimit], nil if none: an adapter
// shares it with another target drawing on the same quota (package llms
// shares a model's with an embedder of the same account).
func (p *Pipeline[R]) Limiter() limit.Limiter { return p.cfg.limiter }

// Timeout returns the attempt timeout the options set, 0 for none
// ([Forever]).
func (p *Pipeline[R]) Timeout() time.Duration { return p.cfg.attemptTimeout }

// Target returns what the pipeline protects, as observers see it.
func (p *Pipeline[R]) Target() observe.Target { return p.target }

// Observers returns the pipeline's observers, [observe.Log]'s included: adapters
// report their own events (fallbacks, tool outcomes) through them.
func (p *Pipeline[R]) Observers() observe.Observers { return p.obs }

// waits reports whether an attempt may wait at a gate before its target
// (a limiter, a concurrency limit, a pool's cooldowns): such waits end
// with a context, so a Deadline needs one of its own.
func (p *Pipeline[R]) waits() bool {
	return p.cfg.limiter != nil || p.sem != nil || p.pool != nil
}

// Do calls fn under the pipeline's policies and returns its result, or an
// *[Error] saying why it stopped and listing every attempt. A caller context
// that is already done makes no attempt.
//
// Each attempt runs fn on a goroutine of its own, so that Do returns at the
// attempt timeout (a transient failure, retried as usual) or when the
// caller gives up (canceled), even if fn ignores its context. Such an
// attempt is abandoned: Do goes on without it, fn's goroutine ends when fn
// returns, and its late result is discarded and reported once (a
// [observe.LateResult] event). A function with side effects that must not run
// twice has to settle them itself when it returns (see [Returned]; package tools keeps an
// idempotent call's claim until then). At most [MaxAbandoned] abandoned
// attempts may still be running: past it, new calls fail fast with
// [ErrAbandoned] until some return. fn runs on a goroutine of its own even
// with no timeout and a caller context that cannot be canceled: it can
// still end its attempt with [State.End].
//
// Options configure this call only (see [Request], [Deadline], [Returned]).
func (p *Pipeline[R]) Do(ctx context.Context, fn Func[R], opts ...CallOption) (R, error) {
	return p.do(ctx, fn, p.exec, opts)
}

// DoHedged is Do with hedging, when the pipeline was built with [Hedge]; Do
// otherwise. Hedge only calls whose repetition is harmless and whose output
// is not streamed to anyone.
func (p *Pipeline[R]) DoHedged(ctx context.Context, fn Func[R], opts ...CallOption) (R, error) {
	if p.hedged == nil {
		return p.do(ctx, fn, p.exec, opts)
	}
	return p.do(ctx, fn, p.hedged, opts)
}

func (p *Pipeline[R]) do(ctx context.Context, fn Func[R], exec failsafe.Executor[R], opts []CallOption) (R, error) {
	var zero R
	if ctx == nil {
		return zero, &Error{Target: p.name, Reason: observe.ReasonPermanent, Detail: "nil context",
			Attempts: []Attempt{{Number: 1, Err: errNilContext, Class: programming("nil context")}}}
	}
	if fn == nil {
		return zero, &Error{Target: p.name, Reason: observe.ReasonPermanent, Detail: "nil function",
			Attempts: []Attempt{{Number: 1, Err: errNilFunc, Class: programming("nil function")}}}
	}
	if exec == nil {
		return zero, &Error{Target: p.name, Reason: observe.ReasonPermanent, Detail: "zero Pipeline",
			Attempts: []Attempt{{Number: 1, Err: errZeroPipeline, Class: programming("zero value")}}}
	}
	var c *call[R]
	if p.pool != nil {
		// The call and its route in one allocation; a plain pipeline's
		// call is not made larger by a route it has no use for.
		pc := &pooledCall[R]{call: call[R]{p: p, caller: ctx, bounded: ctx, fn: fn, run: run.From(ctx)}}
		c = &pc.call
		c.rt = &pc.route
		p.pool.StartRoute(ctx, c.rt)
	} else {
		c = &call[R]{p: p, caller: ctx, bounded: ctx, fn: fn, run: run.From(ctx)}
	}
	if err := c.run.Err(); err != nil {
		// The run's limits cannot be honoured: nothing is sent.
		return zero, &Error{Target: p.name, Reason: observe.ReasonPermanent, Detail: "invalid run options",
			Attempts: []Attempt{{Number: 1, Err: err, Class: programming("invalid run options")}}}
	}
	c.attempts = c.held[:0]
	var deadline time.Time // of the Deadline options, the soonest
	for _, o := range opts {
		if o.estimate != nil {
			c.estimate = o.estimate
		}
		c.repairsOverflow = c.repairsOverflow || o.repairsOverflow
		if o.returned != nil {
			c.returned = o.returned
		}
		if !o.deadline.IsZero() && (deadline.IsZero() || o.deadline.Before(deadline)) {
			deadline = o.deadline
		}
	}
	c.given = deadline
	if p.obs.Active() && !observe.InCall(ctx) {
		// No adapter started a logical call around this one: it is one.
		c.own, c.start = true, time.Now()
		ctx = p.obs.Start(ctx, observe.Start{Target: p.target})
		c.caller, c.bounded = ctx, ctx
	}
	if ctx.Err() != nil {
		return zero, c.end(c.finish(ctx.Err()))
	}
	own := exec == p.exec && p.own
	if p.cfg.maxDuration > 0 || !deadline.IsZero() && (!own || p.waits()) {
		// A context of the call's own, which the gates' waits and
		// failsafe-go's executor see.
		if p.cfg.maxDuration > 0 {
			if d := time.Now().Add(p.cfg.maxDuration); deadline.IsZero() || d.Before(deadline) {
				deadline = d
			}
		}
		var cancel context.CancelFunc
		c.bounded, cancel = context.WithDeadline(ctx, deadline)
		defer cancel()
	} else {
		c.until = deadline // the attempts' contexts end by it, and decide stops at it
	}
	var r R
	var err error
	if own {
		r, err = c.retry(c.bounded)
	} else {
		r, err = exec.WithContext(c.bounded).GetWithExecution(c.attempt)
	}
	if err != nil {
		if ok, res := c.succeeded(); ok {
			// The function succeeded as the caller gave up, and failsafe-go
			// replaced the result with the context's error. What was done is
			// done (a charge, a paid generation): return it.
			return res, c.end(nil)
		}
		return zero, c.end(c.finish(err))
	}
	if n := c.count(); n > 1 && p.obs.Active() {
		p.obs.Observe(ctx, observe.Recovered{Target: p.name, Attempts: n})
	}
	return r, c.end(nil)
}

// end reports the end of a call this pipeline started itself, and returns
// err.
func (c *call[R]) end(err error) error {
	c.hintDone()
	if !c.own {
		return err
	}
	e := observe.CallEnd{Target: c.p.target, Attempts: c.count(), Duration: time.Since(c.start)}
	var final *Error
	if errors.As(err, &final) {
		e.Reason, e.Class = final.Reason, final.Class()
	}
	c.p.obs.Report(c.caller, e, err)
	return err
}

var (
	errNilContext   = errors.New("middleware: nil context")
	errNilFunc      = errors.New("middleware: nil function")
	errZeroPipeline = errors.New("middleware: zero Pipeline: build it with middleware.New")
)

func programming(rule string) taxonomy.Class {
	return taxonomy.Class{Kind: taxonomy.Programming, Rule: rule}
}

// call is the state of one Do.
type call[R any] struct {
	p       *Pipeline[R]
	caller  context.Context // the caller's context: consulted before any classification
	bounded context.Context // caller's context bounded by MaxDuration, or by a Deadline the pipeline's own loop cannot keep
	until   time.Time       // a Deadline that the attempts' contexts and decide keep, with no context of its own
	fn      Func[R]
	run     *run.Run
	rt      *pool.Route // of a pool's call (see pooledCall), nil for a plain pipeline
	// estimate is set by the Request option: the attempts are requests,
	// counted by the run.
	estimate func(ctx context.Context, s State) int
	// returned is set by the Returned option.
	returned func(taken bool)
	// given is the soonest deadline of the Deadline options: a deadline
	// of the caller's, as its context's would be.
	given time.Time

	own bool // the pipeline started the logical call (no adapter did)
	// repairsOverflow is set by the RepairsOverflow option (beside own, it
	// takes no room of its own).
	repairsOverflow bool
	start           time.Time // when, if own

	mu       sync.Mutex // hedged attempts run concurrently
	attempts []Attempt
	held     [1]Attempt // attempts' first backing array: most calls make one attempt
	first    runner[R]  // the first attempt's runner
	nextWait time.Duration
	retrying *retrying // the retry decided, reported when it starts
	ok       bool      // an attempt succeeded
	// nextPast says the next attempt goes past its kind's limit (see
	// PastLimitAttempts); hinting, that the call waits on a provider's
	// hint, counted in p.hinted. Beside ok, they take no more room.
	nextPast bool
	hinting  atomic.Bool
	result   R // the first successful attempt's result
}

// pooledCall is the state of one Do of a pool's pipeline: the call and its
// route, allocated together.
type pooledCall[R any] struct {
	call  call[R]
	route pool.Route
}

func (c *call[R]) succeeded() (bool, R) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.ok, c.result
}

func (c *call[R]) count() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.attempts)
}

// retrying is a retry decided and not started yet: its event, and the
// failure it retries.
type retrying struct {
	event observe.RetryScheduled
	err   error
}

// retry makes the call's attempts as failsafe-go's retry policy, built in
// New, would, without the policy's bookkeeping: each attempt's error is
// decide's decision; a decision to stop ends the call, a decision to retry
// waits as long as it says, and the end of ctx ends the call with ctx's
// error (do returns an attempt's success all the same).
func (c *call[R]) retry(ctx context.Context) (R, error) {
	var zero R
	for {
		r, err := c.try(ctx, false)
		if err == nil {
			return r, nil
		}
		if ctx.Err() != nil {
			return zero, ctx.Err()
		}
		d := decisionOf(err)
		if !d.retries() {
			return zero, err
		}
		if d.wait > 0 {
			t := time.NewTimer(d.wait)
			select {
			case <-t.C:
			case <-ctx.Done():
				t.Stop()
				return zero, ctx.Err()
			}
		}
	}
}

// attemptDeadline returns when the context of an attempt starting now
// ends: after the attempt timeout, or at the call's Deadline if sooner;
// zero for never.
func (c *call[R]) attemptDeadline() time.Time {
	var d time.Time
	if t := c.p.cfg.attemptTimeout; t > 0 {
		d = time.Now().Add(t)
	}
	if !c.until.IsZero() && (d.IsZero() || c.until.Before(d)) {
		d = c.until
	}
	return d
}

// deadline returns the call's deadline: the soonest of its caller's
// context's, its MaxDuration's and its Deadline's.
func (c *call[R]) deadline() (time.Time, bool) {
	d, ok := c.bounded.Deadline()
	if !c.until.IsZero() && (!ok || c.until.Before(d)) {
		return c.until, true
	}
	return d, ok
}

// expired reports whether the call's own bound (its MaxDuration or its
// Deadline) has passed, or its caller's context ended.
func (c *call[R]) expired() bool {
	return c.bounded.Err() != nil || !c.until.IsZero() && !time.Now().Before(c.until)
}

// expiry says which of the call's own bounds passed.
func (c *call[R]) expiry() string {
	if c.p.cfg.maxDuration > 0 && c.until.IsZero() {
		return fmt.Sprintf("max duration %v", c.p.cfg.maxDuration)
	}
	return "the call's deadline passed"
}

// attempt is one attempt under failsafe-go's executor: hedged, or with
// policies added with Policies.
func (c *call[R]) attempt(exec failsafe.Execution[R]) (R, error) {
	return c.try(exec.Context(), exec.IsHedge())
}

// try runs one attempt with parent as its context's parent: refusals
// (budget, the run's usage limits, limiter, concurrency limit, breaker or
// the choice of a member), the attempt context and timeout, the function on
// its own goroutine, classification, decision.
func (c *call[R]) try(parent context.Context, hedge bool) (R, error) {
	var zero R
	p := c.p
	c.mu.Lock()
	number := len(c.attempts) + 1
	wait, past := c.nextWait, c.nextPast
	c.nextWait, c.nextPast = 0, false
	var prev Attempt
	if number > 1 {
		prev = c.attempts[number-2]
	}
	c.attempts = append(c.attempts, Attempt{Number: number, Wait: wait, PastLimit: past && !hedge})
	retrying := c.retrying
	if !hedge {
		c.retrying = nil
	}
	c.mu.Unlock()
	c.hintDone()
	c.run.AddWaited(wait)
	if retrying != nil && !hedge {
		// The retry goes out now: report it, and not before, so that a
		// retry the caller's end or a deadline prevented is never reported.
		p.obs.Report(c.caller, retrying.event, retrying.err)
	}

	if hedge {
		if !c.run.TryRetry() {
			return zero, c.conclude(number, 0, errHedgeRefused, taxonomy.Class{Kind: taxonomy.Transient, Rule: "hedge refused by budget"},
				&decision{reason: observe.ReasonBudgetSpent, refused: true})
		}
		if p.obs.Active() {
			p.obs.Observe(c.caller, observe.Hedged{Target: p.name, Attempt: number})
		}
	}
	if err := c.refuseAbandoned(number); err != nil {
		return zero, err
	}
	counted := false // the attempt took a place in the run's request limit
	if c.estimate != nil {
		var refused error
		if counted, refused = c.startRequest(parent, State{Attempt: number, Previous: prev, Hedge: hedge}); refused != nil {
			return zero, refused
		}
	}
	g, err := c.admit(parent, number)
	if err != nil {
		if counted {
			c.run.ReturnRequest() // never sent
		}
		return zero, err
	}
	target, name, index := p.target, p.name, 0
	m := g.ticket.Member()
	if m != nil {
		target, name, index = m.Target(), m.Name(), m.Index()
	}

	actx := parent
	if p.obs.Active() {
		actx = p.obs.Start(actx, observe.Start{Target: target, Attempt: number, Hedge: hedge})
	}
	a := c.runner(number)
	start := time.Now()
	r, err, abandoned := a.run(actx, c.attemptDeadline(), State{Attempt: number, Previous: prev, Hedge: hedge, Member: index}, g)
	elapsed := a.stop.Sub(start)
	timedOut := err != nil && errors.Is(a.ctx.Err(), context.DeadlineExceeded) && parent.Err() == nil
	a.cancel()

	if err == nil {
		g.record(breaker.Healthy, elapsed)
		if m != nil {
			c.rt.Stick(m) // the conversation stays where it was answered
		}
		c.mu.Lock()
		c.attempts[number-1].Duration = elapsed
		if !c.ok {
			c.ok, c.result = true, r
		}
		c.mu.Unlock()
		if p.obs.Active() {
			p.obs.Observe(actx, observe.AttemptEnd{Target: name, Attempt: number, Hedge: hedge, Duration: elapsed})
		}
		return r, nil
	}
	class := c.classify(err, timedOut, parent)
	o := healthOf(class, err)
	if m != nil && accountFailure(class) {
		// The member cannot serve any request: a probe it fails so must
		// not close its circuit, and its health falls.
		o = breaker.Unhealthy
	}
	g.record(o, elapsed)
	if m != nil {
		c.coolDown(m, class)
	}
	if p.obs.Active() {
		p.obs.Report(actx, observe.AttemptEnd{Target: name, Attempt: number, Hedge: hedge, Duration: elapsed,
			Failed: true, Class: class, Abandoned: abandoned}, err)
	}
	d := c.decide(number, class, err, m)
	return r, c.conclude(number, elapsed, err, class, d)
}

// pass is what an attempt passed on its way to its target: the breaker of
// a plain pipeline it reports to, or its ticket on the member of a pool it
// goes to, and the slot it took in the pipeline's own concurrency limit
// (nil if none).
type pass struct {
	breaker *breaker.Breaker
	ticket  pool.Ticket
	release func()
}

// record reports the attempt's outcome to its breaker or, in a pool, to its
// member (see [pool.Ticket.Record]).
func (g *pass) record(o breaker.Outcome, elapsed time.Duration) {
	if g.ticket.Member() != nil {
		g.ticket.Record(o, elapsed)
	} else if g.breaker != nil {
		g.breaker.Record(o)
	}
}

// done gives back what the attempt holds, once its function has returned
// (or when it was refused before it started).
func (g *pass) done() {
	g.ticket.Done()
	if g.release != nil {
		g.release()
	}
}

// The classes of attempts refused by a limit of the caller's own.
var (
	rateLimitClass   = taxonomy.Class{Kind: taxonomy.RateLimited, Rule: "client-side rate limit"}
	concurrencyClass = taxonomy.Class{Kind: taxonomy.Overloaded, Rule: "concurrency limit"}
)

// admit passes attempt number through the gates before its target: the
// rate limiter, the concurrency limit, then the breaker or, for a pool, the
// choice of a member and that member's gates; a pool's attempt that finds
// no member ready waits for the first cooldown to end before all of them,
// holding none of the pool's slots. A refusal is concluded here:
// admit returns its error. The slots taken are given back by the pass's
// done, which the attempt's runner calls when the function returns, or
// here on a refusal.
func (c *call[R]) admit(ctx context.Context, number int) (pass, error) {
	p := c.p
	slept := false // waited for a member of a pool to end its cooldown
	if p.pool != nil && (p.cfg.limiter != nil || p.sem != nil) {
		// Without limits of the pool's own, toMember does this wait itself.
		var err error
		if slept, err = c.beforeMember(ctx, number); err != nil {
			return pass{}, err
		}
	}
	if l := p.cfg.limiter; l != nil {
		if err := l.Acquire(ctx, 1); err != nil {
			return pass{}, c.refuseGate(number, ctx, err, rateLimitClass,
				&decision{reason: observe.ReasonRateLimit, detail: "the rate limiter refused the attempt", refused: true})
		}
	}
	g := pass{breaker: p.breaker}
	if p.sem != nil {
		release, err := p.sem.Acquire(ctx, p.cfg.semWait)
		if err != nil {
			return pass{}, c.refuseGate(number, ctx, err, concurrencyClass, &decision{reason: observe.ReasonConcurrency,
				detail: fmt.Sprintf("no slot freed up within %v", p.cfg.semWait), refused: true})
		}
		g.release = release
	}
	if p.pool != nil {
		t, err := c.toMember(ctx, number, slept)
		if err != nil {
			g.done()
			return pass{}, err
		}
		c.setTarget(number, t.Member().Name())
		g.ticket = t
		return g, nil
	}
	if p.breaker != nil && !p.breaker.TryAcquire() {
		g.done()
		return pass{}, c.conclude(number, 0, circuitbreaker.ErrOpen, taxonomy.Class{Kind: taxonomy.Overloaded, Rule: "circuit open"},
			c.decideOpen(number))
	}
	return g, nil
}

// refuseGate concludes attempt number, which a gate refused with err: as
// the caller giving up when ctx ended, else with class and d.
func (c *call[R]) refuseGate(number int, ctx context.Context, err error, class taxonomy.Class, d *decision) error {
	if ctx.Err() != nil {
		class := c.classify(err, false, ctx)
		return c.conclude(number, 0, err, class, c.decide(number, class, err, nil))
	}
	return c.conclude(number, 0, err, class, d)
}

// Attempt states, for the handover between the waiting caller and the
// function's goroutine (see [runner]).
const (
	attemptRunning int32 = iota
	attemptReturned
	attemptAbandoned
)

// runner is one attempt's handover between the caller and the function's
// goroutine. The attempt has one context, the function's: it ends at the
// attempt timeout, with the caller's (or a hedge's) context, by
// [State.End], and when the function returns, so the caller waits on it
// alone. Whichever of the caller and the goroutine moves state first
// decides whether the function's result stands or is discarded.
type runner[R any] struct {
	c       *call[R]
	ctx     context.Context // the attempt's context, which the function gets
	cancel  context.CancelFunc
	attempt int  // its number
	held    pass // what the attempt holds: given back when the function returns
	state   atomic.Int32
	r       R
	err     error
	ended   atomic.Pointer[error] // State.End's error, if it ended the attempt
	stop    time.Time             // when the caller stopped waiting; written before state leaves attemptRunning
}

// runner returns the runner of attempt number: the first attempt's is part
// of the call, so a call that succeeds at once allocates none.
func (c *call[R]) runner(number int) *runner[R] {
	if number == 1 {
		c.first.c = c
		return &c.first
	}
	return &runner[R]{c: c}
}

// run calls the function on a goroutine of its own, with a context that
// ends at deadline (none when zero), and waits for it or for the end of the
// context, whichever comes first. When the context ends first the attempt
// is abandoned: run returns at once with an *[AbandonedError], and the
// function's result, whenever it comes, is discarded and reported as a
// [observe.LateResult]. Even a context that cannot end otherwise can be
// ended by [State.End], so the function never runs on the caller's
// goroutine. held is given back once the function has returned (or
// panicked), before its result is handed over, abandoned or not: the
// attempt's slots in concurrency limits are held exactly as long as its
// work runs.
func (a *runner[R]) run(parent context.Context, deadline time.Time, s State, held pass) (R, error, bool) {
	if !deadline.IsZero() {
		a.ctx, a.cancel = context.WithDeadline(parent, deadline)
	} else {
		a.ctx, a.cancel = context.WithCancel(parent)
	}
	s.End = a.end
	a.attempt, a.held = s.Attempt, held
	done := a.ctx.Done()
	// The goroutine's first frame holds the State passed to fn: captured,
	// it is copied once, where a field of a would be copied twice (the
	// compiler copies it to a temporary first), and the stack, 2 KiB when
	// the goroutine starts, is left to fn.
	fn, ctx := a.c.fn, a.ctx
	go func() {
		defer a.handover()
		a.r, a.err = fn(ctx, s)
	}()
	<-done
	a.stop = time.Now()
	if !a.state.CompareAndSwap(attemptRunning, attemptAbandoned) {
		return a.r, a.err, false // the function returned (as the context ended, maybe): its result stands
	}
	cause := context.Cause(a.ctx)
	if e := a.ended.Load(); e != nil {
		cause = *e
	}
	a.c.p.abandoned.Add(1) // until the function returns
	var zero R
	return zero, &AbandonedError{Cause: cause}, true
}

// handover ends the function's goroutine: a panic becomes a *[PanicError],
// so that no slot or goroutine is leaked and the caller's program
// survives; the slots are given back; the result goes to the caller, or is
// reported late if the caller abandoned the attempt.
func (a *runner[R]) handover() {
	if v := recover(); v != nil {
		var zero R
		a.r, a.err = zero, &PanicError{Value: v, Stack: debug.Stack()}
	}
	a.held.done() // the function returned: its slots are free, abandoned or not
	// a.r and a.err are read by the caller only if this swap succeeds.
	if a.state.CompareAndSwap(attemptRunning, attemptReturned) {
		a.cancel() // wakes the caller
		if f := a.c.returned; f != nil {
			f(true)
		}
		return
	}
	if f := a.c.returned; f != nil {
		f(false)
	}
	a.c.p.abandoned.Add(-1)
	a.c.late(a.ctx, a.attempt, time.Since(a.stop), a.err)
}

// end is the attempt's [State.End]: it ends the attempt's context, and err
// becomes the attempt's failure, unless the context had ended already.
func (a *runner[R]) end(err error) {
	if err == nil || a.ctx.Err() != nil {
		return
	}
	a.ended.CompareAndSwap(nil, &err)
	a.cancel()
}

// late reports the result of an abandoned attempt, which is discarded.
func (c *call[R]) late(ctx context.Context, attempt int, late time.Duration, err error) {
	if c.p.obs.Active() {
		c.mu.Lock()
		target := cmp.Or(c.attempts[attempt-1].Target, c.p.name) // the member of a pool it went to
		c.mu.Unlock()
		c.p.obs.Report(ctx, observe.LateResult{Target: target, Attempt: attempt, Late: late, Failed: err != nil}, err)
	}
}

// AbandonedError is the failure of an attempt whose function had not
// returned when the attempt's time ran out, its caller gave up, a hedge won
// or the function ended it (see [State.End]): the pipeline went on without
// it. Cause is the reason the attempt's context ended.
type AbandonedError struct {
	Cause error
}

// Error says the attempt was abandoned, and why.
func (e *AbandonedError) Error() string {
	return "middleware: attempt abandoned: " + e.Cause.Error()
}

// Unwrap returns the cause.
func (e *AbandonedError) Unwrap() error { return e.Cause }

// classify consults the caller's context first: a caller that gave up makes
// the attempt canceled whatever the error says (langchaingo's openai client
// replaces context errors with fixed strings; ollama reports a dropped stream
// as success). Then the call's own deadline, then the attempt timeout, then
// the classifier.
func (c *call[R]) classify(err error, timedOut bool, attemptParent context.Context) taxonomy.Class {
	if c.caller.Err() != nil {
		if errors.Is(c.caller.Err(), context.DeadlineExceeded) {
			return taxonomy.Class{Kind: taxonomy.Canceled, Rule: "caller deadline exceeded"}
		}
		return taxonomy.Class{Kind: taxonomy.Canceled, Rule: "caller canceled"}
	}
	if c.expired() {
		return taxonomy.Class{Kind: taxonomy.Transient, Rule: ruleMaxDuration}
	}
	if timedOut {
		return taxonomy.Class{Kind: taxonomy.Transient, Rule: ruleAttemptTimeout}
	}
	if attemptParent.Err() != nil {
		// A hedge won and canceled this attempt: it says nothing about the target.
		return taxonomy.Class{Kind: taxonomy.Canceled, Rule: "superseded by a hedge"}
	}
	return c.userClassify(err)
}

// userClassify runs the configured classifier, which a user may have
// written: a panic in it becomes a programming failure, not a crash.
func (c *call[R]) userClassify(err error) (class taxonomy.Class) {
	defer func() {
		if v := recover(); v != nil {
			class = taxonomy.Class{Kind: taxonomy.Programming, Rule: fmt.Sprintf("classifier panicked: %v", v)}
		}
		if len(class.Rule) > redact.MaxText {
			// A rule travels to every event, log line and span: a few
			// words, or bounded.
			class.Rule = redact.Keep(class.Rule, nil)
		}
	}()
	return c.p.cfg.classifier.Classify(err)
}

// healthOf says what a failed attempt tells the breaker: only failures that
// say something about the target's health count. A request rejected for its
// own content (permanent, context overflow) shows the target is up; a rate
// limit is about the caller's account, and its Retry-After is honoured by the
// retry (or, over the cap, holds the breaker open by itself).
func healthOf(class taxonomy.Class, err error) breaker.Outcome {
	switch class.Kind {
	case taxonomy.Canceled, taxonomy.RateLimited:
		return breaker.NoEvidence
	case taxonomy.Permanent, taxonomy.ContextOverflow:
		return breaker.Healthy
	case taxonomy.Programming:
		var pe *PanicError
		if errors.As(err, &pe) {
			return breaker.Unhealthy // a panicking target is broken
		}
		return breaker.NoEvidence
	}
	return breaker.Unhealthy
}

// conclude records the attempt and returns the error the retry policy sees.
func (c *call[R]) conclude(number int, elapsed time.Duration, err error, class taxonomy.Class, d *decision) error {
	obs := c.p.obs
	c.mu.Lock()
	a := &c.attempts[number-1]
	a.Duration, a.Err, a.Class = elapsed, err, class
	target := c.p.name
	if a.Target != "" {
		target = a.Target // the member of a pool the attempt went to
	}
	if d.retry {
		c.nextWait, c.nextPast = d.wait, d.pastLimit
		if d.wait > 0 && d.source != taxonomy.WaitBackoff && d.source != taxonomy.WaitProbe && c.hinting.CompareAndSwap(false, true) {
			c.p.hinted.Add(1) // until the next attempt starts, or the call ends
		}
		if obs.Active() { // reported when the retry starts
			c.retrying = &retrying{event: observe.RetryScheduled{Target: target, Attempt: number, Wait: d.wait, Source: d.source,
				Class: class, PastLimit: d.pastLimit}, err: err}
		}
	}
	c.mu.Unlock()
	if d.refused && obs.Active() {
		obs.Observe(c.caller, observe.Refusal{Target: target, Reason: d.reason})
	}
	d.err = err
	return d
}

// hintDone ends the call's wait on a provider's hint, if it was waiting
// on one when it ended.
func (c *call[R]) hintDone() {
	if c.hinting.Load() && c.hinting.Swap(false) {
		c.p.hinted.Add(-1)
	}
}

// finish builds the final error from the retry's result.
func (c *call[R]) finish(err error) error {
	p := c.p
	c.mu.Lock()
	attempts := make([]Attempt, 0, len(c.attempts))
	for _, a := range c.attempts {
		if a.Err != nil || a.Duration > 0 {
			attempts = append(attempts, a)
		}
	}
	c.mu.Unlock()

	for i := range attempts {
		// Rendered once: a provider's error text may be huge, and Error
		// may be called many times.
		attempts[i].text = describe(attempts[i].Err)
	}
	final := &Error{Target: p.name, Attempts: attempts}
	d := decisionOf(err)
	if c.caller.Err() != nil {
		final.Reason = observe.ReasonCanceled
		if errors.Is(c.caller.Err(), context.DeadlineExceeded) {
			final.Detail = "caller deadline exceeded"
		}
		final.cause = canceledCause(c.caller)
	} else if c.expired() && (d == nil || d.retry) {
		final.Reason, final.Detail = observe.ReasonDeadline, c.expiry()
		if !c.given.IsZero() && !time.Now().Before(c.given) {
			// The caller's deadline given with Deadline passed, as its
			// context's would have.
			final.cause = context.DeadlineExceeded
		}
	} else if d != nil {
		if inner := d.inner; inner != nil && len(attempts) == 1 {
			// An inner layer of this library already decided: pass its
			// diagnosis through rather than wrapping it again.
			if p.obs.Active() {
				p.obs.Observe(c.caller, observe.GaveUp{Target: p.name, Reason: inner.Reason, Attempts: 1,
					Class: inner.Class(), PassedThrough: true})
			}
			return inner
		}
		final.Reason, final.Detail = d.reason, d.detail
		if d.callerDeadline {
			final.cause = context.DeadlineExceeded
		}
	} else {
		// A failsafe policy added with Policies rejected the attempt.
		final.Reason = observe.ReasonRejected
		final.Attempts = append(final.Attempts, Attempt{Number: len(attempts) + 1, Err: err,
			Class: taxonomy.Class{Kind: taxonomy.Unknown, Rule: "rejected by a policy"}})
	}
	if p.obs.Active() && !(c.repairsOverflow && final.Reason == observe.ReasonContextOverflow) {
		p.obs.Report(c.caller, observe.GaveUp{Target: p.name, Reason: final.Reason, Attempts: len(final.Attempts),
			Class: final.Class()}, final.Last())
	}
	return final
}
