package taxonomy_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/resilientgo/resilient/taxonomy"
)

// FuzzClassify feeds arbitrary texts, as a bare error, wrapped, and behind
// wire evidence with an arbitrary status and Retry-After value. Classify must
// not panic, must answer the same twice, must name a known kind and a rule,
// must never report a negative wait, and must call only a permanent failure
// an account failure.
func FuzzClassify(f *testing.F) {
	for _, tt := range classifyCases() {
		if tt.err == nil {
			continue
		}
		msg := safeText(tt.err)
		f.Add(msg, tt.want.Status, "")
		f.Add(msg, 429, "7")
	}
	f.Add("", 0, "")
	f.Add("try again in 99999999999999999999h", 0, "")
	f.Add("API returned unexpected status code: 999: x", 0, "Fri, 31 Dec 9999 23:59:59 GMT")
	f.Add("rpc error: code = ResourceExhausted desc = Please retry in 12.3s.", -1, "-1")

	now := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	f.Fuzz(func(t *testing.T, msg string, status int, retryAfter string) {
		wait, _ := taxonomy.ParseRetryAfter(retryAfter, now)
		errs := []error{
			errors.New(msg),
			fmt.Errorf("x: %w", errors.New(msg)),
			taxonomy.WithEvidence(errors.New(msg), taxonomy.Evidence{Status: status, RetryAfter: wait, ErrorMessage: msg}),
			taxonomy.WithEvidence(errors.New("empty response"), taxonomy.Evidence{Status: status, ErrorType: msg, ErrorCode: msg}),
			errors.Join(errors.New(msg), errors.New(strings.ToUpper(msg))),
		}
		for _, err := range errs {
			first := taxonomy.Classify(err)
			second := taxonomy.Classify(err)
			if first != second {
				t.Fatalf("Classify(%q) not deterministic: got %+v, then %+v", err, fields(second), fields(first))
			}
			if first.RetryAfter < 0 {
				t.Fatalf("Classify(%q).RetryAfter = %v, want >= 0", err, first.RetryAfter)
			}
			if name := first.Kind.String(); strings.HasPrefix(name, "kind(") {
				t.Fatalf("Classify(%q).Kind = %s, want a declared kind", err, name)
			}
			if first.Rule == "" {
				t.Fatalf("Classify(%q).Rule is empty, want the deciding rule", err)
			}
			if first.AccountFailure && first.Kind != taxonomy.Permanent {
				t.Fatalf("Classify(%q) = %+v: an account failure that is not permanent", err, fields(first))
			}
		}
		if wait < 0 {
			t.Fatalf("ParseRetryAfter(%q) = %v, want >= 0", retryAfter, wait)
		}
	})
}

// safeText is err's text, or "" when its Error method panics (the typed-nil
// rows of the table).
func safeText(err error) (s string) {
	defer func() {
		if recover() != nil {
			s = ""
		}
	}()
	return err.Error()
}
