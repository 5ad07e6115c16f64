package redact

import "strings"

// url finds the password of a URL, scheme://user:password@host, for any
// scheme (postgres, redis, amqp, https, ...); p is where "://" is. The
// other detectors still read the URL.
func url(t *text, p int) int {
	s := t.s
	if p == 0 || !isLower(t.lower[p-1]) && !isDigit(s[p-1]) {
		return -1
	}
	if start, end, ok := urlPassword(s, p+3, t.urlEnd(p+3)); ok {
		t.add(start, end)
	}
	return -1 // the user may be a token (https://ghp_...:x-oauth-basic@github.com)
}

// dsn finds the password of Go's MySQL DSN, user:password@tcp(host)/db;
// at is where "@tcp(" or "@unix(" is.
func dsn(t *text, at int) int {
	s := t.s
	start := at
	for start > 0 && at-start < maxURL && !isURLEnd(s[start-1]) {
		start--
	}
	tok := s[start:at]
	if k := strings.Index(tok, "://"); k >= 0 {
		start, tok = start+k+3, tok[k+3:]
	}
	colon := strings.IndexByte(tok, ':')
	if colon < 0 {
		return -1
	}
	t.add(start+colon+1, at)
	return at
}

// urlEnd returns the end of the URL that starts at s[i], or the bound of
// its length. The URLs of one text are looked at in order: what a look
// found is kept, so that no byte is read twice however many URLs start
// within one.
func (t *text) urlEnd(i int) int {
	limit := min(len(t.s), i+maxURL)
	if t.urlStop >= i {
		return min(t.urlStop, limit) // the first end after an earlier start
	}
	j := max(i, t.urlClean)
	for j < limit && !isURLEnd(t.s[j]) {
		j++
	}
	if j < limit || j == len(t.s) {
		t.urlStop = j
	} else {
		t.urlClean = j
	}
	return j
}

// isURLEnd reports whether c ends a URL written in a text.
func isURLEnd(c byte) bool {
	switch c {
	case ' ', '\t', '\n', '\r', '\f', '\v', '"', '\'', '`', '<', '>', '\\':
		return true
	}
	return false
}

// urlPassword finds the password of a URL whose authority starts at s[i]
// (after "://") and that ends at s[end]. A password written as the URL standard says, with / ? #
// percent-encoded, ends at the last @ of the authority; one written as
// typed, holding / ? # (https://user:pa/ss@host), ends at the first @ after
// them that a host follows. A number before the first / is a port
// (http://host:8080/users/bob@example.com has no password).
func urlPassword(s string, i, end int) (start, stop int, ok bool) {
	tok := s[i:end]
	if strings.IndexByte(tok, '@') < 0 {
		return 0, 0, false
	}
	colon := strings.IndexAny(tok, ":/?#@[")
	if colon < 0 || tok[colon] != ':' {
		return 0, 0, false
	}
	pw := colon + 1
	if strings.HasPrefix(tok[pw:], Redacted+"@") {
		return i + pw, i + pw + len(Redacted), true // redacted already
	}
	authority := len(tok)
	if k := strings.IndexAny(tok[pw:], "/?#"); k >= 0 {
		authority = pw + k
	}
	rfc := strings.LastIndexByte(tok[pw:authority], '@') // where a standard password ends, -1 if none
	standard := func() (int, int, bool) { return i + pw, i + pw + rfc, rfc > 0 }
	if authority == len(tok) || rfc < 0 && isPort(tok[pw:authority]) {
		return standard()
	}
	for k := authority; ; {
		at := strings.IndexByte(tok[k:], '@')
		if at < 0 {
			break
		}
		at += k
		if hostFollows(tok, at+1) {
			// Past a standard password, what follows the authority is
			// one more piece of the password only if it holds no path
			// nor query of its own (user:p@ss#1@rabbit, not
			// user:pw@host/x?email=a@example.com).
			if rfc < 0 || !strings.ContainsAny(tok[authority+1:at], "/?#=&") {
				return i + pw, i + at, true
			}
			break
		}
		k = at + 1
	}
	return standard()
}

// isPort reports whether s is a port number.
func isPort(s string) bool {
	if len(s) == 0 || len(s) > 5 {
		return false
	}
	for k := range len(s) {
		if !isDigit(s[k]) {
			return false
		}
	}
	return true
}

// hostFollows reports whether a host name, or an IPv6 address in brackets,
// starts at tok[i] and ends at the end of tok or at : / ? #.
func hostFollows(tok string, i int) bool {
	j := i
	if j < len(tok) && tok[j] == '[' {
		k := strings.IndexByte(tok[j:], ']')
		if k < 0 {
			return false
		}
		j += k + 1
	} else {
		for j < len(tok) && (isWordByte(tok[j]) || tok[j] == '.' || tok[j] == '-') {
			j++
		}
		if j == i {
			return false
		}
	}
	return j == len(tok) || strings.IndexByte(":/?#", tok[j]) >= 0
}
