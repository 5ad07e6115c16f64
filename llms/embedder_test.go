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

	"github.com/tmc/langchaingo/embeddings"
	lcllms "github.com/tmc/langchaingo/llms"
	"github.com/tmc/langchaingo/llms/openai"

	"github.com/resilientgo/resilient/faultserver"
	"github.com/resilientgo/resilient/internal/scripted"
	"github.com/resilientgo/resilient/llms"
	"github.com/resilientgo/resilient/middleware"
	"github.com/resilientgo/resilient/observe"
	"github.com/resilientgo/resilient/observe/observetest"
	"github.com/resilientgo/resilient/taxonomy"
)

// fakeEmbedder is a scripted embeddings client: each call gets the answer
// of answer, and the batches it was given are recorded. Safe for concurrent
// use.
type fakeEmbedder struct {
	mu      sync.Mutex
	answer  func(call int, texts []string) ([][]float32, error)
	batches [][]string
}

func (f *fakeEmbedder) CreateEmbedding(_ context.Context, texts []string) ([][]float32, error) {
	f.mu.Lock()
	f.batches = append(f.batches, slices.Clone(texts))
	call := len(f.batches)
	f.mu.Unlock()
	return f.answer(call, texts)
}

func (f *fakeEmbedder) calls() [][]string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return slices.Clone(f.batches)
}

// vectorsOf answers the server's vector of each text.
func vectorsOf(texts []string) [][]float32 {
	out := make([][]float32, len(texts))
	for i, t := range texts {
		out[i] = faultserver.Vector(t)
	}
	return out
}

var errTooLarge = providerErr("API returned unexpected status code: 400: Requested 453357 tokens, max 300000 tokens per request")

func TestEmbedderChecksTheVectors(t *testing.T) {
	tests := []struct {
		name string
		bad  func(texts []string) [][]float32
		want error
	}{
		{"one vector missing", func(texts []string) [][]float32 { return vectorsOf(texts)[1:] }, llms.ErrVectorCount},
		{"an empty vector", func(texts []string) [][]float32 { v := vectorsOf(texts); v[1] = []float32{}; return v }, llms.ErrEmptyVector},
		{"differing dimensions", func(texts []string) [][]float32 { v := vectorsOf(texts); v[2] = v[2][:3]; return v }, llms.ErrDimensions},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				// Unusable twice, then good: retried as a transient failure.
				f := &fakeEmbedder{answer: func(call int, texts []string) ([][]float32, error) {
					if call <= 2 {
						return tt.bad(texts), nil
					}
					return vectorsOf(texts), nil
				}}
				e := mustEmbedder(t, f)
				texts := someTexts(3)
				got, err := e.CreateEmbedding(t.Context(), texts)
				if err != nil {
					t.Fatal(err)
				}
				checkVectors(t, got, texts)
				// Unusable every time: the attempts run out, and the error says why.
				f.answer = func(_ int, texts []string) ([][]float32, error) { return tt.bad(texts), nil }
				_, err = e.CreateEmbedding(t.Context(), texts)
				if !errors.Is(err, tt.want) || !errors.Is(err, middleware.ErrExhausted) || len(f.calls()) != 6 {
					t.Errorf("got %v after %d calls, want %v after 3 more attempts", err, len(f.calls())-3, tt.want)
				}
			})
		})
	}
}

// TestEmbedderChecksDimensionsAcrossHalves: the halves of a split batch are
// checked against each other too.
func TestEmbedderChecksDimensionsAcrossHalves(t *testing.T) {
	f := &fakeEmbedder{answer: func(_ int, texts []string) ([][]float32, error) {
		if len(texts) > 2 {
			return nil, errTooLarge
		}
		v := vectorsOf(texts)
		if texts[0] == "text 2" {
			for i := range v {
				v[i] = v[i][:4]
			}
		}
		return v, nil
	}}
	_, err := mustEmbedder(t, f).CreateEmbedding(t.Context(), someTexts(4))
	if !errors.Is(err, llms.ErrDimensions) {
		t.Errorf("got %v, want ErrDimensions", err)
	}
}

// TestEmbedderNeverResendsABatchTooLarge: even when the options allow
// retrying a context overflow, a batch rejected as too large is split, not
// sent again as it was.
func TestEmbedderNeverResendsABatchTooLarge(t *testing.T) {
	f := &fakeEmbedder{answer: func(_ int, texts []string) ([][]float32, error) {
		if len(texts) > 1 {
			return nil, errTooLarge
		}
		return vectorsOf(texts), nil
	}}
	var logs observetest.LogBuffer
	e := mustEmbedder(t, f, llms.Middleware(middleware.Logger(logs.Logger())),
		llms.Middleware(middleware.KindAttempts(taxonomy.ContextOverflow, 3)))
	texts := someTexts(4)
	got, err := e.CreateEmbedding(t.Context(), texts)
	if err != nil {
		t.Fatal(err)
	}
	checkVectors(t, got, texts)
	want := [][]string{someTexts(4), someTexts(2), {"text 0"}, {"text 1"}, {"text 2", "text 3"}, {"text 2"}, {"text 3"}}
	if got := f.calls(); !slices.EqualFunc(got, want, slices.Equal) {
		t.Errorf("batches sent:\ngot  %q\nwant %q", got, want)
	}
	for _, line := range []string{`msg="batch split" target=llms_test/embeddings texts=4`, `msg="batch split" target=llms_test/embeddings texts=2`} {
		if !strings.Contains(logs.String(), line) {
			t.Errorf("log lacks %s:\n%s", line, logs.String())
		}
	}
}

func TestEmbedderWithNoTextsSendsNothing(t *testing.T) {
	f := &fakeEmbedder{answer: func(int, []string) ([][]float32, error) { return nil, errors.New("called") }}
	got, err := mustEmbedder(t, f).CreateEmbedding(t.Context(), nil)
	if err != nil || got == nil || len(got) != 0 || len(f.calls()) != 0 {
		t.Errorf("got (%v, %v) after %d calls, want no vector, no error, no call", got, err, len(f.calls()))
	}
}

func TestEmbedderTokenLimit(t *testing.T) {
	lim := &recordingLimiter{}
	f := &fakeEmbedder{answer: func(_ int, texts []string) ([][]float32, error) { return vectorsOf(texts), nil }}
	if _, err := mustEmbedder(t, f, llms.TokenLimit(lim)).CreateEmbedding(t.Context(), []string{strings.Repeat("a", 300), strings.Repeat("b", 100)}); err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(lim.costs) != "[100]" {
		t.Errorf("acquired %v, want [100] (400 characters)", lim.costs)
	}
}

func TestNewEmbedderReportsProblems(t *testing.T) {
	f := &fakeEmbedder{answer: func(_ int, texts []string) ([][]float32, error) { return vectorsOf(texts), nil }}
	var typedNil *openai.LLM
	tests := []struct {
		name string
		c    embeddings.EmbedderClient
		opts []llms.Option
		want string
	}{
		{"nil client", nil, nil, "llms: nil embedder client (<nil>)"},
		{"typed nil client", typedNil, nil, "llms: nil embedder client (*openai.LLM)"},
		{"nil option", f, []llms.Option{nil}, "llms: nil option"},
		{"bad middleware", f, []llms.Option{llms.Middleware(middleware.MaxAttempts(0))}, "MaxAttempts(0)"},
		{"ShareLimits(nil)", f, []llms.Option{llms.ShareLimits(nil)}, "llms: ShareLimits(nil)"},
		{"fallbacks", f, []llms.Option{llms.Fallbacks(scripted.New())}, "llms: Fallbacks applies to models only, not to an embedder"},
		{"fallback on overflow", f, []llms.Option{llms.FallbackOnOverflow()}, "llms: FallbackOnOverflow applies to models only"},
		{"compaction", f, []llms.Option{llms.Compaction(llms.DropOldest())}, "llms: Compaction applies to models only"},
		{"no compaction", f, []llms.Option{llms.NoCompaction()}, "llms: NoCompaction applies to models only"},
		{"stream timeout", f, []llms.Option{llms.StreamTimeout(time.Second)}, "llms: StreamTimeout applies to models only"},
		{"first chunk timeout", f, []llms.Option{llms.FirstChunkTimeout(time.Second)}, "llms: FirstChunkTimeout applies to models only"},
		{"stream idle timeout", f, []llms.Option{llms.StreamIdleTimeout(time.Second)}, "llms: StreamIdleTimeout applies to models only"},
		{"stream restart", f, []llms.Option{llms.OnStreamRestart(func(context.Context, string) error { return nil })}, "llms: OnStreamRestart applies to models only"},
		{"check", f, []llms.Option{llms.Check(func(*lcllms.ContentResponse) error { return nil })}, "llms: Check applies to models only"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e, err := llms.NewEmbedder(tt.c, tt.opts...)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("NewEmbedder: got %v, want an error containing %q", err, tt.want)
			}
			_, err = e.CreateEmbedding(t.Context(), []string{"hi"})
			if taxonomy.Classify(err).Kind != taxonomy.Programming || !strings.Contains(err.Error(), tt.want) || e.Err() == nil {
				t.Errorf("CreateEmbedding: got %v, want a programming error containing %q", err, tt.want)
			}
		})
	}
}

func TestEmbedderNames(t *testing.T) {
	s := faultserver.New()
	defer s.Close()
	plain, err := s.OpenAI()
	if err != nil {
		t.Fatal(err)
	}
	small, err := s.OpenAI(openai.WithEmbeddingModel("text-embedding-3-small"))
	if err != nil {
		t.Fatal(err)
	}
	local, err := s.Ollama()
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		c    embeddings.EmbedderClient
		opts []llms.Option
		want string
	}{
		// The chat model the openai client also holds is not the embedding model.
		{plain, nil, "openai/embeddings"},
		{small, nil, "openai/text-embedding-3-small"},
		{local, nil, "ollama/embeddings"},
		{small, []llms.Option{llms.Name("vectors")}, "vectors"},
	}
	for _, tt := range tests {
		if got := mustEmbedder(t, tt.c, tt.opts...).Name(); got != tt.want {
			t.Errorf("Name() = %q, want %q", got, tt.want)
		}
	}
}

func TestShareLimitsWithAModel(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		requests, tokens := &recordingLimiter{}, &recordingLimiter{}
		chat := scripted.New(scripted.Reply("ok"))
		model := mustWrap(t, chat, llms.Middleware(middleware.RateLimit(requests), middleware.CircuitBreaker(2, time.Minute)),
			llms.TokenLimit(tokens))
		f := &fakeEmbedder{answer: func(int, []string) ([][]float32, error) {
			return nil, providerErr("API returned unexpected status code: 503: Service Unavailable")
		}}
		e := mustEmbedder(t, f, llms.ShareLimits(model), llms.Middleware(middleware.MaxAttempts(1)))
		if e.Breaker() == nil || e.Breaker() != model.Breaker() {
			t.Fatal("the embedder does not use the model's breaker")
		}
		// Two failed embeddings open the one circuit: the chat model is refused.
		for range 2 {
			if _, err := e.CreateEmbedding(t.Context(), []string{strings.Repeat("x", 40)}); err == nil {
				t.Fatal("want the embedding to fail")
			}
		}
		if _, err := model.Call(t.Context(), "hi"); !errors.Is(err, middleware.ErrCircuitOpen) || chat.Calls() != 0 {
			t.Errorf("model after two embedder failures: got %v after %d calls, want the circuit open and no call", err, chat.Calls())
		}
		// Two embeddings and the refused model call took a request each (the
		// limiter comes before the breaker); the embeddings took their tokens.
		if fmt.Sprint(requests.costs, tokens.costs) != "[1 1 1] [10 10]" {
			t.Errorf("the model's limiters gave %v requests and %v tokens, want [1 1 1] and [10 10]", requests.costs, tokens.costs)
		}
	})
}

func TestShareLimitsBetweenModels(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		first := mustWrap(t, scripted.New(scripted.Reply("ok")), llms.Middleware(middleware.CircuitBreaker(1, time.Minute)))
		failing := scripted.New(scripted.Fail(errOverloaded))
		fallback := scripted.New(scripted.Reply("from the fallback"))
		second := mustWrap(t, failing, llms.ShareLimits(first), llms.Fallbacks(fallback), llms.Middleware(middleware.MaxAttempts(1)))
		if second.Breaker() != first.Breaker() {
			t.Fatal("the second model does not use the first's breaker")
		}
		// The failure opens the shared circuit; the fallback has a breaker of its own.
		got, err := second.Call(t.Context(), "hi")
		if err != nil || got != "from the fallback" {
			t.Errorf("got (%q, %v), want the fallback's answer", got, err)
		}
		if first.Breaker().State() != observe.BreakerOpen {
			t.Errorf("shared breaker is %v, want open", first.Breaker().State())
		}
	})
}

func TestShareLimitsRefusesAnInvalidModel(t *testing.T) {
	bad, _ := llms.New(nil)
	f := &fakeEmbedder{answer: func(_ int, texts []string) ([][]float32, error) { return vectorsOf(texts), nil }}
	if _, err := llms.NewEmbedder(f, llms.ShareLimits(bad)); err == nil || !strings.Contains(err.Error(), "ShareLimits: the model is invalid: llms: nil model") {
		t.Errorf("got %v, want the invalid model named", err)
	}
}

func TestEmbedderHedgesASlowBatch(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := &fakeEmbedder{answer: func(call int, texts []string) ([][]float32, error) {
			if call == 1 {
				time.Sleep(time.Minute) // a slow first attempt
			}
			return vectorsOf(texts), nil
		}}
		start := time.Now()
		texts := someTexts(2)
		got, err := mustEmbedder(t, f, llms.Middleware(middleware.Hedge(time.Second, 1))).CreateEmbedding(t.Context(), texts)
		if err != nil {
			t.Fatal(err)
		}
		checkVectors(t, got, texts)
		if waited := time.Since(start); waited != time.Second {
			t.Errorf("answered after %v, want the hedge's answer after 1s", waited)
		}
		synctest.Wait()
		time.Sleep(time.Minute) // let the abandoned first attempt end inside the bubble
	})
}
