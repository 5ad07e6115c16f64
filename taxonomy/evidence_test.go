package taxonomy_test

import (
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/resilientgo/resilient/taxonomy"
)

var hintNow = time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)

const hintCeiling = taxonomy.MaxWaitHint

func TestParseRetryAfter(t *testing.T) {
	tests := []struct {
		value  string
		want   time.Duration
		wantOK bool
	}{
		{"7", 7 * time.Second, true},
		{" 7 ", 7 * time.Second, true},
		{"0", 0, true},
		{"1.5", 1500 * time.Millisecond, true},
		{"1.8", 1800 * time.Millisecond, true}, // rounded, not 1.799999999s
		{"0.25", 250 * time.Millisecond, true},
		{hintNow.Add(30 * time.Second).Format(http.TimeFormat), 30 * time.Second, true},
		{"Mon, 30 Nov 2026 12:02:00 GMT", 2 * time.Minute, true},                         // IMF-fixdate (RFC 9110)
		{"Monday, 30-Nov-26 12:00:45 GMT", 45 * time.Second, true},                       // obsolete RFC 850 form
		{"Mon Nov 30 12:01:00 2026", time.Minute, true},                                  // obsolete asctime form
		{hintNow.Add(-time.Hour).Format(http.TimeFormat), 0, true},                       // a date in the past: no wait
		{"Fri, 31 Dec 9999 23:59:59 GMT", hintCeiling, true},                             // far future: clamped
		{"21600", hintCeiling, true},                                                     // exactly the hintCeiling
		{"21601", hintCeiling, true},                                                     // just over it
		{"99999999999", hintCeiling, true},                                               // huge seconds: clamped, not overflowed
		{"999999999999999999999999999999999999999999999999999999999", hintCeiling, true}, // beyond float64 precision
		{"", 0, false},
		{"   ", 0, false},
		{"-1", 0, false},
		{"-0.5", 0, false},
		{"+5", 0, false},
		{"soon", 0, false},
		{"7s", 0, false},
		{"1e3", 0, false},
		{"0x10", 0, false},
		{"Inf", 0, false},
		{"NaN", 0, false},
		{"1.", 0, false},
		{".5", 0, false},
		{"1.2.3", 0, false},
	}
	for _, tt := range tests {
		got, ok := taxonomy.ParseRetryAfter(tt.value, hintNow)
		if got != tt.want || ok != tt.wantOK {
			t.Errorf("ParseRetryAfter(%q) = %v, %v; want %v, %v", tt.value, got, ok, tt.want, tt.wantOK)
		}
	}
}

func TestParseRetryAfterMillis(t *testing.T) {
	tests := []struct {
		value  string
		want   time.Duration
		wantOK bool
	}{
		{"1500", 1500 * time.Millisecond, true},
		{"20", 20 * time.Millisecond, true},
		{"0", 0, true},
		{"0.5", 500 * time.Microsecond, true},
		{" 250 ", 250 * time.Millisecond, true},
		{"21600000", hintCeiling, true},
		{"99999999999999999999", hintCeiling, true},
		{"", 0, false},
		{"-1", 0, false},
		{"abc", 0, false},
		{"Inf", 0, false},
		{"1e3", 0, false},
	}
	for _, tt := range tests {
		got, ok := taxonomy.ParseRetryAfterMillis(tt.value)
		if got != tt.want || ok != tt.wantOK {
			t.Errorf("ParseRetryAfterMillis(%q) = %v, %v; want %v, %v", tt.value, got, ok, tt.want, tt.wantOK)
		}
	}
}

func TestParseShouldRetry(t *testing.T) {
	tests := []struct{ value, want string }{
		{"true", "true"},
		{"false", "false"},
		{"True", "true"},
		{" FALSE ", "false"},
		{"", ""},
		{"1", ""},
		{"yes", ""},
		{"truex", ""},
	}
	for _, tt := range tests {
		if got := taxonomy.ParseShouldRetry(tt.value); got != tt.want {
			t.Errorf("ParseShouldRetry(%q) = %q, want %q", tt.value, got, tt.want)
		}
	}
}

// TestHeaderEvidence reads every header form the providers send, one row per
// form. Resets are measured from hintNow; the far ones reach the hintCeiling.
func TestHeaderEvidence(t *testing.T) {
	type want struct {
		retryAfter time.Duration
		retryNow   bool
		reset      time.Duration
	}
	tests := []struct {
		name   string
		header map[string]string
		want   want
	}{
		{"nothing", nil, want{}},
		{"Retry-After seconds", map[string]string{"Retry-After": "7"}, want{retryAfter: 7 * time.Second}},
		{"Retry-After date", map[string]string{"Retry-After": "Mon, 30 Nov 2026 12:00:30 GMT"}, want{retryAfter: 30 * time.Second}},
		{"Retry-After 0 is an explicit retry hintNow", map[string]string{"Retry-After": "0"}, want{retryNow: true}},
		{"Retry-After date in the past is an explicit retry hintNow", map[string]string{"Retry-After": "Mon, 30 Nov 2026 11:00:00 GMT"}, want{retryNow: true}},
		{"Retry-After garbage is no hint", map[string]string{"Retry-After": "soon"}, want{}},
		{"Retry-After over the hintCeiling", map[string]string{"Retry-After": "31536000"}, want{retryAfter: hintCeiling}},
		{"retry-after-ms wins", map[string]string{"Retry-After": "7", "Retry-After-Ms": "1500"}, want{retryAfter: 1500 * time.Millisecond}},
		{"retry-after-ms 0 wins over Retry-After: retry hintNow", map[string]string{"Retry-After": "7", "Retry-After-Ms": "0"}, want{retryNow: true}},
		{"invalid retry-after-ms falls back to Retry-After", map[string]string{"Retry-After": "7", "Retry-After-Ms": "soon"}, want{retryAfter: 7 * time.Second}},
		{"negative retry-after-ms falls back to Retry-After", map[string]string{"Retry-After": "7", "Retry-After-Ms": "-1"}, want{retryAfter: 7 * time.Second}},

		{"openai reset of an exhausted limit, minutes", map[string]string{"X-Ratelimit-Remaining-Requests": "0", "X-Ratelimit-Reset-Requests": "6m0s"}, want{reset: 6 * time.Minute}},
		{"openai reset, milliseconds", map[string]string{"X-Ratelimit-Reset-Tokens": "20ms"}, want{reset: 20 * time.Millisecond}},
		{"openai reset, seconds", map[string]string{"X-Ratelimit-Reset-Tokens": "1s"}, want{reset: time.Second}},
		{"openai reset, hours minutes seconds", map[string]string{"X-Ratelimit-Reset-Requests": "1h2m3.5s"}, want{reset: time.Hour + 2*time.Minute + 3500*time.Millisecond}},
		{"cerebras reset in bare seconds", map[string]string{"X-Ratelimit-Reset-Tokens-Minute": "11.5"}, want{reset: 11500 * time.Millisecond}},
		{"the soonest reset of any limit", map[string]string{"X-Ratelimit-Reset-Requests": "6m0s", "X-Ratelimit-Reset-Tokens": "1s"}, want{reset: time.Second}},
		{"the exhausted limit's reset wins over a sooner one", map[string]string{
			"X-Ratelimit-Remaining-Requests": "0", "X-Ratelimit-Reset-Requests": "6m0s",
			"X-Ratelimit-Remaining-Tokens": "5000", "X-Ratelimit-Reset-Tokens": "1s"}, want{reset: 6 * time.Minute}},
		{"the soonest of two exhausted limits", map[string]string{
			"X-Ratelimit-Remaining-Requests": "0", "X-Ratelimit-Reset-Requests": "6m0s",
			"X-Ratelimit-Remaining-Tokens": "0", "X-Ratelimit-Reset-Tokens": "2s"}, want{reset: 2 * time.Second}},
		{"a zero reset is not in the future", map[string]string{"X-Ratelimit-Reset-Requests": "0s", "X-Ratelimit-Reset-Tokens": "3s"}, want{reset: 3 * time.Second}},
		{"a negative reset is unreadable", map[string]string{"X-Ratelimit-Reset-Requests": "-5s"}, want{}},
		{"a reset in garbage is unreadable", map[string]string{"X-Ratelimit-Reset-Requests": "soon"}, want{}},
		{"10000h is clamped", map[string]string{"X-Ratelimit-Reset-Requests": "10000h"}, want{reset: hintCeiling}},
		{"a reset that overflows a Duration is clamped", map[string]string{"X-Ratelimit-Reset-Requests": "99999999999999999999h"}, want{reset: hintCeiling}},
		{"huge bare seconds are clamped", map[string]string{"X-Ratelimit-Reset-Requests": "99999999999999999999"}, want{reset: hintCeiling}},
		{"an exponent is unreadable", map[string]string{"X-Ratelimit-Reset-Requests": "1e400"}, want{}},

		// A bare X-RateLimit-Reset (OpenRouter, dirge-code/dirge#719 and
		// everruns/everruns#2280): epoch milliseconds, epoch seconds or
		// seconds from now, told apart by size.
		{"bare reset in epoch milliseconds", map[string]string{"X-Ratelimit-Remaining": "0", "X-Ratelimit-Reset": strconv.FormatInt(hintNow.Add(42*time.Second).UnixMilli(), 10)}, want{reset: 42 * time.Second}},
		{"bare reset in epoch seconds", map[string]string{"X-Ratelimit-Reset": strconv.FormatInt(hintNow.Add(90*time.Second).Unix(), 10)}, want{reset: 90 * time.Second}},
		{"bare reset in seconds from now", map[string]string{"X-Ratelimit-Reset": "17"}, want{reset: 17 * time.Second}},
		{"bare reset in the past is ignored", map[string]string{"X-Ratelimit-Reset": strconv.FormatInt(hintNow.Add(-time.Minute).UnixMilli(), 10)}, want{}},
		{"bare reset far ahead is the hintCeiling", map[string]string{"X-Ratelimit-Reset": "99999999999999999999"}, want{reset: hintCeiling}},
		{"bare reset in garbage is unreadable", map[string]string{"X-Ratelimit-Reset": "soon"}, want{}},
		{"the exhausted bare limit wins over a sooner suffixed one", map[string]string{
			"X-Ratelimit-Remaining": "0", "X-Ratelimit-Reset": strconv.FormatInt(hintNow.Add(30*time.Second).UnixMilli(), 10),
			"X-Ratelimit-Remaining-Tokens": "900", "X-Ratelimit-Reset-Tokens": "2s"}, want{reset: 30 * time.Second}},

		{"anthropic reset of an exhausted limit", map[string]string{"Anthropic-Ratelimit-Tokens-Remaining": "0", "Anthropic-Ratelimit-Tokens-Reset": "2026-11-30T12:00:20Z"}, want{reset: 20 * time.Second}},
		{"anthropic input-tokens limit", map[string]string{"Anthropic-Ratelimit-Input-Tokens-Remaining": "0", "Anthropic-Ratelimit-Input-Tokens-Reset": "2026-11-30T12:00:05Z",
			"Anthropic-Ratelimit-Requests-Remaining": "49", "Anthropic-Ratelimit-Requests-Reset": "2026-11-30T12:00:01Z"}, want{reset: 5 * time.Second}},
		{"anthropic resets, none exhausted: the soonest", map[string]string{"Anthropic-Ratelimit-Requests-Reset": "2026-11-30T12:00:40Z", "Anthropic-Ratelimit-Tokens-Reset": "2026-11-30T12:00:10+00:00"}, want{reset: 10 * time.Second}},
		{"anthropic reset with an offset", map[string]string{"Anthropic-Ratelimit-Tokens-Reset": "2026-11-30T13:00:15+01:00"}, want{reset: 15 * time.Second}},
		{"anthropic reset in the past is ignored", map[string]string{"Anthropic-Ratelimit-Tokens-Reset": "2026-11-30T11:59:00Z", "Anthropic-Ratelimit-Requests-Reset": "2026-11-30T12:00:03Z"}, want{reset: 3 * time.Second}},
		{"anthropic reset in year 9999 is the hintCeiling", map[string]string{"Anthropic-Ratelimit-Tokens-Reset": "9999-12-31T23:59:59Z"}, want{reset: hintCeiling}},
		{"anthropic reset in garbage is unreadable", map[string]string{"Anthropic-Ratelimit-Tokens-Reset": "tomorrow"}, want{}},

		{"Retry-After and a reset are both kept", map[string]string{"Retry-After": "7", "X-Ratelimit-Remaining-Requests": "0", "X-Ratelimit-Reset-Requests": "20s"}, want{retryAfter: 7 * time.Second, reset: 20 * time.Second}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := http.Header{}
			for k, v := range tt.header {
				h.Set(k, v)
			}
			ev := taxonomy.HeaderEvidence(h, 429, hintNow)
			got := want{ev.RetryAfter, ev.RetryNow, ev.RateLimitReset}
			if got != tt.want || ev.Status != 429 {
				t.Errorf("got %+v (status %d), want %+v", got, ev.Status, tt.want)
			}
		})
	}
}

func TestHeaderEvidenceIdentifiers(t *testing.T) {
	h := http.Header{"X-Should-Retry": {" True "}, "Request-Id": {"req_1"}}
	ev := taxonomy.HeaderEvidence(h, 529, hintNow)
	if ev.ShouldRetry != "true" || ev.RequestID != "req_1" {
		t.Errorf("got should-retry %q, request id %q; want \"true\", \"req_1\"", ev.ShouldRetry, ev.RequestID)
	}
}

// TestClassifyWait checks which wait the classifier picks from the evidence,
// and the source it names, strongest first: a Retry-After (0 included), then
// for a rate limit the announced reset, then the text.
func TestClassifyWait(t *testing.T) {
	const tpm = "Rate limit reached for gpt-4o on tokens per min (TPM): Limit 30000, Used 28502, Requested 3012. Please try again in 1.8s."
	tests := []struct {
		name       string
		err        error
		want       time.Duration
		wantSource taxonomy.WaitSource
	}{
		{"no hint: backoff", withWire(429, "Rate limit reached", taxonomy.Evidence{}), 0, taxonomy.WaitBackoff},
		{"Retry-After", withWire(429, "Rate limit reached", taxonomy.Evidence{RetryAfter: 7 * time.Second}), 7 * time.Second, taxonomy.WaitRetryAfter},
		{"reset without Retry-After", withWire(429, "Rate limit reached", taxonomy.Evidence{RateLimitReset: 20 * time.Second}), 20 * time.Second, taxonomy.WaitReset},
		{"Retry-After wins over a reset", withWire(429, "Rate limit reached", taxonomy.Evidence{RetryAfter: 7 * time.Second, RateLimitReset: 20 * time.Second}), 7 * time.Second, taxonomy.WaitRetryAfter},
		{"explicit Retry-After 0 wins over a reset", withWire(429, "Rate limit reached", taxonomy.Evidence{RetryNow: true, RateLimitReset: 20 * time.Second}), 0, taxonomy.WaitRetryAfter},
		{"explicit Retry-After 0 wins over the text", withWire(429, tpm, taxonomy.Evidence{RetryNow: true}), 0, taxonomy.WaitRetryAfter},
		{"reset wins over the text", withWire(429, tpm, taxonomy.Evidence{RateLimitReset: 20 * time.Second}), 20 * time.Second, taxonomy.WaitReset},
		{"the text when nothing else", withWire(429, tpm, taxonomy.Evidence{}), 1800 * time.Millisecond, taxonomy.WaitRetryAfter},
		{"a zero wait in the text is no hint", withWire(429, "Please try again in 0s.", taxonomy.Evidence{}), 0, taxonomy.WaitBackoff},
		{"a reset does not time a 503", withWire(503, "Service Unavailable", taxonomy.Evidence{RateLimitReset: 20 * time.Second}), 0, taxonomy.WaitBackoff},
		{"a reset times an in-band rate limit error", &taxonomy.WireError{Evidence: taxonomy.Evidence{ErrorType: "rate_limit_error", RateLimitReset: 3 * time.Second}, Err: errors.New("in-band error event")}, 3 * time.Second, taxonomy.WaitReset},
		{"a Retry-After set by hand beyond the hintCeiling", withWire(429, "x", taxonomy.Evidence{RetryAfter: 365 * 24 * time.Hour}), hintCeiling, taxonomy.WaitRetryAfter},
		{"a reset set by hand beyond the hintCeiling", withWire(429, "x", taxonomy.Evidence{RateLimitReset: 365 * 24 * time.Hour}), hintCeiling, taxonomy.WaitReset},
		{"a negative Retry-After set by hand is no hint", withWire(429, "x", taxonomy.Evidence{RetryAfter: -time.Second}), 0, taxonomy.WaitBackoff},
		{"typed header: retry-after-ms 0 wins over Retry-After", &fakeGoogleAPIError{Code: 429, Message: "Resource has been exhausted (e.g. check quota).",
			Header: http.Header{"Retry-After-Ms": {"0"}, "Retry-After": {"2"}}}, 0, taxonomy.WaitRetryAfter},
		{"typed header: a reset", &fakeGoogleAPIError{Code: 429, Message: "Resource has been exhausted (e.g. check quota).",
			Header: http.Header{"X-Ratelimit-Reset-Requests": {"4s"}}}, 4 * time.Second, taxonomy.WaitReset},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := taxonomy.Classify(tt.err)
			if c.RetryAfter != tt.want || c.WaitSource != tt.wantSource {
				t.Errorf("got %v from %v (%v), want %v from %v", c.RetryAfter, c.WaitSource, c, tt.want, tt.wantSource)
			}
		})
	}
}

func withWire(status int, message string, ev taxonomy.Evidence) error {
	ev.Status = status
	return taxonomy.WithEvidence(openai(status, message), ev)
}

func TestTypedHeaderShouldRetry(t *testing.T) {
	err := &fakeGoogleAPIError{Code: 400, Message: "Request contains an invalid argument.", Header: http.Header{"X-Should-Retry": {"true"}}}
	if c := taxonomy.Classify(err); c.Kind != taxonomy.Transient {
		t.Errorf("got %v, want transient: x-should-retry: true in the typed headers", c)
	}
}

func TestWaitSourceString(t *testing.T) {
	tests := []struct {
		s    taxonomy.WaitSource
		want string
	}{
		{taxonomy.WaitBackoff, "backoff"},
		{taxonomy.WaitRetryAfter, "retry_after"},
		{taxonomy.WaitReset, "reset"},
		{taxonomy.WaitProbe, "probe"},
		{taxonomy.WaitSource(5), "wait_source(5)"}, // the first past the names
		{taxonomy.WaitSource(9), "wait_source(9)"},
	}
	for _, tt := range tests {
		if got := tt.s.String(); got != tt.want {
			t.Errorf("WaitSource(%d).String() = %q, want %q", tt.s, got, tt.want)
		}
	}
}

// TestRetryHints checks the wait hints found in provider texts, one row per
// wording, through Class.RetryAfter.
func TestRetryHints(t *testing.T) {
	tests := []struct {
		text string
		want time.Duration
	}{
		{"Please try again in 1.8s.", 1800 * time.Millisecond}, // OpenAI TPM
		{"Please try again in 20ms.", 20 * time.Millisecond},   // OpenAI RPM
		{"Please try again in 6m0s.", 6 * time.Minute},         // OpenAI RPD
		{"Please try again in 1h2m3.5s.", time.Hour + 2*time.Minute + 3500*time.Millisecond},
		{"Please retry in 12.3s.", 12300 * time.Millisecond},      // Gemini
		{"Please retry after 6 seconds.", 6 * time.Second},        // Azure OpenAI
		{"Please retry after 1 second.", time.Second},             // Azure OpenAI
		{"Try again in 2 minutes.", 2 * time.Minute},              // generic gateways
		{"retry after 1.5 min", 90 * time.Second},                 // generic gateways
		{"retry in 250 milliseconds", 250 * time.Millisecond},     // generic gateways
		{"PLEASE TRY AGAIN IN 20MS", 20 * time.Millisecond},       // case does not change the unit
		{"\"retryDelay\": \"12s\"", 12 * time.Second},             // googleapi.Error details
		{"error details: retry in 58s", 58 * time.Second},         // gax apierror details
		{"try again in 10000h", hintCeiling},                      // over the hintCeiling: clamped
		{"try again in 99999999999999999999s", hintCeiling},       // overflow: clamped
		{"try again in 0h99999999999999999999s", hintCeiling},     // overflow in a later unit: clamped
		{"retry after 99999999999999999999 minutes", hintCeiling}, // overflow in words: clamped
		{"Please try again later.", 0},                            // no number: no hint
		{"You can retry your request.", 0},                        // no number: no hint
		{"try again in 5 fortnights", 0},                          // unknown unit
		{"retry in 5sec", 5 * time.Second},                        // shorthand unit
		{"retry in 5 sections", 0},                                // a unit prefix inside a word
		{"the retry count is 3, try again in the morning", 0},     // no duration
	}
	for _, tt := range tests {
		if got := taxonomy.Classify(errors.New(tt.text)).RetryAfter; got != tt.want {
			t.Errorf("RetryAfter of %q = %v, want %v", tt.text, got, tt.want)
		}
	}
}

func TestWireError(t *testing.T) {
	inner := openai(429, "Rate limit reached")
	ev := taxonomy.Evidence{Status: 429, RetryAfter: 7 * time.Second, RequestID: "req_1"}
	err := taxonomy.WithEvidence(inner, ev)

	var wire *taxonomy.WireError
	tests := []struct {
		name      string
		got, want any
	}{
		{"nil error stays nil", taxonomy.WithEvidence(nil, ev) == nil, true},
		{"text unchanged", err.Error(), inner.Error()},
		{"unwraps to the client's error", errors.Is(err, inner), true},
		{"found through wrapping", errors.As(fmt.Errorf("attempt 2: %w", err), &wire), true},
		{"evidence kept", wire.Evidence, ev},
		{"no Err: the message is the text", (&taxonomy.WireError{Evidence: taxonomy.Evidence{ErrorMessage: "Overloaded"}}).Error(), "Overloaded"},
		{"no Err: unwraps to nil", (&taxonomy.WireError{}).Unwrap() == nil, true},
		{"an unexpected EOF stays reachable", errors.Is(taxonomy.WithEvidence(io.ErrUnexpectedEOF, taxonomy.Evidence{}), io.ErrUnexpectedEOF), true},
	}
	for _, tt := range tests {
		if tt.got != tt.want {
			t.Errorf("%s: got %v, want %v", tt.name, tt.got, tt.want)
		}
	}
}

func TestBoundMessage(t *testing.T) {
	long := strings.Repeat("a", 8<<10-1) + "é" + "tail" // the 2-byte rune straddles the bound
	tests := []struct {
		name, in, want string
	}{
		{"short", "Overloaded", "Overloaded"},
		{"exactly the bound", strings.Repeat("a", 8<<10), strings.Repeat("a", 8<<10)},
		{"cut at a rune boundary", long, strings.Repeat("a", 8<<10-1)},
		{"no rune starts before the bound", strings.Repeat("\x80", 9000), ""},
	}
	for _, tt := range tests {
		if got := taxonomy.BoundMessage(tt.in); got != tt.want {
			t.Errorf("%s: got %d bytes, want %d", tt.name, len(got), len(tt.want))
		}
	}
}

// A provider message attached to the evidence is read like any text: only
// its first 8 KiB count, so a marker beyond them does not, and a 1 MB message
// costs what 8 KiB cost.
func TestClassifyReadsAtMost8KiBOfTheAttachedMessage(t *testing.T) {
	filler := strings.Repeat("lorem ipsum ", 1<<20/12)
	tests := []struct {
		name    string
		message string
		want    taxonomy.Kind
	}{
		{"marker within the bound", "rate limit exceeded. " + filler, taxonomy.RateLimited},
		{"marker beyond the bound", filler + " rate limit exceeded", taxonomy.Unknown},
	}
	for _, tt := range tests {
		err := &taxonomy.WireError{Evidence: taxonomy.Evidence{ErrorMessage: tt.message}, Err: errors.New("provider error")}
		if got := taxonomy.Classify(err).Kind; got != tt.want {
			t.Errorf("%s: got %v, want %v", tt.name, got, tt.want)
		}
	}
}

// The wire evidence's own wait hints win as a whole over those of a typed
// error deeper in the tree, whichever of them it holds: an explicit
// "retry now", or only a rate-limit reset.
func TestWireHintsWinOverDeeperHeaders(t *testing.T) {
	deeper := headerOnlyError{Header: http.Header{"Retry-After": {"7"}}}
	tests := []struct {
		name   string
		ev     taxonomy.Evidence
		wait   time.Duration
		source taxonomy.WaitSource
	}{
		{"retry now", taxonomy.Evidence{Status: 429, RetryNow: true}, 0, taxonomy.WaitRetryAfter},
		{"a reset alone", taxonomy.Evidence{Status: 429, RateLimitReset: 3 * time.Second}, 3 * time.Second, taxonomy.WaitReset},
		{"nothing: the deeper header", taxonomy.Evidence{Status: 429}, 7 * time.Second, taxonomy.WaitRetryAfter},
	}
	for _, tt := range tests {
		c := taxonomy.Classify(taxonomy.WithEvidence(deeper, tt.ev))
		if c.RetryAfter != tt.wait || c.WaitSource != tt.source {
			t.Errorf("%s: got %v from %v, want %v from %v", tt.name, c.RetryAfter, c.WaitSource, tt.wait, tt.source)
		}
	}
}
