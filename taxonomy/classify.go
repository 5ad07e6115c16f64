package taxonomy

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"net/url"
	"reflect"
	"strconv"
	"strings"
	"sync"
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
func Classify(err error) (c Class) {
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
	if len(text) > maxText {
		// An HTML error page or a dumped body: the provider's status and
		// message come first, and reading on would only cost time.
		text = text[:maxText]
	}
	lower := strings.ToLower(text)
	if ev.Status == 0 {
		ev.Status = textStatus(lower)
	}
	if msg := BoundMessage(ev.ErrorMessage); msg != "" && !strings.Contains(text, msg) {
		// ToLower maps rune by rune, so this equals lowering the joined text.
		lower += ": " + strings.ToLower(msg)
	}

	c = decide(err, &ev, lower)
	c.Status = ev.Status
	c.Code = ev.ErrorCode
	if c.Code == "" {
		c.Code = ev.ErrorType
	}
	c = applyShouldRetry(c, ev.ShouldRetry)
	c.RetryAfter, c.WaitSource = ev.wait(c.Kind, lower)
	return c
}

// decide applies the rules in order of the strength of their evidence.
func decide(err error, ev *Evidence, lower string) Class {
	if strings.TrimSpace(lower) == "" && ev.Status == 0 {
		// A stream that dropped before any error body arrived (seed 000).
		return Class{Kind: Transient, Rule: "empty message"}
	}
	if r, ok := lookupCode(ev.ErrorCode); ok {
		return Class{Kind: r.kind, Rule: r.codeRule(ev.ErrorCode)}
	}
	if ev.Status == 0 || (ev.Status >= 400 && ev.Status <= 499) {
		if r, ok := firstMatch(quotaRules, lower); ok {
			if _, hinted := retryHint(lower); hinted && r.hinted != Unknown {
				return Class{Kind: r.hinted, Rule: r.name + " with a retry hint"}
			}
			return Class{Kind: r.kind, Rule: r.name}
		}
		if ev.Status != 429 {
			if r, ok := firstMatch(overflowRules, lower); ok {
				return Class{Kind: r.kind, Rule: r.name}
			}
		}
	}
	if kind, ok := statusKind(ev.Status); ok {
		return Class{Kind: kind, Rule: statusRule(ev.Status)}
	}
	// The error type is broader than the status ("server_error" comes with a
	// 500 and a 529 alike), so it decides only when no status did: an in-band
	// stream event on a 200 ("overloaded_error").
	if r, ok := lookupCode(ev.ErrorType); ok {
		return Class{Kind: r.kind, Rule: r.typeRule(ev.ErrorType)}
	}
	if c, ok := grpcKind(lower); ok {
		return c
	}
	if c, ok := transportClass(err, lower); ok {
		return c
	}
	if r, ok := firstMatch(textRules, lower); ok {
		return Class{Kind: r.kind, Rule: r.name}
	}
	return Class{Kind: Unknown, Rule: "no rule matched"}
}

// transportClass classifies typed transport and decoding errors.
func transportClass(err error, lower string) (Class, bool) {
	switch {
	case has[*tls.CertificateVerificationError](err), has[x509.UnknownAuthorityError](err),
		has[x509.HostnameError](err), has[x509.CertificateInvalidError](err):
		return Class{Kind: Permanent, Rule: "tls certificate"}, true
	case errors.Is(err, syscall.ECONNRESET):
		return Class{Kind: Transient, Rule: "connection reset"}, true
	case errors.Is(err, syscall.ECONNREFUSED):
		return Class{Kind: Transient, Rule: "connection refused"}, true
	case errors.Is(err, syscall.EPIPE):
		return Class{Kind: Transient, Rule: "broken pipe"}, true
	case errors.Is(err, io.ErrUnexpectedEOF):
		return Class{Kind: Transient, Rule: "unexpected EOF"}, true
	case errors.Is(err, io.EOF):
		return Class{Kind: Transient, Rule: "EOF"}, true
	}
	if dnsErr, ok := as[*net.DNSError](err); ok {
		if dnsErr.IsNotFound {
			return Class{Kind: Permanent, Rule: "dns: no such host"}, true
		}
		return Class{Kind: Transient, Rule: "dns error"}, true
	}
	if netErr, ok := as[net.Error](err); ok && netErr.Timeout() {
		return Class{Kind: Transient, Rule: "network timeout"}, true
	}
	if has[*url.Error](err) {
		if strings.Contains(lower, "unsupported protocol scheme") {
			return Class{Kind: Programming, Rule: `marker "unsupported protocol scheme"`}, true
		}
		return Class{Kind: Transient, Rule: "transport error"}, true
	}
	if has[*json.SyntaxError](err) || has[*json.UnmarshalTypeError](err) {
		// A 200 with an HTML page or a garbled body: worth one more try, not more.
		return Class{Kind: Unknown, Rule: "malformed response body"}, true
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

type httpCoder interface{ HTTPCode() int }             // googleai *apierror.APIError
type httpStatusCoder interface{ HTTPStatusCode() int } // bedrock *awshttp.ResponseError

// gatherEvidence walks the error tree once, strongest evidence first: a
// *WireError, then typed statuses and the wait hints of typed response
// headers. The status inside the text is read by the caller, which has the
// lowercased text at hand.
func gatherEvidence(err error) Evidence {
	var ev Evidence
	if wire, ok := as[*WireError](err); ok && wire != nil {
		ev = wire.Evidence
	}
	hinted := ev.hinted()
	walk(err, func(e error) bool {
		if ev.Status == 0 {
			ev.Status = typedStatus(e)
		}
		if !hinted {
			if h, ok := typedHeader(e); ok {
				ev.addHints(HeaderEvidence(h, 0, time.Now()))
				hinted = ev.hinted()
			}
		}
		return ev.Status == 0 || !hinted
	})
	return ev
}

func typedStatus(e error) int {
	var status int
	switch t := e.(type) {
	case httpCoder:
		status = t.HTTPCode()
	case httpStatusCoder:
		status = t.HTTPStatusCode()
	default:
		if f, ok := fieldOf(e, statusField); ok {
			status = int(f.Int())
		}
	}
	if status < 100 || status > 599 {
		return 0
	}
	return status
}

// typedHeader returns the response headers of an error that exposes them
// as a field named Header (googleapi.Error does).
func typedHeader(e error) (http.Header, bool) {
	f, ok := fieldOf(e, headerField)
	if !ok || !f.CanInterface() {
		return nil, false
	}
	h, _ := f.Interface().(http.Header)
	return h, h != nil
}

func textStatus(lower string) int {
	for _, st := range statusTexts {
		if !strings.Contains(lower, st.need) {
			continue
		}
		m := st.re.FindStringSubmatchIndex(lower)
		if m == nil {
			continue
		}
		if s, _ := strconv.Atoi(lower[m[2]:m[3]]); s >= 400 && s <= 599 {
			return s
		}
	}
	return 0
}

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

// Typed errors from packages this one does not import, such as ollama's
// internal StatusError{StatusCode int} and googleapi.Error{Header http.Header},
// are read through their exported fields. The lookup is cached per type.
type fieldSpec struct {
	name string
	typ  reflect.Type
}

var (
	statusField = fieldSpec{"StatusCode", reflect.TypeFor[int]()}
	headerField = fieldSpec{"Header", reflect.TypeFor[http.Header]()}
	fieldCache  sync.Map // reflect.Type -> *typeFields
)

// typeFields holds the index paths of a struct type's StatusCode and Header
// fields, nil when it has no such field.
type typeFields struct {
	status, header []int
}

func fieldsOf(t reflect.Type) *typeFields {
	if cached, ok := fieldCache.Load(t); ok {
		return cached.(*typeFields)
	}
	st := t
	if st.Kind() == reflect.Pointer {
		st = st.Elem()
	}
	index := func(spec fieldSpec) []int {
		if f, ok := st.FieldByName(spec.name); ok && f.IsExported() && f.Type == spec.typ {
			return f.Index
		}
		return nil
	}
	fields := &typeFields{status: index(statusField), header: index(headerField)}
	cached, _ := fieldCache.LoadOrStore(t, fields)
	return cached.(*typeFields)
}

func fieldOf(e error, spec fieldSpec) (reflect.Value, bool) {
	t := reflect.TypeOf(e)
	if t.Kind() != reflect.Pointer || t.Elem().Kind() != reflect.Struct {
		if t.Kind() != reflect.Struct {
			return reflect.Value{}, false
		}
	}
	fields := fieldsOf(t)
	path := fields.status
	if spec == headerField {
		path = fields.header
	}
	if path == nil {
		return reflect.Value{}, false
	}
	v := reflect.ValueOf(e)
	if v.Kind() == reflect.Pointer {
		if v.IsNil() {
			return reflect.Value{}, false
		}
		v = v.Elem()
	}
	f, err := v.FieldByIndexErr(path)
	if err != nil {
		return reflect.Value{}, false
	}
	return f, true
}
