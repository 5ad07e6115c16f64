package taxonomy

import (
	"errors"
	"math"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// MaxWaitHint is the ceiling of every wait hint this package parses: a
// Retry-After, a rate-limit reset or a "try again in" found in a text that
// asks for longer is read as MaxWaitHint. It only keeps absurd values (a
// reset in year 9999, "10000h") from overflowing or holding anything for
// years: it lies far above any sensible retry cap, so a hint this long still
// reads as "longer than the cap".
const MaxWaitHint = 6 * time.Hour

// WaitSource says where the wait before a retry comes from. [Classify]
// answers one of the first three in [Class.WaitSource]; package middleware
// reports the wait it chose with the same values (its WaitSource is this
// type), WaitProbe and WaitNextMember included.
type WaitSource uint8

// The sources of a wait.
const (
	// WaitBackoff, the zero value: the provider gave no hint, and the
	// pipeline's jittered backoff decides.
	WaitBackoff WaitSource = iota
	// WaitRetryAfter: the provider asked for the wait, in a Retry-After or
	// retry-after-ms header or in its message ("Please try again in 1.8s").
	// A wait of 0 from a header asks for a retry at once.
	WaitRetryAfter
	// WaitReset: no Retry-After, so the wait runs until the provider's rate
	// limit resets, as its x-ratelimit-reset-* or anthropic-ratelimit-*-reset
	// headers announced: a lower bound for when a retry can succeed.
	WaitReset
	// WaitProbe: the wait until the circuit breaker's next probe (package
	// middleware's WaitWhileOpen). The classifier never answers it.
	WaitProbe
	// WaitNextMember: no wait, because the retry goes to another member of
	// a pool (package middleware's Members), which the failure says nothing
	// about. The classifier never answers it.
	WaitNextMember
)

var waitSourceNames = [...]string{"backoff", "retry_after", "reset", "probe", "next_member"}

// String returns the source's lowercase name, e.g. "retry_after".
func (s WaitSource) String() string {
	if int(s) < len(waitSourceNames) {
		return waitSourceNames[s]
	}
	return "wait_source(" + strconv.Itoa(int(s)) + ")"
}

// wait picks the wait before a retry of a failure of the given kind, and its
// source, strongest evidence first: a Retry-After header (an explicit 0
// included), then for a rate limit the announced reset, then a positive wait
// in the text. Values set by hand beyond MaxWaitHint are clamped like parsed
// ones.
func (ev *Evidence) wait(kind Kind, t *lowered) (time.Duration, WaitSource) {
	switch {
	case ev.RetryAfter > 0 || ev.RetryNow:
		return min(max(ev.RetryAfter, 0), MaxWaitHint), WaitRetryAfter
	case ev.RateLimitReset > 0 && kind == RateLimited:
		return min(ev.RateLimitReset, MaxWaitHint), WaitReset
	}
	if d, ok := retryHint(t); ok && d > 0 {
		return d, WaitRetryAfter
	}
	return 0, WaitBackoff
}

// ParseRetryAfter reads a Retry-After header value: delay-seconds (fractions
// accepted) or an HTTP date, which is measured from now. It reports false for
// an empty, negative or unparsable value. A date in the past is a zero wait.
// Values beyond [MaxWaitHint] are clamped to it.
func ParseRetryAfter(value string, now time.Time) (time.Duration, bool) {
	value = strings.TrimSpace(value)
	if value == "" {
		return 0, false
	}
	if isDecimal(value) {
		return clampWait(parseDecimal(value) * float64(time.Second)), true
	}
	if t, err := http.ParseTime(value); err == nil {
		return untilClamped(t, now), true
	}
	return 0, false
}

// parseRetryAfterMillis reads a retry-after-ms header value (OpenAI,
// Anthropic): milliseconds, fractions accepted, clamped to [MaxWaitHint]. It
// reports false for an empty, negative or unparsable value; "0" is a valid
// zero wait.
func parseRetryAfterMillis(value string) (time.Duration, bool) {
	value = strings.TrimSpace(value)
	if !isDecimal(value) {
		return 0, false
	}
	return clampWait(parseDecimal(value) * float64(time.Millisecond)), true
}

// isDecimal reports whether s is digits with an optional fraction ("7",
// "1.5"): delay-seconds as RFC 9110 writes it, plus the fractions some
// providers send. It rejects what strconv.ParseFloat would also accept:
// signs, exponents, hex, "Inf" and "NaN".
func isDecimal(s string) bool {
	digits, dot := 0, false
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c >= '0' && c <= '9':
			digits++
		case c == '.' && !dot && digits > 0 && i < len(s)-1:
			dot = true
		default:
			return false
		}
	}
	return digits > 0
}

// parseDecimal parses a string isDecimal accepted. Too many digits for a
// float64 give +Inf, which clampWait clamps.
func parseDecimal(s string) float64 {
	f, err := strconv.ParseFloat(s, 64)
	if err != nil && !errors.Is(err, strconv.ErrRange) {
		return 0
	}
	return f
}

// clampWait turns nanoseconds into a wait within [0, MaxWaitHint], rounded
// to the nanosecond ("1.8" seconds is 1.8s, not 1.799999999s).
func clampWait(ns float64) time.Duration {
	if math.IsNaN(ns) {
		return MaxWaitHint
	}
	// min and max bound +Inf and negative values without a comparison of
	// our own that could be off by one.
	return time.Duration(math.Round(max(0, min(ns, float64(MaxWaitHint)))))
}

// parseGoDuration reads Go's duration syntax without a sign ("6m0s", "1.5s",
// "20ms", "1h2m3.5s"), clamped to MaxWaitHint: a value too large for a
// time.Duration is the ceiling, not an error.
func parseGoDuration(s string) (time.Duration, bool) {
	if !isGoDuration(s) {
		return 0, false
	}
	d, err := time.ParseDuration(s)
	if err != nil {
		return MaxWaitHint, true // the syntax is valid, so the value overflows
	}
	return min(d, MaxWaitHint), true
}

// isGoDuration reports whether s is one or more decimal numbers each
// followed by a unit time.ParseDuration knows, without a sign; "0" alone is
// one too.
func isGoDuration(s string) bool {
	if s == "0" {
		return true
	}
	if s == "" {
		return false
	}
	for s != "" {
		i := 0
		for i < len(s) && (s[i] >= '0' && s[i] <= '9' || s[i] == '.') {
			i++
		}
		if !isDecimal(s[:i]) {
			return false
		}
		s = s[i:]
		j := 0
		for j < len(s) && !(s[j] >= '0' && s[j] <= '9' || s[j] == '.') {
			j++
		}
		switch s[:j] {
		case "ns", "us", "µs", "μs", "ms", "s", "m", "h":
		default:
			return false
		}
		s = s[j:]
	}
	return true
}

// retryHintRE finds wait hints in lowercased provider texts, where the text is
// the only evidence left: OpenAI "Please try again in 1.8s" / "in 20ms" / "in
// 6m0s", Azure "Please retry after 6 seconds", Gemini "Please retry in 12.3s",
// its JSON detail "retryDelay": "12s" however it is printed (Python's repr
// 'retryDelay': '12s', JSON inside a JSON string \"retryDelay\": \"12s\",
// genai's Go error retryDelay:12s) and gax's "error details: retry in 12s",
// and the Telegram Bot API's 429 "Too Many Requests: retry after 35", whose
// number is seconds (its retry_after parameter) though it names no unit.
const retryHintExpr = `(?:try again|retry)(?: after| in)\s+(?:((?:\d+(?:\.\d+)?(?:ms|h|m|s))+)|(\d+(?:\.\d+)?)\s*(milliseconds?|seconds?|secs?|minutes?|mins?))\b|retrydelay\W{0,6}(\d+(?:\.\d+)?s)\b|retry after (\d{1,6})(?:$|[\s,;)\]}"'])`

// retryHintRE is retryHintExpr anchored: it is tried at the start of each
// "try again" and "retry" of a text, not along the text.
var retryHintRE = guard(`^(?:` + retryHintExpr + `)`)

// telegramRetryAfter is how the Telegram Bot API's 429 description puts its
// wait in seconds.
const telegramRetryAfter = "too many requests: retry after "

// retryHint extracts a wait hint from a lowercased error text, clamped to
// MaxWaitHint: in the shapes retryHintRE knows, else in words ("wait 587
// hours 33 minutes", "retry after one minute", "try again in ~5s"), else in
// a body's retry_after member.
func retryHint(t *lowered) (time.Duration, bool) {
	if d, ok := retryHintShape(t); ok {
		return d, true
	}
	if d, ok := waitInWords(t); ok {
		return d, true
	}
	return waitMember(t)
}

var tryLit = lit("try")

// maxHintLen bounds a wait hint in a text, from its "try" to its last
// unit: "retry after 99999999999999999999 minutes" is 43 bytes.
const maxHintLen = 96

// retryHintMatch finds the first match of retryHintRE, tried at the start
// of each "try again" and "retry" of the text, and the text it matched
// in.
func retryHintMatch(t *lowered) (string, []int) {
	lower := t.s
	// It runs on the words after each "try" only: a stack trace holds
	// "retry" many times (RetryUtils.withRetry) and no wait.
	var text string
	var m []int
	for from := 0; m == nil; {
		i := t.index(lower[from:], tryLit)
		if i < 0 {
			return "", nil // the common case, without running the expression
		}
		i += from
		from = i + len("try")
		end := min(len(lower), i+maxHintLen)
		for end < len(lower) && end < i+2*maxHintLen && isWordByte(lower[end]) {
			end++
		}
		// Every match starts with "try again" or with "retry".
		text = lower[i:end]
		if i >= 2 && lower[i-2:i] == "re" {
			text = lower[i-2 : end]
		}
		m = retryHintRE.FindStringSubmatchIndex(text)
	}
	return text, m
}

// retryHintShape extracts a wait hint in the shapes retryHintRE knows.
func retryHintShape(t *lowered) (time.Duration, bool) {
	text, m := retryHintMatch(t)
	if m == nil {
		return 0, false
	}
	group := func(n int) string {
		if m[2*n] == -1 { // the group did not take part in the match
			return ""
		}
		return text[m[2*n]:m[2*n+1]]
	}
	if num := group(5); num != "" {
		// A number without a unit is read only in the words of the API
		// that documents it as seconds: "retry after 3 attempts" is no wait.
		if !strings.Contains(t.s, telegramRetryAfter) {
			return 0, false
		}
		return clampWait(parseDecimal(num) * float64(time.Second)), true
	}
	if num := group(2); num != "" {
		// "6 seconds", "1.5 minutes", "20 milliseconds"
		num := parseDecimal(num)
		switch unit := group(3); {
		case strings.HasPrefix(unit, "milli"):
			return clampWait(num * float64(time.Millisecond)), true
		case strings.HasPrefix(unit, "min"):
			return clampWait(num * float64(time.Minute)), true
		default:
			return clampWait(num * float64(time.Second)), true
		}
	}
	// Go duration syntax: "1.8s", "20ms", "6m0s", or retryDelay's "12s".
	return parseGoDuration(group(1) + group(4)) // exactly one of them matched
}

// waitTriggers are the words after which a text states the wait it asks
// for: "Please try again in 2 hours 5 minutes", "retry after one minute"
// (Tencent), "Please wait 587 hours 33 minutes before trying again"
// (GitHub Copilot), "come back in 10 minutes".
//
// A limit that resets after a wait states the same wait: "(reset after
// 1m 4s)" (a relay over Kiro, decolua/9router#1255), "Your quota will
// reset after 8h44m7s" (google-gemini/gemini-cli#13004), Claude Code's
// "resets in 3h44m" (anthropics/claude-code#77469). A reset at a clock
// time ("resets at 2026-05-15T15:00:00Z", "resets 7:30pm") is no wait.
var waitTriggers = lits("try again", "retrying", "retry", "wait", "come back", "replenished", "reset", "resets")

// waitInWords reads a wait written in words after a trigger: a number,
// in figures or in words, and a unit, once or more ("2 hours 5 minutes",
// "1 hour and 30 minutes"), after "in", "after" or "for" and an
// approximation ("~5s", "about 30 seconds").
func waitInWords(t *lowered) (time.Duration, bool) {
	lower := t.s
	for _, trigger := range waitTriggers {
		for from := 0; ; {
			i := t.index(lower[from:], trigger)
			if i < 0 {
				break
			}
			start := from + i
			from = start + len(trigger.s)
			if start > 0 && isLetter(lower[start-1]) || from < len(lower) && isLetter(lower[from]) {
				continue // part of a longer word: "waited", "retryable"
			}
			if d, ok := durationInWords(lower[from:min(len(lower), from+80)]); ok {
				return d, true
			}
		}
	}
	return 0, false
}

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' }

// durationInWords reads " in about 2 hours 5 minutes" at the start of s.
func durationInWords(s string) (time.Duration, bool) {
	s = strings.TrimLeft(s, " :")
	for _, p := range []string{"in ", "after ", "for ", "within "} {
		s = strings.TrimPrefix(s, p)
	}
	s = strings.TrimLeft(s, " ~")
	for _, p := range []string{"about ", "approximately ", "around ", "roughly ", "another "} {
		s = strings.TrimPrefix(s, p)
	}
	if d, ok := clockDuration(s); ok {
		return d, true
	}
	total, terms := 0.0, 0
	for {
		n, rest, ok := leadingNumber(s)
		if !ok {
			break
		}
		unit, rest, ok := leadingUnit(strings.TrimLeft(rest, " "))
		if !ok {
			break
		}
		total += n * float64(unit)
		terms++
		s = strings.TrimLeft(rest, " ,")
		s = strings.TrimPrefix(s, "and ")
	}
	if terms == 0 {
		return 0, false
	}
	return clampWait(total), true
}

// clockDuration reads a wait written as a clock at the start of s, .NET's
// TimeSpan ("c" format, [d.]hh:mm:ss[.fffffff]): Azure API Management's
// quota-by-key "Quota will be replenished in 5.03:23:11", its rate limits
// "Try again in 00:00:05". Minutes and seconds below 60, and hours below
// 24 after a count of days; a fraction of a second is left out.
func clockDuration(s string) (time.Duration, bool) {
	end := 0
	for end < len(s) && (isDigit(s[end]) || s[end] == '.' || s[end] == ':') {
		end++
	}
	clock := strings.TrimRight(s[:end], ".") // a full stop after it
	first, _, ok := strings.Cut(clock, ":")
	if !ok {
		return 0, false
	}
	days := 0
	if d, _, found := strings.Cut(first, "."); found {
		var err error
		if days, err = strconv.Atoi(d); err != nil {
			return 0, false
		}
		clock = clock[len(d)+1:]
	}
	clock, _, _ = strings.Cut(clock, ".")
	h, rest, _ := strings.Cut(clock, ":")
	m, sec, ok := strings.Cut(rest, ":")
	hours, errH := strconv.Atoi(h)
	minutes, errM := strconv.Atoi(m)
	seconds, errS := strconv.Atoi(sec)
	if !ok || errH != nil || errM != nil || errS != nil || days > 0 && hours > 23 || minutes > 59 || seconds > 59 {
		return 0, false
	}
	return clampWait(float64(days)*float64(24*time.Hour) + float64(hours)*float64(time.Hour) +
		float64(minutes)*float64(time.Minute) + float64(seconds)*float64(time.Second)), true
}

// numberWords are the numbers written in words that waits use.
var numberWords = map[string]float64{
	"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
	"eight": 8, "nine": 9, "ten": 10, "fifteen": 15, "twenty": 20, "thirty": 30, "sixty": 60,
}

// leadingNumber reads a number at the start of s, in figures ("30",
// "1.5") or in words ("one", "an").
func leadingNumber(s string) (float64, string, bool) {
	end := 0
	for end < len(s) && (isDigit(s[end]) || s[end] == '.' && end > 0) {
		end++
	}
	if end > 0 {
		num := strings.TrimSuffix(s[:end], ".")
		if !isDecimal(num) {
			return 0, s, false
		}
		return parseDecimal(num), s[len(num):], true
	}
	for end < len(s) && isLetter(s[end]) {
		end++
	}
	if n, ok := numberWords[s[:end]]; ok && end < len(s) && s[end] == ' ' {
		return n, s[end:], true
	}
	return 0, s, false
}

// units are the units of a wait, longest spelling first within a prefix.
var units = []struct {
	name string
	unit time.Duration
}{
	{"milliseconds", time.Millisecond}, {"millisecond", time.Millisecond}, {"msecs", time.Millisecond}, {"msec", time.Millisecond}, {"ms", time.Millisecond},
	{"seconds", time.Second}, {"second", time.Second}, {"secs", time.Second}, {"sec", time.Second}, {"s", time.Second},
	{"minutes", time.Minute}, {"minute", time.Minute}, {"mins", time.Minute}, {"min", time.Minute}, {"m", time.Minute},
	{"hours", time.Hour}, {"hour", time.Hour}, {"hrs", time.Hour}, {"hr", time.Hour}, {"h", time.Hour},
	{"days", 24 * time.Hour}, {"day", 24 * time.Hour}, {"d", 24 * time.Hour},
}

// leadingUnit reads a unit that stands as a word of its own at the start
// of s: "5 sections" holds no seconds.
func leadingUnit(s string) (time.Duration, string, bool) {
	for _, u := range units {
		rest, ok := strings.CutPrefix(s, u.name)
		if ok && (rest == "" || !isLetter(rest[0])) {
			return u.unit, rest, true
		}
	}
	return 0, s, false
}

// waitMembers are the members of a body that hold a wait: in seconds,
// Telegram's and Discord's "retry_after" (Discord's with a fraction), and
// in milliseconds, "retry_after_ms".
var waitMembers = []struct {
	key  literal
	unit time.Duration
}{
	{lit(`"retry_after_ms"`), time.Millisecond}, {lit(`"retry_after"`), time.Second}, {lit(`"retryafter"`), time.Second},
	{lit(`'retry_after'`), time.Second}, {lit(`"retry_after_seconds"`), time.Second},
	// The seconds until a usage window resets, which is the wait: OpenAI
	// Codex's usage_limit_reached body, "resets_in_seconds": 13872 (read by
	// pi, earendil-works/pi#4172, and by a Go relay, james-6-23/codex2api#9),
	// and the same count as a header printed in a body
	// ("X-Codex-Primary-Reset-After-Seconds", Discord's
	// "X-RateLimit-Reset-After").
	{lit(`"resets_in_seconds"`), time.Second}, {lit(`"reset_after_seconds"`), time.Second},
	{lit(`reset-after-seconds`), time.Second}, {lit(`ratelimit-reset-after`), time.Second},
	// A Retry-After header printed with the others, in seconds: Elixir's
	// Req ("retry-after" => ["4"]), Python's dict of headers
	// ('retry-after': '4'), Go's http.Header (map[... Retry-After:[4] ...]),
	// a dump of the response ("Retry-After: 4").
	{lit(`retry-after`), time.Second},
}

var retryLit, resetLit = lit("retry"), lit("reset")

// waitMember reads the wait of a body's retry_after member.
func waitMember(t *lowered) (time.Duration, bool) {
	lower := t.s
	if t.index(lower, retryLit) < 0 && t.index(lower, resetLit) < 0 {
		return 0, false
	}
	for _, m := range waitMembers {
		i := t.index(lower, m.key)
		if i < 0 {
			continue
		}
		rest := strings.TrimLeft(lower[i+len(m.key.s):], ` "'`)
		rest, colon := strings.CutPrefix(rest, ":")
		if !colon {
			// Elixir's and Ruby's maps: "retry-after" => ["4"].
			if rest, colon = strings.CutPrefix(rest, "=>"); !colon {
				continue
			}
		}
		rest = strings.TrimLeft(rest, ` "'[`)
		end := 0
		for end < len(rest) && (isDigit(rest[end]) || rest[end] == '.') {
			end++
		}
		if num := rest[:end]; isDecimal(num) {
			return clampWait(parseDecimal(num) * float64(m.unit)), true
		}
	}
	return 0, false
}
