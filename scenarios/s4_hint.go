package main

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/resilientgo/resilient"
	"github.com/resilientgo/resilient/faultserver"
	"github.com/resilientgo/resilient/middleware"
)

// Scenario 4's second table: the herd behind a rate limit that says when
// to come back. Provider times, at the herd's scale.
//
// hintScale is real time: the jitter's span after a wait of 1 s, 100 ms,
// must stand well above the 10 to 20 ms over which this machine sends a
// burst of requests when it is busy.
const hintScale timeScale = 1

const (
	hintCallers = 40
	hintRate    = 50 // requests per second the bucket refills
	hintBurst   = 5  // tokens the bucket holds at most
)

// tokenBucket is a provider's rate limit as OpenAI and Anthropic describe
// theirs: a bucket refilled continuously, hintRate tokens a second up to
// hintBurst, one token per request. A request that finds it empty gets a
// 429 whose Retry-After is in whole seconds, as the header's own unit has
// it: every caller refused in the same second is told the same instant.
// It judges a request by the time it was sent (see sentAt).
type tokenBucket struct {
	mu       sync.Mutex
	ts       timeScale
	start    time.Time
	tokens   float64
	last     time.Duration // when tokens was computed, from start
	rejected int
	requests int
}

func newTokenBucket(ts timeScale, start time.Time) *tokenBucket {
	return &tokenBucket{ts: ts, start: start, tokens: hintBurst}
}

// begin sets the instant the herd starts.
func (b *tokenBucket) begin(start time.Time) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.start = start
}

func (b *tokenBucket) step(r *faultserver.Request) faultserver.Step {
	b.mu.Lock()
	defer b.mu.Unlock()
	if sentAt(r).Before(b.start) {
		return faultserver.Reply("ok") // warming the connection pool
	}
	at := max(sentAt(r).Sub(b.start), b.last)
	perHarnessSecond := float64(b.ts) * hintRate // tokens a second of harness time
	b.tokens = min(hintBurst, b.tokens+(at-b.last).Seconds()*perHarnessSecond)
	b.last = at
	b.requests++
	if b.tokens >= 1 {
		b.tokens--
		return faultserver.Reply("ok")
	}
	b.rejected++
	// The next token comes within 1/hintRate s: Retry-After rounds it up
	// to the next whole second of provider time.
	next := time.Duration((1 - b.tokens) / perHarnessSecond * float64(time.Second))
	secs := math.Ceil(b.ts.provider(next).Seconds())
	wait := b.ts.of(time.Duration(secs) * time.Second)
	return faultserver.RateLimited("").WithHeader("retry-after-ms", strconv.FormatInt(wait.Milliseconds(), 10))
}

// hintPolicies are the library with the jitter after a provider's wait and
// without it.
func hintPolicies() []Policy {
	return []Policy{
		libraryPolicy(libraryConfig{extra: []libOption{
			fixedOption(resilient.Middleware(middleware.NoJitter()), resilient.Middleware, callOf{middleware.NoJitter, nil})}}),
		libraryPolicy(libraryDefaults()),
	}
}

// hintResult is one herd behind the bucket.
type hintResult struct {
	calls
	requests, rejected int
	drain              time.Duration
}

// hintHerd measures the herd behind the token bucket and returns the note
// that shows it, and its target.
func hintHerd(cfg config) (string, target, error) {
	ps := hintPolicies()
	res, err := repeat(cfg, ps, false, func(p Policy) (r hintResult, err error) {
		b := newTokenBucket(hintScale, time.Now().Add(time.Hour))
		r.calls, r.drain, err = runHerd(p, hintScale, b, hintCallers)
		r.requests, r.rejected = b.requests, b.rejected // Close waited for every handler
		return r, err
	})
	if err != nil {
		return "", target{}, err
	}
	t := table{header: []string{"policy", "calls", "failed calls", "requests", "429s", "429s / call", "time to drain (provider time)"}}
	perCall := make([]samples, len(ps))
	for i, p := range ps {
		runs := res[i]
		perCall[i] = collect(runs, func(r hintResult) float64 { return float64(r.rejected) / float64(r.n) })
		t.add(p.Name,
			collect(runs, func(r hintResult) float64 { return float64(r.n) }).count(),
			collect(runs, func(r hintResult) float64 { return float64(r.n - r.ok) }).count(),
			collect(runs, func(r hintResult) float64 { return float64(r.requests) }).count(),
			collect(runs, func(r hintResult) float64 { return float64(r.rejected) }).count(),
			perCall[i].ratio(),
			collect(runs, func(r hintResult) float64 { return ms(hintScale.provider(r.drain)) }).millis())
	}
	var b strings.Builder
	fmt.Fprintf(&b, "The same kind of herd behind a rate limit that says when to come back: %d callers call at once a "+
		"server whose limit is a token bucket refilled continuously (as OpenAI and Anthropic describe theirs), %d "+
		"requests a second up to %d, and whose 429 carries a Retry-After in whole seconds, the header's own unit, "+
		"so that every caller refused within the same second is told the same instant. Without jitter they all "+
		"come back in that instant and the bucket admits its %d; the library waits what the provider asked, then, "+
		"while other calls of the same model wait on a hint too, up to a tenth of it more (at most the backoff's "+
		"base delay, 0.5s: `middleware.HintJitterDivisor`), during which the bucket refills. It runs in real time "+
		"(scale %d), so that the jitter's span after a wait of 1 s, 100 ms, stands well above the 10 to 20 ms over "+
		"which this machine sends a burst when it is busy; warming and send-time stamps as above; a rate limit allows %d attempts (`middleware.DefaultRateLimitedAttempts`). "+
		"Medians of %d runs. Jitter cannot lower the 429s of scenario 9's rate-limited deployment: its fixed window "+
		"admits %d requests per %v while about %d calls arrive in one, so all but %d of them are refused however "+
		"they are spread.\n\n", hintCallers, hintRate, hintBurst, hintBurst, hintScale, middleware.DefaultRateLimitedAttempts, cfg.runs,
		deploymentFaults.quota, deploymentFaults.window, int(deploymentFaults.window/poolEvery), deploymentFaults.quota)
	t.write(&b)
	ratio := perCall[1].median() / max(perCall[0].median(), 1e-9)
	tg := target{scenario: 4, what: "jitter after a shared Retry-After: at most three quarters of the 429s per call without it",
		measured: fmt.Sprintf("%s / %s = %.2f", perCall[1].ratio(), perCall[0].ratio(), ratio), pass: ratio <= 0.75,
		why: fmt.Sprintf("the jitter spreads the callers over a tenth of the wait, during which the bucket refills %.0f tokens "+
			"beside its %d", hintRate*0.1, hintBurst)}
	return strings.TrimSpace(b.String()), tg, nil
}
