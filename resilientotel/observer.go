package resilientotel

import (
	"context"

	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/metric"
	semconv "go.opentelemetry.io/otel/semconv/v1.41.0"
	"go.opentelemetry.io/otel/trace"

	"github.com/resilientgo/resilient/observe"
)

// scope is the instrumentation scope of the observer's tracer and meter.
const scope = "github.com/resilientgo/resilient/resilientotel"

// Observer is a observe.Observer that turns the library's events into
// OpenTelemetry spans and metrics, as the package documentation describes.
// Install it with resilient.Observe on every model and tool of a program;
// one Observer serves them all. It is safe for concurrent use.
type Observer struct {
	tracer   trace.Tracer
	in       *instruments
	sets     *cache[setKey, *measurement]
	targets  *cache[observe.Target, *targetInfo]
	breakers *breakers
}

var _ observe.Observer = (*Observer)(nil)

// New returns an Observer recording to the global tracer and meter
// providers, or to those set with [TracerProvider] and [MeterProvider].
// The resilient.breaker.state gauge registers a callback with the meter
// provider, which holds it as long as the provider lives: make one
// Observer per provider and share it rather than one per call.
func New(opts ...Option) *Observer {
	cfg := config{maxBreakers: DefaultMaxBreakers}
	for _, opt := range opts {
		if opt != nil {
			opt(&cfg)
		}
	}
	if cfg.tracerProvider == nil {
		cfg.tracerProvider = otel.GetTracerProvider()
	}
	if cfg.meterProvider == nil {
		cfg.meterProvider = otel.GetMeterProvider()
	}
	o := &Observer{
		tracer:   cfg.tracerProvider.Tracer(scope, trace.WithSchemaURL(semconv.SchemaURL)),
		breakers: newBreakers(cfg.maxBreakers),
		sets:     newSlottedCache(maxSets, int(numInstruments), setKey.slot, newMeasurement),
		targets:  newCache(maxTargets, newTargetInfo),
	}
	meter := cfg.meterProvider.Meter(scope, metric.WithSchemaURL(semconv.SchemaURL))
	o.in = newInstruments(meter)
	if _, err := meter.RegisterCallback(o.observeBreakers, o.in.breaker); err != nil {
		otel.Handle(err)
	}
	return o
}

// Start starts the span of a logical call (s.Attempt == 0) or of one of
// its attempts, and returns ctx with it: the provider client, and an
// otelhttp transport under it, receive the attempt's context, so their
// spans are children of the attempt's.
func (o *Observer) Start(ctx context.Context, s observe.Start) context.Context {
	if s.Attempt == 0 {
		return o.startCall(ctx, s.Target)
	}
	return o.startAttempt(ctx, s)
}

// Observe records e: a measurement on the matching instrument, and an
// attribute, a span's end or an event on the span of its call or attempt.
// Events of other types are ignored.
func (o *Observer) Observe(ctx context.Context, e observe.Event) {
	switch e := e.(type) {
	case observe.AttemptEnd:
		o.attemptEnd(ctx, e)
	case observe.RetryScheduled:
		o.retry(ctx, e)
	case observe.CallEnd:
		o.callEnd(ctx, e)
	case observe.GaveUp:
		if c := o.callFrom(ctx); c != nil {
			c.release(e.Target)
			c.event(eventGaveUp, keyTarget.String(e.Target), keyReason.String(e.Reason.String()),
				keyAttempts.Int(e.Attempts))
		}
	case observe.BreakerChange:
		o.breakers.set(e.Target, breakerStateValue(e.To))
		state := observe.BreakerStateName(e.To)
		// No span event: a breaker belongs to no one call, and its changes
		// come without a call's context.
		o.add(ctx, o.in.transitions, setKey{inst: instTransitions, v: [4]string{e.Target, state}})
	case observe.Cooldown:
		o.cooldown(ctx, e)
	case observe.Suspended:
		o.suspended(ctx, e)
	case observe.Refusal:
		reason := e.Reason.String()
		o.add(ctx, o.in.refusals, setKey{inst: instRefusals, v: [4]string{e.Target, reason}})
		o.event(ctx, eventRefusal, keyTarget.String(e.Target), keyReason.String(reason))
	case observe.Fallback:
		kind := e.Class.Kind.String()
		o.add(ctx, o.in.fallbacks, setKey{inst: instFallbacks, v: [4]string{e.Target, e.To, kind}})
		o.event(ctx, eventFallback, keyTarget.String(e.Target), keyFallback.String(e.To), keyErrorType.String(kind))
	case observe.Hedged:
		o.add(ctx, o.in.hedges, setKey{inst: instHedges, v: [4]string{e.Target}})
		o.event(ctx, eventHedge, keyTarget.String(e.Target), keyAttempt.Int(e.Attempt))
	case observe.Compacted:
		o.event(ctx, eventCompaction, keyTarget.String(e.Target), keyBefore.Int(e.Before), keyAfter.Int(e.After))
	case observe.StreamRestarted:
		o.event(ctx, eventRestart, keyTarget.String(e.Target), keyChunks.Int(e.Chunks))
	case observe.IdempotentReplay:
		o.event(ctx, eventReplay, keyToolName.String(e.Tool))
	case observe.LeaseLost:
		o.event(ctx, eventLeaseLost, keyToolName.String(e.Tool))
	case observe.StoreFailed:
		o.event(ctx, eventStoreFailed, keyToolName.String(e.Tool))
	case observe.SharedStateUnavailable:
		// Metrics only, as for a breaker: Redis belongs to no one call.
		o.add(ctx, o.in.unavailable, setKey{inst: instUnavailable, v: [4]string{e.Feature, e.Action.String()}})
	case observe.SharedStateRestored:
		o.in.downtime.Record(ctx, e.Down.Seconds(), o.sets.get(setKey{inst: instDowntime, v: [4]string{e.Feature}}).record...)
	}
}

// add adds one to c with the attribute set of k.
func (o *Observer) add(ctx context.Context, c metric.Int64Counter, k setKey) {
	c.Add(ctx, 1, o.sets.get(k).add...)
}

// event adds an event to the span of the call ctx belongs to, if any.
func (o *Observer) event(ctx context.Context, name string, attrs ...attribute.KeyValue) {
	if c := o.callFrom(ctx); c != nil {
		c.event(name, attrs...)
	}
}

func (o *Observer) attemptEnd(ctx context.Context, e observe.AttemptEnd) {
	k := setKey{inst: instAttempts, v: [4]string{e.Target, "ok"}}
	if e.Failed {
		k.v[1], k.v[2] = "failed", e.Class.Kind.String()
	}
	o.add(ctx, o.in.attempts, k)
	if a := o.attemptFrom(ctx); a != nil {
		a.end(e)
	}
}

func (o *Observer) retry(ctx context.Context, e observe.RetryScheduled) {
	source, kind := e.Source.String(), e.Class.Kind.String()
	o.add(ctx, o.in.retries, setKey{inst: instRetries, v: [4]string{e.Target, kind, source}})
	o.in.retryWait.Record(ctx, e.Wait.Seconds(), o.sets.get(setKey{inst: instRetryWait, v: [4]string{e.Target, source}}).record...)
	if c := o.callFrom(ctx); c != nil {
		c.retry(e, source)
	}
}

func (o *Observer) callEnd(ctx context.Context, e observe.CallEnd) {
	t := o.targets.get(e.Target)
	errorType := failureType(e)
	switch {
	case t.model:
		o.in.duration.Inst().Record(ctx, e.Duration.Seconds(), o.sets.get(setKey{inst: instDuration,
			v: [4]string{e.Target.Operation, t.provider, e.Target.Model, errorType}}).record...)
		o.recordTokens(ctx, t, e.Target, "input", e.InputTokens)
		o.recordTokens(ctx, t, e.Target, "output", e.OutputTokens)
	case t.tool:
		o.add(ctx, o.in.toolCalls, setKey{inst: instToolCalls, v: [4]string{e.Target.Name, e.Reason.String()}})
	}
	if c := o.callFrom(ctx); c != nil {
		c.end(e, errorType)
	}
}

func (o *Observer) recordTokens(ctx context.Context, t *targetInfo, target observe.Target, kind string, n int) {
	if n <= 0 {
		return
	}
	o.in.tokens.Inst().Record(ctx, int64(n), o.sets.get(setKey{inst: instTokens,
		v: [4]string{target.Operation, t.provider, target.Model, kind}}).record...)
}

// observeBreakers is the callback of the resilient.breaker.state gauge.
func (o *Observer) observeBreakers(_ context.Context, obs metric.Observer) error {
	o.breakers.each(func(name string, v int64) {
		obs.ObserveInt64(o.in.breaker, v, o.sets.get(setKey{inst: instBreaker, v: [4]string{name}}).set)
	})
	return nil
}

// failureType is the error.type of a call that was not answered, "" for
// one that was: the failure's kind for a model call or a pipeline, the
// reason for a tool call (a tool error, an internal failure, a timeout...)
// and for a call a run's usage limit stopped.
func failureType(e observe.CallEnd) string {
	switch {
	case e.Reason.Answered():
		return ""
	case e.Target.Operation == observe.OperationExecuteTool, e.Reason == observe.ReasonUsageLimit:
		// A run's limit stopped a model call: nothing failed, and the
		// class of the refusal (canceled) would say the caller gave up.
		return e.Reason.String()
	}
	return e.Class.Kind.String()
}
