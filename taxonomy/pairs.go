package taxonomy

import "slices"

// A lowered text is an error's lowercased text with, when it is long, the
// set of the byte pairs it holds, built once per Classify. Most rules look
// for a literal that most texts do not hold; a literal with a pair the text
// lacks cannot be in it, so its rule is passed over without scanning the
// text. A 64 KiB HTML page cut to 8 KiB is then scanned once to build the
// set instead of once per rule. A short text is scanned faster than the set
// is built: it has no set, and every literal may be in it.
type lowered struct {
	s      string
	paired bool // pairs is built
	pairs  pairSet
	// text is the error's text as written; rd is what the evidence reader
	// finds in it, read on the first need.
	text string
	rd   *reading
}

// reading returns what the evidence reader finds in the text, reading it
// on the first call.
func (t *lowered) reading() *reading {
	if t.rd == nil {
		t.rd = new(reading)
		t.rd.read(t.text)
	}
	return t.rd
}

// serverRefusesParam turns c, a server's failure decided by a type or
// code, into a permanent one when the text says a parameter, an option or
// a flag of the request is refused (see decide).
func (t *lowered) serverRefusesParam(c Class) Class {
	if c.Kind != Transient && c.Kind != Overloaded && c.Kind != Unknown {
		return c
	}
	if f := t.reading().param; f != nil {
		return f.class()
	}
	return c
}

// minPairedLen is the length from which a text gets its pair set: below it,
// building the set costs more than the scans it saves (measured with the
// Classify benchmarks on short provider messages and a page of HTML).
const minPairedLen = 512

// set makes t the lowered text s.
func (t *lowered) set(s string) {
	t.s = s
	t.paired = len(s) >= minPairedLen
	if !t.paired {
		return
	}
	t.pairs = pairSet{}
	for i := 0; i+1 < len(s); i++ {
		t.pairs.add(pairOf(s[i], s[i+1]))
	}
}

// mayHold reports whether the text may hold a literal with these pairs.
func (t *lowered) mayHold(pairs []uint16) bool {
	return !t.paired || t.pairs.holds(pairs)
}

// A pairSet records byte pairs folded to 4096 bits, by the low six bits of
// each byte: folding can make a pair look present that is not, never the
// reverse, so a literal is passed over only when it cannot be in the text.
type pairSet [64]uint64

func pairOf(a, b byte) uint16 { return uint16(a&63)<<6 | uint16(b&63) }

func (s *pairSet) add(p uint16) { s[p>>6] |= 1 << (p & 63) }

// holds reports whether every pair of a literal is in the set.
func (s *pairSet) holds(pairs []uint16) bool {
	for _, p := range pairs {
		if s[p>>6]&(1<<(p&63)) == 0 {
			return false
		}
	}
	return true
}

// maxLiteralPairs bounds the pairs kept of a literal: a few rule out most
// texts, and each costs a bit test per rule and text.
const maxLiteralPairs = 6

// pairsOf returns the distinct pairs of lit, or for a long literal those at
// maxLiteralPairs places spread from its start to its end: its words differ
// more than neighbouring bytes do.
func pairsOf(lit string) []uint16 {
	n := len(lit) - 1 // the number of pairs
	var pairs []uint16
	for k := range min(n, maxLiteralPairs) {
		// k itself for a short literal, spread over a long one.
		i := k * max(n-1, maxLiteralPairs-1) / (maxLiteralPairs - 1)
		if p := pairOf(lit[i], lit[i+1]); !slices.Contains(pairs, p) {
			pairs = append(pairs, p)
		}
	}
	return pairs
}
