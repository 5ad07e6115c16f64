package taxonomy

import (
	"iter"
	"regexp"
	"regexp/syntax"
	"strings"
	"unicode/utf8"
)

// Go's matcher skips ahead only through an expression that starts with a
// literal: one that starts with \b, a character class or an alternation
// is tried at every position of the text, which costs microseconds on a
// window of a few hundred bytes. Most expressions of this package start
// at a place a scan finds at once: a literal after \b ("\bstatus ..."), a
// literal one character after a class (`["']code["']: ...`), a number of
// three digits (`(\d{3}) error`). For them, starts finds those places
// with strings.Index and tries the expression anchored there, first place
// first: the leftmost match, as the unanchored matcher finds it, at a
// fraction of the cost.

// starts finds where the matches of an expression may start, and tries
// the expression anchored at each.
type starts struct {
	alts []startAlt
	// at0 is the expression anchored at the start of a text; at1 the same
	// after one character of context, so that \b and ^ read the text
	// before the start as the unanchored matcher does.
	at0, at1 *regexp.Regexp
}

// A startAlt says where a match of one alternative of the expression may
// start: at one of its leading literals, or at a number of three digits,
// right there or one character before it.
type startAlt struct {
	lits []string // the literals a match starts with; none for a number of three digits
	back bool     // one character (of a class) before it
	here bool     // with back: the character may be missing (^ as an alternative to the class)
}

// maxStarts bounds the places tried in one text; past it the unanchored
// matcher decides.
const maxStarts = 32

// maxLeads bounds the leading literals of an expression: each is one scan
// of the text.
const maxLeads = 24

// startsOf reads the places where the matches of expr may start from its
// syntax tree, or returns nil when an alternative starts otherwise.
func startsOf(expr string, tree *syntax.Regexp) *starts {
	subs := []*syntax.Regexp{tree}
	if tree.Op == syntax.OpAlternate {
		subs = tree.Sub
	}
	st := &starts{}
	leads := 0
	for _, sub := range subs {
		a, ok := startOf(sub)
		if !ok {
			return nil
		}
		leads += len(a.lits)
		st.alts = append(st.alts, a)
	}
	if leads > maxLeads {
		return nil
	}
	st.at0 = regexp.MustCompile(`^(?:` + expr + `)`)
	st.at1 = regexp.MustCompile(`^(?s:.)(?:` + expr + `)`)
	return st
}

// startOf reads where a match of one alternative starts: after \b, or
// after a single character, a captured number of three digits or one of
// a few literals of two bytes or more.
func startOf(re *syntax.Regexp) (startAlt, bool) {
	items := itemsOf(re)
	var a startAlt
	if len(items) > 1 {
		switch first := items[0]; {
		case first.Op == syntax.OpWordBoundary:
			// \b is read by the anchored expression, which sees the
			// character before the place.
			items = items[1:]
		case oneChar(first):
			a.back, items = true, items[1:]
		case first.Op == syntax.OpAlternate && charOrStart(first):
			// (?:^|[^\w.:/-]): a character, or the start of the text.
			a.back, a.here, items = true, true, items[1:]
		}
	}
	if isThreeDigits(items[0]) {
		return a, true
	}
	lits, ok := leadsOf(items)
	if !ok || len(lits) > maxLeads {
		return a, false
	}
	for _, l := range lits {
		if len(l) < 2 {
			return a, false
		}
	}
	a.lits = lits
	return a, true
}

// itemsOf returns the items of a concatenation, or re alone.
func itemsOf(re *syntax.Regexp) []*syntax.Regexp {
	if re.Op == syntax.OpConcat {
		return re.Sub
	}
	return []*syntax.Regexp{re}
}

// leadsOf returns the literals one of which every match of the sequence
// items starts with: a literal shorter than three bytes is extended by
// what follows it ("s(?:erver|ystem)" leads with "server" and "system").
func leadsOf(items []*syntax.Regexp) ([]string, bool) {
	if len(items) == 0 {
		return nil, false
	}
	head, rest := items[0], items[1:]
	then := func(sub ...*syntax.Regexp) []*syntax.Regexp {
		return append(append([]*syntax.Regexp(nil), sub...), rest...)
	}
	switch head.Op {
	case syntax.OpLiteral:
		if head.Flags&syntax.FoldCase != 0 {
			return nil, false
		}
		l := string(head.Rune)
		if len(l) < 3 {
			if more, ok := leadsOf(rest); ok {
				out := make([]string, len(more))
				for i, m := range more {
					out[i] = l + m
				}
				return out, true
			}
		}
		return []string{l}, true
	case syntax.OpConcat:
		return leadsOf(then(head.Sub...))
	case syntax.OpCapture:
		return leadsOf(then(itemsOf(head.Sub[0])...))
	case syntax.OpAlternate:
		var out []string
		for _, b := range head.Sub {
			ls, ok := leadsOf(then(itemsOf(b)...))
			if !ok {
				return nil, false
			}
			out = append(out, ls...)
		}
		return out, len(out) <= maxLeads
	case syntax.OpQuest, syntax.OpStar, syntax.OpRepeat:
		if head.Op == syntax.OpRepeat && head.Min > 0 {
			return leadsOf(then(itemsOf(head.Sub[0])...))
		}
		// The item may be skipped: a match starts with it or with what
		// follows it.
		with, ok := leadsOf(then(itemsOf(head.Sub[0])...))
		if !ok {
			return nil, false
		}
		without, ok := leadsOf(rest)
		if !ok {
			return nil, false
		}
		return append(with, without...), true
	}
	return nil, false
}

// charOrStart reports whether the alternation re is one character or the
// start of the text, and not the start alone.
func charOrStart(re *syntax.Regexp) bool {
	chars := 0
	for _, s := range re.Sub {
		switch {
		case oneChar(s):
			chars++
		case s.Op != syntax.OpBeginText:
			return false
		}
	}
	return chars > 0 && chars < len(re.Sub)
}

// oneChar reports whether re matches exactly one character.
func oneChar(re *syntax.Regexp) bool {
	return re.Op == syntax.OpCharClass || re.Op == syntax.OpAnyChar || re.Op == syntax.OpAnyCharNotNL
}

// isThreeDigits reports whether re is (\d{3}).
func isThreeDigits(re *syntax.Regexp) bool {
	if re.Op != syntax.OpCapture {
		return false
	}
	r := re.Sub[0]
	return r.Op == syntax.OpRepeat && r.Min == 3 && r.Max == 3 && r.Sub[0].Op == syntax.OpCharClass &&
		len(r.Sub[0].Rune) == 2 && r.Sub[0].Rune[0] == '0' && r.Sub[0].Rune[1] == '9'
}

// places appends to buf, in order and once each, the places where a match
// of st may start in s; ok is false when there are more than buf holds.
func (st *starts) places(s string, buf []int) (_ []int, ok bool) {
	add := func(p int) bool {
		i := len(buf)
		for i > 0 && buf[i-1] > p {
			i--
		}
		if i > 0 && buf[i-1] == p {
			return true
		}
		if len(buf) == cap(buf) {
			return false
		}
		buf = append(buf, 0)
		copy(buf[i+1:], buf[i:])
		buf[i] = p
		return true
	}
	at := func(a *startAlt, p int) bool {
		if a.back && p > 0 {
			_, w := utf8.DecodeLastRuneInString(s[:p])
			if !add(p - w) {
				return false
			}
		}
		if !a.back || a.here {
			return add(p)
		}
		return true
	}
	for k := range st.alts {
		a := &st.alts[k]
		if len(a.lits) == 0 {
			for p := 0; p+2 < len(s); p++ {
				if isDigit(s[p]) && isDigit(s[p+1]) && isDigit(s[p+2]) && !at(a, p) {
					return buf, false
				}
			}
			continue
		}
		for _, lit := range a.lits {
			for p := range occurrences(s, lit) {
				if !at(a, p) {
					return buf, false
				}
			}
		}
	}
	return buf, true
}

// find returns the leftmost match of the expression in s, as
// regexp.Regexp.FindStringSubmatchIndex does; ok is false when s has too
// many places to try.
func (st *starts) find(s string) (m []int, ok bool) {
	_, ok = st.scan(s, func(re *regexp.Regexp, p, from int) bool {
		if m = re.FindStringSubmatchIndex(s[from:]); m == nil {
			return false
		}
		for i := range m {
			if m[i] >= 0 {
				m[i] += from
			}
		}
		m[0] = p
		return true
	})
	return m, ok
}

// match reports whether the expression matches s; ok is false when s has
// too many places to try.
func (st *starts) match(s string) (matched, ok bool) {
	return st.scan(s, func(re *regexp.Regexp, _, from int) bool { return re.MatchString(s[from:]) })
}

// scan calls try at each place where a match may start, in order, until
// it reports a match: with at0 and the whole text at the start of s, else
// with at1 and the text from the character before the place.
func (st *starts) scan(s string, try func(re *regexp.Regexp, p, from int) bool) (found, ok bool) {
	var buf [maxStarts]int
	ps, ok := st.places(s, buf[:0])
	if !ok {
		return false, false
	}
	for _, p := range ps {
		re, from := st.at0, 0
		if p > 0 {
			_, w := utf8.DecodeLastRuneInString(s[:p])
			re, from = st.at1, p-w
		}
		if try(re, p, from) {
			return true, true
		}
	}
	return false, true
}

// occurrences yields where lit occurs in s, overlapping ones included.
func occurrences(s, lit string) iter.Seq[int] {
	return func(yield func(int) bool) {
		for from := 0; ; {
			i := strings.Index(s[from:], lit)
			if i < 0 || !yield(from+i) {
				return
			}
			from += i + 1
		}
	}
}
