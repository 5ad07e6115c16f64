package observe

import (
	"context"
	"log/slog"
	"strconv"
	"time"

	"github.com/failsafe-go/failsafe-go/circuitbreaker"

	"github.com/resilientgo/resilient/taxonomy"
)

// Observer receives every decision of the pipelines, models and tools it is
// installed on, as typed events: the one seam through which metrics, traces
// and logs see the library. It is modelled on grpc's stats.Handler: Start is
// called before a call and before each attempt and may return a derived
// context (a tracer puts its span there, where the provider client and an
// otelhttp transport will find it); Observe receives small event values
// through one method, so a new kind of event never breaks an
// implementation. Observers that do not know an event ignore it.
//
// Install observers with middleware.Observe (or resilient.Observe); [Log] is the
// observer that writes the library's slog lines. Events carry names of
// targets, kinds, reasons, counts and durations, never message texts: error
// texts may hold secrets. Observers are called on the goroutine of the call,
// without any lock of the library held, and must be safe for concurrent use
// and quick: a slow observer slows every call. A panic in an observer is
// recovered and the event dropped.
type Observer interface {
	// Start is called when a logical call starts (s.Attempt == 0) and when
	// each of its attempts starts. It returns the context the call or
	// attempt runs with: ctx itself or one derived from it, never nil.
	Start(ctx context.Context, s Start) context.Context
	// Observe receives one event with the context of the call or attempt it
	// belongs to, as returned by Start.
	Observe(ctx context.Context, e Event)
}

// Target describes what a call is made to, for observers. Name is what
// errors and logs call it; the other fields are empty when unknown.
type Target struct {
	// Name is unique among the targets of one call: "openai/gpt-4o",
	// "lookup_order".
	Name string
	// Operation is the GenAI operation: "chat", "embeddings",
	// "execute_tool"; empty for a plain pipeline.
	Operation string
	// Provider names the provider: "openai", "anthropic", "ollama".
	Provider string
	// Model names the model requested: "gpt-4o".
	Model string
}

// The operations of [Target.Operation], as the OpenTelemetry GenAI
// conventions name them.
const (
	OperationChat        = "chat"
	OperationEmbeddings  = "embeddings"
	OperationExecuteTool = "execute_tool"
)

// Start describes what is starting: a logical call or one of its attempts.
type Start struct {
	// Target is the call's target: for an attempt, the model or tool the
	// attempt is made to (a fallback's attempts name the fallback).
	Target Target
	// Attempt is 0 for the logical call (a model call with its fallbacks, a
	// tool call) and counts a pipeline's attempts from 1.
	Attempt int
	// Hedge is true for an attempt started beside another (see middleware.Hedge).
	Hedge bool
}

// Event is one of the event types of this package: [CallEnd], [AttemptEnd],
// [LateResult], [RetryScheduled], [Recovered], [GaveUp], [BreakerChange],
// [Refusal], [Cooldown], [Suspended], [Fallback], [Hedged], [Compacted], [StreamRestarted],
// [BatchSplit], [IdempotentReplay], [LeaseLost], [StoreFailed], [HungCall], [ToolProgress],
// [ServerLog], [SharedStateUnavailable], [SharedStateRestored]. More may be
// added.
type Event interface{ event() }

// CallEnd ends a logical call: a model call with its fallbacks, a tool call,
// or a pipeline's Do when no adapter started a call around it.
type CallEnd struct {
	Target   Target
	Attempts int           // attempts made, across fallbacks
	Duration time.Duration // from Start to the end, waits included
	// Reason says how the call ended: zero when the target answered,
	// [ReasonReplayed] for a repeat an idempotent tool answered from its
	// store; else why it stopped, for a model call as its final error
	// says, for a tool call as the model reads it (a tool error, an
	// internal failure, the run stopped...). Class is the last failure's.
	Reason Reason
	Class  taxonomy.Class
	// Type is the Go type of a tool's internal failure ("panic" for a
	// panic), for ReasonInternal and ReasonTimeout; what the model reads of
	// it.
	Type string
	// InputTokens and OutputTokens are the usage the provider reported for
	// a model call, 0 when it reported none.
	InputTokens, OutputTokens int
}

// AttemptEnd ends one attempt.
type AttemptEnd struct {
	Target   string
	Attempt  int
	Hedge    bool
	Duration time.Duration
	// Failed is true when the attempt failed; Class says how.
	Failed bool
	Class  taxonomy.Class
	// Abandoned is true when the attempt's time ran out (or its caller gave
	// up) before the called function returned: the pipeline went on without
	// it, and a [LateResult] follows when it returns.
	Abandoned bool
}

// LateResult reports that the function of an abandoned attempt returned:
// its result was discarded. Late is how long after the abandonment it came.
// Target names the member of a pool the attempt went to, as [AttemptEnd]
// does.
type LateResult struct {
	Target  string
	Attempt int
	Late    time.Duration
	Failed  bool // the late result was an error (or a panic)
}

// RetryScheduled reports that a failed attempt is being retried: it is sent
// when the retry starts, after Wait, so never for a retry that did not go
// out (the caller gave up, or a deadline passed, during the wait).
type RetryScheduled struct {
	Target  string
	Attempt int // the attempt that failed
	Wait    time.Duration
	Source  taxonomy.WaitSource
	Class   taxonomy.Class
	// PastLimit is true for a retry past the kind's attempt limit, paid
	// from the run's unspent retry budget (middleware.PastLimitAttempts).
	PastLimit bool
}

// Recovered reports a pipeline call that succeeded after failed attempts.
type Recovered struct {
	Target   string
	Attempts int
}

// GaveUp reports a pipeline call that stopped without success.
type GaveUp struct {
	Target   string
	Reason   Reason
	Attempts int
	Class    taxonomy.Class // the last attempt's
	// PassedThrough is true when an inner layer of this library had already
	// given up and its error was returned unchanged.
	PassedThrough bool
}

// BreakerState is the state of a circuit breaker (package breaker), as
// [BreakerChange] reports it.
type BreakerState = circuitbreaker.State

// The breaker states.
const (
	BreakerClosed   = circuitbreaker.ClosedState
	BreakerOpen     = circuitbreaker.OpenState
	BreakerHalfOpen = circuitbreaker.HalfOpenState
)

// BreakerStateName names a breaker state as the metrics, the span events
// and the status endpoint do: "closed", "half_open", "open" (failsafe-go's
// String says "half-open").
func BreakerStateName(s BreakerState) string {
	switch s {
	case BreakerOpen:
		return "open"
	case BreakerHalfOpen:
		return "half_open"
	}
	return "closed"
}

// BreakerChange reports a circuit breaker's change of state.
type BreakerChange struct {
	Target   string // the breaker's name
	From, To BreakerState
}

// Refusal reports a call or attempt refused before any request was sent.
type Refusal struct {
	Target string
	// Reason is what refused it: ReasonBudgetSpent, ReasonThrottled,
	// ReasonRateLimit, ReasonUsageLimit, ReasonCircuitOpen or
	// ReasonConcurrency.
	Reason Reason
}

// Cooldown reports that a member of a pool (see middleware.Members) answered with a
// wait hint (a Retry-After, a rate-limit reset) and gets no attempt for
// Wait: the pool sends its calls to the other members meanwhile.
type Cooldown struct {
	Target string // the member
	Wait   time.Duration
}

// Suspended reports that a member of a pool (see middleware.Members) failed for
// its account or deployment (taxonomy.Class.AccountFailure: a key refused,
// a quota used up, a deployment missing) and is out of rotation for For,
// its middleware.MaxHold: its circuit is held open that long (a [BreakerChange]
// reports it opening), or, without a breaker, it gets no attempt. Class is
// the failure's. It is sent once each time the member goes out of
// rotation, not for each call in flight there that fails the same way.
type Suspended struct {
	Target string // the member
	For    time.Duration
	Class  taxonomy.Class
}

// Fallback reports that a model call moves on to its next fallback.
type Fallback struct {
	Target string // the model that gave up
	To     string // the fallback
	Class  taxonomy.Class
}

// Hedged reports a hedged attempt starting beside a slow one.
type Hedged struct {
	Target  string
	Attempt int
}

// Compacted reports a request shrunk after a context overflow.
type Compacted struct {
	Target        string
	Before, After int // messages
}

// StreamRestarted reports a stream retried after it had delivered chunks.
// Target names where the stream broke: the model, or the member of a pool.
type StreamRestarted struct {
	Target string
	Chunks int // chunks the failed attempt had delivered
}

// BatchSplit reports a batch of embedding inputs rejected as too large and
// split in two, each half sent on its own.
type BatchSplit struct {
	Target string
	Texts  int // the texts of the batch that was split
}

// IdempotentReplay reports a repeated idempotent tool call answered from
// its store without running the tool.
type IdempotentReplay struct {
	Tool string
	Key  string // the idempotency key (a hash, not the input)
}

// LeaseLost reports an idempotent call whose claim on its key passed to
// another owner before it finished.
type LeaseLost struct {
	Tool string
	Key  string
}

// StoreFailed reports an idempotency store that could not be reached. When
// it failed to claim the key, the tool did not run; when it failed to store
// a result or release a claim, the key stays in flight until its lease
// ends.
type StoreFailed struct {
	Tool string
	Key  string
}

// HungCall reports an idempotent call whose tool still ran when its
// claim's maximum lifetime (Held) ended: its holder stopped renewing the
// claim and marked the key's record as of unknown outcome, so that a call
// with the same key ends its run instead of running the tool again.
type HungCall struct {
	Tool string
	Key  string
	Held time.Duration
}

// ToolProgress reports a progress notification of a tool call in flight,
// as an MCP server sends it (notifications/progress; package
// resilientmcp). The server's message, a text, goes to the log observer
// alone, redacted, as an error's text does: it is the error of
// [Observers.Report].
type ToolProgress struct {
	Server   string  // the tool server's name
	Tool     string  // the tool called; empty when the call is not one of this library's
	Progress float64 // the progress so far
	Total    float64 // the total, 0 when unknown
}

// ServerLog reports a log message of a tool server (an MCP server's
// notifications/message; package resilientmcp) at the slog level matching
// the server's. The message's data goes to the log observer alone,
// redacted, like a ToolProgress's message.
type ServerLog struct {
	Server string     // the tool server's name
	Logger string     // the name of the server's logger that sent it, if any
	Level  slog.Level // the server's level, as slog's
}

// SharedStateUnavailable reports that a feature keeping its state in a
// store shared by the replicas of a service (package resilientredis: an
// idempotency store, a rate limiter, a circuit breaker's shared state, a
// semaphore) can no longer reach it, and what it does meanwhile. It is
// sent once, at the first failed round trip after a success (or at the
// first one of all), not for each failure; a [SharedStateRestored] follows
// at the first round trip that succeeds again. The failure itself goes to
// the log observer alone, redacted, as an error's text does (it is the
// error of [Observers.Report]).
type SharedStateUnavailable struct {
	Feature string // "store", "limiter", "breaker" or "semaphore"
	// Key is the shared key the feature could not reach ("prefix*" for a
	// store), redacted: a key is the program's text, not a secret, but
	// credentials pasted into it are removed.
	Key string
	// Action is what the feature does until the shared state is back, one
	// of a small set, fit for a metric's attribute.
	Action SharedStateAction
	// Detail says the same in words for a log line, for instance
	// "admitting up to 8 at once in this process": text made by the
	// feature from its settings, never an error's text.
	Detail string
}

// SharedStateRestored reports that a feature reached its shared state again
// after a [SharedStateUnavailable]: it works across the replicas again.
type SharedStateRestored struct {
	Feature string
	Key     string
	Down    time.Duration // since the SharedStateUnavailable
}

// SharedState is what a feature keeping its state in a store shared by the
// replicas of a service knows of that store at a moment: the SharedState
// method of package resilientredis's Store, Limiter, SharedBreaker and
// Semaphore returns it, and package status lists it.
type SharedState struct {
	Feature string // "store", "limiter", "breaker" or "semaphore"
	Key     string // as in [SharedStateUnavailable], redacted
	// Reachable is false from a failed round trip to the store until one
	// succeeds again (true before the first).
	Reachable bool
	// Action is what the feature does while the store is unreachable: in
	// force when Reachable is false. Detail says it in words.
	Action SharedStateAction
	Detail string
	// Down is how long the store has been unreachable, 0 while reachable.
	Down time.Duration
	// Err is the last failure to reach it, nil while reachable. Its text is
	// the client's: redact it before showing it (package status does).
	Err error
}

// SharedStateAction says what a feature does while the store it shares
// state through is unavailable (see [SharedStateUnavailable]).
type SharedStateAction uint8

// The actions of a [SharedStateUnavailable].
const (
	// SharedFailOpen admits without the shared limit: a rate limiter lets
	// every attempt through.
	SharedFailOpen SharedStateAction = iota + 1
	// SharedLocal works on local state alone: a semaphore admits up to its
	// n slots in each process, a shared breaker opens and closes on its own
	// evidence.
	SharedLocal
	// SharedFailClosed refuses what needs the shared state: an idempotency
	// store's tool calls fail without running; a rate limiter or a
	// semaphore built to fail closed refuses every attempt.
	SharedFailClosed
)

var sharedActionNames = [...]string{"", "fail_open", "local", "fail_closed"}

// String returns the action's lowercase name, e.g. "fail_open".
func (a SharedStateAction) String() string {
	if a != 0 && int(a) < len(sharedActionNames) {
		return sharedActionNames[a]
	}
	return "action(" + strconv.Itoa(int(a)) + ")"
}

func (CallEnd) event()          {}
func (AttemptEnd) event()       {}
func (LateResult) event()       {}
func (RetryScheduled) event()   {}
func (Recovered) event()        {}
func (GaveUp) event()           {}
func (BreakerChange) event()    {}
func (Refusal) event()          {}
func (Cooldown) event()         {}
func (Suspended) event()        {}
func (Fallback) event()         {}
func (Hedged) event()           {}
func (Compacted) event()        {}
func (StreamRestarted) event()  {}
func (BatchSplit) event()       {}
func (IdempotentReplay) event() {}
func (LeaseLost) event()        {}
func (StoreFailed) event()      {}
func (HungCall) event()         {}
func (ToolProgress) event()     {}
func (ServerLog) event()        {}

func (SharedStateUnavailable) event() {}
func (SharedStateRestored) event()    {}

// Observers is a set of observers, called in order. The zero value has none
// and costs nothing: the adapters of this library check [Observers.Active]
// before they build an event.
type Observers []Observer

// Active reports whether any observer is installed.
func (os Observers) Active() bool { return len(os) > 0 }

// Start calls every observer's Start in order, each with the context the
// previous one returned.
func (os Observers) Start(ctx context.Context, s Start) context.Context {
	for _, o := range os {
		ctx = startSafely(o, ctx, s)
	}
	return ctx
}

// Observe sends e to every observer.
func (os Observers) Observe(ctx context.Context, e Event) { os.Report(ctx, e, nil) }

// Report sends e to every observer, and err with it to the library's log
// observer ([Log]) alone, which writes it redacted: other observers never
// see error texts.
func (os Observers) Report(ctx context.Context, e Event, err error) {
	for _, o := range os {
		observeSafely(o, ctx, e, err)
	}
}

// errorObserver is implemented by the library's own log observer: it
// receives the error behind an event, which other observers do not.
type errorObserver interface {
	observeError(ctx context.Context, e Event, err error)
}

func startSafely(o Observer, ctx context.Context, s Start) (out context.Context) {
	out = ctx
	defer func() {
		if recover() != nil {
			out = ctx
		}
	}()
	if derived := o.Start(ctx, s); derived != nil {
		return derived
	}
	return ctx
}

func observeSafely(o Observer, ctx context.Context, e Event, err error) {
	defer func() { _ = recover() }()
	if eo, ok := o.(errorObserver); ok {
		eo.observeError(ctx, e, err)
		return
	}
	o.Observe(ctx, e)
}

// callKey marks a context whose logical call an adapter already started, so
// that a pipeline under it reports attempts only.
type callKey struct{}

// StartCall starts a logical call: it calls every observer's Start with
// Attempt 0 and marks the context, so that the pipelines called with it
// report their attempts as part of this call instead of starting one of
// their own. Adapters (models, tools) call it; end the call with a
// [CallEnd] event. Without observers it returns ctx unchanged.
func (os Observers) StartCall(ctx context.Context, t Target) context.Context {
	if !os.Active() {
		return ctx
	}
	ctx = os.Start(ctx, Start{Target: t})
	return context.WithValue(ctx, callKey{}, true)
}

// InCall reports whether ctx belongs to a logical call that an adapter
// started with [Observers.StartCall]: a pipeline called with it reports its
// attempts as part of that call instead of starting one of its own.
func InCall(ctx context.Context) bool {
	v, _ := ctx.Value(callKey{}).(bool)
	return v
}
