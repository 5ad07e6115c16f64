package observe_test

import (
	"context"
	"errors"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/resilientgo/resilient/observe"
	"github.com/resilientgo/resilient/observe/observetest"
	"github.com/resilientgo/resilient/taxonomy"
)

// TestLogLines: each event the library reports is one line, at its level,
// with its keys; an event that is not worth a line writes none.
func TestLogLines(t *testing.T) {
	boom := errors.New("boom")
	class := taxonomy.Class{Kind: taxonomy.Transient, Rule: "status 500"}
	tool := observe.Target{Name: "lookup", Operation: observe.OperationExecuteTool}
	for _, c := range []struct {
		e    observe.Event
		err  error
		want string // "" for no line
	}{
		{observe.RetryScheduled{Target: "m", Attempt: 1, Wait: time.Second, Class: class}, boom,
			`level=WARN msg=retrying target=m attempt=1 kind=transient rule="status 500" delay=1s err=boom`},
		{observe.Recovered{Target: "m", Attempts: 2}, nil, `level=INFO msg=recovered target=m attempts=2`},
		{observe.GaveUp{Target: "m", Reason: observe.ReasonExhausted, Attempts: 3, Class: class}, nil,
			`level=WARN msg="gave up" target=m reason=exhausted attempts=3 kind=transient rule="status 500"`},
		{observe.GaveUp{Target: "m", Reason: observe.ReasonUsageLimit, Attempts: 2, Class: taxonomy.Class{Kind: taxonomy.Canceled, Rule: "usage limit"}}, boom,
			`level=WARN msg="run limit reached" target=m reason=usage_limit attempts=2 err=boom`},
		{observe.GaveUp{Target: "m", Reason: observe.ReasonCircuitOpen, PassedThrough: true}, boom,
			`level=DEBUG msg="inner layer gave up" target=m reason=circuit_open`},
		{observe.AttemptEnd{Target: "m", Attempt: 2, Failed: true, Class: class, Abandoned: true}, boom,
			`level=WARN msg="attempt abandoned" target=m attempt=2 kind=transient rule="status 500"`},
		{observe.AttemptEnd{Target: "m", Attempt: 2, Failed: true, Class: class}, boom, ""},
		{observe.AttemptEnd{Target: "m", Attempt: 1}, nil, ""},
		{observe.LateResult{Target: "m", Attempt: 1, Late: 250 * time.Millisecond}, nil,
			`level=DEBUG msg="late result discarded" target=m attempt=1 late=250ms`},
		{observe.Refusal{Target: "m", Reason: observe.ReasonRateLimit}, nil, `level=INFO msg=refused target=m reason=rate_limit`},
		{observe.BreakerChange{Target: "m", From: observe.BreakerClosed, To: observe.BreakerOpen}, nil,
			`level=WARN msg="circuit opened" target=m from=closed to=open`},
		{observe.BreakerChange{Target: "m", From: observe.BreakerOpen, To: observe.BreakerHalfOpen}, nil,
			`level=INFO msg="circuit half-opened" target=m from=open to=half-open`},
		{observe.BreakerChange{Target: "m", From: observe.BreakerHalfOpen, To: observe.BreakerClosed}, nil,
			`level=INFO msg="circuit closed" target=m from=half-open to=closed`},
		{observe.Fallback{Target: "a", To: "b", Class: class}, nil, `level=WARN msg="falling back" target=a fallback=b kind=transient`},
		{observe.Suspended{Target: "eastus", For: 5 * time.Minute, Class: taxonomy.Class{Kind: taxonomy.Permanent, Rule: "status 401", AccountFailure: true}}, nil,
			`level=WARN msg="member out of rotation: account failure" target=eastus delay=5m0s kind=permanent rule="status 401"`},
		{observe.Compacted{Target: "m", Before: 9, After: 4}, nil, `level=WARN msg=compacted target=m messages_before=9 messages_after=4`},
		{observe.StreamRestarted{Target: "m", Chunks: 3}, nil, `level=INFO msg="stream restarted" target=m chunks=3`},
		{observe.BatchSplit{Target: "m", Texts: 8}, nil, `level=WARN msg="batch split" target=m texts=8`},
		{observe.IdempotentReplay{Tool: "pay", Key: "k1"}, nil, `level=INFO msg="already done" tool=pay idempotency_key=k1`},
		{observe.LeaseLost{Tool: "pay", Key: "k1"}, nil, `level=WARN msg="lease lost" tool=pay idempotency_key=k1`},
		{observe.StoreFailed{Tool: "pay", Key: "k1"}, boom, `level=ERROR msg="idempotency store failed" tool=pay idempotency_key=k1 err=boom`},
		{observe.ToolProgress{Server: "s", Tool: "t", Progress: 1, Total: 2}, errors.New("halfway"),
			`level=INFO msg="tool progress" server=s tool=t progress=1 total=2 message=halfway`},
		{observe.ToolProgress{Server: "s", Tool: "t", Progress: 1}, nil, `level=INFO msg="tool progress" server=s tool=t progress=1`},
		{observe.ServerLog{Server: "s", Logger: "db", Level: slog.LevelWarn}, errors.New("slow query"),
			`level=WARN msg="server log" server=s logger=db message="slow query"`},
		{observe.CallEnd{Target: tool, Reason: observe.ReasonToolError}, boom, `level=DEBUG msg="tool error" tool=lookup err=boom`},
		{observe.CallEnd{Target: tool, Reason: observe.ReasonInternal, Type: "panic"}, boom,
			`level=ERROR msg="tool failed internally" tool=lookup type=panic err=boom`},
		{observe.CallEnd{Target: tool, Reason: observe.ReasonTimeout, Type: "timeout"}, nil,
			`level=ERROR msg="tool failed internally" tool=lookup type=timeout`},
		{observe.CallEnd{Target: tool, Reason: observe.ReasonFatal}, boom, `level=WARN msg="tool stopped the run" tool=lookup reason=fatal err=boom`},
		{observe.CallEnd{Target: tool, Reason: observe.ReasonCircuitOpen}, nil, `level=WARN msg="tool stopped the run" tool=lookup reason=circuit_open`},
		{observe.CallEnd{Target: tool, Reason: observe.ReasonStuck}, nil, `level=WARN msg="tool stopped the run" tool=lookup reason=stuck`},
		{observe.CallEnd{Target: tool, Reason: observe.ReasonUsageLimit}, nil, `level=WARN msg="tool stopped the run" tool=lookup reason=usage_limit`},
		{observe.CallEnd{Target: tool}, nil, ""},
		{observe.CallEnd{Target: tool, Reason: observe.ReasonReplayed}, nil, ""},
		{observe.CallEnd{Target: observe.Target{Name: "m", Operation: observe.OperationChat}, Reason: observe.ReasonToolError}, boom, ""},
		{observe.Hedged{Target: "m", Attempt: 2}, nil, ""},
		{observe.SharedStateUnavailable{Feature: "semaphore", Key: "resilient:semaphore:openai", Action: observe.SharedLocal,
			Detail: "admitting up to 8 at once in this process"}, boom,
			`level=WARN msg="redis unavailable" feature=semaphore redis_key=resilient:semaphore:openai action="admitting up to 8 at once in this process" err=boom`},
		{observe.SharedStateRestored{Feature: "limiter", Key: "resilient:limiter:{openai}", Down: 3 * time.Second}, nil,
			`level=INFO msg="redis reachable again" feature=limiter redis_key=resilient:limiter:{openai} down=3s`},
	} {
		var logs observetest.LogBuffer
		observe.Observers{observe.Log(logs.Logger())}.Report(context.Background(), c.e, c.err)
		got := strings.TrimSuffix(logs.String(), "\n")
		if got != c.want {
			t.Errorf("%T %+v:\ngot  %s\nwant %s", c.e, c.e, got, c.want)
		}
	}
}

// TestLogObserveHasNoError: an event sent with Observe, as adapters of
// other packages do, is logged without an error attribute.
func TestLogObserveHasNoError(t *testing.T) {
	var logs observetest.LogBuffer
	observe.Log(logs.Logger()).Observe(context.Background(), observe.StoreFailed{Tool: "pay", Key: "k1"})
	if want := "level=ERROR msg=\"idempotency store failed\" tool=pay idempotency_key=k1\n"; logs.String() != want {
		t.Errorf("got %q, want %q", logs.String(), want)
	}
}

// TestLogNilDiscards: Log(nil) is an observer that writes nothing and
// hands contexts through.
func TestLogNilDiscards(t *testing.T) {
	o := observe.Log(nil)
	ctx := context.Background()
	if o.Start(ctx, observe.Start{}) != ctx {
		t.Error("Start changed the context")
	}
	o.Observe(ctx, observe.Recovered{Target: "m", Attempts: 2})
}
