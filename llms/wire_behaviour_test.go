package llms_test

import (
	"context"
	"errors"
	"net/http"
	"testing"
	"time"

	lcllms "github.com/tmc/langchaingo/llms"

	"github.com/resilientgo/resilient/faultserver"
	"github.com/resilientgo/resilient/llms"
	"github.com/resilientgo/resilient/middleware"
	"github.com/resilientgo/resilient/observe"
	"github.com/resilientgo/resilient/observe/observetest"
	"github.com/resilientgo/resilient/taxonomy"
)

// The tests in this file audit the wrapped model end to end against wire
// behaviours of real providers and the proxies in front of them, through
// langchaingo's real clients: how many requests a call costs, the class of
// its final error, the wait before each retry, and what a stream shows.

// wireCase is one scripted behaviour and what a demanding caller expects of
// it: the text of the call's answer ("" means the call fails, with wantKind),
// and the number of requests it costs.
type wireCase struct {
	name      string
	formats   []faultserver.Format // nil: every provider
	script    func(f faultserver.Format) []faultserver.Step
	stream    bool
	wantText  string
	wantKind  taxonomy.Kind
	wantCalls int
}

func runWireCases(t *testing.T, tests []wireCase, opts ...llms.Option) {
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			formats := tt.formats
			if formats == nil {
				formats = providers
			}
			forEach(t, formats, func(t *testing.T, f faultserver.Format) {
				s := faultserver.NewInMemory(tt.script(f)...)
				defer s.Close()
				var c collector
				var callOpts []lcllms.CallOption
				if tt.stream {
					callOpts = append(callOpts, lcllms.WithStreamingFunc(c.fn))
				}
				resp, err := mustWrap(t, realClient(t, s, f), opts...).GenerateContent(t.Context(), hello(), callOpts...)
				switch {
				case tt.wantText != "":
					if err != nil || text(resp) != tt.wantText {
						t.Fatalf("got (%v, %v), want %q", resp, err, tt.wantText)
					}
					if tt.stream && c.text() != tt.wantText {
						t.Errorf("the stream showed %q, want %q once", c.text(), tt.wantText)
					}
				case err == nil:
					t.Fatalf("got %q, want a failure of kind %v", text(resp), tt.wantKind)
				default:
					if got := taxonomy.Classify(err).Kind; got != tt.wantKind {
						t.Errorf("kind: got %v (%v), want %v", got, err, tt.wantKind)
					}
					// What the stream showed was shown once, and the error
					// hands it back.
					var partial *llms.PartialStreamError
					if shown := c.text(); shown != "" && (!errors.As(err, &partial) || partial.Partial != shown) {
						t.Errorf("the stream showed %q; the error (%v) does not hand it back as a PartialStreamError", shown, err)
					}
				}
				if got := s.Count(); got != tt.wantCalls {
					t.Errorf("requests: got %d, want %d", got, tt.wantCalls)
				}
			})
		})
	}
}

func steps(s ...faultserver.Step) func(faultserver.Format) []faultserver.Step {
	return func(faultserver.Format) []faultserver.Step { return s }
}

var (
	openaiOnly    = []faultserver.Format{faultserver.OpenAI}
	anthropicOnly = []faultserver.Format{faultserver.Anthropic}
	ollamaOnly    = []faultserver.Format{faultserver.Ollama}
)

const jsonType = "application/json"

// A 200 whose body is the provider's error object is decided by the error's
// meaning, as the same error under its own status would be.
func TestErrorObjectUnder200(t *testing.T) {
	runWireCases(t, []wireCase{
		{"openai-compatible server_error", openaiOnly, steps(
			faultserver.Raw(200, jsonType, `{"error":{"message":"The server had an error while processing your request. Sorry about that!","type":"server_error","param":null,"code":null}}`),
			faultserver.Reply("Hello")), false, "Hello", 0, 2},
		{"openai-compatible invalid model", openaiOnly, steps(
			faultserver.Raw(200, jsonType, `{"error":{"message":"The model 'gpt-5-nano-x' does not exist","type":"invalid_request_error","param":"model","code":"model_not_found"}}`),
			faultserver.Reply("never")), false, "", taxonomy.Permanent, 1},
		{"openai-compatible rate limit", openaiOnly, steps(
			faultserver.Raw(200, jsonType, `{"error":{"message":"Rate limit reached for requests","type":"requests","param":null,"code":"rate_limit_exceeded"}}`),
			faultserver.Reply("Hello")), false, "Hello", 0, 2},
		{"ollama error with 200", ollamaOnly, steps(
			faultserver.Raw(200, jsonType, `{"error":"model 'llama9' not found, try pulling it first"}`),
			faultserver.Reply("never")), false, "", taxonomy.Permanent, 1},
		{"ollama server busy with 200", ollamaOnly, steps(
			faultserver.Raw(200, jsonType, `{"error":"server busy, please try again.  maximum pending requests exceeded"}`),
			faultserver.Reply("Hello")), false, "Hello", 0, 2},
		{"anthropic overloaded with 200", anthropicOnly, steps(
			faultserver.Raw(200, jsonType, `{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}`),
			faultserver.Reply("Hello")), false, "Hello", 0, 2},
		{"anthropic invalid request with 200", anthropicOnly, steps(
			faultserver.Raw(200, jsonType, `{"type":"error","error":{"type":"invalid_request_error","message":"max_tokens: Field required"}}`),
			faultserver.Reply("never")), false, "", taxonomy.Permanent, 1},
		{"streamed request, openai-compatible invalid model as a JSON 200", openaiOnly, steps(
			faultserver.Raw(200, jsonType, `{"error":{"message":"The model 'gpt-5-nano-x' does not exist","type":"invalid_request_error","param":"model","code":"model_not_found"}}`),
			faultserver.Reply("never")), true, "", taxonomy.Permanent, 1},
		{"streamed request, openai-compatible server_error as a JSON 200", openaiOnly, steps(
			faultserver.Raw(200, jsonType, `{"error":{"message":"The server had an error while processing your request.","type":"server_error","param":null,"code":null}}`),
			faultserver.ReplyChunks("Hel", "lo")), true, "Hello", 0, 2},
		{"streamed request, anthropic overloaded as a JSON 200", anthropicOnly, steps(
			faultserver.Raw(200, jsonType, `{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}`),
			faultserver.ReplyChunks("Hel", "lo")), true, "Hello", 0, 2},
		{"streamed request, anthropic invalid request as a JSON 200", anthropicOnly, steps(
			faultserver.Raw(200, jsonType, `{"type":"error","error":{"type":"invalid_request_error","message":"max_tokens: Field required"}}`),
			faultserver.Reply("never")), true, "", taxonomy.Permanent, 1},
		{"streamed request, ollama model missing as a JSON 200", ollamaOnly, steps(
			faultserver.Raw(200, jsonType, `{"error":"model 'llama9' not found, try pulling it first"}`),
			faultserver.Reply("never")), true, "", taxonomy.Permanent, 1},
		{"in-band error, not streamed: overloaded", nil, steps(
			faultserver.InBandError("overloaded_error", "Overloaded"), faultserver.Reply("Hello")), false, "Hello", 0, 2},
	})
}

// Bodies that succeed but carry nothing usable.
func TestUnusable200(t *testing.T) {
	runWireCases(t, []wireCase{
		{"empty choices", openaiOnly, steps(
			faultserver.Raw(200, jsonType, `{"id":"chatcmpl-1","object":"chat.completion","created":1,"model":"gpt-4o-mini","choices":[],"usage":{"prompt_tokens":5,"completion_tokens":0,"total_tokens":5}}`),
			faultserver.Reply("Hello")), false, "Hello", 0, 2},
		{"empty content", nil, steps(faultserver.Reply(""), faultserver.Reply("Hello")), false, "Hello", 0, 2},
		{"openai length with no text", openaiOnly, steps(
			faultserver.Raw(200, jsonType, `{"id":"chatcmpl-1","object":"chat.completion","created":1,"model":"o4-mini","choices":[{"index":0,"message":{"role":"assistant","content":""},"finish_reason":"length"}],"usage":{"prompt_tokens":5,"completion_tokens":16,"total_tokens":21}}`),
			faultserver.Reply("never")), false, "", taxonomy.Permanent, 1},
		{"anthropic max_tokens with no text", anthropicOnly, steps(
			faultserver.Raw(200, jsonType, `{"id":"msg_1","type":"message","role":"assistant","model":"claude-3-5-haiku-latest","content":[{"type":"text","text":""}],"stop_reason":"max_tokens","stop_sequence":null,"usage":{"input_tokens":5,"output_tokens":1}}`),
			faultserver.Reply("never")), false, "", taxonomy.Permanent, 1},
		{"openai content_filter", openaiOnly, steps(
			faultserver.Raw(200, jsonType, `{"id":"chatcmpl-1","object":"chat.completion","created":1,"model":"gpt-4o-mini","choices":[{"index":0,"message":{"role":"assistant","content":null},"finish_reason":"content_filter"}]}`),
			faultserver.Reply("never")), false, "", taxonomy.Permanent, 1},
		{"garbage JSON", nil, steps(faultserver.Malformed(`{"id": "chatcmpl-1", "choices": [{"index": 0, "mess`), faultserver.Reply("Hello")), false, "Hello", 0, 2},
		{"HTML with 200", nil, steps(faultserver.Malformed(""), faultserver.Reply("Hello")), false, "Hello", 0, 2},
		{"HTML with 200, persistent: retried once", nil, steps(faultserver.Malformed("")), false, "", taxonomy.Unknown, 2},
		{"JSON labelled text/plain", nil, func(f faultserver.Format) []faultserver.Step {
			return []faultserver.Step{faultserver.Reply("Hello").WithHeader("Content-Type", "text/plain; charset=utf-8")}
		}, false, "Hello", 0, 1},
		{"stream labelled application/json", nil, steps(faultserver.ReplyChunks("Hel", "lo").WithHeader("Content-Type", jsonType)), true, "Hello", 0, 1},
		{"stream labelled text/plain, cut before any text", nil, steps(
			faultserver.NoEndMarker().WithHeader("Content-Type", "text/plain"), faultserver.ReplyChunks("Hel", "lo")), true, "Hello", 0, 2},
		{"stream labelled text/plain, cut after text", nil, steps(
			faultserver.NoEndMarker("Hel").WithHeader("Content-Type", "text/plain"), faultserver.ReplyChunks("Hel", "lo")), true, "", taxonomy.Transient, 1},
	})
}

// The frames of an Anthropic stream that spent its output limit before any
// text: the message's start, the delta with its stop reason, and its end.
const (
	anthropicEmptyStart     = "event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"id\":\"msg_1\",\"type\":\"message\",\"role\":\"assistant\",\"model\":\"claude-3-5-haiku-latest\",\"content\":[],\"stop_reason\":null,\"usage\":{\"input_tokens\":5,\"output_tokens\":1}}}\n\n"
	anthropicMaxTokensDelta = "event: message_delta\ndata: {\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"max_tokens\",\"stop_sequence\":null},\"usage\":{\"output_tokens\":1}}\n\n"
	anthropicMessageStop    = "event: message_stop\ndata: {\"type\":\"message_stop\"}\n\n"
)

// Streams that fail in band, end early, or go silent.
func TestStreamFaults(t *testing.T) {
	openaiChunk := func(content string) string {
		return `data: {"id":"c1","object":"chat.completion.chunk","created":1,"model":"gpt-4o-mini","choices":[{"index":0,"delta":{"content":"` + content + `"},"finish_reason":null}]}` + "\n\n"
	}
	runWireCases(t, []wireCase{
		{"in-band overloaded after text", nil, steps(
			faultserver.InBandError("overloaded_error", "Overloaded", "Hel"), faultserver.ReplyChunks("Hel", "lo")), true, "", taxonomy.Overloaded, 1},
		{"openai chunk carrying an error after text", openaiOnly, steps(
			faultserver.RawStream(openaiChunk("Hel"), `data: {"error":{"message":"The server had an error while processing your request.","type":"server_error","param":null,"code":null}}`+"\n\n"),
			faultserver.ReplyChunks("Hel", "lo")), true, "", taxonomy.Transient, 1},
		{"openai chunk carrying an error before text", openaiOnly, steps(
			faultserver.RawStream(`data: {"error":{"message":"The server had an error while processing your request.","type":"server_error","param":null,"code":null}}`+"\n\n"),
			faultserver.ReplyChunks("Hel", "lo")), true, "Hello", 0, 2},
		{"openai length with no text, streamed", openaiOnly, steps(
			faultserver.RawStream(`data: {"id":"c1","object":"chat.completion.chunk","created":1,"model":"o4-mini","choices":[{"index":0,"delta":{"role":"assistant","content":""},"finish_reason":"length"}]}`+"\n\n", "data: [DONE]\n\n"),
			faultserver.ReplyChunks("never")), true, "", taxonomy.Permanent, 1},
		{"anthropic max_tokens with no text, streamed", anthropicOnly, steps(
			faultserver.RawStream(
				anthropicEmptyStart,
				anthropicMaxTokensDelta,
				anthropicMessageStop),
			faultserver.ReplyChunks("never")), true, "", taxonomy.Permanent, 1},
		// The stop reason of a stream that was cut before its end is not
		// the reply's: the cut is retried like any other before text.
		{"anthropic max_tokens with no text, cut before message_stop", anthropicOnly, steps(
			faultserver.RawStream(
				anthropicEmptyStart,
				anthropicMaxTokensDelta),
			faultserver.ReplyChunks("Hel", "lo")), true, "Hello", 0, 2},
		{"openai content_filter, streamed", openaiOnly, steps(
			faultserver.RawStream(`data: {"id":"c1","object":"chat.completion.chunk","created":1,"model":"gpt-4o-mini","choices":[{"index":0,"delta":{"role":"assistant","content":""},"finish_reason":"content_filter"}]}`+"\n\n", "data: [DONE]\n\n"),
			faultserver.ReplyChunks("never")), true, "", taxonomy.Permanent, 1},
		{"no end marker after text", nil, steps(faultserver.NoEndMarker("Hel"), faultserver.ReplyChunks("Hel", "lo")), true, "", taxonomy.Transient, 1},
		{"ollama error line after text", ollamaOnly, steps(
			faultserver.RawStream(`{"model":"llama3.2","created_at":"2026-12-01T00:00:00Z","message":{"role":"assistant","content":"Hel"},"done":false}`+"\n",
				`{"error":"an error was encountered while running the model: unexpected EOF"}`+"\n"),
			faultserver.ReplyChunks("Hel", "lo")), true, "", taxonomy.Transient, 1},
		{"ollama error line before text", ollamaOnly, steps(
			faultserver.RawStream(`{"error":"an error was encountered while running the model: unexpected EOF"}`+"\n"),
			faultserver.ReplyChunks("Hel", "lo")), true, "Hello", 0, 2},
	})
}

// A stream that sends headers and then nothing, or keep-alives and then
// nothing, is bounded by the first-chunk timeout and retried: nothing was
// shown.
func TestSilentStreamsAreBounded(t *testing.T) {
	tests := []struct {
		name   string
		frames map[faultserver.Format][]string
	}{
		{"headers then nothing", map[faultserver.Format][]string{faultserver.OpenAI: nil, faultserver.Anthropic: nil, faultserver.Ollama: nil}},
		// Ollama sends no keep-alives.
		{"keep-alives then nothing", map[faultserver.Format][]string{
			faultserver.OpenAI:    {": keep-alive\n\n", ": keep-alive\n\n"},
			faultserver.Anthropic: {"event: ping\ndata: {\"type\": \"ping\"}\n\n", "event: ping\ndata: {\"type\": \"ping\"}\n\n"},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var formats []faultserver.Format
			for _, f := range providers {
				if _, ok := tt.frames[f]; ok {
					formats = append(formats, f)
				}
			}
			forEach(t, formats, func(t *testing.T, f faultserver.Format) {
				s := faultserver.NewInMemory(faultserver.RawStall(tt.frames[f]...), faultserver.ReplyChunks("Hel", "lo"))
				defer s.Close()
				var c collector
				start := time.Now()
				resp, err := mustWrap(t, realClient(t, s, f), llms.FirstChunkTimeout(10*time.Second), llms.Middleware(middleware.NoJitter())).
					GenerateContent(t.Context(), hello(), lcllms.WithStreamingFunc(c.fn))
				if err != nil || text(resp) != "Hello" || c.text() != "Hello" || s.Count() != 2 {
					t.Fatalf("got (%v, %q shown) after %d requests, want Hello once after 2", err, c.text(), s.Count())
				}
				if d := time.Since(start); d != 10*time.Second+500*time.Millisecond {
					t.Errorf("took %v, want the first-chunk timeout and one backoff: 10.5s", d)
				}
			})
		})
	}
}

// A stream that showed text and then goes silent is bounded by the idle
// timeout, and not repeated.
func TestStreamSilentAfterTextIsBounded(t *testing.T) {
	forEachProvider(t, func(t *testing.T, f faultserver.Format) {
		s := faultserver.NewInMemory(faultserver.Stall("Hel"), faultserver.ReplyChunks("Hel", "lo"))
		defer s.Close()
		var c collector
		start := time.Now()
		_, err := mustWrap(t, realClient(t, s, f), llms.StreamIdleTimeout(5*time.Second)).
			GenerateContent(t.Context(), hello(), lcllms.WithStreamingFunc(c.fn))
		var partial *llms.PartialStreamError
		if !errors.As(err, &partial) || c.text() != "Hel" || s.Count() != 1 || time.Since(start) != 5*time.Second {
			t.Fatalf("got %v, %q shown after %d requests and %v; want a partial stream error after 1 request and 5s", err, c.text(), s.Count(), time.Since(start))
		}
	})
}

// The wait before a retry follows every way a provider says it, clamped.
func TestRateLimitWaits(t *testing.T) {
	tests := []struct {
		name string
		step func() faultserver.Step // built inside the bubble
		want time.Duration
	}{
		{"Retry-After as an HTTP date", func() faultserver.Step {
			return faultserver.RateLimited(time.Now().Add(9 * time.Second).UTC().Format(http.TimeFormat))
		}, 9 * time.Second},
		{"retry-after-ms alone", func() faultserver.Step {
			return faultserver.RateLimited("").WithHeader("retry-after-ms", "2500")
		}, 2500 * time.Millisecond},
		{"529 with Retry-After", func() faultserver.Step { return faultserver.Overloaded().WithRetryAfter("4") }, 4 * time.Second},
		{"503 with Retry-After", func() faultserver.Step {
			return faultserver.Status(503, "Service Unavailable").WithRetryAfter("6")
		}, 6 * time.Second},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			forEachProvider(t, func(t *testing.T, f faultserver.Format) {
				s := faultserver.NewInMemory(tt.step(), faultserver.Reply("Hello"))
				defer s.Close()
				rec := &observetest.Recorder{}
				resp, err := mustWrap(t, realClient(t, s, f), llms.Middleware(middleware.Observe(rec))).GenerateContent(t.Context(), hello())
				if err != nil || text(resp) != "Hello" {
					t.Fatalf("got %v", err)
				}
				wantRetryAfter(t, s, tt.want)
				if retries := observetest.Of[observe.RetryScheduled](rec); len(retries) != 1 || retries[0].Wait != tt.want || retries[0].Source != taxonomy.WaitRetryAfter {
					t.Errorf("retries reported: %+v, want one after %v from the Retry-After", retries, tt.want)
				}
			})
		})
	}
}

// A Retry-After that is negative or garbage says nothing: the retry waits
// the backoff, never zero in a tight loop, never the garbage.
func TestBadRetryAfterFallsBackToBackoff(t *testing.T) {
	for _, v := range []string{"-5", "soon", "1e9999", "Wed, 99 Foo 2026"} {
		t.Run(v, func(t *testing.T) {
			forEachProvider(t, func(t *testing.T, f faultserver.Format) {
				s := faultserver.NewInMemory(faultserver.RateLimited(v), faultserver.Reply("Hello"))
				defer s.Close()
				rec := &observetest.Recorder{}
				resp, err := mustWrap(t, realClient(t, s, f), llms.Middleware(middleware.NoJitter(), middleware.Observe(rec))).GenerateContent(t.Context(), hello())
				if err != nil || text(resp) != "Hello" {
					t.Fatalf("got %v", err)
				}
				wantRetryAfter(t, s, 500*time.Millisecond)
				if retries := observetest.Of[observe.RetryScheduled](rec); len(retries) != 1 || retries[0].Source != taxonomy.WaitBackoff {
					t.Errorf("retries reported: %+v, want one after the backoff", retries)
				}
			})
		})
	}
}

// Azure OpenAI's 429 says when to retry in its message only.
func TestAzureRetryAfterInTheBody(t *testing.T) {
	synctest := func(t *testing.T, f func(*testing.T)) {
		forEach(t, openaiOnly, func(t *testing.T, _ faultserver.Format) { f(t) })
	}
	synctest(t, func(t *testing.T) {
		azure := faultserver.Raw(429, jsonType, `{"error":{"code":"429","message":"Requests to the ChatCompletions_Create Operation under Azure OpenAI API version 2024-02-01 have exceeded token rate limit of your current OpenAI S0 pricing tier. Please retry after 20 seconds. Please go here: https://aka.ms/oai/quotaincrease if you would like to further increase the default rate limit."}}`)
		s := faultserver.NewInMemory(azure, faultserver.Reply("Hello"))
		defer s.Close()
		resp, err := mustWrap(t, realClient(t, s, faultserver.OpenAI)).GenerateContent(t.Context(), hello())
		if err != nil || text(resp) != "Hello" {
			t.Fatalf("got %v", err)
		}
		wantRetryAfter(t, s, 20*time.Second)
	})
}

// A Retry-After far over the cap, however it is written, fails the call at
// once with the wait clamped where it was parsed, and the give-up reports it.
func TestHugeRetryAfterFailsFastClamped(t *testing.T) {
	tests := []struct {
		name string
		step func() faultserver.Step
	}{
		{"seconds past int64", func() faultserver.Step { return faultserver.RateLimited("99999999999999999999") }},
		{"a day", func() faultserver.Step { return faultserver.RateLimited("86400") }},
		{"an HTTP date in 2099", func() faultserver.Step { return faultserver.RateLimited("Thu, 01 Jan 2099 00:00:00 GMT") }},
		{"retry-after-ms past int64", func() faultserver.Step {
			return faultserver.RateLimited("").WithHeader("retry-after-ms", "10000000000000000000000000")
		}},
		{"529 asking for an hour", func() faultserver.Step { return faultserver.Overloaded().WithRetryAfter("3600") }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			forEachProvider(t, func(t *testing.T, f faultserver.Format) {
				s := faultserver.NewInMemory(tt.step(), faultserver.Reply("Hello"))
				defer s.Close()
				rec := &observetest.Recorder{}
				start := time.Now()
				_, err := mustWrap(t, realClient(t, s, f), llms.Middleware(middleware.Observe(rec))).GenerateContent(t.Context(), hello())
				var final *middleware.Error
				if !errors.As(err, &final) || final.Reason != observe.ReasonRetryAfterOverCap || time.Since(start) != 0 || s.Count() != 1 {
					t.Fatalf("got %v after %v and %d requests, want retry-after over the cap at once", err, time.Since(start), s.Count())
				}
				if c := final.Class(); c.RetryAfter <= time.Minute || c.RetryAfter > taxonomy.MaxWaitHint {
					t.Errorf("class wait: got %v, want over the cap and at most %v", c.RetryAfter, taxonomy.MaxWaitHint)
				}
				gaveUp := observetest.Of[observe.GaveUp](rec)
				if len(gaveUp) != 1 || gaveUp[0].Reason != observe.ReasonRetryAfterOverCap || gaveUp[0].Class.RetryAfter != final.Class().RetryAfter {
					t.Errorf("give-ups reported: %+v, want one over the cap with the clamped wait", gaveUp)
				}
			})
		})
	}
}

// With the defaults, a provider that keeps answering with keep-alives and
// nothing else costs three attempts, each cut at the first-chunk timeout,
// and the call ends with a retryable stall, not never.
func TestSilentStreamsWithTheDefaults(t *testing.T) {
	pings := map[faultserver.Format][]string{
		faultserver.OpenAI:    {": keep-alive\n\n"},
		faultserver.Anthropic: {"event: ping\ndata: {\"type\": \"ping\"}\n\n"},
		faultserver.Ollama:    nil,
	}
	forEachProvider(t, func(t *testing.T, f faultserver.Format) {
		s := faultserver.NewInMemory(faultserver.RawStall(pings[f]...))
		defer s.Close()
		start := time.Now()
		_, err := mustWrap(t, realClient(t, s, f), llms.Middleware(middleware.NoJitter())).
			GenerateContent(t.Context(), hello(), lcllms.WithStreamingFunc(func(context.Context, []byte) error { return nil }))
		if !errors.Is(err, llms.ErrFirstChunkTimeout) || s.Count() != 3 {
			t.Fatalf("got %v after %d requests, want the first-chunk timeout after 3", err, s.Count())
		}
		if want := 3*llms.DefaultFirstChunkTimeout + 1500*time.Millisecond; time.Since(start) != want {
			t.Errorf("took %v, want %v", time.Since(start), want)
		}
	})
}

// A rate-limit error object under a 200 is timed by the response's
// Retry-After, as under a 429.
func TestErrorObjectUnder200KeepsItsRetryAfter(t *testing.T) {
	forEach(t, openaiOnly, func(t *testing.T, f faultserver.Format) {
		step := faultserver.Raw(200, jsonType, `{"error":{"message":"Rate limit reached for requests","type":"requests","param":null,"code":"rate_limit_exceeded"}}`).WithRetryAfter("5")
		s := faultserver.NewInMemory(step, faultserver.Reply("Hello"))
		defer s.Close()
		resp, err := mustWrap(t, realClient(t, s, f)).GenerateContent(t.Context(), hello())
		if err != nil || text(resp) != "Hello" {
			t.Fatalf("got %v", err)
		}
		wantRetryAfter(t, s, 5*time.Second)
	})
}
