package taxonomy

import (
	"slices"
	"strings"
	"testing"
	"time"
)

// TestVocabularyCitesItsSources checks that every entry of the vocabulary
// cites at least two sources beside it: a term, a word's sense, a Chinese
// clue. An entry fitted to one message is what the vocabulary exists to
// avoid (issue 24).
func TestVocabularyCitesItsSources(t *testing.T) {
	check := func(what, sources string) {
		t.Helper()
		cited := 0
		for s := range strings.SplitSeq(sources, "; ") {
			if strings.TrimSpace(s) != "" {
				cited++
			}
		}
		if cited < 2 {
			t.Errorf("%s cites %d source(s), want at least 2: %q", what, cited, sources)
		}
	}
	for _, tm := range terms {
		check("term "+tm.name, tm.sources)
	}
	for _, s := range senses {
		check("word "+s.word, s.sources)
	}
	for _, c := range cjkClues {
		check("clue "+c.phrase, c.sources)
	}
}

// TestVocabularyHasNoDuplicates checks that each term and each word is
// defined once, so that the table says what it means in one place.
func TestVocabularyHasNoDuplicates(t *testing.T) {
	seen := map[string]bool{}
	for _, tm := range terms {
		if seen[tm.name] {
			t.Errorf("term %q defined twice", tm.name)
		}
		seen[tm.name] = true
		if tm.name != strings.ToLower(tm.name) || strings.ContainsAny(tm.name, " -.") {
			t.Errorf("term %q is not in normal form (lowercase words joined by _)", tm.name)
		}
	}
	clear(seen)
	for _, s := range senses {
		if seen[s.word] {
			t.Errorf("word %q defined twice", s.word)
		}
		seen[s.word] = true
	}
}

func TestNameWords(t *testing.T) {
	tests := []struct {
		name string
		want []string
	}{
		{"InvalidRequestException", []string{"invalid", "request", "exception"}},
		{"APIConnectionError", []string{"api", "connection", "error"}},
		{"SSLEOFError", []string{"ssleof", "error"}},
		{"RESOURCE_EXHAUSTED", []string{"resource", "exhausted"}},
		{"invalid_request_error", []string{"invalid", "request", "error"}},
		{"Bad Request", []string{"bad", "request"}},
		{"HTTP2Error", []string{"http2", "error"}},
		{"ResourceNotFoundException", []string{"resource", "not", "found", "exception"}},
		{"InvalidProviderAPIKey", []string{"invalid", "provider", "api", "key"}},
		{"rxjava2", []string{"rxjava2"}},
		{"", nil},
	}
	for _, tt := range tests {
		if got := nameWords(tt.name, nil); !slices.Equal(got, tt.want) {
			t.Errorf("nameWords(%q) = %q, want %q", tt.name, got, tt.want)
		}
	}
}

// TestNameMeaning checks the lookup of names: by the longest suffix that
// is a term, so that a provider's prefix does not hide it, generic words
// aside; else by the concepts of its words.
func TestNameMeaning(t *testing.T) {
	tests := []struct {
		name    string
		kind    Kind
		decided string
	}{
		{"ArkBadRequestError", Permanent, "bad_request"},
		{"ResourceNotFoundException", Permanent, "not_found"},
		{"INVALID_ARGUMENT", Permanent, "invalid_argument"},
		{"RateLimitError", RateLimited, "rate_limit"},
		{"ContextWindowExceededError", ContextOverflow, "context_window_exceeded"},
		{"UnknownServerError", Transient, "server"},
		{"InvalidProviderAPIKey", Permanent, "credential refused"},
		{"UNEXPECTED_EOF_WHILE_READING", Transient, "connection broken"},
		{"APIError", Unknown, ""},
		{"HttpException", Unknown, ""},
		{"OllamaBaseException", Unknown, ""},
		{"max_tokens", Unknown, ""},
	}
	for _, tt := range tests {
		m, decided, ok := nameMeaning(tt.name, strings.ToLower(tt.name), nil)
		if !ok {
			m.kind = Unknown
		}
		if m.kind != tt.kind || decided != tt.decided {
			t.Errorf("nameMeaning(%q) = %v, %q; want %v, %q", tt.name, m.kind, decided, tt.kind, tt.decided)
		}
	}
}

func TestErrnoAfter(t *testing.T) {
	tests := []struct {
		after string
		rule  string
	}{
		{" = 104), address", "errno 104 (ECONNRESET)"},
		{" 10054] An existing", "errno 10054 (WSAECONNRESET)"},
		{": 111", "errno 111 (ECONNREFUSED)"},
		{" 2] No such file", ""}, // ENOENT: no network failure
		{" = x", ""},
		{"", ""},
	}
	for _, tt := range tests {
		f, ok := errnoAfter(tt.after)
		if got := map[bool]string{true: f.rule}[ok]; got != tt.rule {
			t.Errorf("errnoAfter(%q) = %q, want %q", tt.after, got, tt.rule)
		}
	}
}

func TestDurationInWords(t *testing.T) {
	tests := []struct {
		s    string
		want time.Duration
		ok   bool
	}{
		{" in 2 hours 5 minutes", 2*time.Hour + 5*time.Minute, true},
		{" after one minute.", time.Minute, true},
		{" in ~5s", 5 * time.Second, true},
		{" in about 30 seconds", 30 * time.Second, true},
		{" 1 hour and 30 minutes", 90 * time.Minute, true},
		{" in an hour", time.Hour, true},
		{" in 1.5 min", 90 * time.Second, true},
		{" for 2 days", MaxWaitHint, true}, // clamped
		{" in 5 sections", 0, false},
		{" 3 more turns", 0, false},
		{" later", 0, false},
		{" a while", 0, false},
	}
	for _, tt := range tests {
		got, ok := durationInWords(tt.s)
		if got != tt.want || ok != tt.ok {
			t.Errorf("durationInWords(%q) = %v, %v; want %v, %v", tt.s, got, ok, tt.want, tt.ok)
		}
	}
}

// TestConceptsOverflow pins the clause reading of an overflow: a size of
// the request, then a ceiling with a number or a comparison, and none of
// the words that make it something else.
func TestConceptsOverflow(t *testing.T) {
	tests := []struct {
		clause string
		want   bool
	}{
		{"input batch size 473 > maximum allowed batch size 64", true},
		{"Range of input length should be [1, 30000]", true},
		{"Input contains more tokens than configured batch size", true},
		{"input prompt is too big compared to KV size", true},
		{"it should not be larger than 10 inputs", false}, // the size after the comparison
		{"batch size is invalid, it should not be larger than 10", true},
		{"Content length must be greater than 0", false},          // no size of the request, and a lower bound
		{"the input must be greater than 0 tokens", false},        // a lower bound
		{"Need more tokens", false},                               // no "than"
		{"The maximum tokens you requested exceeds 32768", false}, // the output's limit
		{"tokens per minute exceeded 30000", false},               // a rate
		{"Too many tokens per day, max 4", false},                 // a daily quota
		{"reached max retries: 4 with 1200 tokens", false},        // attempts
		{"context deadline exceeded after 30 s", false},           // a deadline
		{"the tool name input exceeds the maximum of 64", false},  // a field of its own
		{"the input exceeds the maximum", false},                  // a ceiling without a number
	}
	for _, tt := range tests {
		var cs concepts
		var low [32]byte
		for w := range strings.FieldsFuncSeq(tt.clause, func(r rune) bool { return !(r < 128 && isNameByte(byte(r))) }) {
			if isDigit(w[0]) {
				cs.digits = true
				continue
			}
			lw := string(lowerInto(low[:0], w))
			cs.add(lw, words[lw])
		}
		if got := cs.overflow(); got != tt.want {
			t.Errorf("overflow of %q = %v, want %v", tt.clause, got, tt.want)
		}
	}
}

// TestStemsCoverTheirSenses checks that every word of a size or of a
// parameter holds one of the stems that let the reader run early
// (sizeWords, paramWords): a sense the stems miss would never be read
// there.
func TestStemsCoverTheirSenses(t *testing.T) {
	for _, s := range senses {
		for _, c := range []struct {
			concept concept
			stems   []literal
		}{{cSize, sizeWords}, {cParam, paramWords}} {
			if s.concepts&c.concept == 0 {
				continue
			}
			if !slices.ContainsFunc(c.stems, func(l literal) bool { return strings.Contains(s.word, l.s) }) {
				t.Errorf("sense %q holds none of its stems", s.word)
			}
		}
	}
}
