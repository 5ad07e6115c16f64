package resilient_test

// The first import declaration is the README's; the second holds what the
// test around it needs.

// readme:begin pool-imports
import (
	"github.com/resilientgo/resilient"
	"github.com/tmc/langchaingo/llms"
)

// readme:end

import (
	"log/slog"
	"strconv"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/resilientgo/resilient/faultserver"
	"github.com/resilientgo/resilient/observe/observetest"
)

// The README's "Many deployments": a pool over a deployment that answers
// 503, one rate limited and a healthy one answers a conversation from the
// healthy one, at one request per sick deployment; the conversation stays
// there; with every member down, the fallback answers.
func TestREADMEPool(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		servers := []*faultserver.Server{
			faultserver.NewInMemory(faultserver.Status(503, "Service Unavailable")),
			faultserver.NewInMemory(faultserver.RateLimited("30"), faultserver.Reply("Hello from westus.")),
			faultserver.NewInMemory(faultserver.Reply("Hello from sweden.")),
			faultserver.NewInMemory(faultserver.Reply("Hello from the backup.")),
		}
		for _, s := range servers {
			defer s.Close()
		}
		eastus, westus, sweden, backup := openaiAgainst(t, servers[0]), openaiAgainst(t, servers[1]),
			openaiAgainst(t, servers[2]), openaiAgainst(t, servers[3])
		var logs observetest.LogBuffer
		logger := slog.New(slog.NewTextHandler(&logs, nil))
		ctx, conversationID := t.Context(), "c-42"

		// readme:begin pool
		model := resilient.Pool([]llms.Model{
			resilient.Named(eastus, "eastus"),
			resilient.Member(resilient.Named(westus, "westus"), resilient.Weight(2)),
			resilient.Member(resilient.Named(sweden, "sweden"), resilient.MaxConcurrent(8, time.Second)),
		}, resilient.Logger(logger), resilient.Fallbacks(backup))

		answer, err := model.Call(ctx, "Say hello", resilient.StickyKey(conversationID))
		// readme:end

		if err != nil || answer != "Hello from sweden." {
			t.Fatalf("got (%q, %v), want sweden's answer", answer, err)
		}
		if got := counts(servers); got != "[1 1 1 0]" {
			t.Errorf("requests %s, want one to each deployment", got)
		}
		for range 3 {
			if answer, err := model.Call(ctx, "Say hello again", resilient.StickyKey(conversationID)); err != nil || answer != "Hello from sweden." {
				t.Fatalf("got (%q, %v), want the conversation kept on sweden", answer, err)
			}
		}
		for _, want := range []string{`msg=retrying target=eastus`, `msg="cooling down" target=westus delay=30s`} {
			if !strings.Contains(logs.String(), want) {
				t.Errorf("the log lacks %q:\n%s", want, logs.String())
			}
		}
		for _, m := range model.Pool().Members() {
			m.Breaker.Open()
		}
		if answer, err := model.Call(ctx, "Say hello"); err != nil || answer != "Hello from the backup." {
			t.Errorf("every member down: got (%q, %v), want the fallback's answer", answer, err)
		}
		if got := counts(servers); got != "[1 1 4 1]" {
			t.Errorf("requests %s, want none to a member whose circuit is open", got)
		}
	})
}

// counts returns the request count of each server, as "[a b c]".
func counts(servers []*faultserver.Server) string {
	var b strings.Builder
	for i, s := range servers {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(strconv.Itoa(s.Count()))
	}
	return "[" + b.String() + "]"
}
