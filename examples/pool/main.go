// Command pool shows one model spread over three deployments of it, as a
// team with several regions or API keys runs it: one deployment is
// degraded (half its answers are slow 503s), one is rate limited (429 with
// a Retry-After of 20 s), one is healthy. Four callers make forty calls
// through resilient.Pool, langchaingo's real OpenAI client talking to
// loopback fault servers. Every call is answered: a failed attempt is
// retried at once on another deployment, the rate-limited one cools down
// for its Retry-After instead of being asked again, and the pool's
// concurrency limit keeps at most six requests in flight. The log names the
// deployment of each decision; the summary prints the requests each
// deployment received and what the pool knows of each.
//
//	go run ./examples/pool
package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"os"
	"sync"
	"time"

	"github.com/lmittmann/tint"
	lcllms "github.com/tmc/langchaingo/llms"
	"github.com/tmc/langchaingo/llms/openai"

	"github.com/resilientgo/resilient"
	"github.com/resilientgo/resilient/examples/internal/tty"
	"github.com/resilientgo/resilient/faultserver"
	"github.com/resilientgo/resilient/llms"
)

const (
	callers       = 4
	callsEach     = 10
	maxConcurrent = 6
)

func main() {
	logger := slog.New(tint.NewTextHandler(os.Stderr, &tint.Options{TimeFormat: "15:04:05.000", NoColor: !tty.Color(os.Stderr)}))
	if _, err := run(os.Stdout, logger); err != nil {
		fmt.Fprintln(os.Stderr, "pool:", err)
		os.Exit(1)
	}
}

// report is what the smoke test checks.
type report struct {
	calls, answered, requests int
	mostInFlight              int            // at once, at one deployment
	byDeployment              map[string]int // requests
}

// deployment is one loopback server standing for a deployment.
type deployment struct {
	name string
	srv  *faultserver.Server
	note string
}

func run(out io.Writer, logger *slog.Logger) (report, error) {
	deployments := []deployment{
		{"eastus", faultserver.New(faultserver.Func(degraded)), "degraded: every other answer a slow 503"},
		{"westus", faultserver.New(faultserver.RateLimited("20"), faultserver.Reply("Hello from westus.")), "rate limited once, Retry-After 20 s"},
		{"sweden", faultserver.New(faultserver.Reply("Hello from sweden.").After(20 * time.Millisecond)), "healthy"},
	}
	var members []lcllms.Model
	for _, d := range deployments {
		defer d.srv.Close()
		hc := &http.Client{Transport: llms.NewTransport(d.srv.Client().Transport)}
		llm, err := d.srv.OpenAI(openai.WithHTTPClient(hc))
		if err != nil {
			return report{}, err
		}
		members = append(members, resilient.Named(llm, d.name))
	}
	model := resilient.Pool(members,
		resilient.Logger(logger),
		resilient.MaxConcurrent(maxConcurrent, 10*time.Second), // for the pool as a whole
	)

	r := report{calls: callers * callsEach, byDeployment: map[string]int{}}
	var mu sync.Mutex
	var wg sync.WaitGroup
	for c := range callers {
		wg.Go(func() {
			for i := range callsEach {
				_, err := model.Call(context.Background(), "Say hello")
				mu.Lock()
				if err == nil {
					r.answered++
				} else {
					fmt.Fprintf(out, "caller %d, call %d: %v\n", c, i, err)
				}
				mu.Unlock()
			}
		})
	}
	wg.Wait()

	fmt.Fprintf(out, "\n%d of %d calls answered\n", r.answered, r.calls)
	for _, d := range deployments {
		r.requests += d.srv.Count()
		r.byDeployment[d.name] = d.srv.Count()
		r.mostInFlight = max(r.mostInFlight, d.srv.MaxInFlight())
		fmt.Fprintf(out, "  %-7s %2d requests  (%s)\n", d.name, d.srv.Count(), d.note)
	}
	fmt.Fprintf(out, "%.2f requests per call\n", float64(r.requests)/float64(r.calls))
	fmt.Fprintln(out, "\nWhat the pool knows (model.Pool().Members()):")
	for _, m := range model.Pool().Members() {
		fmt.Fprintf(out, "  %-7s circuit %-6v cooling down %-5v latency %v\n",
			m.Name, m.Breaker.State(), m.Cooldown.Round(time.Second), m.Latency.Round(time.Millisecond))
	}
	return r, nil
}

// degraded answers every other request with a 503, slowly.
func degraded(r *faultserver.Request) faultserver.Step {
	if r.Index%2 == 0 {
		return faultserver.Status(503, "Service Unavailable").After(100 * time.Millisecond)
	}
	return faultserver.Reply("Hello from eastus.").After(100 * time.Millisecond)
}
