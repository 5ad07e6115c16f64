package llms_test

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"testing/synctest"
	"time"

	lcllms "github.com/tmc/langchaingo/llms"

	"github.com/resilientgo/resilient/internal/scripted"
	"github.com/resilientgo/resilient/llms"
	"github.com/resilientgo/resilient/middleware"
	"github.com/resilientgo/resilient/observe"
	"github.com/resilientgo/resilient/observe/observetest"
)

// A primary that answers is the answer: its fallbacks are not asked.
func TestFallbacksWaitForAFailure(t *testing.T) {
	primary, fallback := scripted.New(scripted.Reply("from the primary")), scripted.New(scripted.Reply("from the fallback"))
	resp, err := mustWrap(t, primary, llms.Fallbacks(fallback)).GenerateContent(t.Context(), hello())
	if err != nil || text(resp) != "from the primary" || fallback.Calls() != 0 {
		t.Fatalf("got (%v, %v) with %d fallback calls, want the primary's answer and none", resp, err, fallback.Calls())
	}
}

// Without fallbacks, the error is the pipeline's own, not a join of one.
func TestWithoutFallbacksTheErrorIsThePipelines(t *testing.T) {
	_, err := mustWrap(t, scripted.New(scripted.Fail(errAuth))).GenerateContent(t.Context(), hello())
	if _, ok := err.(*middleware.Error); !ok {
		t.Fatalf("got %T (%v), want a *middleware.Error", err, err)
	}
}

// Streaming and non-streaming calls of one model share its breaker: streams
// that keep failing open the circuit for every call.
func TestStreamsCountTowardTheModelsBreaker(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		inner := scripted.New(scripted.Fail(errOverloaded))
		m := mustWrap(t, inner, llms.Middleware(middleware.CircuitBreaker(3, time.Minute), middleware.MaxAttempts(1)))
		stream := lcllms.WithStreamingFunc(func(context.Context, []byte) error { return nil })
		for range 3 {
			if _, err := m.GenerateContent(t.Context(), hello(), stream); err == nil {
				t.Fatal("a failing stream succeeded")
			}
		}
		if got := m.Breaker().State(); got != observe.BreakerOpen {
			t.Fatalf("breaker %v after three failed streams, want open", got)
		}
		if _, err := m.GenerateContent(t.Context(), hello()); !errors.Is(err, middleware.ErrCircuitOpen) || inner.Calls() != 3 {
			t.Errorf("got %v after %d calls, want the open circuit and no fourth call", err, inner.Calls())
		}
	})
}

// A call that asks for another model of the client reports that model.
func TestCallEndNamesTheModelTheCallAskedFor(t *testing.T) {
	for _, asked := range []string{"", "gpt-4o-mini"} {
		t.Run(asked, func(t *testing.T) {
			rec := &observetest.Recorder{}
			m := mustWrap(t, scripted.New(), llms.Middleware(middleware.Observe(rec)))
			var opts []lcllms.CallOption
			if asked != "" {
				opts = append(opts, lcllms.WithModel(asked))
			}
			if _, err := m.GenerateContent(t.Context(), hello(), opts...); err != nil {
				t.Fatal(err)
			}
			ends := observetest.Of[observe.CallEnd](rec)
			if len(ends) != 1 || ends[0].Target.Model != asked {
				t.Errorf("call ends %+v, want one naming model %q", ends, asked)
			}
		})
	}
}

// A token limiter is settled only with usage the provider reported.
func TestNoUsageReportedSettlesNothing(t *testing.T) {
	lim := &settleRecorder{}
	if _, err := mustWrap(t, scripted.New(), llms.TokenLimit(lim)).GenerateContent(t.Context(), hello()); err != nil {
		t.Fatal(err)
	}
	if len(lim.settled) != 0 {
		t.Errorf("settled %v for a response that reported no usage, want nothing", lim.settled)
	}
}

// The token estimate counts tool calls and tool results with the text.
func TestEstimateCountsToolCalls(t *testing.T) {
	msgs := []lcllms.MessageContent{
		{Role: lcllms.ChatMessageTypeAI, Parts: []lcllms.ContentPart{
			lcllms.ToolCall{ID: "c1", FunctionCall: &lcllms.FunctionCall{Name: "look", Arguments: `{"id":12345}`}}, // 16 bytes
			lcllms.ToolCall{ID: "c2"}, // no function: nothing
		}},
		{Role: lcllms.ChatMessageTypeTool, Parts: []lcllms.ContentPart{lcllms.ToolCallResponse{ToolCallID: "c1", Name: "look", Content: "found it"}}}, // 12 bytes
		human("abcd"), // 4 bytes
	}
	lim := &recordingLimiter{}
	if _, err := mustWrap(t, scripted.New(), llms.TokenLimit(lim)).GenerateContent(t.Context(), msgs); err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(lim.costs) != "[8]" {
		t.Errorf("acquired %v, want [8] (32 bytes)", lim.costs)
	}
}

// Every timeout may be Forever, which turns it off: a stream with no stream
// timeout runs as long as it takes.
func TestForeverTimeoutsAreOff(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		slow := scripted.Step{Func: func(ctx context.Context, _ []lcllms.MessageContent, o lcllms.CallOptions) (*lcllms.ContentResponse, error) {
			for _, c := range []string{"Hel", "lo"} {
				time.Sleep(time.Hour)
				if err := o.StreamingFunc(ctx, []byte(c)); err != nil {
					return nil, err
				}
			}
			return &lcllms.ContentResponse{Choices: []*lcllms.ContentChoice{{Content: "Hello", StopReason: "stop"}}}, nil
		}}
		m := mustWrap(t, scripted.New(slow), llms.Middleware(middleware.Timeout(middleware.Forever)), llms.StreamTimeout(middleware.Forever), llms.FirstChunkTimeout(middleware.Forever), llms.StreamIdleTimeout(middleware.Forever))
		var c collector
		resp, err := m.GenerateContent(t.Context(), hello(), lcllms.WithStreamingFunc(c.fn))
		if err != nil || text(resp) != "Hello" || c.text() != "Hello" {
			t.Fatalf("got (%v, %v), streamed %q; want Hello", resp, err, c.text())
		}
	})
}
