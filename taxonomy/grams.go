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
	rd    *reading
	// nums holds where the text holds a number that may be a status.
	nums     []int
	numBuf   [8]int
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
	paramWords = lits("param", "argument", "flag", "option", "field")
)

// numbers returns where the text holds a number that may be a status
// (see failureNumbers), found on the first call.
func (t *lowered) numbers() []int {
	if !t.numbered {
		t.nums = failureNumbers(t.s, t.numBuf[:0])
		t.numbered = true
	}
	return t.nums
}

// reading returns what the evidence reader finds in the text, reading it
// on the first call.
func (t *lowered) reading() *reading {
	if t.rd == nil {
		t.rd = new(reading)
		t.rd.read(t.text, t.s, t.ascii)
	}
	return t.rd
}

// serverRefusesParam turns c, a server's failure decided by a type or
// code, into a permanent one when the text says a parameter, an option or
// a flag of the request is refused (see decide).
func (t *lowered) serverRefusesParam(c Class) Class {
	if c.Kind != Transient && c.Kind != Overloaded && c.Kind != Unknown || !t.mayHoldAny(paramWords) {
		return c
	}
	if f := t.reading().param; f != nil {
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
	t.grams = gramSet{}
	x := uint32(0)
	for i := 0; i < len(s); i++ {
		x = x<<8 | uint32(s[i])
		if i >= 2 {
			t.grams.add(hashGram(x & 0xffffff))
		}
	}
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
