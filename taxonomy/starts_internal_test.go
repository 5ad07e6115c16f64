package taxonomy

import (
	"regexp/syntax"
	"slices"
	"strings"
	"testing"
)

// startsFor reads the places of expr as guard does.
func startsFor(t *testing.T, expr string) *starts {
	t.Helper()
	tree, err := syntax.Parse(expr, syntax.Perl)
	if err != nil {
		t.Fatal(err)
	}
	return startsOf(expr, tree)
}

// TestStartsOf checks where the syntax tree says matches start: the
// leading literals (short ones extended by what follows, skippable items
// read both ways), one character before them, a number of three digits,
// and no places where an alternative starts otherwise.
func TestStartsOf(t *testing.T) {
	for _, tt := range []struct {
		expr string
		want []startAlt // nil: no places
	}{
		{`\bstatus(?:[ _]code)? (\d{3})`, []startAlt{{lits: []string{"status"}}}},
		{`["']code["']\s*:`, []startAlt{{lits: []string{"code"}, back: true}}},
		{`(?:^|[^\w.:/-])(\d{3}) error\b|\berror (\d{3})`, []startAlt{{back: true, here: true}, {lits: []string{"error "}}}},
		{`\b(\d{3}), message=`, []startAlt{{}}},
		{`\b(?:server|service|system)s? busy`, []startAlt{{lits: []string{"serv", "system"}}}}, // "serv(?:er|ice)|system" as the parser factors it
		{`ab`, []startAlt{{lits: []string{"ab"}}}},
		{`a(?:bc|d)`, []startAlt{{lits: []string{"abc", "ad"}}}},
		{`(?:foo)?bar`, []startAlt{{lits: []string{"foo", "bar"}}}},
		{`(?:foo){0,2}bar`, []startAlt{{lits: []string{"foo", "bar"}}}},
		{`(?:foo){1,2}bar`, []startAlt{{lits: []string{"foo"}}}},
		{`(?:foo|bar)x`, []startAlt{{lits: []string{"foo", "bar"}}}},
		{`s(?:erver|ystem)`, []startAlt{{lits: []string{"server", "system"}}}},
		{`abc(?:d|e)`, []startAlt{{lits: []string{"abc"}}}}, // three bytes are enough
		{`ab(?:dd|ee)`, []startAlt{{lits: []string{"abdd", "abee"}}}},
		{`ab[de]`, []startAlt{{lits: []string{"ab"}}}}, // no literal to extend it with
		{`[ab]`, nil},         // one character and nothing after it
		{`\b`, nil},           // no character at all
		{`x`, nil},            // one byte: a place in every other word
		{`(?:ab)?`, nil},      // a match may be empty
		{`\d+ tokens`, nil},   // a number of any length
		{`(?i)status`, nil},   // any case
		{`^retry`, nil},       // anchored already
		{`(?:^)x yz`, nil},    // the start of the text, and no character
		{`(?:a|\d+)bc`, nil},  // an alternative that starts otherwise
		{`(?:abc)*`, nil},     // nothing after the skippable item
		{`\b(?:abc|\w)`, nil}, // a branch that starts with a class
	} {
		st := startsFor(t, tt.expr)
		var got []startAlt
		if st != nil {
			got = st.alts
		}
		if !slices.EqualFunc(got, tt.want, func(a, b startAlt) bool {
			return slices.Equal(a.lits, b.lits) && a.back == b.back && a.here == b.here
		}) {
			t.Errorf("%s: got %+v, want %+v", tt.expr, got, tt.want)
		}
	}
}

// TestStartsLeadsAreBounded checks that an expression with more leading
// literals than maxLeads gets no places: each is one scan of the text.
func TestStartsLeadsAreBounded(t *testing.T) {
	// Words with no common prefix, which the parser would factor out.
	words := func(from, n int) string {
		var ws []string
		for i := range n {
			ws = append(ws, string(rune('a'+from+i))+"zz")
		}
		return `(?:` + strings.Join(ws, "|") + `)`
	}
	if startsFor(t, `\b`+words(0, maxLeads)) == nil {
		t.Errorf("%d leading literals: no places", maxLeads)
	}
	if startsFor(t, `\b`+words(0, maxLeads+1)) != nil {
		t.Errorf("%d leading literals: places", maxLeads+1)
	}
	// The same bound over the alternatives of the expression.
	if startsFor(t, words(0, maxLeads/2)+`|`+words(maxLeads/2, maxLeads/2)) == nil {
		t.Errorf("%d leading literals in two alternatives: no places", maxLeads)
	}
	if startsFor(t, words(0, maxLeads/2)+`|`+words(maxLeads/2, maxLeads/2+1)) != nil {
		t.Errorf("%d leading literals in two alternatives: places", maxLeads+1)
	}
}

// TestStartsPlaces checks the places found in a text: in order, once
// each, one character before the literal where a class comes first (a
// character of several bytes included), and none past maxStarts.
func TestStartsPlaces(t *testing.T) {
	places := func(expr, s string) ([]int, bool) {
		var buf [maxStarts]int
		return startsFor(t, expr).places(s, buf[:0])
	}
	for _, tt := range []struct {
		expr, text string
		want       []int
	}{
		{`\bcode: (\d{3})`, "x code: 429, code: 503", []int{2, 13}},
		{`foo\b|foobar`, "a foobar", []int{2}},
		{`bar|foo`, "foo bar", []int{0, 4}},
		{`["']code["']`, `{"code":429}`, []int{1}},
		{`[^a]code`, "码code", []int{0}},
		{`[^a]code`, "code", nil},
		{`(?:^|[^\w])(\d{3}) error`, "503 error", []int{0}},
		{`(?:^|[^\w])(\d{3}) error`, "x 503 error", []int{1, 2}},
		{`[^\w](\d{3})`, "4295", []int{0}},
	} {
		got, ok := places(tt.expr, tt.text)
		if !ok || !slices.Equal(got, tt.want) {
			t.Errorf("%s in %q: got %v %v, want %v", tt.expr, tt.text, got, ok, tt.want)
		}
	}
	full := strings.Repeat("ab ", maxStarts)
	if got, ok := places(`ab`, full); !ok || len(got) != maxStarts {
		t.Errorf("%d places: got %d, %v", maxStarts, len(got), ok)
	}
	if _, ok := places(`ab`, full+"ab"); ok {
		t.Errorf("%d places: not refused", maxStarts+1)
	}
	if _, ok := places(`(\d{3})x`, strings.Repeat("1", maxStarts+3)); ok {
		t.Errorf("%d numbers: not refused", maxStarts+1)
	}
	// Past the bound the unanchored matcher decides, with the same answer.
	g := guard(`\bab\b`)
	if !g.match(full+"ab") || g.find(full+"ab") == nil {
		t.Errorf("past the bound: no match")
	}
	if _, ok := g.starts.find(full + "ab"); ok {
		t.Errorf("past the bound: find not refused")
	}
	if _, ok := g.starts.match(full + "ab"); ok {
		t.Errorf("past the bound: match not refused")
	}
}

// TestStartsFind checks the match found at the places: the groups of the
// unanchored matcher, shifted to the text; \b and ^ read with the character
// before the place.
func TestStartsFind(t *testing.T) {
	for _, tt := range []struct {
		expr, text string
		want       []int
	}{
		{`\bstatus (\d{3})`, "xstatus 404, status 503", []int{13, 23, 20, 23}},
		{`(?:^|[^\w])(\d{3}) error`, "503 error", []int{0, 9, 0, 3}},
		{`(?:^|[^\w])(\d{3}) error`, "a 503 error", []int{1, 11, 2, 5}},
		{`(?:^|[^\w])(\d{3}) error`, "a5503 error", nil},
		{`["'](?:http_)?status["']: (\d{3})`, `{"http_status": 502}`, []int{1, 19, 16, 19}},
		{`[^a]code (\d{3})`, "码code 429", []int{0, 11, 8, 11}},
	} {
		st := startsFor(t, tt.expr)
		got, ok := st.find(tt.text)
		if !ok || !slices.Equal(got, tt.want) {
			t.Errorf("%s in %q: got %v %v, want %v", tt.expr, tt.text, got, ok, tt.want)
		}
		if matched, ok := st.match(tt.text); !ok || matched != (tt.want != nil) {
			t.Errorf("%s in %q: match %v %v", tt.expr, tt.text, matched, ok)
		}
	}
}

// TestOccurrences checks that every place of a literal is found,
// overlapping ones included, and that stopping early stops.
func TestOccurrences(t *testing.T) {
	got := slices.Collect(occurrences("aaaa", "aa"))
	if !slices.Equal(got, []int{0, 1, 2}) {
		t.Errorf("got %v", got)
	}
	for p := range occurrences("ab ab ab", "ab") {
		if p != 0 {
			t.Errorf("went on to %d after the first", p)
		}
		break
	}
}
