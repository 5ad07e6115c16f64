package tools

import (
	"math/bits"
	"slices"
	"strings"
	"sync"
	"unicode/utf8"
)

// canonicalJSON returns the canonical form of input and true when input is
// one JSON value that can be canonicalized without losing anything: valid
// UTF-8 throughout, nothing but whitespace around the value, no object with
// the same key twice, no escaped lone surrogate (which decoders replace by
// U+FFFD), nested at most maxDepth deep. The canonical form is what
// encoding/json's Marshal writes for the value decoded with UseNumber:
// objects with their keys sorted bytewise, no spaces, numbers as written,
// strings escaped as Marshal escapes them; so two inputs have the same
// canonical form exactly when they are the same value.
//
// It is false for anything else, and the caller keys such an input by its
// exact bytes. No canonical form is such an input, because every canonical
// form is itself canonicalizable, so the two kinds of key never meet.
//
// The canonical form is written only where it differs from the input:
// the bytes read since the last difference are copied in one piece when
// the next one comes (or an object must be reordered), so that an input
// already in canonical form, but for the whitespace around it, is returned
// as a slice of itself (asIs, with written nil) and nothing is copied.
// Otherwise written holds the canonical form, valid until the next use of
// c.
//
// UTF-8 is checked as the input is read: outside strings JSON allows ASCII
// alone, and inside them every byte from 0x80 starts a rune that is
// decoded, so an input with an invalid sequence anywhere is not
// canonicalized.
func (c *canonicalizer) canonicalJSON(input string) (written []byte, asIs string, ok bool) {
	c.in, c.pos, c.run, c.out = input, 0, 0, c.out[:0]
	c.space()
	if !c.value(0) {
		return nil, "", false
	}
	end := c.pos
	for c.pos < len(c.in) && isSpace(c.in[c.pos]) {
		c.pos++
	}
	if c.pos != len(c.in) {
		return nil, "", false // trailing bytes after the value
	}
	if len(c.out) == 0 {
		return nil, c.in[c.run:end], true
	}
	c.copyTo(end)
	return c.out, "", true
}

// maxDepth bounds the nesting of canonicalized inputs; deeper ones are
// keyed by their bytes.
const maxDepth = 512

// A canonicalizer reads in from pos. The canonical form of what it has
// read is out followed by in[run:pos]: the bytes read since run are
// canonical as written, and copied to out only when something that is
// not comes, or when an object's members must be reordered in out.
type canonicalizer struct {
	in      string
	pos     int
	run     int
	out     []byte
	members []member // a stack shared by the objects being read
	scratch []byte   // where an object is copied to be reordered
}

// member is one member of an object being read: its decoded key and where
// `"key":value` is in the canonical form.
type member struct {
	key        string
	start, end int
}

// at returns the length of the canonical form of what has been read.
func (c *canonicalizer) at() int { return len(c.out) + c.pos - c.run }

// copyTo copies the bytes read since run up to i, canonical as written, to
// out.
func (c *canonicalizer) copyTo(i int) {
	c.out = append(c.out, c.in[c.run:i]...)
	c.run = i
}

// rewrite replaces the input from start to pos, read already, by b in the
// canonical form.
func (c *canonicalizer) rewrite(start int, b []byte) {
	c.copyTo(start)
	c.out = append(c.out, b...)
	c.run = c.pos
}

func isSpace(b byte) bool { return b == ' ' || b == '\t' || b == '\n' || b == '\r' }

// space skips whitespace, which the canonical form leaves out. It is
// small enough to be inlined where there is none, the common case.
func (c *canonicalizer) space() {
	if c.pos < len(c.in) && c.in[c.pos] <= ' ' {
		c.skipSpace()
	}
}

//go:noinline
func (c *canonicalizer) skipSpace() {
	start := c.pos
	for c.pos < len(c.in) && isSpace(c.in[c.pos]) {
		c.pos++
	}
	c.rewrite(start, nil)
}

func (c *canonicalizer) value(depth int) bool {
	if c.pos >= len(c.in) || depth > maxDepth {
		return false
	}
	switch b := c.in[c.pos]; {
	case b == '{':
		return c.object(depth)
	case b == '[':
		return c.array(depth)
	case b == '"':
		_, ok := c.str(false)
		return ok
	case b == '-' || '0' <= b && b <= '9':
		return c.number()
	}
	for _, lit := range [...]string{"true", "false", "null"} {
		if strings.HasPrefix(c.in[c.pos:], lit) {
			c.pos += len(lit)
			return true
		}
	}
	return false
}

func (c *canonicalizer) array(depth int) bool {
	if c.open(']') {
		return true
	}
	for {
		c.space()
		if !c.value(depth + 1) {
			return false
		}
		if more, ok := c.next(']'); !ok || !more {
			return ok
		}
	}
}

func (c *canonicalizer) object(depth int) bool {
	if c.open('}') {
		return true
	}
	base := len(c.members)
	body := c.at()
	sorted, ok := true, false
	for more := true; more; {
		c.space()
		if ok = c.pos < len(c.in) && c.in[c.pos] == '"'; !ok {
			break
		}
		start := c.at()
		var key string
		if key, ok = c.str(true); !ok {
			break
		}
		c.space()
		if ok = c.pos < len(c.in) && c.in[c.pos] == ':'; !ok {
			break
		}
		c.pos++
		c.space()
		if ok = c.value(depth + 1); !ok {
			break
		}
		if n := len(c.members); n > base && c.members[n-1].key >= key {
			sorted = false
		}
		c.members = append(c.members, member{key: key, start: start, end: c.at()})
		more, ok = c.next('}')
	}
	if ok && !sorted {
		c.copyTo(c.pos - 1) // all but the closing brace, read already
		ok = c.reorder(c.members[base:], body)
	}
	c.members = c.members[:base]
	return ok
}

// open reads the opening bracket at pos and reports whether the container
// is empty, reading its closing bracket too.
func (c *canonicalizer) open(closing byte) bool {
	c.pos++
	c.space()
	if c.pos < len(c.in) && c.in[c.pos] == closing {
		c.pos++
		return true
	}
	return false
}

// next reads what follows an element or member: a comma (more), or the
// closing bracket; ok is false for anything else.
func (c *canonicalizer) next(closing byte) (more, ok bool) {
	c.space()
	if c.pos >= len(c.in) {
		return false, false
	}
	switch c.in[c.pos] {
	case ',':
		c.pos++
		return true, true
	case closing:
		c.pos++
		return false, true
	}
	return false, false
}

// reorder rewrites the members written in out from body on in the order
// of their keys, and reports false when two keys are the same: the
// decoders keep one of them, so such an object is not canonicalized.
func (c *canonicalizer) reorder(ms []member, body int) bool {
	slices.SortFunc(ms, func(a, b member) int { return strings.Compare(a.key, b.key) })
	for i := 1; i < len(ms); i++ {
		if ms[i-1].key == ms[i].key {
			return false
		}
	}
	c.scratch = append(c.scratch[:0], c.out[body:]...)
	c.out = c.out[:body]
	for i, m := range ms {
		if i > 0 {
			c.out = append(c.out, ',')
		}
		c.out = append(c.out, c.scratch[m.start-body:m.end-body]...)
	}
	return true
}

// number reads a number, canonical as written, checking it against JSON's
// grammar: -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
func (c *canonicalizer) number() bool {
	c.accept('-')
	switch {
	case c.accept('0'):
	case c.digits() == 0:
		return false
	}
	if c.accept('.') && c.digits() == 0 {
		return false
	}
	if c.accept('e') || c.accept('E') {
		if !c.accept('+') {
			c.accept('-')
		}
		if c.digits() == 0 {
			return false
		}
	}
	return true
}

func (c *canonicalizer) accept(b byte) bool {
	if c.pos < len(c.in) && c.in[c.pos] == b {
		c.pos++
		return true
	}
	return false
}

func (c *canonicalizer) digits() int {
	start := c.pos
	for c.pos < len(c.in) && '0' <= c.in[c.pos] && c.in[c.pos] <= '9' {
		c.pos++
	}
	return c.pos - start
}

// str reads a string at pos into the canonical form and returns its
// decoded text when wantText (a key); the text is a slice of the input
// when the string has no escapes.
func (c *canonicalizer) str(wantText bool) (string, bool) {
	c.pos++ // '"'
	start := c.pos
	var text []byte // the decoded text, once an escape is met
	escaped := false
	for {
		// The run of bytes that are canonical as written.
		run := c.pos
		c.pos += plainRun(c.in[c.pos:])
		if escaped && wantText {
			text = append(text, c.in[run:c.pos]...)
		}
		if c.pos >= len(c.in) {
			return "", false // no closing quote
		}
		switch b := c.in[c.pos]; {
		case b == '"':
			c.pos++
			if !escaped {
				return c.in[start : c.pos-1], true
			}
			return string(text), true
		case b < 0x20:
			return "", false // control characters must be escaped in JSON
		case b == '\\':
			if !escaped {
				escaped = true
				if wantText {
					text = append(text, c.in[start:c.pos]...)
				}
			}
			at := c.pos
			r, ok := c.escape()
			if !ok {
				return "", false
			}
			if wantText {
				text = utf8.AppendRune(text, r)
			}
			var buf [6]byte
			if enc := appendRune(buf[:0], r); string(enc) != c.in[at:c.pos] {
				c.rewrite(at, enc)
			}
		default: // <, > or &, or a rune outside ASCII
			r, size := utf8.DecodeRuneInString(c.in[c.pos:])
			if r == utf8.RuneError && size == 1 {
				return "", false // not UTF-8
			}
			if escaped && wantText {
				text = append(text, c.in[c.pos:c.pos+size]...)
			}
			at := c.pos
			c.pos += size
			if r == '\u2028' || r == '\u2029' || r < utf8.RuneSelf {
				var buf [6]byte
				c.rewrite(at, appendRune(buf[:0], r)) // escaped by Marshal
			}
		}
	}
}

// Masks of SWAR tests on 8 bytes at a time.
const (
	lsbs = 0x0101010101010101 // the lowest bit of each byte
	msbs = 0x8080808080808080 // the highest bit of each byte
)

// plainRun returns the length of the run of bytes at the start of s that
// are not special, reading 8 bytes at a time.
func plainRun(s string) int {
	i := 0
	for ; i+8 <= len(s); i += 8 {
		if m := specialBytes(le64(s[i:])); m != 0 {
			return i + bits.TrailingZeros64(m)/8
		}
	}
	for ; i < len(s); i++ {
		if special[s[i]] {
			return i
		}
	}
	return len(s)
}

// specialBytes returns the high bit of each of the 8 bytes of w (little
// endian) that may be special: a byte below 0x20, one from 0x80, or one of
// " & < > \\. The lowest bit set is exact, the first special byte: each
// test's borrow only ever flags a byte above one it flagged already. " and
// & differ in one bit, as < and > do, so setting it tests for both at
// once.
func specialBytes(w uint64) uint64 {
	quoteAmp := (w | 0x04*lsbs) ^ 0x26*lsbs // zero where w has " (0x22) or & (0x26)
	angle := (w | 0x02*lsbs) ^ 0x3e*lsbs    // zero where w has < (0x3c) or > (0x3e)
	backslash := w ^ 0x5c*lsbs              // zero where w has \\
	m := w | (w - 0x20*lsbs) |              // from 0x80, or below 0x20 (which borrows)
		(quoteAmp-lsbs)&^quoteAmp | (angle-lsbs)&^angle | (backslash-lsbs)&^backslash
	return m & msbs
}

// special marks the bytes of a JSON string that str cannot copy as they
// are: the closing quote, escapes, control characters (invalid unescaped),
// what Marshal escapes (<, >, &), and every byte from 0x80, which starts a
// rune to check (it must be UTF-8; Marshal escapes U+2028 and U+2029).
var special = func() (t [256]bool) {
	for b := range 0x20 {
		t[b] = true
	}
	for b := 0x80; b < 0x100; b++ {
		t[b] = true
	}
	for _, b := range []byte{'"', '\\', '<', '>', '&'} {
		t[b] = true
	}
	return t
}()

// escape decodes the escape sequence at pos, joining a surrogate pair, and
// reports false for an invalid escape or a lone surrogate.
func (c *canonicalizer) escape() (rune, bool) {
	if c.pos+1 >= len(c.in) {
		return 0, false
	}
	e := c.in[c.pos+1]
	c.pos += 2
	switch e {
	case '"', '\\', '/':
		return rune(e), true
	case 'b':
		return '\b', true
	case 'f':
		return '\f', true
	case 'n':
		return '\n', true
	case 'r':
		return '\r', true
	case 't':
		return '\t', true
	case 'u':
	default:
		return 0, false
	}
	r, ok := c.hex4()
	switch {
	case !ok:
		return 0, false
	case r < 0xd800 || r > 0xdfff:
		return r, true
	case r >= 0xdc00 || !strings.HasPrefix(c.in[c.pos:], `\u`):
		return 0, false // a low surrogate first, or a high one alone
	}
	c.pos += 2
	lo, ok := c.hex4()
	if !ok || lo < 0xdc00 || lo > 0xdfff {
		return 0, false
	}
	return 0x10000 + (r-0xd800)<<10 + (lo - 0xdc00), true
}

func (c *canonicalizer) hex4() (rune, bool) {
	digits := c.in[c.pos:min(c.pos+4, len(c.in))]
	if len(digits) != 4 {
		return 0, false
	}
	var r rune
	for _, b := range []byte(digits) {
		var d byte
		switch {
		case '0' <= b && b <= '9':
			d = b - '0'
		case 'a' <= b && b <= 'f':
			d = b - 'a' + 10
		case 'A' <= b && b <= 'F':
			d = b - 'A' + 10
		default:
			return 0, false
		}
		r = r<<4 | rune(d)
	}
	c.pos += 4
	return r, true
}

// appendRune appends r as encoding/json's Marshal writes it inside a
// string: quotes, backslashes, control characters, <, > and &, U+2028 and
// U+2029 escaped, everything else as UTF-8.
func appendRune(dst []byte, r rune) []byte {
	const hex = "0123456789abcdef"
	switch r {
	case '"', '\\':
		return append(dst, '\\', byte(r))
	case '\b':
		return append(dst, '\\', 'b')
	case '\f':
		return append(dst, '\\', 'f')
	case '\n':
		return append(dst, '\\', 'n')
	case '\r':
		return append(dst, '\\', 'r')
	case '\t':
		return append(dst, '\\', 't')
	case '<', '>', '&':
		return append(dst, '\\', 'u', '0', '0', hex[r>>4], hex[r&0xf])
	case '\u2028', '\u2029':
		return append(dst, '\\', 'u', '2', '0', '2', hex[r&0xf])
	}
	if r < 0x20 {
		return append(dst, '\\', 'u', '0', '0', hex[r>>4], hex[r&0xf])
	}
	if r < utf8.RuneSelf {
		return append(dst, byte(r))
	}
	return utf8.AppendRune(dst, r)
}

// canonicalizers recycles canonicalizers and their buffers.
var canonicalizers = sync.Pool{New: func() any { return new(canonicalizer) }}

// release returns c to the pool, unless it holds more than 1 MiB, which is
// left to the garbage collector rather than kept.
func (c *canonicalizer) release() {
	if !c.small() {
		return
	}
	c.in = ""
	clear(c.members[:cap(c.members)]) // their keys point into the input
	canonicalizers.Put(c)
}

// small reports whether c's buffers take 1 MiB at most, so that c may go
// back to the pool.
func (c *canonicalizer) small() bool { return cap(c.out)+cap(c.scratch) <= 1<<20 }
