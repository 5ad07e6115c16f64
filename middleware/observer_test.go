package middleware_test

import (
	"context"
	"testing"
	"testing/synctest"

	"github.com/resilientgo/resilient/middleware"
	"github.com/resilientgo/resilient/observe"
	"github.com/resilientgo/resilient/observe/observetest"
)

// TestNoObserversCostNothing: without observers a pipeline has none, not
// even a discarding logger, and StartCall hands the context back as it is.
func TestNoObserversCostNothing(t *testing.T) {
	var none observe.Observers
	ctx := context.Background()
	if none.Active() || none.StartCall(ctx, observe.Target{Name: "m"}) != ctx {
		t.Error("no observers: want inactive, and the context unchanged")
	}
	if obs := mustPipeline(t).Observers(); obs.Active() {
		t.Errorf("a pipeline without Observe or Logger has observers %v", obs)
	}
	if obs := mustPipeline(t, middleware.Logger(nil)).Observers(); obs.Active() {
		t.Errorf("a pipeline with Logger(nil) has observers %v", obs)
	}
	one := observe.Observers{&observetest.Recorder{}}
	if !one.Active() || one.StartCall(ctx, observe.Target{Name: "m"}) == ctx {
		t.Error("one observer: want active, and a call's context")
	}
}

// nilStarter is an observer whose Start breaks its contract and returns nil.
type nilStarter struct{}

func (nilStarter) Start(context.Context, observe.Start) context.Context { return nil }
func (nilStarter) Observe(context.Context, observe.Event)               {}

// TestObserverReturningNilContext: a Start that returns nil leaves the
// context as it was, for the function and for the observers after it.
func TestObserverReturningNilContext(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		rec := &observetest.Recorder{}
		p := mustPipeline(t, middleware.Observe(nilStarter{}, rec))
		got, err := p.Do(t.Context(), bounded(func(ctx context.Context, _ middleware.State) (string, error) {
			if s, ok := observetest.StartFrom(ctx); !ok || s.Attempt != 1 {
				t.Errorf("the function's context carries %+v, %v; want attempt 1's", s, ok)
			}
			return "ok", ctx.Err()
		}))
		if err != nil || got != "ok" || len(rec.Starts()) != 2 {
			t.Errorf("got (%q, %v) with starts %+v", got, err, rec.Starts())
		}
	})
}

// TestPipelineUnderAnAdaptersCall: a pipeline called within a logical call
// that an adapter started reports its attempts only; one called alone
// starts and ends the call itself. A call that succeeds at once has not
// recovered from anything.
func TestPipelineUnderAnAdaptersCall(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		rec := &observetest.Recorder{}
		p := mustPipeline(t, middleware.Observe(rec))
		ctx := p.Observers().StartCall(t.Context(), observe.Target{Name: "adapter"})
		if _, err := p.Do(ctx, newScript(succeeds("ok")).fn); err != nil {
			t.Fatal(err)
		}
		starts := rec.Starts()
		if len(starts) != 2 || starts[0].Target.Name != "adapter" || starts[1].Attempt != 1 {
			t.Errorf("starts %+v, want the adapter's call and one attempt", starts)
		}
		if n := len(observetest.Of[observe.CallEnd](rec)); n != 0 {
			t.Errorf("the pipeline ended the adapter's call (%d call ends)", n)
		}
		if n := len(observetest.Of[observe.Recovered](rec)); n != 0 {
			t.Errorf("%d recoveries reported for a first-attempt success", n)
		}

		if _, err := p.Do(t.Context(), newScript(succeeds("ok")).fn); err != nil {
			t.Fatal(err)
		}
		if ends := observetest.Of[observe.CallEnd](rec); len(ends) != 1 || ends[0].Target.Name != "test-target" || ends[0].Attempts != 1 {
			t.Errorf("call ends %+v, want the pipeline's own call, one attempt", ends)
		}
	})
}
