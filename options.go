package resilient

import (
	"log/slog"
	"time"

	lcllms "github.com/tmc/langchaingo/llms"

	"github.com/resilientgo/resilient/limit"
	"github.com/resilientgo/resilient/llms"
	"github.com/resilientgo/resilient/middleware"
	"github.com/resilientgo/resilient/observe"
	"github.com/resilientgo/resilient/pool"
	"github.com/resilientgo/resilient/taxonomy"
	"github.com/resilientgo/resilient/tools"
)

// One interface per target: an option is accepted where its type
// implements the target's interface, and an option that does not apply to
// a target does not compile there (as grpc separates DialOption and
// CallOption, connect-go ClientOption and HandlerOption).

// A ModelOption configures [Model]. Every [Option] and [WrapperOption] is
// one, and so are [Fallbacks], [Hedge], [ModelOptions] and [ShareLimits].
type ModelOption interface{ model() []llms.Option }

// An EmbedderOption configures [Embedder]. Every [Option] and
// [WrapperOption] is one, and so are [Hedge], [ModelOptions] and
// [ShareLimits].
type EmbedderOption interface{ embedder() []llms.Option }

// A PoolOption configures a [Pool] as a whole. Every [Option] and
// [WrapperOption] is one, and so are [Fallbacks], [Hedge], [ModelOptions]
// and [Balance].
type PoolOption interface{ pool() []llms.Option }

// A ToolOption configures [Tool]. Every [Option] and [WrapperOption] is
// one, and so are [SafeToRetry], [Idempotent] and [ToolOptions].
type ToolOption interface{ tool() []tools.Option }

// A MemberOption configures one member of a [Pool] ([Member]): the guards
// of that member alone. Every [Option] is one, and so is [Weight].
type MemberOption interface{ member() []middleware.Option }

// An Option applies to every target: [Model], [Tool], [Embedder], a [Pool]
// as a whole and one [Member] of it. [CircuitBreaker], [RateLimit],
// [MaxConcurrent], [ConcurrencyLimit] and [Middleware] are Options.
//
// Every option of this library (this package's, its [RunOption]s, and
// those of the packages below: middleware, llms, tools, resilienthttp,
// resilienteino, resilienttemporal, resilientredis, resilientotel)
// follows one rule:
//
//   - options apply in order, and a later one overrides an earlier one that
//     sets the same thing, whichever layer it is given at: NoBreaker then
//     CircuitBreaker has a breaker, SingleAttempt then MaxAttempts(3) makes
//     three attempts, Middleware(middleware.Timeout(5*time.Second)) then
//     Timeout(10*time.Second) gives attempts 10 s;
//   - a number is what it allows: n allows n, and 0 allows none
//     (RetryBudget(0): no retry; RequestLimit(0), TokenBudget(0),
//     ToolCallLimit(0): no request, no token, no tool call; a wait of 0,
//     of a concurrency limit or of limit.NewLocalLimiter: no wait); where
//     none cannot work (attempts, a timeout, a breaker's threshold, the
//     repeat limit, a store's size) 0 is refused, and a negative number is
//     always refused;
//   - no limit is the largest value, math.MaxInt for a count
//     (RetryBudget(math.MaxInt)) and [Forever] for a duration
//     (Timeout(Forever)), or the option left out when the default has none;
//   - an option given to a target it does not apply to does not compile:
//     each target takes its own interface ([ModelOption], [ToolOption],
//     [EmbedderOption], [PoolOption], [MemberOption]);
//   - an invalid value is reported by the constructor, as a programming
//     error naming the option ([Model], [Tool] and [Embedder] return a
//     wrapper whose calls return it, and Err reports it); a run made with
//     invalid options fails every call made with it the same way
//     ([ErrInvalidRun]), before anything is sent. Constructors without an
//     error (tools.NewMemoryStore, resilientotel.New) report it where they
//     can: the store's claims fail with it, the observer hands it to
//     otel.Handle. What the compiler cannot see is reported so too: a
//     pipeline option given to a Member through [Middleware] that applies
//     to a pool as a whole, an llms option about chat given to an
//     Embedder through [ModelOptions].
type Option interface {
	ModelOption
	ToolOption
	EmbedderOption
	PoolOption
	MemberOption
}

// A WrapperOption configures every wrapper but one [Member] of a pool:
// [Model], [Tool], [Embedder] and a [Pool] as a whole. The retry policy,
// the attempt timeout, the classifier, the logger and the observers are
// WrapperOptions.
type WrapperOption interface {
	ModelOption
	ToolOption
	EmbedderOption
	PoolOption
}

// layers is an option as each layer below takes it: a model's, an
// embedder's or a pool's (llms), a tool's (tools), a pool member's
// (middleware). The option types below give each target its layer.
type layers struct {
	forLLM    []llms.Option
	forTool   []tools.Option
	forMember []middleware.Option
}

// guard is an option of every target.
type guard layers

func (o guard) model() []llms.Option        { return o.forLLM }
func (o guard) embedder() []llms.Option     { return o.forLLM }
func (o guard) pool() []llms.Option         { return o.forLLM }
func (o guard) tool() []tools.Option        { return o.forTool }
func (o guard) member() []middleware.Option { return o.forMember }

// wrapper is an option of every target but a pool member.
type wrapper layers

func (o wrapper) model() []llms.Option    { return o.forLLM }
func (o wrapper) embedder() []llms.Option { return o.forLLM }
func (o wrapper) pool() []llms.Option     { return o.forLLM }
func (o wrapper) tool() []tools.Option    { return o.forTool }

// chat is an option of models and pools.
type chat struct{ llm []llms.Option }

func (o chat) model() []llms.Option { return o.llm }
func (o chat) pool() []llms.Option  { return o.llm }

// llm is an option of models, embedders and pools.
type llm struct{ llm []llms.Option }

func (o llm) model() []llms.Option    { return o.llm }
func (o llm) embedder() []llms.Option { return o.llm }
func (o llm) pool() []llms.Option     { return o.llm }

// sharing is an option of models and embedders.
type sharing struct{ llm []llms.Option }

func (o sharing) model() []llms.Option    { return o.llm }
func (o sharing) embedder() []llms.Option { return o.llm }

// toolOnly is an option of tools only.
type toolOnly struct{ opt []tools.Option }

func (o toolOnly) tool() []tools.Option { return o.opt }

// memberOnly is an option of pool members only.
type memberOnly struct{ opt []middleware.Option }

func (o memberOnly) member() []middleware.Option { return o.opt }

// poolOnly is an option of pools only.
type poolOnly struct{ opt []llms.Option }

func (o poolOnly) pool() []llms.Option { return o.opt }

// pipeline returns the option of every target that gives opts to its
// pipeline, in their place among the other options.
func pipeline(opts ...middleware.Option) guard {
	return guard{forLLM: one(llms.Middleware(opts...)), forTool: one(tools.Middleware(opts...)), forMember: opts}
}

// wrapperPipeline returns the option of every target but a pool member
// that gives opts to its pipeline.
func wrapperPipeline(opts ...middleware.Option) wrapper {
	return wrapper{forLLM: one(llms.Middleware(opts...)), forTool: one(tools.Middleware(opts...))}
}

// one returns the slice of o alone.
func one[O any](o O) []O { return []O{o} }

// flatten returns the options of one layer for opts, in order: a nil
// option becomes a nil one of the layer's, which reports it.
func flatten[O any, L any](opts []O, of func(O) []L) []L {
	out := make([]L, 0, len(opts)+2)
	for _, o := range opts {
		if any(o) == nil {
			var none L
			out = append(out, none)
			continue
		}
		out = append(out, of(o)...)
	}
	return out
}

// MaxAttempts sets how many calls a retryable failure may take in all, the
// first included: 3 attempts are one call and two retries. Default: 3
// ([middleware.DefaultMaxAttempts]), with rate limits allowed 5
// ([middleware.DefaultRateLimitedAttempts]) and unknown failures 2
// ([middleware.DefaultUnknownAttempts]). Given explicitly, n applies
// to every retryable kind and replaces those per-kind defaults
// (MaxAttempts(1) turns retries off); set a kind's own limit with
// middleware.KindAttempts through [Middleware].
func MaxAttempts(n int) WrapperOption { return wrapperPipeline(middleware.MaxAttempts(n)) }

// Backoff sets the full-jitter exponential backoff: the wait before retry n
// is uniform in [0, min(base*2^(n-1), max)). Default: 0.5 s
// ([middleware.DefaultBaseDelay]) to 8 s ([middleware.DefaultMaxDelay]).
func Backoff(base, max time.Duration) WrapperOption {
	return wrapperPipeline(middleware.Backoff(base, max))
}

// RetryAfterCap sets the longest Retry-After slept on; a longer one fails
// the call at once and holds the circuit open. Default: 60 s
// ([middleware.DefaultRetryAfterCap]).
func RetryAfterCap(d time.Duration) WrapperOption {
	return wrapperPipeline(middleware.RetryAfterCap(d))
}

// CircuitBreaker sets the circuit breaker: open after failures consecutive
// failures that say something about the target, for delay. Given to a
// pool, it sets each member's breaker (a pool has none of its own); given
// to a [Member], that member's. Default: models 10 failures
// ([breaker.DefaultFailures]) and 10 s
// ([breaker.DefaultDelay]), tools 5 failures
// ([tools.DefaultBreakerFailures]) and 30 s ([tools.DefaultBreakerDelay]).
func CircuitBreaker(failures int, delay time.Duration) Option {
	return pipeline(middleware.CircuitBreaker(failures, delay))
}

// Classifier replaces the failure classifier; compose with taxonomy.Chain to
// put rules of your own ahead of taxonomy.Default. Default: taxonomy.Default.
func Classifier(c taxonomy.Classifier) WrapperOption {
	return wrapperPipeline(middleware.Classifier(c))
}

// Logger sets the slog logger for every decision (a tool's lines are
// redacted: see tools.Logger). Default: discard.
func Logger(l *slog.Logger) WrapperOption {
	return wrapper{forLLM: one(llms.Middleware(middleware.Logger(l))), forTool: one(tools.Logger(l))}
}

// Observe installs observers on models and tools: every decision reaches
// them as a typed event (see observe.Observer); package resilientotel
// turns them into OpenTelemetry traces and metrics. Observers installed
// with several Observe options are all called, in order. Default: none.
func Observe(observers ...observe.Observer) WrapperOption {
	return wrapperPipeline(middleware.Observe(observers...))
}

// Named gives a model a name for errors, logs and events in place of the
// one derived from its client ("openai/gpt-4o"): for fallbacks and pool
// members that would otherwise look alike. The result is still the model.
func Named(m lcllms.Model, name string) lcllms.Model { return llms.Named(m, name) }

// Middleware passes options to the middleware pipeline directly, in their
// place among the other options; to a [Member], only those that guard one
// member (see middleware.Member: the others make the pool report an
// error).
func Middleware(opts ...middleware.Option) Option { return pipeline(opts...) }

// Fallbacks sets models to try in order when a model gives up for a reason
// another model can fix: an option of a [Model] and a [Pool]. Default:
// none.
func Fallbacks(models ...lcllms.Model) interface {
	ModelOption
	PoolOption
} {
	return chat{one(llms.Fallbacks(models...))}
}

// Hedge starts another attempt of a non-streaming model call (or of an
// embeddings batch) that has not answered after delay, up to maxHedges
// beside the first; the first success wins: an option of a [Model], an
// [Embedder] and a [Pool]. Default: off.
func Hedge(delay time.Duration, maxHedges int) interface {
	ModelOption
	EmbedderOption
	PoolOption
} {
	return llm{one(llms.Middleware(middleware.Hedge(delay, maxHedges)))}
}

// ModelOptions passes finer options to package llms, in their place among
// the other options: an option of a [Model], an [Embedder] (which refuses
// those about chat) and a [Pool].
func ModelOptions(opts ...llms.Option) interface {
	ModelOption
	EmbedderOption
	PoolOption
} {
	return llm{opts}
}

// Timeout bounds each attempt of a non-streaming model call or an
// embeddings batch (streams have their own idle timeouts: see
// llms.StreamIdleTimeout), and each tool call, even when the client or the
// tool ignores its context. It must be positive; [Forever] is no timeout.
// Default: 2 min ([middleware.DefaultTimeout]) for models and embedders,
// 30 s ([tools.DefaultTimeout]) for tools.
func Timeout(d time.Duration) WrapperOption {
	return wrapper{forLLM: one(llms.Middleware(middleware.Timeout(d))), forTool: one(tools.Timeout(d))}
}

// RateLimit makes every attempt acquire a unit from l first, such as a
// limit.LocalLimiter or a limiter shared by replicas
// (package resilientredis). Given to a pool, it limits the pool as a
// whole; given to a [Member], that member. Default: none.
func RateLimit(l limit.Limiter) Option { return pipeline(middleware.RateLimit(l)) }

// SafeToRetry lets a tool's transient internal failures be retried: for
// read-only and idempotent tools only. Default: off.
func SafeToRetry() ToolOption { return toolOnly{one(tools.SafeToRetry())} }

// Idempotent makes a mutating tool execute once per input: a repeat
// returns the stored result and says so. A nil store keeps records in the
// tool's own memory; share a store (resilientredis.Store) across replicas.
// Default: off.
func Idempotent(store tools.Store) ToolOption { return toolOnly{one(tools.Idempotent(store))} }

// ToolOptions passes finer options to package tools, in their place among
// the other options.
func ToolOptions(opts ...tools.Option) ToolOption { return toolOnly{opts} }

// Weight sets a pool member's share of the traffic against the others' (2
// gets twice the calls of 1). Default: 1 ([pool.DefaultWeight]).
func Weight(n int) MemberOption { return memberOnly{one(middleware.Weight(n))} }

// Balance sets how a [Pool] chooses among its healthy members:
// pool.LeastInFlight{} (the default), pool.RoundRobin{} (in turn,
// by weight) or pool.LowestLatency{} (the fastest recently, for its
// load).
func Balance(strategy pool.Picker) PoolOption {
	return poolOnly{one(llms.Middleware(middleware.Balance(strategy)))}
}

// MaxConcurrent bounds the attempts in flight at once to n (a bulkhead):
// of a model, a tool, an embedder, a [Pool] as a whole, or one [Member].
// A caller waits up to maxWait for a slot (0: no wait; [Forever]: as long
// as its context allows), then its call fails with [ErrConcurrency]
// without a request: local overload, never counted against the provider's
// circuit breaker (a model's fallbacks take it, a tool reports an internal
// failure to the model). An attempt abandoned at its timeout keeps its
// slot until its request returns. Default: no limit.
func MaxConcurrent(n int, maxWait time.Duration) Option {
	return pipeline(middleware.MaxConcurrent(n, maxWait))
}

// ConcurrencyLimit is [MaxConcurrent] on a semaphore shared with other
// targets, or by the replicas of a service (resilientredis.NewSemaphore).
// Default: no limit.
func ConcurrencyLimit(sem limit.Semaphore, maxWait time.Duration) Option {
	return pipeline(middleware.ConcurrencyLimit(sem, maxWait))
}

// ShareLimits makes a model or an embedder draw on the circuit breaker,
// the rate and token limiters and the concurrency limit ([MaxConcurrent],
// [ConcurrencyLimit]) of m, the chat model of the same provider account or
// deployment, in place of its own: both spend one quota, so a failure of
// either counts toward the one breaker, whose open circuit stops both, and
// both take slots of m's one semaphore, as a provider's cap on requests in
// flight counts the requests of both (a model and an embedder each given
// MaxConcurrent(8, wait) would otherwise send 16 at once). Each waits for a
// slot as long as its own MaxConcurrent or ConcurrencyLimit says, m's wait
// when it has none. When m is a [Pool], the limits shared are those given
// to the pool as a whole; its members' own limits stay theirs. Not for a
// pool being built. Default: nothing shared.
//
//	model := resilient.Model(llm, resilient.RateLimit(limiter))
//	embedder := resilient.Embedder(llm, resilient.ShareLimits(model))
func ShareLimits(m *llms.Model) interface {
	ModelOption
	EmbedderOption
} {
	return sharing{one(llms.ShareLimits(m))}
}
