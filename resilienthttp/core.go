package resilienthttp

import (
	"container/list"
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"sync"

	"github.com/resilientgo/resilient/middleware"
	"github.com/resilientgo/resilient/observe"
	"github.com/resilientgo/resilient/run"
	"github.com/resilientgo/resilient/taxonomy"
)

// sender sends one request: the SDK's next handler, or a RoundTripper's
// RoundTrip.
type sender = func(*http.Request) (*http.Response, error)

// core is what Middleware and Transport share: the options, and a pipeline
// per target, each with its own breaker.
type core struct {
	cfg   config
	err   error      // invalid options: every call fails with it
	bases []*url.URL // of the pool's members, indexed as they are

	mu      sync.Mutex
	targets map[string]*list.Element // of *target, most recently used first in lru
	lru     list.List
}

// target is one breaker's worth of calls: a host and a model, or a model
// of the pool.
type target struct {
	key  string
	desc observe.Target
	pipe *middleware.Pipeline[*http.Response]
}

func newCore(opts []Option) *core {
	c := &core{cfg: configure(opts), targets: map[string]*list.Element{}}
	for _, d := range c.cfg.pool {
		if u, err := parseBase(d.BaseURL); err == nil {
			c.bases = append(c.bases, u)
		}
	}
	// Build one pipeline now, so that invalid options of package
	// middleware are reported at once, by every call.
	_, err := c.newPipeline(observe.Target{Name: "check"})
	c.err = errors.Join(c.cfg.err(), err)
	return c
}

// target returns the target of a request to u naming model, building its
// pipeline on first use. Past maxTargets, the least recently used target
// is forgotten, its breaker with it.
func (c *core) target(u *url.URL, model string) (*target, error) {
	key := strings.ToLower(u.Host)
	if c.cfg.pool != nil {
		key = "pool"
	}
	if model != "" {
		key += "/" + model
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if e, ok := c.targets[key]; ok {
		c.lru.MoveToFront(e)
		return e.Value.(*target), nil
	}
	desc := describe(u, model)
	desc.Name = key
	pipe, err := c.newPipeline(desc)
	if err != nil {
		return nil, err
	}
	t := &target{key: key, desc: desc, pipe: pipe}
	c.targets[key] = c.lru.PushFront(t)
	for c.lru.Len() > c.cfg.maxTargets {
		last := c.lru.Back()
		c.lru.Remove(last)
		delete(c.targets, last.Value.(*target).key)
	}
	return t, nil
}

// newPipeline builds the pipeline of the target desc describes: a pool's
// over the deployments when there is a pool.
func (c *core) newPipeline(desc observe.Target) (*middleware.Pipeline[*http.Response], error) {
	opts := append([]middleware.Option{middleware.Describe(desc)}, c.cfg.mw...)
	if c.cfg.pool != nil {
		members := make([]middleware.Member, len(c.cfg.pool))
		for i, d := range c.cfg.pool {
			t := desc
			t.Name = d.Name
			members[i] = middleware.Member{Name: d.Name, Target: t, Options: d.Options}
		}
		opts = append(opts, middleware.Members(members...))
	}
	p, err := middleware.New[*http.Response](desc.Name, opts...)
	if err != nil {
		return nil, fmt.Errorf("resilienthttp: %w", err)
	}
	return p, nil
}

// do sends req under the target's pipeline and returns what the SDK gets:
// the response of the attempt that answered; or, when the call failed, the
// last attempt's response marked x-should-retry: false, so that the SDK
// builds its own error from it and does not retry; or, when the last
// attempt had no response, the library's *middleware.Error (see noResponse).
// viaMiddleware says the caller is an SDK's middleware chain.
func (c *core) do(req *http.Request, send sender, viaMiddleware bool) (*http.Response, error) {
	if c.err != nil {
		if req.Body != nil {
			req.Body.Close()
		}
		return c.noResponse(req, taxonomy.WithClass(c.err, taxonomy.Class{Kind: taxonomy.Programming, Rule: "invalid options"}), viaMiddleware)
	}
	b, err := readBody(req, c.cfg.maxBody)
	if err != nil {
		return c.noResponse(req, err, viaMiddleware)
	}
	t, err := c.target(req.URL, modelOf(req.URL, b.data))
	if err != nil {
		b.close()
		return c.noResponse(req, err, viaMiddleware)
	}
	ctx := req.Context()
	cl := &call{core: c, req: req, body: b, send: send, target: t, caller: ctx,
		run: run.From(ctx), obs: t.pipe.Observers(), viaMiddleware: viaMiddleware}
	var opts []middleware.CallOption
	if cl.run != nil {
		opts = append(opts, middleware.Request(func(context.Context, middleware.State) int { return b.tokens() }))
	}
	if cl.obs.Active() {
		ctx = cl.start(ctx)
	}
	resp, err := t.pipe.Do(ctx, cl.attempt, opts...)
	return cl.finish(ctx, resp, err)
}
