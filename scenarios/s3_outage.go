package main

import (
	"context"
	"fmt"
	"time"

	"github.com/resilientgo/resilient"
	"github.com/resilientgo/resilient/breaker"
	"github.com/resilientgo/resilient/faultserver"
	"github.com/resilientgo/resilient/middleware"
)

// Scenario 3: a hard outage followed by recovery.
const (
	outageEvery = 10 * time.Millisecond // 1 s of provider time between call starts
)

// outageServer answers 503 until recovery, then succeeds.
func outageServer(recovery time.Time) faultserver.Step {
	return faultserver.Func(func(r *faultserver.Request) faultserver.Step {
		if r.Time.Before(recovery) {
			return faultserver.Status(503, "Service Unavailable")
		}
		return faultserver.Reply("ok")
	})
}

type outageResult struct {
	calls
	outageCalls, outageRequests int
	outageFailed                int           // calls started during the outage that failed
	toFirstSuccess              time.Duration // from recovery to the end of the first successful call
	failedAfter                 int           // calls started after recovery that failed
}

// outagePhases returns the shifts of the recovery, drawn uniformly from
// one scaled breaker delay by a seeded generator: a recovery that lands
// exactly when a breaker probes would flatter the breaker.
func outagePhases(n int) []time.Duration {
	rng := seeded(3)
	period := defaultScale.of(breaker.DefaultDelay)
	out := make([]time.Duration, n)
	for i := range out {
		out[i] = time.Duration(rng.Int64N(int64(period)))
	}
	return out
}

// outagePolicies are the policies and, beside the defaults, which fail
// fast while the circuit is open, the option that trades requests for
// patience: calls wait for the probe.
func outagePolicies() []Policy {
	return append(policies(), libraryPolicy(libraryConfig{callRun: true}), libraryPolicy(libraryConfig{
		extra: []libOption{fixedOption(resilient.Middleware(middleware.WaitWhileOpen()), resilient.Middleware,
			callOf{middleware.WaitWhileOpen, nil})}}))
}

func outage(cfg config) (section, error) {
	down, tail := time.Second, 500*time.Millisecond
	phases := outagePhases(5)
	if cfg.quick {
		down, tail, phases = 400*time.Millisecond, 400*time.Millisecond, outagePhases(2)
	}
	ps := outagePolicies()
	res := make([][]outageResult, len(ps))
	for _, phase := range phases {
		rs, err := measure(ps, true, func(p Policy) (r outageResult, err error) {
			recovery := time.Now().Add(down + phase)
			err = withServer(p, defaultScale, outageServer(recovery), func(rg rig, c Caller) error {
				end := recovery.Add(tail)
				r.calls = paced(context.Background(), c, outageEvery, func(_ int, now time.Time) bool { return !now.Before(end) })
				for _, req := range rg.server.Requests() {
					if req.Time.Before(recovery) {
						r.outageRequests++
					}
				}
				return nil
			})
			r.measureRecovery(recovery)
			return r, err
		})
		if err != nil {
			return section{}, err
		}
		for i, r := range rs {
			res[i] = append(res[i], r)
		}
	}

	sec := section{number: 3, title: "Hard outage, then recovery",
		setup: fmt.Sprintf("The server answers every request with a 503 for %v (%v of provider time) plus a phase, "+
			"then recovers. The phase shifts the recovery against the breakers' probes: %d phases drawn uniformly "+
			"from [0, %v) (one breaker delay, %v of provider time) by a seeded generator: %v. One caller starts a "+
			"logical call every %v (%v of provider time), or as soon as the previous one ends, until %v after the "+
			"recovery. Amplification is the requests that arrived during the outage per logical call started "+
			"during it; lower bound 0 (a breaker that is already open), 1 without one. Each cell is the median "+
			"over the phases, with the range (min–max) when they disagree.",
			down, defaultScale.provider(down), len(phases), defaultScale.of(breaker.DefaultDelay),
			breaker.DefaultDelay, roundAll(phases), outageEvery, defaultScale.provider(outageEvery), tail),
		table: table{header: []string{"policy", "calls during outage", "requests during outage", "failed calls during outage",
			"amplification", "median failed call", "first success after recovery", "failed calls after recovery",
			"calls", "success rate"}}}
	success := make([]samples, len(ps))
	var failedCall samples // the defaults' median failed call, per phase
	for i, p := range ps {
		runs := res[i]
		success[i] = collect(runs, func(r outageResult) float64 { return 100 * float64(r.ok) / float64(r.n) })
		amp := collect(runs, func(r outageResult) float64 { return float64(r.outageRequests) / float64(max(r.outageCalls, 1)) })
		sec.table.add(p.Name,
			collect(runs, func(r outageResult) float64 { return float64(r.outageCalls) }).count(),
			collect(runs, func(r outageResult) float64 { return float64(r.outageRequests) }).count(),
			collect(runs, func(r outageResult) float64 { return float64(r.outageFailed) }).count(),
			amp.ratio(),
			collect(runs, func(r outageResult) float64 { return r.medianFailed() }).millisRange(),
			collect(runs, func(r outageResult) float64 { return r.firstSuccess() }).millisRange(),
			collect(runs, func(r outageResult) float64 { return float64(r.failedAfter) }).count(),
			collect(runs, func(r outageResult) float64 { return float64(r.n) }).count(),
			success[i].percent())
		if p.Name == libraryDefaults().name() {
			failedCall = collect(runs, func(r outageResult) float64 { return r.medianFailed() })
		}
		if p.Name == libraryDefaults().name() || p.Name == (libraryConfig{callRun: true}).name() {
			sec.targets = append(sec.targets, target{scenario: 3, what: p.Name + ": amplification during the outage at most 1.1 in every phase",
				measured: amp.ratio(), pass: maxOf(amp) <= 1.1})
		}
	}
	sec.targets = append(sec.targets, noMoreInOutage(ps, res))
	sec.targets = append(sec.targets, matchesBest(3, ps, success, func(best Policy) string {
		return fmt.Sprintf("while its circuit is open the library fails a call at once (median failed call %s), so "+
			"calls started during the outage fail; %s holds each call through its retries and straddles the "+
			"recovery; with WaitWhileOpen the library succeeds %.1f %%", failedCall.millisRange(), best.Name,
			success[len(ps)-1].median())
	}))
	sec.notes = append(sec.notes, "Each policy's success rate is over the calls it made: a policy whose calls "+
		"take long makes fewer of them during the outage, and each straddles the recovery with a better chance. "+
		"Failed calls after the recovery are calls that the policy failed although the server was up. A median "+
		"failed call far below the policy's backoff means the call failed without waiting: the circuit was open.")
	return sec, nil
}

// measureRecovery splits the calls at the recovery.
func (r *outageResult) measureRecovery(recovery time.Time) {
	for i, start := range r.starts {
		switch {
		case start.Before(recovery) && !r.oks[i]:
			r.outageCalls++
			r.outageFailed++
		case start.Before(recovery):
			r.outageCalls++
		case !r.oks[i]:
			r.failedAfter++
		}
		if end := start.Add(r.durations[i]); r.oks[i] && r.toFirstSuccess == 0 {
			r.toFirstSuccess = end.Sub(recovery)
		}
	}
}

// medianFailed returns the median duration of the failed calls, in
// milliseconds; -1 when none failed.
func (r *outageResult) medianFailed() float64 {
	var failed []time.Duration
	for i, d := range r.durations {
		if !r.oks[i] {
			failed = append(failed, d)
		}
	}
	if len(failed) == 0 {
		return -1
	}
	return percentile(failed, 50)
}

// firstSuccess returns the time from the recovery to the end of the first
// successful call, in milliseconds; -1 when no call succeeded.
func (r *outageResult) firstSuccess() float64 {
	if r.ok == 0 {
		return -1
	}
	return ms(r.toFirstSuccess)
}

// roundAll renders durations rounded to the millisecond.
func roundAll(ds []time.Duration) string {
	s := ""
	for i, d := range ds {
		if i > 0 {
			s += ", "
		}
		s += d.Round(time.Millisecond).String()
	}
	return s
}

// noMoreInOutage holds the row whose calls are runs of their own, which may
// take attempts past their limit, to the requests the defaults send during
// the outage, phase by phase.
func noMoreInOutage(ps []Policy, res [][]outageResult) target {
	defaults, inRun := -1, -1
	for i, p := range ps {
		switch p.Name {
		case libraryDefaults().name():
			defaults = i
		case (libraryConfig{callRun: true}).name():
			inRun = i
		}
	}
	requests := func(r outageResult) float64 { return float64(r.outageRequests) }
	with, without := collect(res[inRun], requests), collect(res[defaults], requests)
	pass, more := true, 0.0
	for phase := range with {
		if with[phase] > without[phase] {
			pass, more = false, max(more, with[phase]-without[phase])
		}
	}
	return target{scenario: 3, what: ps[inRun].Name + ": no more requests during the outage than " + ps[defaults].Name + ", in every phase",
		measured: fmt.Sprintf("%s; %s", with.count(), without.count()), pass: pass,
		why: fmt.Sprintf("up to %.0f more in a phase: attempts past the limit before the breaker opened", more)}
}
