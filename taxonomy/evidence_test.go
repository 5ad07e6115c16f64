package taxonomy_test

import (
	"errors"
	"fmt"
	"io"
	"net/http"
	"testing"
	"time"

	"github.com/resilientgo/resilient/taxonomy"
)

func TestParseRetryAfter(t *testing.T) {
	now := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	year := 365 * 24 * time.Hour
	tests := []struct {
		value  string
		want   time.Duration
		wantOK bool
	}{
		{"7", 7 * time.Second, true},
		{" 7 ", 7 * time.Second, true},
		{"0", 0, true},
		{"1.5", 1500 * time.Millisecond, true},
		{"0.25", 250 * time.Millisecond, true},
		{now.Add(30 * time.Second).Format(http.TimeFormat), 30 * time.Second, true},
		{"Mon, 30 Nov 2026 12:02:00 GMT", 2 * time.Minute, true},                  // IMF-fixdate (RFC 9110)
		{"Monday, 30-Nov-26 12:00:45 GMT", 45 * time.Second, true},                // obsolete RFC 850 form
		{"Mon Nov 30 12:01:00 2026", time.Minute, true},                           // obsolete asctime form
		{now.Add(-time.Hour).Format(http.TimeFormat), 0, true},                    // a date in the past: no wait
		{"Fri, 31 Dec 9999 23:59:59 GMT", year, true},                             // far future: clamped
		{"99999999999", year, true},                                               // huge seconds: clamped, not overflowed
		{"999999999999999999999999999999999999999999999999999999999", year, true}, // beyond float64 precision
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
		got, ok := taxonomy.ParseRetryAfter(tt.value, now)
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
		{"99999999999999999999", 365 * 24 * time.Hour, true},
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

// TestRetryHints checks the wait hints found in provider texts, one row per
// wording, through Class.RetryAfter.
func TestRetryHints(t *testing.T) {
	year := 365 * 24 * time.Hour
	tests := []struct {
		text string
		want time.Duration
	}{
		{"Please try again in 1.8s.", 1800 * time.Millisecond}, // OpenAI TPM
		{"Please try again in 20ms.", 20 * time.Millisecond},   // OpenAI RPM
		{"Please try again in 6m0s.", 6 * time.Minute},         // OpenAI RPD
		{"Please try again in 1h2m3.5s.", time.Hour + 2*time.Minute + 3500*time.Millisecond},
		{"Please retry in 12.3s.", 12300 * time.Millisecond},  // Gemini
		{"Please retry after 6 seconds.", 6 * time.Second},    // Azure OpenAI
		{"Please retry after 1 second.", time.Second},         // Azure OpenAI
		{"Try again in 2 minutes.", 2 * time.Minute},          // generic gateways
		{"retry after 1.5 min", 90 * time.Second},             // generic gateways
		{"retry in 250 milliseconds", 250 * time.Millisecond}, // generic gateways
		{"PLEASE TRY AGAIN IN 20MS", 20 * time.Millisecond},   // case does not change the unit
		{"\"retryDelay\": \"12s\"", 12 * time.Second},         // googleapi.Error details
		{"error details: retry in 58s", 58 * time.Second},     // gax apierror details
		{"try again in 99999999999999999999s", year},          // overflow: clamped
		{"try again in 0h99999999999999999999s", year},        // overflow in a later unit: clamped
		{"retry after 99999999999999999999 minutes", year},    // overflow in words: clamped
		{"Please try again later.", 0},                        // no number: no hint
		{"You can retry your request.", 0},                    // no number: no hint
		{"try again in 5 fortnights", 0},                      // unknown unit
		{"retry in 5sec", 5 * time.Second},                    // shorthand unit
		{"retry in 5 sections", 0},                            // a unit prefix inside a word
		{"the retry count is 3, try again in the morning", 0}, // no duration
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
