package resilient_test

import (
	"context"
	"fmt"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tmc/langchaingo/embeddings"
	"github.com/tmc/langchaingo/llms/openai"

	"github.com/resilientgo/resilient"
	"github.com/resilientgo/resilient/faultserver"
	"github.com/resilientgo/resilient/limit"
)

// The README's embeddings example: a corpus indexed through a 429 and a
// batch too large, every vector in order.
func TestREADMEEmbeddings(t *testing.T) {
	var tooLarge atomic.Int32
	srv := faultserver.New(faultserver.Func(func(r *faultserver.Request) faultserver.Step {
		switch {
		case r.Index == 0:
			return faultserver.RateLimited("0")
		case len(r.Inputs()) > 16:
			tooLarge.Add(1)
			return faultserver.BatchTooLarge()
		}
		return faultserver.Reply("")
	}))
	defer srv.Close()
	t.Setenv("OPENAI_API_KEY", "sk-test")
	t.Setenv("OPENAI_BASE_URL", srv.OpenAIBaseURL())
	limiter, err := limit.NewLocalLimiter(100, time.Second, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	texts := make([]string, 100)
	for i := range texts {
		texts[i] = fmt.Sprintf("document %d", i)
	}

	vectors, err := readmeEmbeddings(t.Context(), limiter, texts)
	if err != nil {
		t.Fatal(err)
	}
	if tooLarge.Load() == 0 {
		t.Error("no batch was too large: the split went untested")
	}
	if len(vectors) != len(texts) {
		t.Fatalf("got %d vectors for %d texts", len(vectors), len(texts))
	}
	for i, v := range vectors {
		if !slices.Equal(v, faultserver.Vector(texts[i])) {
			t.Fatalf("vector %d is not the vector of text %d", i, i)
		}
	}
}

func readmeEmbeddings(ctx context.Context, limiter limit.Limiter, texts []string) ([][]float32, error) {
	// readme:begin embeddings
	llm, _ := openai.New(openai.WithHTTPClient(resilient.HTTPClient()))
	model := resilient.Model(llm, resilient.RateLimit(limiter))
	docs, _ := embeddings.NewEmbedder(resilient.Embedder(llm, resilient.ShareLimits(model)))
	vectors, err := docs.EmbedDocuments(ctx, texts) // every vector, in order
	// readme:end
	return vectors, err
}
