package resilientotel

import (
	"context"
	"sync"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/trace"

	"github.com/resilientgo/resilient/observe"
)

// callKey and attemptKey hold the observer's state of a call and of an
// attempt in their contexts; the observer in the key keeps two observers
// on the same call apart.
type (
	callKey    struct{ o *Observer }
	attemptKey struct{ o *Observer }
)

func (o *Observer) callFrom(ctx context.Context) *call {
	c, _ := ctx.Value(callKey{o}).(*call)
	return c
}

func (o *Observer) attemptFrom(ctx context.Context) *attempt {
	a, _ := ctx.Value(attemptKey{o}).(*attempt)
	return a
}

// startCall starts the span of a logical call. The call's state goes into
// the context only when the span records: an unsampled call costs a
// non-recording span and its measurements.
func (o *Observer) startCall(ctx context.Context, target observe.Target) context.Context {
	t := o.targets.get(target)
	ctx, span := o.tracer.Start(ctx, t.spanName, t.callOptions...)
	if !span.IsRecording() {
		return ctx
	}
	return context.WithValue(ctx, callKey{o}, &call{span: span, target: target, info: t})
}

// startAttempt starts the span of an attempt, a child of its call's.
func (o *Observer) startAttempt(ctx context.Context, s observe.Start) context.Context {
	c := o.callFrom(ctx)
	if c == nil {
		// The call is not recorded (or was started without this
		// observer): its attempts are not either, but the context still
		// carries the call's span for the provider client.
		return ctx
	}
	if trace.SpanFromContext(ctx) != c.span {
		// Another observer's span came between: the attempt is still a
		// child of this observer's call.
		ctx = trace.ContextWithSpan(ctx, c.span)
	}
	// The attributes go in after the start: an attempt is sampled with its
	// call, and a start option would cost the SDK one more copy.
	ctx, span := o.tracer.Start(ctx, attemptSpan)
	if s.Attempt == 1 && !s.Hedge {
		t := c.info
		if s.Target != c.target {
			t = o.targets.get(s.Target)
		}
		span.SetAttributes(t.firstAttempt...)
	} else if s.Hedge {
		span.SetAttributes(keyTarget.String(s.Target.Name), keyAttempt.Int(s.Attempt), keyHedge.Bool(true))
	} else {
		span.SetAttributes(keyTarget.String(s.Target.Name), keyAttempt.Int(s.Attempt))
	}
	return context.WithValue(ctx, attemptKey{o}, &attempt{span: span, call: c, target: s.Target.Name, number: s.Attempt})
}

// call is the state of a recorded logical call. Its failed attempts stay
// open until the pipeline decides what follows them, so that the retry it
// schedules is an event on the attempt that failed; they end at the time
// they failed.
type call struct {
	span   trace.Span
	target observe.Target
	info   *targetInfo

	mu      sync.Mutex
	pending []pending // failed attempts awaiting their decision
	ended   bool
}

// attempt is the state of a recorded attempt.
type attempt struct {
	span   trace.Span
	call   *call
	target string
	number int
}

// pending is a failed attempt whose span awaits the decision that follows
// it; end is when it failed.
type pending struct {
	a   *attempt
	end time.Time
}

// end ends an attempt's span: at once when it succeeded, else with its
// failure's kind and rule and held for the decision.
func (a *attempt) end(e observe.AttemptEnd) {
	if !e.Failed {
		a.span.End()
		return
	}
	kind := e.Class.Kind.String()
	a.span.SetAttributes(keyErrorType.String(kind), keyRule.String(e.Class.Rule))
	if e.Abandoned {
		a.span.SetAttributes(keyAbandoned.Bool(true))
	}
	a.span.SetStatus(codes.Error, kind)
	now := time.Now()
	if a.call.hold(a, now) {
		return
	}
	a.span.End(trace.WithTimestamp(now))
}

// hold keeps a failed attempt open for its decision, unless the call has
// ended (a hedge that lost may report after its call).
func (c *call) hold(a *attempt, end time.Time) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.ended {
		return false
	}
	c.pending = append(c.pending, pending{a: a, end: end})
	return true
}

// take removes and returns the pending attempt of target numbered n.
func (c *call) take(target string, n int) (pending, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for i, p := range c.pending {
		if p.a.number == n && p.a.target == target {
			c.pending = append(c.pending[:i], c.pending[i+1:]...)
			return p, true
		}
	}
	return pending{}, false
}

// retry puts the scheduled retry on the attempt that failed, and ends it;
// on the call's span if that attempt is not pending.
func (c *call) retry(e observe.RetryScheduled, source string) {
	attrs := []attribute.KeyValue{keyWait.Float64(e.Wait.Seconds()), keyWaitSource.String(source),
		keyErrorType.String(e.Class.Kind.String())}
	p, ok := c.take(e.Target, e.Attempt)
	if !ok {
		c.event(eventRetry, append(attrs, keyTarget.String(e.Target), keyAttempt.Int(e.Attempt))...)
		return
	}
	p.a.span.AddEvent(eventRetry, trace.WithTimestamp(p.end), trace.WithAttributes(attrs...))
	p.a.span.End(trace.WithTimestamp(p.end))
}

// release ends the pending attempts of target ("" for all): the pipeline
// made its last decision about them.
func (c *call) release(target string) {
	c.mu.Lock()
	var done []pending
	kept := c.pending[:0]
	for _, p := range c.pending {
		if target == "" || p.a.target == target {
			done = append(done, p)
		} else {
			kept = append(kept, p)
		}
	}
	c.pending = kept
	c.mu.Unlock()
	for _, p := range done {
		p.a.span.End(trace.WithTimestamp(p.end))
	}
}

func (c *call) event(name string, attrs ...attribute.KeyValue) {
	c.span.AddEvent(name, trace.WithAttributes(attrs...))
}

// end ends the call's span with what its end adds to its start: a tool
// call's outcome, the number of attempts unless it was one, the token
// usage, and a failure's error.type, resilient.reason and error status
// (errorType is "" on success). A model call that succeeded at its first
// attempt adds nothing: as the GenAI conventions read it, no error.type is
// success, and attributes set at the end cost the SDK a copy.
func (c *call) end(e observe.CallEnd, errorType string) {
	c.mu.Lock()
	c.ended = true
	c.mu.Unlock()
	c.release("")
	tool := c.info.tool
	if tool && errorType == "" && e.Attempts == 1 {
		// The common tool call, without building a slice.
		attrs := toolOK
		if e.Reason == observe.ReasonReplayed {
			attrs = toolReplayed
		}
		c.span.SetAttributes(attrs...)
		c.span.End()
		return
	}
	var attrs []attribute.KeyValue
	if tool {
		attrs = append(attrs, keyOutcome.String(e.Reason.String()))
	}
	if e.Attempts != 1 {
		attrs = append(attrs, keyAttempts.Int(e.Attempts))
	}
	if e.InputTokens > 0 {
		attrs = append(attrs, keyInputTokens.Int(e.InputTokens))
	}
	if e.OutputTokens > 0 {
		attrs = append(attrs, keyOutputTokens.Int(e.OutputTokens))
	}
	if errorType != "" {
		attrs = append(attrs, keyErrorType.String(errorType))
		if !tool { // a tool's reason is its outcome
			attrs = append(attrs, keyReason.String(e.Reason.String()))
		}
		c.span.SetStatus(codes.Error, errorType)
	}
	if len(attrs) > 0 {
		c.span.SetAttributes(attrs...)
	}
	c.span.End()
}

// The end attributes of a tool call that succeeded at its first attempt,
// or was replayed, shared by every such call: the SDK copies them.
var (
	toolOK       = []attribute.KeyValue{keyOutcome.String(observe.Reason(0).String())}
	toolReplayed = []attribute.KeyValue{keyOutcome.String(observe.ReasonReplayed.String())}
)

// attemptSpan is the name of an attempt's span.
const attemptSpan = "resilient.attempt"

// targetInfo is what the observer derives from a target once: its call
// span's name and start options, its first attempt's attributes, and
// which metrics its calls feed.
type targetInfo struct {
	spanName     string
	callOptions  []trace.SpanStartOption
	firstAttempt []attribute.KeyValue
	provider     string // gen_ai.provider.name for a model
	model        bool   // a GenAI operation: the gen_ai.client.* metrics
	tool         bool   // a tool call: resilient.tool.calls
}

func newTargetInfo(t observe.Target) *targetInfo {
	info := &targetInfo{firstAttempt: []attribute.KeyValue{keyTarget.String(t.Name), keyAttempt.Int(1)}}
	kind := trace.SpanKindInternal
	var attrs []attribute.KeyValue
	switch t.Operation {
	case "":
		// A pipeline used directly: no GenAI operation.
		info.spanName = t.Name
		attrs = []attribute.KeyValue{keyTarget.String(t.Name)}
	case observe.OperationExecuteTool:
		info.spanName, info.tool = t.Operation+" "+t.Name, true
		attrs = []attribute.KeyValue{keyOperation.String(t.Operation), keyToolName.String(t.Name)}
	default:
		kind, info.model, info.provider, info.spanName = trace.SpanKindClient, true, t.Provider, t.Operation
		if info.provider == "" {
			info.provider = otherProvider
		}
		attrs = []attribute.KeyValue{keyOperation.String(t.Operation), keyProvider.String(info.provider),
			keyTarget.String(t.Name)}
		if t.Model != "" {
			info.spanName += " " + t.Model
			attrs = append(attrs, keyModel.String(t.Model))
		}
	}
	info.callOptions = []trace.SpanStartOption{trace.WithSpanKind(kind), trace.WithAttributes(attrs...)}
	return info
}

// maxTargets bounds the cache of target descriptions: a program has a
// handful of models and tools; past the bound they are derived per call.
const maxTargets = 1024
