package taxonomy

import (
	"strconv"
	"strings"
)

// A statusText finds the HTTP status inside the text of a client that
// flattens it into a string.
type statusText struct {
	need  string // a literal every match contains
	grams []uint16
	re    *guarded
	// read, in place of need and re, reads the status at p, the start of
	// a number of three digits, from the bytes around it.
	read func(lower string, p int) bool
	// member marks the forms that read a member of a pasted body: the
	// body may be a relay's envelope of its own (see decide).
	member bool
}

func status(need, expr string) statusText {
	return statusText{need: need, grams: gramsOf(need), re: mustContain(need, expr)}
}

func readAt(read func(lower string, p int) bool) statusText { return statusText{read: read} }

func memberStatus(need, expr string) statusText {
	st := status(need, expr)
	st.member = true
	return st
}

// statusTexts are tried in order; the first match wins and only 4xx and 5xx
// count.
var statusTexts = []statusText{
	// openai, anthropic, ernie: "API returned unexpected status code: 429: ..."
	// huggingface: "failed to run inference: unexpected status code: 503, body: ..."
	status("unexpected status code", `unexpected status code:? (\d{3})\b`),
	// mistral: "(HTTP Error 429) {...}"
	status("(http error ", `\(http error (\d{3})\)`),
	// googleai when flattened: "googleapi: Error 429: ..."
	status("googleapi: error ", `googleapi: error (\d{3})\b`),
	// *googleapi.Error without a message: "googleapi: got HTTP response code 503 with body: ..."
	status("googleapi: got http response code ", `googleapi: got http response code (\d{3})\b`),
	// bedrock when flattened: "https response error StatusCode: 429, RequestID: ..."
	status("statuscode: ", `\bstatuscode: (\d{3})\b`),
	// anthropic-sdk-go and openai-go v1: `POST "https://api.anthropic.com/v1/messages": 429 Too Many Requests ...`
	status(`": `, `https?://[^"\s]+": (\d{3})\b`),
	// openai-go v3: "OpenAI API error: 429 Too Many Requests"
	status("api error", `\bapi error:? (\d{3})\b`),
	// generic gateways and SDKs: "status 503", "status code 500", "status: 429",
	// "status=502"; go-openai: "error, status code: 429, status: 429 Too Many Requests"
	// Dart's Dio: "the response has a status code of 503".
	status("status", `\bstatus(?:[ _]code)?(?: of)?[:=]? ?(\d{3})\b`),
	// "HTTP 429", "HTTP/1.1 503", "(HTTP/2 429)", openai-python 0.x "HTTP code 502 from API"
	status("http", `\bhttp(?:/\d(?:\.\d)?)?(?: code:?)? (\d{3})\b`),
	// The Python SDKs: "Error code: 429 - {'error': ...}"; Cloudflare's
	// bodies: "error code: 522".
	status("error code", `\berror code:? (\d{3})\b`),
	// A reason phrase with the status after it in brackets: "Forbidden
	// (403)", .NET's "Too Many Requests (429)".
	readAt(phraseThenStatus),
	// The status before its reason phrase in brackets: .NET's
	// HttpRequestException "Response status code does not indicate success:
	// 404 (Not Found).", "HTTP 400 (content_filter)" has its own form above.
	readAt(statusThenPhrase),
	// A status after a "response code" label and a little punctuation:
	// Python's print of a pair, "('Response code error: ', 524)",
	// "Response code: 503", "response status code 502".
	status("response ", `\bresponse (?:status )?code\b(?: error)?\W{0,6}(\d{3})\b`),
	// OpenRouter relays a provider's failure as "<status> Provider returned
	// error", which clients print after their own words: "Error in
	// OpenRouter API call (Attempt 1/3): 400 Provider returned error".
	// Google's front end's error page: "502. That’s an error.", its
	// apostrophe typographic or not.
	status("s an error", `\b(\d{3})\. that(?:’|')s an error\b`),
	status("provider returned error", `\b(\d{3}) provider returned error\b`),
	// The status a JSON body writes in its code member, as a number or a
	// string of three digits: Gemini's {"error":{"code":429,...}},
	// llama.cpp's {"error":{"code":503,"message":"Loading model"}},
	// OpenRouter's {'code': 402}, Azure's {"code":"429"}. Mistral's
	// "code":"3505" is no status.
	memberStatus("code", `["']code["']\s*:\s*["']?(\d{3})\b`),
	// The same in a status member: "status": 403 (an API's problem
	// body, RFC 9457's "status"), "status_code": 429 (DashScope),
	// "statusCode": 400 (Node's errors), "http_status": 503.
	memberStatus("status", `["'](?:http_?)?status(?:_?code)?["']\s*:\s*["']?(\d{3})\b`),
	// After an exception's name that ends in "Exception" (a name ending
	// in "Error" is read as a leading status): Spring AI's
	// "NonTransientAiException: 400 - Bad Request", "HttpException: 429".
	status("exception: ", `exception: (\d{3})\b`),
	// DashScope's code in angle brackets: "<400> InternalError.Algo.InvalidParameter",
	// "<429> Throttling.RateQuota".
	status("<", `<(\d{3})>`),
	// A status after "returned": "Claude API returned 403: error code:
	// 1000", "the server returned 429 - {...}", "request returned status
	// 500 (". Followed by punctuation, not a unit: "returned 500 tokens"
	// is a count.
	status("returned ", `\breturned (?:http |status (?:code )?)?(\d{3})(?:$|[:;,)\]]|\s+[-(\[{:])`),
	// A status as a key=value or label pair: gorilla/websocket's callers
	// ("websocket: bad handshake, code=401,body=..."), logfmt lines
	// ("code=503 msg=..."), "HTTP code: 502".
	status("code", `\bcode ?[=:] ?(\d{3})(?:$|[^\w.])`),
	// A status in Chinese clients' words: "请求失败，状态码: 503"
	// (request failed, status code), "HTTP状态码：429".
	status("状态码", `状态码\s*(?:[:：=]\s*)?(\d{3})\b`),
	// A CDN's page title: Cloudflare's "api.openai.com | 520: Web server
	// is returning an unknown error", "| 522: Connection timed out",
	// "| 524: A timeout occurred".
	status("<title>", `<title>[^<|]{0,200}\| (\d{3}): `),
	// aiohttp's ClientResponseError, as raise_for_status() prints it:
	// "400, message='Bad Request', url='https://...'" (url=URL('...') in
	// older releases). Its payload errors print "400, message='Not enough
	// data ...'" with no url: a body cut, not a status of the server.
	status(", message=", `\b(\d{3}), message=(?:'[^']*'|"[^"]*"), url=`),
	// Dart's Dio before 5.0: DioError "Http status error [404]".
	status("status error", `\bstatus error:? ?\[(\d{3})\]`),
	// A status before or after the word "error" standing alone: a CDN's
	// page "<H1>403 ERROR</H1>" (CloudFront), "returned error 403:".
	status("error", `(?:^|[^\w.:/-])(\d{3}) error\b|\berror (\d{3})(?:$|[\s:,;.)\]])`),
}

// textStatus reads the status from a lowercased text, 0 when it holds
// none, and whether it was read from a member of a pasted body.
func textStatus(t *lowered) (status int, member bool) {
	lower := t.s
	at := t.numbers()
	if len(at) == 0 {
		// Most texts without a status: one scan instead of one per form.
		return leadingPhrase(lower), false
	}
	for _, st := range statusTexts {
		if st.read != nil {
			for _, p := range at {
				if st.read(lower, p) {
					s, _ := strconv.Atoi(lower[p : p+3])
					return s, false
				}
			}
			continue
		}
		if !t.mayHold(st.grams) {
			continue
		}
		// Each form is tried around each number that may be a status,
		// not along the whole text: a page or a stack trace holds many
		// words a form starts with, and few such numbers.
		for _, p := range at {
			w := statusWindow(lower, p)
			if !strings.Contains(w, st.need) {
				continue
			}
			m := st.re.FindStringSubmatchIndex(w)
			if m == nil {
				continue
			}
			// The first group that took part in the match holds the status:
			// every alternative of a form has one (TestStatusFormsHaveAGroup).
			g := 2
			for m[g] < 0 {
				g += 2
			}
			if s, _ := strconv.Atoi(w[m[g]:m[g+1]]); isFailureStatus(s) {
				return s, st.member
			}
		}
	}
	if s := leadingStatus(lower); s != 0 {
		return s, false
	}
	if s := reasonStatusAt(lower, at); s != 0 {
		return s, false
	}
	return leadingPhrase(lower), false
}

// leadingPhrase reads the status named by a reason phrase that opens the
// text before a colon, as clients print a status line's phrase before the
// body they could not read: "Not Found: {...}" and "Bad Request: AiError:
// ..." (Cloudflare Workers AI through the Vercel AI SDK), werkzeug's "Bad
// Request: The browser (or proxy) sent a request that this server could
// not understand", "Unauthorized: invalid token".
func leadingPhrase(lower string) int {
	phrase, _, ok := strings.Cut(lower[:min(len(lower), 32)], ":")
	if !ok {
		return 0
	}
	return bodyStatuses[phrase]
}

// leadingStatus reads the status that opens the message of the TypeScript
// SDKs (openai-node, anthropic-sdk-typescript) and of the tools built on
// them: "429 You exceeded your current quota", "Error: 400 {...}", "API
// Error: 529 Overloaded", "API Error (503 upstream connect error ...)",
// "Error: [500 Internal Server Error] ...", "OpenAI API 402: {...}". It
// stands at the start of the text, after at most a short name ending in the
// word "error" or "api", and not before a unit: "500 tokens" is a count.
func leadingStatus(lower string) int {
	i := 0
	for i < len(lower) && i <= maxStatusPrefix && !isDigit(lower[i]) {
		i++
	}
	if i+3 > len(lower) || !statusPrefix(lower[:i]) {
		return 0
	}
	s, err := strconv.Atoi(lower[i : i+3])
	if err != nil || !isFailureStatus(s) {
		return 0
	}
	rest := lower[i+3:]
	sep := len(rest) - len(strings.TrimLeft(rest, " :])-\t\n"))
	if rest != "" && sep == 0 {
		return 0 // "4290", "500ms", "503.5": not a status of its own
	}
	word := rest[sep:]
	word = word[:len(word)-len(strings.TrimLeft(word, lowerLetters))] // the word right after it
	if countUnits[word] {
		return 0
	}
	return s
}

const lowerLetters = "abcdefghijklmnopqrstuvwxyz"

// maxStatusPrefix bounds the name before a leading status: "openai api
// streaming error: " and the like.
const maxStatusPrefix = 48

// statusPrefix reports whether p may stand before a leading status: nothing,
// or a name ending in "error" (a word of its own or an exception's name,
// "HTTPError: ", "ValueError: Error ") or whose last word is "api", then an
// optional colon, space, and opening bracket: "error: ", "api error (",
// "openai api ".
func statusPrefix(p string) bool {
	p = strings.TrimSuffix(strings.TrimSuffix(p, "("), "[")
	p = strings.TrimSuffix(strings.TrimSuffix(p, " "), ":")
	if p == "" {
		return true
	}
	name, ok := strings.CutSuffix(p, "error")
	if !ok {
		name, ok = strings.CutSuffix(p, "api")
		ok = ok && (name == "" || !isWordByte(name[len(name)-1])) // "okapi" is no API
	}
	if !ok {
		return false
	}
	for j := 0; j < len(name); j++ {
		if c := name[j]; !isWordByte(c) && c != ' ' && c != '.' && c != ':' {
			return false
		}
	}
	return true
}

// countUnits are the words that make the number before them a count.
var countUnits = map[string]bool{
	"tokens": true, "token": true, "requests": true, "request": true, "ms": true, "s": true,
	"seconds": true, "second": true, "minutes": true, "bytes": true, "characters": true,
	"chars": true, "words": true, "items": true, "messages": true, "inputs": true,
}

// reasonPhrases follow a status in texts that print "503 Service
// Unavailable" or gRPC-style "503 UNAVAILABLE" anywhere: gateways, proxies,
// google-genai's "ServerError: 503 UNAVAILABLE.", a CLI's "Error with
// Client #1: 503 UNAVAILABLE".
var reasonPhrases = []string{
	"client error", "server error", // Python requests: "400 Client Error: Bad Request for url: ..."
	"bad request", "unauthorized", "payment required", "forbidden", "not found",
	"request timeout", "payload too large", "request entity too large", "too many requests",
	"internal server error", "bad gateway", "service unavailable", "gateway time",
	"service temporarily unavailable", // nginx's 503 page: "503 Service Temporarily Unavailable"; Apache's mod_proxy: "503 Service Temporarily Unavailable"
	"invalid_argument", "failed_precondition", "permission_denied", "unauthenticated",
	"not_found", "resource_exhausted", "unavailable", "deadline_exceeded",
}

// reasonStatus finds a 4xx or 5xx standing alone before a reason phrase.
// It scans bytes rather than running a pattern: most texts hold no such
// number, and a page of HTML holds many digits.
func reasonStatus(lower string) int {
	var buf [8]int
	return reasonStatusAt(lower, failureNumbers(lower, buf[:0]))
}

// reasonStatusAt is reasonStatus on the numbers at the given places, those
// failureNumbers finds: a status before a reason phrase is one of them.
func reasonStatusAt(lower string, at []int) int {
	for _, i := range at {
		rest, spaced := strings.CutPrefix(lower[i+3:], " ")
		if !spaced || i > 0 && isWordByte(lower[i-1]) {
			continue
		}
		// The phrase may be quoted: `400 "bad request"`, as clients print
		// a status beside the phrase they were given.
		if q, ok := strings.CutPrefix(rest, `"`); ok {
			rest = q
		} else if q, ok := strings.CutPrefix(rest, "'"); ok {
			rest = q
		}
		for _, phrase := range reasonPhrases {
			if strings.HasPrefix(rest, phrase) {
				s, _ := strconv.Atoi(lower[i : i+3])
				return s
			}
		}
	}
	return 0
}

// bodyStatuses are the reason phrases that a body may hold as its whole
// message, and the status each one names.
var bodyStatuses = map[string]int{
	"bad request": 400, "unauthorized": 401, "payment required": 402, "forbidden": 403,
	"not found": 404, "method not allowed": 405, "proxy authentication required": 407, "request timeout": 408,
	"payload too large": 413, "request entity too large": 413, "unprocessable entity": 422,
	"too many requests": 429, "internal server error": 500, "bad gateway": 502,
	"service unavailable": 503, "gateway timeout": 504, "gateway time-out": 504,
}

// bodyKeys are the members whose whole value may be a reason phrase, in
// both quotings: "title" is the phrase of an RFC 9457 problem details body
// (NVIDIA NIM's {"status":404,"title":"Not Found","detail":"Function ...:
// Not found for account ..."}).
var bodyKeys = lits(`"detail"`, `"message"`, `"error"`, `"title"`, `'detail'`, `'message'`, `'error'`, `'title'`)

// bodyStatus reads the status named by a body whose message is nothing but
// a reason phrase, as web frameworks write their default errors: FastAPI's
// {"detail":"Not Found"}, {"message":"Unauthorized"}, {"error":"Bad
// Gateway"}. A phrase inside a longer message ("Model not found") names no
// status. It runs only when no rule decided, so it costs nothing on the
// texts that say more.
func bodyStatus(t *lowered) int {
	var buf [maxMembers]string
	for _, value := range memberValues(t, t.s, bodyKeys, buf[:0]) {
		if s, ok := bodyStatuses[strings.TrimSpace(value)]; ok {
			return s
		}
	}
	return 0
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// phraseThenStatus reads a reason phrase with the status after it in
// brackets: "Forbidden (403)", .NET's "Too Many Requests (429)".
func phraseThenStatus(lower string, p int) bool {
	before, opened := strings.CutSuffix(lower[:p], " (")
	if !opened || !strings.HasPrefix(lower[p+3:], ")") {
		return false
	}
	for _, phrase := range reasonPhrases {
		if rest, ok := strings.CutSuffix(before, phrase); ok && (rest == "" || !isWordByte(rest[len(rest)-1])) {
			return true
		}
	}
	return false
}

// statusThenPhrase reads a status with its reason phrase after it in
// brackets: .NET's HttpRequestException "Response status code does not
// indicate success: 404 (Not Found).".
func statusThenPhrase(lower string, p int) bool {
	if p > 0 && isWordByte(lower[p-1]) {
		return false
	}
	rest, ok := strings.CutPrefix(lower[p+3:], " (")
	if !ok {
		return false
	}
	for _, phrase := range reasonPhrases {
		if strings.HasPrefix(rest, phrase) && strings.HasPrefix(rest[len(phrase):], ")") {
			return true
		}
	}
	return false
}

// failureNumbers appends to at where the text holds a number of three
// digits from 400 to 599 standing alone, which every status the forms of
// statusTexts read is: at most cap(at) of them, the first ones.
func failureNumbers(lower string, at []int) []int {
	for i := 0; i < len(lower) && len(at) < cap(at); i++ {
		c := lower[i]
		if !isDigit(c) {
			continue
		}
		j := i
		for j < len(lower) && isDigit(lower[j]) {
			j++
		}
		if j-i == 3 && (c == '4' || c == '5') {
			at = append(at, i)
		}
		i = j
	}
	return at
}

// Before and after a number, what a status form may read: a client's
// words and a URL before it ("POST \"https://...\": 429"), a reason
// phrase after it.
const (
	statusBefore = 256
	statusAfter  = 64
)

// statusWindow is the text around the number at p that a status form
// reads (see wordWindow).
func statusWindow(lower string, p int) string { return wordWindow(lower, p, statusBefore, statusAfter) }

// wordWindow is the text from before bytes before the number of three
// digits at p to after bytes after it, its edges moved out to the ends of
// words, by 32 bytes at most, so that \b reads as it does in the whole
// text.
func wordWindow(lower string, p, before, after int) string {
	start, end := max(0, p-before), min(len(lower), p+3+after)
	for start > 0 && start > p-before-32 && isWordByte(lower[start-1]) {
		start--
	}
	for end < len(lower) && end < p+3+after+32 && isWordByte(lower[end]) {
		end++
	}
	return lower[start:end]
}

// hasFailureNumber reports whether the text holds three digits from 400 to
// 599 in a row, which every status written in a text does.
func hasFailureNumber(lower string) bool {
	for i := 0; i+2 < len(lower); i++ {
		if c := lower[i]; (c == '4' || c == '5') && isDigit(lower[i+1]) && isDigit(lower[i+2]) {
			return true
		}
	}
	return false
}

// isFailureStatus reports whether s is a 4xx or 5xx status: the statuses
// read from a text or a typed error that count as evidence.
func isFailureStatus(s int) bool { return s >= 400 && s <= 599 }

// statusRules holds the rule names "status 400" to "status 599", built once so
// that deciding by status allocates nothing.
var statusRules = func() (names [200]string) {
	for i := range names {
		names[i] = "status " + strconv.Itoa(400+i)
	}
	return names
}()

// statusClass maps a failure status (400 to 599, see isFailureStatus) to its
// class. A 404 says the model is missing: the request names nothing else
// that can be absent. A 401, 402 or 403 refuses the caller's key, account
// or payment, not the request: an account failure, unless the text says
// the request was refused for its content (see Classify).
func statusClass(status int) Class {
	return Class{Kind: statusKind(status), Rule: statusRules[status-400], ModelMissing: status == 404,
		AccountFailure: status == 401 || status == 402 || status == 403}
}

// statusKind maps a failure status (400 to 599) to a kind.
func statusKind(status int) Kind {
	switch status {
	case 429:
		return RateLimited
	case 503, 529:
		return Overloaded
	case 413:
		return ContextOverflow
	case 408, 409, 425:
		return Transient
	case 501, 505:
		return Permanent
	}
	if status >= 500 {
		return Transient
	}
	return Permanent
}
