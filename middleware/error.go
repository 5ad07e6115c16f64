package middleware

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"time"

	"github.com/failsafe-go/failsafe-go/circuitbreaker"
	"github.com/failsafe-go/failsafe-go/retrypolicy"

	"github.com/resilientgo/resilient/internal/redact"
	"github.com/resilientgo/resilient/limit"
	"github.com/resilientgo/resilient/observe"
	"github.com/resilientgo/resilient/run"
	"github.com/resilientgo/resilient/taxonomy"
)

// Sentinels for [errors.Is]: an *[Error] matches the sentinel of its Reason,
// so callers need not import failsafe-go nor compare Reason values. Models
// and tools share them: errors.Is(err, ErrCircuitOpen) holds for a model
// call refused by its breaker and for a tool whose circuit stopped the run.
var (
	ErrPermanent         = errors.New("middleware: failed permanently")
	ErrExhausted         = errors.New("middleware: attempts exhausted")
	ErrCircuitOpen       = errors.New("middleware: circuit open")
	ErrRetryAfterOverCap = errors.New("middleware: retry-after over the cap")
	ErrBudgetSpent       = errors.New("middleware: retry budget spent")
	ErrDeadline          = errors.New("middleware: deadline exceeded")
	ErrContextOverflow   = errors.New("middleware: context overflow")
	ErrUnretryable       = errors.New("middleware: not retryable")
	ErrRejected          = errors.New("middleware: rejected by a policy")
	ErrThrottled         = errors.New("middleware: retries throttled")
	// ErrAttemptTimeout is matched by the final error of a call one of
	// whose attempts ran out of its own time ([Timeout]), whatever the call
	// stopped for. Through a final error, context.DeadlineExceeded is
	// matched only when the caller's deadline is why the call stopped (it
	// passed, or would pass before the next attempt): an attempt that ran
	// out of the library's time (its Timeout, the call's MaxDuration) does
	// not match it, though its own error (Attempt.Err) does.
	ErrAttemptTimeout = errors.New("middleware: attempt timed out")
)

// reasonErr maps each Reason that stops a pipeline's call to its sentinel,
// defined once: here, or in the package of the limit that refused (run,
// limit). ReasonCanceled has none: a canceled call matches context.Canceled
// or context.DeadlineExceeded.
var reasonErr = [...]error{
	observe.ReasonPermanent:         ErrPermanent,
	observe.ReasonExhausted:         ErrExhausted,
	observe.ReasonCircuitOpen:       ErrCircuitOpen,
	observe.ReasonRetryAfterOverCap: ErrRetryAfterOverCap,
	observe.ReasonBudgetSpent:       ErrBudgetSpent,
	observe.ReasonDeadline:          ErrDeadline,
	observe.ReasonContextOverflow:   ErrContextOverflow,
	observe.ReasonUnretryable:       ErrUnretryable,
	observe.ReasonRejected:          ErrRejected,
	observe.ReasonThrottled:         ErrThrottled,
	observe.ReasonUsageLimit:        run.ErrUsageLimit,
	observe.ReasonConcurrency:       limit.ErrConcurrency,
	observe.ReasonRateLimit:         limit.ErrLimited,
	observe.ReasonAbandoned:         ErrAbandoned,
}

// Attempt records one attempt of a call.
type Attempt struct {
	// Number counts attempts from 1.
	Number int
	// Target names the member of a pool the attempt went to (see
	// [Members]); empty for an attempt of a plain pipeline, or one that no
	// member took.
	Target string
	// Wait is how long the pipeline waited before this attempt.
	Wait time.Duration
	// Duration is how long the attempt took.
	Duration time.Duration
	// Err is the attempt's error as the protected function returned it.
	Err error
	// Class is what the classifier made of Err.
	Class taxonomy.Class
	// PastLimit is true for an attempt past its kind's attempt limit, paid
	// from the run's unspent retry budget (see [PastLimitAttempts]).
	PastLimit bool

	text string // Err as String shows it, rendered once when the call failed
}

// String renders the attempt the way a reader of an incident needs it:
// "Type: text" (the Go type shows which layer failed, when it says more
// than errors.New's or fmt.Errorf's would), with its kind and rule, e.g.
// `attempt 2 after 412ms: *url.Error: Post "https://api.openai.com/v1/chat/completions":
// read: connection reset by peer [transient, connection reset]` or
// `attempt 3 after 1.1s: API returned unexpected status code: 503
// [overloaded, status 503]`; the attempt of a pool names its member:
// `attempt 2 to eu-west: ...`.
func (a Attempt) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "attempt %d", a.Number)
	if a.Target != "" {
		b.WriteString(" to ")
		b.WriteString(a.Target)
	}
	if a.Wait > 0 {
		fmt.Fprintf(&b, " after %v", a.Wait.Round(time.Millisecond))
	}
	if a.PastLimit {
		b.WriteString(" (past the limit, on the run's budget)")
	}
	b.WriteString(": ")
	if a.text != "" {
		b.WriteString(a.text)
	} else {
		b.WriteString(describe(a.Err))
	}
	b.WriteString(" [")
	b.WriteString(a.Class.Kind.String())
	if a.Class.Rule != "" {
		b.WriteString(", ")
		b.WriteString(a.Class.Rule)
	}
	b.WriteString("]")
	return b.String()
}

// describe renders err as "Type: text". The type named is the first in
// err's chain, under this library's transparent wrappers (wire evidence,
// forced classes, no-retry marks), that says something: a type of the
// standard library's errors, fmt or context packages (errors.New's,
// fmt.Errorf's, errors.Join's) says nothing the text does not, and a
// provider's own error type under fmt.Errorf's wrapping does. Without one,
// the text stands alone; an empty text degrades to the type name alone.
// Credentials in the text (an API key that a gateway echoed in its error
// body) are redacted, and a text over 4 KiB is cut, the cut marked (see
// redact.Keep): the final error is returned to callers that log it. The
// attempt's Err keeps the original.
func describe(err error) string {
	if err == nil {
		return "<nil>"
	}
	var shown error
	for e := err; e != nil; e = unwrapTransparent(e) {
		shown = e
	}
	text := err.Error()
	if text == "" {
		return fmt.Sprintf("%T", shown)
	}
	for e := shown; e != nil; e = errors.Unwrap(e) {
		if t := reflect.TypeOf(e); informative(t) {
			return t.String() + ": " + redact.Keep(text, nil)
		}
	}
	return redact.Keep(text, nil)
}

// informative reports whether the name of an error's type t tells a reader
// something: not the plain errors of the standard library's errors, fmt
// and context packages.
func informative(t reflect.Type) bool {
	if t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.PkgPath() {
	case "errors", "fmt", "context":
		return false
	}
	return true
}

// unwrapTransparent returns what a transparent wrapper wraps, nil for any
// other error. Transparent wrappers keep the wrapped error's text unchanged.
func unwrapTransparent(err error) error {
	switch e := err.(type) {
	case *taxonomy.WireError:
		return e.Err
	case *unretryableError:
		return e.err
	case *decision:
		return e.err
	}
	if _, ok := err.(taxonomy.Classified); ok && errors.Unwrap(err) != nil && err.Error() == errors.Unwrap(err).Error() {
		return errors.Unwrap(err) // taxonomy.WithClass
	}
	return nil
}

// Error is the final error of a call that did not succeed: why it stopped and
// every attempt it made. It unwraps to every attempt's error, so errors.Is
// and errors.As reach the provider errors; errors.Is also matches the
// sentinel of its Reason ([ErrExhausted], [ErrCircuitOpen], ...), and
// context.Canceled or context.DeadlineExceeded when the caller gave up (and,
// for code written against failsafe-go, retrypolicy.ErrExceeded and
// circuitbreaker.ErrOpen). [taxonomy.Classify] reports the last attempt's class, so
// an outer layer of this library does not retry it again.
type Error struct {
	// Target names what was called (a model, a tool).
	Target string
	// Reason says why the call stopped.
	Reason observe.Reason
	// Detail adds words to the reason, e.g. why a failure was not retryable.
	Detail string
	// Attempts lists every attempt, in order.
	Attempts []Attempt

	cause error // the caller's context error, for ReasonCanceled and the caller's deadline
}

// Error reads like
//
//	middleware: gpt-4o failed after 3 attempts: attempt 1: ...; attempt 2 after 312ms: ...
func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString("middleware: ")
	if e.Target != "" {
		b.WriteString(e.Target)
		b.WriteString(" ")
	}
	switch e.Reason {
	case observe.ReasonExhausted:
		if len(e.Attempts) == 1 {
			b.WriteString("failed after 1 attempt")
		} else {
			fmt.Fprintf(&b, "failed after %d attempts", len(e.Attempts))
		}
	case observe.ReasonPermanent:
		b.WriteString("failed permanently")
	default:
		b.WriteString("stopped: ")
		b.WriteString(stoppedText(e.Reason))
	}
	if e.Detail != "" {
		b.WriteString(" (")
		b.WriteString(e.Detail)
		b.WriteString(")")
	}
	for i, a := range e.Attempts {
		if i == 0 {
			b.WriteString(": ")
		} else {
			b.WriteString("; ")
		}
		b.WriteString(a.String())
	}
	return b.String()
}

// Unwrap returns every attempt's error, and the caller's context error when
// the call was canceled or stopped for the caller's deadline. An attempt's
// error that matches context.DeadlineExceeded is returned so that it no
// longer does (it matches [ErrAttemptTimeout] when the attempt's Timeout
// ended it): that deadline was the library's, not the caller's. Every
// other errors.Is and errors.As reaches it as before.
func (e *Error) Unwrap() []error {
	errs := make([]error, 0, len(e.Attempts)+1)
	for _, a := range e.Attempts {
		if a.Err != nil {
			errs = append(errs, ownDeadline(a))
		}
	}
	if e.cause != nil {
		errs = append(errs, e.cause)
	}
	return errs
}

// ownDeadline returns a's error, as a *libraryDeadline when it matches
// context.DeadlineExceeded and is not itself a final error (which says for
// itself whose deadline it was).
func ownDeadline(a Attempt) error {
	if !errors.Is(a.Err, context.DeadlineExceeded) || errors.As(a.Err, new(*Error)) {
		return a.Err
	}
	return &libraryDeadline{err: a.Err, timeout: a.Class.Rule == ruleAttemptTimeout}
}

// libraryDeadline is an attempt's error that passed a deadline of the
// library's own (an attempt's Timeout, a call's MaxDuration), as a final
// error unwraps to it: it matches [ErrAttemptTimeout] for a timeout,
// never context.DeadlineExceeded, and everything else its error matches.
type libraryDeadline struct {
	err     error
	timeout bool
}

func (e *libraryDeadline) Error() string { return e.err.Error() }

func (e *libraryDeadline) Is(target error) bool {
	switch target {
	case context.DeadlineExceeded:
		return false
	case ErrAttemptTimeout:
		return e.timeout
	}
	return errors.Is(e.err, target)
}

func (e *libraryDeadline) As(target any) bool { return errors.As(e.err, target) }

// Is matches the sentinel of e's Reason, and failsafe-go's
// retrypolicy.ErrExceeded for ReasonExhausted and circuitbreaker.ErrOpen for
// ReasonCircuitOpen.
func (e *Error) Is(target error) bool {
	switch target {
	case retrypolicy.ErrExceeded:
		return e.Reason == observe.ReasonExhausted
	case circuitbreaker.ErrOpen:
		return e.Reason == observe.ReasonCircuitOpen
	}
	return int(e.Reason) < len(reasonErr) && target != nil && reasonErr[e.Reason] == target
}

// Class reports the class of the last attempt (Canceled when the caller gave
// up), making Error a [taxonomy.Classified].
func (e *Error) Class() taxonomy.Class {
	if e.Reason == observe.ReasonCanceled {
		return taxonomy.Class{Kind: taxonomy.Canceled, Rule: "caller gave up"}
	}
	if len(e.Attempts) == 0 {
		return taxonomy.Class{Kind: taxonomy.Unknown, Rule: stoppedText(e.Reason)}
	}
	return e.Attempts[len(e.Attempts)-1].Class
}

// Last returns the last attempt's error, nil if no attempt was made.
func (e *Error) Last() error {
	if len(e.Attempts) == 0 {
		return nil
	}
	return e.Attempts[len(e.Attempts)-1].Err
}

// Unretryable marks err so that the pipeline does not retry it, whatever its
// kind: for instance a stream that already delivered output to the caller.
// The call stops with [observe.ReasonUnretryable] and detail as Error.Detail. The
// text of the result is err's text, unchanged; nil stays nil.
func Unretryable(err error, detail string) error {
	if err == nil {
		return nil
	}
	return &unretryableError{err: err, detail: detail}
}

type unretryableError struct {
	err    error
	detail string
}

func (e *unretryableError) Error() string { return e.err.Error() }
func (e *unretryableError) Unwrap() error { return e.err }

// PanicError is what a panic inside the protected function becomes: a
// programming failure that is never retried. Stack holds the goroutine's
// stack at the panic, for logs; it is not part of the error text.
type PanicError struct {
	Value any
	Stack []byte
}

// Error returns "panic: <value>", the value shown as text: an error's text,
// a byte slice as text (not decimal numbers, which no redaction could read).
func (e *PanicError) Error() string { return "panic: " + redact.Text(e.Value) }

// PanicStack returns Stack: the log observer ([observe.Log]) writes it.
func (e *PanicError) PanicStack() []byte { return e.Stack }

// Unwrap returns the panic value when it is an error.
func (e *PanicError) Unwrap() error {
	err, _ := e.Value.(error)
	return err
}

// Class reports a programming failure.
func (e *PanicError) Class() taxonomy.Class {
	return taxonomy.Class{Kind: taxonomy.Programming, Rule: "panic"}
}

// The rules of the classes the pipeline gives by itself.
const (
	ruleAttemptTimeout = "attempt timeout"
	ruleMaxDuration    = "max duration exceeded"
)

// canceledCause returns the caller's context error for the final error.
func canceledCause(ctx context.Context) error {
	if cause := context.Cause(ctx); cause != nil {
		if errors.Is(cause, ctx.Err()) {
			return cause
		}
		return errors.Join(ctx.Err(), cause)
	}
	return ctx.Err()
}

// stoppedText is how the text of the final error says why a call stopped.
func stoppedText(r observe.Reason) string {
	switch r {
	case observe.ReasonPermanent:
		return "failed permanently"
	case observe.ReasonCircuitOpen:
		return "circuit open"
	case observe.ReasonRetryAfterOverCap:
		return "retry-after over the cap"
	case observe.ReasonBudgetSpent:
		return "retry budget spent"
	case observe.ReasonDeadline:
		return "deadline exceeded"
	case observe.ReasonContextOverflow:
		return "context overflow"
	case observe.ReasonUnretryable:
		return "not retryable"
	case observe.ReasonRejected:
		return "rejected by a policy"
	case observe.ReasonThrottled:
		return "retries throttled"
	case observe.ReasonUsageLimit:
		return "usage limit"
	case observe.ReasonConcurrency:
		return "concurrency limit"
	case observe.ReasonRateLimit:
		return "rate limit"
	case observe.ReasonAbandoned:
		return "abandoned attempts"
	}
	return r.String() // canceled
}

// ReasonOf returns why a call that failed with err stopped: the Reason of
// the final *[Error] that err wraps; else [observe.ReasonCanceled] when err
// is classified as the caller giving up; else [observe.ReasonPermanent] (a
// failure outside any pipeline, such as a programming error). Adapters
// report it in their [observe.CallEnd], where a zero Reason means the call
// was answered. A nil err has no reason.
func ReasonOf(err error) observe.Reason {
	var final *Error
	switch {
	case err == nil:
		return 0
	case errors.As(err, &final):
		return final.Reason
	case taxonomy.Classify(err).Kind == taxonomy.Canceled:
		return observe.ReasonCanceled
	}
	return observe.ReasonPermanent
}
