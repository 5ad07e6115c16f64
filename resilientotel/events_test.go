package resilientotel_test

import (
	"context"
	"testing"
	"testing/synctest"
	"time"

	lcllms "github.com/tmc/langchaingo/llms"
	"github.com/tmc/langchaingo/llms/openai"

	"github.com/resilientgo/resilient"
	"github.com/resilientgo/resilient/faultserver"
	"github.com/resilientgo/resilient/llms"
)

func conversation() []lcllms.MessageContent {
	return []lcllms.MessageContent{
		lcllms.TextParts(lcllms.ChatMessageTypeHuman, "first question"),
		lcllms.TextParts(lcllms.ChatMessageTypeAI, "first answer"),
		lcllms.TextParts(lcllms.ChatMessageTypeHuman, "second question"),
		lcllms.TextParts(lcllms.ChatMessageTypeAI, "second answer"),
		lcllms.TextParts(lcllms.ChatMessageTypeHuman, "third question"),
	}
}

// Fallbacks, hedges, compactions and stream restarts are events on the
// call's span, through the real client; fallbacks and hedges are counted.
func TestCallEvents(t *testing.T) {
	tests := []struct {
		name      string
		script    []faultserver.Step
		opts      func(h *harness, t *testing.T) []resilient.ModelOption
		call      func(ctx context.Context, m lcllms.Model) error
		event     string
		attrs     map[string]string // rendered values
		attempts  int
		last      map[string]string // attributes of the attempt that started last
		counter   string            // the metric counting the event, if any
		counterAt string            // its data point
	}{
		{
			name:   "fallback",
			script: []faultserver.Step{faultserver.Overloaded()},
			opts: func(h *harness, t *testing.T) []resilient.ModelOption {
				fb := faultserver.NewInMemory(faultserver.Reply("from the fallback"))
				t.Cleanup(fb.Close)
				llm, err := fb.OpenAI(openai.WithModel("gpt-4o"))
				if err != nil {
					t.Fatal(err)
				}
				return []resilient.ModelOption{resilient.Fallbacks(llm)}
			},
			event: "resilient.fallback",
			attrs: map[string]string{"resilient.target": "openai/gpt-4o-mini", "resilient.fallback": "openai/gpt-4o",
				"error.type": "overloaded"},
			attempts:  4,
			last:      map[string]string{"resilient.target": "openai/gpt-4o", "resilient.attempt": "1"},
			counter:   "resilient.fallbacks",
			counterAt: "error.type=overloaded,resilient.fallback=openai/gpt-4o,resilient.target=openai/gpt-4o-mini",
		},
		{
			name:   "hedge",
			script: []faultserver.Step{faultserver.Reply("slow").After(5 * time.Second), faultserver.Reply("fast")},
			opts: func(*harness, *testing.T) []resilient.ModelOption {
				return []resilient.ModelOption{resilient.Hedge(time.Second, 1)}
			},
			event:     "resilient.hedge",
			attrs:     map[string]string{"resilient.target": "openai/gpt-4o-mini", "resilient.attempt": "2"},
			attempts:  2,
			last:      map[string]string{"resilient.hedge": "true", "resilient.attempt": "2"},
			counter:   "resilient.hedges",
			counterAt: "resilient.target=openai/gpt-4o-mini",
		},
		{
			name:   "compaction",
			script: []faultserver.Step{faultserver.ContextOverflow(), faultserver.Reply("ok")},
			call: func(ctx context.Context, m lcllms.Model) error {
				_, err := m.GenerateContent(ctx, conversation())
				return err
			},
			event:    "resilient.compaction",
			attrs:    map[string]string{"resilient.target": "openai/gpt-4o-mini", "resilient.messages.before": "5"},
			attempts: 2,
			last:     map[string]string{"resilient.attempt": "2"},
		},
		{
			name:   "stream restart",
			script: []faultserver.Step{faultserver.DropStream("Hel"), faultserver.ReplyChunks("Hel", "lo")},
			opts: func(*harness, *testing.T) []resilient.ModelOption {
				return []resilient.ModelOption{resilient.ModelOptions(llms.OnStreamRestart(func(context.Context, string) error { return nil }))}
			},
			call: func(ctx context.Context, m lcllms.Model) error {
				_, err := m.GenerateContent(ctx, hello(), lcllms.WithStreamingFunc(func(context.Context, []byte) error { return nil }))
				return err
			},
			event:    "resilient.stream_restart",
			attrs:    map[string]string{"resilient.target": "openai/gpt-4o-mini", "resilient.stream.chunks": "1"},
			attempts: 2,
			last:     map[string]string{"resilient.attempt": "2"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				h := newHarness(t)
				s := faultserver.NewInMemory(tt.script...)
				defer s.Close()
				opts := []resilient.ModelOption{resilient.Observe(h.obs)}
				if tt.opts != nil {
					opts = append(opts, tt.opts(h, t)...)
				}
				model := resilient.Model(h.openAI(t, s), opts...)
				call := tt.call
				if call == nil {
					call = func(ctx context.Context, m lcllms.Model) error {
						_, err := m.GenerateContent(ctx, hello())
						return err
					}
				}
				if err := call(t.Context(), model); err != nil {
					t.Fatal(err)
				}
				synctest.Wait() // a hedge that lost reports as it returns

				calls := h.named("chat gpt-4o-mini")
				if len(calls) != 1 {
					t.Fatalf("got %d call spans, want 1", len(calls))
				}
				var found bool
				for _, e := range calls[0].Events {
					if e.Name != tt.event {
						continue
					}
					found = true
					for k, want := range tt.attrs {
						if got, _ := attr(e.Attributes, k); got.String() != want {
							t.Errorf("%s %s: got %q, want %q", tt.event, k, got.String(), want)
						}
					}
				}
				if !found {
					t.Errorf("call span events: got %v, want %s", calls[0].Events, tt.event)
				}
				if got := len(h.named("resilient.attempt")); got != tt.attempts {
					t.Errorf("attempt spans: got %d, want %d", got, tt.attempts)
				}
				attempts := h.children(calls[0])
				for _, a := range attempts {
					if a.Name != "resilient.attempt" {
						t.Errorf("child %q of the call span is not an attempt", a.Name)
					}
				}
				last := attempts[len(attempts)-1]
				for k, want := range tt.last {
					if got, _ := attr(last.Attributes, k); got.String() != want {
						t.Errorf("last attempt %s: got %q, want %q", k, got.String(), want)
					}
				}
				if tt.counter != "" {
					if got := byAttrs(h.metrics(t), tt.counter); len(got) != 1 || got[tt.counterAt] != 1 {
						t.Errorf("%s: got %v, want {%s: 1}", tt.counter, got, tt.counterAt)
					}
				}
			})
		})
	}
}
