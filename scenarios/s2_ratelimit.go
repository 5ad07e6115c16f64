package main

import (
	"context"
	"fmt"
	"strconv"
	"sync"
	"time"

	"github.com/resilientgo/resilient/faultserver"
)

// Scenario 2: rate limiting with Retry-After.
const retryAfter = 5 * time.Second // provider time; the server sends it scaled, as retry-after-ms

// rateLimiter answers the first request of each logical call with a 429 and
// a Retry-After, and every request until that wait is over with another 429
// carrying the time that remains: the window reopens when the provider said
// it would, not before. The first request after it succeeds.
type rateLimiter struct {
	mu     sync.Mutex
	reopen time.Time
	early  int // 429s answered while the window was closed: provoked by retrying early
}

// newCall starts a new limit: the next request is the first of a logical
// call.
func (l *rateLimiter) newCall() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.reopen = time.Time{}
}

func (l *rateLimiter) step(r *faultserver.Request) faultserver.Step {
	l.mu.Lock()
	defer l.mu.Unlock()
	switch {
	case l.reopen.IsZero():
		l.reopen = r.Time.Add(defaultScale.of(retryAfter))
		return rateLimited(defaultScale.of(retryAfter))
	case r.Time.Before(l.reopen):
		l.early++
		return rateLimited(l.reopen.Sub(r.Time))
	}
	return faultserver.Reply("ok")
}

// rateLimited is a 429 asking for wait, in milliseconds, as OpenAI's
// retry-after-ms header says it.
func rateLimited(wait time.Duration) faultserver.Step {
	msec := max(1, (wait+time.Millisecond-1)/time.Millisecond)
	return faultserver.RateLimited("").WithHeader("retry-after-ms", strconv.FormatInt(int64(msec), 10))
}

type rateResult struct {
	calls
	requests, early int
	wall            time.Duration
}

func rateLimit(cfg config) (section, error) {
	n := 10
	if cfg.quick {
		n = 4
	}
	ps := policies()
	res, err := repeat(cfg, ps, true, func(p Policy) (r rateResult, err error) {
		lim := &rateLimiter{}
		err = withServer(p, defaultScale, faultserver.Func(lim.step), func(rg rig, c Caller) error {
			start := time.Now()
			for range n {
				lim.newCall()
				t := time.Now()
				r.record(c.Call(context.Background()), t)
			}
			r.wall = time.Since(start)
			r.requests = rg.server.Count()
			return nil
		})
		r.early = lim.early // every handler has returned: Close waited for them
		return r, err
	})
	if err != nil {
		return section{}, err
	}

	bound := time.Duration(n) * defaultScale.of(retryAfter)
	sec := section{number: 2, title: "Rate limiting with Retry-After",
		setup: fmt.Sprintf("Each logical call's first request gets a 429 with retry-after-ms: %d "+
			"(Retry-After %v of provider time); every request before that wait is over gets another 429 "+
			"with the time that remains; the first one after it succeeds. One caller makes %d calls back to back. "+
			"Lower bound on the wall time: the sum of the waits the server asked for, %d x %v = %v.",
			defaultScale.of(retryAfter).Milliseconds(), retryAfter, n, n, defaultScale.of(retryAfter), bound),
		table: table{header: []string{"policy", "calls", "failed calls", "requests", "success rate", "requests / call", "extra 429s (early retries)",
			"wall time", "wall time / lower bound"}}}
	success := make([]samples, len(ps))
	for i, p := range ps {
		runs := res[i]
		success[i] = collect(runs, func(r rateResult) float64 { return 100 * float64(r.ok) / float64(r.n) })
		wall := collect(runs, func(r rateResult) float64 { return ms(r.wall) })
		over := wall.median() / ms(bound)
		early := collect(runs, func(r rateResult) float64 { return float64(r.early) })
		sec.table.add(p.Name,
			collect(runs, func(r rateResult) float64 { return float64(r.n) }).count(),
			collect(runs, func(r rateResult) float64 { return float64(r.n - r.ok) }).count(),
			collect(runs, func(r rateResult) float64 { return float64(r.requests) }).count(),
			success[i].percent(),
			collect(runs, func(r rateResult) float64 { return float64(r.requests) / float64(r.n) }).ratio(),
			early.count(), wall.millis(), fmt.Sprintf("%.3f", over))
		if p.Library {
			sec.targets = append(sec.targets,
				target{scenario: 2, what: p.Name + ": wall time within 10 % of the lower bound",
					measured: fmt.Sprintf("%s / %s = %.3f", wall.millis(), formatMillis(ms(bound)), over), pass: over <= 1.1},
				target{scenario: 2, what: p.Name + ": zero extra 429s",
					measured: early.count(), pass: maxOf(early) == 0})
		}
	}
	sec.targets = append(sec.targets, matchesBest(2, ps, success, func(Policy) string { return "" }))
	sec.notes = append(sec.notes, "A policy that gives up before the window reopens has a short wall time and no "+
		"success: compare wall times only between policies that succeed.")
	return sec, nil
}

func maxOf(s samples) float64 {
	_, hi := s.bounds()
	return hi
}
