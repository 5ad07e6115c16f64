package taxonomy_test

import (
	"errors"
	"fmt"
	"regexp"
	"sync/atomic"
	"testing"
	"time"

	"github.com/resilientgo/resilient/taxonomy"
)

func TestClassString(t *testing.T) {
	tests := []struct {
		class taxonomy.Class
		want  string
	}{
		{taxonomy.Class{}, "unknown"},
		{taxonomy.Class{Kind: taxonomy.Transient, Rule: "EOF"}, "transient (EOF)"},
		{taxonomy.Class{WaitSource: taxonomy.WaitRetryAfter, Kind: taxonomy.RateLimited, Rule: "status 429", Status: 429, RetryAfter: 7 * time.Second},
			"rate_limited (status 429, retry after 7s)"},
		{taxonomy.Class{WaitSource: taxonomy.WaitRetryAfter, Kind: taxonomy.RateLimited, RetryAfter: 1800 * time.Millisecond}, "rate_limited (retry after 1.8s)"},
		{taxonomy.Class{Kind: taxonomy.Permanent, Rule: `code "insufficient_quota"`, Status: 429, Code: "insufficient_quota"},
			`permanent (code "insufficient_quota")`},
	}
	for _, tt := range tests {
		if got := tt.class.String(); got != tt.want {
			t.Errorf("String() = %q, want %q", got, tt.want)
		}
	}
}

// fixed answers the same class for every error and counts its calls.
type fixed struct {
	class taxonomy.Class
	calls *atomic.Int32
}

func (f fixed) Classify(error) taxonomy.Class {
	f.calls.Add(1)
	return f.class
}

func TestChain(t *testing.T) {
	var a, b, c atomic.Int32
	unknownA := fixed{taxonomy.Class{Rule: "a"}, &a}
	unknownB := fixed{taxonomy.Class{Rule: "b"}, &b}
	overloaded := fixed{taxonomy.Class{Kind: taxonomy.Overloaded, Rule: "c"}, &c}
	rateLimited := fixed{taxonomy.Class{Kind: taxonomy.RateLimited, Rule: "d"}, &c}

	tests := []struct {
		name  string
		chain taxonomy.Classifier
		want  taxonomy.Class
	}{
		{"first non-unknown wins", taxonomy.Chain(unknownA, overloaded, rateLimited), taxonomy.Class{Kind: taxonomy.Overloaded, Rule: "c"}},
		{"all unknown: the last answer", taxonomy.Chain(unknownA, unknownB), taxonomy.Class{Rule: "b"}},
		{"nil classifiers skipped", taxonomy.Chain(nil, unknownA, nil, rateLimited, nil), taxonomy.Class{Kind: taxonomy.RateLimited, Rule: "d"}},
		{"nil last: the last real answer", taxonomy.Chain(unknownB, nil), taxonomy.Class{Rule: "b"}},
		{"empty chain", taxonomy.Chain(), taxonomy.Class{}},
		{"only nils", taxonomy.Chain(nil, nil), taxonomy.Class{}},
		{"nested chain", taxonomy.Chain(taxonomy.Chain(unknownA), taxonomy.Chain(overloaded)), taxonomy.Class{Kind: taxonomy.Overloaded, Rule: "c"}},
	}
	for _, tt := range tests {
		if got := tt.chain.Classify(errors.New("boom")); got != tt.want {
			t.Errorf("%s: got %v, want %v", tt.name, got, tt.want)
		}
	}
}

func TestChainStopsAtFirstAnswer(t *testing.T) {
	var first, second, third atomic.Int32
	chain := taxonomy.Chain(
		fixed{taxonomy.Class{}, &first},
		fixed{taxonomy.Class{Kind: taxonomy.Permanent}, &second},
		fixed{taxonomy.Class{Kind: taxonomy.Transient}, &third},
	)
	chain.Classify(errors.New("boom"))
	got := [3]int32{first.Load(), second.Load(), third.Load()}
	if want := [3]int32{1, 1, 0}; got != want {
		t.Errorf("calls = %v, want %v", got, want)
	}
}

func TestChainWithDefaultLast(t *testing.T) {
	chain := taxonomy.Chain(
		taxonomy.Match(taxonomy.Overloaded, regexp.MustCompile(`(?i)gateway is busy`)),
		taxonomy.Default,
	)
	tests := []struct {
		name string
		err  error
		want taxonomy.Class
	}{
		{"own rule first", errors.New("502: Gateway is busy, come back later"),
			taxonomy.Class{Kind: taxonomy.Overloaded, Rule: `pattern "(?i)gateway is busy"`}},
		{"Default decides the rest", openai(429, "Rate limit reached"),
			taxonomy.Class{Kind: taxonomy.RateLimited, Rule: "status 429", Status: 429}},
		{"Default's unknown answer survives", errors.New("caller abort sentinel"),
			taxonomy.Class{Kind: taxonomy.Unknown, Rule: "no rule matched"}},
		{"nil", nil,
			taxonomy.Class{Kind: taxonomy.Unknown, Rule: "nil error"}},
	}
	for _, tt := range tests {
		if got := chain.Classify(tt.err); got != tt.want {
			t.Errorf("%s: got %+v, want %+v", tt.name, fields(got), fields(tt.want))
		}
	}
}

func TestMatch(t *testing.T) {
	m := taxonomy.Match(taxonomy.Overloaded, regexp.MustCompile(`(?i)gateway is busy`))
	rule := `pattern "(?i)gateway is busy"`
	tests := []struct {
		name string
		err  error
		want taxonomy.Class
	}{
		{"matches", errors.New("Gateway is busy"), taxonomy.Class{Kind: taxonomy.Overloaded, Rule: rule}},
		{"matches through wrapping", fmt.Errorf("call: %w", errors.New("the gateway is busy")), taxonomy.Class{Kind: taxonomy.Overloaded, Rule: rule}},
		{"no match", errors.New("bad gateway"), taxonomy.Class{Rule: rule}},
		{"nil", nil, taxonomy.Class{Rule: rule}},
	}
	for _, tt := range tests {
		if got := m.Classify(tt.err); got != tt.want {
			t.Errorf("%s: got %v, want %v", tt.name, got, tt.want)
		}
	}
}

func TestClassifierFunc(t *testing.T) {
	f := taxonomy.ClassifierFunc(func(error) taxonomy.Class { return taxonomy.Class{Kind: taxonomy.Canceled, Rule: "mine"} })
	if got, want := f.Classify(nil), (taxonomy.Class{Kind: taxonomy.Canceled, Rule: "mine"}); got != want {
		t.Errorf("got %v, want %v", got, want)
	}
}

func TestWithClass(t *testing.T) {
	inner := openai(429, "Rate limit reached")
	class := taxonomy.Class{Kind: taxonomy.Permanent, Rule: "retries exhausted", Status: 429}
	err := taxonomy.WithClass(inner, class)

	var classified taxonomy.Classified
	tests := []struct {
		name      string
		got, want any
	}{
		{"nil error stays nil", taxonomy.WithClass(nil, class) == nil, true},
		{"text unchanged", err.Error(), inner.Error()},
		{"unwraps to the original", errors.Is(err, inner), true},
		{"found as Classified", errors.As(fmt.Errorf("x: %w", err), &classified), true},
		{"reports its class", classified.Class(), class},
	}
	for _, tt := range tests {
		if tt.got != tt.want {
			t.Errorf("%s: got %v, want %v", tt.name, tt.got, tt.want)
		}
	}
}

func TestClassifyIsDeterministic(t *testing.T) {
	for _, tt := range classifyCases() {
		first, second := taxonomy.Classify(tt.err), taxonomy.Classify(tt.err)
		if first != second {
			t.Errorf("%s: second call got %v, first %v", tt.name, second, first)
		}
	}
}

func TestClassifyConcurrently(t *testing.T) {
	cases := classifyCases()
	done := make(chan struct{})
	for range 8 {
		go func() {
			defer func() { done <- struct{}{} }()
			for _, tt := range cases {
				if got := taxonomy.Classify(tt.err); got != tt.want {
					t.Errorf("%s: got %v, want %v", tt.name, got, tt.want)
				}
			}
		}()
	}
	for range 8 {
		<-done
	}
}

func TestModelMissing(t *testing.T) {
	tests := []struct {
		msg  string
		want bool
	}{
		{"API returned unexpected status code: 404: The model `gpt-9` does not exist or you do not have access to it.", true}, // openai
		{`model "llama3" not found, try pulling it first`, true},                                                              // ollama
		{"anthropic: failed to create message: API returned unexpected status code: 401: invalid x-api-key", false},
		{"API returned unexpected status code: 400: This model's maximum context length is 128000 tokens.", false},
	}
	for _, tt := range tests {
		if got := taxonomy.Classify(errors.New(tt.msg)).ModelMissing; got != tt.want {
			t.Errorf("ModelMissing(%q): got %v, want %v", tt.msg, got, tt.want)
		}
	}
	wire := &taxonomy.WireError{Evidence: taxonomy.Evidence{Status: 404, ErrorType: "not_found_error"}, Err: errors.New("x")}
	if !taxonomy.Classify(wire).ModelMissing {
		t.Errorf("a 404 not_found_error is not a missing model")
	}
}
