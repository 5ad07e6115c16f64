package main

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/resilientgo/resilient"
	"github.com/resilientgo/resilient/faultserver"
)

// Scenario 6: heavy-tailed latency. Provider times.
const (
	fastLatency  = time.Second
	slowLatency  = 20 * time.Second
	slowShare    = 0.05
	hedgeDelay   = 3 * time.Second // three times the typical latency: past it, the request is almost surely a slow one
	hedgeCallers = 20
)

// tailServer answers every request after fastLatency, except one in every
// block of 20 arrivals (5 %), at a position in the block drawn from a seeded
// generator, which it answers after slowLatency: the share is exact, the
// positions random.
func tailServer() faultserver.Step {
	rng := seeded(6)
	block := int(1 / slowShare)
	slowAt := 0
	return faultserver.Func(func(r *faultserver.Request) faultserver.Step {
		i := r.Index % block
		if i == 0 {
			slowAt = rng.IntN(block)
		}
		if i == slowAt {
			return faultserver.Reply("ok").After(defaultScale.of(slowLatency))
		}
		return faultserver.Reply("ok").After(defaultScale.of(fastLatency))
	})
}

func hedgePolicies() []Policy {
	ps := policies()
	hedge := libOption{fn: resilient.Hedge, args: []any{hedgeDelay, 1},
		build: func(ts timeScale) any { return resilient.Hedge(ts.of(hedgeDelay), 1) }}
	return []Policy{ps[0], ps[len(ps)-1], libraryPolicy(libraryConfig{extra: []libOption{hedge}})}
}

type hedgeResult struct {
	calls
	requests int
}

func hedging(cfg config) (section, error) {
	n := 200
	if cfg.quick {
		n = 100
	}
	ps := hedgePolicies()
	res, err := repeat(cfg, ps, false, func(p Policy) (r hedgeResult, err error) {
		err = withServer(p, defaultScale, tailServer(), func(rg rig, c Caller) error {
			r.calls = concurrently(c, hedgeCallers, n)
			r.requests = rg.server.Count()
			return nil
		})
		return r, err
	})
	if err != nil {
		return section{}, err
	}
	sec := section{number: 6, title: "Heavy-tailed latency and hedging",
		setup: fmt.Sprintf("The server answers after %v (%v of provider time), or for %.0f %% of requests (one in "+
			"every 20 arrivals, at a position drawn from a seeded generator), after %v (%v). %d callers make %d logical calls in all, each caller one "+
			"after another. The hedged policy starts a second request when the first has not answered after "+
			"%v (%v), three times the typical latency: closer to it, this machine's own hiccups would fire "+
			"hedges for fast requests too. Lower bound on the p99: the typical latency, %v. The other baselines behave as no retry here: no "+
			"request fails.", defaultScale.of(fastLatency), fastLatency, slowShare*100,
			defaultScale.of(slowLatency), slowLatency, hedgeCallers, n, defaultScale.of(hedgeDelay), hedgeDelay,
			defaultScale.of(fastLatency)),
		table: table{header: []string{"policy", "success rate", "p50", "p99", "requests / call", "extra requests"}}}
	p99 := make([]samples, len(ps))
	extra := make([]samples, len(ps))
	for i, p := range ps {
		runs := res[i]
		p99[i] = collect(runs, func(r hedgeResult) float64 { return percentile(r.durations, 99) })
		extra[i] = collect(runs, func(r hedgeResult) float64 { return 100 * float64(r.requests-r.n) / float64(r.n) })
		sec.table.add(p.Name,
			collect(runs, func(r hedgeResult) float64 { return 100 * float64(r.ok) / float64(r.n) }).percent(),
			collect(runs, func(r hedgeResult) float64 { return percentile(r.durations, 50) }).millis(),
			p99[i].millis(),
			collect(runs, func(r hedgeResult) float64 { return float64(r.requests) / float64(r.n) }).ratio(),
			fmt.Sprintf("%.1f %%", extra[i].median()))
	}
	cut := p99[1].median() / p99[2].median()
	sec.targets = append(sec.targets, target{scenario: 6,
		what:     "hedging cuts the p99 at least threefold for at most 10 % extra requests",
		measured: fmt.Sprintf("p99 %s -> %s (%.1fx), %.1f %% extra", p99[1].millis(), p99[2].millis(), cut, extra[2].median()),
		pass:     cut >= 3 && extra[2].median() <= 10,
		why: fmt.Sprintf("a hedge starts %v after its request, and a fast answer takes %v: a hedged p99 above their sum, "+
			"%v, is this machine's load delaying requests", defaultScale.of(hedgeDelay), defaultScale.of(fastLatency),
			defaultScale.of(hedgeDelay+fastLatency))})
	return sec, nil
}

// concurrently makes n logical calls from callers goroutines, each making
// its share one after another.
func concurrently(c Caller, callers, n int) calls {
	var (
		mu sync.Mutex
		r  calls
		wg sync.WaitGroup
	)
	for g := range callers {
		share := n / callers
		if g < n%callers {
			share++
		}
		wg.Go(func() {
			for range share {
				t := time.Now()
				err := c.Call(context.Background())
				mu.Lock()
				r.record(err, t)
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	return r
}
