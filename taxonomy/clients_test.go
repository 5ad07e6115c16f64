package taxonomy_test

import (
	"context"
	"testing"
	"testing/synctest"
	"time"

	"github.com/tmc/langchaingo/llms"

	"github.com/resilientgo/resilient/faultserver"
	"github.com/resilientgo/resilient/taxonomy"
)

// TestRealClientErrors drives langchaingo's real openai, anthropic and ollama
// clients against the fault server for every scripted fault and classifies
// the error each client returns, from the error alone (no transport, no
// middleware): what a user of Classify gets from a bare client. A fault that
// a client reports as success has wantSuccess; package llms turns those into
// failures with the transport's evidence and its response checks.
func TestRealClientErrors(t *testing.T) {
	type want struct {
		kind    taxonomy.Kind
		success bool // the client reports the fault as success
	}
	ok := want{success: true}
	tests := []struct {
		name   string
		step   faultserver.Step
		stream bool
		// what Classify answers for each client's error
		openai, anthropic, ollama want
	}{
		{"429 with Retry-After", faultserver.RateLimited("7"), false,
			want{kind: taxonomy.RateLimited}, want{kind: taxonomy.RateLimited}, want{kind: taxonomy.RateLimited}},
		{"529 overloaded", faultserver.Overloaded(), false,
			want{kind: taxonomy.Overloaded}, want{kind: taxonomy.Overloaded}, want{kind: taxonomy.Overloaded}},
		{"503", faultserver.Status(503, "The server is overloaded or not ready yet."), false,
			want{kind: taxonomy.Overloaded}, want{kind: taxonomy.Overloaded}, want{kind: taxonomy.Overloaded}},
		// Ollama reports an empty-bodied 500 as an empty success.
		{"500 empty body", faultserver.ServerError(), false,
			want{kind: taxonomy.Transient}, want{kind: taxonomy.Transient}, ok},
		// Ollama has no status: the HTML is a JSON syntax error, retried once.
		{"502 HTML", faultserver.BadGateway(), false,
			want{kind: taxonomy.Transient}, want{kind: taxonomy.Transient}, want{kind: taxonomy.Unknown}},
		{"400 context overflow", faultserver.ContextOverflow(), false,
			want{kind: taxonomy.ContextOverflow}, want{kind: taxonomy.ContextOverflow}, want{kind: taxonomy.ContextOverflow}},
		{"401 invalid key", faultserver.InvalidAPIKey(), false,
			want{kind: taxonomy.Permanent}, want{kind: taxonomy.Permanent}, want{kind: taxonomy.Permanent}},
		// Ollama has no billing, and its client drops the status: a bare
		// "quota exceeded" could be a per-minute quota or an exhausted one,
		// so it stays unknown (retried once) until the transport's 429 says
		// rate limited.
		{"quota exhausted", faultserver.QuotaExceeded(), false,
			want{kind: taxonomy.Permanent}, want{kind: taxonomy.Permanent}, want{kind: taxonomy.Unknown}},
		{"connection closed", faultserver.HangUp(), false,
			want{kind: taxonomy.Transient}, want{kind: taxonomy.Transient}, want{kind: taxonomy.Transient}},
		{"truncated JSON", faultserver.TruncatedJSON(), false,
			want{kind: taxonomy.Transient}, want{kind: taxonomy.Transient}, want{kind: taxonomy.Unknown}},
		{"HTML on a 200", faultserver.Malformed(""), false,
			want{kind: taxonomy.Unknown}, want{kind: taxonomy.Unknown}, want{kind: taxonomy.Unknown}},
		{"stream dropped after a chunk", faultserver.DropStream("Hel"), true,
			want{kind: taxonomy.Transient}, want{kind: taxonomy.Transient}, ok},
		{"stream without its end marker", faultserver.NoEndMarker("Hel", "lo"), true,
			ok, want{kind: taxonomy.Transient}, ok},
		{"in-band overloaded_error", faultserver.InBandError("overloaded_error", "Overloaded", "Hel"), true,
			ok, want{kind: taxonomy.Overloaded}, want{kind: taxonomy.Overloaded}},
	}
	clients := []struct {
		format faultserver.Format
		want   func(i int) want
	}{
		{faultserver.OpenAI, func(i int) want { return tests[i].openai }},
		{faultserver.Anthropic, func(i int) want { return tests[i].anthropic }},
		{faultserver.Ollama, func(i int) want { return tests[i].ollama }},
	}
	for i, tt := range tests {
		for _, c := range clients {
			t.Run(tt.name+"/"+c.format.String(), func(t *testing.T) {
				synctest.Test(t, func(t *testing.T) {
					s := faultserver.NewInMemory(tt.step)
					defer s.Close()
					err := callOnce(t, s, c.format, tt.stream)
					w := c.want(i)
					if got := err == nil; got != w.success {
						t.Fatalf("client reported success: got %v (%v), want %v", got, err, w.success)
					}
					if got := taxonomy.Classify(err); err != nil && got.Kind != w.kind {
						t.Errorf("Classify(%q): got %v, want %v", err, got, w.kind)
					}
				})
			})
		}
	}
}

// TestCallerDeadlineTexts checks the classifier on what the clients return
// when the caller's deadline passes during a stalled response: transient by
// the error alone (the middleware, which sees the caller's context, calls it
// canceled). OpenAI flattens it into a fixed string.
func TestCallerDeadlineTexts(t *testing.T) {
	for _, f := range []faultserver.Format{faultserver.OpenAI, faultserver.Anthropic, faultserver.Ollama} {
		t.Run(f.String(), func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				s := faultserver.NewInMemory(faultserver.Stall())
				defer s.Close()
				ctx, cancel := context.WithTimeout(t.Context(), time.Second)
				defer cancel()
				err := call(ctx, t, s, f, false)
				if got := taxonomy.Classify(err).Kind; got != taxonomy.Transient {
					t.Errorf("Classify(%q): got %v, want transient", err, got)
				}
			})
		})
	}
}

func callOnce(t *testing.T, s *faultserver.Server, f faultserver.Format, stream bool) error {
	return call(t.Context(), t, s, f, stream)
}

func call(ctx context.Context, t *testing.T, s *faultserver.Server, f faultserver.Format, stream bool) error {
	t.Helper()
	model, err := s.Model(f, nil)
	if err != nil {
		t.Fatal(err)
	}
	var opts []llms.CallOption
	if stream {
		opts = append(opts, llms.WithStreamingFunc(func(context.Context, []byte) error { return nil }))
	}
	_, err = model.GenerateContent(ctx, []llms.MessageContent{llms.TextParts(llms.ChatMessageTypeHuman, "hi")}, opts...)
	return err
}
