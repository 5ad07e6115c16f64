package resilient

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"strings"
	"time"

	lcllms "github.com/tmc/langchaingo/llms"

	lctools "github.com/tmc/langchaingo/tools"

	"github.com/resilientgo/resilient/limit"
	"github.com/resilientgo/resilient/llms"
	"github.com/resilientgo/resilient/middleware"
	"github.com/resilientgo/resilient/observe"
	"github.com/resilientgo/resilient/run"
	"github.com/resilientgo/resilient/taxonomy"
	"github.com/resilientgo/resilient/tools"
)

// Model makes m resilient and returns it, still an [lcllms.Model]: it drops
// into chains, agents.Executor and any code that takes a model. With no
// option it has the recommended defaults: 3 attempts with full-jitter backoff
// from 0.5 s to 8 s, Retry-After honoured up to 60 s, a circuit breaker, a
// 2-minute attempt timeout, stream idle timeouts, response checks and
// compaction on context overflow.
//
// Model never fails: a nil model or an invalid option makes every call of
// the result return the problem, as a programming error, and
// [llms.Model.Err] reports it. Use [llms.New] to get the error at once.
func Model(m lcllms.Model, opts ...Option) *llms.Model {
	s, err := collect(opts, forModel)
	if err != nil {
		s.model = append(s.model, llms.Fail(err))
	}
	wrapped, _ := llms.New(m, s.modelOptions()...) // on error, a model that reports it
	return wrapped
}

// Tool wraps t for an agent and returns it, still a [lctools.Tool] with the
// same name and description: at the dispatch boundary a taxonomy.ToolError
// becomes the observation, its credentials redacted (the model may correct
// its call), a taxonomy.FatalToolError ends the run (the model never sees
// it), and any other error or panic becomes "Error: <tool> failed
// internally (<Type>)" ("Error: <tool> timed out" for a timeout) with
// nothing else leaking; the full error is logged, secrets redacted.
// With no option: a 30 s timeout per call, no retry (mark read-only tools
// [SafeToRetry]), a circuit breaker per tool.
//
// Tool never fails, nor panics: a nil tool (typed nil included), a Name or
// Description that panics, or an invalid option makes every call end the
// run with a taxonomy.FatalToolError naming the problem, and
// [tools.Tool.Err] reports it. Use [tools.New] to get the error at once.
func Tool(t lctools.Tool, opts ...Option) *tools.Tool {
	s, err := collect(opts, forTool)
	if err != nil {
		s.tool = append(s.tool, tools.Fail(err))
	}
	wrapped, _ := tools.New(t, s.toolOptions()...) // on error, a tool that reports it
	return wrapped
}

func (s *settings) toolOptions() []tools.Option {
	opts := []tools.Option{tools.Logger(s.logger), tools.Middleware(s.mw...)}
	return append(opts, s.tool...)
}

// Option configures [Model], [Tool] and [Embedder]. Options that make sense
// for some of them only say so; given to another, they make it report an
// error.
//
// Every option of this library (this package's, its [RunOption]s, and
// those of the packages below: middleware, llms, tools, resilienthttp,
// resilienteino, resilienttemporal, resilientredis, resilientotel)
// follows one rule:
//
//   - options apply in order, and a later one overrides an earlier one that
//     sets the same thing: NoBreaker then CircuitBreaker has a breaker,
//     SingleAttempt then MaxAttempts(3) makes three attempts;
//   - a number is what it allows: n allows n, and 0 allows none
//     (RetryBudget(0): no retry; RequestLimit(0), TokenBudget(0),
//     ToolCallLimit(0): no request, no token, no tool call; a concurrency
//     limit's wait of 0: no wait); where none cannot work (attempts, a
//     timeout, a breaker's threshold, the repeat limit, a store's size) 0
//     is refused, and a negative number is always refused;
//   - no limit is the largest value, math.MaxInt for a count
//     (RetryBudget(math.MaxInt)) and [Forever] for a duration
//     (Timeout(Forever)), or the option left out when the default has none;
//   - an invalid value is reported by the constructor, as a programming
//     error naming the option ([Model], [Tool] and [Embedder] return a
//     wrapper whose calls return it, and Err reports it); a run made with
//     invalid options fails every call made with it the same way
//     ([ErrInvalidRun]), before anything is sent. Constructors without an
//     error (tools.NewMemoryStore, resilientotel.New) report it where they
//     can: the store's claims fail with it, the observer hands it to
//     otel.Handle.
type Option func(*settings)

type target uint8

const (
	forModel target = 1 << iota
	forTool
	forEmbedder
	forPool
	forMember // one member of a pool: the options that guard it alone

	notMember = forModel | forTool | forEmbedder | forPool
)

type settings struct {
	mw     []middleware.Option
	model  []llms.Option
	tool   []tools.Option
	logger *slog.Logger
	errs   []error
	target target // what the options are being collected for
}

func collect(opts []Option, t target) (*settings, error) {
	s := &settings{target: t}
	for _, o := range opts {
		if o == nil {
			s.errs = append(s.errs, errors.New("resilient: nil option"))
			continue
		}
		o(s)
	}
	return s, errors.Join(s.errs...)
}

// only reports whether the option called name applies to what the options
// are collected for, one of the targets in t, and records an error if not.
func (s *settings) only(t target, name string) bool {
	if s.target&t != 0 {
		return true
	}
	var what []string
	for _, n := range []struct {
		t    target
		name string
	}{{forModel, "models"}, {forTool, "tools"}, {forEmbedder, "embedders"}, {forPool, "pools"}, {forMember, "pool members"}} {
		if t&n.t != 0 {
			what = append(what, n.name)
		}
	}
	if t == notMember {
		s.errs = append(s.errs, errors.New("resilient: "+name+" applies to a pool as a whole, not to one of its members"))
		return false
	}
	s.errs = append(s.errs, errors.New("resilient: "+name+" applies to "+strings.Join(what, " and ")+" only"))
	return false
}

// mwNotMember adds o to the middleware options, unless they are collected for a
// pool member, which takes only the options that guard it alone.
func (s *settings) mwNotMember(name string, o middleware.Option) {
	if s.only(notMember, name) {
		s.mw = append(s.mw, o)
	}
}

func (s *settings) modelOptions() []llms.Option {
	opts := []llms.Option{llms.Logger(s.logger), llms.Middleware(s.mw...)}
	return append(opts, s.model...)
}

// MaxAttempts sets how many calls a retryable failure may take in all, the
// first included: 3 attempts are one call and two retries. Default: 3
// ([middleware.DefaultMaxAttempts]), with rate limits allowed 5
// ([middleware.DefaultRateLimitedAttempts]) and unknown failures 2
// ([middleware.DefaultUnknownAttempts]). Given explicitly, n applies
// to every retryable kind and replaces those per-kind defaults
// (MaxAttempts(1) turns retries off); set a kind's own limit with
// middleware.KindAttempts through [Middleware].
func MaxAttempts(n int) Option {
	return func(s *settings) { s.mwNotMember("MaxAttempts", middleware.MaxAttempts(n)) }
}

// Backoff sets the full-jitter exponential backoff: the wait before retry n
// is uniform in [0, min(base*2^(n-1), max)). Default: 0.5 s
// ([middleware.DefaultBaseDelay]) to 8 s ([middleware.DefaultMaxDelay]).
func Backoff(base, max time.Duration) Option {
	return func(s *settings) { s.mwNotMember("Backoff", middleware.Backoff(base, max)) }
}

// RetryAfterCap sets the longest Retry-After slept on; a longer one fails
// the call at once and holds the circuit open. Default: 60 s
// ([middleware.DefaultRetryAfterCap]).
func RetryAfterCap(d time.Duration) Option {
	return func(s *settings) { s.mwNotMember("RetryAfterCap", middleware.RetryAfterCap(d)) }
}

// CircuitBreaker sets the circuit breaker: open after failures consecutive
// failures that say something about the target, for delay. Given to a
// pool, it sets each member's breaker (a pool has none of its own); given
// to a [Member], that member's. Default: models 10 failures
// ([breaker.DefaultFailures]) and 10 s
// ([breaker.DefaultDelay]), tools 5 failures
// ([tools.DefaultBreakerFailures]) and 30 s ([tools.DefaultBreakerDelay]).
func CircuitBreaker(failures int, delay time.Duration) Option {
	return func(s *settings) { s.mw = append(s.mw, middleware.CircuitBreaker(failures, delay)) }
}

// Classifier replaces the failure classifier; compose with taxonomy.Chain to
// put rules of your own ahead of taxonomy.Default. Default: taxonomy.Default.
func Classifier(c taxonomy.Classifier) Option {
	return func(s *settings) { s.mwNotMember("Classifier", middleware.Classifier(c)) }
}

// Logger sets the slog logger for every decision. Default: discard.
func Logger(l *slog.Logger) Option {
	return func(s *settings) {
		if s.only(notMember, "Logger") {
			s.logger = l
		}
	}
}

// Observe installs observers on models and tools: every decision reaches
// them as a typed event (see observe.Observer); package resilientotel
// turns them into OpenTelemetry traces and metrics. Observers installed
// with several Observe options are all called, in order. Default: none.
func Observe(observers ...observe.Observer) Option {
	return func(s *settings) { s.mwNotMember("Observe", middleware.Observe(observers...)) }
}

// Named gives a model a name for errors, logs and events in place of the
// one derived from its client ("openai/gpt-4o"): for fallbacks and pool
// members that would otherwise look alike. The result is still the model.
func Named(m lcllms.Model, name string) lcllms.Model { return llms.Named(m, name) }

// Middleware passes options to the middleware pipeline directly; to a
// [Member], only those that guard one member (see middleware.Member).
func Middleware(opts ...middleware.Option) Option {
	return func(s *settings) { s.mw = append(s.mw, opts...) }
}

// Fallbacks sets models to try in order when a model gives up for a reason
// another model can fix. Models only. Default: none.
func Fallbacks(models ...lcllms.Model) Option {
	return func(s *settings) {
		if s.only(forModel|forPool, "Fallbacks") {
			s.model = append(s.model, llms.Fallbacks(models...))
		}
	}
}

// Hedge starts another attempt of a non-streaming model call (or of an
// embeddings batch) that has not answered after delay, up to maxHedges
// beside the first; the first success wins. Models and embedders only.
// Default: off.
func Hedge(delay time.Duration, maxHedges int) Option {
	return func(s *settings) {
		if s.only(forModel|forEmbedder|forPool, "Hedge") {
			s.model = append(s.model, llms.Hedge(delay, maxHedges))
		}
	}
}

// ModelOptions passes finer options to package llms. Models and embedders
// only (an embedder refuses those about chat).
func ModelOptions(opts ...llms.Option) Option {
	return func(s *settings) {
		if s.only(forModel|forEmbedder|forPool, "ModelOptions") {
			s.model = append(s.model, opts...)
		}
	}
}

// Timeout bounds each attempt of a non-streaming model call or an
// embeddings batch (streams have their own idle timeouts: see
// llms.StreamIdleTimeout), and each tool call, even when the client or the
// tool ignores its context. It must be positive; [Forever] is no timeout.
// Default: 2 min ([middleware.DefaultTimeout]) for models and embedders,
// 30 s ([tools.DefaultTimeout]) for tools.
func Timeout(d time.Duration) Option {
	return func(s *settings) {
		if s.only(notMember, "Timeout") {
			s.model = append(s.model, llms.Timeout(d))
			s.tool = append(s.tool, tools.Timeout(d))
		}
	}
}

// RateLimit makes every attempt acquire a unit from l first, such as a
// limit.LocalLimiter or a limiter shared by replicas
// (package resilientredis). Given to a pool, it limits the pool as a
// whole; given to a [Member], that member. Default: none.
func RateLimit(l limit.Limiter) Option {
	return func(s *settings) { s.mw = append(s.mw, middleware.RateLimit(l)) }
}

// SafeToRetry lets a tool's transient internal failures be retried: for
// read-only and idempotent tools only. Tools only. Default: off.
func SafeToRetry() Option {
	return func(s *settings) {
		if s.only(forTool, "SafeToRetry") {
			s.tool = append(s.tool, tools.SafeToRetry())
		}
	}
}

// Idempotent makes a mutating tool execute once per input: a repeat
// returns the stored result and says so. A nil store keeps records in the
// tool's own memory; share a store (resilientredis.Store) across replicas.
// Tools only. Default: off.
func Idempotent(store tools.Store) Option {
	return func(s *settings) {
		if s.only(forTool, "Idempotent") {
			s.tool = append(s.tool, tools.Idempotent(store))
		}
	}
}

// ToolOptions passes finer options to package tools. Tools only.
func ToolOptions(opts ...tools.Option) Option {
	return func(s *settings) {
		if s.only(forTool, "ToolOptions") {
			s.tool = append(s.tool, opts...)
		}
	}
}

// HTTPClient returns an *http.Client that records each attempt's wire
// evidence (status, Retry-After, the provider's error code, stream end
// markers): install it in the provider client, e.g.
// openai.New(openai.WithHTTPClient(resilient.HTTPClient())).
func HTTPClient() *http.Client { return llms.HTTPClient() }

// Sentinels for [errors.Is] on the errors of wrapped models and tools.
var (
	// ErrPermanent: a call failed in a way that fails the same on every
	// attempt (a 401, an invalid key, a 400, a model not found, a quota
	// used up), so it stopped after one.
	ErrPermanent = middleware.ErrPermanent
	// ErrExhausted: a call made every attempt its failure's kind allows.
	ErrExhausted = middleware.ErrExhausted
	// ErrCircuitOpen: a model's or a tool's circuit breaker is open, so no
	// request was sent (a tool's ends the run); for a pool, every member's.
	ErrCircuitOpen = middleware.ErrCircuitOpen
	// ErrConcurrency: the concurrency limit had no free slot within the
	// wait allowed (see [MaxConcurrent]), so no request was sent.
	ErrConcurrency = limit.ErrConcurrency
	// ErrUsageLimit: a limit of the run ([TokenBudget], [RequestLimit],
	// [ToolCallLimit]) refused a call, so nothing was sent and the run
	// stops; errors.As finds the *run.UsageLimitError that names the
	// limit and the usage.
	ErrUsageLimit = run.ErrUsageLimit
	// ErrAttemptTimeout: an attempt of the call ran out of its own time
	// ([Timeout]). The final error matches context.DeadlineExceeded only
	// when the caller's deadline is why the call stopped.
	ErrAttemptTimeout = middleware.ErrAttemptTimeout
	// ErrInvalidRun: the call was made with a run given invalid options
	// (see [NewRun]), so nothing was sent.
	ErrInvalidRun = run.ErrInvalid
	// ErrStuck: a tool was called with the same input more often than the
	// run's [RepeatLimit] allows, so the run stops (the model never sees
	// it).
	ErrStuck = tools.ErrStuck
)

// Forever is the duration that never passes: Timeout(Forever) is no
// timeout (see the rule of every option on [Option]).
const Forever = middleware.Forever

// RunOption configures the scope of one agent run, given to [NewRun].
type RunOption = run.Option

// RetryBudget caps the retries of every model and tool call of the run
// together. 0 allows none, math.MaxInt is no limit; it must not be
// negative. Default: 10 ([run.DefaultRetryBudget]).
func RetryBudget(n int) RunOption { return run.RetryBudget(n) }

// RepeatLimit stops the run as stuck when one tool is called with the same
// input more than n times. It must be at least 1; math.MaxInt turns the
// check off. Default: 3 ([tools.DefaultRepeatLimit]).
func RepeatLimit(n int) RunOption { return tools.RepeatLimit(n) }

// TokenBudget limits the run to n tokens, input and output together, as
// the providers report them. A model request is refused once the budget is
// spent, or when its input alone, estimated as a quarter of the bytes of
// its text, would pass what remains; the call that crosses the budget
// returns its answer and the next is refused. 0 allows none; it must not
// be negative. Default: no limit.
func TokenBudget(n int) RunOption { return run.TokenBudget(n) }

// RequestLimit limits the run to n requests to models and embedders,
// failed ones and retries included. 0 allows none; it must not be
// negative. Default: no limit.
func RequestLimit(n int) RunOption { return run.RequestLimit(n) }

// ToolCallLimit limits the run to n tool calls; the call over the limit
// ends the run as a taxonomy.FatalToolError does. 0 allows none; it must
// not be negative. Default: no limit.
func ToolCallLimit(n int) RunOption { return run.ToolCallLimit(n) }

// NewRun returns a context that carries the scope of one agent run: a retry
// budget shared by every wrapped model and tool called with it, the repeat
// limit, the run's usage and its limits. Pass it to agents.Executor.Call
// (or your own loop).
//
// A limit refuses a call before anything is sent, with an error that
// matches [ErrUsageLimit] and names the limit and the usage: it is never
// retried, never counted against a circuit breaker and never a reason to
// fall back, so the run stops. The request and tool call limits hold
// exactly under parallel calls; the token budget is settled after each
// response, so parallel model calls may pass it by the usage of the calls
// in flight when it was reached.
//
// Invalid options (a negative limit, a nil option) make every model and
// tool call made with the run fail at once with a programming error naming
// them ([ErrInvalidRun]), before anything is sent; RunFrom(ctx).Err()
// reports them.
func NewRun(ctx context.Context, opts ...RunOption) context.Context {
	return run.New(ctx, opts...)
}

// RunFrom returns the run carried by ctx, nil if none (or if ctx is nil):
// its Retries and Refusals tell how much of the budget was spent.
func RunFrom(ctx context.Context) *run.Run {
	if ctx == nil {
		return nil
	}
	return run.From(ctx)
}

// Usage is what a run has used so far: requests to models (failed ones
// included), the input and output tokens the providers reported, tool
// calls, retries and the time waited before retries.
type Usage = run.Usage

// UsageFrom returns the usage of the run carried by ctx so far, the zero
// Usage without a run or with a nil ctx.
func UsageFrom(ctx context.Context) Usage { return RunFrom(ctx).Usage() }
