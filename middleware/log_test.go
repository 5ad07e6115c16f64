package middleware_test

import (
	"context"
	"errors"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/resilientgo/resilient/internal/logtest"
	"github.com/resilientgo/resilient/middleware"
	"github.com/resilientgo/resilient/taxonomy"
)

// TestLogLines: each event the library reports is one line, at its level,
// with its keys; an event that is not worth a line writes none.
func TestLogLines(t *testing.T) {
	boom := errors.New("boom")
	class := taxonomy.Class{Kind: taxonomy.Transient, Rule: "status 500"}
	tool := middleware.Target{Name: "lookup", Operation: middleware.OperationExecuteTool}
	for _, c := range []struct {
		e    middleware.Event
		err  error
		want string // "" for no line
	}{
		{middleware.RetryScheduled{Target: "m", Attempt: 1, Wait: time.Second, Class: class}, boom,
			`level=WARN msg="retry scheduled" target=m attempt=1 kind=transient rule="status 500" delay=1s err=boom`},
		{middleware.Recovered{Target: "m", Attempts: 2}, nil, `level=INFO msg=recovered target=m attempts=2`},
		{middleware.GaveUp{Target: "m", Reason: middleware.ReasonExhausted, Attempts: 3, Class: class}, nil,
			`level=WARN msg="gave up" target=m reason=exhausted attempts=3 kind=transient rule="status 500"`},
		{middleware.GaveUp{Target: "m", Reason: middleware.ReasonCircuitOpen, PassedThrough: true}, boom,
			`level=DEBUG msg="inner layer gave up" target=m reason="circuit open"`},
		{middleware.AttemptEnd{Target: "m", Attempt: 2, Failed: true, Class: class, Abandoned: true}, boom,
			`level=WARN msg="attempt abandoned" target=m attempt=2 kind=transient rule="status 500"`},
		{middleware.AttemptEnd{Target: "m", Attempt: 2, Failed: true, Class: class}, boom, ""},
		{middleware.AttemptEnd{Target: "m", Attempt: 1}, nil, ""},
		{middleware.LateResult{Target: "m", Attempt: 1, Late: 250 * time.Millisecond}, nil,
			`level=DEBUG msg="late result discarded" target=m attempt=1 late=250ms`},
		{middleware.Refusal{Target: "m", Reason: middleware.RefusedRateLimit}, nil, `level=INFO msg=refused target=m reason=rate_limit`},
		{middleware.BreakerChange{Target: "m", From: middleware.BreakerClosed, To: middleware.BreakerOpen}, nil,
			`level=WARN msg="circuit opened" target=m from=closed to=open`},
		{middleware.BreakerChange{Target: "m", From: middleware.BreakerOpen, To: middleware.BreakerHalfOpen}, nil,
			`level=INFO msg="circuit half-opened" target=m from=open to=half-open`},
		{middleware.BreakerChange{Target: "m", From: middleware.BreakerHalfOpen, To: middleware.BreakerClosed}, nil,
			`level=INFO msg="circuit closed" target=m from=half-open to=closed`},
		{middleware.Fallback{Target: "a", To: "b", Class: class}, nil, `level=WARN msg="falling back" target=a fallback=b kind=transient`},
		{middleware.Suspended{Target: "eastus", For: 5 * time.Minute, Class: taxonomy.Class{Kind: taxonomy.Permanent, Rule: "status 401", AccountFailure: true}}, nil,
			`level=WARN msg="member out of rotation: account failure" target=eastus delay=5m0s kind=permanent rule="status 401"`},
		{middleware.Compacted{Target: "m", Before: 9, After: 4}, nil, `level=WARN msg=compacted target=m messages_before=9 messages_after=4`},
		{middleware.StreamRestarted{Target: "m", Chunks: 3}, nil, `level=INFO msg="stream restarted" target=m chunks=3`},
		{middleware.BatchSplit{Target: "m", Texts: 8}, nil, `level=WARN msg="batch split" target=m texts=8`},
		{middleware.IdempotentReplay{Tool: "pay", Key: "k1"}, nil, `level=INFO msg="already done" tool=pay idempotency_key=k1`},
		{middleware.LeaseLost{Tool: "pay", Key: "k1"}, nil, `level=WARN msg="lease lost" tool=pay idempotency_key=k1`},
		{middleware.StoreFailed{Tool: "pay", Key: "k1"}, boom, `level=ERROR msg="idempotency store failed" tool=pay idempotency_key=k1 err=boom`},
		{middleware.ToolProgress{Server: "s", Tool: "t", Progress: 1, Total: 2}, errors.New("halfway"),
			`level=INFO msg="tool progress" server=s tool=t progress=1 total=2 message=halfway`},
		{middleware.ToolProgress{Server: "s", Tool: "t", Progress: 1}, nil, `level=INFO msg="tool progress" server=s tool=t progress=1`},
		{middleware.ServerLog{Server: "s", Logger: "db", Level: slog.LevelWarn}, errors.New("slow query"),
			`level=WARN msg="server log" server=s logger=db message="slow query"`},
		{middleware.CallEnd{Target: tool, Outcome: middleware.OutcomeToolError}, boom, `level=DEBUG msg="tool error" tool=lookup err=boom`},
		{middleware.CallEnd{Target: tool, Outcome: middleware.OutcomeInternal, Type: "panic"}, boom,
			`level=ERROR msg="tool failed internally" tool=lookup type=panic err=boom`},
		{middleware.CallEnd{Target: tool, Outcome: middleware.OutcomeTimeout, Type: "timeout"}, nil,
			`level=ERROR msg="tool failed internally" tool=lookup type=timeout`},
		{middleware.CallEnd{Target: tool, Outcome: middleware.OutcomeFatal}, boom, `level=WARN msg="tool stopped the run" tool=lookup reason=fatal err=boom`},
		{middleware.CallEnd{Target: tool, Outcome: middleware.OutcomeCircuitOpen}, nil, `level=WARN msg="tool stopped the run" tool=lookup reason="circuit open"`},
		{middleware.CallEnd{Target: tool, Outcome: middleware.OutcomeStuck}, nil, `level=WARN msg="tool stopped the run" tool=lookup reason=stuck`},
		{middleware.CallEnd{Target: tool, Outcome: middleware.OutcomeRefused}, nil, `level=WARN msg="tool stopped the run" tool=lookup reason="usage limit"`},
		{middleware.CallEnd{Target: tool, Outcome: middleware.OutcomeOK}, nil, ""},
		{middleware.CallEnd{Target: tool, Outcome: middleware.OutcomeReplayed}, nil, ""},
		{middleware.CallEnd{Target: middleware.Target{Name: "m", Operation: middleware.OperationChat}, Outcome: middleware.OutcomeToolError}, boom, ""},
		{middleware.Hedged{Target: "m", Attempt: 2}, nil, ""},
		{middleware.SharedStateUnavailable{Feature: "semaphore", Key: "resilient:semaphore:openai", Action: middleware.SharedLocal,
			Detail: "admitting up to 8 at once in this process"}, boom,
			`level=WARN msg="redis unavailable" feature=semaphore redis_key=resilient:semaphore:openai action="admitting up to 8 at once in this process" err=boom`},
		{middleware.SharedStateRestored{Feature: "limiter", Key: "resilient:limiter:{openai}", Down: 3 * time.Second}, nil,
			`level=INFO msg="redis reachable again" feature=limiter redis_key=resilient:limiter:{openai} down=3s`},
	} {
		var logs logtest.Buffer
		middleware.Observers{middleware.Log(logs.Logger())}.Report(context.Background(), c.e, c.err)
		got := strings.TrimSuffix(logs.String(), "\n")
		if got != c.want {
			t.Errorf("%T %+v:\ngot  %s\nwant %s", c.e, c.e, got, c.want)
		}
	}
}

// TestLogObserveHasNoError: an event sent with Observe, as adapters of
// other packages do, is logged without an error attribute.
func TestLogObserveHasNoError(t *testing.T) {
	var logs logtest.Buffer
	middleware.Log(logs.Logger()).Observe(context.Background(), middleware.StoreFailed{Tool: "pay", Key: "k1"})
	if want := "level=ERROR msg=\"idempotency store failed\" tool=pay idempotency_key=k1\n"; logs.String() != want {
		t.Errorf("got %q, want %q", logs.String(), want)
	}
}

// TestLogNilDiscards: Log(nil) is an observer that writes nothing and
// hands contexts through.
func TestLogNilDiscards(t *testing.T) {
	o := middleware.Log(nil)
	ctx := context.Background()
	if o.Start(ctx, middleware.Start{}) != ctx {
		t.Error("Start changed the context")
	}
	o.Observe(ctx, middleware.Recovered{Target: "m", Attempts: 2})
}
