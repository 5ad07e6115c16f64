package llms

import (
	"fmt"
	"strings"

	lcllms "github.com/tmc/langchaingo/llms"

	"github.com/resilientgo/resilient/internal/reply"
	"github.com/resilientgo/resilient/internal/wire"
	"github.com/resilientgo/resilient/taxonomy"
)

// Responses that succeed but cannot be used become failures with these
// sentinels in their chain (errors.Is finds them in the final error).
var (
	// ErrNoChoices: the response has no choices.
	ErrNoChoices = reply.ErrNoChoices
	// ErrEmptyResponse: every choice is empty: no text, no tool call.
	ErrEmptyResponse = reply.ErrEmptyResponse
	// ErrTruncatedStream: the stream ended without its end marker.
	ErrTruncatedStream = reply.ErrTruncatedStream
	// ErrInBandError: a 200 stream carried an error event.
	ErrInBandError = reply.ErrInBandError
	// ErrStopReason: the stop reason reports an error (a content filter, a
	// refusal, a provider error), or the output token limit was reached
	// before any output.
	ErrStopReason = reply.ErrStopReason
)

// A ResponseCheck inspects a response the provider returned without error.
// A non-nil error turns the attempt into a failure, classified like any
// other (wrap it with taxonomy.WithClass to choose its kind). Checks must be
// safe for concurrent use.
type ResponseCheck func(*lcllms.ContentResponse) error

// provider is the family of the wrapped model, for the checks that differ
// between langchaingo's clients when no transport evidence is available.
type provider uint8

const (
	otherProvider         provider = iota
	emptyStopTruncates             // openai, mistral: a streamed success with no stop reason was cut short
	unspecifiedTruncates           // googleai: "FinishReasonUnspecified"
	emptyContentTruncates          // ollama: chunks delivered, content "" on a dropped stream
)

func providerOf(m lcllms.Model) provider {
	switch fmt.Sprintf("%T", m) {
	case "*openai.LLM", "*mistral.Model":
		return emptyStopTruncates
	case "*googleai.GoogleAI":
		return unspecifiedTruncates
	case "*ollama.LLM":
		return emptyContentTruncates
	}
	return otherProvider
}

func classed(kind taxonomy.Kind, rule string, err error) error { return reply.Classed(kind, rule, err) }

// check turns a response that succeeded but is unusable into a failure.
// sl holds the transport's evidence; g is the stream guard of a
// streamed call, nil otherwise; p is the family of the client that
// answered (of a pool, the member's).
func (m *Model) check(resp *lcllms.ContentResponse, sl *wire.Slot, g *guard, p provider) error {
	r := reply.Reply{NoChoices: resp == nil || len(resp.Choices) == 0, Streamed: g != nil}
	if g != nil {
		r.Chunks, _ = g.Delivered()
	}
	if !r.NoChoices {
		first := resp.Choices[0]
		if first == nil { // a model of the caller's may leave holes; isEmpty looks at every choice
			first = &noChoice
		}
		r.Stop, r.Empty = first.StopReason, isEmpty(resp)
		switch p { // each client's own sign of a cut stream
		case emptyStopTruncates:
			r.CutByClient = first.StopReason == ""
		case unspecifiedTruncates:
			r.CutByClient = first.StopReason == "FinishReasonUnspecified"
		case emptyContentTruncates:
			r.CutByClient = r.Chunks > 0 && first.Content == ""
		}
	}
	if err := sl.Check(func(ev *taxonomy.Evidence, seen bool) error { return reply.Check(r, ev, seen) }); err != nil {
		return err
	}
	for _, c := range m.cfg.checks {
		if err := c(resp); err != nil {
			return err
		}
	}
	return nil
}

// noChoice stands for a nil first choice; it is only read.
var noChoice lcllms.ContentChoice

// isEmpty reports whether no choice carries text, reasoning or a tool call.
func isEmpty(resp *lcllms.ContentResponse) bool {
	for _, c := range resp.Choices {
		if c == nil {
			continue
		}
		if strings.TrimSpace(c.Content) != "" || c.ReasoningContent != "" || len(c.ToolCalls) > 0 || c.FuncCall != nil {
			return false
		}
	}
	return true
}
