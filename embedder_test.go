package resilient_test

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/tmc/langchaingo/embeddings"
	"github.com/tmc/langchaingo/llms/openai"

	"github.com/resilientgo/resilient"
	"github.com/resilientgo/resilient/faultserver"
	"github.com/resilientgo/resilient/limit"
	"github.com/resilientgo/resilient/llms"
)

// TestEmbedderUnderLangchaingoBatching: langchaingo's own batching over the
// resilient client, against the real OpenAI client: a rate-limited batch is
// sent again after the Retry-After, and nothing else is.
func TestEmbedderUnderLangchaingoBatching(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := faultserver.NewInMemory(faultserver.Reply(""), faultserver.RateLimited("2"), faultserver.Reply(""))
		defer s.Close()
		llm, err := s.OpenAI(openai.WithHTTPClient(&http.Client{Transport: llms.NewTransport(s.Client().Transport)}))
		if err != nil {
			t.Fatal(err)
		}
		docs, err := embeddings.NewEmbedder(resilient.Embedder(llm), embeddings.WithBatchSize(2))
		if err != nil {
			t.Fatal(err)
		}
		texts := []string{"a", "b", "c", "d", "e", "f"}
		start := time.Now()
		got, err := docs.EmbedDocuments(t.Context(), slices.Clone(texts))
		if err != nil {
			t.Fatal(err)
		}
		for i, text := range texts {
			if !slices.Equal(got[i], faultserver.Vector(text)) {
				t.Fatalf("vector %d is not the vector of %q", i, text)
			}
		}
		var sent [][]string
		for _, r := range s.Requests() {
			sent = append(sent, r.Inputs())
		}
		want := [][]string{{"a", "b"}, {"c", "d"}, {"c", "d"}, {"e", "f"}}
		if !slices.EqualFunc(sent, want, slices.Equal) || time.Since(start) != 2*time.Second {
			t.Errorf("sent %q in %v, want %q in 2s", sent, time.Since(start), want)
		}
	})
}

func TestEmbedderSharesLimitsWithTheChatModel(t *testing.T) {
	limiter, err := limit.NewLocalLimiter(10, time.Second, resilient.Forever)
	if err != nil {
		t.Fatal(err)
	}
	model := resilient.Model(openaiModel(t), resilient.RateLimit(limiter))
	embedder := resilient.Embedder(openaiModel(t), resilient.ShareLimits(model))
	if embedder.Err() != nil || embedder.Breaker() == nil || embedder.Breaker() != model.Breaker() {
		t.Errorf("embedder (err %v) has breaker %p, want the model's %p", embedder.Err(), embedder.Breaker(), model.Breaker())
	}
	alone := resilient.Embedder(openaiModel(t))
	if alone.Breaker() == model.Breaker() {
		t.Error("an embedder without ShareLimits uses the model's breaker")
	}
}

// TestEmbedderSharesTheModelsConcurrencyLimit: through the real OpenAI
// client, a chat model capped at 3 requests in flight and an embedder of
// the same deployment sharing its limits, ten callers each, never have more
// than 3 requests at the server at once.
func TestEmbedderSharesTheModelsConcurrencyLimit(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := faultserver.NewInMemory(faultserver.Reply("ok").After(time.Second))
		defer s.Close()
		llm, err := s.OpenAI(openai.WithHTTPClient(&http.Client{Transport: llms.NewTransport(s.Client().Transport)}))
		if err != nil {
			t.Fatal(err)
		}
		model := resilient.Model(llm, resilient.MaxConcurrent(3, time.Minute))
		docs, err := embeddings.NewEmbedder(resilient.Embedder(llm, resilient.ShareLimits(model)))
		if err != nil {
			t.Fatal(err)
		}
		var wg sync.WaitGroup
		for range 10 {
			wg.Go(func() {
				if _, err := model.Call(context.Background(), "Say hello"); err != nil {
					t.Errorf("chat: %v", err)
				}
			})
			wg.Go(func() {
				if _, err := docs.EmbedQuery(context.Background(), "a text"); err != nil {
					t.Errorf("embedding: %v", err)
				}
			})
		}
		wg.Wait()
		if s.Count() != 20 || s.MaxInFlight() != 3 {
			t.Errorf("%d requests, %d at most in flight; want 20, 3", s.Count(), s.MaxInFlight())
		}
	})
}

// An embedder splits a batch the provider rejects as too large and merges
// the vectors back in order. Here the real OpenAI client talks to a
// loopback server that accepts at most two texts per request.
func ExampleEmbedder() {
	srv := faultserver.New(faultserver.Func(func(r *faultserver.Request) faultserver.Step {
		if len(r.Inputs()) > 2 {
			return faultserver.BatchTooLarge() // "Requested 453357 tokens, max 300000 tokens per request"
		}
		return faultserver.Reply("")
	}))
	defer srv.Close()
	llm, err := srv.OpenAI()
	if err != nil {
		panic(err)
	}
	docs, err := embeddings.NewEmbedder(resilient.Embedder(llm))
	if err != nil {
		panic(err)
	}
	vectors, err := docs.EmbedDocuments(context.Background(), []string{"one", "two", "three", "four"})
	fmt.Println(len(vectors), "vectors,", err)
	for _, r := range srv.Requests() {
		fmt.Println(r.Inputs())
	}
	// Output:
	// 4 vectors, <nil>
	// [one two three four]
	// [one two]
	// [three four]
}
