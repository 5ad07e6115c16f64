package resilienthttp

import (
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"time"

	timebound "github.com/resilientgo/resilient/internal/bound"
	"github.com/resilientgo/resilient/internal/streamguard"
	"github.com/resilientgo/resilient/middleware"
	"github.com/resilientgo/resilient/observe"
)

// Defaults of the options of this package; the pipeline's own (attempts,
// backoff, Retry-After cap, breaker, attempt timeout) are package
// middleware's.
const (
	// DefaultMaxBody bounds how much of a response body that is not a
	// stream is read inside the attempt (so that a body cut short is
	// retried), and how much of a request body without GetBody is kept to
	// send it again.
	DefaultMaxBody = 32 << 20
)

const (
	// maxHeld bounds how much of a stream is held back from the SDK while
	// the layer waits for its first event with content.
	maxHeld = 256 << 10
	// maxTargets bounds the targets (host and model, or a pool and model)
	// remembered, each with its own breaker; the least recently used is
	// forgotten first.
	maxTargets = 1024
)

// An Option configures [Middleware] and [Transport].
// Options follow the rule of every option of the library, stated on
// [github.com/resilientgo/resilient.Option].
type Option func(*config)

type config struct {
	mw         []middleware.Option
	idle       time.Duration
	maxBody    int64
	maxHeld    int
	maxTargets int
	pool       []Deployment
	errs       []error
}

func configure(opts []Option) config {
	c := config{idle: streamguard.DefaultIdle, maxBody: DefaultMaxBody, maxHeld: maxHeld, maxTargets: maxTargets}
	for _, o := range opts {
		if o == nil {
			c.errorf("nil option")
			continue
		}
		o(&c)
	}
	return c
}

func (c *config) errorf(format string, args ...any) {
	c.errs = append(c.errs, fmt.Errorf("resilienthttp: "+format, args...))
}

func (c *config) err() error { return errors.Join(c.errs...) }

// MaxAttempts sets how many requests a retryable failure may take in all,
// the first included. Default: 3 ([middleware.DefaultMaxAttempts]), with
// rate limits allowed 5 ([middleware.DefaultRateLimitedAttempts]) and
// unknown failures 2 ([middleware.DefaultUnknownAttempts]) unless n is
// given.
func MaxAttempts(n int) Option { return Pipeline(middleware.MaxAttempts(n)) }

// Backoff sets the full-jitter exponential backoff: the wait before retry n
// is uniform in [0, min(base*2^(n-1), max)), unless the provider said how
// long to wait. Default: 0.5 s ([middleware.DefaultBaseDelay]) to 8 s
// ([middleware.DefaultMaxDelay]).
func Backoff(base, max time.Duration) Option { return Pipeline(middleware.Backoff(base, max)) }

// RetryAfterCap sets the longest wait hint slept on (Retry-After,
// retry-after-ms, a rate-limit reset); a longer one ends the call at once,
// its response handed to the SDK, and holds the target's breaker open.
// Default: 60 s ([middleware.DefaultRetryAfterCap]).
func RetryAfterCap(d time.Duration) Option { return Pipeline(middleware.RetryAfterCap(d)) }

// CircuitBreaker sets each target's breaker: open after failures
// consecutive failures that say something about the target, for delay.
// A target is a host and the model the request names, or a model of a
// pool's member. Default: 10 failures ([breaker.DefaultFailures]),
// 10 s ([breaker.DefaultDelay]).
func CircuitBreaker(failures int, delay time.Duration) Option {
	return Pipeline(middleware.CircuitBreaker(failures, delay))
}

// Timeout bounds each attempt: from the request until the response is in
// hand, which is its whole body for a response that is not a stream, and
// its first event with content for a stream. A hung attempt is a transient
// failure and is retried. It must be positive; middleware.Forever means
// none. Default: 2 min ([middleware.DefaultTimeout]).
func Timeout(d time.Duration) Option { return Pipeline(middleware.Timeout(d)) }

// StreamIdleTimeout bounds the gap between two reads of a stream handed to
// the SDK: a stream that stalls longer ends with an error wrapping
// [ErrStreamIdle]. It cannot be retried: the SDK has read part of it. It
// must be positive; middleware.Forever means none. Default: 1 min
// (llms.DefaultStreamIdleTimeout, as for models).
func StreamIdleTimeout(d time.Duration) Option {
	return func(c *config) {
		v, err := timebound.Duration("StreamIdleTimeout", d)
		if err != nil {
			c.errorf("%v", err)
			return
		}
		c.idle = v
	}
}

// MaxBody bounds how much of a response body that is not a stream is read
// inside the attempt, and how much of a request body without GetBody is
// kept in memory to send it again. The rest of a longer response reaches
// the SDK from the connection, where a cut is no longer retried; a longer
// request body without GetBody is sent once, never retried. Default: 32 MiB
// ([DefaultMaxBody]).
func MaxBody(n int64) Option {
	return func(c *config) {
		if n < 1 {
			c.errorf("MaxBody(%d): must be positive", n)
			return
		}
		c.maxBody = n
	}
}

// Logger writes every decision (retries and their waits, breakers opening,
// failures given up on) to l, values redacted. Default: discard.
func Logger(l *slog.Logger) Option { return Pipeline(middleware.Logger(l)) }

// Observe installs observers: every decision reaches them as a typed event
// (package resilientotel turns them into OpenTelemetry traces and metrics).
// Default: none.
func Observe(observers ...observe.Observer) Option {
	return Pipeline(middleware.Observe(observers...))
}

// Pipeline adds options of package middleware for what this package's
// options do not cover: middleware.KindAttempts, NoBreaker, Classifier,
// RateLimit, MaxConcurrent, WaitWhileOpen, Balance (for a [Pool])... They
// apply to each target's pipeline. middleware.Members, UseBreaker and
// UsePool cannot be given here: a target has a breaker of its own, and
// a pool is made with [Pool].
func Pipeline(opts ...middleware.Option) Option {
	return func(c *config) { c.mw = append(c.mw, opts...) }
}

// Deployment is one member of a [Pool]: a deployment of the same API under
// another base URL or key (another region, account or server).
type Deployment struct {
	// Name names the deployment in errors, events and logs; it must be
	// unique in the pool.
	Name string
	// BaseURL is the deployment's base URL, as the SDK would be given it
	// ("https://eastus.example.com/openai/v1"). A request whose URL starts
	// with the base URL of any member is sent to the chosen member's, with
	// the same rest of the path and query.
	BaseURL string
	// APIKey, if set, replaces the key the SDK sent, in the header it sent
	// it in (Authorization: Bearer, x-api-key, api-key, x-goog-api-key) or
	// the key query parameter; in Authorization when it sent none.
	APIKey string
	// Transport sends this member's requests when they cannot go through
	// the SDK's own client: with [Middleware], to a member at another origin
	// (scheme, host and port) than the request's (openai-go refuses to send a
	// request to another origin than its base URL). Nil means
	// http.DefaultTransport. [Transport] sends every member's requests
	// through its base.
	Transport http.RoundTripper
	// Options guard this member alone: middleware.Weight, RateLimit,
	// MaxConcurrent, CircuitBreaker, NoBreaker, NoThrottle, MaxHold.
	Options []middleware.Option
}

// Pool spreads the attempts over interchangeable deployments, balanced as
// package middleware balances a pool's members (middleware.Members):
// each attempt to one member chosen among the healthy ones, a retry at once
// to another, a member that answers with a wait hint cooling down for that
// long, a member whose key or account fails out of rotation, the calls of
// one run on one member while it is healthy. Each model a request names has
// its own pool, so that each member has a breaker per model. Default: no
// pool; every attempt goes where the SDK sent the request.
func Pool(members ...Deployment) Option {
	return func(c *config) {
		if len(members) == 0 {
			c.errorf("Pool(): a pool needs at least one member")
			return
		}
		seen := map[string]bool{}
		for i, m := range members {
			switch {
			case m.Name == "":
				c.errorf("Pool: member %d has no name", i)
			case seen[m.Name]:
				c.errorf("Pool: two members are named %q", m.Name)
			}
			seen[m.Name] = true
			if _, err := parseBase(m.BaseURL); err != nil {
				c.errorf("Pool: member %q: %v", m.Name, err)
			}
		}
		c.pool = append(c.pool[:0:0], members...)
	}
}
