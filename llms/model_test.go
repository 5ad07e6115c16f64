package llms_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	lcllms "github.com/tmc/langchaingo/llms"
	"github.com/tmc/langchaingo/testing/llmtest"
	"go.uber.org/goleak"

	"github.com/resilientgo/resilient/internal/scripted"
	"github.com/resilientgo/resilient/limit"
	"github.com/resilientgo/resilient/llms"
	"github.com/resilientgo/resilient/middleware"
	"github.com/resilientgo/resilient/observe"
	"github.com/resilientgo/resilient/run"
	"github.com/resilientgo/resilient/taxonomy"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

var (
	errOverloaded = providerErr("anthropic: failed to create message: API returned unexpected status code: 529: Overloaded")
	errOverflow   = providerErr("API returned unexpected status code: 400: This model's maximum context length is 128000 tokens. However, your messages resulted in 130000 tokens. Please reduce the length of the messages.")
	errAuth       = providerErr("API returned unexpected status code: 401: Incorrect API key provided: sk-test.")
	errDropped    = fmt.Errorf("error reading streaming response: %w", providerErr("unexpected EOF"))
)

func mustWrap(t *testing.T, m lcllms.Model, opts ...llms.Option) *llms.Model {
	t.Helper()
	w, err := llms.New(m, opts...)
	if err != nil {
		t.Fatal(err)
	}
	return w
}

func human(text string) lcllms.MessageContent {
	return lcllms.TextParts(lcllms.ChatMessageTypeHuman, text)
}

func TestConformance(t *testing.T) {
	llmtest.TestLLM(t, mustWrap(t, scripted.New(scripted.Reply("Hello, OK"))))
}

func TestInvalidConstruction(t *testing.T) {
	tests := []struct {
		name string
		m    lcllms.Model
		opts []llms.Option
		want string
	}{
		{"nil model", nil, nil, "llms: nil model"},
		{"nil option", scripted.New(), []llms.Option{nil}, "llms: nil option"},
		{"bad middleware", scripted.New(), []llms.Option{llms.Middleware(middleware.MaxAttempts(0))}, "MaxAttempts(0)"},
		{"negative timeout", scripted.New(), []llms.Option{llms.StreamIdleTimeout(-time.Second)}, "StreamIdleTimeout(-1s)"},
		{"nil fallback", scripted.New(), []llms.Option{llms.Fallbacks(nil)}, "Fallbacks: model 0 is nil"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, err := llms.New(tt.m, tt.opts...)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("New: got %v, want an error containing %q", err, tt.want)
			}
			// The model New returns with its error reports the problem at every call.
			_, err = m.GenerateContent(t.Context(), []lcllms.MessageContent{human("hi")})
			if taxonomy.Classify(err).Kind != taxonomy.Programming || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("New(...).GenerateContent: got %v, want a programming error containing %q", err, tt.want)
			}
			if m.Err() == nil {
				t.Errorf("Err() = nil on a model New reported an error for")
			}
		})
	}
}

func TestRetriesAndRecovers(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		inner := scripted.New(scripted.Fail(errOverloaded), scripted.Fail(errDropped), scripted.Reply("done"))
		got, err := mustWrap(t, inner).Call(t.Context(), "hi")
		if err != nil || got != "done" || inner.Calls() != 3 {
			t.Fatalf("got (%q, %v) after %d calls, want done after 3", got, err, inner.Calls())
		}
	})
}

func TestPermanentIsNotRetried(t *testing.T) {
	inner := scripted.New(scripted.Fail(errAuth))
	_, err := mustWrap(t, inner).Call(t.Context(), "hi")
	if inner.Calls() != 1 || !errors.Is(err, errAuth) {
		t.Fatalf("got %v after %d calls, want the 401 after 1", err, inner.Calls())
	}
	if !strings.Contains(err.Error(), "failed permanently") {
		t.Errorf("error %q does not say permanently", err)
	}
}

func TestUnusableResponsesAreFailures(t *testing.T) {
	tests := []struct {
		name      string
		step      scripted.Step
		wantKind  taxonomy.Kind
		wantErr   error
		wantCalls int
	}{
		{"no choices", scripted.Step{Func: func(context.Context, []lcllms.MessageContent, lcllms.CallOptions) (*lcllms.ContentResponse, error) {
			return &lcllms.ContentResponse{}, nil
		}}, taxonomy.Transient, llms.ErrNoChoices, 3},
		{"empty content", scripted.Reply(""), taxonomy.Transient, llms.ErrEmptyResponse, 3},
		{"content filter", scripted.Step{StopReason: "content_filter"}, taxonomy.Permanent, llms.ErrStopReason, 1},
		{"refusal", scripted.Step{Text: "I can't help with that.", StopReason: "refusal"}, taxonomy.Permanent, llms.ErrStopReason, 1},
		{"mistral error stop", scripted.Step{Text: "partial", StopReason: "error"}, taxonomy.Transient, llms.ErrStopReason, 3},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				inner := scripted.New(tt.step)
				_, err := mustWrap(t, inner).GenerateContent(t.Context(), []lcllms.MessageContent{human("hi")})
				if got := taxonomy.Classify(err).Kind; got != tt.wantKind {
					t.Errorf("kind: got %v, want %v (%v)", got, tt.wantKind, err)
				}
				if !errors.Is(err, tt.wantErr) {
					t.Errorf("got %v, want it to match %v", err, tt.wantErr)
				}
				if inner.Calls() != tt.wantCalls {
					t.Errorf("calls: got %d, want %d", inner.Calls(), tt.wantCalls)
				}
			})
		})
	}
}

func TestCustomCheck(t *testing.T) {
	errNoJSON := errors.New("reply is not JSON")
	inner := scripted.New(scripted.Reply("not json"))
	_, err := mustWrap(t, inner, llms.Check(func(r *lcllms.ContentResponse) error {
		if !strings.HasPrefix(r.Choices[0].Content, "{") {
			return taxonomy.WithClass(errNoJSON, taxonomy.Class{Kind: taxonomy.Permanent, Rule: "not json"})
		}
		return nil
	})).Call(t.Context(), "hi")
	if !errors.Is(err, errNoJSON) || inner.Calls() != 1 {
		t.Errorf("got %v after %d calls, want the check's error after 1", err, inner.Calls())
	}
}

// conversation builds system, human, ai+tool calls, tool responses, human...
func conversation() []lcllms.MessageContent {
	call := lcllms.ToolCall{ID: "c1", Type: "function", FunctionCall: &lcllms.FunctionCall{Name: "lookup", Arguments: `{"id":1}`}}
	return []lcllms.MessageContent{
		lcllms.TextParts(lcllms.ChatMessageTypeSystem, "You are terse."),
		human("first question"),
		{Role: lcllms.ChatMessageTypeAI, Parts: []lcllms.ContentPart{call}},
		{Role: lcllms.ChatMessageTypeTool, Parts: []lcllms.ContentPart{lcllms.ToolCallResponse{ToolCallID: "c1", Name: "lookup", Content: "one"}}},
		lcllms.TextParts(lcllms.ChatMessageTypeAI, "It is one."),
		human("second question"),
		{Role: lcllms.ChatMessageTypeAI, Parts: []lcllms.ContentPart{call}},
		{Role: lcllms.ChatMessageTypeTool, Parts: []lcllms.ContentPart{lcllms.ToolCallResponse{ToolCallID: "c1", Name: "lookup", Content: "two"}}},
		lcllms.TextParts(lcllms.ChatMessageTypeAI, "It is two."),
		human("third question"),
	}
}

// toolPairsIntact reports whether every tool response follows its call.
func toolPairsIntact(msgs []lcllms.MessageContent) bool {
	for i, m := range msgs {
		if m.Role != lcllms.ChatMessageTypeTool {
			continue
		}
		if i == 0 {
			return false
		}
		prev := msgs[i-1]
		if prev.Role != lcllms.ChatMessageTypeTool && !slices.ContainsFunc(prev.Parts, func(p lcllms.ContentPart) bool {
			_, ok := p.(lcllms.ToolCall)
			return ok
		}) {
			return false
		}
	}
	return true
}

func TestOverflowCompactsOnceAndRetries(t *testing.T) {
	inner := scripted.New(scripted.Fail(errOverflow), scripted.Reply("fits now"))
	msgs := conversation()
	original := slices.Clone(msgs)
	resp, err := mustWrap(t, inner).GenerateContent(t.Context(), msgs)
	if err != nil || resp.Choices[0].Content != "fits now" {
		t.Fatalf("got %v, want the reply after compaction", err)
	}
	reqs := inner.Requests()
	if len(reqs) != 2 || len(reqs[1]) >= len(reqs[0]) {
		t.Fatalf("got %d requests of sizes %v, want 2, the second smaller", len(reqs), []int{len(reqs[0]), len(reqs[len(reqs)-1])})
	}
	second := reqs[1]
	if second[0].Role != lcllms.ChatMessageTypeSystem || !strings.Contains(fmt.Sprint(second[1].Parts), "compacted") {
		t.Errorf("compacted request does not keep the system message and a marker: %v", second[:2])
	}
	if last := second[len(second)-1]; fmt.Sprint(last.Parts) != fmt.Sprint(original[len(original)-1].Parts) {
		t.Errorf("compacted request lost the latest turn: %v", last)
	}
	if !toolPairsIntact(second) {
		t.Errorf("compaction separated a tool call from its response: %v", second)
	}
	if second[2].Role != lcllms.ChatMessageTypeHuman {
		t.Errorf("kept part starts with %v, want a human message", second[2].Role)
	}
	if fmt.Sprint(msgs) != fmt.Sprint(original) {
		t.Errorf("the caller's messages were modified")
	}
}

func TestOverflowTwiceFailsAsOverflow(t *testing.T) {
	inner := scripted.New(scripted.Fail(errOverflow))
	_, err := mustWrap(t, inner).GenerateContent(t.Context(), conversation())
	var final *middleware.Error
	if !errors.As(err, &final) || final.Reason != observe.ReasonContextOverflow || inner.Calls() != 2 {
		t.Fatalf("got %v after %d calls, want a context overflow after 2", err, inner.Calls())
	}
}

func TestOverflowWithoutCompaction(t *testing.T) {
	inner := scripted.New(scripted.Fail(errOverflow))
	_, err := mustWrap(t, inner, llms.NoCompaction()).GenerateContent(t.Context(), conversation())
	if inner.Calls() != 1 || taxonomy.Classify(err).Kind != taxonomy.ContextOverflow {
		t.Fatalf("got %v after %d calls, want a context overflow after 1", err, inner.Calls())
	}
}

func TestSingleTurnCannotBeCompacted(t *testing.T) {
	inner := scripted.New(scripted.Fail(errOverflow))
	_, err := mustWrap(t, inner).GenerateContent(t.Context(), []lcllms.MessageContent{human("a very long document")})
	if inner.Calls() != 1 || !errors.Is(err, llms.ErrCannotCompact) {
		t.Fatalf("got %v after %d calls, want ErrCannotCompact after 1", err, inner.Calls())
	}
}

func TestSummarizeCompactor(t *testing.T) {
	summarizer := scripted.New(scripted.Reply("They asked two questions; the answers were one and two."))
	inner := scripted.New(scripted.Fail(errOverflow), scripted.Reply("ok"))
	_, err := mustWrap(t, inner, llms.Compaction(llms.Summarize(summarizer))).GenerateContent(t.Context(), conversation())
	if err != nil {
		t.Fatal(err)
	}
	second := inner.Requests()[1]
	if !strings.Contains(fmt.Sprint(second[1].Parts), "answers were one and two") || !toolPairsIntact(second) {
		t.Errorf("summary not in the compacted request: %v", second)
	}
	if got := fmt.Sprint(summarizer.Requests()[0]); !strings.Contains(got, "first question") {
		t.Errorf("the summarizer was not shown the dropped turns: %s", got)
	}
}

// collector records the chunks the caller's streaming function received.
type collector struct {
	mu     sync.Mutex
	chunks []string
	err    error
}

func (c *collector) fn(_ context.Context, chunk []byte) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.chunks = append(c.chunks, string(chunk))
	return c.err
}

// restart is a stream restart hook that clears what was shown, as a
// caller's UI does.
func (c *collector) restart(context.Context, string) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.chunks = nil
	return nil
}

func (c *collector) text() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return strings.Join(c.chunks, "")
}

func TestStreamFailureBeforeFirstChunkIsRetried(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		inner := scripted.New(scripted.Fail(errDropped), scripted.Step{Chunks: []string{"Hel", "lo"}})
		var c collector
		resp, err := mustWrap(t, inner).GenerateContent(t.Context(), []lcllms.MessageContent{human("hi")}, lcllms.WithStreamingFunc(c.fn))
		if err != nil || resp.Choices[0].Content != "Hello" || c.text() != "Hello" || inner.Calls() != 2 {
			t.Fatalf("got (%v, %q) after %d calls, want Hello streamed once after 2", err, c.text(), inner.Calls())
		}
	})
}

func TestStreamFailureAfterChunksIsNotDuplicated(t *testing.T) {
	inner := scripted.New(scripted.Step{Chunks: []string{"Hel"}, Err: errDropped}, scripted.Step{Chunks: []string{"Hello"}})
	var c collector
	_, err := mustWrap(t, inner).GenerateContent(t.Context(), []lcllms.MessageContent{human("hi")}, lcllms.WithStreamingFunc(c.fn))
	var partial *llms.PartialStreamError
	if !errors.As(err, &partial) || partial.Partial != "Hel" || inner.Calls() != 1 || c.text() != "Hel" {
		t.Fatalf("got %v after %d calls and %q streamed, want a PartialStreamError(Hel) after 1", err, inner.Calls(), c.text())
	}
	if !errors.Is(err, errDropped) || taxonomy.Classify(err).Kind != taxonomy.Transient {
		t.Errorf("the final error hides the cause: %v", err)
	}
}

func TestStreamRestartHook(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		inner := scripted.New(scripted.Step{Chunks: []string{"Hel"}, Err: errDropped}, scripted.Step{Chunks: []string{"Hel", "lo"}})
		var c collector
		var restarts []string
		hook := func(_ context.Context, partial string) error {
			restarts = append(restarts, partial)
			c.mu.Lock()
			c.chunks = nil // the UI clears what it showed
			c.mu.Unlock()
			return nil
		}
		resp, err := mustWrap(t, inner, llms.OnStreamRestart(hook)).GenerateContent(t.Context(),
			[]lcllms.MessageContent{human("hi")}, lcllms.WithStreamingFunc(c.fn))
		if err != nil || resp.Choices[0].Content != "Hello" || c.text() != "Hello" {
			t.Fatalf("got (%v, %q), want Hello shown once", err, c.text())
		}
		if fmt.Sprint(restarts) != "[Hel]" {
			t.Errorf("restart hook calls: got %v, want [Hel]", restarts)
		}
	})
}

func TestCallerStreamingFuncStopsTheCall(t *testing.T) {
	errStop := errors.New("user closed the tab")
	inner := scripted.New(scripted.Step{Chunks: []string{"Hel", "lo"}})
	c := collector{err: errStop}
	_, err := mustWrap(t, inner).GenerateContent(t.Context(), []lcllms.MessageContent{human("hi")}, lcllms.WithStreamingFunc(c.fn))
	if !errors.Is(err, errStop) || inner.Calls() != 1 || taxonomy.Classify(err).Kind != taxonomy.Canceled {
		t.Fatalf("got %v after %d calls, want the caller's error, canceled, after 1", err, inner.Calls())
	}
}

// stallingStream sends the chunks, then blocks until its context ends.
func stallingStream(chunks ...string) scripted.Step {
	return scripted.Step{Func: func(ctx context.Context, _ []lcllms.MessageContent, o lcllms.CallOptions) (*lcllms.ContentResponse, error) {
		for _, c := range chunks {
			if err := o.StreamingFunc(ctx, []byte(c)); err != nil {
				return nil, err
			}
		}
		<-ctx.Done()
		return nil, fmt.Errorf("error reading streaming response: %w", ctx.Err())
	}}
}

func TestStreamIdleTimeout(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		inner := scripted.New(stallingStream("Hel"))
		var c collector
		start := time.Now()
		_, err := mustWrap(t, inner, llms.StreamIdleTimeout(30*time.Second)).GenerateContent(t.Context(),
			[]lcllms.MessageContent{human("hi")}, lcllms.WithStreamingFunc(c.fn))
		if elapsed := time.Since(start); elapsed != 30*time.Second {
			t.Errorf("gave up after %v, want 30s", elapsed)
		}
		if !errors.Is(err, llms.ErrStreamIdle) || taxonomy.Classify(err).Kind != taxonomy.Transient {
			t.Errorf("got %v, want a transient stream idle timeout", err)
		}
	})
}

func TestFirstChunkTimeoutIsRetried(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		inner := scripted.New(stallingStream(), scripted.Step{Chunks: []string{"ok"}})
		var c collector
		start := time.Now()
		resp, err := mustWrap(t, inner, llms.FirstChunkTimeout(10*time.Second)).GenerateContent(t.Context(),
			[]lcllms.MessageContent{human("hi")}, lcllms.WithStreamingFunc(c.fn))
		if err != nil || resp.Choices[0].Content != "ok" || inner.Calls() != 2 {
			t.Fatalf("got %v after %d calls, want ok after 2", err, inner.Calls())
		}
		if elapsed := time.Since(start); elapsed < 10*time.Second || elapsed > 18*time.Second {
			t.Errorf("took %v, want the 10s timeout plus one backoff", elapsed)
		}
	})
}

func TestFallbacks(t *testing.T) {
	tests := []struct {
		name          string
		primary       error
		opts          []llms.Option
		wantFallback  bool
		wantPrimCalls int
	}{
		{"overloaded", errOverloaded, nil, true, 3},
		{"auth is the account's: another may serve", errAuth, nil, true, 1},
		{"an invalid request is no model's to fix", errors.New("API returned unexpected status code: 400: Invalid value: 'tool'. Supported values are: 'system', 'assistant', 'user', 'function'."), nil, false, 1},
		{"model not found", errors.New("API returned unexpected status code: 404: The model `gpt-9` does not exist or you do not have access to it."), nil, true, 1},
		{"overflow, not asked", errOverflow, nil, false, 2},
		{"overflow, asked", errOverflow, []llms.Option{llms.FallbackOnOverflow()}, true, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				primary, fallback := scripted.New(scripted.Fail(tt.primary)), scripted.New(scripted.Reply("from the fallback"))
				opts := append([]llms.Option{llms.Fallbacks(fallback)}, tt.opts...)
				got, err := mustWrap(t, primary, opts...).GenerateContent(t.Context(), conversation())
				if fell := err == nil && got.Choices[0].Content == "from the fallback"; fell != tt.wantFallback {
					t.Errorf("fell back: got %v (%v), want %v", fell, err, tt.wantFallback)
				}
				if primary.Calls() != tt.wantPrimCalls {
					t.Errorf("primary calls: got %d, want %d", primary.Calls(), tt.wantPrimCalls)
				}
			})
		})
	}
}

func TestAllFallbacksFailJoinsErrors(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		errSecond := errors.New("API returned unexpected status code: 503: The server is overloaded or not ready yet.")
		primary, fallback := scripted.New(scripted.Fail(errOverloaded)), scripted.New(scripted.Fail(errSecond))
		_, err := mustWrap(t, primary, llms.Fallbacks(fallback), llms.Name("primary")).Call(t.Context(), "hi")
		if !errors.Is(err, errOverloaded) || !errors.Is(err, errSecond) {
			t.Fatalf("got %v, want both failures joined", err)
		}
		if !strings.Contains(err.Error(), "primary failed after 3 attempts") || !strings.Contains(err.Error(), "scripted failed after 3 attempts") {
			t.Errorf("joined error does not name both models: %v", err)
		}
	})
}

func TestNoFallbackWhenCanceled(t *testing.T) {
	ctx, cancel := context.WithCancel(t.Context())
	primary := scripted.New(scripted.Step{Func: func(context.Context, []lcllms.MessageContent, lcllms.CallOptions) (*lcllms.ContentResponse, error) {
		cancel()
		return nil, errOverloaded
	}})
	fallback := scripted.New(scripted.Reply("should not be asked"))
	_, err := mustWrap(t, primary, llms.Fallbacks(fallback)).Call(ctx, "hi")
	if fallback.Calls() != 0 || !errors.Is(err, context.Canceled) {
		t.Fatalf("got %v with %d fallback calls, want canceled and none", err, fallback.Calls())
	}
}

func TestHedgeAnswersFromTheFasterAttempt(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		slow := scripted.Step{Func: func(ctx context.Context, _ []lcllms.MessageContent, _ lcllms.CallOptions) (*lcllms.ContentResponse, error) {
			select {
			case <-time.After(time.Minute):
			case <-ctx.Done():
				return nil, ctx.Err()
			}
			return &lcllms.ContentResponse{Choices: []*lcllms.ContentChoice{{Content: "slow", StopReason: "stop"}}}, nil
		}}
		inner := scripted.New(slow, scripted.Reply("fast"))
		ctx := run.New(t.Context())
		run := run.From(ctx)
		start := time.Now()
		got, err := mustWrap(t, inner, llms.Middleware(middleware.Hedge(2*time.Second, 1))).Call(ctx, "hi")
		if err != nil || got != "fast" || time.Since(start) != 2*time.Second {
			t.Fatalf("got (%q, %v) after %v, want fast after 2s", got, err, time.Since(start))
		}
		synctest.Wait()
		if run.Retries() != 1 {
			t.Errorf("hedges paid from the run budget: got %d, want 1", run.Retries())
		}
	})
}

func TestOptionsAreNotModified(t *testing.T) {
	inner := scripted.New(scripted.Fail(errDropped), scripted.Step{Chunks: []string{"a"}})
	var c collector
	backing := make([]lcllms.CallOption, 3, 4) // spare capacity: an append in place would overwrite it
	backing[0], backing[1], backing[2] = lcllms.WithStreamingFunc(c.fn), lcllms.WithMaxTokens(5), lcllms.WithTemperature(0.5)
	sentinel := backing[2]
	_, err := mustWrap(t, inner).GenerateContent(t.Context(), []lcllms.MessageContent{human("hi")}, backing[:2]...)
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprintf("%p", backing[2]) != fmt.Sprintf("%p", sentinel) {
		t.Errorf("the caller's options slice was written past its length")
	}
}

func TestConcurrentUse(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		inner := scripted.New(scripted.Reply("ok"))
		m := mustWrap(t, inner)
		var wg sync.WaitGroup
		for range 64 {
			wg.Go(func() {
				for range 10 {
					if _, err := m.Call(t.Context(), "hi"); err != nil {
						t.Error(err)
					}
				}
			})
		}
		wg.Wait()
		if inner.Calls() != 640 {
			t.Errorf("calls: got %d, want 640", inner.Calls())
		}
	})
}

func TestSupportsReasoningForwards(t *testing.T) {
	if mustWrap(t, scripted.New()).SupportsReasoning() {
		t.Errorf("a model without reasoning reports reasoning")
	}
	if !mustWrap(t, reasoner{scripted.New()}).SupportsReasoning() {
		t.Errorf("a reasoning model's answer is not forwarded")
	}
}

type reasoner struct{ *scripted.Model }

func (reasoner) SupportsReasoning() bool { return true }

// providerErr is an error carrying a provider's own message, verbatim:
// capitals and full stops included.
func providerErr(message string) error { return errors.New(message) }

// recordingLimiter admits everything and records what it was asked for.
type recordingLimiter struct {
	mu    sync.Mutex
	costs []int
	err   error
}

func (l *recordingLimiter) Acquire(_ context.Context, cost int) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.costs = append(l.costs, cost)
	return l.err
}

func TestTokenLimit(t *testing.T) {
	lim := &recordingLimiter{}
	inner := scripted.New(scripted.Reply("ok"))
	if _, err := mustWrap(t, inner, llms.TokenLimit(lim)).GenerateContent(t.Context(), []lcllms.MessageContent{human(strings.Repeat("abcd", 100))}); err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(lim.costs) != "[100]" {
		t.Errorf("acquired %v, want [100] (400 characters)", lim.costs)
	}
	refusing := &recordingLimiter{err: limit.ErrLimited}
	_, err := mustWrap(t, inner, llms.TokenLimit(refusing)).Call(t.Context(), "hi")
	if !errors.Is(err, limit.ErrLimited) || taxonomy.Classify(err).Kind != taxonomy.RateLimited || inner.Calls() != 1 {
		t.Errorf("refused: got %v after %d calls, want a rate-limited error and no call", err, inner.Calls()-1)
	}
}
