package llms

import (
	"errors"
	"fmt"
	"strings"

	lcllms "github.com/tmc/langchaingo/llms"

	"github.com/resilientgo/resilient/internal/inspect"
	"github.com/resilientgo/resilient/middleware"
	"github.com/resilientgo/resilient/observe"
	"github.com/resilientgo/resilient/pool"
)

// Member makes m a member of a pool (see [NewPool]) guarded by opts, the
// middleware options that apply to one member: middleware.Weight,
// RateLimit, MaxConcurrent, ConcurrencyLimit, CircuitBreaker, UseBreaker,
// NoBreaker, NoThrottle, MaxHold. The result is still m to every caller;
// name it with [Named] (before or after Member). Outside a pool, [New] and
// [Fallbacks] apply opts to m, after their own options: its limits and
// breaker guard it as they would in a pool; its Weight, with nothing to
// weigh against there, is dropped.
func Member(m lcllms.Model, opts ...middleware.Option) lcllms.Model {
	return &memberSpec{Model: m, opts: opts}
}

type memberSpec struct {
	lcllms.Model
	opts []middleware.Option
}

// NewPool returns one model over members, interchangeable deployments of
// the same model (two regions, several accounts, a fleet of servers): each
// attempt goes to one member chosen among the healthy ones, and a retry to
// another member than the attempts before it, at once, so that a sick
// member costs a call one request. Each member has its own circuit breaker,
// retry throttle and, with [Member], weight, rate limiter and concurrency
// limit; a member that answers with a Retry-After cools down for that long.
// The calls of one run, or of one [StickyKey], stay on the member that
// answered them while it is healthy. See middleware.Members for the
// choice, and middleware.Balance for the strategies.
//
// Everything else is a [Model]'s, once for the pool: retries, backoff,
// timeouts, compaction, stream guard, response checks (each member's by
// its own client), usage accounting and [Fallbacks], which take a call when
// every member is unavailable (every circuit open: the call fails fast with
// observe.ReasonCircuitOpen and each member's state) or the retries are
// spent. A member whose key, account, quota or deployment fails
// (taxonomy.Class.AccountFailure: a 401, insufficient_quota, a deployment
// not found) is out of rotation for its middleware.MaxHold, 5 min by
// default, and the call goes at once to another member; when every member
// fails so, the call fails with observe.ReasonPermanent and each
// member's state, and [Fallbacks] take it. The pool has no breaker of its
// own ([Model.Breaker] is nil): one member down must not stop the others;
// [Model.Pool] reports on the members. [Middleware] options about the
// breaker set the members' defaults; a rate or concurrency limit given to
// the pool bounds it as a whole. A pool cannot be built with
// [ShareLimits]; a model or embedder given ShareLimits(pool) draws on the
// limits given to the pool as a whole (its rate, token and concurrency
// limits), not on its members'.
//
// Members are named as fallbacks are ("openai/gpt-4o", "openai/gpt-4o#2"
// unless [Named]); the pool is named by [Name], by default
// "pool(<member>, ...)". Invalid members or options make NewPool return an
// error naming each problem, with a model that answers every call with it.
func NewPool(members []lcllms.Model, opts ...Option) (*Model, error) {
	cfg := configure(opts)
	if len(members) == 0 {
		cfg.errorf("NewPool: a pool needs at least one member")
	}
	if cfg.shared != nil {
		cfg.errorf("ShareLimits applies to a model, not to a pool: share a member's breaker or concurrency limit with middleware.UseBreaker or ConcurrencyLimit in its options")
	}
	var clients []client
	var specs []middleware.Member
	taken := names{}
	for i, m := range members {
		llm, given, mopts := unmember(m)
		if inspect.IsNil(llm) {
			cfg.errorf("NewPool: member %d is nil (%T)", i, llm)
			continue
		}
		if _, wrapped := llm.(*Model); wrapped {
			// Its own retries would multiply the pool's.
			cfg.errorf("NewPool: member %d is already wrapped: give the provider client itself", i)
			continue
		}
		name, err := taken.claim(llm, given)
		if err != nil {
			cfg.errorf("NewPool: member %d %v", i, err)
			continue
		}
		_, provider, model := describe(llm)
		clients = append(clients, client{llm: llm, provider: providerOf(llm)})
		specs = append(specs, middleware.Member{Name: name, Options: mopts,
			Target: observe.Target{Operation: observe.OperationChat, Provider: provider, Model: model}})
	}
	err := errors.Join(cfg.errs...)
	if err == nil {
		var w *Model
		if w, err = buildPool(clients, specs, cfg, taken); err == nil {
			return w, nil
		}
	}
	return invalid(nil, err), err
}

// unmember returns the client under the Named and Member wrappers of m, in
// either order, the name Named gave and the options Member gave. New and
// Fallbacks unwrap their models so too: outside a pool, a member's options
// guard the model it is.
func unmember(m lcllms.Model) (lcllms.Model, string, []middleware.Option) {
	var name string
	var opts []middleware.Option
	for {
		switch w := m.(type) {
		case *named:
			if w == nil {
				return m, name, opts
			}
			if name == "" {
				name = w.name // the outermost name wins
			}
			m = w.Model
		case *memberSpec:
			if w == nil {
				return m, name, opts
			}
			opts = append(w.opts[:len(w.opts):len(w.opts)], opts...)
			m = w.Model
		default:
			return m, name, opts
		}
	}
}

// buildPool builds the pool over clients, described by specs.
func buildPool(clients []client, specs []middleware.Member, cfg config, taken names) (*Model, error) {
	var memberNames []string
	target := observe.Target{Operation: observe.OperationChat, Provider: specs[0].Target.Provider, Model: specs[0].Target.Model}
	for _, s := range specs {
		memberNames = append(memberNames, s.Name)
		if s.Target.Provider != target.Provider {
			target.Provider = "" // only when every member says the same
		}
		if s.Target.Model != target.Model {
			target.Model = ""
		}
	}
	name := cfg.name
	if name == "" {
		name = "pool(" + strings.Join(memberNames, ", ") + ")"
	}
	if taken[name] {
		return nil, fmt.Errorf("llms: NewPool: the pool is named %q like one of its members", name)
	}
	target.Name = name
	w := &Model{name: name, cfg: cfg, target: target, members: clients}
	if err := w.buildPipelines(cfg, middleware.Members(specs...)); err != nil {
		return nil, err
	}
	return w, w.buildFallbacks(cfg, taken)
}

// Pool returns the pool built by [NewPool], which reports on
// its members (their breakers, loads, cooldowns, latencies); nil for a
// model that is not a pool.
func (m *Model) Pool() *pool.Pool {
	if m == nil || m.pipe == nil {
		return nil
	}
	return m.pipe.Pool()
}

// StickyKey is a call option that keeps the calls made with the same key
// (a conversation's id) on one member of a pool while it is healthy, so
// that the provider's prompt cache keeps serving the conversation (see
// pool.Sticky). It overrides the run's own stickiness. The key never
// reaches the provider: the wrapper removes it from the options before it
// calls the client. A model that is not a pool ignores it.
func StickyKey(key string) lcllms.CallOption {
	return func(o *lcllms.CallOptions) {
		o.Metadata = withMetadata(o.Metadata, key)
	}
}

// withMetadata returns a copy of md with key under stickyMetadata, or
// without it when key is nil: the caller's map is never written to, as
// concurrent calls may share it.
func withMetadata(md map[string]any, key any) map[string]any {
	out := make(map[string]any, len(md)+1)
	for k, v := range md {
		if k != stickyMetadata {
			out[k] = v
		}
	}
	if key != nil {
		out[stickyMetadata] = key
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

// stickyMetadata is where StickyKey keeps its key in the call options.
const stickyMetadata = "resilient:sticky_key"

// stickyKeyOf returns the key StickyKey put in opts, "" if none.
func stickyKeyOf(opts *lcllms.CallOptions) (string, bool) {
	key, ok := opts.Metadata[stickyMetadata].(string)
	return key, ok
}

// dropStickyKey removes StickyKey's key from the options a client reads:
// the providers would send it in the request.
func dropStickyKey(o *lcllms.CallOptions) {
	if _, ok := o.Metadata[stickyMetadata]; ok {
		o.Metadata = withMetadata(o.Metadata, nil)
	}
}
