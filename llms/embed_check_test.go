package llms

import (
	"context"
	"errors"
	"testing"

	"github.com/resilientgo/resilient/internal/wire"
	"github.com/resilientgo/resilient/middleware"
	"github.com/resilientgo/resilient/taxonomy"
)

// wireClient is an embeddings client that records evidence as the
// Transport would, then answers vecs and err.
type wireClient struct {
	status int
	vecs   [][]float32
	err    error
}

func (c wireClient) CreateEmbedding(ctx context.Context, _ []string) ([][]float32, error) {
	if s := wire.SlotFrom(ctx); s != nil && c.status != 0 {
		s.Record(taxonomy.Evidence{Status: c.status})
	}
	return c.vecs, c.err
}

// Vectors that come back with an error and in the wrong count are a wrong
// vector count, unless the wire says the request failed (from 400 up): then
// the error is the provider's, with its status.
func TestEmbedderWrongCountOnlyWhenTheWireSucceeded(t *testing.T) {
	clientErr := errors.New("openai: embeddings: wrong count")
	tests := []struct {
		name      string
		status    int
		wantCount bool
	}{
		{"no transport", 0, true},
		{"200", 200, true},
		{"399", 399, true},
		{"400", 400, false},
		{"500", 500, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e, err := NewEmbedder(wireClient{status: tt.status, vecs: [][]float32{{1}}, err: clientErr},
				Middleware(middleware.MaxAttempts(1)))
			if err != nil {
				t.Fatal(err)
			}
			_, err = e.CreateEmbedding(t.Context(), []string{"a", "b"})
			if errors.Is(err, ErrVectorCount) != tt.wantCount || !errors.Is(err, clientErr) {
				t.Fatalf("got %v; want a wrong vector count: %v, with the client's error", err, tt.wantCount)
			}
			if got := taxonomy.Classify(err).Status; !tt.wantCount && got != tt.status {
				t.Errorf("classified with status %d, want %d", got, tt.status)
			}
		})
	}
}
