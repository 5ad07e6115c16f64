package main

import (
	"encoding/json"
	"strconv"
	"strings"
	"sync"
	"time"

	lcllms "github.com/tmc/langchaingo/llms"

	"github.com/resilientgo/resilient/faultserver"
)

// Scenario 9's deployments: three of the same model, one degraded, one
// rate-limited, one healthy. Provider times.
var deploymentFaults = struct {
	latency         time.Duration // of every answer of the healthy and rate-limited deployments
	degradedLatency time.Duration // of every answer of the degraded one, 503 or not
	degradedFail    float64       // share of the degraded deployment's answers that are 503s
	quota           int           // requests the rate-limited deployment admits per window ...
	window          time.Duration // ... of this length, counted from the start of the traffic
}{latency: time.Second, degradedLatency: 4 * time.Second, degradedFail: 0.5, quota: 5, window: 10 * time.Second}

// The deployments, in the order every policy is given them.
const (
	degradedName    = "degraded"
	rateLimitedName = "rate-limited"
	healthyName     = "healthy"
)

var deploymentNames = []string{degradedName, rateLimitedName, healthyName}

// poolPrompt is what logical call i sends: its number lets the deployments
// draw their faults per call, whatever order the requests arrive in.
func poolPrompt(i int) []lcllms.MessageContent {
	return []lcllms.MessageContent{lcllms.TextParts(lcllms.ChatMessageTypeHuman, "call "+strconv.Itoa(i))}
}

// callNumber reads the number of the logical call a request belongs to from its
// prompt (see poolPrompt); -1 when it carries none.
func callNumber(r *faultserver.Request) int {
	var body chatRequest
	if json.Unmarshal(r.Body, &body) != nil {
		return -1
	}
	for _, m := range body.Messages {
		if n, ok := strings.CutPrefix(m.text(), "call "); ok && m.Role == "user" {
			if i, err := strconv.Atoi(n); err == nil {
				return i
			}
		}
	}
	return -1
}

// fleet is the three deployments of one run, each behind a fault server of
// its own, and what each of them answered. It is safe for concurrent use.
type fleet struct {
	servers []*faultserver.Server // in the order of deploymentNames
	ts      timeScale
	seed    uint64

	mu       sync.Mutex
	start    time.Time   // of the traffic: the rate limit's windows count from it
	seen     map[int]int // degraded: requests per logical call, for the draws
	admitted map[int]int // rate-limited: requests admitted per window
	failed   [3]int      // 503s (degraded) and 429s (rate-limited), per deployment
}

// newFleet starts the three servers; close them with close.
func newFleet(seed uint64, ts timeScale) *fleet {
	f := &fleet{ts: ts, seed: seed, seen: map[int]int{}, admitted: map[int]int{}, start: time.Now()}
	f.servers = []*faultserver.Server{
		faultserver.New(faultserver.Func(f.degraded)),
		faultserver.New(faultserver.Func(f.rateLimited)),
		faultserver.New(faultserver.Reply("ok").After(ts.of(deploymentFaults.latency))),
	}
	return f
}

// begin starts the traffic's clock.
func (f *fleet) begin() {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.start = time.Now()
}

// close closes the servers, which waits for every handler.
func (f *fleet) close() {
	for _, s := range f.servers {
		s.Close()
	}
}

// degraded answers slowly, and half the time (drawn per logical call and
// per request of that call it has seen) with a 503.
func (f *fleet) degraded(r *faultserver.Request) faultserver.Step {
	slow := f.ts.of(deploymentFaults.degradedLatency)
	call := callNumber(r)
	f.mu.Lock()
	defer f.mu.Unlock()
	n := f.seen[call]
	f.seen[call]++
	if chance(f.seed, "degraded/"+strconv.Itoa(call), n) < deploymentFaults.degradedFail {
		f.failed[0]++
		return faultserver.Status(503, "Service Unavailable").After(slow)
	}
	return faultserver.Reply("ok").After(slow)
}

// rateLimited admits quota requests per window and answers the others at
// once with a 429 whose retry-after-ms says when the window ends, as a
// provider's per-minute quota does.
func (f *fleet) rateLimited(r *faultserver.Request) faultserver.Step {
	window := f.ts.of(deploymentFaults.window)
	f.mu.Lock()
	defer f.mu.Unlock()
	since := max(r.Time.Sub(f.start), 0)
	w := int(since / window)
	if f.admitted[w] < deploymentFaults.quota {
		f.admitted[w]++
		return faultserver.Reply("ok").After(f.ts.of(deploymentFaults.latency))
	}
	f.failed[1]++
	return rateLimitedFor(time.Duration(w+1)*window - since)
}

// counts returns the requests each deployment got, and of them the 503s
// and 429s it answered; call it after close.
func (f *fleet) counts() (requests, failed [3]int) {
	for i, s := range f.servers {
		requests[i] = s.Count()
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	return requests, f.failed
}
