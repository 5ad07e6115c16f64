package taxonomy

import (
	"fmt"
	"regexp"
	"strings"
	"time"
)

// Class is the answer to "what kind of failure was this?", with the evidence
// that decided it.
type Class struct {
	// Kind is what went wrong.
	Kind Kind
	// WaitSource is where RetryAfter comes from: a Retry-After header or the
	// provider's text (WaitRetryAfter), the announced rate-limit reset of a
	// rate-limited failure without a Retry-After (WaitReset), or nowhere
	// (WaitBackoff, the zero value: the pipeline's backoff decides). It
	// sits beside Kind so that the two bytes share a word.
	WaitSource WaitSource
	// Rule names the rule that decided, for logs: "status 429",
	// `marker "invalid api key"`, "empty message", "context canceled"...
	Rule string
	// Status is the HTTP status when known, else 0.
	Status int
	// RetryAfter is the wait before a retry that the provider's evidence
	// asks for, at most [MaxWaitHint]; WaitSource says where it comes from.
	// 0 with WaitRetryAfter is an explicit "retry now"; 0 with WaitBackoff
	// means no hint.
	RetryAfter time.Duration
	// Code is the provider's machine-readable error type or code when known,
	// such as "insufficient_quota" or "overloaded_error", else "".
	Code string
	// ModelMissing reports that the evidence says the requested model does
	// not exist, was retired or is not available to the caller: a status
	// 404, codes such as model_not_found, model_decommissioned, not_found_error
	// and ResourceNotFoundException, or those words in the text of a
	// permanent failure whatever decided it ("The model x has been
	// decommissioned" sent as a 400). The request fails the same way every
	// time, but another model can serve it, so package llms falls back on it.
	ModelMissing bool
	// AccountFailure reports that the evidence places a permanent failure
	// with the caller's account or deployment, not with the request: an
	// invalid, missing or revoked key (401, invalid_api_key), permission
	// denied to that key or project (403, permission_error), quota or
	// credits exhausted, billing inactive or a spending limit reached (402,
	// insufficient_quota, "credit balance is too low"), an account or
	// organization suspended, the caller's country or region not served,
	// and every ModelMissing failure (a model or deployment that is not
	// there). The same request fails the same way on that account every
	// time, but another account, region or deployment of the same model may
	// serve it: a pool of package middleware takes the member out of
	// rotation and sends the request to another, and package llms falls
	// back on it. A text that says the request itself was refused for its
	// content (a content filter, a moderation flag) is no account failure,
	// whatever its status. [Classify] sets it on Permanent classes only.
	AccountFailure bool
}

// String renders the class for logs, e.g. "rate_limited (status 429, retry after 7s)".
func (c Class) String() string {
	var b strings.Builder
	b.WriteString(c.Kind.String())
	if c.Rule == "" && c.RetryAfter == 0 {
		return b.String()
	}
	b.WriteString(" (")
	b.WriteString(c.Rule)
	if c.RetryAfter > 0 {
		if c.Rule != "" {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "retry after %v", c.RetryAfter)
	}
	b.WriteString(")")
	return b.String()
}

// A Classifier tells what kind of failure an error is. Implementations must be
// safe for concurrent use and must not panic, whatever the error (nil included).
type Classifier interface {
	Classify(err error) Class
}

// ClassifierFunc adapts a function to [Classifier].
type ClassifierFunc func(err error) Class

// Classify calls f(err).
func (f ClassifierFunc) Classify(err error) Class { return f(err) }

// Default is the classifier described in the package documentation. It is
// safe for concurrent use.
var Default Classifier = ClassifierFunc(Classify)

// Chain composes classifiers: the first answer whose Kind is not [Unknown]
// wins. When every classifier answers Unknown, the last answer is returned (so
// with [Default] last, its rule name and evidence survive). Nil classifiers are
// skipped; an empty chain answers Unknown. The result is safe for concurrent
// use when its parts are.
func Chain(classifiers ...Classifier) Classifier {
	cs := make([]Classifier, 0, len(classifiers))
	for _, c := range classifiers {
		if c != nil {
			cs = append(cs, c)
		}
	}
	return chain(cs)
}

type chain []Classifier

func (cs chain) Classify(err error) Class {
	var last Class
	for _, c := range cs {
		last = c.Classify(err)
		if last.Kind != Unknown {
			return last
		}
	}
	return last
}

// Match returns a classifier that answers kind when re matches the error's
// text, and Unknown otherwise (including for a nil error). Its rule name is
// `pattern "<re>"`. Use it to put a rule of your own ahead of [Default] with
// [Chain].
func Match(kind Kind, re *regexp.Regexp) Classifier {
	rule := fmt.Sprintf("pattern %q", re.String())
	return ClassifierFunc(func(err error) Class {
		if err == nil || !re.MatchString(err.Error()) {
			return Class{Rule: rule}
		}
		return Class{Kind: kind, Rule: rule}
	})
}

// Classified is implemented by errors that know their own class, such as the
// final error of an inner resilient layer. [Classify] trusts the first one it
// finds in the error's tree before any other rule.
type Classified interface {
	error
	Class() Class
}

// WithClass returns an error that wraps err and reports class c to
// [Classify]. Its text is err's text, unchanged. It returns nil for a nil err.
func WithClass(err error, c Class) error {
	if err == nil {
		return nil
	}
	return &classifiedError{err: err, class: c}
}

type classifiedError struct {
	err   error
	class Class
}

func (e *classifiedError) Error() string { return e.err.Error() }
func (e *classifiedError) Unwrap() error { return e.err }
func (e *classifiedError) Class() Class  { return e.class }
