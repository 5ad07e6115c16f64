// Package faultserver is a fault-injecting LLM provider on loopback, for
// testing code that calls models through langchaingo's real provider
// clients: retries, timeouts, breakers, fallbacks and the agents built on
// them.
//
// A [Server] speaks four wire formats, chosen per request by path:
//
//	POST /v1/chat/completions  OpenAI (JSON, or SSE ending in data: [DONE])
//	POST /v1/embeddings        OpenAI embeddings (JSON)
//	POST /v1/messages          Anthropic (JSON, or SSE ending in message_stop)
//	POST /api/chat             Ollama (NDJSON lines ending in done:true)
//	POST /api/embed            Ollama embeddings (JSON)
//	POST /v1beta/models/{model}:generateContent
//	POST /v1beta/models/{model}:streamGenerateContent
//	                           Gemini (JSON, or SSE whose last chunk has a finishReason)
//
// It answers each request with the next [Step] of its script, in whichever
// format the request used; once the script is exhausted the last step
// repeats. [Server.OpenAI], [Server.Anthropic] and [Server.Ollama] build the
// real langchaingo clients pointed at it (the Gemini format is for
// google.golang.org/genai and other clients of Gemini's REST API, given
// the server's URL as their base URL):
//
//	s := faultserver.New(faultserver.RateLimited("7"), faultserver.Reply("Hello"))
//	defer s.Close()
//	llm, err := s.OpenAI()
//	// first call:  API returned unexpected status code: 429: Rate limit reached ...
//	// second call: "Hello"
//
// # Faults
//
// Besides successful replies ([Reply], [ReplyChunks], [ReplyToolCalls]) a
// script can hold HTTP errors with the providers' own bodies ([Status],
// [RateLimited], [Overloaded], [ServerError], [BadGateway],
// [ContextOverflow], [InvalidAPIKey], [QuotaExceeded]), broken connections
// and streams ([HangUp], [Reset], [DropStream], [NoEndMarker], [InBandError],
// [Stall]) and broken bodies ([Malformed], [TruncatedJSON]). [Raw],
// [RawStream] and [RawStall] send bytes verbatim, for what the canned steps
// do not make (an error object under a 200, a finish reason with no text,
// keep-alives then silence). [Step.After] delays any step; [Func] decides
// the step per request.
//
// # Embeddings
//
// On an embeddings endpoint the same script plays: a successful step
// answers one deterministic vector per input ([Vector]), the error steps
// send the same errors, and three steps are made for embeddings: a reply
// with the wrong number of vectors ([WrongVectorCount]) and requests
// rejected as too large as a whole ([BatchTooLarge], [TooManyInputs]);
// [ContextOverflow] says that an input is too long. [Request.Inputs]
// returns the texts a request carried, so that a test can count how often
// each was sent:
//
//	s := faultserver.New(faultserver.Func(func(r *faultserver.Request) faultserver.Step {
//		if len(r.Inputs()) > 4 {
//			return faultserver.BatchTooLarge()
//		}
//		return faultserver.Reply("")
//	}))
//
// The clients do not all report a fault as an error. Against langchaingo
// v0.1.14, for example, a stream that ends without its end marker
// ([NoEndMarker]) is a success with partial text for openai, the error "no
// response" for anthropic and a success with empty text for ollama; each
// constructor's documentation says what is sent, and this package's tests pin
// what each real client returns.
//
// # Time
//
// [New] listens on a real TCP port on 127.0.0.1. [NewInMemory] serves the
// same thing over in-memory connections, which block durably, so that it runs
// inside a testing/synctest bubble: there a step delayed by [Step.After] or a
// [Stall] cut short by the client's deadline takes fake time, and the test
// runs instantly.
//
// # Recording
//
// [Server.Requests] returns every request received, with its body, headers,
// format and arrival time; [Request.MessageCount] counts the messages it
// carried. [Server.InFlight] and [Server.MaxInFlight] count the requests
// being answered at once, for tests of concurrency limits.
package faultserver
