package llms_test

import (
	"fmt"
	"testing"
	"testing/synctest"
	"time"

	lcllms "github.com/tmc/langchaingo/llms"

	"github.com/resilientgo/resilient/faultserver"
	"github.com/resilientgo/resilient/llms"
	"github.com/resilientgo/resilient/middleware"
	"github.com/resilientgo/resilient/observe"
	"github.com/resilientgo/resilient/observe/observetest"
)

// A model whose circuit is open refuses a call before any attempt, and its
// fallback answers the call: the primary is not asked again until its
// circuit closes.
func TestFallbackAnswersWhileTheCircuitIsOpen(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		servers, clients := deployments(t, faultserver.OpenAI,
			[]faultserver.Step{faultserver.Status(503, "down")}, []faultserver.Step{faultserver.Reply("from the fallback")})
		m := mustWrap(t, clients[0], llms.Fallbacks(clients[1]),
			llms.Middleware(middleware.CircuitBreaker(1, time.Minute), middleware.MaxAttempts(1)))
		for i := range 3 {
			if resp, err := m.GenerateContent(t.Context(), hello()); err != nil || text(resp) != "from the fallback" {
				t.Fatalf("call %d: got %v, want the fallback's answer", i, err)
			}
		}
		if got := counts(servers); fmt.Sprint(got) != "[1 3]" {
			t.Errorf("requests %v, want the primary once (its circuit opened), the fallback three times", got)
		}
	})
}

// A pool whose every member cut its stream after text falls back, and the
// restart before the fallback is reported naming the member whose stream
// broke last, not the pool.
func TestPoolRestartBeforeFallbackNamesTheMember(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		cut := []faultserver.Step{faultserver.DropStream("Hel")}
		_, members := deployments(t, faultserver.OpenAI, cut, cut, []faultserver.Step{faultserver.ReplyChunks("Hel", "lo")})
		rec := &observetest.Recorder{}
		var c collector
		pool := mustPool(t, members[:2], llms.Fallbacks(members[2]), llms.OnStreamRestart(c.restart),
			llms.Middleware(middleware.Observe(rec), middleware.MaxAttempts(2)))
		resp, err := pool.GenerateContent(t.Context(), hello(), lcllms.WithStreamingFunc(c.fn))
		if err != nil || text(resp) != "Hello" || c.text() != "Hello" {
			t.Fatalf("got (%v, %v), shown %q; want Hello from the fallback", resp, err, c.text())
		}
		var targets []string
		for _, r := range observetest.Of[observe.StreamRestarted](rec) {
			targets = append(targets, r.Target)
		}
		if got := fmt.Sprint(targets); got != "[d0 d1]" && got != "[d1 d0]" {
			t.Errorf("restarts of %v, want one member (inside the pool) then the other (before the fallback)", targets)
		}
	})
}
