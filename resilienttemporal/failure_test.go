package resilienttemporal

import (
	"context"
	"errors"
	"net/http"
	"testing"
	"time"

	lcllms "github.com/tmc/langchaingo/llms"
	"github.com/tmc/langchaingo/llms/openai"
	"go.temporal.io/sdk/temporal"

	"github.com/resilientgo/resilient"
	"github.com/resilientgo/resilient/faultserver"
	"github.com/resilientgo/resilient/llms"
	"github.com/resilientgo/resilient/taxonomy"
	"github.com/resilientgo/resilient/tools"
)

// TestFailureDrivesTemporalRetries maps the final errors of real wrapped
// models and tools, served by the fault server, to the activity errors
// that tell Temporal what to do.
func TestFailureDrivesTemporalRetries(t *testing.T) {
	fast := []resilient.ModelOption{resilient.Backoff(time.Millisecond, time.Millisecond)}
	cases := []struct {
		name      string
		script    []faultserver.Step
		opts      []resilient.ModelOption
		run       []resilient.RunOption
		typ       string
		retryable bool
		delay     time.Duration
	}{
		{name: "overloaded every attempt", script: []faultserver.Step{faultserver.Overloaded()},
			typ: "overloaded", retryable: true},
		{name: "quota exhausted", script: []faultserver.Step{faultserver.QuotaExceeded()},
			typ: "permanent"},
		{name: "invalid key", script: []faultserver.Step{faultserver.InvalidAPIKey()},
			typ: "permanent"},
		{name: "overflow that compaction did not cure", script: []faultserver.Step{faultserver.ContextOverflow()},
			typ: "context_overflow"},
		{name: "retry-after over the cap", script: []faultserver.Step{faultserver.RateLimited("90")},
			typ: "rate_limited", retryable: true, delay: 90 * time.Second},
		{name: "retry budget spent", script: []faultserver.Step{faultserver.Overloaded()},
			run: []resilient.RunOption{resilient.RetryBudget(0)}, typ: "overloaded"},
		{name: "request limit", script: []faultserver.Step{faultserver.Overloaded()},
			run: []resilient.RunOption{resilient.RequestLimit(1)}, typ: TypeUsageLimit},
		{name: "circuit open", script: []faultserver.Step{faultserver.Overloaded()},
			opts: []resilient.ModelOption{resilient.CircuitBreaker(1, 40*time.Second), resilient.MaxAttempts(1)},
			typ:  "overloaded", retryable: true, delay: 40 * time.Second},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			srv := faultserver.New(c.script...)
			defer srv.Close()
			llm, err := srv.OpenAI(openai.WithHTTPClient(&http.Client{Transport: llms.NewTransport(srv.Client().Transport)}))
			if err != nil {
				t.Fatal(err)
			}
			model := resilient.Model(llm, append(fast, c.opts...)...)
			ctx := resilient.NewRun(t.Context(), c.run...)
			_, err = model.GenerateContent(ctx, []lcllms.MessageContent{lcllms.TextParts(lcllms.ChatMessageTypeHuman, "hi")})
			if c.name == "circuit open" { // the first call opened it; the second finds it open
				_, err = model.GenerateContent(ctx, []lcllms.MessageContent{lcllms.TextParts(lcllms.ChatMessageTypeHuman, "hi")})
			}
			if err == nil {
				t.Fatal("the call succeeded")
			}
			got := failure(t.Context(), err, resilient.UsageFrom(ctx), holdOf(model))
			var app *temporal.ApplicationError
			if !errors.As(got, &app) {
				t.Fatalf("got %T %v, want an ApplicationError", got, got)
			}
			delay := app.NextRetryDelay()
			if c.delay > 0 { // a breaker's hold has begun to run down
				delay = delay.Round(time.Second)
			}
			if app.Type() != c.typ || app.NonRetryable() == c.retryable || delay != c.delay {
				t.Errorf("got type %q, non-retryable %v, next retry delay %v; want %q, %v, %v (error: %v)",
					app.Type(), app.NonRetryable(), delay, c.typ, !c.retryable, c.delay, err)
			}
			var d failureDetails
			if err := app.Details(&d); err != nil || d.Usage != resilient.UsageFrom(ctx) {
				t.Errorf("details: got %+v (%v), want the usage %+v", d.Usage, err, resilient.UsageFrom(ctx))
			}
		})
	}
}

// TestFailureOfAToolEndsTheRun: a tool's fatal error and a refused tool
// call are never retried.
func TestFailureOfAToolEndsTheRun(t *testing.T) {
	fatal := tools.Func("charge", "", func(context.Context, string) (string, error) {
		return "", taxonomy.NewFatalToolError(errors.New("card blocked"))
	})
	cases := []struct {
		name string
		run  []resilient.RunOption
		typ  string
	}{
		{name: "fatal", typ: TypeFatalTool},
		{name: "tool call limit", run: []resilient.RunOption{resilient.ToolCallLimit(1)}, typ: TypeUsageLimit},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			tool := resilient.Tool(fatal)
			ctx := resilient.NewRun(t.Context(), c.run...)
			if c.typ == TypeUsageLimit {
				_, _ = tool.Call(ctx, "first") // takes the one call allowed
			}
			_, err := tool.Call(ctx, "order 4471")
			var app *temporal.ApplicationError
			if !errors.As(failure(t.Context(), err, resilient.Usage{}, nil), &app) || app.Type() != c.typ || !app.NonRetryable() {
				t.Errorf("got %v, want a non-retryable %s", app, c.typ)
			}
		})
	}
}

// TestFailureWhenTheActivityEnds: when the activity's own context ends
// (the worker stops, the server gave up on the attempt), its error is
// Temporal's to handle, not a classified failure.
func TestFailureWhenTheActivityEnds(t *testing.T) {
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	if got := failure(ctx, errors.New("read: connection reset"), resilient.Usage{}, nil); got != context.Canceled {
		t.Errorf("got %v, want context.Canceled", got)
	}
}
