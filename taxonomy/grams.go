package taxonomy

import (
	"slices"
	"strings"
)

// A lowered text is an error's lowercased text with, unless it is very short, the
// set of the trigrams (three bytes in a row) it holds, built once per
// Classify. Most rules look for a literal that most texts do not hold; a
// literal with a trigram the text lacks cannot be in it, so its rule is
// passed over without scanning the text. A page of HTML or a stack trace is
// then scanned once to build the set instead of once per rule; so is a
// provider's message of a few hundred bytes, which a hundred rules would
// scan otherwise. A very short text is scanned faster than the set is
// built: it has no set, and every literal may be in it.
type lowered struct {
	s        string
	hasGrams bool // grams is built
	grams    gramSet
	// text is the error's text as written; rd is what the evidence reader
	// finds in it, read on the first need. ascii says that text is ASCII,
	// so that s holds its words lowercased at the same places.
	text  string
	ascii bool
	rd    reading
	read  bool // rd is read
	// nums holds where the text holds a number that may be a status, the
	// first numCount of them.
	nums     [8]int
	numCount int
	numbered bool
}

// A literal is a fixed string the reader looks for, with its trigrams,
// taken once: of its lowercase form, since the set is the lowercased
// text's.
type literal struct {
	s     string
	grams []uint16
}

func lit(s string) literal { return literal{s, gramsOf(strings.ToLower(s))} }

func lits(ss ...string) []literal {
	ls := make([]literal, len(ss))
	for i, s := range ss {
		ls[i] = lit(s)
	}
	return ls
}

// index is strings.Index(s, l.s), s being the text or its lowercase
// form, after the trigram test.
func (t *lowered) index(s string, l literal) int {
	if !t.mayHold(l.grams) {
		return -1
	}
	return strings.Index(s, l.s)
}

// hasGramsOf reports whether the text may hold every literal whose grams
// are given.
func (t *lowered) hasGramsOf(grams [][]uint16) bool {
	for _, g := range grams {
		if !t.mayHold(g) {
			return false
		}
	}
	return true
}

// mayHoldAny reports whether the text holds one of the literals.
func (t *lowered) mayHoldAny(ls []literal) bool {
	for _, l := range ls {
		if t.index(t.s, l) >= 0 {
			return true
		}
	}
	return false
}

// sizeWords and paramWords hold a stem of every sense of a size of the
// request (cSize) and of a parameter (cParam): a text without any of them
// holds no overflow and no parameter refused in the reader's words, and
// is not read for them.
var (
	sizeWords  = lits("input", "prompt", "token", "batch", "context", "messages", "seq", "kv")
	paramWords = lits("param", "argument", "flag", "option", "field", "--", "`", "key", "credential", "auth", "certification")
)

// numbers returns where the text holds a number that may be a status
// (see failureNumbers), found on the first call.
func (t *lowered) numbers() []int {
	if !t.numbered {
		t.numCount = len(failureNumbers(t.s, t.nums[:0]))
		t.numbered = true
	}
	return t.nums[:t.numCount]
}

// reading returns what the evidence reader finds in the text, reading it
// on the first call.
func (t *lowered) reading() *reading {
	if !t.read {
		t.rd.read(t.text, t.s, t.ascii)
		t.read = true
	}
	return &t.rd
}

// serverRefusesParam turns c, a server's failure decided by a type or
// code, into a permanent one when the text says a parameter, an option or
// a flag of the request is refused (see decide).
func (t *lowered) serverRefusesParam(c Class) Class {
	if c.Kind != Transient && c.Kind != Overloaded && c.Kind != Unknown || !t.mayHoldAny(paramWords) {
		return c
	}
	if f := t.reading().param; f.found() {
		return f.class()
	}
	return c
}

// minGramLen is the length from which a text gets its trigram set: below
// it, building the set costs more than the scans it saves. Counted in
// instructions (callgrind) on BenchmarkClassify's traffic mix: 54k a call
// with the set from 512 bytes, 38k from 64, 33k from 32, 35k from 16.
const minGramLen = 32

// set makes t the lowered text s.
func (t *lowered) set(s string) {
	t.s = s
	t.numbered = false
	t.hasGrams = len(s) >= minGramLen
	if !t.hasGrams {
		return
	}
	// One pass for the trigrams and the numbers that may be statuses
	// (what failureNumbers finds).
	t.grams = gramSet{}
	t.numCount = 0
	x := uint32(0)
	digits := 0 // in a row
	for i := 0; i < len(s); i++ {
		c := s[i]
		x = x<<8 | uint32(c)
		if i >= 2 {
			t.grams.add(hashGram(x & 0xffffff))
		}
		if isDigit(c) {
			digits++
			continue
		}
		if digits == 3 {
			t.addNumber(s, i-3)
		}
		digits = 0
	}
	if digits == 3 {
		t.addNumber(s, len(s)-3)
	}
	t.numbered = true
}

// addNumber records the number of three digits at p if it may be a
// status, while there is room.
func (t *lowered) addNumber(s string, p int) {
	if (s[p] == '4' || s[p] == '5') && t.numCount < len(t.nums) {
		t.nums[t.numCount] = p
		t.numCount++
	}
}

// prepare makes t the error's text, lowercased: at the same places when
// the text is ASCII (most are; ascii says so), by strings.ToLower
// otherwise. One pass lowers an ASCII text and builds its trigram set and
// its numbers (see set).
func (t *lowered) prepare(text string) {
	t.text, t.ascii = text, true
	if len(text) < minGramLen {
		for i := 0; i < len(text); i++ {
			if text[i] >= 0x80 {
				t.ascii = false
				t.set(strings.ToLower(text))
				return
			}
		}
		// What set does with a short text: no set of trigrams, numbers
		// found on the first need.
		t.s, t.hasGrams, t.numbered = lowerASCII(text), false, false
		return
	}
	var b strings.Builder
	b.Grow(len(text))
	g := &t.grams
	*g = gramSet{}
	t.hasGrams, t.numCount, t.numbered = true, 0, true
	x, digits, changed := uint32(0), 0, false
	var chunk [128]byte
	for base, n := 0, 0; base != len(text); base += n {
		n = copy(chunk[:], text[base:])
		for k, c := range chunk[:n] {
			if c >= 0x80 {
				t.ascii = false
				t.set(strings.ToLower(text))
				return
			}
			if c-'A' < 26 {
				c += 'a' - 'A'
				chunk[k], changed = c, true
			}
			// The first two bytes make grams of fewer bytes: they only
			// add bits, which never hides a literal.
			x = x<<8 | uint32(c)
			h := hashGram(x & 0xffffff)
			g[h>>6] |= 1 << (h & 63)
			if c-'0' < 10 {
				digits++
				continue
			}
			if digits == 3 {
				t.addNumber(text, base+k-3)
			}
			digits = 0
		}
		b.Write(chunk[:n])
	}
	if digits == 3 {
		t.addNumber(text, len(text)-3)
	}
	t.s = text
	if changed {
		t.s = b.String()
	}
}

// lowerASCII lowercases an ASCII text.
func lowerASCII(s string) string {
	for i := 0; i < len(s); i++ {
		if isUpper(s[i]) {
			b := []byte(s)
			for k := i; k < len(b); k++ {
				if isUpper(b[k]) {
					b[k] += 'a' - 'A'
				}
			}
			return string(b)
		}
	}
	return s
}

// mayHold reports whether the text may hold a literal with these grams.
func (t *lowered) mayHold(grams []uint16) bool {
	return !t.hasGrams || t.grams.holds(grams)
}

// A gramSet records trigrams hashed to 8192 bits: a hash can make a
// trigram look present that is not, never the reverse, so a literal is
// passed over only when it cannot be in the text.
type gramSet [128]uint64

// hashGram hashes the trigram in the low 24 bits of x to 13 bits.
func hashGram(x uint32) uint16 { return uint16((x * 0x9e3779b1) >> 19) }

func gramOf(a, b, c byte) uint16 { return hashGram(uint32(a)<<16 | uint32(b)<<8 | uint32(c)) }

func (s *gramSet) add(g uint16) { s[g>>6] |= 1 << (g & 63) }

// holds reports whether every gram of a literal is in the set.
func (s *gramSet) holds(grams []uint16) bool {
	for _, g := range grams {
		if s[g>>6]&(1<<(g&63)) == 0 {
			return false
		}
	}
	return true
}

// maxLiteralGrams bounds the grams kept of a literal: a few rule out most
// texts, and each costs a bit test per rule and text.
const maxLiteralGrams = 6

// gramsOf returns the distinct trigrams of lit, or for a long literal
// those at maxLiteralGrams places spread from its start to its end: its
// words differ more than neighbouring bytes do. A literal of fewer than
// three bytes has none: every text may hold it.
func gramsOf(lit string) []uint16 {
	n := len(lit) - 2 // the number of trigrams
	var grams []uint16
	for k := range min(max(n, 0), maxLiteralGrams) {
		// k itself for a short literal, spread over a long one.
		i := k * max(n-1, maxLiteralGrams-1) / (maxLiteralGrams - 1)
		if g := gramOf(lit[i], lit[i+1], lit[i+2]); !slices.Contains(grams, g) {
			grams = append(grams, g)
		}
	}
	return grams
}
