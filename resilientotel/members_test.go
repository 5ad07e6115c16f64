package resilientotel_test

import (
	"maps"
	"strconv"
	"strings"
	"testing"
	"testing/synctest"

	lcllms "github.com/tmc/langchaingo/llms"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	"github.com/resilientgo/resilient"
	"github.com/resilientgo/resilient/faultserver"
)

// A pool's members taken out of rotation are metrics and events on the
// call's span, through the real OpenAI client: a member answering 429
// with Retry-After: 7 cools down (counted once, its wait recorded), a
// member whose key is refused and one whose model is missing are suspended
// (counted once each, with why), and the healthy member answers. Another
// call, which finds them out of rotation, counts nothing more. No error
// text reaches an attribute.
func TestPoolMemberMetrics(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := newHarness(t)
		servers := []*faultserver.Server{
			faultserver.NewInMemory(faultserver.RateLimited("7"), faultserver.Reply("late")),
			faultserver.NewInMemory(faultserver.InvalidAPIKey()),
			faultserver.NewInMemory(faultserver.Status(404, "The model `gpt-4o-mini` does not exist or you do not have access to it.")),
			faultserver.NewInMemory(faultserver.Reply("Hello")),
		}
		names := []string{"limited", "revoked", "missing", "healthy"}
		members := make([]lcllms.Model, len(servers))
		for i, s := range servers {
			defer s.Close()
			members[i] = resilient.Named(h.openAI(t, s), names[i])
		}
		model := resilient.Pool(members, resilient.Observe(h.obs))
		for range 2 {
			if answer, err := model.Call(t.Context(), "Say hello"); err != nil || answer != "Hello" {
				t.Fatalf("got (%q, %v), want the healthy member's answer", answer, err)
			}
		}
		if got := requests(servers); got != "[1 1 1 2]" {
			t.Fatalf("requests %s, want one to each sick member and both calls answered by the healthy one", got)
		}

		ms := h.metrics(t)
		wantCooldowns := map[string]float64{"resilient.target=limited": 1}
		if got := byAttrs(ms, "resilient.member.cooldowns"); !maps.Equal(got, wantCooldowns) {
			t.Errorf("resilient.member.cooldowns: got %v, want %v", got, wantCooldowns)
		}
		if got, n := byAttrs(ms, "resilient.member.cooldown.wait"), counts(ms, "resilient.member.cooldown.wait"); !maps.Equal(got, map[string]float64{"resilient.target=limited": 7}) ||
			n["resilient.target=limited"] != 1 {
			t.Errorf("resilient.member.cooldown.wait: sums %v, counts %v, want one wait of 7 s for limited", got, n)
		}
		wantSuspensions := map[string]float64{
			"error.type=permanent,resilient.reason=account,resilient.target=revoked":       1,
			"error.type=permanent,resilient.reason=model_missing,resilient.target=missing": 1,
		}
		if got := byAttrs(ms, "resilient.member.suspensions"); !maps.Equal(got, wantSuspensions) {
			t.Errorf("resilient.member.suspensions: got %v, want %v", got, wantSuspensions)
		}
		for _, name := range []string{"resilient.member.cooldowns", "resilient.member.cooldown.wait", "resilient.member.suspensions"} {
			for _, p := range points(ms[name]) {
				noSecret(t, name, render(p.attrs))
			}
		}

		calls := h.named("chat gpt-4o-mini")
		if len(calls) != 2 {
			t.Fatalf("got %d call spans, want 2", len(calls))
		}
		want := []map[string]string{
			{"name": "resilient.cooldown", "resilient.target": "limited", "resilient.cooldown.wait": "7"},
			{"name": "resilient.suspension", "resilient.target": "revoked", "error.type": "permanent",
				"resilient.reason": "account", "resilient.suspension.hold": "300"},
			{"name": "resilient.suspension", "resilient.target": "missing", "error.type": "permanent",
				"resilient.reason": "model_missing", "resilient.suspension.hold": "300"},
		}
		if got := memberEvents(calls[0]); !equalEvents(got, want) {
			t.Errorf("the first call's member events:\ngot  %v\nwant %v", got, want)
		}
		if got := memberEvents(calls[1]); len(got) != 0 {
			t.Errorf("the second call's member events: got %v, want none", got)
		}
		for _, s := range h.spans.GetSpans() {
			for _, e := range s.Events {
				for _, kv := range e.Attributes {
					noSecret(t, s.Name+" "+e.Name, string(kv.Key)+"="+kv.Value.String())
				}
			}
		}
	})
}

// memberEvents returns the cooldown and suspension events of span, in
// order, each as its name and rendered attributes.
func memberEvents(span tracetest.SpanStub) []map[string]string {
	var out []map[string]string
	for _, e := range span.Events {
		if e.Name != "resilient.cooldown" && e.Name != "resilient.suspension" {
			continue
		}
		m := map[string]string{"name": e.Name}
		for _, kv := range e.Attributes {
			m[string(kv.Key)] = kv.Value.String()
		}
		out = append(out, m)
	}
	return out
}

func equalEvents(a, b []map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !maps.Equal(a[i], b[i]) {
			return false
		}
	}
	return true
}

// noSecret fails t when s holds any part of the servers' error texts or
// the key they name.
func noSecret(t *testing.T, where, s string) {
	t.Helper()
	for _, bad := range []string{"sk-test", "Incorrect API key", "does not exist", "Rate limit reached"} {
		if strings.Contains(s, bad) {
			t.Errorf("%s: %q holds error text %q", where, s, bad)
		}
	}
}

// requests returns the request count of each server, as "[a b c]".
func requests(servers []*faultserver.Server) string {
	parts := make([]string, len(servers))
	for i, s := range servers {
		parts[i] = strconv.Itoa(s.Count())
	}
	return "[" + strings.Join(parts, " ") + "]"
}
