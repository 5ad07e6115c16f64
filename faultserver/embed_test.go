package faultserver_test

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"testing/synctest"

	"github.com/tmc/langchaingo/embeddings"

	"github.com/resilientgo/resilient/faultserver"
)

// embedders are the real langchaingo clients that speak an embeddings
// endpoint of the server (Anthropic has none).
var embedders = []struct {
	name   string
	client func(*faultserver.Server) (embeddings.EmbedderClient, error)
	path   string
}{
	{"openai", func(s *faultserver.Server) (embeddings.EmbedderClient, error) { return s.OpenAI() }, "/v1/embeddings"},
	{"ollama", func(s *faultserver.Server) (embeddings.EmbedderClient, error) { return s.Ollama() }, "/api/embed"},
}

var abc = []string{"alpha", "beta", "gamma"}

func TestEmbeddingsReplyOneVectorPerInput(t *testing.T) {
	for _, e := range embedders {
		t.Run(e.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				s := faultserver.NewInMemory()
				defer s.Close()
				c, err := e.client(s)
				if err != nil {
					t.Fatal(err)
				}
				got, err := c.CreateEmbedding(t.Context(), abc)
				if err != nil {
					t.Fatal(err)
				}
				want := [][]float32{faultserver.Vector("alpha"), faultserver.Vector("beta"), faultserver.Vector("gamma")}
				if !slices.EqualFunc(got, want, slices.Equal) {
					t.Errorf("vectors: got %v, want %v", got, want)
				}
				var inputs []string
				for _, r := range s.Requests() {
					if r.Path != e.path || !r.Embeddings {
						t.Errorf("request to %s (embeddings %v), want %s", r.Path, r.Embeddings, e.path)
					}
					inputs = append(inputs, r.Inputs()...)
				}
				if !slices.Equal(inputs, abc) {
					t.Errorf("inputs sent: got %q, want %q", inputs, abc)
				}
			})
		})
	}
}

func TestVectorIsDeterministicAndDistinct(t *testing.T) {
	a, b := faultserver.Vector("alpha"), faultserver.Vector("beta")
	if len(a) != faultserver.EmbeddingDimensions || !slices.Equal(a, faultserver.Vector("alpha")) || slices.Equal(a, b) {
		t.Errorf("Vector: got %v and %v, want %d deterministic numbers distinct per text", a, b, faultserver.EmbeddingDimensions)
	}
	for _, x := range a {
		if x < -1 || x >= 1 {
			t.Errorf("Vector(alpha) has %v, want numbers in [-1, 1)", x)
		}
	}
}

// TestEmbeddingsFaults pins what each real client returns for each fault on
// its embeddings endpoint: the outcome summarized as the vector count and
// the error text.
func TestEmbeddingsFaults(t *testing.T) {
	tests := []struct {
		name         string
		step         faultserver.Step
		openai, olla string
	}{
		{"rate limited", faultserver.RateLimited("7"),
			"0 vectors, error: failed to create openai embeddings: API returned unexpected status code: 429: Rate limit reached for gpt-4o-mini in organization org-test on requests per min (RPM): Limit 3, Used 3, Requested 1. Please try again in 7s. Visit https://platform.openai.com/account/rate-limits to learn more.",
			"0 vectors, error: rate limit exceeded"},
		{"server error", faultserver.ServerError(),
			"0 vectors, error: failed to create openai embeddings: API returned unexpected status code: 500",
			"0 vectors, error: something went wrong, please see the ollama server logs for details"},
		{"batch too large", faultserver.BatchTooLarge(),
			"0 vectors, error: failed to create openai embeddings: API returned unexpected status code: 400: Requested 453357 tokens, max 300000 tokens per request",
			"0 vectors, error: the input length exceeds the context length"},
		{"too many inputs", faultserver.TooManyInputs(),
			"0 vectors, error: failed to create openai embeddings: API returned unexpected status code: 400: Too many inputs. The max number of inputs is 16.  We hope to increase the number of inputs per request soon. Please contact us through an Azure support request at: https://go.microsoft.com/fwlink/?linkid=2213926 for further questions.",
			"0 vectors, error: the input length exceeds the context length"},
		{"input too long", faultserver.ContextOverflow(),
			"0 vectors, error: failed to create openai embeddings: API returned unexpected status code: 400: Invalid 'input': maximum context length is 8192 tokens.",
			"0 vectors, error: the input length exceeds the context length"},
		{"one vector missing", faultserver.WrongVectorCount(-1),
			"2 vectors, error: unexpected length of response",
			"0 vectors, error: no response"},
		{"one vector too many", faultserver.WrongVectorCount(1),
			"4 vectors, error: unexpected length of response",
			"6 vectors, error: not all input got embedded"},
		{"hang up", faultserver.HangUp(),
			"0 vectors, error: failed to create openai embeddings: network error: failed to reach API server",
			`0 vectors, error: Post "http://HOST/api/embed": EOF`},
		{"truncated body", faultserver.TruncatedJSON(),
			"0 vectors, error: failed to create openai embeddings: decode response: unexpected EOF",
			"0 vectors, error: unexpected EOF"},
		{"in-band error object", faultserver.InBandError("server_error", "The server had an error"),
			"0 vectors, error: failed to create openai embeddings: empty response",
			"0 vectors, error: no response"},
	}
	for _, tt := range tests {
		for _, e := range embedders {
			t.Run(tt.name+"/"+e.name, func(t *testing.T) {
				synctest.Test(t, func(t *testing.T) {
					s := faultserver.NewInMemory(tt.step)
					defer s.Close()
					c, err := e.client(s)
					if err != nil {
						t.Fatal(err)
					}
					got := summarizeVectors(c.CreateEmbedding(context.Background(), abc))
					want := tt.openai
					if e.name == "ollama" {
						want = tt.olla
					}
					if got != want {
						t.Errorf("got  %s\nwant %s", got, want)
					}
				})
			})
		}
	}
}

func summarizeVectors(vecs [][]float32, err error) string {
	s := fmt.Sprintf("%d vectors", len(vecs))
	if err != nil {
		s += ", error: " + hostPort.ReplaceAllString(err.Error(), "HOST")
	}
	return s
}

// TestWrongVectorCountOnAChatEndpoint checks that the embeddings-only step
// plays on a chat endpoint as an empty reply, and that a chat request is not
// taken for an embeddings one.
func TestWrongVectorCountOnAChatEndpoint(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := faultserver.NewInMemory(faultserver.WrongVectorCount(1))
		defer s.Close()
		llm, err := s.OpenAI()
		if err != nil {
			t.Fatal(err)
		}
		got, err := llm.Call(t.Context(), "hi")
		if err != nil || got != "" {
			t.Errorf("got (%q, %v), want an empty reply", got, err)
		}
		if r := s.Requests()[0]; r.Embeddings || r.Inputs() != nil {
			t.Errorf("chat request: Embeddings %v, Inputs %q; want false, nil", r.Embeddings, r.Inputs())
		}
	})
}
