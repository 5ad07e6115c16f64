package main

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"

	lcllms "github.com/tmc/langchaingo/llms"

	"github.com/resilientgo/resilient"
	"github.com/resilientgo/resilient/observe"
	"github.com/resilientgo/resilient/pool"
)

// The policies of scenario 9 spread one model's calls over several
// deployments (rig.deployments, in the order of deploymentNames): this
// library's pool, its ordered fallbacks, and the round robin a user writes
// without either.

// poolConfig is a row of resilient.Pool: the library's defaults, given
// explicitly only to divide their durations by the time scale, plus what
// the row adds.
type poolConfig struct{ extra []libOption }

func (c poolConfig) name() string {
	name := "resilient.Pool defaults"
	for _, o := range c.extra {
		name += " + " + o.String()
	}
	return name
}

func (c poolConfig) options() []libOption { return append(modelDefaults(), c.extra...) }

func poolPolicy(c poolConfig) Policy {
	about := fmt.Sprintf("`resilient.Pool([]llms.Model{%s}, %s)`, where each member is langchaingo's openai client "+
		"with the library's evidence transport against one deployment; no member options, so each member has "+
		"the pool's breaker settings, its own retry throttle, and cools down for as long as a Retry-After asks. "+
		"Strategy: %s. Every duration is the library's default, read from its constants as described for %s.",
		namedMembers(), options(c.options()), strategyOf(c.extra), libraryDefaults().name())
	return Policy{Name: c.name(), About: about, Library: true,
		Model: func(r rig) (lcllms.Model, error) {
			members, err := deploymentClients(r)
			if err != nil {
				return nil, err
			}
			m := resilient.Pool(members, observed(r, build[resilient.PoolOption](c.options(), r.ts))...)
			return m, m.Err()
		}}
}

// strategyOption is resilient.Balance(s), rendered with the strategy's
// constant.
func strategyOption(s pool.Picker) libOption {
	return fixedOption(resilient.Balance(s), resilient.Balance, strategyConst{s})
}

// strategyConst names strategy p as its value in package pool, such as
// pool.LeastInFlight{}.
type strategyConst struct{ p pool.Picker }

func (s strategyConst) String() string { return fmt.Sprintf("%T{}", s.p) }

// strategyOf names the strategy the options set, the default when none.
func strategyOf(opts []libOption) string {
	for _, o := range opts {
		if funcName(o.fn) == funcName(resilient.Balance) {
			return o.args[0].(strategyConst).String() + ", given"
		}
	}
	return strategyConst{pool.LeastInFlight{}}.String() + ", the default"
}

// namedMembers renders the members as the pool is given them.
func namedMembers() string {
	parts := make([]string, len(deploymentNames))
	for i, n := range deploymentNames {
		parts[i] = fmt.Sprintf("%s(%s, %q)", funcName(resilient.Named), strings.ReplaceAll(n, "-", ""), n)
	}
	return strings.Join(parts, ", ")
}

// deploymentClients returns the openai client with the evidence transport
// against each deployment, named after it.
func deploymentClients(r rig) ([]lcllms.Model, error) {
	out := make([]lcllms.Model, len(r.deployments))
	for i, s := range r.deployments {
		llm, err := r.evidenceClient(s)
		if err != nil {
			return nil, err
		}
		out[i] = resilient.Named(llm, deploymentNames[i])
	}
	return out, nil
}

// fallbacksPolicy is this library before pools: resilient.Model on the
// deployment first in order, resilient.Fallbacks with the others in
// order. A user lists the deployments before knowing which will be sick,
// so the report runs each as the primary.
func fallbacksPolicy(order []int) Policy {
	names := make([]string, len(order))
	for i, d := range order {
		names[i] = deploymentNames[d]
	}
	return Policy{Name: "resilient.Fallbacks: " + strings.Join(names, ", then "),
		About: fmt.Sprintf("the library's model with its ordered fallbacks: `resilient.Model(%s, %s, "+
			"resilient.Fallbacks(%s))`, each a named openai client with the evidence transport, the defaults as described for "+
			"%s; every call goes to the first until its retries are spent or its circuit is open, then to the next, "+
			"each with its own breaker. Run once with each deployment first.",
			strings.ReplaceAll(names[0], "-", ""), options(modelDefaults()),
			strings.ReplaceAll(strings.Join(names[1:], ", "), "-", ""), libraryDefaults().name()),
		Model: func(r rig) (lcllms.Model, error) {
			clients, err := deploymentClients(r)
			if err != nil {
				return nil, err
			}
			var rest []lcllms.Model
			for _, d := range order[1:] {
				rest = append(rest, clients[d])
			}
			m := resilient.Model(clients[order[0]], observed(r, append(build[resilient.ModelOption](modelDefaults(), r.ts), resilient.Fallbacks(rest...)))...)
			return m, m.Err()
		}}
}

// roundRobin is the pool a user writes in a few lines: each request, a
// retry included, goes to the next deployment in turn, whatever the last
// one answered. It is safe for concurrent use.
type roundRobin struct {
	models []lcllms.Model
	next   atomic.Uint64
}

func (rr *roundRobin) GenerateContent(ctx context.Context, msgs []lcllms.MessageContent, opts ...lcllms.CallOption) (*lcllms.ContentResponse, error) {
	m := rr.models[(rr.next.Add(1)-1)%uint64(len(rr.models))]
	return m.GenerateContent(ctx, msgs, opts...)
}

func (rr *roundRobin) Call(ctx context.Context, prompt string, opts ...lcllms.CallOption) (string, error) {
	return lcllms.GenerateFromSinglePrompt(ctx, rr, prompt, opts...)
}

// roundRobinPolicies are the round robin three ways: as it is, over
// clients that retry as openai-go does, and inside this library's model.
func roundRobinPolicies() []Policy {
	const what = "a round robin written as a user would (`roundRobin` in scenarios/policy_pool.go): each request " +
		"goes to the next of the three deployments in turn, whatever they answered before"
	return []Policy{
		{Name: "round robin, no retry",
			About: what + ", over langchaingo's openai clients as shipped; no retry.",
			Model: func(r rig) (lcllms.Model, error) {
				return roundRobinOver(r, func(i int) (lcllms.Model, error) {
					return r.client(r.deployments[i], r.transport)
				})
			}},
		{Name: "round robin over " + openaiGo.name(),
			About: what + ", over clients each retrying in its transport as " + openaiGo.name() + " does (see that " +
				"policy): a retry stays on its deployment.",
			Model: func(r rig) (lcllms.Model, error) {
				return roundRobinOver(r, func(i int) (lcllms.Model, error) {
					return r.client(r.deployments[i], openaiGo.transport(r.transport, r.ts))
				})
			}},
		{Name: "round robin in resilient.Model",
			About: fmt.Sprintf("%s, over the openai clients with the evidence transport, wrapped whole as "+
				"`resilient.Model(rr, %s)`, the defaults as described for %s: one breaker and one throttle for the three, and "+
				"each retry, after its backoff or Retry-After, goes to the next deployment.",
				what, options(modelDefaults()), libraryDefaults().name()),
			Model: func(r rig) (lcllms.Model, error) {
				rr, err := roundRobinOver(r, func(i int) (lcllms.Model, error) { return r.evidenceClient(r.deployments[i]) })
				if err != nil {
					return nil, err
				}
				m := resilient.Model(rr, observed(r, build[resilient.ModelOption](modelDefaults(), r.ts))...)
				return m, m.Err()
			}},
	}
}

// roundRobinOver returns a round robin over the client of each deployment.
func roundRobinOver(r rig, client func(i int) (lcllms.Model, error)) (*roundRobin, error) {
	rr := &roundRobin{}
	for i := range r.deployments {
		m, err := client(i)
		if err != nil {
			return nil, err
		}
		rr.models = append(rr.models, m)
	}
	return rr, nil
}

// poolPolicies are the rows of scenario 9: the pool with its defaults and
// with the strategy that weighs failures, the fallbacks with each
// deployment first, and the round robins.
func poolPolicies() []Policy {
	ps := []Policy{poolPolicy(poolConfig{}), poolPolicy(poolConfig{extra: []libOption{strategyOption(pool.LowestLatency{})}})}
	for _, order := range [][]int{{0, 1, 2}, {1, 2, 0}, {2, 0, 1}} {
		ps = append(ps, fallbacksPolicy(order))
	}
	return append(ps, roundRobinPolicies()...)
}

// observed adds the rig's observer, if any, to opts, the options of one
// target, O.
func observed[O any](r rig, opts []O) []O {
	if r.observer == nil {
		return opts
	}
	return append(opts, any(resilient.Observe(r.observer)).(O))
}

// openings is an observer that counts circuit openings by breaker name. It
// is safe for concurrent use.
type openings struct {
	used atomic.Bool // a call went through the library: there were breakers to open
	mu   sync.Mutex
	n    map[string]int
}

func (o *openings) Start(ctx context.Context, _ observe.Start) context.Context {
	o.used.Store(true)
	return ctx
}

func (o *openings) Observe(_ context.Context, e observe.Event) {
	if c, ok := e.(observe.BreakerChange); ok && c.To == observe.BreakerOpen {
		o.mu.Lock()
		defer o.mu.Unlock()
		if o.n == nil {
			o.n = map[string]int{}
		}
		o.n[c.Target]++
	}
}

// String renders the openings by breaker, most first: "none" when no
// breaker opened, "no breaker" when no call went through the library.
func (o *openings) String() string {
	o.mu.Lock()
	defer o.mu.Unlock()
	switch {
	case !o.used.Load():
		return "no breaker"
	case len(o.n) == 0:
		return "none"
	}
	return formatReasons(o.n)
}
