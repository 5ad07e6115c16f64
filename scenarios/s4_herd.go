package main

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/resilientgo/resilient"
	"github.com/resilientgo/resilient/faultserver"
	"github.com/resilientgo/resilient/middleware"
)

// Scenario 4: a thundering herd. It runs at a smaller scale than the others:
// 100 requests take this machine about 15 ms of CPU to send and answer, so a
// window must be a few tens of milliseconds of harness time for the herd to
// arrive as one.
const (
	herdScale   timeScale = 4
	herdCallers           = 100
	herdWindow            = 200 * time.Millisecond // provider time
	herdAdmit             = 10                     // requests admitted per window
)

// windowLimiter admits herdAdmit requests per fixed window and answers the
// others 429 without Retry-After, so that the callers' backoff and jitter
// alone decide when they come back. The first window starts half a window
// before the herd, so that the herd and each burst of retries made without
// jitter (0.5 s, 1.5 s, 3.5 s, 7.5 s after it, plus the time this machine
// takes to send them) fall inside one window rather than across two, where
// they would get twice the admissions by chance.
type windowLimiter struct {
	mu       sync.Mutex
	start    time.Time
	window   time.Duration
	admitted map[int64]int
	rejected int
	log      []herdRequest
}

func newWindowLimiter(start time.Time, window time.Duration) *windowLimiter {
	return &windowLimiter{start: start, window: window, admitted: map[int64]int{}}
}

func (l *windowLimiter) step(r *faultserver.Request) faultserver.Step {
	l.mu.Lock()
	defer l.mu.Unlock()
	if r.Time.Before(l.start) {
		return faultserver.Reply("ok") // warming the connection pool
	}
	at := r.Time.Sub(l.start)
	w := int64((at + l.window/2) / l.window)
	if l.admitted[w] < herdAdmit {
		l.admitted[w]++
		l.log = append(l.log, herdRequest{at: at})
		return faultserver.Reply("ok")
	}
	l.rejected++
	l.log = append(l.log, herdRequest{at: at, rejected: true})
	return faultserver.RateLimited("")
}

// herdPolicies are (d) without jitter and with it, (d) with a client-side
// rate limit that knows the server's, then the baselines that finish within
// a few seconds: (b)'s fixed waits add up to 22.5 s of provider time, which
// this scenario cannot afford at its scale.
func herdPolicies() []Policy {
	return []Policy{
		{Name: "(d) resilient, NoJitter()", New: func(s *faultserver.Server, ts timeScale) (Caller, error) {
			return newLibrary(s, ts, resilient.Middleware(middleware.NoJitter()))
		}},
		{Name: "(d) resilient defaults (full jitter)", New: func(s *faultserver.Server, ts timeScale) (Caller, error) {
			return newLibrary(s, ts)
		}},
		{Name: "(d) resilient defaults + RateLimit(10 per 200 ms)", New: func(s *faultserver.Server, ts timeScale) (Caller, error) {
			lim, err := middleware.NewLocalLimiter(herdAdmit, ts.of(herdWindow), 0)
			if err != nil {
				return nil, err
			}
			return newLibrary(s, ts, resilient.RateLimit(lim))
		}},
		policies()[0],
		policies()[2],
	}
}

// herdResult is one herd: its calls and every request the server saw.
type herdResult struct {
	calls
	rejected int
	drain    time.Duration
	requests []herdRequest
}

type herdRequest struct {
	at       time.Duration // from the start of the herd
	rejected bool
}

// herd measures the herd and returns, for the chart, the first run of (d)
// without jitter and with it.
func herd(cfg config) (section, []herdResult, error) {
	cfg = cfg.heavy()
	ps := herdPolicies()
	window := herdScale.of(herdWindow)
	res, err := repeat(cfg, ps, false, func(p Policy) (r herdResult, err error) {
		lim := newWindowLimiter(time.Now().Add(time.Hour), window)
		err = withServer(p, herdScale, faultserver.Func(lim.step), func(s *faultserver.Server, c Caller) error {
			if err := warm(s); err != nil {
				return err
			}
			start := time.Now()
			lim.mu.Lock()
			lim.start = start
			lim.mu.Unlock()
			r.calls = concurrently(c, herdCallers, herdCallers)
			r.drain = time.Since(start)
			return nil
		})
		r.rejected, r.requests = lim.rejected, lim.log // Close waited for every handler
		return r, err
	})
	if err != nil {
		return section{}, nil, err
	}

	windows := herdCallers / herdAdmit
	sec := section{number: 4, title: "Thundering herd",
		setup: fmt.Sprintf("%d callers call at once, through one shared model, a server that admits %d requests per "+
			"%v window (%v of harness time) and answers the others 429 without Retry-After, so that backoff and "+
			"jitter alone decide when they come back. This scenario runs at scale %d, not %d: %d requests "+
			"take this machine about 15 ms to send and answer, and the herd must arrive within one window. "+
			"The connection pool is warmed first. Lower bounds: %d 429s in the first wave whatever the policy "+
			"(%d requests, %d admitted), and %d windows (%v) to drain. Medians of %d runs.",
			herdCallers, herdAdmit, herdWindow, window, herdScale, defaultScale, herdCallers,
			herdCallers-herdAdmit, herdCallers, herdAdmit, windows, herdWindow*time.Duration(windows), cfg.runs),
		table: table{header: []string{"policy", "success rate", "requests", "429s", "429s after the first 100 requests",
			"time to drain (provider time)"}}}
	rejected := make([]samples, len(ps))
	for i, p := range ps {
		runs := res[i]
		rejected[i] = collect(runs, func(r herdResult) float64 { return float64(r.rejected) })
		sec.table.add(p.Name,
			collect(runs, func(r herdResult) float64 { return 100 * float64(r.ok) / float64(r.n) }).percent(),
			collect(runs, func(r herdResult) float64 { return float64(len(r.requests)) }).count(),
			rejected[i].count(),
			collect(runs, func(r herdResult) float64 { return float64(r.laterRejected()) }).count(),
			collect(runs, func(r herdResult) float64 { return ms(herdScale.provider(r.drain)) }).millis())
	}
	ratio := rejected[1].median() / max(rejected[0].median(), 1)
	sec.targets = append(sec.targets, target{scenario: 4, what: "full jitter: at most a tenth of the no-jitter 429s",
		measured: fmt.Sprintf("%s / %s = %.2f", rejected[1].count(), rejected[0].count(), ratio), pass: ratio <= 0.1})
	return sec, []herdResult{res[0][0], res[1][0]}, nil
}

// laterRejected counts the 429s after the first herdCallers requests to
// arrive, which are the callers' first attempts unless a limiter held some
// back: the 429s that the retries provoked.
func (r herdResult) laterRejected() int {
	at := make([]herdRequest, len(r.requests))
	copy(at, r.requests)
	slices.SortFunc(at, func(a, b herdRequest) int { return cmp.Compare(a.at, b.at) })
	n := 0
	for _, q := range at[min(herdCallers, len(at)):] {
		if q.rejected {
			n++
		}
	}
	return n
}

// warm opens the connections the herd will use, so that it measures the
// policies rather than TCP handshakes.
func warm(s *faultserver.Server) error {
	llm, err := rawClient(s)
	if err != nil {
		return err
	}
	var wg sync.WaitGroup
	for range herdCallers {
		wg.Go(func() { _ = generate(context.Background(), llm) })
	}
	wg.Wait()
	return nil
}
