package llms

import (
	"net/http"

	"github.com/resilientgo/resilient/internal/wire"
)

// Transport is an [http.RoundTripper] that records, for each attempt of a
// wrapped model, the wire evidence langchaingo's clients discard, as a
// taxonomy.Evidence: status, Retry-After (seconds or HTTP date),
// retry-after-ms, x-should-retry, rate-limit reset headers, the provider's
// error type, code and message from the body of an error response, and as
// an in-band error from the body of a successful one that is a provider error
// object (an OpenAI-compatible server's 200 with {"error": ...}), and for
// SSE and NDJSON streams whether the end marker arrived and any in-band error
// event. When the round trip itself fails, its error is kept too: clients
// that replace it with a text of their own lose its cause and its type.
//
// The client still receives every byte of the response, unchanged. Of an
// error body the Transport reads at most the first 1 MiB, to find the
// provider's error; the client reads that much from memory and the rest, if
// any, from the connection. A stream is watched as the client reads it, line
// by line, without copying it.
//
// It records only requests whose context comes from a wrapped model's
// attempt; other requests pass through untouched. Plug it into a provider
// client with the client's WithHTTPClient option and
// resilient.HTTPClient (a client over a Transport), or an *http.Client of
// your own whose Transport is [NewTransport]. Its
// field Base performs the requests; nil means http.DefaultTransport.
//
// A Transport is safe for concurrent use.
type Transport = wire.Transport

// NewTransport returns a Transport over base (nil: http.DefaultTransport).
func NewTransport(base http.RoundTripper) *Transport { return wire.NewTransport(base) }
