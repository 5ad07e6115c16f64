package resilienteino_test

import (
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/cloudwego/eino/components/model"
	"github.com/cloudwego/eino/schema"

	"github.com/resilientgo/resilient/faultserver"
	"github.com/resilientgo/resilient/observe"
	"github.com/resilientgo/resilient/observe/observetest"
	"github.com/resilientgo/resilient/resilienteino"
)

// A model that stays overloaded gives up after its attempts, and its
// fallback answers; a model bound to tools binds them to its fallback.
func TestFallbacks(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		primary := faultserver.NewInMemory(faultserver.Overloaded())
		defer primary.Close()
		second := faultserver.NewInMemory(faultserver.Reply("Paris."))
		defer second.Close()
		m := resilienteino.Model(openaiModel(t, primary), resilienteino.Fallbacks(resilienteino.Named(openaiModel(t, second), "second")))
		bound, err := m.WithTools([]*schema.ToolInfo{{Name: "lookup", Desc: "looks up"}})
		if err != nil {
			t.Fatal(err)
		}
		out, err := bound.Generate(t.Context(), hello())
		if err != nil || out.Content != "Paris." || primary.Count() != 3 || second.Count() != 1 {
			t.Fatalf("got %v, %v after %d and %d requests, want the fallback's answer after 3 and 1", out, err, primary.Count(), second.Count())
		}
		if body := string(second.Requests()[0].Body); !strings.Contains(body, `"lookup"`) {
			t.Errorf("the fallback was not sent the tools: %s", body)
		}
	})
}

// A pool sends a retry to another member at once: a sick member costs the
// call one request.
func TestPool(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		sick := faultserver.NewInMemory(faultserver.ServerError())
		defer sick.Close()
		well := faultserver.NewInMemory(faultserver.Reply("Hello"))
		defer well.Close()
		m, err := resilienteino.Pool([]model.BaseChatModel{resilienteino.Named(openaiModel(t, sick), "sick"), resilienteino.Named(openaiModel(t, well), "well")})
		if err != nil {
			t.Fatal(err)
		}
		start := time.Now()
		for range 4 {
			if out, err := m.Generate(t.Context(), hello()); err != nil || out.Content != "Hello" {
				t.Fatalf("got %v, %v", out, err)
			}
		}
		if sick.Count() > 1 || well.Count() != 4 || time.Since(start) != 0 {
			t.Errorf("sick member %d requests, well member %d, in %v; want at most 1 to the sick one, no wait", sick.Count(), well.Count(), time.Since(start))
		}
	})
}

// A slow attempt is hedged after the delay; the first answer wins.
func TestHedge(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := faultserver.NewInMemory(faultserver.Reply("slow").After(10*time.Second), faultserver.Reply("fast"))
		defer s.Close()
		start := time.Now()
		out, err := resilienteino.Model(openaiModel(t, s), resilienteino.Hedge(time.Second, 1)).Generate(t.Context(), hello())
		if err != nil || out.Content != "fast" || time.Since(start) != time.Second || s.Count() != 2 {
			t.Fatalf("got %v, %v after %v and %d requests, want the hedge's answer after 1 s and 2", out, err, time.Since(start), s.Count())
		}
	})
}

// Every decision reaches the observers, and the call's end carries the
// tokens the reply reported (schema.Message's ResponseMeta.Usage).
func TestObservers(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := faultserver.NewInMemory(faultserver.RateLimited("2"), faultserver.Reply("Hello big world"))
		defer s.Close()
		rec := &observetest.Recorder{}
		if _, err := resilienteino.Model(openaiModel(t, s), resilienteino.Observe(rec)).Generate(t.Context(), hello()); err != nil {
			t.Fatal(err)
		}
		retries, ends := observetest.Of[observe.RetryScheduled](rec), observetest.Of[observe.CallEnd](rec)
		if len(retries) != 1 || retries[0].Wait != 2*time.Second || len(ends) != 1 || ends[0].Attempts != 2 ||
			ends[0].InputTokens == 0 || ends[0].OutputTokens == 0 || ends[0].Target.Provider != "openai" || ends[0].Target.Model != "gpt-4o" {
			t.Errorf("retries %+v, ends %+v; want one retry after 2 s and one end of 2 attempts with the reply's tokens, for openai/gpt-4o", retries, ends)
		}
	})
}
