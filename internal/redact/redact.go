package redact

import (
	"math"
	"slices"
	"strings"
)

// Redacted replaces each secret.
const Redacted = "[REDACTED]"

// Bounds that keep the work on one text linear in its length, whatever it
// holds: every look at a place where a secret may start reads at most a
// bounded stretch of the text.
const (
	maxName  = 128      // the longest field name looked at
	maxValue = 8 << 10  // the longest value of a named field, quoted or not
	maxURL   = 512      // the longest user and password of a URL
	maxToken = 8 << 10  // the longest prefixed token (a JWT can be long)
	maxBlock = 64 << 10 // the longest private key block
	maxDepth = 2        // encodings looked through, one inside the other
)

// String returns s with the credentials it plainly contains replaced by
// [Redacted] (see the package documentation for the shapes). Its cost is
// linear in the length of s. It is safe for concurrent use.
func String(s string) string {
	var f finder
	f.scan(s, nil, 0)
	if len(f.spans) == 0 {
		return s
	}
	return f.replace(s)
}

// span is a secret: the bytes [start, end) of the text.
type span struct{ start, end int }

// finder collects the secrets of one text, found in the text itself and in
// the texts its encodings decode to.
type finder struct {
	spans []span
}

// scan adds the secrets of s, a text that l maps to the original one (nil:
// s is the original), and of what s decodes to, depth encodings deep.
func (f *finder) scan(s string, l *layer, depth int) {
	t := &text{s: s, lower: asciiLower(s), layer: l, f: f, urlStop: -1}
	t.find()
	if depth == maxDepth || len(s) > math.MaxInt32 {
		return
	}
	for _, d := range decoders {
		if d.applies(s) {
			inner, marks := d.decode(s)
			f.scan(inner, &layer{marks: marks, outer: l}, depth+1)
		}
	}
}

// replace returns s with every span replaced by Redacted, spans that
// overlap or touch replaced as one.
func (f *finder) replace(s string) string {
	slices.SortFunc(f.spans, func(a, b span) int { return a.start - b.start })
	var b strings.Builder
	b.Grow(len(s))
	at := 0 // s[:at] is written
	for i := 0; i < len(f.spans); {
		sp := f.spans[i]
		for i++; i < len(f.spans) && f.spans[i].start <= sp.end; i++ {
			sp.end = max(sp.end, f.spans[i].end)
		}
		if sp.end <= at {
			continue
		}
		b.WriteString(s[at:max(at, sp.start)])
		b.WriteString(Redacted)
		at = sp.end
	}
	b.WriteString(s[at:])
	return b.String()
}

// text is one text being scanned: the original or a decoding of it.
type text struct {
	s     string
	lower string // s with ASCII letters in lower case, same length
	layer *layer // maps offsets of s to the original text; nil for the original
	f     *finder

	// What urlEnd knows: s[urlStop] ends the URLs that start before it and
	// after the latest look; none ends before s[urlClean].
	urlStop, urlClean int
}

// add records s[start:end] as a secret.
func (t *text) add(start, end int) {
	if start >= end {
		return
	}
	if t.layer != nil {
		start, end = t.layer.original(start), t.layer.original(end)
	}
	t.f.spans = append(t.f.spans, span{start, end})
}

// asciiLower returns s with its ASCII letters in lower case: unlike
// strings.ToLower, it keeps every offset where it was.
func asciiLower(s string) string {
	i := 0
	for i < len(s) && !('A' <= s[i] && s[i] <= 'Z') {
		i++
	}
	if i == len(s) {
		return s
	}
	b := []byte(s)
	for ; i < len(b); i++ {
		if 'A' <= b[i] && b[i] <= 'Z' {
			b[i] += 'a' - 'A'
		}
	}
	return string(b)
}

// isWordByte reports whether c is a letter, a digit or an underscore, as
// regexp's \b sees words.
func isWordByte(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_'
}

// startsWord reports whether a word can start at s[i]: nothing of a word
// comes before it.
func startsWord(s string, i int) bool { return i == 0 || !isWordByte(s[i-1]) }

// A detector finds one shape of secret where its word is in the text:
// at looks at s[i:], where the word is, records the secret it finds and
// returns the end of what it read, which the detectors of the same table
// need not read again, or -1.
type detector struct {
	word      string
	at        func(t *text, i int) int
	wordStart bool // the word must start a word of the text: at is not called otherwise
}

// table indexes detectors by the first two bytes of their words, so that
// one pass over a text finds where any of them may start, at the cost of
// one lookup per byte.
type table struct {
	starts [1 << 16 / 8]byte // a bit per pair of bytes
	byte0  [256][]detector
}

func newTable(ds []detector) *table {
	t := &table{}
	for _, d := range ds {
		k := uint16(d.word[0])<<8 | uint16(d.word[1])
		t.starts[k>>3] |= 1 << (k & 7)
		t.byte0[d.word[0]] = append(t.byte0[d.word[0]], d)
	}
	return t
}

// Detectors whose words are looked for in the lower-case text and in the
// text itself. They are set in init: detectors refer to them.
var caseless, cased *table

func init() {
	caseless = newTable(caselessDetectors())
	cased = newTable(casedDetectors())
}

// find runs every detector over the text, in one pass.
func (t *text) find() {
	s, lower := t.s, t.lower[:len(t.s)]
	cl, cs := &caseless.starts, &cased.starts
	nextCaseless, nextCased := 0, 0
	for i := 1; i < len(s); i++ {
		if k := uint16(lower[i-1])<<8 | uint16(lower[i]); cl[k>>3]&(1<<(k&7)) != 0 && i > nextCaseless {
			nextCaseless = max(nextCaseless, t.detect(caseless, lower, i-1))
		}
		if k := uint16(s[i-1])<<8 | uint16(s[i]); cs[k>>3]&(1<<(k&7)) != 0 && i > nextCased {
			nextCased = max(nextCased, t.detect(cased, s, i-1))
		}
	}
}

// detect runs the detectors of tb whose word u (s or lower) holds at i,
// and returns the end of what they read.
func (t *text) detect(tb *table, u string, i int) int {
	next := -1
	start := startsWord(u, i)
	for _, d := range tb.byte0[u[i]] {
		if (start || !d.wordStart) && strings.HasPrefix(u[i:], d.word) {
			next = max(next, d.at(t, i))
		}
	}
	return next
}
