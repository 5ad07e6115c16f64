package taxonomy

import (
	"strconv"
	"strings"
)

// A reading is what one scan of an error's text finds beyond the status:
// the names of failures the text writes (exception classes, error types
// and codes, status names), what its clauses say in words, and an
// operating system's error number. Classify weighs it with the rest of
// the evidence (see decide); the scan runs once, on the first need.
type reading struct {
	names     findings // names that mean something, in the order of the text
	clues     findings // clauses that mean something, in the order of the text
	overflow  finding  // the first clause that says the request is over a size limit
	param     finding  // the first clause that says a parameter, option, flag or credential is refused
	errno     finding  // the first OS error number the text gives
	namesRead int      // names looked up, bounded by maxNames
}

// findings holds up to maxFindings findings, in the order found.
type findings struct {
	list [maxFindings]finding
	n    int
}

// add keeps f if there is room.
func (fs *findings) add(f finding) {
	if fs.n < len(fs.list) {
		fs.list[fs.n] = f
		fs.n++
	}
}

func (fs *findings) full() bool     { return fs.n == len(fs.list) }
func (fs *findings) all() []finding { return fs.list[:fs.n] }

// A finding is one piece of evidence the reader found: the rule that
// names it and what it means. The zero finding is none.
type finding struct {
	rule  string
	means meaning
}

func (f finding) found() bool { return f.rule != "" }

func (f finding) class() Class {
	return Class{Kind: f.means.kind, Rule: f.rule, ModelMissing: f.means.missing, AccountFailure: f.means.account}
}

const (
	// maxFindings bounds the names and the clues kept of one text.
	maxFindings = 8
	// maxNames bounds the names looked up in one text: a page of
	// CamelCase costs what its first names cost.
	maxNames = 24
)

// read scans text, the error's text as written (its case tells names
// apart), at most maxText of it. lower is text lowercased, which holds the
// same words at the same places when aligned is set (an ASCII text).
func (r *reading) read(text, lower string, aligned bool) {
	text = text[:min(len(text), maxText)]
	var cs concepts
	var low [64]byte
	nonASCII := false
	for i := 0; i < len(text); {
		c := text[i]
		if cl := byteClass[c]; cl&bName == 0 {
			if cl&bMark == 0 {
				i++ // a space, most of the time
				continue
			}
			switch {
			case c == ':' && strings.HasPrefix(text[i+1:], "//"):
				// A URL's words are no words of the message; the URL itself
				// is an endpoint ("https://.../chat/completions not found").
				i = skipURL(text, i)
				cs.add("url", cWhere)
				continue
			case c >= 0x80:
				nonASCII = true
			case byteClass[c]&bEnds != 0 && endsClause(text, i):
				r.endClause(&cs)
			}
			i++
			continue
		}
		// A word: its shape says whether it is written as a name.
		j := i
		var seen byte // the classes of its bytes
		hump, joined := false, false
		for j < len(text) {
			b := byteClass[text[j]]
			if b&bName == 0 {
				break
			}
			if b&(bUpper|bUnder) != 0 {
				switch {
				case b&bUpper != 0 && seen&bLower != 0 && byteClass[text[j-1]]&bLower != 0:
					hump = true
				case b&bUpper != 0 && j > i && byteClass[text[j-1]]&bUpper != 0 && j+1 < len(text) && byteClass[text[j+1]]&bLower != 0:
					// An acronym before a word: "EOFException", "IOError",
					// "SSLError".
					hump = true
				case b&bUnder != 0 && j > i && j+1 < len(text) && byteClass[text[j-1]]&bLetter != 0 && byteClass[text[j+1]]&bLetter != 0:
					joined = true
				}
			}
			seen |= b
			j++
		}
		run := text[i:j]
		switch {
		case seen&bLetter == 0:
			if seen&bDigit != 0 {
				cs.digits = true
			}
		case i > 0 && (text[i-1] == '"' || text[i-1] == '\'') && isKey(text, i, j):
			// A JSON member's name ("param", "message", "type") is no
			// word of the message.
		default:
			var w string
			if aligned {
				w = lower[i:j]
			} else {
				w = string(lowerInto(low[:0], run)) // a word longer than low has room for moves to the heap
			}
			name := hump || joined || seen&bLower == 0 && len(run) >= 7
			quoted := ""
			end := j
			if i > 0 && (text[i-1] == '-' || text[i-1] == '`') {
				quoted, end = identifierAt(text, i, j)
			}
			if quoted != "" {
				// A flag ("--jinja") or an identifier in backquotes
				// ("`truncate`"): a parameter of the request by name.
				c, ok := sense(w)
				if !ok {
					r.word(&cs, w, text, j) // "`max_model_len`": its parts too
				}
				cs.add(quoted, c|cPart|cParam)
				i = end
				continue
			}
			if !name || joined {
				// Words joined by underscores are a word of their own
				// ("max_new_tokens") or their parts.
				if c, ok := sense(w); ok {
					cs.add(w, c)
				} else {
					r.word(&cs, w, text, j)
				}
			}
			if name && r.namesRead < maxNames {
				r.namesRead++
				// The words of a CamelCase name are words of its clause
				// too: "SyntaxError" is a parser's, "InvalidRequestException"
				// a request at fault.
				into := &cs
				if joined {
					into = nil
				}
				if m, decided, ok := nameMeaning(run, w, into); ok {
					r.names.add(finding{`name "` + run + `" (` + decided + `)`, m})
				}
				if !r.errno.found() && w == "winerror" {
					r.errno, _ = errnoAfter(text[j:])
				}
			}
		}
		i = j
	}
	r.endClause(&cs)
	if nonASCII {
		r.readCJK(text)
	}
}

// The classes of bytes the reader tells apart, one table lookup a byte.
const (
	bName   = 1 << iota // a byte of a word: a letter, a digit, an underscore
	bLetter             // a letter
	bUpper              // an uppercase letter
	bLower              // a lowercase letter
	bDigit              // a digit
	bUnder              // an underscore
	bEnds               // a byte that may end a clause (see endsClause)
	bMark               // a byte the reader looks at when no word holds it: bEnds, ':' and beyond ASCII
)

var byteClass = func() (t [256]byte) {
	for c := 0; c < 256; c++ {
		switch {
		case c >= 'a' && c <= 'z':
			t[c] = bName | bLetter | bLower
		case c >= 'A' && c <= 'Z':
			t[c] = bName | bLetter | bUpper
		case c >= '0' && c <= '9':
			t[c] = bName | bDigit
		case c == '_':
			t[c] = bName | bUnder
		case c >= 0x80:
			t[c] = bMark
		}
	}
	for _, c := range "\n;!?{}.\"'" {
		t[c] |= bEnds | bMark
	}
	t[':'] |= bMark
	return t
}()

// word adds the word w (lowercase), which is no sense, to the clause; at
// is where it ends in text.
func (r *reading) word(cs *concepts, w string, text string, at int) {
	if strings.Contains(w, "_") {
		// "prompt_tokens", "max_seq_len", "invalid_request_error": its parts.
		for part := range strings.SplitSeq(w, "_") {
			if c, ok := sense(part); ok {
				cs.add(part, c)
			}
		}
	} else {
		cs.add("", 0)
	}
	if !r.errno.found() && (w == "errno" || w == "winerror") {
		r.errno, _ = errnoAfter(text[at:])
	}
}

// identifierAt returns the flag or the backquoted identifier that the word
// at text[i:j] opens, or "", and where it ends: a command-line flag
// ("--enable-auto-tool-choice", "--jinja", its words joined by hyphens) or
// a name in backquotes, as Rust, Markdown and Python's servers quote a
// parameter ("`truncate` must be strictly positive", "missing field
// `status`").
func identifierAt(text string, i, j int) (string, int) {
	switch {
	case i >= 2 && text[i-1] == '-' && text[i-2] == '-' && (i == 2 || !isNameByte(text[i-3]) && text[i-3] != '-'):
		for j < len(text) && (isNameByte(text[j]) || text[j] == '-' && j+1 < len(text) && isNameByte(text[j+1])) {
			j++
		}
		return text[i-2 : j], j
	case text[i-1] == '`' && j < len(text) && text[j] == '`':
		return text[i-1 : j+1], j + 1
	}
	return "", j
}

// skipURL returns where the URL whose "://" is at i ends.
func skipURL(text string, i int) int {
	for i < len(text) && !strings.ContainsRune(" \t\n\"'<>()[]{}`", rune(text[i])) {
		i++
	}
	return i
}

// endClause reads what the clause's concepts mean and starts the next.
func (r *reading) endClause(cs *concepts) {
	if cs.set != 0 {
		if !r.overflow.found() && cs.overflow() {
			r.overflow = finding{`words "` + cs.sizeWord + ` … ` + cs.limitWord + `"`, mean(ContextOverflow)}
		}
		if !r.param.found() {
			switch {
			case cs.paramFault():
				r.param = finding{`words "` + cs.faultWord + ` … ` + cs.partWord + `"`, mean(Permanent)}
			case cs.credentialRefused():
				// A key not set or refused, which a proxy or a local
				// server reports with a 5xx as readily: no retry sets it.
				r.param = finding{`words "credential refused"`, mean(Permanent).accountFailure()}
			}
		}
		if c, ok := cs.clue(); ok {
			r.clues.add(finding{`words "` + c.words + `"`, c.means})
		}
	}
	*cs = concepts{}
}

// best returns the finding of the lowest rank: the most specific
// meaning. Among equals it returns the last when last is set (the names
// of a chain of errors, whose innermost cause is written last), else the
// first (the clauses of a message, whose first says what failed).
func best(fs []finding, last bool) (finding, bool) {
	if len(fs) == 0 {
		return finding{}, false
	}
	b := fs[0]
	for _, f := range fs[1:] {
		if f.means.rank < b.means.rank || last && f.means.rank == b.means.rank {
			b = f
		}
	}
	return b, true
}

func isNameByte(c byte) bool { return byteClass[c]&bName != 0 }

// lowerInto appends s, lowercased, to dst.
func lowerInto(dst []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if isUpper(c) {
			c += 'a' - 'A'
		}
		dst = append(dst, c)
	}
	return dst
}

// endsClause reports whether the byte at i ends a clause: the end of a
// line or a sentence, or of a JSON value, so that the words of one message
// are not read with another's.
func endsClause(text string, i int) bool {
	switch text[i] {
	case '\n', ';', '!', '?', '{', '}':
		return true
	case '.':
		// A full stop, not the dot of a name, a number or a host.
		return i+1 == len(text) || !isNameByte(text[i+1])
	case '"', '\'':
		// The quote that closes a value: `..."," or `..."}`.
		return i+1 < len(text) && (text[i+1] == ',' || text[i+1] == '}')
	}
	return false
}

// isKey reports whether the word at text[i:j] is the name of a JSON or
// Python dict member: quoted and followed by a colon.
func isKey(text string, i, j int) bool {
	if i == 0 || j >= len(text) {
		return false
	}
	q := text[i-1]
	if q != '"' && q != '\'' || text[j] != q {
		return false
	}
	rest := strings.TrimLeft(text[j+1:min(len(text), j+4)], " ")
	return strings.HasPrefix(rest, ":")
}

// structuredName reports whether a word is written as a name rather than
// a word of prose: CamelCase with a hump inside ("BadRequest",
// "InvalidParameter", "APIConnectionError"), words joined by underscores
// ("invalid_request_error", "RESOURCE_EXHAUSTED"), or a long word in
// capitals ("UNAVAILABLE", "UNAUTHENTICATED").
func structuredName(w string) bool {
	upper, lower := 0, 0
	for i := 0; i < len(w); i++ {
		c := w[i]
		switch {
		case c == '_':
			if i > 0 && i+1 < len(w) && !isDigit(w[i-1]) && !isDigit(w[i+1]) {
				return true
			}
		case isUpper(c):
			if i > 0 && isLower(w[i-1]) {
				return true // a hump
			}
			upper++
		case isLower(c):
			lower++
		}
	}
	return lower == 0 && upper >= 7
}

// errnoAfter reads the OS error number after "errno" or "WinError": "errno
// = 104", "[Errno 104]", "errno: 111", "[WinError 10054]".
func errnoAfter(s string) (finding, bool) {
	s = strings.TrimLeft(s[:min(len(s), 8)], " =:")
	end := 0
	for end < len(s) && isDigit(s[end]) {
		end++
	}
	n, err := strconv.Atoi(s[:end])
	if err != nil {
		return finding{}, false
	}
	e, ok := errnos[n]
	if !ok {
		return finding{}, false
	}
	return finding{`errno ` + s[:end] + ` (` + e + `)`, mean(Transient)}, true
}

// errnos are the OS error numbers of a connection that failed in
// transit, on Linux, on the BSDs and macOS, and in Winsock: texts
// localised into the user's language keep them ("Connection reset by peer
// (OS Error: ..., errno = 104)" from Dart, "[WinError 10054]" from
// Python on Windows), and the next attempt may find the route or the peer
// again.
var errnos = map[int]string{
	104: "ECONNRESET", 54: "ECONNRESET", 10054: "WSAECONNRESET",
	111: "ECONNREFUSED", 61: "ECONNREFUSED", 10061: "WSAECONNREFUSED",
	110: "ETIMEDOUT", 60: "ETIMEDOUT", 10060: "WSAETIMEDOUT",
	103: "ECONNABORTED", 53: "ECONNABORTED", 10053: "WSAECONNABORTED",
	101: "ENETUNREACH", 51: "ENETUNREACH", 10051: "WSAENETUNREACH",
	113: "EHOSTUNREACH", 65: "EHOSTUNREACH", 10065: "WSAEHOSTUNREACH",
	// A local address or port used up: the ports free themselves as the
	// connections before them close ("[WinError 10048] 通常每个套接字地址
	// ... 只允许使用一次", Windows' WSAEADDRINUSE in Chinese).
	98: "EADDRINUSE", 48: "EADDRINUSE", 10048: "WSAEADDRINUSE",
	99: "EADDRNOTAVAIL", 49: "EADDRNOTAVAIL", 10049: "WSAEADDRNOTAVAIL",
	32: "EPIPE",
}

// A cjkClue is a phrase in Chinese and what it means when the text holds
// it with one of its companions (or alone, without companions).
type cjkClue struct {
	phrase     string
	companions []string
	means      meaning
	rule       string
	sources    string
}

// cjkClues are read by substring, since Chinese writes no spaces between
// words: a parameter that is wrong, a value that must not be empty, a cap
// of usage or frequency reached, a connection the remote host closed.
var cjkClues = []cjkClue{
	{"参数", []string{"有误", "非法", "错误", "无效", "缺失", "不合法"}, mean(Permanent), `words "参数 … 有误/非法/错误"`,
		`Zhipu 1210 "API 调用参数有误" (parameter wrong); Zhipu 1214 "messages 参数非法" (parameter illegal); Tencent Cloud "参数错误" (parameter error)`},
	{"不能为空", nil, mean(Permanent), `words "不能为空"`,
		`Zhipu 1214 "输入不能为空" (input cannot be empty); Baidu Qianfan "messages不能为空"`},
	{"上限", []string{"频率", "使用", "调用", "请求", "次数"}, mean(RateLimited), `words "上限"`,
		`Tencent Cloud RequestLimitExceeded "超过了每秒频率上限" (over the per-second cap); Zhipu 1308 "已达到 5 小时的使用上限" (5-hour usage cap reached)`},
	{"负载", []string{"饱和", "过高", "过载"}, mean(Overloaded), `words "负载 … 饱和"`,
		`one-api and new-api relays "当前分组上游负载已饱和，请稍后再试" (the upstream's load is saturated, try later), sent for an upstream's 429; midjourney-proxy relays "当前分组负载已饱和，请稍后再试" for Midjourney's code 30`},
	{"强迫关闭", nil, mean(Transient), `words "强迫关闭"`,
		`Windows WSAECONNRESET in Chinese, "远程主机强迫关闭了一个现有的连接" (the remote host forcibly closed an existing connection), through Python ConnectionResetError; the same through Java's java.io.IOException (Netty)`},
}

// readCJK reads the Chinese clues of a text.
func (r *reading) readCJK(text string) {
	for _, c := range cjkClues {
		if r.clues.full() {
			return
		}
		if !strings.Contains(text, c.phrase) {
			continue
		}
		found := len(c.companions) == 0
		for _, w := range c.companions {
			found = found || strings.Contains(text, w)
		}
		if found {
			r.clues.add(finding{c.rule, c.means})
		}
	}
}

// memberKeys are the members of an error body that hold its type or code,
// read by nameMeaning: each provider names them its own way.
var memberKeys = lits(
	`"type"`, `"code"`, `"error_code"`, `"errorCode"`, `"error_type"`, `"errorType"`, `"__type"`, `"status"`, `"reason"`,
	`'type'`, `'code'`, `'error_code'`, `'error_type'`, `'status'`, `'reason'`,
)

// memberName finds the most specific meaning among the types and codes
// of a body pasted into the text ("code": "InvalidParameter", 'type':
// 'Bad Request', "error_type": "Validation", "code": "Throttling.RateQuota").
// Dotted codes are read segment by segment.
func memberName(t *lowered) (finding, bool) {
	var fs [maxFindings]finding
	found := fs[:0]
	var buf [maxMembers]string
	for _, value := range memberValues(t, t.text, memberKeys, buf[:0]) {
		if len(value) > 64 || len(found) == len(fs) {
			continue
		}
		for segment := range strings.SplitSeq(value, ".") {
			if m, decided, ok := nameMeaning(segment, strings.ToLower(segment), nil); ok && len(found) < len(fs) {
				found = append(found, finding{`type "` + value + `" (` + decided + `)`, m})
			}
		}
	}
	return best(found, true)
}
