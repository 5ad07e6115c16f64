package llms_test

import (
	"errors"
	"fmt"
	"net/http"
	"slices"
	"testing"
	"testing/synctest"
	"time"

	"github.com/tmc/langchaingo/embeddings"
	"github.com/tmc/langchaingo/llms/ollama"
	"github.com/tmc/langchaingo/llms/openai"

	"github.com/resilientgo/resilient/faultserver"
	"github.com/resilientgo/resilient/llms"
	"github.com/resilientgo/resilient/middleware"
	"github.com/resilientgo/resilient/observe"
	"github.com/resilientgo/resilient/observe/observetest"
)

// The tests in this file drive langchaingo's real openai and ollama
// embedding clients against the fault server's embeddings endpoints, in
// memory and inside synctest bubbles. langchaingo's openai client sends a
// batch as one request; its ollama client sends one request per text.

// realEmbedder builds the provider's real client against s, with the
// evidence transport in front of the server's own.
func realEmbedder(t *testing.T, s *faultserver.Server, f faultserver.Format) embeddings.EmbedderClient {
	t.Helper()
	hc := &http.Client{Transport: llms.NewTransport(s.Client().Transport)}
	var (
		c   embeddings.EmbedderClient
		err error
	)
	switch f {
	case faultserver.OpenAI:
		c, err = s.OpenAI(openai.WithHTTPClient(hc))
	case faultserver.Ollama:
		c, err = s.Ollama(ollama.WithHTTPClient(hc))
	}
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func mustEmbedder(t *testing.T, c embeddings.EmbedderClient, opts ...llms.Option) *llms.Embedder {
	t.Helper()
	e, err := llms.NewEmbedder(c, opts...)
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// someTexts returns "text 0" to "text n-1".
func someTexts(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("text %d", i)
	}
	return out
}

// checkVectors fails the test unless got holds the server's vector of each
// text, in order.
func checkVectors(t *testing.T, got [][]float32, texts []string) {
	t.Helper()
	if len(got) != len(texts) {
		t.Fatalf("got %d vectors, want %d", len(got), len(texts))
	}
	for i, text := range texts {
		if !slices.Equal(got[i], faultserver.Vector(text)) {
			t.Fatalf("vector %d is not the vector of %q: vectors out of order or mixed", i, text)
		}
	}
}

// sends counts how many requests carried each text.
func sends(s *faultserver.Server) map[string]int {
	n := map[string]int{}
	for _, r := range s.Requests() {
		for _, in := range r.Inputs() {
			n[in]++
		}
	}
	return n
}

// batches lists the inputs of each request, in order.
func batches(s *faultserver.Server) [][]string {
	var out [][]string
	for _, r := range s.Requests() {
		out = append(out, r.Inputs())
	}
	return out
}

func TestEmbedderRetriesOnlyTheRateLimitedBatch(t *testing.T) {
	tests := []struct {
		format faultserver.Format
		twice  []string // texts sent twice; every other text is sent once
	}{
		// One request per batch: the whole batch of the 429 is sent again.
		{faultserver.OpenAI, []string{"text 50", "text 51", "text 52", "text 53", "text 54"}},
		// One request per text: the batch is sent again from its first text,
		// so the texts up to the one that met the 429 are sent twice.
		{faultserver.Ollama, []string{"text 50", "text 51", "text 52"}},
	}
	for _, tt := range tests {
		t.Run(tt.format.String(), func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				limited := false
				s := faultserver.NewInMemory(faultserver.Func(func(r *faultserver.Request) faultserver.Step {
					if !limited && slices.Contains(r.Inputs(), "text 52") {
						limited = true // the 11th of 20 batches, once
						return faultserver.RateLimited("3")
					}
					return faultserver.Reply("")
				}))
				defer s.Close()
				emb, err := embeddings.NewEmbedder(mustEmbedder(t, realEmbedder(t, s, tt.format)), embeddings.WithBatchSize(5))
				if err != nil {
					t.Fatal(err)
				}
				texts := someTexts(100)
				start := time.Now()
				got, err := emb.EmbedDocuments(t.Context(), slices.Clone(texts))
				if err != nil {
					t.Fatal(err)
				}
				if waited := time.Since(start); waited != 3*time.Second {
					t.Errorf("the job took %v, want exactly the Retry-After of 3s", waited)
				}
				checkVectors(t, got, texts)
				n := sends(s)
				for _, text := range texts {
					want := 1
					if slices.Contains(tt.twice, text) {
						want = 2
					}
					if n[text] != want {
						t.Errorf("%q sent %d times, want %d", text, n[text], want)
					}
				}
			})
		})
	}
}

// TestEmbedderSplitsABatchTooLarge: a server that takes at most 4 inputs
// per request gets a batch of 16 in halves, and the vectors come back
// merged in order.
func TestEmbedderSplitsABatchTooLarge(t *testing.T) {
	for name, tooLarge := range map[string]faultserver.Step{"too many tokens": faultserver.BatchTooLarge(), "too many inputs": faultserver.TooManyInputs()} {
		t.Run(name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				s := faultserver.NewInMemory(faultserver.Func(func(r *faultserver.Request) faultserver.Step {
					if len(r.Inputs()) > 4 {
						return tooLarge
					}
					return faultserver.Reply("")
				}))
				defer s.Close()
				rec := &observetest.Recorder{}
				e := mustEmbedder(t, realEmbedder(t, s, faultserver.OpenAI), llms.Middleware(middleware.Observe(rec)))
				texts := someTexts(16)
				got, err := e.CreateEmbedding(t.Context(), texts)
				if err != nil {
					t.Fatal(err)
				}
				checkVectors(t, got, texts)
				var sizes []int
				for _, b := range batches(s) {
					sizes = append(sizes, len(b))
				}
				if want := []int{16, 8, 4, 4, 8, 4, 4}; !slices.Equal(sizes, want) {
					t.Errorf("batch sizes sent: got %v, want %v", sizes, want)
				}
				var split []int
				for _, e := range observetest.Of[observe.BatchSplit](rec) {
					split = append(split, e.Texts)
				}
				if want := []int{16, 8, 8}; !slices.Equal(split, want) {
					t.Errorf("BatchSplit events: got %v, want %v", split, want)
				}
				ends := observetest.Of[observe.CallEnd](rec)
				if len(ends) != 1 || ends[0].Reason != 0 || ends[0].Attempts != 7 ||
					ends[0].Target.Operation != observe.OperationEmbeddings {
					t.Errorf("CallEnd: got %+v, want one embeddings call, ok after 7 attempts", ends)
				}
			})
		})
	}
}

func TestEmbedderNamesTheTextTooLong(t *testing.T) {
	tests := []struct {
		format faultserver.Format
		sent   [][]string // the requests, in order
	}{
		{faultserver.OpenAI, [][]string{
			someTexts(8), // too large: text 5 is in it
			someTexts(4), // the first half passes
			{"text 4", "text 5", "text 6", "text 7"},
			{"text 4", "text 5"},
			{"text 4"},
			{"text 5"}, // alone, once, and the call ends
		}},
		{faultserver.Ollama, [][]string{
			{"text 0"}, {"text 1"}, {"text 2"}, {"text 3"}, {"text 4"}, {"text 5"},
			{"text 0"}, {"text 1"}, {"text 2"}, {"text 3"},
			{"text 4"}, {"text 5"},
			{"text 4"}, {"text 5"},
			{"text 4"},
			{"text 5"},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.format.String(), func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				s := faultserver.NewInMemory(faultserver.Func(func(r *faultserver.Request) faultserver.Step {
					if slices.Contains(r.Inputs(), "text 5") {
						return faultserver.ContextOverflow()
					}
					return faultserver.Reply("")
				}))
				defer s.Close()
				_, err := mustEmbedder(t, realEmbedder(t, s, tt.format)).CreateEmbedding(t.Context(), someTexts(8))
				var tooLong *llms.TextTooLongError
				if !errors.As(err, &tooLong) || tooLong.Index != 5 || tooLong.Texts != 8 || tooLong.Bytes != len("text 5") {
					t.Fatalf("got %v, want a TextTooLongError for text 5 of 8", err)
				}
				if !errors.Is(err, middleware.ErrContextOverflow) {
					t.Errorf("errors.Is(err, ErrContextOverflow) = false for %v", err)
				}
				if got := batches(s); !slices.EqualFunc(got, tt.sent, slices.Equal) {
					t.Errorf("requests:\ngot  %q\nwant %q", got, tt.sent)
				}
			})
		})
	}
}

func TestEmbedderRetriesAWrongVectorCount(t *testing.T) {
	tests := []struct {
		name     string
		format   faultserver.Format
		script   []faultserver.Step
		requests int
		ok       bool
	}{
		{"openai recovers", faultserver.OpenAI, []faultserver.Step{faultserver.WrongVectorCount(-1), faultserver.Reply("")}, 2, true},
		{"openai gives up", faultserver.OpenAI, []faultserver.Step{faultserver.WrongVectorCount(1)}, 3, false},
		// One request per text: three requests per attempt.
		{"ollama recovers", faultserver.Ollama, []faultserver.Step{faultserver.WrongVectorCount(1), faultserver.Reply("")}, 6, true},
		{"ollama gives up", faultserver.Ollama, []faultserver.Step{faultserver.WrongVectorCount(1)}, 9, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				s := faultserver.NewInMemory(tt.script...)
				defer s.Close()
				texts := someTexts(3)
				got, err := mustEmbedder(t, realEmbedder(t, s, tt.format)).CreateEmbedding(t.Context(), texts)
				if tt.ok {
					if err != nil {
						t.Fatal(err)
					}
					checkVectors(t, got, texts)
				} else if !errors.Is(err, llms.ErrVectorCount) || !errors.Is(err, middleware.ErrExhausted) {
					t.Fatalf("got %v, want the attempts exhausted on a wrong vector count", err)
				}
				if s.Count() != tt.requests {
					t.Errorf("%d requests, want %d", s.Count(), tt.requests)
				}
			})
		})
	}
}
