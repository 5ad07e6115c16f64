package main

import (
	"context"
	"fmt"
	"time"

	"github.com/resilientgo/resilient"
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
	toFirstSuccess              time.Duration // from recovery to the end of the first successful call
	failedAfter                 int           // calls started after recovery that failed
}

func outage(cfg config) (section, error) {
	down, tail := time.Second, 500*time.Millisecond
	if cfg.quick {
		down, tail = 400*time.Millisecond, 400*time.Millisecond
	}
	cfg = cfg.heavy()
	// Beside the defaults, which fail fast while the circuit is open, the
	// option that trades requests for patience: calls wait for the probe.
	ps := append(policies(), Policy{Name: "(d) resilient, WaitWhileOpen", New: func(r rig) (Caller, error) {
		return newLibrary(r, resilient.Middleware(middleware.WaitWhileOpen()))
	}})
	res, err := repeat(cfg, ps, true, func(p Policy) (r outageResult, err error) {
		recovery := time.Now().Add(down)
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

	sec := section{number: 3, title: "Hard outage, then recovery",
		setup: fmt.Sprintf("The server answers every request with a 503 for %v (%v of provider time), then "+
			"recovers. One caller starts a logical call every %v (%v of provider time), or as soon as the "+
			"previous one ends, until %v after the recovery. Amplification is the requests that arrived "+
			"during the outage per logical call started during it; lower bound 0 (a breaker that is "+
			"already open), 1 without one. Medians of %d runs.", down, defaultScale.provider(down), outageEvery, defaultScale.provider(outageEvery), tail, cfg.runs),
		table: table{header: []string{"policy", "calls during outage", "requests during outage",
			"amplification", "first success after recovery", "failed calls after recovery", "success rate"}}}
	success := make([]samples, len(ps))
	last := len(policies()) - 1 // (d) defaults; the WaitWhileOpen row after it is for comparison
	for i, p := range ps {
		runs := res[i]
		success[i] = collect(runs, func(r outageResult) float64 { return 100 * float64(r.ok) / float64(r.n) })
		amp := collect(runs, func(r outageResult) float64 { return float64(r.outageRequests) / float64(max(r.outageCalls, 1)) })
		sec.table.add(p.Name,
			collect(runs, func(r outageResult) float64 { return float64(r.outageCalls) }).count(),
			collect(runs, func(r outageResult) float64 { return float64(r.outageRequests) }).count(),
			amp.ratio(),
			collect(runs, func(r outageResult) float64 { return ms(r.toFirstSuccess) }).millis(),
			collect(runs, func(r outageResult) float64 { return float64(r.failedAfter) }).count(),
			success[i].percent())
		if i == last {
			sec.targets = append(sec.targets, target{scenario: 3, what: "(d) amplification during the outage at most 1.1",
				measured: amp.ratio(), pass: maxOf(amp) <= 1.1})
		}
	}
	sec.targets = append(sec.targets, matchesBest(3, ps[:last+1], success[:last+1]))
	sec.notes = append(sec.notes, "Each policy's success rate is over the calls it made: a policy whose calls "+
		"take long makes fewer of them during the outage, and each straddles the recovery with a better chance. "+
		"Failed calls after the recovery are calls that the policy failed although the server was up. "+
		"The defaults fail fast while the circuit is open (a fallback takes the call at once, or the caller learns "+
		"at once that the provider is down); WaitWhileOpen makes a call wait for the breaker's probe instead, "+
		"trading requests for patience.")
	return sec, nil
}

// measureRecovery splits the calls at the recovery.
func (r *outageResult) measureRecovery(recovery time.Time) {
	for i, start := range r.starts {
		if start.Before(recovery) {
			r.outageCalls++
		} else if !r.oks[i] {
			r.failedAfter++
		}
		if end := start.Add(r.durations[i]); r.oks[i] && r.toFirstSuccess == 0 {
			r.toFirstSuccess = end.Sub(recovery)
		}
	}
}
