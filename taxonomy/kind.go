package taxonomy

import "fmt"

// Kind names what went wrong. The zero value is [Unknown].
type Kind uint8

// The kinds of failure. Their String values are stable: logs, tests and users
// depend on them.
const (
	// Unknown means no rule matched. It is retried, but fewer times than Transient.
	Unknown Kind = iota
	// Transient failures are expected to go away: dropped connections, resets,
	// EOF mid-body, 5xx, attempt timeouts, an HTTP client's own timeout,
	// empty error messages.
	Transient
	// RateLimited means the provider asked the caller to slow down (429,
	// throttling). Quota or credit exhaustion is Permanent, not RateLimited.
	RateLimited
	// Overloaded means the provider is short of capacity (529, 503,
	// "overloaded"). It counts toward the circuit breaker and is a reason to
	// fall back to another model.
	Overloaded
	// ContextOverflow means the request is too large for the model: a
	// prompt larger than its context window, a batch of embedding inputs or
	// tokens over the per-request limit, a payload over the provider's size
	// limit, a request larger than a per-minute limit of the account.
	// Retrying the same request cannot help; shrinking it can (compacting a
	// prompt, splitting a batch).
	ContextOverflow
	// Permanent failures repeat for the same request: authentication, invalid
	// or missing key, permission denied, bad request (a parameter or feature
	// the API refuses), invalid image, model not found or not served, quota
	// or credit exhausted, a spending limit reached, an inactive, suspended
	// or unverified account or organization, no way to pay on file, TLS and
	// certificate failures and alerts, a model too large for a local
	// runner's memory or GPU, content policy.
	Permanent
	// Canceled means the caller gave up. It is never retried.
	Canceled
	// Programming means misuse: not implemented, nil model, invalid options,
	// a request the client cannot build or a response it cannot decode into
	// its types.
	Programming
)

var kindNames = [...]string{
	Unknown:         "unknown",
	Transient:       "transient",
	RateLimited:     "rate_limited",
	Overloaded:      "overloaded",
	ContextOverflow: "context_overflow",
	Permanent:       "permanent",
	Canceled:        "canceled",
	Programming:     "programming",
}

// Kinds lists every kind, in declaration order.
func Kinds() []Kind {
	return []Kind{Unknown, Transient, RateLimited, Overloaded, ContextOverflow, Permanent, Canceled, Programming}
}

// String returns the kind's stable lowercase name, such as "rate_limited".
func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return fmt.Sprintf("kind(%d)", uint8(k))
}

// Retryable reports whether sending the same request again may succeed:
// true for Unknown, Transient, RateLimited and Overloaded. ContextOverflow is
// not retryable as is (the request must be compacted first); Permanent,
// Canceled and Programming never are.
func (k Kind) Retryable() bool {
	switch k {
	case Unknown, Transient, RateLimited, Overloaded:
		return true
	}
	return false
}

// ParseKind returns the kind whose String is name.
func ParseKind(name string) (Kind, error) {
	for i, n := range kindNames {
		if n == name {
			return Kind(i), nil
		}
	}
	return Unknown, fmt.Errorf("taxonomy: unknown kind %q", name)
}

// MarshalText implements [encoding.TextMarshaler] with the kind's name.
func (k Kind) MarshalText() ([]byte, error) { return []byte(k.String()), nil }

// UnmarshalText implements [encoding.TextUnmarshaler], accepting the names
// returned by String.
func (k *Kind) UnmarshalText(b []byte) error {
	parsed, err := ParseKind(string(b))
	if err != nil {
		return err
	}
	*k = parsed
	return nil
}
