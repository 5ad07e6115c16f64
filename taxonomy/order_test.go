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

// TestClassifyEvidenceOrder pins what decides when several pieces of
// evidence disagree, and that the error tree is searched whole. It checks
// the rules alone (RulesOnly): the token model, which may speak where no
// rule matched, has tests of its own (tokmodel_test.go).
func TestClassifyEvidenceOrder(t *testing.T) {
	header := func(kv ...string) http.Header {
		h := http.Header{}
		for i := 0; i < len(kv); i += 2 {
			h.Set(kv[i], kv[i+1])
		}
		return h
	}
	tests := []struct {
		name string
		err  error
		want taxonomy.Class
	}{
		// errors.Join: every branch is searched, in order, to its end.
		{"join: status in the third error", errors.Join(errors.New("primary failed"), io.ErrClosedPipe, &int64StatusError{StatusCode: 503}),
			taxonomy.Class{Kind: taxonomy.Overloaded, Rule: "status 503", Status: 503}},
		{"join: status deep in the second branch", errors.Join(errors.New("a"), fmt.Errorf("b: %w", fmt.Errorf("c: %w", &int64StatusError{StatusCode: 429}))),
			taxonomy.Class{Kind: taxonomy.RateLimited, Rule: "status 429", Status: 429}},
		{"join: the first status found wins", errors.Join(&int64StatusError{StatusCode: 529}, &int64StatusError{StatusCode: 500}),
			taxonomy.Class{Kind: taxonomy.Overloaded, Rule: "status 529", Status: 529}},
		{"join: Retry-After in a later error than the status", errors.Join(&int64StatusError{StatusCode: 429}, &fakeGoogleAPIError{Code: 429, Message: "x", Header: header("Retry-After", "9")}),
			taxonomy.Class{WaitSource: taxonomy.WaitRetryAfter, Kind: taxonomy.RateLimited, Rule: "status 429", Status: 429, RetryAfter: 9 * time.Second}},
		{"join: wire evidence in the second error", errors.Join(errors.New("fallback: no response"), taxonomy.WithEvidence(errors.New("primary"), taxonomy.Evidence{Status: 529, ErrorType: "overloaded_error"})),
			taxonomy.Class{Kind: taxonomy.Overloaded, Rule: "status 529", Status: 529, Code: "overloaded_error"}},
		{"join: a provider code in the second error", errors.Join(errors.New("fallback failed"), bedrockException(0, "ThrottlingException", "slow down")),
			taxonomy.Class{Kind: taxonomy.RateLimited, Rule: `code "ThrottlingException"`, Code: "ThrottlingException"}},
		{"a typed status is not replaced by a later one", fmt.Errorf("x: %w", &goOpenAIRequestError{HTTPStatusCode: 502, Err: &int64StatusError{StatusCode: 429}}),
			taxonomy.Class{Kind: taxonomy.Transient, Rule: "status 502", Status: 502}},

		// The walk stops after 64 errors, so that a malformed Unwrap cannot
		// loop forever; the 64th is still read.
		{"status in the 64th error of a chain", deepChain(&int64StatusError{StatusCode: 503}, 64),
			taxonomy.Class{Kind: taxonomy.Overloaded, Rule: "status 503", Status: 503}},
		{"status in the 65th error of a chain is not read", deepChain(&int64StatusError{StatusCode: 503}, 65),
			taxonomy.Class{Kind: taxonomy.Unknown, Rule: "no rule matched"}},

		// Each evidence field of a typed error is read on its own.
		{"StatusCode uint", uintStatusError{StatusCode: 429}, taxonomy.Class{Kind: taxonomy.RateLimited, Rule: "status 429", Status: 429}},
		{"StatusCode uint64", uint64StatusError{StatusCode: 503}, taxonomy.Class{Kind: taxonomy.Overloaded, Rule: "status 503", Status: 503}},
		{"Code field alone", codeOnlyError{Code: "rate_limit_exceeded"},
			taxonomy.Class{Kind: taxonomy.RateLimited, Rule: `code "rate_limit_exceeded"`, Code: "rate_limit_exceeded"}},
		{"Type field alone", typeOnlyError{Type: "overloaded_error"},
			taxonomy.Class{Kind: taxonomy.Overloaded, Rule: `type "overloaded_error"`, Code: "overloaded_error"}},
		{"Message field alone", messageOnlyError{Message: "This model's maximum context length is 8192 tokens."},
			taxonomy.Class{Kind: taxonomy.ContextOverflow, Rule: `marker "maximum context length"`}},
		{"Header field alone", headerOnlyError{Header: header("Retry-After", "5")},
			taxonomy.Class{WaitSource: taxonomy.WaitRetryAfter, Kind: taxonomy.RateLimited, Rule: `marker "rate limit"`, RetryAfter: 5 * time.Second}},
		{"Response field alone", responseOnlyError{Response: &http.Response{Header: header("X-Should-Retry", "true")}},
			taxonomy.Class{Kind: taxonomy.Transient, Rule: "no rule matched; x-should-retry: true"}},
		{"Response field nil", responseOnlyError{}, taxonomy.Class{Kind: taxonomy.Unknown, Rule: "no rule matched"}},

		// x-should-retry: true makes unknown and permanent retryable, and
		// leaves a retryable kind as it is.
		{"x-should-retry true on unknown", taxonomy.WithEvidence(errors.New("something odd"), taxonomy.Evidence{ShouldRetry: "true"}),
			taxonomy.Class{Kind: taxonomy.Transient, Rule: "no rule matched; x-should-retry: true"}},
		{"x-should-retry true on a rate limit changes nothing", taxonomy.WithEvidence(errors.New("x"), taxonomy.Evidence{Status: 429, ShouldRetry: "True"}),
			taxonomy.Class{Kind: taxonomy.RateLimited, Rule: "status 429", Status: 429}},
		{"x-should-retry true never retries an overflow", taxonomy.WithEvidence(errors.New("x"), taxonomy.Evidence{Status: 413, ShouldRetry: "true"}),
			taxonomy.Class{Kind: taxonomy.ContextOverflow, Rule: "status 413", Status: 413}},
		{"x-should-retry false on an overflow changes nothing", taxonomy.WithEvidence(errors.New("x"), taxonomy.Evidence{Status: 413, ShouldRetry: "false"}),
			taxonomy.Class{Kind: taxonomy.ContextOverflow, Rule: "status 413", Status: 413}},
		{"x-should-retry from a typed response header", newAnthropicSDKError(400, header("X-Should-Retry", "true"), "{}"),
			taxonomy.Class{Kind: taxonomy.Transient, Rule: "status 400; x-should-retry: true", Status: 400}},

		// A 5xx against the wording: an overflow or an unloadable model wins,
		// an exhausted quota does not (the provider failed).
		{"500 with overflow wording", openai(500, "This model's maximum context length is 8192 tokens."),
			taxonomy.Class{Kind: taxonomy.ContextOverflow, Rule: `marker "maximum context length"`, Status: 500}},
		{"500 with quota wording", openai(500, "You exceeded your current quota"),
			taxonomy.Class{Kind: taxonomy.Transient, Rule: "status 500", Status: 500}},
		{"502 with quota wording", openai(502, "You exceeded your current quota"),
			taxonomy.Class{Kind: taxonomy.Transient, Rule: "status 502", Status: 502}},
		{"499 with quota wording", openai(499, "You exceeded your current quota"),
			taxonomy.Class{Kind: taxonomy.Permanent, Rule: `marker "exceeded your current quota"`, Status: 499, AccountFailure: true}},
		{"500 with memory wording", openai(500, "model requires more system memory (9 GiB) than is available (4 GiB)"),
			taxonomy.Class{Kind: taxonomy.Permanent, Rule: `pattern "requires more memory than is available"`, Status: 500}},
		{"429 with overflow wording is a rate limit", openai(429, "This model's maximum context length is 8192 tokens."),
			taxonomy.Class{Kind: taxonomy.RateLimited, Rule: "status 429", Status: 429}},
		{"428 with overflow wording is an overflow", openai(428, "This model's maximum context length is 8192 tokens."),
			taxonomy.Class{Kind: taxonomy.ContextOverflow, Rule: `marker "maximum context length"`, Status: 428}},
		{"a code decides before the status", taxonomy.WithEvidence(errors.New("x"), taxonomy.Evidence{Status: 500, ErrorCode: "invalid_api_key"}),
			taxonomy.Class{Kind: taxonomy.Permanent, Rule: `code "invalid_api_key"`, Status: 500, Code: "invalid_api_key", AccountFailure: true}},
		{"a status decides before the type", taxonomy.WithEvidence(errors.New("x"), taxonomy.Evidence{Status: 500, ErrorType: "rate_limit_error"}),
			taxonomy.Class{Kind: taxonomy.Transient, Rule: "status 500", Status: 500, Code: "rate_limit_error"}},

		// The statuses that count: 100 to 599 from typed errors (1xx to 3xx
		// decide nothing), 400 to 599 from texts.
		{"typed status 99 is not a status", &int64StatusError{StatusCode: 99}, taxonomy.Class{Kind: taxonomy.Unknown, Rule: "no rule matched"}},
		{"typed status 100 is kept but decides nothing", &int64StatusError{StatusCode: 100}, taxonomy.Class{Kind: taxonomy.Unknown, Rule: "no rule matched", Status: 100}},
		{"typed status 399 decides nothing", &int64StatusError{StatusCode: 399}, taxonomy.Class{Kind: taxonomy.Unknown, Rule: "no rule matched", Status: 399}},
		{"typed status 400", &int64StatusError{StatusCode: 400}, taxonomy.Class{Kind: taxonomy.Permanent, Rule: "status 400", Status: 400}},
		{"typed status 499", &int64StatusError{StatusCode: 499}, taxonomy.Class{Kind: taxonomy.Permanent, Rule: "status 499", Status: 499}},
		{"typed status 500", &int64StatusError{StatusCode: 500}, taxonomy.Class{Kind: taxonomy.Transient, Rule: "status 500", Status: 500}},
		{"typed status 599", &int64StatusError{StatusCode: 599}, taxonomy.Class{Kind: taxonomy.Transient, Rule: "status 599", Status: 599}},
		{"typed status 600 is not a status", &int64StatusError{StatusCode: 600}, taxonomy.Class{Kind: taxonomy.Unknown, Rule: "no rule matched"}},
		{"text status 399 is not read", errors.New("upstream status: 399"), taxonomy.Class{Kind: taxonomy.Unknown, Rule: "no rule matched"}},
		{"text status 400", errors.New("upstream status: 400"), taxonomy.Class{Kind: taxonomy.Permanent, Rule: "status 400", Status: 400}},
		{"text status 599", errors.New("upstream status: 599"), taxonomy.Class{Kind: taxonomy.Transient, Rule: "status 599", Status: 599}},
		{"text status 600 is not read", errors.New("upstream status: 600"), taxonomy.Class{Kind: taxonomy.Unknown, Rule: "no rule matched"}},
		{"HTTPCode 529", googleai(529, "", nil), taxonomy.Class{Kind: taxonomy.Overloaded, Rule: "status 529", Status: 529}},

		// The wait hint in a text: whichever of "try again" and "retry"
		// comes first, the hint after it is found.
		{"retry first, the hint after try again", errors.New("please retry later; the limit resets, try again in 5s"),
			taxonomy.Class{WaitSource: taxonomy.WaitRetryAfter, Kind: taxonomy.Unknown, Rule: "no rule matched", RetryAfter: 5 * time.Second}},
		{"retry first, then the hint in a rate limit", errors.New("rate limited: retry the call, or try again in 5s"),
			taxonomy.Class{WaitSource: taxonomy.WaitRetryAfter, Kind: taxonomy.RateLimited, Rule: `marker "rate limit"`, RetryAfter: 5 * time.Second}},
		{"try again first, then retry after", errors.New("rate limited: try again soon; retry after 6 seconds"),
			taxonomy.Class{WaitSource: taxonomy.WaitRetryAfter, Kind: taxonomy.RateLimited, Rule: `marker "rate limit"`, RetryAfter: 6 * time.Second}},
		{"a hint at the very start of the text", errors.New("try again in 3s"),
			taxonomy.Class{WaitSource: taxonomy.WaitRetryAfter, Kind: taxonomy.Unknown, Rule: "no rule matched", RetryAfter: 3 * time.Second}},
		{"a retry hint right after the start", errors.New("a retry after 4s"),
			taxonomy.Class{WaitSource: taxonomy.WaitRetryAfter, Kind: taxonomy.Unknown, Rule: "no rule matched", RetryAfter: 4 * time.Second}},
		{"retryDelay in JSON details", errors.New(`rate limited: {"retryDelay": "12s"}`),
			taxonomy.Class{WaitSource: taxonomy.WaitRetryAfter, Kind: taxonomy.RateLimited, Rule: `marker "rate limit"`, RetryAfter: 12 * time.Second}},

		// Headers: Retry-After-Ms of 0 falls back to Retry-After.
		// As openai-go v3 reads it: a valid Retry-After-Ms wins, its 0 included.
		{"Retry-After-Ms 0 means now, over Retry-After", &fakeGoogleAPIError{Code: 429, Message: "x", Header: header("Retry-After-Ms", "0", "Retry-After", "3")},
			taxonomy.Class{WaitSource: taxonomy.WaitRetryAfter, Kind: taxonomy.RateLimited, Rule: "status 429", Status: 429}},
		{"an invalid Retry-After-Ms falls back to Retry-After", &fakeGoogleAPIError{Code: 429, Message: "x", Header: header("Retry-After-Ms", "soon", "Retry-After", "3")},
			taxonomy.Class{WaitSource: taxonomy.WaitRetryAfter, Kind: taxonomy.RateLimited, Rule: "status 429", Status: 429, RetryAfter: 3 * time.Second}},
		{"Retry-After-Ms wins when positive", &fakeGoogleAPIError{Code: 429, Message: "x", Header: header("Retry-After-Ms", "250", "Retry-After", "3")},
			taxonomy.Class{WaitSource: taxonomy.WaitRetryAfter, Kind: taxonomy.RateLimited, Rule: "status 429", Status: 429, RetryAfter: 250 * time.Millisecond}},

		// Rule names keep the provider's spelling of codes and types.
		{"code in the provider's spelling", taxonomy.WithEvidence(errors.New("x"), taxonomy.Evidence{ErrorCode: "Rate_Limit_Exceeded"}),
			taxonomy.Class{Kind: taxonomy.RateLimited, Rule: `code "Rate_Limit_Exceeded"`, Code: "Rate_Limit_Exceeded"}},
		{"code in lowercase", taxonomy.WithEvidence(errors.New("x"), taxonomy.Evidence{ErrorCode: "rate_limit_exceeded"}),
			taxonomy.Class{Kind: taxonomy.RateLimited, Rule: `code "rate_limit_exceeded"`, Code: "rate_limit_exceeded"}},
		{"type in the provider's spelling", taxonomy.WithEvidence(errors.New("x"), taxonomy.Evidence{ErrorType: "Overloaded_Error"}),
			taxonomy.Class{Kind: taxonomy.Overloaded, Rule: `type "Overloaded_Error"`, Code: "Overloaded_Error"}},
		{"type in lowercase", taxonomy.WithEvidence(errors.New("x"), taxonomy.Evidence{ErrorType: "overloaded_error"}),
			taxonomy.Class{Kind: taxonomy.Overloaded, Rule: `type "overloaded_error"`, Code: "overloaded_error"}},
		{"an unknown code is carried but decides nothing", taxonomy.WithEvidence(errors.New("x"), taxonomy.Evidence{ErrorCode: "weird_code"}),
			taxonomy.Class{Kind: taxonomy.Unknown, Rule: "no rule matched", Code: "weird_code"}},
		{"a missing model by code", taxonomy.WithEvidence(errors.New("x"), taxonomy.Evidence{ErrorCode: "model_not_found"}),
			taxonomy.Class{Kind: taxonomy.Permanent, Rule: `code "model_not_found"`, Code: "model_not_found", ModelMissing: true, AccountFailure: true}},
		{"a missing model by type", taxonomy.WithEvidence(errors.New("x"), taxonomy.Evidence{ErrorType: "not_found_error"}),
			taxonomy.Class{Kind: taxonomy.Permanent, Rule: `type "not_found_error"`, Code: "not_found_error", ModelMissing: true, AccountFailure: true}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := taxonomy.RulesOnly(tt.err); got != tt.want {
				t.Errorf("RulesOnly(%v)\ngot  %+v\nwant %+v", tt.err, fields(got), fields(tt.want))
			}
		})
	}
}
