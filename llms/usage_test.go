package llms_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"testing/synctest"

	lcllms "github.com/tmc/langchaingo/llms"

	"github.com/resilientgo/resilient/faultserver"
	"github.com/resilientgo/resilient/internal/scripted"
	"github.com/resilientgo/resilient/llms"
	"github.com/resilientgo/resilient/middleware"
	"github.com/resilientgo/resilient/observe"
	"github.com/resilientgo/resilient/observe/observetest"
	"github.com/resilientgo/resilient/run"
)

// reported adds up the usage the fault server reported.
func reported(s *faultserver.Server) run.Usage {
	var u run.Usage
	for _, r := range s.Requests() {
		u.Requests++
		u.InputTokens += r.InputTokens
		u.OutputTokens += r.OutputTokens
	}
	return u
}

// The run's usage is exactly what the provider reported, read by each real
// client from its own wire format, streamed or not: every request counted,
// failed ones included; tokens from the replies that reported them.
func TestUsageAddsUpWithRealClients(t *testing.T) {
	script := []faultserver.Step{
		faultserver.Overloaded(),
		faultserver.ReplyChunks("The ", "kettle ", "shipped."),
		faultserver.RateLimited("1"),
		faultserver.ReplyToolCalls(faultserver.ToolCall{ID: "c1", Name: "lookup", Arguments: `{"id":"4471"}`}),
		faultserver.ReplyChunks("Done", "."),
	}
	for _, stream := range []bool{false, true} {
		t.Run(map[bool]string{false: "whole", true: "stream"}[stream], func(t *testing.T) {
			forEachProvider(t, func(t *testing.T, f faultserver.Format) {
				s := faultserver.NewInMemory(script...)
				defer s.Close()
				rec := &observetest.Recorder{}
				m := mustWrap(t, realClient(t, s, f), llms.Middleware(middleware.Observe(rec)))
				ctx := run.New(t.Context())
				opts := []lcllms.CallOption{lcllms.WithTools([]lcllms.Tool{lookupTool})}
				if stream {
					opts = append(opts, lcllms.WithStreamingFunc(func(context.Context, []byte) error { return nil }))
				}
				for i := range 3 {
					msgs := []lcllms.MessageContent{human(strings.Repeat("Where is order 4471? ", i+3))}
					if _, err := m.GenerateContent(ctx, msgs, opts...); err != nil {
						t.Fatalf("call %d: %v", i+1, err)
					}
				}
				got, want := run.From(ctx).Usage(), reported(s)
				// 5 requests, 6 for ollama, whose client drops tool calls: the
				// empty reply is retried.
				if got.Requests < 5 || got.Requests != want.Requests || got.InputTokens != want.InputTokens ||
					got.OutputTokens != want.OutputTokens || want.InputTokens == 0 || want.OutputTokens == 0 {
					t.Errorf("run usage %d requests, %d+%d tokens; the server saw %d requests and reported %d+%d",
						got.Requests, got.InputTokens, got.OutputTokens, want.Requests, want.InputTokens, want.OutputTokens)
				}
				var in, out int
				for _, e := range observetest.Of[observe.CallEnd](rec) {
					in, out = in+e.InputTokens, out+e.OutputTokens
				}
				if in != want.InputTokens || out != want.OutputTokens {
					t.Errorf("CallEnd events add up to %d+%d tokens, the server reported %d+%d", in, out, want.InputTokens, want.OutputTokens)
				}
			})
		})
	}
}

var lookupTool = lcllms.Tool{Type: "function", Function: &lcllms.FunctionDefinition{
	Name: "lookup", Description: "Looks up an order.",
	Parameters: map[string]any{"type": "object", "properties": map[string]any{"id": map[string]any{"type": "string"}}},
}}

// generationInfo is a reply whose first choice carries info, as a
// provider's client fills it.
func generationInfo(info map[string]any) scripted.Step {
	return scripted.Step{Func: func(context.Context, []lcllms.MessageContent, lcllms.CallOptions) (*lcllms.ContentResponse, error) {
		return &lcllms.ContentResponse{Choices: []*lcllms.ContentChoice{{Content: "ok", GenerationInfo: info}}}, nil
	}}
}

// The keys and types each langchaingo client fills, as its source does:
// usage means the same whatever the provider.
func TestUsageNormalisedAcrossClients(t *testing.T) {
	tests := []struct {
		name    string
		info    map[string]any
		in, out int
	}{
		{"openai", map[string]any{"PromptTokens": 120, "CompletionTokens": 30, "TotalTokens": 150, "PromptCachedTokens": 100, "ReasoningTokens": 10}, 120, 30},
		{"ollama", map[string]any{"PromptTokens": 12, "CompletionTokens": 3, "TotalTokens": 15, "CachedTokens": 0}, 12, 3},
		{"anthropic", map[string]any{"InputTokens": 20, "OutputTokens": 5, "CacheCreationInputTokens": 0, "CacheReadInputTokens": 0}, 20, 5},
		{"anthropic reading its cache", map[string]any{"InputTokens": 20, "OutputTokens": 5, "CacheCreationInputTokens": 300, "CacheReadInputTokens": 4000}, 4320, 5},
		{"googleai", map[string]any{"input_tokens": int32(40), "output_tokens": int32(8), "PromptTokens": int32(40), "CompletionTokens": int32(8), "CachedTokens": int32(30), "CacheReadInputTokens": int32(30)}, 40, 8},
		{"bedrock", map[string]any{"input_tokens": 9, "output_tokens": 4}, 9, 4},
		{"float counts", map[string]any{"PromptTokens": 7.0, "CompletionTokens": 2.0}, 7, 2},
		{"mistral: none", map[string]any{"StopReason": "stop"}, 0, 0},
		{"negative and NaN ignored", map[string]any{"PromptTokens": -5, "CompletionTokens": nan()}, 0, 0},
		{"zero is a count", map[string]any{"PromptTokens": 0, "input_tokens": 9, "CompletionTokens": 0.0, "output_tokens": 4}, 0, 0},
		{"output only", map[string]any{"CompletionTokens": 3}, 0, 3},
		{"input only", map[string]any{"input_tokens": uint32(11)}, 11, 0},
		{"absurd counts clamped", map[string]any{"PromptTokens": 1e300, "CompletionTokens": uint64(1) << 63}, 1 << 62, 1 << 62},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx := run.New(t.Context())
			if _, err := mustWrap(t, scripted.New(generationInfo(tt.info))).GenerateContent(ctx, hello()); err != nil {
				t.Fatal(err)
			}
			if u := run.From(ctx).Usage(); u.InputTokens != tt.in || u.OutputTokens != tt.out {
				t.Errorf("usage %d+%d, want %d+%d", u.InputTokens, u.OutputTokens, tt.in, tt.out)
			}
		})
	}
}

func nan() float64 { zero := 0.0; return zero / zero }

// A request whose input alone would pass the token budget is refused before
// it is sent, naming what it needs.
func TestEstimateOverWhatRemainsIsRefused(t *testing.T) {
	forEachProvider(t, func(t *testing.T, f faultserver.Format) {
		s := faultserver.NewInMemory(faultserver.Reply("never"))
		defer s.Close()
		ctx := run.New(t.Context(), run.TokenBudget(100))
		long := []lcllms.MessageContent{human(strings.Repeat("x", 1000))} // about 250 tokens
		_, err := mustWrap(t, realClient(t, s, f)).GenerateContent(ctx, long)
		var refused *run.UsageLimitError
		if !errors.As(err, &refused) || refused.Need != 250 || s.Count() != 0 {
			t.Fatalf("got %v after %d requests, want refused as needing about 250 tokens, none sent", err, s.Count())
		}
		if !strings.Contains(err.Error(), "token budget of 100 would be exceeded: the request needs about 250 tokens") {
			t.Errorf("error %q does not say what the request needs", err)
		}
	})
}

// The call that crosses the budget returns its answer; the next is refused
// before it is sent.
func TestTheCallThatCrossesTheBudgetAnswers(t *testing.T) {
	forEachProvider(t, func(t *testing.T, f faultserver.Format) {
		s := faultserver.NewInMemory(faultserver.ReplyChunks("a ", "long ", "answer"))
		defer s.Close()
		m := mustWrap(t, realClient(t, s, f))
		ctx := run.New(t.Context(), run.TokenBudget(60))
		var answers int
		var err error
		for err == nil {
			var resp *lcllms.ContentResponse
			if resp, err = m.GenerateContent(ctx, hello()); err == nil && text(resp) == "a long answer" {
				answers++
			}
		}
		u, sent := run.From(ctx).Usage(), reported(s)
		if !errors.Is(err, run.ErrUsageLimit) || answers != s.Count() || u.Tokens() < 60 || u.Tokens()-sent.InputTokens-sent.OutputTokens != 0 {
			t.Fatalf("stopped by %v after %d answers to %d requests, %d tokens: want every request answered, the budget of 60 passed once",
				err, answers, s.Count(), u.Tokens())
		}
		if before := u.Tokens() - s.Requests()[s.Count()-1].InputTokens - s.Requests()[s.Count()-1].OutputTokens; before >= 60 {
			t.Errorf("%d tokens were used before the last request: it should have been refused", before)
		}
	})
}

// A refusal stops the call: no retry, and no fallback, which would be
// refused as well and only hide why the run stopped.
func TestRefusalIsNotAReasonToFallBack(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		primary := faultserver.NewInMemory(faultserver.Overloaded())
		defer primary.Close()
		secondary := faultserver.NewInMemory(faultserver.Reply("from anthropic"))
		defer secondary.Close()
		rec := &observetest.Recorder{}
		m := mustWrap(t, realClient(t, primary, faultserver.OpenAI), llms.Middleware(middleware.Observe(rec)),
			llms.Fallbacks(realClient(t, secondary, faultserver.Anthropic)))
		ctx := run.New(t.Context(), run.RequestLimit(2))
		_, err := m.GenerateContent(ctx, hello())
		if fb := observetest.Of[observe.Fallback](rec); len(fb) != 0 {
			t.Errorf("fell back: %+v", fb)
		}
		var final *middleware.Error
		if !errors.As(err, &final) || final.Reason != observe.ReasonUsageLimit {
			t.Fatalf("got %v, want stopped by the usage limit", err)
		}
		if primary.Count() != 2 || secondary.Count() != 0 {
			t.Errorf("requests: primary %d, fallback %d; want 2 and 0", primary.Count(), secondary.Count())
		}
	})
}

// After a context overflow the next attempt is compacted, to a size not
// known before: only a spent budget refuses it, not the size of the
// messages it is about to shrink.
func TestCompactedRetryIsNotRefusedForItsOldSize(t *testing.T) {
	msgs := conversation()
	overflow := scripted.Step{Func: func(ctx context.Context, _ []lcllms.MessageContent, _ lcllms.CallOptions) (*lcllms.ContentResponse, error) {
		run.From(ctx).AddTokens(80, 0) // another call of the run, meanwhile
		return nil, errOverflow
	}}
	inner := scripted.New(overflow, scripted.Reply("fits now"))
	ctx := run.New(t.Context(), run.TokenBudget(100))
	estimate := (len(fmt.Sprint(msgs)) + 3) / 4
	if estimate <= 20 || estimate > 100 {
		t.Fatalf("the conversation is estimated at about %d tokens: the test needs more than 20 and at most 100", estimate)
	}
	resp, err := mustWrap(t, inner).GenerateContent(ctx, msgs)
	if err != nil || resp.Choices[0].Content != "fits now" {
		t.Fatalf("got %v, want the compacted retry's answer", err)
	}
}

// Every batch the embedder sends is a request of the run, failed ones
// included, and the request limit stops it. langchaingo's embedding
// clients return no usage, so embeddings add no tokens.
func TestEmbedderCountsItsRequests(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := faultserver.NewInMemory(faultserver.RateLimited("1"), faultserver.Reply(""))
		defer s.Close()
		e := mustEmbedder(t, realEmbedder(t, s, faultserver.OpenAI))
		ctx := run.New(t.Context(), run.RequestLimit(3))
		if _, err := e.CreateEmbedding(ctx, someTexts(4)); err != nil {
			t.Fatal(err)
		}
		if u := run.From(ctx).Usage(); u.Requests != 2 || u.Tokens() != 0 {
			t.Errorf("usage %+v, want the 2 requests sent and no tokens", u)
		}
		_, _ = e.CreateEmbedding(ctx, someTexts(4))
		_, err := e.CreateEmbedding(ctx, someTexts(4))
		if !errors.Is(err, run.ErrUsageLimit) || s.Count() != 3 {
			t.Errorf("got %v after %d requests, want the request limit after 3", err, s.Count())
		}
	})
}

func TestEmbedderEstimateOverTheBudgetIsRefused(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := faultserver.NewInMemory(faultserver.Reply(""))
		defer s.Close()
		e := mustEmbedder(t, realEmbedder(t, s, faultserver.OpenAI))
		ctx := run.New(t.Context(), run.TokenBudget(10))
		_, err := e.CreateEmbedding(ctx, []string{strings.Repeat("a", 40), strings.Repeat("b", 40)})
		var refused *run.UsageLimitError
		if !errors.As(err, &refused) || refused.Need != 20 || s.Count() != 0 {
			t.Errorf("got %v after %d requests, want refused as needing 20 tokens, none sent", err, s.Count())
		}
	})
}

// settleRecorder is a token limiter that admits everything and records
// what each response settled.
type settleRecorder struct {
	mu      sync.Mutex
	settled [][2]int // estimate, actual
}

func (r *settleRecorder) Acquire(context.Context, int) error { return nil }

func (r *settleRecorder) Settle(_ context.Context, estimated, actual int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.settled = append(r.settled, [2]int{estimated, actual})
}

// A tokens-per-minute limiter acquires the estimate before each request
// and is told the tokens the provider reported after it.
func TestTokenLimiterIsSettledWithTheReportedUsage(t *testing.T) {
	for _, stream := range []bool{false, true} {
		t.Run(map[bool]string{false: "whole", true: "stream"}[stream], func(t *testing.T) {
			forEachProvider(t, func(t *testing.T, f faultserver.Format) {
				s := faultserver.NewInMemory(faultserver.Overloaded(), faultserver.ReplyChunks("a ", "b ", "c"))
				defer s.Close()
				lim := &settleRecorder{}
				m := mustWrap(t, realClient(t, s, f), llms.TokenLimit(lim))
				msgs := []lcllms.MessageContent{human(strings.Repeat("abcd", 25))} // 25 tokens, estimated
				var opts []lcllms.CallOption
				if stream {
					opts = append(opts, lcllms.WithStreamingFunc(func(context.Context, []byte) error { return nil }))
				}
				if _, err := m.GenerateContent(t.Context(), msgs, opts...); err != nil {
					t.Fatal(err)
				}
				last := s.Requests()[1]
				want := [][2]int{{25, last.InputTokens + last.OutputTokens}} // the failed request reported nothing
				if fmt.Sprint(lim.settled) != fmt.Sprint(want) {
					t.Errorf("settled %v, want %v", lim.settled, want)
				}
			})
		})
	}
}
