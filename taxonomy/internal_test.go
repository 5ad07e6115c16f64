package taxonomy

import (
	"reflect"
	"slices"
	"strings"
	"testing"
)

// TestMustContainRejectsABadPrefilter checks the start-up check of every
// pattern rule: a prefilter that is empty or not spelled out by the
// expression is a badly written rule, and the package must not start with it.
func TestMustContainRejectsABadPrefilter(t *testing.T) {
	tests := []struct {
		name, need, expr string
		panics           bool
	}{
		{"literal of the expression", "busy", `\bserver (?:is )?busy\b`, false},
		{"literal at the start", "429", `429(?:$|\s)`, false},
		{"not in the expression", "overloaded", `\bserver busy\b`, true},
		{"empty", "", `\bserver busy\b`, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var recovered any
			func() {
				defer func() { recovered = recover() }()
				mustContain(tt.need, tt.expr)
			}()
			if got := recovered != nil; got != tt.panics {
				t.Fatalf("mustContain(%q, %q) panicked: got %v (%v), want %v", tt.need, tt.expr, got, recovered, tt.panics)
			}
			if tt.panics && !strings.HasPrefix(recovered.(string), "taxonomy: prefilter ") {
				t.Errorf("panic message %q, want the package prefix and the prefilter", recovered)
			}
		})
	}
}

// TestRulePrefilters checks every pattern rule's prefilter against the
// texts its expression matches in the table: a prefilter that is not a
// literal of every match would hide the rule.
func TestRulePrefilters(t *testing.T) {
	for _, rules := range [][]textRule{sizeLimitRules.rules, overflowRules.rules, unloadableRules.rules, billingRules.rules, textRules} {
		for _, r := range rules {
			if r.serverStatus {
				if r.need != "" || r.re != nil || r.lit != "" || r.test != nil {
					t.Errorf("rule %s: a test of the lowered text needs nothing else", r.name)
				}
				continue
			}
			if r.test != nil {
				if r.need == "" || r.re != nil || r.lit != "" {
					t.Errorf("rule %s: a test needs a prefilter and nothing else", r.name)
				}
				continue
			}
			if r.re == nil {
				if r.lit == "" || r.lit != strings.ToLower(r.lit) {
					t.Errorf("rule %s: literal %q must be lowercase and not empty", r.name, r.lit)
				}
				continue
			}
			if !strings.Contains(r.re.String(), r.need) {
				t.Errorf("rule %s: prefilter %q not in %s", r.name, r.need, r.re)
			}
		}
	}
}

// TestFieldCacheIsBounded fills the field cache past its bound with distinct
// types and checks that it stops growing and that a type looked up past the
// bound is still read right.
func TestFieldCacheIsBounded(t *testing.T) {
	type earlyError struct{ StatusCode int }
	if cachedTypes.Load() < maxCachedTypes {
		fieldsOf(reflect.TypeFor[earlyError]())
		if _, cached := fieldCache.Load(reflect.TypeFor[earlyError]()); !cached {
			t.Errorf("a type within the bound was not cached")
		}
	}
	for i := range maxCachedTypes + 10 {
		fieldsOf(reflect.ArrayOf(i, reflect.TypeFor[byte]()))
	}
	if got := cachedTypes.Load(); got > maxCachedTypes {
		t.Fatalf("cached types: got %d, want at most %d", got, maxCachedTypes)
	}
	type lateError struct{ StatusCode int }
	f := fieldsOf(reflect.TypeFor[lateError]())
	if f.status == nil {
		t.Fatalf("a type past the bound: StatusCode not found")
	}
	if _, cached := fieldCache.Load(reflect.TypeFor[lateError]()); cached {
		t.Errorf("a type past the bound was cached")
	}
}

// TestNewFamilyRejectsARuleWithoutItsWords checks the start-up check of a
// family: a rule that holds none of the family's words would be skipped for
// every text, so the package must not start with it.
func TestNewFamilyRejectsARuleWithoutItsWords(t *testing.T) {
	var recovered any
	func() {
		defer func() { recovered = recover() }()
		newFamily([]string{"quota"}, marker(Permanent, "insufficient_quota"), marker(Permanent, "credit balance is too low"))
	}()
	msg, _ := recovered.(string)
	if !strings.Contains(msg, `marker "credit balance is too low"`) {
		t.Fatalf("newFamily with a rule outside its words: got panic %v, want one naming the rule", recovered)
	}
	f := newFamily([]string{"quota", "credit"}, marker(Permanent, "insufficient_quota"), pattern(Permanent, "credits", "credit", `credits? used up`))
	for _, tt := range []struct {
		text string
		want bool
	}{{"insufficient_quota", true}, {"all credits used up", true}, {"credit", false}, {"nothing here", false}} {
		var text lowered
		text.set(tt.text)
		if _, got := f.first(&text); got != tt.want {
			t.Errorf("first(%q): got %v, want %v", tt.text, got, tt.want)
		}
	}
}

// TestGramsNeverHideALiteral checks the trigram prefilter against every
// rule, family word and literal a pattern requires: a text that holds the
// literal, anywhere, must hold its grams, or the rule would be passed over
// for a text it matches.
func TestGramsNeverHideALiteral(t *testing.T) {
	var literals []string
	add := func(r textRule) {
		literals = append(literals, r.lit+r.need)
		if r.re != nil {
			for _, all := range r.re.anyOf {
				literals = append(literals, all...)
			}
		}
	}
	for _, f := range []*family{&sizeLimitRules, &overflowRules, &unloadableRules, &billingRules, &missingModelRules, &accountRules, &contentRules} {
		literals = append(literals, f.words...)
		for _, r := range f.rules {
			add(r)
		}
	}
	for _, r := range textRules {
		add(r)
	}
	for _, lit := range literals {
		var text lowered
		text.set(strings.Repeat(" ", minGramLen) + lit + " after")
		if !text.hasGrams || !text.mayHold(gramsOf(lit)) {
			t.Errorf("a text holding %q does not hold its grams", lit)
		}
	}
}

// TestGramsOf checks which trigrams are kept of a literal: none of one
// shorter than three bytes, all of a short one, once each, and of a long
// one maxLiteralGrams spread from its first byte to its last.
func TestGramsOf(t *testing.T) {
	tests := []struct {
		lit  string
		want []uint16
	}{
		{"", nil},
		{"ab", nil},
		{"abc", []uint16{gramOf('a', 'b', 'c')}},
		{"abcabc", []uint16{gramOf('a', 'b', 'c'), gramOf('b', 'c', 'a'), gramOf('c', 'a', 'b')}}, // "abc" once
		{"abcdefgh", []uint16{gramOf('a', 'b', 'c'), gramOf('b', 'c', 'd'), gramOf('c', 'd', 'e'), gramOf('d', 'e', 'f'), gramOf('e', 'f', 'g'), gramOf('f', 'g', 'h')}},
		// 10 grams: those at 0, 1, 3, 5, 7 and 9 (k*9/5 for k = 0..5).
		{"abcdefghijkl", []uint16{gramOf('a', 'b', 'c'), gramOf('b', 'c', 'd'), gramOf('d', 'e', 'f'), gramOf('f', 'g', 'h'), gramOf('h', 'i', 'j'), gramOf('j', 'k', 'l')}},
	}
	for _, tt := range tests {
		if got := gramsOf(tt.lit); !slices.Equal(got, tt.want) {
			t.Errorf("gramsOf(%q): got %v, want %v", tt.lit, got, tt.want)
		}
	}
	var text lowered
	long := "xyz" + strings.Repeat(" ", minGramLen-3)
	text.set(long)
	if !text.hasGrams || !text.mayHold(gramsOf("xyz")) || text.mayHold(gramsOf("zyx")) || text.mayHold(gramsOf("xyzw")) {
		t.Errorf("the grams of a text of %d bytes: a gram it holds looks absent, or one it lacks present", len(long))
	}
	// A shorter text gets no set: every literal may be in it, and the grams
	// of the text before are gone.
	text.set(long[:minGramLen-1])
	if text.hasGrams || !text.mayHold(gramsOf("zyx")) {
		t.Errorf("a text of %d bytes: set built %v, or a literal is ruled out", minGramLen-1, text.hasGrams)
	}
	text.set("abc" + long)
	text.set("w" + long)
	if text.mayHold(gramsOf("abc")) || text.mayHold(gramsOf("xyzw")) || !text.mayHold(gramsOf("wxyz")) {
		t.Errorf("set kept the grams of the text before, or lost its own")
	}
}

// TestNumberAfter checks how the numbers of a rate-limit message are read.
func TestNumberAfter(t *testing.T) {
	tests := []struct {
		text, word string
		want       int64
		ok         bool
	}{
		{"limit 6000, used 5034", "limit", 6000, true},
		{"limit: 30,000, requested: 342,389", "requested", 342389, true},
		{"requested ~4251.", "requested", 4251, true},
		{"limit:6000", "limit", 6000, true},
		{"limit 9,999, used 9", "limit", 9999, true},
		{"rate limit reached ... limit 500", "limit", 500, true}, // the first "limit" has no number
		{"ratelimit 5", "limit", 0, false},                       // not a word of its own
		{"the_limit 5", "limit", 0, false},
		{"limit ,5", "limit", 0, false}, // a comma does not start a number
		{"limit", "limit", 0, false},
		{"no such word", "limit", 0, false},
		{"limit 1234567890123456789999", "limit", 123456789012345678, true}, // 18 digits at most
		{"limit 12a3", "limit", 12, true},
	}
	for _, tt := range tests {
		got, ok := numberAfter(tt.text, tt.word)
		if got != tt.want || ok != tt.ok {
			t.Errorf("numberAfter(%q, %q): got %d, %v, want %d, %v", tt.text, tt.word, got, ok, tt.want, tt.ok)
		}
	}
	for _, tt := range []struct {
		text string
		want bool
	}{
		{"limit 6000, requested 6294", true},
		{"limit 6000, requested 6000", false},
		{"limit 6000, used 5000, requested 1000", false},
		{"requested 6294", false},
		{"limit 0, requested 5", false},
		{"limit 10, requested none", false},
	} {
		if got := requestedOverLimit(tt.text); got != tt.want {
			t.Errorf("requestedOverLimit(%q): got %v, want %v", tt.text, got, tt.want)
		}
	}
}

// TestLeadingStatus checks the status read at the start of a text, where the
// TypeScript SDKs write it, and what keeps a number there from being one.
func TestLeadingStatus(t *testing.T) {
	tests := []struct {
		text string
		want int
	}{
		{"429 you exceeded your current quota", 429},
		{"error: 400 {\"type\":\"error\"}", 400},
		{"api error: 529 overloaded", 529},
		{"api error (503 upstream connect error", 503},
		{"error: [500 internal server error] an internal error", 500},
		{"openai api 402: {\"error\":{}}", 402},
		{"openai api streaming error: 402 this request", 402},
		{"[500 internal]", 500},
		{"503", 503},
		{"413\ttoo large", 413},
		{"404-not found", 404},
		{"error:503 unavailable", 503},
		{"my api 503 busy", 503},
		{"my_api 503 busy", 0},                          // "api" not a word of its own
		{"500 tokens were dropped", 0},                  // a count
		{"error: 429 requests queued", 0},               // a count after a name
		{"4290 is above the maximum", 0},                // a longer number
		{"500ms later it failed", 0},                    // a duration
		{"503.5 seconds", 0},                            // a decimal
		{"399 is not a failure", 0},                     // not 4xx or 5xx
		{"600 is not a status", 0},                      // idem
		{"apierror 429", 429},                           // an exception's name: APIError
		{"httperror: 400 client error", 400},            // Python requests' HTTPError
		{"valueerror: error 422: {", 422},               // an exception's name, then "Error"
		{"okapi 503 herd", 0},                           // "api" not a word of its own
		{"fizz error 503 busy", 503},                    // a name with the last letter
		{"api error", 0},                                // no digit at all
		{"error: 500 characters dropped", 0},            // a unit with an "a" in it
		{"error: 503 tokensz", 503},                     // a word longer than a unit
		{strings.Repeat("a", 42) + " error 503 x", 503}, // the longest name before a status
		{"done. 503 herd", 0},                           // a name that ends in neither
		{"server said 429", 0},                          // a name that does not end in error or api
		{"gemini error in batch 1: 500", 0},             // a digit in the name
		{"error, 503", 0},                               // a comma in the name
		{"rate-limit error 429", 0},                     // a dash in the name
		{"42", 0},                                       // too short
		{strings.Repeat("a", 50) + " error 503", 0},     // a name too long
		{"error: " + "4x9", 0},                          // not a number
	}
	for _, tt := range tests {
		if got := leadingStatus(tt.text); got != tt.want {
			t.Errorf("leadingStatus(%q): got %d, want %d", tt.text, got, tt.want)
		}
	}
}

// TestReasonStatus checks the status read before a reason phrase anywhere
// in the text.
func TestReasonStatus(t *testing.T) {
	tests := []struct {
		text string
		want int
	}{
		{"error with client #1: 503 unavailable. {}", 503},
		{"clienterror: 400 invalid_argument.", 400},
		{"upstream replied 502 bad gateway", 502},
		{"429 too many requests", 429},
		{"v2503 unavailable", 0},      // glued to a word
		{"a503 unavailable", 0},       // glued to the first letter
		{"z503 unavailable", 0},       // glued to the last letter
		{"port 4040 not found", 0},    // a longer number
		{"x1503 unavailable", 0},      // glued to a number
		{"503 tokens unavailable", 0}, // no reason phrase after it
		{"503unavailable", 0},         // no space
		{"303 not found", 0},          // not 4xx or 5xx
		{"650 unavailable", 0},        // idem
		{"ab 5x3 unavailable", 0},     // not digits
		{"45", 0},
		{"", 0},
		{"500 internal server error", 500},
	}
	for _, tt := range tests {
		if got := reasonStatus(tt.text); got != tt.want {
			t.Errorf("reasonStatus(%q): got %d, want %d", tt.text, got, tt.want)
		}
	}
}

// TestHasFailureNumber checks the scan that spares the status forms a text
// without a number that could be a status.
func TestHasFailureNumber(t *testing.T) {
	for _, tt := range []struct {
		text string
		want bool
	}{
		{"429", true}, {"x599", true}, {"400x", true}, {"a 5x9 4-0", false},
		{"399 600 42", false}, {"", false}, {"45", false}, {"3999", false}, {"3499", true},
	} {
		if got := hasFailureNumber(tt.text); got != tt.want {
			t.Errorf("hasFailureNumber(%q): got %v, want %v", tt.text, got, tt.want)
		}
	}
}
