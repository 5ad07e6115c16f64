package llms

import (
	"context"
	"errors"
	"strings"
	"testing"

	lcllms "github.com/tmc/langchaingo/llms"

	"github.com/resilientgo/resilient/internal/wire"
	"github.com/resilientgo/resilient/taxonomy"
)

func choice(content, stop string) *lcllms.ContentChoice {
	return &lcllms.ContentChoice{Content: content, StopReason: stop}
}

// TestCheckDecidesFromTheEvidence runs the response checks on each shape of
// response and evidence they tell apart: the wire evidence first, then the
// provider's own signs of a cut stream when no transport saw the attempt.
// testGuard returns a stopped stream guard that delivered n chunks.
func testGuard(t *testing.T, n int) *guard {
	_, g := newGuard(t.Context(), func(context.Context, []byte) error { return nil }, nil, 0, 0, nil)
	for range n {
		if err := g.onChunk(t.Context(), []byte("x")); err != nil {
			t.Fatal(err)
		}
	}
	g.Stop()
	return g
}

func TestCheckDecidesFromTheEvidence(t *testing.T) {
	cut := errors.New("connection reset by peer")
	streamed := func() *guard { return testGuard(t, 0) }
	delivered := func() *guard { return testGuard(t, 2) }
	tests := []struct {
		name     string
		provider provider
		resp     *lcllms.ContentResponse
		ev       taxonomy.Evidence
		seen     bool
		g        *guard
		want     error  // nil: the response is usable
		wantText string // in the error's text
	}{
		{"in-band error", otherProvider, &lcllms.ContentResponse{Choices: []*lcllms.ContentChoice{choice("hi", "stop")}},
			taxonomy.Evidence{Status: 200, Stream: true, InBand: true, ErrorType: "overloaded_error"}, true, streamed(), ErrInBandError, "overloaded_error"},
		{"an error status the client took for a success", otherProvider, &lcllms.ContentResponse{Choices: []*lcllms.ContentChoice{choice("", "")}},
			taxonomy.Evidence{Status: 400}, true, nil, ErrEmptyResponse, "HTTP 400"},
		{"a stream cut by a read error", otherProvider, &lcllms.ContentResponse{Choices: []*lcllms.ContentChoice{choice("Hel", "")}},
			taxonomy.Evidence{Status: 200, Stream: true, BodyErr: cut}, true, delivered(), ErrTruncatedStream, "connection reset by peer"},
		{"a stream that ended early without an error", otherProvider, &lcllms.ContentResponse{Choices: []*lcllms.ContentChoice{choice("Hel", "")}},
			taxonomy.Evidence{Status: 200, Stream: true}, true, delivered(), ErrTruncatedStream, "stream ended without its end marker"},
		{"a stream cut before any choice", otherProvider, &lcllms.ContentResponse{},
			taxonomy.Evidence{Status: 200, Stream: true}, true, streamed(), ErrTruncatedStream, ""},
		{"no end marker but a stop reason", otherProvider, &lcllms.ContentResponse{Choices: []*lcllms.ContentChoice{choice("Hello", "stop")}},
			taxonomy.Evidence{Status: 200, Stream: true}, true, delivered(), nil, ""},
		{"end marker and no stop reason", emptyStopTruncates, &lcllms.ContentResponse{Choices: []*lcllms.ContentChoice{choice("Hello", "")}},
			taxonomy.Evidence{Status: 200, Stream: true, EndMarker: true}, true, delivered(), nil, ""},
		{"no choices", otherProvider, &lcllms.ContentResponse{}, taxonomy.Evidence{}, false, nil, ErrNoChoices, ""},
		{"nil response", otherProvider, nil, taxonomy.Evidence{}, false, nil, ErrNoChoices, ""},
		// Without the transport, each client family shows a cut stream its own way.
		{"openai stream with no stop reason", emptyStopTruncates, &lcllms.ContentResponse{Choices: []*lcllms.ContentChoice{choice("Hel", "")}},
			taxonomy.Evidence{}, false, delivered(), ErrTruncatedStream, ""},
		{"openai stream with a stop reason", emptyStopTruncates, &lcllms.ContentResponse{Choices: []*lcllms.ContentChoice{choice("Hello", "stop")}},
			taxonomy.Evidence{}, false, delivered(), nil, ""},
		{"openai without a stream, no stop reason", emptyStopTruncates, &lcllms.ContentResponse{Choices: []*lcllms.ContentChoice{choice("Hello", "")}},
			taxonomy.Evidence{}, false, nil, nil, ""},
		{"googleai stream, unspecified finish", unspecifiedTruncates, &lcllms.ContentResponse{Choices: []*lcllms.ContentChoice{choice("Hel", "FinishReasonUnspecified")}},
			taxonomy.Evidence{}, false, delivered(), ErrTruncatedStream, ""},
		{"googleai stream, finished", unspecifiedTruncates, &lcllms.ContentResponse{Choices: []*lcllms.ContentChoice{choice("Hello", "FinishReasonStop")}},
			taxonomy.Evidence{}, false, delivered(), nil, ""},
		{"ollama stream, chunks then empty content", emptyContentTruncates, &lcllms.ContentResponse{Choices: []*lcllms.ContentChoice{choice("", "")}},
			taxonomy.Evidence{}, false, delivered(), ErrTruncatedStream, ""},
		{"ollama stream, chunks then only reasoning", emptyContentTruncates, &lcllms.ContentResponse{Choices: []*lcllms.ContentChoice{{ReasoningContent: "thinking", StopReason: ""}}},
			taxonomy.Evidence{}, false, delivered(), ErrTruncatedStream, "stream ended without its end marker"},
		{"ollama stream, no chunks and empty content", emptyContentTruncates, &lcllms.ContentResponse{Choices: []*lcllms.ContentChoice{choice("", "")}},
			taxonomy.Evidence{}, false, streamed(), ErrEmptyResponse, ""},
		{"error stop reason", otherProvider, &lcllms.ContentResponse{Choices: []*lcllms.ContentChoice{choice("", "content_filter")}},
			taxonomy.Evidence{}, false, nil, ErrStopReason, "content_filter"},
		{"chunks then an empty answer", otherProvider, &lcllms.ContentResponse{Choices: []*lcllms.ContentChoice{choice(" ", "stop")}},
			taxonomy.Evidence{}, false, delivered(), ErrTruncatedStream, "chunks arrived"},
		{"a tool call is not empty", otherProvider, &lcllms.ContentResponse{Choices: []*lcllms.ContentChoice{nil, {ToolCalls: []lcllms.ToolCall{{ID: "1"}}, StopReason: "tool_calls"}}},
			taxonomy.Evidence{}, false, nil, nil, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := &Model{}
			err := m.check(tt.resp, slotWith(tt.ev, tt.seen), tt.g, tt.provider)
			if tt.want == nil {
				if err != nil {
					t.Fatalf("got %v, want the response accepted", err)
				}
				return
			}
			if !errors.Is(err, tt.want) || !strings.Contains(err.Error(), tt.wantText) {
				t.Fatalf("got %v, want %v mentioning %q", err, tt.want, tt.wantText)
			}
			if strings.Contains(err.Error(), "%!") {
				t.Errorf("badly formatted error %q", err)
			}
		})
	}
}

func TestCustomChecksRunLast(t *testing.T) {
	mine := errors.New("mine")
	m := &Model{cfg: config{checks: []ResponseCheck{func(*lcllms.ContentResponse) error { return mine }}}}
	if err := m.check(&lcllms.ContentResponse{Choices: []*lcllms.ContentChoice{choice("", "")}}, slotWith(taxonomy.Evidence{}, false), nil, otherProvider); !errors.Is(err, ErrEmptyResponse) {
		t.Errorf("empty response: got %v, want the built-in check first", err)
	}
	if err := m.check(&lcllms.ContentResponse{Choices: []*lcllms.ContentChoice{choice("hi", "stop")}}, slotWith(taxonomy.Evidence{}, false), nil, otherProvider); !errors.Is(err, mine) {
		t.Errorf("usable response: got %v, want the custom check's error", err)
	}
}

// slotWith returns an attempt's evidence slot holding ev if the transport
// saw the attempt (seen), empty otherwise.
func slotWith(ev taxonomy.Evidence, seen bool) *wire.Slot {
	_, sl := wire.WithSlot(context.Background())
	if seen {
		sl.Record(ev)
	}
	return sl
}
