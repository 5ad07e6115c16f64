package resilienteino

import (
	"net/http"

	"github.com/resilientgo/resilient/internal/wire"
)

// HTTPClient returns an *http.Client that records each attempt's wire
// evidence (status, Retry-After and the other wait hints, the provider's
// error type and code, whether a stream's end marker arrived, in-band error
// events), which the Eino clients drop from their errors: install it in the
// provider client, e.g. eino-ext openai's
//
//	openai.NewChatModel(ctx, &openai.ChatModelConfig{HTTPClient: resilienteino.HTTPClient(), ...})
//
// It sets no overall timeout: the wrapped model's attempt timeout bounds
// each attempt. It is package llms's transport, over http.DefaultTransport.
func HTTPClient() *http.Client { return wire.HTTPClient() }

// Transport returns the http.RoundTripper of [HTTPClient] over base (nil:
// http.DefaultTransport), for a client of your own.
func Transport(base http.RoundTripper) http.RoundTripper { return wire.NewTransport(base) }
