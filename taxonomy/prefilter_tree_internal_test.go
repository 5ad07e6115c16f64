package taxonomy

import (
	"fmt"
	"reflect"
	"regexp/syntax"
	"strings"
	"testing"
)

func simplified(t *testing.T, expr string) *syntax.Regexp {
	t.Helper()
	tree, err := syntax.Parse(expr, syntax.Perl)
	if err != nil {
		t.Fatal(err)
	}
	return tree.Simplify()
}

// TestLiteralsOf checks what every match of an expression is known to
// hold: literals joined along a concatenation, one alternative per branch,
// nothing under a case fold or an optional part, and, past
// maxAlternatives, the largest branches reduced first (the first of equal
// ones) to what all of their alternatives hold.
func TestLiteralsOf(t *testing.T) {
	var nine, sixteen, seventeen []string
	for i := range 9 {
		nine = append(nine, fmt.Sprintf("(?:fo%d|ba%d)zz%d", i, i, i))
	}
	for i := range 17 {
		seventeen = append(seventeen, fmt.Sprintf("%c%d", 'a'+i, i+1))
	}
	sixteen = seventeen[:16]
	var nineWant [][]string
	nineWant = append(nineWant, []string{"zz0"}, []string{"zz1"})
	for i := 2; i < 9; i++ {
		nineWant = append(nineWant, []string{fmt.Sprintf("fo%d", i), fmt.Sprintf("zz%d", i)}, []string{fmt.Sprintf("ba%d", i), fmt.Sprintf("zz%d", i)})
	}
	var sixteenWant [][]string
	for _, l := range sixteen {
		sixteenWant = append(sixteenWant, []string{l})
	}
	none := [][]string{{}}
	tests := []struct {
		expr string
		want [][]string
	}{
		{`abc`, [][]string{{"abc"}}},
		{`(?i)abc`, none},
		{`a(?:bc|de)f`, [][]string{{"a", "bc", "f"}, {"a", "de", "f"}}},
		{`x?`, none},
		{`(?:ab){2}`, [][]string{{"abab"}}},
		{`(?:ab){0,2}`, none},
		{`ab|c`, [][]string{{"ab"}, {"c"}}},
		{`(?:ab|)cd`, [][]string{{"cd"}}},
		{`a(?i:bc)`, [][]string{{"a"}}},
		{`ab(?:cd)+ef`, [][]string{{"ab", "cd", "ef"}}},
		{`(?:foo|bar)(?:baz|qux)`, [][]string{{"foo", "baz"}, {"foo", "qux"}, {"bar", "baz"}, {"bar", "qux"}}},
		{`(?:ab|cd|ef|gh)(?:ij|kl|mn|op)`, [][]string{
			{"ab", "ij"}, {"ab", "kl"}, {"ab", "mn"}, {"ab", "op"}, {"cd", "ij"}, {"cd", "kl"}, {"cd", "mn"}, {"cd", "op"},
			{"ef", "ij"}, {"ef", "kl"}, {"ef", "mn"}, {"ef", "op"}, {"gh", "ij"}, {"gh", "kl"}, {"gh", "mn"}, {"gh", "op"}}},
		{`(?:ab|cd|ef|gh|ij)(?:kl|mn|op|qr)`, [][]string{{"ab"}, {"cd"}, {"ef"}, {"gh"}, {"ij"}}},
		{strings.Join(nine, "|"), nineWant},
		{strings.Join(sixteen, "|"), sixteenWant},
		{strings.Join(seventeen, "|"), none},
	}
	for _, tt := range tests {
		if got := literalsOf(simplified(t, tt.expr)); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("literalsOf(%.40s) = %q, want %q", tt.expr, got, tt.want)
		}
	}
}

// TestMaxLength checks the bound of a match's length: empty-width parts
// count nothing, a repeat without a maximum and a star have no bound.
func TestMaxLength(t *testing.T) {
	tests := []struct {
		expr string
		want int
	}{
		{`abc`, 3},
		{`\babc\b`, 3},
		{`ab|c`, 2},
		{`a(?:bc|de)f`, 4},
		{`(?:ab){2,3}`, 6},
		{`(?:ab){2,}`, unbounded},
		{`(?:a*b){2}`, unbounded},
		{`a*`, unbounded},
		{`\b(?:x|y*)`, unbounded},
		{`[a-z]`, 4},
		{`é`, 2},
	}
	for _, tt := range tests {
		if got := maxLength(simplified(t, tt.expr)); got != tt.want {
			t.Errorf("maxLength(%s) = %d, want %d", tt.expr, got, tt.want)
		}
	}
}

// TestGuardedTests checks the literal test and where a guarded expression
// is tried in windows: texts from windowedLen bytes, bounded expressions
// with a literal; an expression with no literal runs on the whole text.
func TestGuardedTests(t *testing.T) {
	lit, free, open := guard(`abc \d`), guard(`\d{3}`), guard(`abc.*z`)
	short, long := "no such thing", strings.Repeat("x ", windowedLen/2)
	var tx lowered
	for _, tt := range []struct {
		g    *guarded
		text string
		may  bool // mayMatchIn
		win  bool // windowed
	}{
		{lit, short, false, false},
		{lit, "abc 1", true, false},
		{lit, long[:windowedLen-1], false, false},
		{lit, long, false, true},
		{free, long, true, false},
		{open, long, false, false},
	} {
		tx.prepare(tt.text)
		if got := tt.g.mayMatchIn(&tx); got != tt.may {
			t.Errorf("%v.mayMatchIn(%d bytes) = %v, want %v", tt.g, len(tt.text), got, tt.may)
		}
		if got := tt.g.windowed(&tx); got != tt.win {
			t.Errorf("%v.windowed(%d bytes) = %v, want %v", tt.g, len(tt.text), got, tt.win)
		}
	}
	// An expression with no literal still matches a long text.
	tx.prepare(long + " 123")
	if !free.matchIn(&tx) {
		t.Errorf("%v does not match a long text with three digits", free)
	}
}

// TestUsable checks which literals are worth a scan: three bytes or more,
// the three longest, longest first; none when an alternative has none.
func TestUsable(t *testing.T) {
	tests := []struct {
		alts, want [][]string
	}{
		{[][]string{{"ab", "abcd", "abc", "abcde"}}, [][]string{{"abcde", "abcd", "abc"}}},
		{[][]string{{"abc"}, {"xyz", "q"}}, [][]string{{"abc"}, {"xyz"}}},
		{[][]string{{"abc"}, {"ab"}}, nil},
	}
	for _, tt := range tests {
		if got := usable(tt.alts); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("usable(%q) = %q, want %q", tt.alts, got, tt.want)
		}
	}
}
