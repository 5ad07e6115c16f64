package taxonomy_test

import (
	"errors"
	"fmt"
	"regexp"
	"time"

	"github.com/resilientgo/resilient/taxonomy"
)

// langchaingo's openai client returns a 429 as a plain string and drops the
// Retry-After header; the status and the wait are recovered from the text.
func ExampleClassify() {
	err := errors.New("API returned unexpected status code: 429: Rate limit reached for gpt-4o " +
		"in organization org-abc123 on tokens per min (TPM): Limit 30000, Used 28502, Requested 3012. " +
		"Please try again in 1.8s. Visit https://platform.openai.com/account/rate-limits to learn more.")

	c := taxonomy.Classify(err)
	fmt.Println(c.Kind, c.Status, c.RetryAfter, c.Kind.Retryable())
	fmt.Println(c)
	// Output:
	// rate_limited 429 1.8s true
	// rate_limited (status 429, retry after 1.8s)
}

// Evidence recorded by the HTTP transport outranks the text: here the
// provider's code says the quota is gone, so waiting will not help.
func ExampleWithEvidence() {
	err := taxonomy.WithEvidence(
		errors.New("API returned unexpected status code: 429: You exceeded your current quota, please check your plan and billing details."),
		taxonomy.Evidence{Status: 429, RetryAfter: 20 * time.Second, ErrorCode: "insufficient_quota"},
	)
	c := taxonomy.Classify(err)
	fmt.Println(c.Kind, c.Kind.Retryable())
	fmt.Println(c)
	// Output:
	// permanent false
	// permanent (code "insufficient_quota", retry after 20s)
}

// Rules of your own go ahead of Default; Default decides the rest.
func ExampleChain() {
	classifier := taxonomy.Chain(
		taxonomy.Match(taxonomy.Overloaded, regexp.MustCompile(`(?i)gateway is busy`)),
		taxonomy.Default,
	)
	for _, err := range []error{
		errors.New("proxy: Gateway is busy, come back later"),
		errors.New("API returned unexpected status code: 401: Incorrect API key provided: sk-test."),
		errors.New("request cancelled"),
	} {
		fmt.Println(classifier.Classify(err))
	}
	// Output:
	// overloaded (pattern "(?i)gateway is busy")
	// permanent (status 401)
	// canceled (marker "request cancelled")
}

// A tool reports a mistake the model can fix with a ToolError, and a reason
// to stop the run with a FatalToolError; errors.As finds both through
// wrapping.
func ExampleToolError() {
	errs := []error{
		fmt.Errorf("lookup_order: %w", taxonomy.NewToolError("no order '9999'; order ids look like 'A-1234'")),
		fmt.Errorf("charge_card: %w", taxonomy.NewFatalToolError(errors.New("payment authorization revoked"))),
		errors.New("dial tcp 10.0.0.9:5432: connect: connection refused"),
	}
	for _, err := range errs {
		var toolErr *taxonomy.ToolError
		var fatal *taxonomy.FatalToolError
		switch {
		case errors.As(err, &toolErr):
			fmt.Println("the model reads:", toolErr.Message)
		case errors.As(err, &fatal):
			fmt.Println("the run ends:", fatal.Cause)
		default:
			fmt.Println("internal failure, kind", taxonomy.Classify(err).Kind)
		}
	}
	// Output:
	// the model reads: no order '9999'; order ids look like 'A-1234'
	// the run ends: payment authorization revoked
	// internal failure, kind transient
}
