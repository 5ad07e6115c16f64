package taxonomy

import (
	"cmp"
	"math"
	"net/http"
	"strings"
	"time"
	"unicode/utf8"
)

// Evidence is what the HTTP layer saw for one attempt: the facts that
// langchaingo's clients throw away, recorded by a transport (package llms's
// Transport) before the client flattens the response into text. It is the one
// record of them: the transport fills it, [WireError] carries it to
// [Classify], which reads every field that bears on the kind and the wait.
//
// Every duration in it is at most [MaxWaitHint] when it comes from
// [HeaderEvidence]. Evidence is a plain value; copies are independent.
type Evidence struct {
	// Status is the HTTP status, 0 if no response arrived.
	Status int
	// RetryAfter is the wait the provider asked for in a Retry-After
	// (seconds or an HTTP date) or retry-after-ms header, 0 if none.
	RetryAfter time.Duration
	// RetryNow is true when that header asked for no wait at all
	// ("Retry-After: 0", "retry-after-ms: 0"): the 0 in RetryAfter is the
	// provider's answer, and no rate-limit reset or text hint replaces it.
	RetryNow bool
	// RateLimitReset is the wait until the provider's rate limit resets, as
	// announced by x-ratelimit-reset-* (OpenAI and compatible servers), a
	// bare X-RateLimit-Reset (OpenRouter) or anthropic-ratelimit-*-reset:
	// the soonest reset still in the future of the limits the headers say
	// are used up (remaining 0), or when none is, of all limits. 0 if none.
	RateLimitReset time.Duration
	// ShouldRetry is the provider's x-should-retry header: "true", "false",
	// or "" when absent or neither.
	ShouldRetry string
	// ErrorType and ErrorCode are the provider's machine-readable error type
	// and code from the JSON body ("rate_limit_error", "insufficient_quota").
	ErrorType string
	ErrorCode string
	// ErrorMessage is the provider's error message from the body, at most its
	// first 8 KiB (what the classifier reads of any text).
	ErrorMessage string
	// RequestID is the provider's request id header, for support tickets.
	RequestID string

	// Stream is true when the response was a stream (SSE or NDJSON).
	Stream bool
	// EndMarker is true when the stream's end marker arrived: "data: [DONE]"
	// (OpenAI, Mistral), "message_stop" (Anthropic), "done": true (Ollama).
	EndMarker bool
	// InBand is true when the stream carried an error event, or when the
	// body of a successful response that is not a stream was a provider error
	// object; its type, code and message are in ErrorType, ErrorCode and
	// ErrorMessage.
	InBand bool
	// BodyErr is the error that ended reading the response body, if any
	// other than a clean end of file.
	BodyErr error
}

// WireError attaches the evidence of one attempt to the error the provider
// client returned for it. Its text is the client's error text, unchanged;
// [Classify] reads the evidence before any text.
type WireError struct {
	Evidence
	// Err is the client's error. It may be a sentinel of the caller's making
	// when the client reported success but the evidence shows a failure, such
	// as an in-band error event on a 200 stream.
	Err error
}

// WithEvidence wraps err with the evidence of the attempt that produced it.
// It returns nil for a nil err.
func WithEvidence(err error, ev Evidence) error {
	if err == nil {
		return nil
	}
	return &WireError{Evidence: ev, Err: err}
}

// Error returns the wrapped error's text, unchanged.
func (e *WireError) Error() string {
	if e.Err == nil {
		return e.ErrorMessage
	}
	return e.Err.Error()
}

// Unwrap returns the client's error.
func (e *WireError) Unwrap() error { return e.Err }

// HeaderEvidence reads what the response headers of one exchange say: the
// status given, the wait hints (Retry-After, retry-after-ms, rate-limit
// resets), x-should-retry and the request id. now is when the response
// arrived; HTTP dates and reset times are measured from it.
//
// A valid retry-after-ms wins over Retry-After: it is the more precise of the
// two, and its 0 is an explicit "retry now" ([Evidence.RetryNow]), not a
// missing value (openai-go v3 reads it the same way). Reset headers never replace a Retry-After; [Classify] uses a
// reset as the wait only when there is no Retry-After and the failure is a
// rate limit. Every wait is clamped to [MaxWaitHint].
func HeaderEvidence(h http.Header, status int, now time.Time) Evidence {
	ev := Evidence{
		Status:      status,
		ShouldRetry: parseShouldRetry(h.Get("X-Should-Retry")),
		RequestID:   firstHeader(h, "X-Request-Id", "Request-Id", "X-Amzn-Requestid"),
	}
	wait, ok := parseRetryAfterMillis(h.Get("Retry-After-Ms"))
	if !ok {
		wait, ok = ParseRetryAfter(h.Get("Retry-After"), now)
	}
	ev.RetryAfter, ev.RetryNow = wait, ok && wait == 0
	ev.RateLimitReset = rateLimitReset(h, now)
	return ev
}

// hinted reports whether ev holds a wait hint read from headers.
func (ev *Evidence) hinted() bool {
	return ev.RetryAfter > 0 || ev.RetryNow || ev.RateLimitReset > 0
}

// addHints fills in what ev lacks from the headers of a typed error found
// deeper in the tree: ev's own wait hints, if any, win as a whole.
func (ev *Evidence) addHints(h Evidence) {
	if !ev.hinted() {
		ev.RetryAfter, ev.RetryNow, ev.RateLimitReset = h.RetryAfter, h.RetryNow, h.RateLimitReset
	}
	ev.ShouldRetry = cmp.Or(ev.ShouldRetry, h.ShouldRetry)
	ev.RequestID = cmp.Or(ev.RequestID, h.RequestID)
}

// parseShouldRetry reads an x-should-retry header value: "true" or "false"
// in any case and with surrounding spaces, and "" for anything else, absence
// included, so that a value it cannot read overrules nothing.
func parseShouldRetry(value string) string {
	switch v := strings.TrimSpace(value); {
	case strings.EqualFold(v, "true"):
		return "true"
	case strings.EqualFold(v, "false"):
		return "false"
	}
	return ""
}

func firstHeader(h http.Header, names ...string) string {
	for _, n := range names {
		if v := h.Get(n); v != "" {
			return v
		}
	}
	return ""
}

// The rate-limit headers, in Go's canonical header form. OpenAI and the
// servers that copy it (Groq, Cerebras, Azure) send x-ratelimit-remaining-<limit>
// and x-ratelimit-reset-<limit> for limits such as "requests" and "tokens",
// the reset as a Go duration ("6m0s", "1s", "20ms") or in seconds ("11.38").
// Anthropic sends anthropic-ratelimit-<limit>-remaining and
// anthropic-ratelimit-<limit>-reset for "requests", "tokens", "input-tokens"
// and "output-tokens", the reset as an RFC 3339 time.
const (
	openaiResetPrefix     = "X-Ratelimit-Reset-"
	openaiRemainingPrefix = "X-Ratelimit-Remaining-"
	anthropicPrefix       = "Anthropic-Ratelimit-"
	anthropicReset        = "-Reset"
	anthropicRemaining    = "-Remaining"
	// OpenRouter and gateways in its style send one limit as a bare
	// X-RateLimit-Reset and X-RateLimit-Remaining, the reset as epoch
	// milliseconds (OpenRouter), epoch seconds, or seconds from now.
	bareReset     = "X-Ratelimit-Reset"
	bareRemaining = "X-Ratelimit-Remaining"
)

// rateLimitReset returns the soonest future reset of the limits the headers
// say are used up, or when none is, the soonest future reset of any limit;
// 0 when no reset lies in the future. Every limit the headers name counts,
// not only "requests" and "tokens".
func rateLimitReset(h http.Header, now time.Time) time.Duration {
	var soonest, soonestExhausted time.Duration
	for key, values := range h {
		if len(values) == 0 {
			continue
		}
		// The parsers answer 0 for a value they cannot read and never a
		// negative wait, so 0 is all that says nothing about the wait.
		var d time.Duration
		var remaining string
		switch {
		case strings.HasPrefix(key, openaiResetPrefix):
			d, _ = parseResetDuration(values[0])
			remaining = h.Get(openaiRemainingPrefix + key[len(openaiResetPrefix):])
		case key == bareReset:
			d = parseBareReset(values[0], now)
			remaining = h.Get(bareRemaining)
		case strings.HasPrefix(key, anthropicPrefix) && strings.HasSuffix(key, anthropicReset):
			d, _ = parseResetTime(values[0], now)
			remaining = h.Get(strings.TrimSuffix(key, anthropicReset) + anthropicRemaining)
		default:
			continue
		}
		if d == 0 {
			continue // unreadable, or already past
		}
		// The smaller of the two, the first one found standing for a
		// missing one.
		soonest = min(cmp.Or(soonest, d), d)
		if strings.TrimSpace(remaining) == "0" {
			soonestExhausted = min(cmp.Or(soonestExhausted, d), d)
		}
	}
	if soonestExhausted > 0 {
		return soonestExhausted
	}
	return soonest
}

// parseResetDuration reads an OpenAI-style reset: a Go duration ("6m0s",
// "1s", "20ms", "1h2m3.5s") or bare seconds ("11.38"), clamped to
// [MaxWaitHint]. Negative values are unreadable.
func parseResetDuration(value string) (time.Duration, bool) {
	value = strings.TrimSpace(value)
	if isDecimal(value) {
		return clampWait(parseDecimal(value) * float64(time.Second)), true
	}
	return parseGoDuration(value)
}

// parseBareReset reads a bare X-RateLimit-Reset: a number of at least
// 10^12 is a Unix time in milliseconds, one of at least 10^9 a Unix time in
// seconds (both measured from now), a smaller one seconds from now. The
// thresholds lie decades apart: 10^9 seconds is 2001, 10^12 milliseconds
// too, and no wait is 31 years long. 0 for a value it cannot read or a
// time already past; at most [MaxWaitHint].
func parseBareReset(value string, now time.Time) time.Duration {
	value = strings.TrimSpace(value)
	if !isDecimal(value) {
		return 0
	}
	n := parseDecimal(value)
	switch {
	case n >= 1e12:
		return untilClamped(time.UnixMilli(int64(min(n, math.MaxInt64/2))), now)
	case n >= 1e9:
		return untilClamped(time.Unix(int64(min(n, math.MaxInt64/2/1e9)), 0), now)
	}
	return clampWait(n * float64(time.Second))
}

// parseResetTime reads an Anthropic-style reset, an RFC 3339 time, as the
// wait from now, clamped to [MaxWaitHint] (a date in year 9999 is the
// ceiling, not an overflow).
func parseResetTime(value string, now time.Time) (time.Duration, bool) {
	t, err := time.Parse(time.RFC3339, strings.TrimSpace(value))
	if err != nil {
		return 0, false
	}
	return untilClamped(t, now), true
}

// untilClamped is t - now within [0, MaxWaitHint]. time.Time.Sub saturates
// instead of overflowing, so far dates reach the ceiling.
func untilClamped(t, now time.Time) time.Duration {
	return max(0, min(t.Sub(now), MaxWaitHint))
}

// BoundMessage returns a provider message as the classifier reads it: at
// most its first 8 KiB, cut at a rune boundary. [Classify] applies it to
// [Evidence.ErrorMessage], and transports apply it where they attach a
// message, so that neither memory nor classification time grows with a huge
// message.
func BoundMessage(s string) string {
	if len(s) <= maxText {
		return s
	}
	cut := maxText
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut]
}
