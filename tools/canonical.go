package tools

import (
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
// The result is valid until the next use of c.
func (c *canonicalizer) canonicalJSON(input string) ([]byte, bool) {
	if !utf8.ValidString(input) {
		return nil, false
	}
	c.in, c.pos, c.out = input, 0, slices.Grow(c.out[:0], len(input))
	c.space()
	if !c.value(0) {
		return nil, false
	}
	c.space()
	if c.pos != len(c.in) {
		return nil, false // trailing bytes after the value
	}
	return c.out, true
}

// maxDepth bounds the nesting of canonicalized inputs; deeper ones are
// keyed by their bytes.
const maxDepth = 512

type canonicalizer struct {
	in      string
	pos     int
	out     []byte
	members []member // a stack shared by the objects being read
	scratch []byte   // where an object is copied to be reordered
}

// member is one member of an object being read: its decoded key and where
// `"key":value` was written in out.
type member struct {
	key        string
	start, end int
}

func (c *canonicalizer) space() {
	for c.pos < len(c.in) {
		switch c.in[c.pos] {
		case ' ', '\t', '\n', '\r':
			c.pos++
		default:
			return
		}
	}
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
			c.out = append(c.out, lit...)
			c.pos += len(lit)
			return true
		}
	}
	return false
}

func (c *canonicalizer) array(depth int) bool {
	if c.open('[', ']') {
		return true
	}
	for {
		c.space()
		if !c.value(depth + 1) {
			return false
		}
		more, ok := c.next(']')
		switch {
		case !ok:
			return false
		case !more:
			c.out = append(c.out, ']')
			return true
		}
	}
}

func (c *canonicalizer) object(depth int) bool {
	if c.open('{', '}') {
		return true
	}
	base := len(c.members)
	defer func() { c.members = c.members[:base] }()
	body := len(c.out)
	sorted := true
	for more := true; more; {
		c.space()
		if c.pos >= len(c.in) || c.in[c.pos] != '"' {
			return false
		}
		start := len(c.out)
		key, ok := c.str(true)
		if !ok {
			return false
		}
		c.space()
		if c.pos >= len(c.in) || c.in[c.pos] != ':' {
			return false
		}
		c.pos++
		c.out = append(c.out, ':')
		c.space()
		if !c.value(depth + 1) {
			return false
		}
		if n := len(c.members); n > base && c.members[n-1].key >= key {
			sorted = false
		}
		c.members = append(c.members, member{key: key, start: start, end: len(c.out)})
		if more, ok = c.next('}'); !ok {
			return false
		}
	}
	if !sorted && !c.reorder(c.members[base:], body) {
		return false
	}
	c.out = append(c.out, '}')
	return true
}

// open reads the opening bracket at pos and reports whether the container
// is empty, reading its closing bracket too.
func (c *canonicalizer) open(opening, closing byte) bool {
	c.pos++
	c.out = append(c.out, opening)
	c.space()
	if c.pos < len(c.in) && c.in[c.pos] == closing {
		c.pos++
		c.out = append(c.out, closing)
		return true
	}
	return false
}

// next reads what follows an element or member: a comma (more), or the
// closing bracket, which the caller writes; ok is false for anything else.
func (c *canonicalizer) next(closing byte) (more, ok bool) {
	c.space()
	if c.pos >= len(c.in) {
		return false, false
	}
	switch c.in[c.pos] {
	case ',':
		c.pos++
		c.out = append(c.out, ',')
		return true, true
	case closing:
		c.pos++
		return false, true
	}
	return false, false
}

// reorder rewrites the members written from body on in the order of their
// keys, and reports false when two keys are the same: the decoders keep one
// of them, so such an object is not canonicalized.
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

// number copies a number as written, after checking it against JSON's
// grammar: -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
func (c *canonicalizer) number() bool {
	start := c.pos
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
	c.out = append(c.out, c.in[start:c.pos]...)
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

// str reads a string at pos, writes its canonical encoding and returns its
// decoded text when wantText (a key); the text is a slice of the input
// when the string has no escapes.
func (c *canonicalizer) str(wantText bool) (string, bool) {
	c.pos++ // '"'
	start := c.pos
	var text []byte // the decoded text, once an escape is met
	escaped := false
	c.out = append(c.out, '"')
	for {
		// Copy the run of bytes that are written as they are.
		run := c.pos
		c.pos += plainRun(c.in[c.pos:])
		c.out = append(c.out, c.in[run:c.pos]...)
		if escaped && wantText {
			text = append(text, c.in[run:c.pos]...)
		}
		if c.pos >= len(c.in) {
			return "", false // no closing quote
		}
		switch b := c.in[c.pos]; {
		case b == '"':
			c.pos++
			c.out = append(c.out, '"')
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
			r, ok := c.escape()
			if !ok {
				return "", false
			}
			if wantText {
				text = utf8.AppendRune(text, r)
			}
			c.out = appendRune(c.out, r)
		default: // <, >, & or a rune starting with 0xe2, such as U+2028
			r, size := utf8.DecodeRuneInString(c.in[c.pos:])
			if escaped && wantText {
				text = append(text, c.in[c.pos:c.pos+size]...)
			}
			c.out = appendRune(c.out, r)
			c.pos += size
		}
	}
}

// plainRun returns the length of the run of bytes at the start of s that
// are not special.
func plainRun(s string) int {
	for i := range len(s) {
		if special[s[i]] {
			return i
		}
	}
	return len(s)
}

// special marks the bytes of a JSON string that str cannot copy as they
// are: the closing quote, escapes, control characters (invalid unescaped),
// what Marshal escapes (<, >, &), and 0xe2, which starts U+2028 and U+2029
// (Marshal escapes them too). Input is valid UTF-8, so any other byte is
// copied.
var special = func() (t [256]bool) {
	for b := range 0x20 {
		t[b] = true
	}
	for _, b := range []byte{'"', '\\', '<', '>', '&', 0xe2} {
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
