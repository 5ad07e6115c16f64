package taxonomy_test

import (
	"errors"
	"net/http"
	"testing"
	"time"

	"github.com/resilientgo/resilient/taxonomy"
)

// FuzzWaitHints feeds arbitrary values to every parser of a wait hint: the
// Retry-After and retry-after-ms parsers, each reset header through
// HeaderEvidence, and the "try again in" texts through Classify. Whatever the
// value, a wait is within [0, MaxWaitHint] and the classifier's wait is one of
// the hints it was given.
func FuzzWaitHints(f *testing.F) {
	for _, v := range []string{
		"7", "0", "1.5", "-1", "+5", "1e3", "Inf", "NaN", ".5", "1.",
		"99999999999999999999", "999999999999999999999999999999999999999999999999999999999",
		"Fri, 31 Dec 9999 23:59:59 GMT", "Mon, 30 Nov 2026 12:00:30 GMT", "Mon Nov 30 12:01:00 2026",
		"6m0s", "20ms", "1h2m3.5s", "10000h", "99999999999999999999h", "0h99999999999999999999s", "-5s", "1µs", "0",
		"2026-11-30T12:00:20Z", "9999-12-31T23:59:59Z", "0001-01-01T00:00:00Z", "2026-11-30T13:00:15+01:00",
		"", " ", "soon",
	} {
		f.Add(v)
	}
	now := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	inRange := func(t *testing.T, what, value string, d time.Duration) {
		t.Helper()
		if d < 0 || d > taxonomy.MaxWaitHint {
			t.Fatalf("%s(%q) = %v, want within [0, %v]", what, value, d, taxonomy.MaxWaitHint)
		}
	}
	f.Fuzz(func(t *testing.T, value string) {
		d, _ := taxonomy.ParseRetryAfter(value, now)
		inRange(t, "ParseRetryAfter", value, d)
		d, _ = taxonomy.ParseRetryAfterMillis(value)
		inRange(t, "ParseRetryAfterMillis", value, d)
		for _, key := range []string{"Retry-After", "Retry-After-Ms", "X-Ratelimit-Reset-Requests", "Anthropic-Ratelimit-Tokens-Reset"} {
			h := http.Header{key: {value}, "X-Ratelimit-Remaining-Requests": {"0"}, "Anthropic-Ratelimit-Tokens-Remaining": {"0"}}
			ev := taxonomy.HeaderEvidence(h, 429, now)
			inRange(t, key+" RetryAfter", value, ev.RetryAfter)
			inRange(t, key+" RateLimitReset", value, ev.RateLimitReset)
			if ev.RetryNow && ev.RetryAfter != 0 {
				t.Fatalf("%s: %q: RetryNow with a wait of %v", key, value, ev.RetryAfter)
			}
			c := taxonomy.Classify(taxonomy.WithEvidence(errors.New("rate limited"), ev))
			inRange(t, key+" class", value, c.RetryAfter)
			if c.RetryAfter != ev.RetryAfter && c.RetryAfter != ev.RateLimitReset {
				t.Fatalf("%s: %q: the class waits %v, which is neither the Retry-After %v nor the reset %v", key, value, c.RetryAfter, ev.RetryAfter, ev.RateLimitReset)
			}
		}
		for _, text := range []string{"Please try again in " + value, "retry after " + value, `"retryDelay": "` + value + `"`} {
			inRange(t, "Classify", text, taxonomy.Classify(errors.New(text)).RetryAfter)
		}
	})
}
