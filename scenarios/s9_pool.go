package main

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/resilientgo/resilient/breaker"
)

// Scenario 9: one model on three deployments, one degraded, one
// rate-limited, one healthy (see s9_deployments.go).
const (
	poolEvery = 250 * time.Millisecond // provider time: the mean gap between two calls' arrivals
	poolSeed  = 9
)

// poolArrivals returns when each of n calls arrives, from the start of the
// traffic, in harness time: a Poisson process of mean gap poolEvery, drawn
// from a seeded generator, so that every policy gets the same traffic.
func poolArrivals(n int) []time.Duration {
	rng := seeded(poolSeed)
	out := make([]time.Duration, n)
	var at time.Duration
	for i := range out {
		out[i] = at
		at += time.Duration(rng.ExpFloat64() * float64(defaultScale.of(poolEvery)))
	}
	return out
}

type poolResult struct {
	calls
	requests, failed [3]int // per deployment: requests, and the 503s or 429s among them
	openings         string // circuit openings by breaker
}

// inFlight returns the mean number of calls in flight from the first
// call's start to the last call's end.
func (r poolResult) inFlight() float64 {
	var busy time.Duration
	var first, last time.Time
	for i, start := range r.starts {
		busy += r.durations[i]
		if first.IsZero() || start.Before(first) {
			first = start
		}
		if end := start.Add(r.durations[i]); end.After(last) {
			last = end
		}
	}
	if !last.After(first) {
		return 0
	}
	return float64(busy) / float64(last.Sub(first))
}

func (r poolResult) total() int { return r.requests[0] + r.requests[1] + r.requests[2] }

// runPool sends the traffic of n calls through p to a new fleet. Each call
// starts at its arrival on a goroutine of its own, as a service's requests
// do, whether the calls before it have ended or not.
func runPool(p Policy, n int) (r poolResult, err error) {
	f := newFleet(poolSeed, defaultScale)
	rg := newRig(f.servers[0], defaultScale)
	rg.deployments = f.servers
	opened := &openings{}
	rg.observer = opened
	m, err := p.Model(rg)
	if err != nil {
		rg.close()
		f.close()
		return r, err
	}
	arrivals := poolArrivals(n)
	errs := make([]error, n)
	starts := make([]time.Time, n)
	durations := make([]time.Duration, n)
	var wg sync.WaitGroup
	f.begin()
	begin := time.Now()
	for i, at := range arrivals {
		if d := time.Until(begin.Add(at)); d > 0 {
			time.Sleep(d)
		}
		wg.Go(func() {
			starts[i] = time.Now()
			_, errs[i] = m.GenerateContent(context.Background(), poolPrompt(i))
			durations[i] = time.Since(starts[i])
		})
	}
	wg.Wait()
	rg.close()
	f.close()
	for i := range n {
		r.add(errs[i], starts[i], durations[i])
	}
	r.requests, r.failed = f.counts()
	r.openings = opened.String()
	return r, nil
}

func pooled(cfg config) (section, error) {
	n := 1000
	if cfg.quick {
		n = 300
	}
	cfg = cfg.heavy()
	ps := poolPolicies()
	res, err := repeat(cfg, ps, false, func(p Policy) (poolResult, error) { return runPool(p, n) })
	if err != nil {
		return section{}, err
	}

	df := deploymentFaults
	sec := section{number: 9, title: "Three deployments: a pool",
		setup: fmt.Sprintf("Three deployments of the same model, each behind a fault server of its own. **%s** "+
			"answers every request after %v (%v of provider time), %.0f %% of them with a 503 (drawn per "+
			"logical call and per request of that call it sees, from a seeded generator, so that the draws do not "+
			"depend on arrival order). **%s** has a quota of %d requests per %v window (%v of provider time): "+
			"within it, it answers after %v (%v); past it, at once, with a 429 whose retry-after-ms says when the "+
			"window ends. **%s** answers every request after %v (%v). %d logical calls arrive as a Poisson "+
			"process of mean gap %v (%v of provider time), drawn from a seeded generator: the same arrival times "+
			"for every policy, each call on its own goroutine whether or not the calls before it have ended, as "+
			"a service's requests do. Lower bounds: 1.00 request per call and a p50 of %v (every call on the "+
			"healthy deployment). Latencies are of whole logical calls, retries and waits included, in harness "+
			"time. Medians of %d runs; the routing, hence the counts, depends on timing and varies a little.",
			degradedName, defaultScale.of(df.degradedLatency), df.degradedLatency, 100*df.degradedFail,
			rateLimitedName, df.quota, defaultScale.of(df.window), df.window, defaultScale.of(df.latency), df.latency,
			healthyName, defaultScale.of(df.latency), df.latency, n, defaultScale.of(poolEvery), poolEvery,
			defaultScale.of(df.latency), cfg.runs),
		table: table{header: []string{"policy", "calls", "failed calls", "success rate", "requests / call",
			"requests: " + strings.Join(deploymentNames, " / "), "503s", "429s", "p50", "p99", "p99.9", "circuit openings", "failures"}},
		compact: table{header: []string{"policy", "success rate", "requests / call", "p99"}}}
	sec.brief = fmt.Sprintf("%d calls, arriving at random about every %v, to one model on three deployments: one "+
		"answering %.0f times slower than the others and failing %.0f %% of its requests with a 503, one allowing %d "+
		"requests per %v and answering the others with a 429 and a Retry-After, one healthy.",
		n, poolEvery, float64(df.degradedLatency)/float64(df.latency), 100*df.degradedFail, df.quota, df.window)
	success := make([]samples, len(ps))
	perCall := make([]samples, len(ps))
	for i, p := range ps {
		runs := res[i]
		success[i] = collect(runs, func(r poolResult) float64 { return 100 * float64(r.ok) / float64(r.n) })
		perCall[i] = collect(runs, func(r poolResult) float64 { return float64(r.total()) / float64(r.n) })
		var perDeployment []string
		for d := range deploymentNames {
			perDeployment = append(perDeployment, collect(runs, func(r poolResult) float64 { return float64(r.requests[d]) }).count())
		}
		sec.table.add(p.Name,
			collect(runs, func(r poolResult) float64 { return float64(r.n) }).count(),
			collect(runs, func(r poolResult) float64 { return float64(r.n - r.ok) }).count(),
			success[i].percent(), perCall[i].ratio(), strings.Join(perDeployment, " / "),
			collect(runs, func(r poolResult) float64 { return float64(r.failed[0]) }).count(),
			collect(runs, func(r poolResult) float64 { return float64(r.failed[1]) }).count(),
			collect(runs, func(r poolResult) float64 { return percentile(r.durations, 50) }).millis(),
			collect(runs, func(r poolResult) float64 { return percentile(r.durations, 99) }).millis(),
			collect(runs, func(r poolResult) float64 { return percentile(r.durations, 99.9) }).millis(),
			runs[0].openings,
			failureSummary(runs, func(r poolResult) calls { return r.calls }))
		sec.compact.add(p.Name, success[i].percent(), perCall[i].ratio(),
			collect(runs, func(r poolResult) float64 { return percentile(r.durations, 99) }).millis())
	}
	lib := slices.IndexFunc(ps, func(p Policy) bool { return p.Library })
	worst, _ := success[lib].bounds()
	_, most := perCall[lib].bounds()
	why := poolMiss(res[lib])
	sec.targets = append(sec.targets,
		target{scenario: 9, what: ps[lib].Name + ": at least 99.9 % of calls succeed, in every run",
			measured: success[lib].percent(), pass: worst >= 99.9, why: why},
		target{scenario: 9, what: ps[lib].Name + ": at most 1.1 requests per call, in every run",
			measured: perCall[lib].ratio(), pass: most <= 1.1, why: why},
		matchesBest(9, ps, success, func(best Policy) string {
			return fmt.Sprintf("%s: %s", best.Name, perCall[slices.IndexFunc(ps, func(p Policy) bool {
				return p.Name == best.Name
			})].ratio()+" requests per call")
		}))
	sec.notes = append(sec.notes, fallbackNote(ps, res), strategyNote(ps, res),
		"Circuit openings are counted by an observer given to the library's models (`resilient.Observe`), "+
			"which changes nothing they decide; \"no breaker\" marks the rows without one.")
	return sec, nil
}

// fallbackNote compares the ordered fallbacks over their three orders.
func fallbackNote(ps []Policy, res [][]poolResult) string {
	var perCall, p99 []float64
	for i, p := range ps {
		if strings.HasPrefix(p.Name, "resilient.Fallbacks") {
			perCall = append(perCall, collect(res[i], func(r poolResult) float64 { return float64(r.total()) / float64(r.n) }).median())
			p99 = append(p99, collect(res[i], func(r poolResult) float64 { return percentile(r.durations, 99) }).median())
		}
	}
	return fmt.Sprintf("The ordered fallbacks are as good as their order: with the %s deployment first they never "+
		"meet the faults, but the list is written before anyone knows which deployment will be sick. Over the %d "+
		"orders, they make %.2f requests per call on average, their p99 %s.",
		healthyName, len(perCall), meanOf(perCall), formatMillis(meanOf(p99)))
}

// strategyNote says how much of each pool row's traffic went to the
// degraded deployment.
func strategyNote(ps []Policy, res [][]poolResult) string {
	var parts []string
	load := collect(res[0], poolResult.inFlight)
	limited := collect(res[0], func(r poolResult) float64 { return 100 * float64(r.requests[1]) / float64(r.total()) })
	for i, p := range ps {
		if p.Library {
			share := collect(res[i], func(r poolResult) float64 { return 100 * float64(r.requests[0]) / float64(r.total()) })
			parts = append(parts, fmt.Sprintf("%s, %.0f %%", p.Name, share.median()))
		}
	}
	df := deploymentFaults
	slower := float64(df.degradedLatency) / float64(df.latency)
	return fmt.Sprintf("Share of the requests that went to %s, which answers %.0f times slower than the others and "+
		"fails %.0f %% of its requests: %s. Least in flight compares the calls in flight on each member "+
		"(%.1f in all on average through %s), the new one counted, for its weight times the square of its "+
		"health, the share of its recent attempts that were answered: %s, %.0f times slower and answering "+
		"about half, holds about a quarter of a healthy member's calls in flight, and gets none while a "+
		"healthier member is idle, save one probe per breaker delay without a call; "+
		"%s, which admits %d requests per %v and cools down for the rest of the window after its first 429, "+
		"takes %.0f %%. Lowest latency scores each member by its recent latency (a failure counting as at "+
		"least twice it) times its calls in flight plus one, divided by the same weighing, and sends %s less.",
		degradedName, slower, 100*df.degradedFail, strings.Join(parts, "; "), load.median(), ps[0].Name,
		degradedName, slower, rateLimitedName, df.quota, df.window, limited.median(), degradedName)
}

func meanOf(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	sum := 0.0
	for _, x := range xs {
		sum += x
	}
	return sum / float64(len(xs))
}

// poolMiss says, from what the pool's runs measured, where its extra
// requests and failed calls came from.
func poolMiss(runs []poolResult) string {
	extra := collect(runs, func(r poolResult) float64 { return float64(r.total() - r.n) })
	e503 := collect(runs, func(r poolResult) float64 { return float64(r.failed[0]) })
	e429 := collect(runs, func(r poolResult) float64 { return float64(r.failed[1]) })
	share := collect(runs, func(r poolResult) float64 { return 100 * float64(r.requests[0]) / float64(r.total()) })
	opened := "its circuit never opened"
	if slices.ContainsFunc(runs, func(r poolResult) bool { return r.openings != "none" }) {
		var each []string
		for _, r := range runs {
			each = append(each, r.openings)
		}
		opened = "circuit openings by run: " + strings.Join(each, "; ")
	}
	return fmt.Sprintf("of %s requests beyond one per call, %s follow a 503 of %s and %s a 429 of %s. %s got "+
		"%.0f %% of the requests and failed half of them: a member's breaker opens after %d consecutive "+
		"failures, which a %.0f %% failure rate gives in a row with a chance of 1 in %.0f (%s); least in flight "+
		"weighs it by the square of its health (about a quarter) and sends it calls only while the healthier "+
		"members are busy, or as a probe; each 429 of %s is the first past its quota in a window, after which "+
		"it cools down",
		extra.count(), e503.count(), degradedName, e429.count(), rateLimitedName, degradedName, share.median(),
		breaker.DefaultFailures, 100*deploymentFaults.degradedFail,
		math.Pow(1/deploymentFaults.degradedFail, float64(breaker.DefaultFailures)), opened, rateLimitedName)
}
