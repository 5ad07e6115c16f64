package resilient

import (
	"time"

	lcllms "github.com/tmc/langchaingo/llms"

	"github.com/resilientgo/resilient/limit"
	"github.com/resilientgo/resilient/llms"
	"github.com/resilientgo/resilient/middleware"
	"github.com/resilientgo/resilient/pool"
)

// Pool returns one model over members, interchangeable deployments of the
// same model (two regions, several API keys or organisations, a fleet of
// servers), still an [lcllms.Model]. Each attempt goes to a healthy member
// (circuit closed, not cooling down after a Retry-After, room in its
// limits), the one with the fewest calls in flight by default ([Balance]);
// a retry goes at once to another member, so a sick deployment costs a call
// one request, not three. The calls of one run ([NewRun]) stay on one
// member while it is healthy, for the provider's prompt cache; so do calls
// made with the same [StickyKey]. A member whose key is refused or whose
// quota is used up (an account failure) is out of rotation for 5 min
// ([breaker.DefaultMaxHold]) and the call goes at once to another. When
// every member's circuit is open, or every member failed for its account,
// the call fails fast (to its [Fallbacks], if any) with each member's state.
//
//	east, _ := openai.New(openai.WithBaseURL(eastURL), openai.WithHTTPClient(resilient.HTTPClient()))
//	west, _ := openai.New(openai.WithBaseURL(westURL), openai.WithHTTPClient(resilient.HTTPClient()))
//	model := resilient.Pool([]llms.Model{
//		resilient.Member(resilient.Named(east, "east"), resilient.Weight(2)),
//		resilient.Member(resilient.Named(west, "west"), resilient.MaxConcurrent(8, time.Second)),
//	}, resilient.Logger(logger))
//
// Options are those of [Model], for the pool as a whole: [CircuitBreaker]
// sets each member's breaker (the pool has none of its own: one member down
// must not stop the others), [RateLimit] and [MaxConcurrent] bound the
// pool's total. Give a member its own with [Member].
//
// Pool never fails: invalid members or options make every call of the
// result return the problem, as a programming error, and
// [llms.Model.Err] reports it. Use [llms.NewPool] to get the error at once.
func Pool(members []lcllms.Model, opts ...Option) *llms.Model {
	s, err := collect(opts, forPool)
	if err != nil {
		s.model = append(s.model, llms.Fail(err))
	}
	pool, _ := llms.NewPool(members, s.modelOptions()...) // on error, a model that reports it
	return pool
}

// Member sets the options of one member of a [Pool], those that guard it
// alone: [Weight], [RateLimit], [MaxConcurrent], [ConcurrencyLimit],
// [CircuitBreaker], and guards given through [Middleware]. The result is
// still m to every caller; name it with [Named]. Options that apply to the
// pool as a whole make the pool report an error. Used outside a pool, as a
// [Model] or one of its [Fallbacks], the member's limits and breaker apply
// to it all the same (its Weight, with nothing to weigh against, is
// dropped).
func Member(m lcllms.Model, opts ...Option) lcllms.Model {
	s, err := collect(opts, forMember)
	if err != nil {
		s.mw = append(s.mw, middleware.Fail(err))
	}
	return llms.Member(m, s.mw...)
}

// Weight sets a pool member's share of the traffic against the others' (2
// gets twice the calls of 1). Pool members only. Default: 1
// ([pool.DefaultWeight]).
func Weight(n int) Option {
	return func(s *settings) {
		if s.only(forMember, "Weight") {
			s.mw = append(s.mw, middleware.Weight(n))
		}
	}
}

// Balance sets how a [Pool] chooses among its healthy members:
// pool.LeastInFlight{} (the default), pool.RoundRobin{} (in turn,
// by weight) or pool.LowestLatency{} (the fastest recently, for its
// load). Pools only.
func Balance(strategy pool.Picker) Option {
	return func(s *settings) {
		if s.only(forPool, "Balance") {
			s.mw = append(s.mw, middleware.Balance(strategy))
		}
	}
}

// StickyKey is a call option that keeps the calls made with one key (a
// conversation's id) on one member of a [Pool] while it is healthy, so that
// the provider's prompt cache keeps serving the conversation. The key never
// reaches the provider.
//
//	model.GenerateContent(ctx, messages, resilient.StickyKey(conversationID))
func StickyKey(key string) lcllms.CallOption { return llms.StickyKey(key) }

// MaxConcurrent bounds the attempts in flight at once to n (a bulkhead):
// of a model, a tool, an embedder, a [Pool] as a whole, or one [Member].
// A caller waits up to maxWait for a slot, then its call fails with
// [ErrConcurrency] without a request: local overload, never counted
// against the provider's circuit breaker (a model's fallbacks take it, a
// tool reports an internal failure to the model). An attempt abandoned at
// its timeout keeps its slot until its request returns. Default: no limit.
func MaxConcurrent(n int, maxWait time.Duration) Option {
	return func(s *settings) { s.mw = append(s.mw, middleware.MaxConcurrent(n, maxWait)) }
}

// ConcurrencyLimit is [MaxConcurrent] on a semaphore shared with other
// targets, or by the replicas of a service (resilientredis.NewSemaphore).
// Default: no limit.
func ConcurrencyLimit(sem limit.Semaphore, maxWait time.Duration) Option {
	return func(s *settings) { s.mw = append(s.mw, middleware.ConcurrencyLimit(sem, maxWait)) }
}
