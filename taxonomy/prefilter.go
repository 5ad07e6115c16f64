package taxonomy

import (
	"regexp"
	"regexp/syntax"
	"slices"
	"strings"
	"unicode/utf8"
)

// A guarded expression runs only on texts that hold the literals every
// match of it holds. Go's matcher cannot skip ahead through a pattern that
// starts with \b or an alternation, so it tries every position of the
// text; a literal test (one scan with strings.Contains) rules out most
// texts first. The literals are read from the expression's syntax tree
// once, at start-up, so that no rule depends on a prefilter written by
// hand being right or rare enough.
type guarded struct {
	re *regexp.Regexp
	// anyOf holds alternatives: a match holds every literal of one of
	// them. Empty means the expression requires no literal.
	anyOf [][]string
	// grams holds the trigrams of each literal of anyOf, for texts with a
	// trigram set (see lowered).
	grams [][][]uint16
	// maxLen bounds a match's length in bytes, -1 when it is unbounded. A
	// bounded expression matches a long text where it matches a window
	// around one of its literals (see matchWindows).
	maxLen int
	// starts, when not nil, finds the places where a match may start,
	// so that the expression is tried anchored there (see starts).
	starts *starts
}

// guards are the guarded expressions of the package's variables, built
// at start-up: the test of starts checks each against the unanchored
// matcher.
var guards []*guarded

// started is set once the package's variables are initialised: an
// expression guarded later (by a test) is not one of guards.
var started bool

func init() { started = true }

// guard compiles expr and reads its literals.
func guard(expr string) *guarded {
	re := regexp.MustCompile(expr)
	tree, err := syntax.Parse(expr, syntax.Perl)
	if err != nil {
		panic("taxonomy: " + err.Error()) // MustCompile parsed it
	}
	simple := tree.Simplify()
	g := &guarded{re: re, anyOf: usable(literalsOf(simple)), maxLen: maxLength(simple), starts: startsOf(expr, tree)}
	if !started {
		guards = append(guards, g)
	}
	for _, all := range g.anyOf {
		var ps [][]uint16
		for _, l := range all {
			ps = append(ps, gramsOf(l))
		}
		g.grams = append(g.grams, ps)
	}
	return g
}

// mayMatchIn is mayMatch on a lowered text: a literal with a byte pair
// the text lacks is passed over without a scan.
func (g *guarded) mayMatchIn(t *lowered) bool {
	if len(g.anyOf) == 0 {
		return true
	}
	for k, all := range g.anyOf {
		held := true
		for i, l := range all {
			if !t.mayHold(g.grams[k][i]) || !strings.Contains(t.s, l) {
				held = false
				break
			}
		}
		if held {
			return true
		}
	}
	return false
}

// mayMatch reports whether s holds every literal of one alternative.
func (g *guarded) mayMatch(s string) bool {
	if len(g.anyOf) == 0 {
		return true
	}
	for _, all := range g.anyOf {
		if holdsAll(s, all) {
			return true
		}
	}
	return false
}

func holdsAll(s string, lits []string) bool {
	for _, l := range lits {
		if !strings.Contains(s, l) {
			return false
		}
	}
	return true
}

// MatchString reports whether the expression matches s.
func (g *guarded) MatchString(s string) bool { return g.mayMatch(s) && g.match(s) }

// match is regexp.Regexp's MatchString, anchored at the places a match
// may start when the expression says where they are.
func (g *guarded) match(s string) bool {
	if g.starts != nil {
		if matched, ok := g.starts.match(s); ok {
			return matched
		}
	}
	return g.re.MatchString(s)
}

// find is regexp.Regexp's FindStringSubmatchIndex, anchored as match is.
func (g *guarded) find(s string) []int {
	if g.starts != nil {
		if m, ok := g.starts.find(s); ok {
			return m
		}
	}
	return g.re.FindStringSubmatchIndex(s)
}

// matchIn reports whether the expression matches the lowered text t:
// after the literal test, and on a long text only around its literals.
func (g *guarded) matchIn(t *lowered) bool {
	if !g.windowed(t) {
		return g.mayMatchIn(t) && g.match(t.s)
	}
	return g.matchWindows(t)
}

// windowed reports whether the expression is tried in windows on t.
func (g *guarded) windowed(t *lowered) bool {
	return len(t.s) >= windowedLen && g.maxLen != unbounded && len(g.anyOf) > 0
}

// unbounded is the maxLen of an expression whose matches have no bound.
const unbounded = -1

// windowedLen is the length from which a text is matched in windows: Go
// matches a long text with its slower machine, and most of a long text
// is far from any literal of the expression.
const windowedLen = 256

// matchWindows reports whether the expression matches s, trying it on
// the text around each occurrence of the longest literal of each
// alternative: every match holds that literal, and is at most maxLen
// long, so it starts at most maxLen-len(literal) bytes before one and
// ends at most maxLen bytes after one starts. Windows reach one byte
// further and end at the ends of words, so that \b reads as it does in
// the whole text, and ^ and $ cannot match at a window's edge inside the
// text: a match from there would be longer than maxLen.
func (g *guarded) matchWindows(t *lowered) bool {
	s := t.s
	var buf [maxAlternatives]string
	tried := buf[:0]
	for k, all := range g.anyOf {
		anchor := all[0] // the longest (see usable)
		if !t.hasGramsOf(g.grams[k]) {
			continue // a literal of the alternative is not in the text
		}
		if slices.Contains(tried, anchor) {
			continue // its windows were tried for an earlier alternative
		}
		tried = append(tried, anchor)
		for p := range occurrences(s, anchor) {
			start, end := max(0, p+len(anchor)-g.maxLen-1), min(len(s), p+g.maxLen+1)
			for start > 0 && isWordByte(s[start-1]) {
				start--
			}
			for end < len(s) && isWordByte(s[end]) {
				end++
			}
			if g.match(s[start:end]) {
				return true
			}
		}
	}
	return false
}

// maxLength bounds the bytes a match of re takes, or returns unbounded.
func maxLength(re *syntax.Regexp) int {
	switch re.Op {
	case syntax.OpLiteral:
		n := 0
		for _, r := range re.Rune {
			n += utf8.RuneLen(r)
		}
		return n
	case syntax.OpCharClass, syntax.OpAnyCharNotNL, syntax.OpAnyChar:
		return utf8.UTFMax
	case syntax.OpCapture:
		return maxLength(re.Sub[0])
	case syntax.OpQuest:
		return maxLength(re.Sub[0])
	case syntax.OpRepeat:
		n := maxLength(re.Sub[0])
		if re.Max == -1 || n == unbounded { // x{2,}: no maximum
			return unbounded
		}
		return n * re.Max
	case syntax.OpStar, syntax.OpPlus:
		return unbounded
	case syntax.OpConcat, syntax.OpAlternate:
		total := 0
		for _, sub := range re.Sub {
			n := maxLength(sub)
			if n == unbounded {
				return unbounded
			}
			if re.Op == syntax.OpConcat {
				total += n
			} else {
				total = max(total, n)
			}
		}
		return total
	}
	return 0 // empty-width: \b, ^, $
}

// FindStringSubmatchIndex is regexp.Regexp's, after the literal test.
func (g *guarded) FindStringSubmatchIndex(s string) []int {
	if !g.mayMatch(s) {
		return nil
	}
	return g.find(s)
}

// String returns the source text of the expression.
func (g *guarded) String() string { return g.re.String() }

// maxAlternatives bounds the alternatives kept of one expression: past it
// a part of the expression is read by what all of its alternatives hold,
// which only costs a run of the matcher, never a match.
const maxAlternatives = 16

// literalsOf returns what every match of re holds, as alternatives of
// literals: one alternative with no literal means "nothing required".
func literalsOf(re *syntax.Regexp) [][]string {
	none := [][]string{{}}
	if re.Flags&syntax.FoldCase != 0 {
		return none
	}
	switch re.Op {
	case syntax.OpLiteral:
		return [][]string{{string(re.Rune)}}
	case syntax.OpCapture, syntax.OpPlus:
		return literalsOf(re.Sub[0])
	case syntax.OpRepeat:
		if re.Min >= 1 {
			return literalsOf(re.Sub[0])
		}
		return none
	case syntax.OpAlternate:
		branches := make([][][]string, len(re.Sub))
		total := 0
		for i, sub := range re.Sub {
			branches[i] = literalsOf(sub)
			total += len(branches[i])
		}
		// Too many alternatives: the largest branches give way first, to
		// what all of their alternatives hold.
		for total > maxAlternatives {
			big := 0
			for i := range branches {
				if len(branches[i]) > len(branches[big]) {
					big = i
				}
			}
			if len(branches[big]) == 1 {
				return none
			}
			total -= len(branches[big]) - 1
			branches[big] = common(branches[big])
		}
		var alts [][]string
		for _, l := range branches {
			if slices.ContainsFunc(l, func(a []string) bool { return len(a) == 0 }) {
				return none // a branch that requires nothing
			}
			alts = append(alts, l...)
		}
		return alts
	case syntax.OpConcat:
		// Adjacent literals make one longer literal, which says more:
		// "reached " and "your" and " " are weaker than "reached your ".
		result := [][]string{{}}
		var run strings.Builder
		flush := func() {
			if run.Len() == 0 {
				return
			}
			for i := range result {
				result[i] = append(slices.Clip(result[i]), run.String())
			}
			run.Reset()
		}
		for _, sub := range re.Sub {
			if sub.Op == syntax.OpLiteral && sub.Flags&syntax.FoldCase == 0 {
				run.WriteString(string(sub.Rune))
				continue
			}
			flush()
			l := literalsOf(sub)
			if len(result)*len(l) > maxAlternatives {
				l = common(l) // too many combinations: what all of them hold
			}
			// A part that requires nothing ([][]string{{}}) leaves the
			// result as it is.
			var next [][]string
			for _, a := range result {
				for _, b := range l {
					next = append(next, append(slices.Clip(a), b...))
				}
			}
			result = next
		}
		flush()
		return result
	}
	return none
}

// common returns the literals every alternative holds, as one
// alternative.
func common(alts [][]string) [][]string {
	var all []string
	for i, a := range alts {
		if i == 0 {
			all = slices.Clone(a)
			continue
		}
		all = slices.DeleteFunc(all, func(l string) bool { return !slices.Contains(a, l) })
	}
	return [][]string{all}
}

// usable keeps of each alternative the literals worth a scan (three bytes
// or more, the three longest, longest first), and drops the test when an
// alternative requires nothing worth one.
func usable(alts [][]string) [][]string {
	var out [][]string
	for _, a := range alts {
		a = slices.DeleteFunc(slices.Clone(a), func(l string) bool { return len(l) < 3 })
		if len(a) == 0 {
			return nil
		}
		slices.SortStableFunc(a, func(x, y string) int { return len(y) - len(x) })
		out = append(out, a[:min(len(a), 3)])
	}
	return out
}
