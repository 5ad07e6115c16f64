package middleware_test

import (
	"context"
	"errors"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/resilientgo/resilient/limit"
	"github.com/resilientgo/resilient/middleware"
	"github.com/resilientgo/resilient/observe"
	"github.com/resilientgo/resilient/observe/observetest"
)

// inFlight counts the calls of a function running at once, and the most
// seen.
type inFlight struct {
	now, most atomic.Int32
}

func (f *inFlight) enter() {
	n := f.now.Add(1)
	for {
		m := f.most.Load()
		if n <= m || f.most.CompareAndSwap(m, n) {
			return
		}
	}
}

func (f *inFlight) leave() { f.now.Add(-1) }

// TestMaxConcurrent: callers beyond the limit wait for a slot up to the
// wait allowed, then stop with the concurrency reason, without a request;
// the refusal is reported and says nothing to the breaker.
func TestMaxConcurrent(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		rec := &observetest.Recorder{}
		var fl inFlight
		fn := func(ctx context.Context, _ middleware.State) (string, error) {
			fl.enter()
			defer fl.leave()
			time.Sleep(3 * time.Second)
			return "ok", nil
		}
		p := mustPipeline(t, middleware.MaxConcurrent(2, 2*time.Second), middleware.Observe(rec), middleware.CircuitBreaker(1, time.Minute))
		type result struct {
			err  error
			took time.Duration
		}
		results := make([]result, 5)
		var wg sync.WaitGroup
		for i := range results {
			wg.Go(func() {
				start := time.Now()
				_, err := p.Do(context.Background(), fn)
				results[i] = result{err, time.Since(start)}
			})
		}
		wg.Wait()
		var ok, refused int
		for _, r := range results {
			switch {
			case r.err == nil && r.took == 3*time.Second:
				ok++
			case errors.Is(r.err, limit.ErrConcurrency) && r.took == 2*time.Second:
				refused++
				if e := asError(t, r.err); e.Reason != observe.ReasonConcurrency || e.Class().Rule != "concurrency limit" {
					t.Errorf("got %v, want the concurrency reason", r.err)
				}
			default:
				t.Errorf("a call ended with %v after %v", r.err, r.took)
			}
		}
		if ok != 2 || refused != 3 || fl.most.Load() != 2 {
			t.Errorf("%d calls answered, %d refused, %d at most in flight; want 2, 3, 2", ok, refused, fl.most.Load())
		}
		if b := p.Breaker(); b.State() != observe.BreakerClosed {
			t.Errorf("breaker %v, want closed: the refusals are ours", b.State())
		}
		if r := observetest.Of[observe.Refusal](rec); len(r) != 3 || r[0].Reason != observe.ReasonConcurrency {
			t.Errorf("refusals %+v, want 3 for the concurrency limit", r)
		}
		// A waiter served within its wait.
		p = mustPipeline(t, middleware.MaxConcurrent(1, 5*time.Second))
		for range 2 {
			wg.Go(func() {
				if _, err := p.Do(context.Background(), fn); err != nil {
					t.Errorf("got %v, want the second call served when the first is done", err)
				}
			})
		}
		wg.Wait()
	})
}

// TestConcurrencySlotHeldUntilReturn: an attempt abandoned at its timeout
// keeps its slot until its function returns, since its work still runs;
// a panic gives the slot back.
func TestConcurrencySlotHeldUntilReturn(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		release := make(chan struct{})
		var fl inFlight
		hung := func(context.Context, middleware.State) (string, error) {
			fl.enter()
			defer fl.leave()
			<-release // ignores its context
			return "late", nil
		}
		p := mustPipeline(t, middleware.MaxConcurrent(1, 0), middleware.Timeout(time.Second), middleware.MaxAttempts(1))
		_, err := p.Do(t.Context(), hung)
		var abandoned *middleware.AbandonedError
		if !errors.As(err, &abandoned) {
			t.Fatalf("got %v, want the attempt abandoned", err)
		}
		_, err = p.Do(t.Context(), hung)
		if e := asError(t, err); e.Reason != observe.ReasonConcurrency {
			t.Errorf("while the abandoned attempt runs: got %v, want the concurrency limit", err)
		}
		close(release)
		synctest.Wait()
		if got, err := p.Do(t.Context(), newScript(succeeds("ok")).fn); err != nil || got != "ok" || fl.most.Load() != 1 {
			t.Errorf("after it returned: got (%q, %v), %d in flight at most; want ok, 1", got, err, fl.most.Load())
		}

		p = mustPipeline(t, middleware.MaxConcurrent(1, 0))
		_, err = p.Do(t.Context(), newScript(step{panic: "boom"}).fn)
		if !errors.As(err, new(*middleware.PanicError)) {
			t.Fatalf("got %v, want the panic", err)
		}
		if got, err := p.Do(t.Context(), newScript(succeeds("ok")).fn); err != nil || got != "ok" {
			t.Errorf("after a panic: got (%q, %v), want the slot back", got, err)
		}
	})
}

// TestConcurrencyLimitShared: two pipelines drawing on one semaphore share
// its slots, a caller that gives up while waiting ends canceled, and one
// that may not wait is refused at once.
func TestConcurrencyLimitShared(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		b, err := limit.NewBulkhead(1)
		if err != nil {
			t.Fatal(err)
		}
		done := make(chan struct{})
		blocked := func(context.Context, middleware.State) (string, error) { <-done; return "ok", nil }
		p1 := mustPipeline(t, middleware.ConcurrencyLimit(b, time.Minute))
		p2 := mustPipeline(t, middleware.ConcurrencyLimit(b, time.Minute))
		go func() { _, _ = p1.Do(context.Background(), blocked) }()
		synctest.Wait()
		ctx, cancel := context.WithTimeout(t.Context(), time.Second)
		defer cancel()
		_, err = p2.Do(ctx, blocked)
		if e := asError(t, err); e.Reason != observe.ReasonCanceled {
			t.Errorf("got %v, want canceled while waiting for the slot", err)
		}
		// A wait of 0: refused at once while the slot is taken.
		start := time.Now()
		_, err = mustPipeline(t, middleware.ConcurrencyLimit(b, 0)).Do(t.Context(), blocked)
		if e := asError(t, err); e.Reason != observe.ReasonConcurrency || time.Since(start) != 0 {
			t.Errorf("got %v after %v, want the concurrency limit at once", err, time.Since(start))
		}
		close(done)
	})
	tests := []struct {
		opt  middleware.Option
		want string
	}{
		{middleware.MaxConcurrent(0, time.Second), "MaxConcurrent(0, 1s)"},
		{middleware.MaxConcurrent(1, -time.Second), "MaxConcurrent(1, -1s)"},
		{middleware.ConcurrencyLimit(nil, 0), "ConcurrencyLimit(<nil>, 0s)"},
	}
	for _, tc := range tests {
		if _, err := middleware.New[string]("x", tc.opt); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("got %v, want an error naming %s", err, tc.want)
		}
	}
	if _, err := limit.NewBulkhead(0); err == nil {
		t.Error("NewBulkhead(0): want an error")
	}
}

// TestConcurrencyWait: the wait of the last concurrency limit the options
// set, and whether they set one.
func TestConcurrencyWait(t *testing.T) {
	b, err := limit.NewBulkhead(2)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		opts []middleware.Option
		want time.Duration
		set  bool
	}{
		{"none", []middleware.Option{middleware.MaxAttempts(2), nil}, 0, false},
		{"MaxConcurrent", []middleware.Option{middleware.MaxConcurrent(3, time.Second)}, time.Second, true},
		{"no wait", []middleware.Option{middleware.MaxConcurrent(3, 0)}, 0, true},
		{"the last one", []middleware.Option{middleware.MaxConcurrent(3, time.Second), middleware.ConcurrencyLimit(b, time.Minute)}, time.Minute, true},
		{"invalid", []middleware.Option{middleware.MaxConcurrent(0, time.Second)}, 0, false},
	}
	for _, tt := range tests {
		if got, set := middleware.ConcurrencyWait(tt.opts...); got != tt.want || set != tt.set {
			t.Errorf("%s: got (%v, %v), want (%v, %v)", tt.name, got, set, tt.want, tt.set)
		}
	}
}
