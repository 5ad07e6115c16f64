package resilientotel_test

import (
	"testing"
	"testing/synctest"
	"time"

	"github.com/resilientgo/resilient"
	"github.com/resilientgo/resilient/faultserver"
)

// The same 429 then success: one retry from Retry-After, waited 7 s; two
// attempts, one failed; one call in the GenAI duration histogram.
func TestRetryAfterMetrics(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := retryAfterCall(t)
		ms := h.metrics(t)
		const target = "resilient.target=openai/gpt-4o-mini"
		wantSums := map[string]map[string]float64{
			"resilient.retries":    {"error.type=rate_limited," + target + ",resilient.wait.source=retry_after": 1},
			"resilient.retry.wait": {target + ",resilient.wait.source=retry_after": 7},
			"resilient.attempts": {
				"resilient.outcome=ok," + target:                             1,
				"error.type=rate_limited,resilient.outcome=failed," + target: 1,
			},
			"gen_ai.client.operation.duration": {
				"gen_ai.operation.name=chat,gen_ai.provider.name=openai,gen_ai.request.model=gpt-4o-mini": 7,
			},
			// The usage the fault server reported with its answer, read
			// from the real client's response.
			"gen_ai.client.token.usage": {
				"gen_ai.operation.name=chat,gen_ai.provider.name=openai,gen_ai.request.model=gpt-4o-mini,gen_ai.token.type=input":  23,
				"gen_ai.operation.name=chat,gen_ai.provider.name=openai,gen_ai.request.model=gpt-4o-mini,gen_ai.token.type=output": 1,
			},
		}
		for name, want := range wantSums {
			got := byAttrs(ms, name)
			if len(got) != len(want) {
				t.Errorf("%s: got %v, want %v", name, got, want)
				continue
			}
			for attrs, v := range want {
				if got[attrs] != v {
					t.Errorf("%s{%s}: got %v, want %v (all: %v)", name, attrs, got[attrs], v, got)
				}
			}
		}
		if got := counts(ms, "resilient.retry.wait")[target+",resilient.wait.source=retry_after"]; got != 1 {
			t.Errorf("resilient.retry.wait count: got %d, want 1", got)
		}
		for _, name := range []string{"resilient.fallbacks", "resilient.hedges", "resilient.refusals",
			"resilient.breaker.transitions", "resilient.tool.calls"} {
			if p := points(ms[name]); len(p) != 0 {
				t.Errorf("%s: got %v, want nothing recorded", name, p)
			}
		}
	})
}

// A breaker that opens after two failures shows in the gauge (2, open)
// and the transitions counter; after its delay a probe that succeeds
// closes it through half-open.
func TestBreakerMetrics(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := newHarness(t)
		s := faultserver.NewInMemory(faultserver.ServerError())
		defer s.Close()
		model := resilient.Model(h.openAI(t, s), resilient.Observe(h.obs),
			resilient.CircuitBreaker(2, 10*time.Second))
		const target = "resilient.target=openai/gpt-4o-mini"

		if _, err := model.GenerateContent(t.Context(), hello()); err == nil {
			t.Fatal("want a failure")
		}
		ms := h.metrics(t)
		if got := byAttrs(ms, "resilient.breaker.state"); len(got) != 1 || got[target] != 2 {
			t.Errorf("gauge after the failures: got %v, want {%s: 2}", got, target)
		}
		if got := byAttrs(ms, "resilient.breaker.transitions"); len(got) != 1 || got["resilient.breaker.state=open,"+target] != 1 {
			t.Errorf("transitions after the failures: got %v, want one to open", got)
		}
		if got := byAttrs(ms, "resilient.refusals")["resilient.reason=circuit_open,"+target]; got != 1 {
			t.Errorf("refusals after the failures: got %v, want 1 circuit_open", byAttrs(ms, "resilient.refusals"))
		}
		call := h.named("chat gpt-4o-mini")[0]
		var refused bool
		for _, e := range call.Events {
			if v, _ := attr(e.Attributes, "resilient.reason"); e.Name == "resilient.refusal" && v.String() == "circuit_open" {
				refused = true
			}
		}
		if !refused {
			t.Errorf("call span events: got %v, want the refusal of the open circuit", call.Events)
		}

		time.Sleep(10 * time.Second)
		s.SetScript(faultserver.Reply("ok"))
		if _, err := model.GenerateContent(t.Context(), hello()); err != nil {
			t.Fatal(err)
		}
		ms = h.metrics(t)
		if got := byAttrs(ms, "resilient.breaker.state"); len(got) != 1 || got[target] != 0 {
			t.Errorf("gauge after the probe: got %v, want {%s: 0}", got, target)
		}
		want := map[string]float64{
			"resilient.breaker.state=open," + target:      1,
			"resilient.breaker.state=half_open," + target: 1,
			"resilient.breaker.state=closed," + target:    1,
		}
		got := byAttrs(ms, "resilient.breaker.transitions")
		if len(got) != len(want) {
			t.Fatalf("transitions: got %v, want %v", got, want)
		}
		for k, v := range want {
			if got[k] != v {
				t.Errorf("transitions{%s}: got %v, want %v", k, got[k], v)
			}
		}
	})
}
