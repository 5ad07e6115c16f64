package taxonomy

import (
	"cmp"
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"syscall"
	"time"
)

// maxText bounds how much of an error's text the rules read, so that a
// 64 KiB HTML page costs what its first 8 KiB cost.
const maxText = 8 << 10

// Classify is the default classifier. It never panics: Classify(nil) answers
// Unknown with the rule "nil error", and an error whose own methods panic (a
// typed nil pointer, say) is [Programming]. The same error always gets the
// same answer. See the package documentation for the order of the rules.
func Classify(err error) Class {
	return classify(err, shipped())
}

// classify is Classify with the token model m as its last resort (nil:
// none).
func classify(err error, m *tokenModel) (c Class) {
	if err == nil {
		return Class{Rule: "nil error"}
	}
	defer func() {
		if recover() != nil {
			c = Class{Kind: Programming, Rule: "error method panicked"}
		}
	}()
	if classified, ok := as[Classified](err); ok {
		return classified.Class()
	}
	if errors.Is(err, context.Canceled) {
		return Class{Kind: Canceled, Rule: "context canceled"}
	}
	if errors.Is(err, context.DeadlineExceeded) {
		return Class{Kind: Transient, Rule: "deadline exceeded"}
	}

	ev := gatherEvidence(err)
	text := err.Error()
	// An HTML error page or a dumped body: the provider's status and message
	// come first, and reading on would only cost time.
	text = text[:min(len(text), maxText)]
	var t lowered
	t.prepare(text)
	lower := t.s
	member := false
	if ev.Status == 0 {
		ev.Status, member = textStatus(&t)
	}
	// An empty message is contained in every text: nothing to join.
	if msg := BoundMessage(ev.ErrorMessage); !strings.Contains(text, msg) {
		// ToLower maps rune by rune, so this equals lowering the joined text.
		lower += ": " + strings.ToLower(msg)
		t.set(lower)
	}
	c = decide(err, &ev, &t, member)
	if c.Rule == noRuleMatched {
		// No rule spoke: the token model may, where its words are clear.
		if mc, ok := m.classify(modelText(text, &ev), &ev); ok {
			c = mc
		}
	}
	if c.Kind == Permanent {
		if !c.ModelMissing {
			_, c.ModelMissing = missingModelRules.first(&t)
		}
		c.AccountFailure = accountScoped(c, &t)
	}
	c.Status = ev.Status
	c.Code = ev.ErrorCode
	if c.Code == "" {
		c.Code = ev.ErrorType
	}
	c = applyShouldRetry(c, ev.ShouldRetry)
	c.AccountFailure = c.AccountFailure && c.Kind == Permanent
	c.RetryAfter, c.WaitSource = ev.wait(c.Kind, &t)
	return c
}

// accountScoped reports whether c, a permanent failure whose text is t, is
// one of the caller's account or deployment (see [Class.AccountFailure]):
// a missing model, or a rule, code or status that says so, or a permanent
// failure decided otherwise whose text says so (Gemini's 400 "API key not
// valid"); never one whose text says the request was refused for its
// content, whatever status carried it.
func accountScoped(c Class, t *lowered) bool {
	if c.ModelMissing {
		return true
	}
	if !c.AccountFailure {
		if _, ok := accountRules.first(t); !ok {
			return false
		}
	}
	_, refused := contentRules.first(t)
	return !refused
}

// decide applies the rules in order of the strength of their evidence.
func decide(err error, ev *Evidence, t *lowered, memberStatus bool) Class {
	lower := t.s
	if strings.TrimSpace(lower) == "" && ev.Status == 0 {
		// A stream that dropped before any error body arrived: nothing to
		// read, and a retry is the one thing that can help.
		return Class{Kind: Transient, Rule: "empty message"}
	}
	// A request larger than a limit of the account is an overflow whatever
	// carries it (a 413 or 429, code rate_limit_exceeded): no wait lets it
	// through, a smaller request can pass.
	if r, ok := sizeLimitRules.first(t); ok {
		return r.class()
	}
	// Wording more specific than any status or code: an overflow sent as a
	// 500 or a ValidationException, a model too large for a local runner
	// sent as a 500. A 429 is a rate limit whatever it says.
	if ev.Status != 429 {
		if r, ok := overflowRules.first(t); ok {
			return r.class()
		}
		// The same in other words: a size (tokens, length, batch, input)
		// over a ceiling (maximum, exceeds, range, more than) in one
		// clause.
		if t.mayHoldAny(sizeWords) {
			if f := t.reading().overflow; f.found() {
				return f.class()
			}
		}
	}
	if r, ok := unloadableRules.first(t); ok {
		return r.class()
	}
	if r, ok := lookupCode(ev.ErrorCode); ok {
		return r.codeClass(ev.ErrorCode)
	}
	// An exhausted balance is permanent whatever 4xx carries it (429, 402,
	// 403, 400); a 5xx says the provider failed, whatever its text, except
	// a 500 that says in so many words that the balance is spent: servers
	// that send every error they have no status for as a 500 (MiniMax's
	// "insufficient balance (1008)" with type api_error) say nothing else.
	if ev.Status < 500 {
		if r, ok := billingRules.first(t); ok {
			if r.hinted != Unknown && liftsByItself(t) {
				return Class{Kind: r.hinted, Rule: r.name + " that lifts by itself"}
			}
			return r.class()
		}
	} else if ev.Status == 500 && insufficientBalance.match(t) {
		return insufficientBalance.class()
	} else if ev.Status == 500 && insufficientBalanceZh.match(t) {
		return insufficientBalanceZh.class()
	}
	// A 500 that says the server is overloaded, as Anthropic sometimes sends
	// its overloaded_error: short of capacity, which the breaker and the
	// fallback must see, not a failure of the request.
	if ev.Status == 500 && overloadedWord.match(t) {
		return overloadedWord.class()
	}
	// A 429, or no status at all, whose words say that the server, the
	// model or the service itself is overloaded or at capacity: the
	// server's own state, which the breaker and the fallback must see, not
	// the caller's usage (see serverOverloadRules).
	if ev.Status == 429 || ev.Status == 0 {
		if r, ok := serverOverloadRules.first(t); ok {
			return r.class()
		}
	}
	// A server's own failure status over words that say a parameter,
	// an option or a flag of the request is refused: local servers send
	// every error as a 500 (llama.cpp's "Unsupported param: tools"), and
	// the same request fails the same way.
	if ev.Status/100 == 5 && t.mayHoldAny(paramWords) {
		if f := t.reading().param; f.found() {
			return f.class()
		}
	}
	// A 4xx read from a member of a pasted body against a provider's code
	// in the same text that names a failure of the server: a relay that
	// wraps a provider's failure in an envelope of its own writes its own
	// status there (LiteLLM's Bedrock event stream: 'status_code': 400
	// around a serviceUnavailableException). The provider's code decides.
	if memberStatus && ev.Status/100 == 4 {
		if c, ok := textCode(t); ok && (c.Kind == Overloaded || c.Kind == Transient) {
			return c
		}
	}
	if isFailureStatus(ev.Status) && definedStatus(ev.Status) {
		return statusClass(ev.Status)
	}
	// The error type is broader than the status ("server_error" comes with a
	// 500 and a 529 alike), so it decides only when no status did: an in-band
	// stream event on a 200 ("overloaded_error").
	if r, ok := lookupCode(ev.ErrorType); ok {
		return t.serverRefusesParam(r.typeClass(ev.ErrorType))
	}
	if c, ok := textCode(t); ok {
		return t.serverRefusesParam(c)
	}
	if c, ok := grpcKind(t); ok {
		return c
	}
	if c, ok := transportClass(err); ok {
		return c
	}
	if r, ok := firstMatch(textRules, t); ok {
		return r.class()
	}
	// Names and words, last: the type or code of a pasted body in the
	// vocabulary's words ("code": "InvalidParameter", "type": "Bad
	// Request", "error_type": "Validation"), the names of failures the text
	// writes (exception classes, status names), an OS error number, then
	// what its clauses say.
	if f, ok := memberName(t); ok {
		return t.serverRefusesParam(f.class())
	}
	rd := t.reading()
	if f, ok := best(rd.names.all(), true); ok {
		return f.class()
	}
	if rd.errno.found() {
		return rd.errno.class()
	}
	if f, ok := best(rd.clues.all(), false); ok {
		return f.class()
	}
	if isFailureStatus(ev.Status) {
		// A status of the provider's own making, and no words that say
		// more: read it as HTTP's class of it (4xx, 5xx).
		return statusClass(ev.Status)
	}
	if s := bodyStatus(t); s != 0 {
		ev.Status = s
		return statusClass(s)
	}
	return Class{Kind: Unknown, Rule: noRuleMatched}
}

// modelText is the text the token model reads: the error's text, cut as
// the rules read it, and the provider's message when the text does not
// hold it.
func modelText(text string, ev *Evidence) string {
	if msg := BoundMessage(ev.ErrorMessage); !strings.Contains(text, msg) {
		return text + ": " + msg
	}
	return text
}

// noRuleMatched is the rule of decide's Unknown when nothing spoke.
const noRuleMatched = "no rule matched"

// definedStatus reports whether a failure status means what HTTP says it
// means: every 5xx (the server failed, whoever made the number up:
// Cloudflare's 52x, Anthropic's 529) and the 4xx that HTTP defines. A 4xx
// of a provider's own making carries its meaning, not HTTP's: Groq's 498 is
// its flex tier at capacity, Cohere's 498 a blocked request and 499 a
// request its user canceled. For them the provider's words decide first,
// and the status only when nothing else does.
func definedStatus(status int) bool {
	return status/100 == 5 || http.StatusText(status) != ""
}

// liftsByItself reports whether a quota the text says is exhausted lifts
// by itself soon: the text carries a retry hint ("Please retry in 12.3s"),
// or the quota it names counts per minute (Gemini's QuotaFailure
// "GenerateRequestsPerMinutePerProjectPerModel-FreeTier", Google Cloud's
// "..._requests_per_minute"). A quota per day or per month is left
// exhausted: no retry of this call outlives it.
//
// A quota whose limit is 0 never lifts, whatever hint comes with it:
// Gemini's free tier for a model it does not serve free says "Quota
// exceeded for metric: ..., limit: 0, model: gemini-2.5-pro" and still
// "Please retry in 20s" (continuedev/continue#10062,
// google-gemini/gemini-cli#22486, akshayaggarwal99/nodenest#1).
func liftsByItself(t *lowered) bool {
	if zeroLimit(t.s) {
		return false
	}
	_, hinted := retryHint(t)
	return hinted || perMinuteRE.MatchString(t.s)
}

var perMinuteRE = regexp.MustCompile(`per[ _]?minute`)

// zeroLimit reports whether the text states a limit of 0: "limit: 0" (a
// quota's limit as Google prints it) or a QuotaFailure's "quotaValue": "0".
func zeroLimit(lower string) bool {
	for _, key := range [...]string{"limit: 0", `"quotavalue":"0"`, `"quotavalue": "0"`} {
		for from := 0; ; {
			i := strings.Index(lower[from:], key)
			if i < 0 {
				break
			}
			end := from + i + len(key)
			if end == len(lower) || !isDigit(lower[end]) && lower[end] != '.' {
				return true
			}
			from = end
		}
	}
	return false
}

// transportClass classifies typed transport, request-building and decoding
// errors.
func transportClass(err error) (Class, bool) {
	switch {
	case has[*tls.CertificateVerificationError](err), has[x509.UnknownAuthorityError](err),
		has[x509.HostnameError](err), has[x509.CertificateInvalidError](err):
		return Class{Kind: Permanent, Rule: "tls certificate"}, true
	case has[tls.AlertError](err), has[tls.RecordHeaderError](err):
		// The server refused the handshake (a protocol version or cipher it
		// does not take, a client certificate it wants), or does not speak
		// TLS on that port: the next handshake fails the same way.
		return Class{Kind: Permanent, Rule: "tls handshake"}, true
	case errors.Is(err, syscall.ECONNRESET):
		return Class{Kind: Transient, Rule: "connection reset"}, true
	case errors.Is(err, syscall.ECONNREFUSED):
		return Class{Kind: Transient, Rule: "connection refused"}, true
	case errors.Is(err, syscall.EPIPE):
		return Class{Kind: Transient, Rule: "broken pipe"}, true
	case errors.Is(err, syscall.ENETUNREACH), errors.Is(err, syscall.EHOSTUNREACH):
		// A route that is down now may be back for the next attempt.
		return Class{Kind: Transient, Rule: "network unreachable"}, true
	case errors.Is(err, syscall.ECONNABORTED):
		return Class{Kind: Transient, Rule: "connection aborted"}, true
	case errors.Is(err, io.ErrUnexpectedEOF):
		return Class{Kind: Transient, Rule: "unexpected EOF"}, true
	case errors.Is(err, io.EOF):
		return Class{Kind: Transient, Rule: "EOF"}, true
	case has[*json.UnmarshalTypeError](err), has[*json.InvalidUnmarshalError](err),
		has[*json.UnsupportedTypeError](err), has[*json.UnsupportedValueError](err),
		has[*json.MarshalerError](err):
		// The client's types do not fit the request or the response: the
		// same call fails the same way until the code changes.
		return Class{Kind: Programming, Rule: "json type mismatch"}, true
	case has[*json.SyntaxError](err):
		// A 200 with an HTML page or a garbled body: worth one more try, not more.
		return Class{Kind: Unknown, Rule: "malformed response body"}, true
	}
	if dnsErr, ok := as[*net.DNSError](err); ok {
		if dnsErr.IsNotFound {
			// Transient by the convention of docs/testing.md ("A name not
			// resolved"): Go sets IsNotFound for an NXDOMAIN and, through
			// the system's resolver on macOS, for EAI_NONAME, which also
			// comes from a machine with no network; a Kubernetes service's
			// name is NXDOMAIN until the service exists.
			return Class{Kind: Transient, Rule: "dns: no such host"}, true
		}
		return Class{Kind: Transient, Rule: "dns error"}, true
	}
	if netErr, ok := as[net.Error](err); ok && netErr.Timeout() {
		return Class{Kind: Transient, Rule: "network timeout"}, true
	}
	if urlErr, ok := as[*url.Error](err); ok {
		if urlErr.Op == "parse" {
			// url.Parse's own error: the base URL is malformed.
			return Class{Kind: Programming, Rule: "invalid url"}, true
		}
		inner := urlErr.Err.Error()
		if strings.Contains(inner, "unsupported protocol scheme") {
			return Class{Kind: Programming, Rule: `marker "unsupported protocol scheme"`}, true
		}
		// net/http's text for a TLS handshake answered in plain HTTP
		// (https:// to a plain HTTP port), which replaces the typed
		// tls.RecordHeaderError: every handshake is answered the same way.
		if strings.Contains(inner, "server gave HTTP response to HTTPS client") {
			return Class{Kind: Permanent, Rule: "tls handshake"}, true
		}
		// net/http answers a proxy's refusal of CONNECT with the reason
		// phrase of its status and nothing else: "Proxy Authentication
		// Required" (407), "Forbidden", "Bad Gateway".
		if s, ok := bodyStatuses[strings.ToLower(inner)]; ok {
			c := statusClass(s)
			// The caller's proxy refused, not the provider: its 403 or 404
			// says nothing of the account or the model behind it.
			c.Rule, c.ModelMissing, c.AccountFailure = "proxy "+c.Rule, false, false
			return c, true
		}
		return Class{Kind: Transient, Rule: "transport error"}, true
	}
	return Class{}, false
}

// applyShouldRetry lets the provider's x-should-retry header overrule the
// retryability of the kind, as the official SDKs do. It never turns a
// context overflow, a cancellation or a programming error into a retry.
func applyShouldRetry(c Class, should string) Class {
	switch strings.ToLower(should) {
	case "true":
		if c.Kind == Permanent || c.Kind == Unknown {
			c.Kind = Transient
			c.Rule += "; x-should-retry: true"
		}
	case "false":
		if c.Kind.Retryable() {
			c.Kind = Permanent
			c.Rule += "; x-should-retry: false"
		}
	}
	return c
}

// gatherEvidence walks the error tree once, strongest evidence first: a
// *WireError, then typed errors in the order of the walk, each filling only
// what is still missing. The status inside the text is read by the caller,
// which has the lowercased text at hand.
func gatherEvidence(err error) Evidence {
	var ev Evidence
	if wire, _ := as[*WireError](err); wire != nil {
		ev = wire.Evidence
	}
	now := time.Time{}
	walk(err, func(e error) bool {
		t := readTyped(e)
		if ev.Status == 0 && isStatus(t.status) {
			ev.Status = t.status
		}
		ev.ErrorCode = cmp.Or(ev.ErrorCode, t.code)
		ev.ErrorType = cmp.Or(ev.ErrorType, t.errType)
		ev.ErrorMessage = cmp.Or(ev.ErrorMessage, t.message)
		if t.header != nil {
			if now.IsZero() {
				now = time.Now()
			}
			ev.addHints(HeaderEvidence(t.header, 0, now))
		}
		return true
	})
	return ev
}

// isStatus reports whether s is an HTTP status (100 to 599): typed errors
// carry 0, or a wrong number, when no response arrived.
func isStatus(s int) bool { return s >= 100 && s <= 599 }

// as finds the first error in err's tree that is a T, as [errors.As] does
// (As methods included), without errors.As's allocation of the target. Go
// 1.26's errors.AsType does the same; this module still supports Go 1.25.
func as[T any](err error) (T, bool) {
	var found T
	ok := false
	walk(err, func(e error) bool {
		if x, is := e.(T); is {
			found, ok = x, true
			return false
		}
		if a, is := e.(interface{ As(any) bool }); is {
			var x T // allocated only for errors with an As method
			if a.As(&x) {
				found, ok = x, true
				return false
			}
		}
		return true
	})
	return found, ok
}

// has reports whether err's tree holds a T.
func has[T any](err error) bool {
	_, ok := as[T](err)
	return ok
}

// walk visits err and the errors it wraps, depth first, until visit returns
// false. It stops after 64 errors, so a malformed Unwrap cannot loop forever.
func walk(err error, visit func(error) bool) {
	var buf [8]error // most trees are a chain of a few errors: no allocation
	stack := append(buf[:0], err)
	for n := 0; len(stack) > 0 && n < 64; n++ {
		e := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if e == nil {
			continue
		}
		if !visit(e) {
			return
		}
		switch u := e.(type) {
		case interface{ Unwrap() error }:
			stack = append(stack, u.Unwrap())
		case interface{ Unwrap() []error }:
			errs := u.Unwrap()
			for i := len(errs) - 1; i >= 0; i-- {
				stack = append(stack, errs[i])
			}
		}
	}
}
