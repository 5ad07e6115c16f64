package middleware_test

import (
	"bytes"
	"context"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/resilientgo/resilient/middleware"
	"github.com/resilientgo/resilient/observe"
)

// retryTimes records when each retry was reported.
type retryTimes struct {
	mu    sync.Mutex
	times []time.Time
}

func (r *retryTimes) Start(ctx context.Context, _ observe.Start) context.Context { return ctx }
func (r *retryTimes) Observe(_ context.Context, e observe.Event) {
	if _, ok := e.(observe.RetryScheduled); ok {
		r.mu.Lock()
		r.times = append(r.times, time.Now())
		r.mu.Unlock()
	}
}

// A retry is reported (and logged) when it starts, after its wait; one
// that never goes out, because the caller gave up during the wait, is not
// reported at all.
func TestARetryIsReportedWhenItStarts(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		rec := &retryTimes{}
		var log bytes.Buffer
		p := mustPipeline(t, middleware.Observe(rec), middleware.Logger(slog.New(slog.NewTextHandler(&log, nil))))

		start := time.Now()
		if _, err := p.Do(t.Context(), newScript(fails(retryAfter(err429, 7*time.Second)), succeeds("ok")).fn); err != nil {
			t.Fatal(err)
		}
		if len(rec.times) != 1 || rec.times[0].Sub(start) != 7*time.Second {
			t.Fatalf("retries reported at %v after the start, want one at 7s, as it went out", offsets(rec.times, start))
		}

		ctx, cancel := context.WithCancel(t.Context())
		time.AfterFunc(3*time.Second, cancel) // during the wait
		log.Reset()
		if _, err := p.Do(ctx, newScript(fails(retryAfter(err429, 7*time.Second)), succeeds("never")).fn); err == nil {
			t.Fatal("the call succeeded, want it canceled during the wait")
		}
		if len(rec.times) != 1 || strings.Contains(log.String(), "retr") {
			t.Errorf("a retry that never went out was reported (%d reports) or logged: %s", len(rec.times)-1, log.String())
		}
	})
}

func offsets(times []time.Time, start time.Time) []time.Duration {
	var out []time.Duration
	for _, t := range times {
		out = append(out, t.Sub(start))
	}
	return out
}
