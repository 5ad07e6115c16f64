// Package reply turns a reply that a provider client returned without error,
// but that cannot be used, into a classified failure: an in-band error, a
// stream cut short, no choices, an empty reply, a stop reason that reports
// an error, an output limit reached before any output. The adapters (package
// llms for langchaingo, module resilienteino for Eino) describe their
// client's reply as a [Reply]; [Check] decides from it and the wire
// evidence (package wire).
package reply

import (
	"cmp"
	"errors"
	"fmt"

	"github.com/resilientgo/resilient/internal/wire"
	"github.com/resilientgo/resilient/taxonomy"
)

// Replies that succeed but cannot be used become failures with these
// sentinels in their chain (errors.Is finds them in the final error).
var (
	// ErrNoChoices: the response has no choices.
	ErrNoChoices = errors.New("resilient: response has no choices")
	// ErrEmptyResponse: every choice is empty: no text, no tool call.
	ErrEmptyResponse = errors.New("resilient: empty response")
	// ErrTruncatedStream: the stream ended without its end marker.
	ErrTruncatedStream = errors.New("resilient: stream ended without its end marker")
	// ErrInBandError: a 200 stream carried an error event.
	ErrInBandError = errors.New("resilient: in-band error event")
	// ErrStopReason: the stop reason reports an error (a content filter, a
	// refusal, a provider error), or the output token limit was reached
	// before any output.
	ErrStopReason = errors.New("resilient: stop reason reports an error")
)

// errorStop returns the kind of failure that stop reason reports, false
// when it reports none. Output limits ("length", "max_tokens") are not
// errors: the caller asked for at most that many tokens and retrying would
// end the same way. Reached before any output, they are a permanent failure
// (see OutputLimit). A switch rather than a map: it runs on every reply, on
// the attempt's small stack.
func errorStop(stop string) (taxonomy.Kind, bool) {
	switch stop {
	case "error": // Mistral
		return taxonomy.Transient, true
	case "content_filter", // OpenAI, Azure
		"refusal",                                      // Anthropic
		"FinishReasonSafety", "FinishReasonRecitation", // googleai
		"FinishReasonBlocklist", "FinishReasonSPII", "FinishReasonProhibitedContent":
		return taxonomy.Permanent, true
	}
	return 0, false
}

// OutputLimit reports whether stop says the output token limit was reached:
// OpenAI and Mistral, Anthropic, googleai.
func OutputLimit(stop string) bool {
	switch stop {
	case "length", "max_tokens", "FinishReasonMaxTokens":
		return true
	}
	return false
}

// OutputLimitError is the failure of a reply whose output limit was spent
// before any output (all of it on hidden reasoning, or a limit of a few
// tokens): the same request ends the same way, so a retry only costs. cause
// is the client's own error, if it reported one.
func OutputLimitError(stop string, cause error) error {
	err := fmt.Errorf("%w: %s before any output: the output token limit is too low for this request", ErrStopReason, stop)
	if cause != nil {
		err = fmt.Errorf("%w (%w)", err, cause)
	}
	return Classed(taxonomy.Permanent, `stop reason "`+stop+`" before any output`, err)
}

// Classed returns err classified as kind by rule.
func Classed(kind taxonomy.Kind, rule string, err error) error {
	return taxonomy.WithClass(err, taxonomy.Class{Kind: kind, Rule: rule})
}

// A Reply is what the checks read of a reply the client returned without
// error.
type Reply struct {
	// NoChoices: the reply holds no choice at all (or is nil).
	NoChoices bool
	// Stop is the first choice's stop reason, "" if none.
	Stop string
	// Empty: no choice carries text, reasoning or a tool call.
	Empty bool
	// Streamed: the call streamed; Chunks counts the chunks that reached
	// the caller.
	Streamed bool
	Chunks   int
	// CutByClient: the client's own sign of a stream cut short (a missing
	// stop reason, say), read when no transport watched the stream.
	CutByClient bool
}

// Check returns the failure of r, nil if it can be used. ev and seen are
// the transport's evidence of the attempt. The failures are built by
// functions of their own: Check runs on an attempt's goroutine, whose stack
// starts small, and its own frame stays small.
func Check(r Reply, ev *taxonomy.Evidence, seen bool) error {
	switch {
	case seen && ev.InBand:
		return inBandError(ev)
	case seen && ev.Status >= 400:
		// Ollama answers an empty-bodied 500 with a "successful" empty reply.
		return statusError(ev)
	case seen && ev.Stream && !ev.EndMarker && (r.NoChoices || r.Stop == ""):
		// No end marker and no stop reason: the stream was cut short. (An
		// OpenAI-compatible server that omits "data: [DONE]" still sends a
		// finish reason, and is not mistaken for a truncation.)
		return truncated(ev.BodyErr)
	case r.NoChoices:
		return transient("no choices", ErrNoChoices)
	}
	// Without the transport's watch of the stream (no transport, or a
	// stream sent under a Content-Type that is not a stream's), the
	// client's own sign of a cut stream decides.
	if r.Streamed && !(seen && ev.Stream) && r.CutByClient {
		return truncated(nil)
	}
	if kind, ok := errorStop(r.Stop); ok {
		return stopReasonError(kind, r.Stop)
	}
	if r.Empty && OutputLimit(r.Stop) {
		return OutputLimitError(r.Stop, nil)
	}
	if r.Chunks > 0 && r.Empty {
		return emptyStream()
	}
	if r.Empty {
		return transient("empty response", ErrEmptyResponse)
	}
	return nil
}

// transient returns err classified as transient by rule.
//
//go:noinline
func transient(rule string, err error) error {
	return Classed(taxonomy.Transient, rule, err)
}

// inBandError is the failure of a reply whose stream carried an error event.
func inBandError(ev *taxonomy.Evidence) error {
	return &taxonomy.WireError{Evidence: wire.ForError(*ev),
		Err: fmt.Errorf("%w: %s", ErrInBandError, cmp.Or(ev.ErrorMessage, ev.ErrorType, ev.ErrorCode, "no message"))}
}

// statusError is the failure of a reply that the client reported as a
// success although the status said otherwise.
func statusError(ev *taxonomy.Evidence) error {
	return &taxonomy.WireError{Evidence: *ev,
		Err: fmt.Errorf("%w: the client reported success for HTTP %d", ErrEmptyResponse, ev.Status)}
}

// truncated is the failure of a stream cut short, by bodyErr if known.
func truncated(bodyErr error) error {
	if bodyErr != nil {
		return transient("truncated stream", fmt.Errorf("%w: %v", ErrTruncatedStream, bodyErr))
	}
	return transient("truncated stream", ErrTruncatedStream)
}

// stopReasonError is the failure of a reply whose stop reason reports an
// error of kind.
func stopReasonError(kind taxonomy.Kind, stop string) error {
	return Classed(kind, `stop reason "`+stop+`"`, fmt.Errorf("%w: %s", ErrStopReason, stop))
}

// emptyStream is the failure of a stream whose chunks reached the caller
// but whose content came back empty.
func emptyStream() error {
	return transient("truncated stream", fmt.Errorf("%w: chunks arrived but the content came back empty", ErrTruncatedStream))
}
