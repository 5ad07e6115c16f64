package main

import (
	"context"
	"fmt"
	"math"
	"slices"
	"time"

	"github.com/resilientgo/resilient/faultserver"
	"github.com/resilientgo/resilient/middleware"
	"github.com/resilientgo/resilient/run"
)

// Scenario 1: random transient failures.
const (
	transientRate  = 0.3
	transientEvery = 5 * time.Millisecond // 0.5 s of provider time between call starts
)

// transientServer fails 30 % of requests, half with an empty 500 and half
// with a 529, drawn from a seeded generator in arrival order.
func transientServer() faultserver.Step {
	rng := seeded(1)
	return faultserver.Func(func(*faultserver.Request) faultserver.Step {
		if rng.Float64() >= transientRate {
			return faultserver.Reply("ok")
		}
		if rng.IntN(2) == 0 {
			return faultserver.ServerError()
		}
		return faultserver.Overloaded()
	})
}

type transientResult struct {
	calls
	requests int
	wall     time.Duration
}

func transient(cfg config) (section, error) {
	n := 200
	if cfg.quick {
		n = 50
	}
	cfg = cfg.heavy()
	ps := append(policies(), libraryPolicy(libraryConfig{callRun: true}))
	res, err := repeat(cfg, ps, true, func(p Policy) (r transientResult, err error) {
		err = withServer(p, defaultScale, transientServer(), func(rg rig, c Caller) error {
			start := time.Now()
			r.calls = paced(context.Background(), c, transientEvery, func(i int, _ time.Time) bool { return i == n })
			r.wall = time.Since(start)
			r.requests = rg.server.Count()
			return nil
		})
		return r, err
	})
	if err != nil {
		return section{}, err
	}

	sec := section{number: 1, title: "Random transient failures",
		setup: fmt.Sprintf("The server fails %.0f %% of requests (half an empty 500, half a 529 \"overloaded\"), "+
			"drawn from a seeded generator in arrival order. One caller makes %d logical calls, one every %v "+
			"(%v of provider time) or as soon as the previous one ends. Lower bound: none; the best a policy "+
			"can do is 1/(1-%.1f) = %.2f requests per success. Times are medians of %d runs.", transientRate*100, n,
			transientEvery, defaultScale.provider(transientEvery), transientRate, 1/(1-transientRate), cfg.runs),
		table: table{header: []string{"policy", "calls", "failed calls", "requests", "success rate", "requests / call",
			"requests / success", "mean call time", "failures"}}}
	success := make([]samples, len(ps))
	for i, p := range ps {
		runs := res[i]
		success[i] = collect(runs, func(r transientResult) float64 { return 100 * float64(r.ok) / float64(r.n) })
		sec.table.add(p.Name,
			collect(runs, func(r transientResult) float64 { return float64(r.n) }).count(),
			collect(runs, func(r transientResult) float64 { return float64(r.n - r.ok) }).count(),
			collect(runs, func(r transientResult) float64 { return float64(r.requests) }).count(),
			success[i].percent(),
			collect(runs, func(r transientResult) float64 { return float64(r.requests) / float64(r.n) }).ratio(),
			collect(runs, func(r transientResult) float64 { return float64(r.requests) / float64(max(r.ok, 1)) }).ratio(),
			collect(runs, func(r transientResult) float64 { return mean(r.durations) }).millis(),
			failureSummary(runs, func(r transientResult) calls { return r.calls }))
	}
	sec.targets = append(sec.targets, matchesBest(1, ps, success, func(best Policy) string {
		l := stackedLayers
		return fmt.Sprintf("the library makes at most %d attempts a call (middleware.DefaultMaxAttempts), and %.0f %% "+
			"failures fail %.1f %% of calls on every attempt; %s makes more (the stacked layers up to %d)",
			middleware.DefaultMaxAttempts, 100*transientRate, 100*math.Pow(transientRate, middleware.DefaultMaxAttempts),
			best.Name, l.outerAttempts*l.innerAttempts)
	}))
	sec.targets = append(sec.targets, rowMatchesBest(1, ps, success, len(ps)-1, func(best Policy) string {
		return fmt.Sprintf("a call in a run may take %d attempts past its limit, while its run's budget lasts "+
			"(%d retries); %.0f %% failures fail %.2f %% of calls on every one of %d attempts",
			middleware.DefaultPastLimitAttempts, run.DefaultRetryBudget, 100*transientRate,
			100*math.Pow(transientRate, middleware.DefaultMaxAttempts+middleware.DefaultPastLimitAttempts),
			middleware.DefaultMaxAttempts+middleware.DefaultPastLimitAttempts)
	}))
	return sec, nil
}

// failureSummary renders the failed calls of the first run by reason.
func failureSummary[M any](runs []M, f func(M) calls) string {
	if len(runs) == 0 {
		return ""
	}
	c := f(runs[0])
	if len(c.failures) == 0 {
		return "none"
	}
	return formatReasons(c.failures)
}

// matchesBest checks that the first of the library's rows succeeds at
// least as often as the best baseline; why says why it may not.
func matchesBest(scenario int, ps []Policy, success []samples, why func(best Policy) string) target {
	return rowMatchesBest(scenario, ps, success, slices.IndexFunc(ps, func(p Policy) bool { return p.Library }), why)
}

// rowMatchesBest checks that row lib succeeds at least as often as the
// best baseline; why says why it may not.
func rowMatchesBest(scenario int, ps []Policy, success []samples, lib int, why func(best Policy) string) target {
	best, bestAt := -1.0, 0
	for i, p := range ps {
		if m := success[i].median(); !p.Library && m > best {
			best, bestAt = m, i
		}
	}
	d := success[lib].median()
	return target{scenario: scenario, what: ps[lib].Name + " succeeds at least as often as the best baseline",
		measured: fmt.Sprintf("%.1f %%; best baseline, %s: %.1f %%", d, ps[bestAt].Name, best),
		pass:     d >= best, why: why(ps[bestAt])}
}
