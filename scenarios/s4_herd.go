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
	"github.com/resilientgo/resilient/limit"
	"github.com/resilientgo/resilient/middleware"
)

// Scenario 4: a thundering herd. It runs at a smaller scale than the others:
// 100 requests take this machine about 15 ms of CPU to send and answer, so a
// window must be a few tens of milliseconds of harness time for the herd to
// arrive as one.
const (
	herdScale   timeScale = 4
	herdCallers           = 100
	herdWindow            = 250 * time.Millisecond // provider time
	herdLead              = 20 * time.Millisecond  // provider time; see windowOf
	herdAdmit             = 10                     // requests admitted per window
)

// windowOf returns the server window of a request sent at (harness time
// since the herd). Windows are herdWindow long and each opens herdLead
// before a multiple of herdWindow, so that the herd (at 0) and each burst of
// retries made without jitter (0.5 s, 1.5 s, 3.5 s and 7.5 s later, plus the
// time this machine takes to send them) start inside one window rather than
// across two, where they would get twice the admissions by chance.
func windowOf(at time.Duration) int {
	return int((at + herdScale.of(herdLead)) / herdScale.of(herdWindow))
}

// windowLimiter admits herdAdmit requests per window (see windowOf) and
// answers the others 429 without Retry-After, so that the callers' backoff
// and jitter alone decide when they come back. It judges a request by the
// time it was sent (see sentAt).
type windowLimiter struct {
	mu       sync.Mutex
	start    time.Time
	admitted map[int]int
	rejected int
	log      []herdRequest
}

func newWindowLimiter(start time.Time) *windowLimiter {
	return &windowLimiter{start: start, admitted: map[int]int{}}
}

// begin sets the instant the herd starts.
func (l *windowLimiter) begin(start time.Time) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.start = start
}

func (l *windowLimiter) step(r *faultserver.Request) faultserver.Step {
	l.mu.Lock()
	defer l.mu.Unlock()
	if sentAt(r).Before(l.start) {
		return faultserver.Reply("ok") // warming the connection pool
	}
	at := sentAt(r).Sub(l.start)
	w := windowOf(at)
	if l.admitted[w] < herdAdmit {
		l.admitted[w]++
		l.log = append(l.log, herdRequest{at: at})
		return faultserver.Reply("ok")
	}
	l.rejected++
	l.log = append(l.log, herdRequest{at: at, rejected: true})
	return faultserver.RateLimited("")
}

// herdPolicies are the library without jitter and with it, then with a
// client-side rate limit that knows the server's, then the baselines that
// finish within a few seconds: the stacked layers' fixed waits (see
// stackedWaits) are more than this scenario can afford at its scale.
func herdPolicies() []Policy {
	ps := policies()
	return []Policy{
		libraryPolicy(libraryConfig{extra: []libOption{
			fixedOption(resilient.Middleware(middleware.NoJitter()), resilient.Middleware, callOf{middleware.NoJitter, nil})}}),
		libraryPolicy(libraryDefaults()),
		libraryPolicy(libraryConfig{extra: []libOption{rateLimitOption(herdAdmit, herdWindow)}}),
		ps[0], ps[2], ps[3], ps[4],
	}
}

// rateLimitOption is resilient.RateLimit with a local limiter of n per
// period (provider time).
func rateLimitOption(n int, period time.Duration) libOption {
	return libOption{fn: resilient.RateLimit, args: []any{callOf{limit.NewLocalLimiter, []any{n, period, literal("resilient.Forever")}}},
		build: func(ts timeScale) any {
			lim, err := limit.NewLocalLimiter(n, ts.of(period), resilient.Forever)
			if err != nil {
				panic(err) // n and period are the scenario's constants, both valid
			}
			return resilient.RateLimit(lim)
		}}
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

// herd measures the herd and returns, for the chart, the first run of the library
// without jitter and with it.
func herd(cfg config) (section, []herdResult, error) {
	cfg = cfg.heavy()
	ps := herdPolicies()
	res, err := repeat(cfg, ps, false, func(p Policy) (r herdResult, err error) {
		lim := newWindowLimiter(time.Now().Add(time.Hour))
		r.calls, r.drain, err = runHerd(p, herdScale, lim, herdCallers)
		r.rejected, r.requests = lim.rejected, lim.log // Close waited for every handler
		return r, err
	})
	if err != nil {
		return section{}, nil, err
	}

	windows := herdCallers / herdAdmit
	sec := section{number: 4, title: "Thundering herd",
		setup: fmt.Sprintf("%d callers call at once, through one shared model, a server that admits %d requests per "+
			"%v window and answers the others 429 without Retry-After, so that backoff and jitter alone decide "+
			"when they come back. This scenario runs at scale %d, not %d (a window is %v here): %d requests take "+
			"this machine about 15 ms to send and answer, and a burst must fit in one window. For the same "+
			"reason the server judges each request by the time the harness's transport sent it (a header), "+
			"not by when this machine got round to reading it; its windows open %v before each multiple of %v, "+
			"so that a burst made without jitter starts inside a window instead of straddling two. The "+
			"connection pool is warmed first. The library's jitter comes from math/rand/v2's global generator, which "+
			"the harness cannot seed: its counts vary a little between runs, and so do the baselines', whose "+
			"requests race. The stacked layers are left out: their fixed waits add up to %v of provider time. Lower bounds: %d 429s in the "+
			"first wave whatever the retry policy (%d requests, %d admitted), and %d windows (%v) to drain. "+
			"Medians of %d runs; the chart below shows the first.",
			herdCallers, herdAdmit, herdWindow, herdScale, defaultScale, herdScale.of(herdWindow), herdCallers,
			herdLead, herdWindow, stackedWaits(), herdCallers-herdAdmit, herdCallers, herdAdmit, windows,
			herdWindow*time.Duration(windows), cfg.runs),
		table: table{header: []string{"policy", "calls", "failed calls", "success rate", "requests", "429s", "429s after the first 100 requests",
			"time to drain (provider time)"}}}
	rejected := make([]samples, len(ps))
	for i, p := range ps {
		runs := res[i]
		rejected[i] = collect(runs, func(r herdResult) float64 { return float64(r.rejected) })
		sec.table.add(p.Name,
			collect(runs, func(r herdResult) float64 { return float64(r.n) }).count(),
			collect(runs, func(r herdResult) float64 { return float64(r.n - r.ok) }).count(),
			collect(runs, func(r herdResult) float64 { return 100 * float64(r.ok) / float64(r.n) }).percent(),
			collect(runs, func(r herdResult) float64 { return float64(len(r.requests)) }).count(),
			rejected[i].count(),
			collect(runs, func(r herdResult) float64 { return float64(r.laterRejected()) }).count(),
			collect(runs, func(r herdResult) float64 { return ms(herdScale.provider(r.drain)) }).millis())
	}
	ratio := rejected[1].median() / max(rejected[0].median(), 1)
	sec.notes = append(sec.notes, "![requests over time in the herd, without jitter and with it](herd.png)")
	sec.targets = append(sec.targets, target{scenario: 4, what: "full jitter: at most a tenth of the no-jitter 429s",
		measured: fmt.Sprintf("%s / %s = %.2f", rejected[1].count(), rejected[0].count(), ratio), pass: ratio <= 0.1,
		why: fmt.Sprintf("the first wave alone gets %d 429s (%d callers, %d admitted), whatever the retries; a tenth of "+
			"the no-jitter count is %.0f", herdCallers-herdAdmit, herdCallers, herdAdmit, rejected[0].median()/10)})
	note, tg, err := hintHerd(cfg)
	if err != nil {
		return section{}, nil, err
	}
	sec.notes = append(sec.notes, note)
	sec.targets = append(sec.targets, tg)
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

// herdLimiter is a provider's limit a herd runs into: step answers each
// request, and begin sets the instant the herd starts (requests sent before
// it only warm the connection pool).
type herdLimiter interface {
	step(r *faultserver.Request) faultserver.Step
	begin(start time.Time)
}

// runHerd warms p's connections, then sends callers calls at once against
// the limiter, and returns them with the time they took to drain.
func runHerd(p Policy, ts timeScale, l herdLimiter, callers int) (cs calls, drain time.Duration, err error) {
	err = withServer(p, ts, faultserver.Func(l.step), func(rg rig, c Caller) error {
		if err := warm(rg); err != nil {
			return err
		}
		start := time.Now()
		l.begin(start)
		cs = concurrently(c, callers, callers)
		drain = time.Since(start)
		return nil
	})
	return cs, drain, err
}

// warm opens the connections the herd will use, so that it measures the
// policies rather than TCP handshakes.
func warm(r rig) error {
	llm, err := r.rawClient()
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
