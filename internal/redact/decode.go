package redact

import (
	"sort"
	"strings"
	"unicode/utf8"
)

// A decoder undoes one encoding that hides a secret's shape from the rules:
// the backslash escapes of a string inside a string (JSON in a JSON string,
// Go's %q), percent-encoding (URLs, form bodies) and HTML character
// references (error pages). The rules run on the decoded text too, and what
// they find there is replaced in the original.
type decoder struct {
	applies func(s string) bool
	decode  func(s string) (string, []mark)
}

var decoders = []decoder{
	{escaped, unescape},
	{percentEncoded, percentDecode},
	{htmlEncoded, htmlDecode},
}

// A mark says that the decoded text from offset decoded on comes from the
// original from offset original on, byte for byte until the next mark:
// there is one after each escape. (Offsets fit in 32 bits: texts longer
// than that are not decoded.)
type mark struct{ decoded, original int32 }

// layer maps the offsets of a decoded text to those of the text it was
// decoded from, and through outer to the original.
type layer struct {
	marks []mark
	outer *layer
}

// original returns the offset in the original text of offset i of the
// decoded one: an offset inside an escape maps to the escape's start.
func (l *layer) original(i int) int {
	for ; l != nil; l = l.outer {
		k := sort.Search(len(l.marks), func(k int) bool { return int(l.marks[k].decoded) > i }) - 1
		if k >= 0 {
			i = int(l.marks[k].original) + i - int(l.marks[k].decoded)
		}
	}
	return i
}

// decoding builds a decoded text and its marks.
type decoding struct {
	out   []byte
	marks []mark
}

// escape appends what the escape that ends at s[next] decodes to. An
// offset within what it decodes to maps to within the escape (the offsets
// before it map one for one).
func (d *decoding) escape(next int, decoded ...byte) {
	d.out = append(d.out, decoded...)
	d.marks = append(d.marks, mark{int32(len(d.out)), int32(next)})
}

// rune appends the UTF-8 of r, which the escape that ends at s[next]
// decodes to.
func (d *decoding) rune(next int, r rune) {
	var b [utf8.UTFMax]byte
	d.escape(next, b[:utf8.EncodeRune(b[:], r)]...)
}

func (d *decoding) result() (string, []mark) { return string(d.out), d.marks }

// escaped reports whether s holds a backslash escape of a quote, a slash or
// a backslash, or a \u or \x escape.
func escaped(s string) bool {
	return holds(s, '\\', func(i int) bool { return i+1 < len(s) && strings.IndexByte(`"'\/ux`, s[i+1]) >= 0 })
}

// holds reports whether s holds the byte c at an index i for which escape
// reports true.
func holds(s string, c byte, escape func(i int) bool) bool {
	for i := 0; ; i++ {
		j := strings.IndexByte(s[i:], c)
		if j < 0 {
			return false
		}
		if i += j; escape(i) {
			return true
		}
	}
}

// unescape decodes the escapes of JSON, Go and most languages' string
// literals; a backslash before anything else is kept.
func unescape(s string) (string, []mark) {
	d := decoding{out: make([]byte, 0, len(s))}
	for i := 0; i < len(s); {
		if s[i] != '\\' || i+1 == len(s) {
			d.out = append(d.out, s[i])
			i++
			continue
		}
		switch c := s[i+1]; c {
		case '"', '\'', '\\', '/':
			d.escape(i+2, c)
		case 'n':
			d.escape(i+2, '\n')
		case 't':
			d.escape(i+2, '\t')
		case 'r':
			d.escape(i+2, '\r')
		case 'u', 'x': // \u0022 (JSON, Go), \x22 (Go, Python)
			width := 4
			if c == 'x' {
				width = 2
			}
			v, ok := hexValue(s, i+2, width)
			switch {
			case ok && c == 'u':
				d.rune(i+2+width, rune(v))
			case ok:
				d.escape(i+2+width, byte(v))
			default:
				d.out = append(d.out, s[i])
				i++
				continue
			}
		default:
			d.out = append(d.out, s[i])
			i++
			continue
		}
		i = int(d.marks[len(d.marks)-1].original)
	}
	return d.result()
}

// percentEncoded reports whether s holds a percent escape.
func percentEncoded(s string) bool {
	return holds(s, '%', func(i int) bool {
		_, ok := hexValue(s, i+1, 2)
		return ok
	})
}

// percentDecode decodes percent escapes, and + as a space, as forms
// encode it.
func percentDecode(s string) (string, []mark) {
	d := decoding{out: make([]byte, 0, len(s))}
	for i := 0; i < len(s); {
		switch b, ok := hexValue(s, i+1, 2); {
		case s[i] == '%' && ok:
			d.escape(i+3, byte(b))
			i += 3
		case s[i] == '+':
			d.escape(i+1, ' ')
			i++
		default:
			d.out = append(d.out, s[i])
			i++
		}
	}
	return d.result()
}

// htmlEncoded reports whether s holds a character reference of a quote or
// an ampersand, or a numeric one.
func htmlEncoded(s string) bool {
	return strings.Contains(s, "&quot;") || strings.Contains(s, "&#") || strings.Contains(s, "&apos;") ||
		strings.Contains(s, "&amp;")
}

var htmlEntities = map[string]byte{"quot": '"', "apos": '\'', "amp": '&', "lt": '<', "gt": '>'}

// htmlDecode decodes HTML's named references of quotes, ampersands and
// angle brackets, and numeric references.
func htmlDecode(s string) (string, []mark) {
	d := decoding{out: make([]byte, 0, len(s))}
	for i := 0; i < len(s); {
		if s[i] == '&' {
			if end := strings.IndexByte(s[i+1:min(len(s), i+10)], ';'); end > 0 {
				ref := s[i+1 : i+1+end]
				next := i + end + 2
				if c, ok := htmlEntities[ref]; ok {
					d.escape(next, c)
					i = next
					continue
				}
				if r, ok := numericRef(ref); ok {
					d.rune(next, r)
					i = next
					continue
				}
			}
		}
		d.out = append(d.out, s[i])
		i++
	}
	return d.result()
}

// numericRef decodes "#34" or "#x22".
func numericRef(ref string) (rune, bool) {
	if len(ref) < 2 || ref[0] != '#' {
		return 0, false
	}
	digits, base := ref[1:], 10
	if digits[0] == 'x' || digits[0] == 'X' {
		digits, base = digits[1:], 16
	}
	if digits == "" {
		return 0, false
	}
	r := 0
	for i := range len(digits) {
		v, ok := digit(digits[i])
		if !ok || v >= base {
			return 0, false
		}
		r = r*base + v
	}
	if r > utf8.MaxRune {
		return 0, false
	}
	return rune(r), true
}

// hexValue reads n hexadecimal digits at s[i:].
func hexValue(s string, i, n int) (int, bool) {
	if i < 0 || i+n > len(s) {
		return 0, false
	}
	v := 0
	for _, c := range []byte(s[i : i+n]) {
		d, ok := digit(c)
		if !ok || d >= 16 {
			return 0, false
		}
		v = v<<4 | d
	}
	return v, true
}

// digit returns the value of a decimal or hexadecimal digit.
func digit(c byte) (int, bool) {
	switch {
	case '0' <= c && c <= '9':
		return int(c - '0'), true
	case 'a' <= c && c <= 'f':
		return int(c-'a') + 10, true
	case 'A' <= c && c <= 'F':
		return int(c-'A') + 10, true
	}
	return 0, false
}
