package redact

import (
	"encoding/base64"
	"slices"
	"strings"
)

// A field is a value named as a secret: api_key=..., "password": "...",
// Authorization: Bearer ..., X-Api-Key:[...] (Go's print of an
// http.Header), <password>...</password>, --token ..., or the value of a
// name/value pair whose name is a secret's (- name: DB_PASSWORD / value:
// ...). Fields are found from the words their names hold.
var nameWords = []string{"pass", "pwd", "secret", "token", "key", "credential", "auth", "cookie", "sig"}

// fieldKind says what a name names, and so how its value is read.
type fieldKind uint8

const (
	notSecret   fieldKind = iota
	secretField           // password, api_key, ...: any value but a placeholder
	weakField             // auth: a value that looks like a credential
	authField             // Authorization: a scheme and its credentials
	cookieField           // Cookie: the whole header value
	queryField            // sig, signature, key: only as a query parameter
)

// name reads the field whose name holds a name word at s[i]: it records
// its value if the name is a secret's, and returns the end of the value,
// or of the name.
func name(t *text, i int) int {
	a, b := nameAround(t.s, i, i+1)
	if b-a > maxName {
		return b
	}
	if end := t.field(a, b); end > b {
		return end
	}
	return b
}

// isNameByte reports whether c can be part of a field's name.
func isNameByte(c byte) bool { return isWordByte(c) || c == '-' || c == '.' }

// nameAround returns the name that holds s[i:j].
func nameAround(s string, i, j int) (int, int) {
	for i > 0 && isNameByte(s[i-1]) {
		i--
	}
	for j < len(s) && isNameByte(s[j]) {
		j++
	}
	return i, j
}

// field reads the value of the field named s[a:b] when the name is a
// secret's, and returns the end of the value, or -1.
func (t *text) field(a, b int) int {
	s := t.s
	flag := false // --password value, as a command line writes it
	for a < b && (s[a] == '-' || s[a] == '.') {
		flag = flag || s[a] == '-'
		a++
	}
	for b > a && (s[b-1] == '-' || s[b-1] == '.') {
		b--
	}
	if a == b {
		return -1
	}
	k := t.kind(a, b)
	switch {
	case k == notSecret:
		return -1
	case k == queryField:
		if a == 0 || !strings.ContainsRune("?&;", rune(s[a-1])) || b == len(s) || s[b] != '=' {
			return -1
		}
		return t.value(b+1, k)
	case a > 0 && s[a-1] == '<' && b < len(s) && s[b] == '>': // <password>...</password>
		end := boundedIndex(s, b+1, "<", maxValue)
		if end < 0 {
			return -1
		}
		return t.emit(k, b+1, end)
	}
	if i, ok := assignment(s, b); ok {
		return t.value(i, k)
	}
	if i := skipBlanks(s, b); flag && i > b && i < len(s) && s[i] != '-' {
		return t.value(i, k)
	}
	return t.pair(a, b, k)
}

// assignment reads what comes between a field's name ending at s[i] and
// its value: a closing quote, if any, then : = := or =>, and returns where
// the value may start.
func assignment(s string, i int) (int, bool) {
	if i < len(s) && isQuote(s[i]) {
		i++
	}
	i = skipBlanks(s, i)
	switch {
	case strings.HasPrefix(s[i:], ":="), strings.HasPrefix(s[i:], "=>"):
		return i + 2, true
	case strings.HasPrefix(s[i:], "::"), strings.HasPrefix(s[i:], "=="):
		return 0, false
	case i < len(s) && (s[i] == ':' || s[i] == '='):
		return i + 1, true
	}
	return 0, false
}

// pairNames are the names under which a list of name/value pairs names its
// pairs: Kubernetes' env, HAR's headers, Postman's keys.
var pairNames = []string{"name", "key", "header", "param", "parameter", "variable"}

// pair records the value of a name/value pair whose name, s[a:b], is a
// secret's: the value of the first field called value within a few lines.
// It returns -1: what lies between the name and the value is not read.
func (t *text) pair(a, b int, k fieldKind) int {
	s := t.s
	i := a
	if i > 0 && isQuote(s[i-1]) {
		i--
	}
	i = skipBlanksBack(s, i)
	if i == 0 || s[i-1] != ':' && s[i-1] != '=' {
		return -1
	}
	i = skipBlanksBack(s, i-1)
	if i > 0 && isQuote(s[i-1]) {
		i--
	}
	ka := i
	for ka > 0 && isNameByte(s[ka-1]) {
		ka--
	}
	if !slices.Contains(pairNames, t.lower[ka:i]) {
		return -1
	}
	window := t.lower[b:min(len(s), b+256)]
	for off := 0; ; {
		v := strings.Index(window[off:], "value")
		if v < 0 {
			return -1
		}
		p := b + off + v
		off += v + len("value")
		if !startsWord(s, p) || p+5 < len(s) && isNameByte(s[p+5]) {
			continue
		}
		if i, ok := assignment(s, p+5); ok {
			t.value(i, k)
			return -1 // the fields between the name and its value are read too
		}
	}
}

// value reads the value of a field of kind k that starts at s[i], after
// blanks, and records it: a quoted string, a bracketed list (Go's print of
// a slice, an http.Header's values), or a run of characters that a value
// written bare holds. It returns the value's end, or -1 if it is none.
func (t *text) value(i int, k fieldKind) int {
	s := t.s
	j := skipBlanks(s, i)
	spaced := j > i
	if j == len(s) {
		return -1
	}
	if strings.HasPrefix(s[j:], Redacted) {
		return j + len(Redacted)
	}
	if strings.HasPrefix(s[j:], "[]string{") { // %#v of an http.Header
		if j += len("[]string{"); j == len(s) {
			return -1
		}
	}
	switch c := s[j]; {
	case (isQuote(c) || c == '[') && strings.HasPrefix(s[j+1:], Redacted):
		return j + 1 + len(Redacted)
	case c == '$' || c == '{':
		if end := template(s, j); end > 0 {
			return end // ${API_KEY}, {{ .Values.key }}: no secret
		}
	case isQuote(c):
		return t.emit(k, j+1, closingQuote(s, j+1, c))
	case c == '[':
		// A bracketed value holds no bracket of its own: "[Bearer [REDACTED]"
		// is a value already redacted, not a value to redact whole.
		if end := boundedIndex(s, j+1, "]", maxValue); end > 0 && !strings.ContainsAny(s[j+1:end], "\r\n[") {
			return t.emit(k, j+1, end)
		}
	}
	end := bare(s, j)
	if end == j {
		return -1
	}
	word := t.lower[j:end]
	switch k {
	case authField:
		return t.emit(k, j, t.credentials(j, end))
	case cookieField:
		return t.emit(k, j, lineEnd(s, j, `"'`))
	}
	if slices.Contains(tokenSchemes, word) {
		if next := bare(s, end+1); end < len(s) && s[end] == ' ' && next > end+1 {
			return t.emit(k, j, next) // api_key: Bearer ...
		}
	}
	if spaced && prose(s, j, end) || k == weakField && !credentialLike(s[j:end]) {
		return -1
	}
	return t.emit(k, j, end)
}

// emit records s[i:end], the value of a field of kind k, unless it is a
// placeholder, and returns end, or -1.
func (t *text) emit(k fieldKind, i, end int) int {
	if end <= i || placeholder(t.s[i:end], t.lower[i:end]) || k == weakField && !credentialLike(t.s[i:end]) {
		return -1
	}
	t.add(i, end)
	return end
}

// Authorization schemes: those followed by one credential, and those
// followed by parameters up to the end of the line.
var (
	tokenSchemes = []string{"bearer", "basic", "token", "apikey", "api-key", "key", "bot", "jwt", "sso-key",
		"ssws", "splunk", "geniekey", "dpop", "klaviyo-api-key", "zoho-oauthtoken"}
	paramSchemes = []string{"digest", "aws4-hmac-sha256", "oauth", "negotiate", "ntlm", "hoba", "mutual",
		"vapid", "scram-sha-1", "scram-sha-256", "hawk", "signature", "hmac", "gnap", "goog4-rsa-sha256"}
)

// credentials returns the end of an Authorization header's value written
// bare from s[i:end], its first word: a scheme and its credentials, or
// one long credential. "authorization: card declined" has none.
func (t *text) credentials(i, end int) int {
	s := t.s
	scheme := t.lower[i:end]
	switch {
	case end < len(s) && s[end] == ' ' && slices.Contains(tokenSchemes, scheme):
		if next := bare(s, end+1); next > end+1 {
			return next
		}
		return -1
	case end < len(s) && s[end] == ' ' && slices.Contains(paramSchemes, scheme):
		return lineEnd(s, end, "")
	case end-i >= 16:
		return end
	case end < len(s) && s[end] == ' ':
		if next := bare(s, end+1); next > end+1 && (next-end-1 >= 16 || credentialLike(s[end+1:next]) && next-end-1 >= 8) {
			return next // an unknown scheme and its credential
		}
	}
	return -1
}

// kind says what the name s[a:b] names. A name is split into its parts at
// _ . - and at the changes of case of camelCase; it names a secret when it
// ends in password, passwd, passphrase, secret or credentials, in pass or
// pwd after another part (DB_PASS), in token (AWS_SESSION_TOKEN, accessToken)
// or in key after a part that makes a key secret (api_key,
// aws_secret_access_key, X-Api-Key, clientKey); not a plural (max_tokens),
// a token that counts, pages or marks (page_token, eos_token), nor a key
// that says nothing of secrecy (cache_key, primary_key).
func (t *text) kind(a, b int) fieldKind {
	var buf [16]string
	parts := nameParts(t.s[a:b], t.lower[a:b], buf[:0])
	n := len(parts)
	if n == 0 {
		return notSecret
	}
	last := parts[n-1]
	switch {
	case last == "authorization" && (n == 1 || n == 2 && parts[0] == "proxy"):
		return authField
	case last == "cookie" && (n == 1 || n == 2 && parts[0] == "set"):
		return cookieField
	case hasAnySuffix(last, "password", "passwd", "passphrase", "secret", "credential", "credentials"),
		last == "passcode",
		last == "pass" && n > 1,
		last == "pwd" && t.s[a:b] != "PWD" && t.s[a:b] != "OLDPWD": // the shell's working directory
		return secretField
	case last == "token":
		if n > 1 && (slices.Contains(notSecretTokens, parts[n-2]) || slices.Contains(notSecretTokens, parts[0])) {
			return notSecret
		}
		return secretField
	case last == "key" && n > 1 && slices.Contains(keyQualifiers, parts[n-2]):
		return secretField
	case last == "auth":
		return weakField
	}
	if (strings.HasSuffix(last, "key") || strings.HasSuffix(last, "token")) && slices.ContainsFunc(gluedNames, func(g string) bool {
		return strings.HasSuffix(last, g) // apikey, accesstoken
	}) {
		return secretField
	}
	if slices.Contains(queryNames, t.lower[a:b]) {
		return queryField
	}
	return notSecret
}

var (
	// keyQualifiers make a key or a token secret: api_key, secret_key,
	// client_key, account_key (Azure), subscription_key (Azure APIM).
	keyQualifiers = []string{"api", "access", "secret", "private", "signing", "encryption", "master", "client",
		"auth", "account", "subscription", "app", "admin", "service", "session", "refresh", "bearer", "oauth",
		"id", "license", "consumer", "hmac", "jwt", "integration", "deploy", "sas"}
	// notSecretTokens are the parts of the names of tokens that are not
	// credentials: pagination cursors, counts, a tokenizer's special tokens.
	notSecretTokens = []string{"page", "next", "continuation", "pagination", "cursor", "sync", "idempotency",
		"max", "min", "num", "total", "count", "eos", "bos", "pad", "unk", "sep", "cls", "mask", "special"}
	// gluedNames are the qualified keys and tokens written as one word.
	gluedNames = func() []string {
		var names []string
		for _, q := range keyQualifiers {
			names = append(names, q+"key", q+"token")
		}
		return names
	}()
	// queryNames are the query parameters of signed URLs and of keys
	// passed in URLs (Google's ?key=).
	queryNames = []string{"sig", "signature", "x-amz-signature", "x-goog-signature", "key"}
)

// nameParts splits a name into its parts, lower case, appended to parts:
// at _ . - and where camelCase changes case (apiKey, APIKey, X-Api-Key).
func nameParts(name, lower string, parts []string) []string {
	start := 0
	cut := func(i int) {
		if i > start {
			parts = append(parts, lower[start:i])
		}
		start = i
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		switch {
		case c == '_' || c == '.' || c == '-':
			cut(i)
			start = i + 1
		case isUpper(c) && i > 0 && (isLower(name[i-1]) || isUpper(name[i-1]) && i+1 < len(name) && isLower(name[i+1])):
			cut(i)
		}
	}
	cut(len(name))
	return parts
}

func isUpper(c byte) bool { return 'A' <= c && c <= 'Z' }
func isLower(c byte) bool { return 'a' <= c && c <= 'z' }
func isDigit(c byte) bool { return '0' <= c && c <= '9' }

func isQuote(c byte) bool { return c == '"' || c == '\'' || c == '`' }

func hasAnySuffix(s string, suffixes ...string) bool {
	for _, x := range suffixes {
		if strings.HasSuffix(s, x) {
			return true
		}
	}
	return false
}

// skipBlanks returns the index of the first byte at or after i that is not
// a space or a tab.
func skipBlanks(s string, i int) int {
	for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
		i++
	}
	return i
}

// skipBlanksBack returns the index after the last byte before i that is
// not a space or a tab.
func skipBlanksBack(s string, i int) int {
	for i > 0 && (s[i-1] == ' ' || s[i-1] == '\t') {
		i--
	}
	return i
}

// boundedIndex returns the index of sub in s at or after i and within n
// bytes of it, or -1.
func boundedIndex(s string, i int, sub string, n int) int {
	if i > len(s) {
		return -1
	}
	j := strings.Index(s[i:min(len(s), i+n)], sub)
	if j < 0 {
		return -1
	}
	return i + j
}

// closingQuote returns the index of the quote q that closes a string
// starting at s[i] (backslash escapes skipped), or of the end of the line,
// or of the bound, whichever comes first.
func closingQuote(s string, i int, q byte) int {
	limit := min(len(s), i+maxValue)
	for ; i < limit; i++ {
		switch s[i] {
		case q, '\n', '\r':
			return i
		case '\\':
			if q != '`' {
				i++
			}
		}
	}
	return min(i, limit)
}

// isBareEnd reports whether c ends a value written without quotes.
func isBareEnd(c byte) bool {
	switch c {
	case ' ', '\t', '\n', '\r', '\f', '\v', '"', '\'', '`', '\\', '&', ',', ';', ')', '}', ']', '<', '>':
		return true
	}
	return false
}

// bare returns the end of a value written without quotes from s[i]; a
// value redacted already is none.
func bare(s string, i int) int {
	if strings.HasPrefix(s[min(i, len(s)):], Redacted) {
		return i
	}
	limit := min(len(s), i+maxValue)
	for i < limit && !isBareEnd(s[i]) {
		i++
	}
	return min(i, limit)
}

// lineEnd returns the end of the line from s[i], or the first of stop.
func lineEnd(s string, i int, stop string) int {
	limit := min(len(s), i+maxValue)
	for i < limit && s[i] != '\n' && s[i] != '\r' && strings.IndexByte(stop, s[i]) < 0 {
		i++
	}
	return i
}

// prose reports whether the bare value s[i:end], written after a blank,
// reads as the next word of a sentence ("wrong password: try again"): a
// short word of letters followed by another word. A password written so in
// YAML ("password: hunter2", "password: letmein") is at the end of its
// line, or holds a digit.
func prose(s string, i, end int) bool {
	if end-i > 11 || end+1 >= len(s) || s[end] != ' ' || !isLower(s[end+1]) && !isUpper(s[end+1]) {
		return false
	}
	for k := i; k < end; k++ {
		if !isLower(s[k]) && !isUpper(s[k]) {
			return false
		}
	}
	return true
}

// credentialLike reports whether v looks like a credential rather than a
// word: it holds a digit or a sign, or is long.
func credentialLike(v string) bool {
	if len(v) >= 16 {
		return true
	}
	for k := range len(v) {
		if !isLower(v[k]) && !isUpper(v[k]) {
			return true
		}
	}
	return false
}

// placeholder reports whether a secret's value v (lower in lower case) is
// one that stands for no secret: empty, null, a word that says what is
// wrong with it ("api_key: missing"), masked already, or a reference to an
// environment variable ($OPENAI_API_KEY, ${API_KEY}) or a template.
func placeholder(v, lower string) bool {
	switch lower {
	case "", "null", "nil", "none", "<nil>", "<none>", "true", "false", "undefined", "redacted", "<redacted>", "<hidden>",
		"missing", "required", "invalid", "expired", "revoked", "empty", "unset", "unknown", "incorrect", "wrong", "blank":
		return true
	}
	if strings.Trim(lower, "*x•") == "" { // ******, xxxx
		return true
	}
	if template(v, 0) == len(v) {
		return true
	}
	if v[0] != '$' || len(v) < 3 {
		return false
	}
	for k := 1; k < len(v); k++ {
		if !isUpper(v[k]) && !isDigit(v[k]) && v[k] != '_' {
			return false
		}
	}
	return true
}

// template returns the end of a reference to an environment variable or
// of a template's expression that starts at s[i], ${NAME} or
// {{ .Values.key }}, on one line, or -1.
func template(s string, i int) int {
	for _, delims := range [][2]string{{"${", "}"}, {"{{", "}}"}} {
		if !strings.HasPrefix(s[i:], delims[0]) {
			continue
		}
		end := boundedIndex(s, i+2, delims[1], 200)
		if end > i+2 && !strings.ContainsAny(s[i+2:end], "\n\r\"'\\{") {
			return end + len(delims[1])
		}
	}
	return -1
}

// basicCredentials reports whether s is the base64 of user:password, as
// HTTP Basic authentication sends it.
func basicCredentials(s string) bool {
	b, err := base64.StdEncoding.DecodeString(s)
	if err != nil {
		b, err = base64.RawStdEncoding.DecodeString(strings.TrimRight(s, "="))
	}
	if err != nil || len(b) < 3 {
		return false
	}
	colon := false
	for _, c := range b {
		if c < 0x20 || c > 0x7e {
			return false
		}
		colon = colon || c == ':'
	}
	return colon
}
