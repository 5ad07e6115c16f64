package llms

import (
	"cmp"
	"errors"
	"fmt"
	"strings"

	lcllms "github.com/tmc/langchaingo/llms"

	"github.com/resilientgo/resilient/internal/wire"
	"github.com/resilientgo/resilient/taxonomy"
)

// Responses that succeed but cannot be used become failures with these
// sentinels in their chain (errors.Is finds them in the final error).
var (
	// ErrNoChoices: the response has no choices.
	ErrNoChoices = errors.New("llms: response has no choices")
	// ErrEmptyResponse: every choice is empty: no text, no tool call.
	ErrEmptyResponse = errors.New("llms: empty response")
	// ErrTruncatedStream: the stream ended without its end marker.
	ErrTruncatedStream = errors.New("llms: stream ended without its end marker")
	// ErrInBandError: a 200 stream carried an error event.
	ErrInBandError = errors.New("llms: in-band error event")
	// ErrStopReason: the stop reason reports an error (a content filter, a
	// refusal, a provider error), or the output token limit was reached
	// before any output.
	ErrStopReason = errors.New("llms: stop reason reports an error")
)

// A ResponseCheck inspects a response the provider returned without error.
// A non-nil error turns the attempt into a failure, classified like any
// other (wrap it with taxonomy.WithClass to choose its kind). Checks must be
// safe for concurrent use.
type ResponseCheck func(*lcllms.ContentResponse) error

// errorStopReasons maps stop reasons that report an error to their kind.
// Output limits ("length", "max_tokens") are not errors: the caller asked
// for at most that many tokens and retrying would end the same way. Reached
// before any output, they are a permanent failure (see outputLimitStops).
var errorStopReasons = map[string]taxonomy.Kind{
	"error":                         taxonomy.Transient, // Mistral
	"content_filter":                taxonomy.Permanent, // OpenAI, Azure
	"refusal":                       taxonomy.Permanent, // Anthropic
	"FinishReasonSafety":            taxonomy.Permanent, // googleai
	"FinishReasonRecitation":        taxonomy.Permanent, // googleai
	"FinishReasonBlocklist":         taxonomy.Permanent, // googleai
	"FinishReasonSPII":              taxonomy.Permanent, // googleai
	"FinishReasonProhibitedContent": taxonomy.Permanent,
}

// outputLimitStops are the stop reasons that say the output token limit was
// reached: OpenAI and Mistral, Anthropic, googleai.
var outputLimitStops = map[string]bool{
	"length":                true,
	"max_tokens":            true,
	"FinishReasonMaxTokens": true,
}

// outputLimitError is the failure of a reply whose output limit was spent
// before any output (all of it on hidden reasoning, or a limit of a few
// tokens): the same request ends the same way, so a retry only costs. cause
// is the client's own error, if it reported one.
func outputLimitError(stop string, cause error) error {
	err := fmt.Errorf("%w: %s before any output: the output token limit is too low for this request", ErrStopReason, stop)
	if cause != nil {
		err = fmt.Errorf("%w (%w)", err, cause)
	}
	return classed(taxonomy.Permanent, `stop reason "`+stop+`" before any output`, err)
}

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

func classed(kind taxonomy.Kind, rule string, err error) error {
	return taxonomy.WithClass(err, taxonomy.Class{Kind: kind, Rule: rule})
}

// check turns a response that succeeded but is unusable into a failure.
// ev and seen are the transport's evidence; g is the stream guard of a
// streamed call, nil otherwise; p is the family of the client that
// answered (of a pool, the member's).
func (m *Model) check(resp *lcllms.ContentResponse, ev taxonomy.Evidence, seen bool, g *guard, p provider) error {
	chunks := 0
	if g != nil {
		chunks, _ = g.delivered()
	}
	switch {
	case seen && ev.InBand:
		return &taxonomy.WireError{Evidence: wire.ForError(ev),
			Err: fmt.Errorf("%w: %s", ErrInBandError, cmp.Or(ev.ErrorMessage, ev.ErrorType, ev.ErrorCode, "no message"))}
	case seen && ev.Status >= 400:
		// Ollama answers an empty-bodied 500 with a "successful" empty reply.
		return &taxonomy.WireError{Evidence: ev,
			Err: fmt.Errorf("%w: the client reported success for HTTP %d", ErrEmptyResponse, ev.Status)}
	case seen && ev.Stream && !ev.EndMarker && !hasStopReason(resp):
		// No end marker and no stop reason: the stream was cut short. (An
		// OpenAI-compatible server that omits "data: [DONE]" still sends a
		// finish reason, and is not mistaken for a truncation.)
		if ev.BodyErr != nil {
			return classed(taxonomy.Transient, "truncated stream", fmt.Errorf("%w: %v", ErrTruncatedStream, ev.BodyErr))
		}
		return classed(taxonomy.Transient, "truncated stream", ErrTruncatedStream)
	case resp == nil || len(resp.Choices) == 0:
		return classed(taxonomy.Transient, "no choices", ErrNoChoices)
	}
	first := resp.Choices[0]
	if first == nil { // a model of the caller's may leave holes; isEmpty looks at every choice
		first = &lcllms.ContentChoice{}
	}
	// Without the transport's watch of the stream (no transport, or a
	// stream sent under a Content-Type that is not a stream's), each
	// client's own sign of a cut stream decides.
	if g != nil && !(seen && ev.Stream) {
		truncated := false
		switch p {
		case emptyStopTruncates:
			truncated = first.StopReason == ""
		case unspecifiedTruncates:
			truncated = first.StopReason == "FinishReasonUnspecified"
		case emptyContentTruncates:
			truncated = chunks > 0 && first.Content == ""
		}
		if truncated {
			return classed(taxonomy.Transient, "truncated stream", ErrTruncatedStream)
		}
	}
	if kind, ok := errorStopReasons[first.StopReason]; ok {
		return classed(kind, `stop reason "`+first.StopReason+`"`, fmt.Errorf("%w: %s", ErrStopReason, first.StopReason))
	}
	if outputLimitStops[first.StopReason] && isEmpty(resp) {
		return outputLimitError(first.StopReason, nil)
	}
	if chunks > 0 && isEmpty(resp) {
		return classed(taxonomy.Transient, "truncated stream", fmt.Errorf("%w: chunks arrived but the content came back empty", ErrTruncatedStream))
	}
	if isEmpty(resp) {
		return classed(taxonomy.Transient, "empty response", ErrEmptyResponse)
	}
	for _, c := range m.cfg.checks {
		if err := c(resp); err != nil {
			return err
		}
	}
	return nil
}

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

// hasStopReason reports whether the response says why generation stopped.
func hasStopReason(resp *lcllms.ContentResponse) bool {
	return resp != nil && len(resp.Choices) > 0 && resp.Choices[0] != nil && resp.Choices[0].StopReason != ""
}
