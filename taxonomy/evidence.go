package taxonomy

import (
	"errors"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// Evidence is what the HTTP layer saw for one attempt: facts that
// langchaingo's clients throw away, recorded by a transport before the client
// flattens the response into text.
type Evidence struct {
	// Status is the HTTP status, 0 if no response arrived.
	Status int
	// RetryAfter is the wait the provider asked for (Retry-After in seconds
	// or as an HTTP date, or retry-after-ms), 0 if none.
	RetryAfter time.Duration
	// ShouldRetry is the provider's x-should-retry header: "true", "false",
	// or "" when absent.
	ShouldRetry string
	// ErrorType and ErrorCode are the provider's machine-readable error type
	// and code from the JSON body ("rate_limit_error", "insufficient_quota").
	ErrorType string
	ErrorCode string
	// ErrorMessage is the provider's error message from the body.
	ErrorMessage string
	// RequestID is the provider's request id header, for support tickets.
	RequestID string
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

// maxRetryAfter bounds parsed wait hints so that absurd values cannot
// overflow a time.Duration. Callers cap far below it.
const maxRetryAfter = 365 * 24 * time.Hour

// ParseRetryAfter reads a Retry-After header value: delay-seconds (fractions
// accepted) or an HTTP date, which is measured from now. It reports false for
// an empty, negative or unparsable value. A date in the past is a zero wait.
// Values beyond a year are clamped to a year.
func ParseRetryAfter(value string, now time.Time) (time.Duration, bool) {
	value = strings.TrimSpace(value)
	if value == "" {
		return 0, false
	}
	if isDecimal(value) {
		return clampWait(parseDecimal(value) * float64(time.Second)), true
	}
	if t, err := http.ParseTime(value); err == nil {
		return max(0, min(t.Sub(now), maxRetryAfter)), true
	}
	return 0, false
}

// ParseRetryAfterMillis reads a retry-after-ms header value (OpenAI,
// Anthropic).
func ParseRetryAfterMillis(value string) (time.Duration, bool) {
	value = strings.TrimSpace(value)
	if !isDecimal(value) {
		return 0, false
	}
	return clampWait(parseDecimal(value) * float64(time.Millisecond)), true
}

// isDecimal reports whether s is digits with an optional fraction ("7",
// "1.5"): delay-seconds as RFC 9110 writes it, plus the fractions some
// providers send. It rejects what strconv.ParseFloat would also accept:
// signs, exponents, hex, "Inf" and "NaN".
func isDecimal(s string) bool {
	digits, dot := 0, false
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c >= '0' && c <= '9':
			digits++
		case c == '.' && !dot && digits > 0 && i < len(s)-1:
			dot = true
		default:
			return false
		}
	}
	return digits > 0
}

// parseDecimal parses a string isDecimal accepted. Too many digits for a
// float64 give +Inf, which clampWait clamps.
func parseDecimal(s string) float64 {
	f, err := strconv.ParseFloat(s, 64)
	if err != nil && !errors.Is(err, strconv.ErrRange) {
		return 0
	}
	return f
}

func clampWait(ns float64) time.Duration {
	return time.Duration(min(ns, float64(maxRetryAfter))) // exact: a year of nanoseconds is a multiple of 4
}

// retryHintRE finds wait hints in lowercased provider texts, where the text is
// the only evidence left: OpenAI "Please try again in 1.8s" / "in 20ms" / "in
// 6m0s", Azure "Please retry after 6 seconds", Gemini "Please retry in 12.3s",
// its JSON detail "retryDelay": "12s" and gax's "error details: retry in 12s".
var retryHintRE = regexp.MustCompile(`(?:try again|retry)(?: after| in)\s+(?:((?:\d+(?:\.\d+)?(?:ms|h|m|s))+)|(\d+(?:\.\d+)?)\s*(milliseconds?|seconds?|secs?|minutes?|mins?))\b|"retrydelay":\s*"(\d+(?:\.\d+)?s)"`)

// retryHint extracts a wait hint from a lowercased error text.
func retryHint(lower string) (time.Duration, bool) {
	// Every match holds "try" at most three bytes after its start ("try
	// again", "retry", the quote before "retrydelay"): run the expression
	// from three bytes before the first "try", if there is one. Whichever of
	// "try again" and "retry" comes first, the match cannot start earlier.
	i := strings.Index(lower, "try")
	if i < 0 {
		return 0, false // the common case, without running the expression
	}
	text := lower[max(i-3, 0):]
	m := retryHintRE.FindStringSubmatchIndex(text)
	if m == nil {
		return 0, false
	}
	group := func(n int) string {
		if m[2*n] == -1 { // the group did not take part in the match
			return ""
		}
		return text[m[2*n]:m[2*n+1]]
	}
	if num := group(2); num != "" {
		// "6 seconds", "1.5 minutes", "20 milliseconds"
		num := parseDecimal(num)
		switch unit := group(3); {
		case strings.HasPrefix(unit, "milli"):
			return clampWait(num * float64(time.Millisecond)), true
		case strings.HasPrefix(unit, "min"):
			return clampWait(num * float64(time.Minute)), true
		default:
			return clampWait(num * float64(time.Second)), true
		}
	}
	// Go duration syntax: "1.8s", "20ms", "6m0s", or retryDelay's "12s".
	v := group(1) + group(4) // exactly one of them matched
	d, err := time.ParseDuration(v)
	if err != nil {
		// The syntax is valid, so the value overflows a time.Duration.
		return maxRetryAfter, true
	}
	return min(d, maxRetryAfter), true
}
