package main

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/resilientgo/resilient/faultserver"
	"github.com/resilientgo/resilient/middleware"
)

// config is what the command line chose.
type config struct {
	runs  int  // repetitions of each timed measurement; times are their medians
	quick bool // smaller workloads, for tests and a first look
}

// heavy is the config for the scenarios that take seconds per run: at most
// 3 runs, so that the whole harness stays within a minute or two.
func (c config) heavy() config {
	c.runs = min(c.runs, 3)
	return c
}

// measure runs fn once per policy and returns the results in policy order.
// Policies run concurrently, each against a server of its own, when
// parallel is set: the workloads that mostly wait do not disturb each other.
func measure[M any](ps []Policy, parallel bool, fn func(Policy) (M, error)) ([]M, error) {
	out := make([]M, len(ps))
	errs := make([]error, len(ps))
	var wg sync.WaitGroup
	for i, p := range ps {
		run := func() {
			out[i], errs[i] = fn(p)
			if errs[i] != nil {
				errs[i] = fmt.Errorf("%s: %w", p.Name, errs[i])
			}
		}
		if parallel {
			wg.Go(run)
		} else {
			run()
		}
	}
	wg.Wait()
	return out, errors.Join(errs...)
}

// repeat runs measure cfg.runs times and returns, for each policy, its
// result in each run.
func repeat[M any](cfg config, ps []Policy, parallel bool, fn func(Policy) (M, error)) ([][]M, error) {
	out := make([][]M, len(ps))
	for range cfg.runs {
		ms, err := measure(ps, parallel, fn)
		if err != nil {
			return nil, err
		}
		for i, m := range ms {
			out[i] = append(out[i], m)
		}
	}
	return out, nil
}

// collect extracts one measure from each run's result.
func collect[M any](runs []M, f func(M) float64) samples {
	s := make(samples, len(runs))
	for i, m := range runs {
		s[i] = f(m)
	}
	return s
}

// withServer starts a server with script, builds p's caller on a rig for it
// at scale ts, runs fn and closes the server.
func withServer(p Policy, ts timeScale, script faultserver.Step, fn func(r rig, c Caller) error) error {
	s := faultserver.New(script)
	defer s.Close()
	r := newRig(s, ts)
	defer r.close()
	c, err := p.New(r)
	if err != nil {
		return err
	}
	return fn(r, c)
}

// calls is what a sequence of logical calls gave.
type calls struct {
	n, ok     int
	starts    []time.Time     // of each call
	durations []time.Duration // of each call
	oks       []bool          // of each call
	failures  map[string]int  // failed calls by reason
}

// reasonOf names why a call failed: the library's reason, or "gave up" for
// the baselines, whose errors say nothing more.
func reasonOf(err error) string {
	var final *middleware.Error
	if errors.As(err, &final) {
		return final.Reason.String()
	}
	return "gave up"
}

func (r *calls) record(err error, start time.Time) { r.add(err, start, time.Since(start)) }

// add records a call that started at start, took d and ended with err.
func (r *calls) add(err error, start time.Time, d time.Duration) {
	r.n++
	r.starts = append(r.starts, start)
	r.durations = append(r.durations, d)
	r.oks = append(r.oks, err == nil)
	if err == nil {
		r.ok++
		return
	}
	if r.failures == nil {
		r.failures = map[string]int{}
	}
	r.failures[reasonOf(err)]++
}

// paced makes logical calls one after another until stop says so, call i
// starting no earlier than start + i*every (immediately when the previous
// call ran over): an agent that calls its model about once per interval.
func paced(ctx context.Context, c Caller, every time.Duration, stop func(i int, now time.Time) bool) calls {
	var r calls
	start := time.Now()
	for i := 0; ; i++ {
		if due := start.Add(time.Duration(i) * every); time.Now().Before(due) {
			_ = sleep(ctx, time.Until(due))
		}
		now := time.Now()
		if stop(i, now) {
			return r
		}
		r.record(c.Call(ctx), now)
	}
}

// seeded returns the generator of a scenario's server: the same sequence in
// every run, so that reruns agree on counts.
func seeded(seed uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, seed)) }

// mean returns the mean of ds in milliseconds.
func mean(ds []time.Duration) float64 {
	if len(ds) == 0 {
		return 0
	}
	var sum time.Duration
	for _, d := range ds {
		sum += d
	}
	return ms(sum) / float64(len(ds))
}

// percentile returns the nearest-rank percentile p (0-100) of ds in
// milliseconds.
func percentile(ds []time.Duration, p float64) float64 {
	if len(ds) == 0 {
		return 0
	}
	sorted := make([]float64, len(ds))
	for i, d := range ds {
		sorted[i] = ms(d)
	}
	slices.Sort(sorted)
	rank := int(p/100*float64(len(sorted))+0.999999) - 1
	return sorted[max(0, min(rank, len(sorted)-1))]
}

// formatReasons renders failure counts by reason, most frequent first.
func formatReasons(m map[string]int) string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b string) int {
		if m[a] != m[b] {
			return m[b] - m[a]
		}
		return strings.Compare(a, b)
	})
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = fmt.Sprintf("%s %d", k, m[k])
	}
	return strings.Join(parts, ", ")
}
