package llms_test

import (
	"testing"

	lcllms "github.com/tmc/langchaingo/llms"

	"github.com/resilientgo/resilient/faultserver"
	"github.com/resilientgo/resilient/llms"
	"github.com/resilientgo/resilient/middleware"
	"github.com/resilientgo/resilient/observe"
	"github.com/resilientgo/resilient/observe/observetest"
	"github.com/resilientgo/resilient/pool"
)

// A pool's calls are reported with the provider and the model its members
// share, and without the one they do not share: a dashboard grouping calls
// by provider or model counts a pool of one provider's deployments under
// that provider and model, and a mixed pool under neither.
func TestPoolCallsNameWhatTheMembersShare(t *testing.T) {
	called := func(t *testing.T, m *llms.Model, err error, rec *observetest.Recorder) observe.Target {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		if _, err := m.GenerateContent(t.Context(), hello()); err != nil {
			t.Fatal(err)
		}
		ends := observetest.Of[observe.CallEnd](rec)
		if len(ends) != 1 {
			t.Fatalf("got %d call ends, want 1", len(ends))
		}
		return ends[0].Target
	}
	reply := []faultserver.Step{faultserver.Reply("hi")}
	_, openai := deployments(t, faultserver.OpenAI, reply, reply)
	_, anthropic := deployments(t, faultserver.Anthropic, reply)
	rec := &observetest.Recorder{}
	m, err := llms.New(openai[0], llms.Middleware(middleware.Observe(rec)))
	alone := called(t, m, err, rec)
	rec = &observetest.Recorder{}
	m, err = llms.New(anthropic[0], llms.Middleware(middleware.Observe(rec)))
	other := called(t, m, err, rec)
	if alone.Provider != "openai" || alone.Model == "" || other.Model == alone.Model {
		t.Fatalf("plain clients report %+v and %+v, want openai and two different models", alone, other)
	}

	rec = &observetest.Recorder{}
	m, err = llms.NewPool(openai, llms.Middleware(middleware.Observe(rec), middleware.Balance(pool.RoundRobin{})))
	if got := called(t, m, err, rec); got.Provider != alone.Provider || got.Model != alone.Model {
		t.Errorf("a pool of two openai deployments reports %+v, want provider %q and model %q", got, alone.Provider, alone.Model)
	}
	rec = &observetest.Recorder{}
	m, err = llms.NewPool([]lcllms.Model{openai[0], llms.Named(anthropic[0], "a0")}, llms.Middleware(middleware.Observe(rec)))
	if got := called(t, m, err, rec); got.Provider != "" || got.Model != "" {
		t.Errorf("a pool of openai and anthropic reports %+v, want neither a provider nor a model", got)
	}
}
