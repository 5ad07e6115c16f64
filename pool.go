package resilient

import (
	lcllms "github.com/tmc/langchaingo/llms"

	"github.com/resilientgo/resilient/llms"
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
func Pool(members []lcllms.Model, opts ...PoolOption) *llms.Model {
	pool, _ := llms.NewPool(members, flatten(opts, PoolOption.pool)...) // on error, a model that reports it
	return pool
}

// Member sets the options of one member of a [Pool], those that guard it
// alone ([MemberOption]s): [Weight], [RateLimit], [MaxConcurrent],
// [ConcurrencyLimit], [CircuitBreaker], and guards given through
// [Middleware]. The result is still m to every caller; name it with
// [Named]. A pipeline option given through Middleware that applies to the
// pool as a whole makes the pool report an error. Used outside a pool, as
// a [Model] or one of its [Fallbacks], the member's limits and breaker
// apply to it all the same (its Weight, with nothing to weigh against, is
// dropped).
func Member(m lcllms.Model, opts ...MemberOption) lcllms.Model {
	return llms.Member(m, flatten(opts, MemberOption.member)...)
}

// StickyKey is a call option that keeps the calls made with one key (a
// conversation's id) on one member of a [Pool] while it is healthy, so that
// the provider's prompt cache keeps serving the conversation. The key never
// reaches the provider.
//
//	model.GenerateContent(ctx, messages, resilient.StickyKey(conversationID))
func StickyKey(key string) lcllms.CallOption { return llms.StickyKey(key) }
