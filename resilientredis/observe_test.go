package resilientredis_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/resilientgo/resilient/breaker"
	"github.com/resilientgo/resilient/observe"
	"github.com/resilientgo/resilient/observe/observetest"
	"github.com/resilientgo/resilient/resilientredis"
)

// TestObserveTransitions: on a Redis of the test's own, killed and started
// again, each feature sends one SharedStateUnavailable when Redis goes and
// one SharedStateRestored when it is back, however many round trips fail
// in between, with what it does meanwhile.
func TestObserveTransitions(t *testing.T) {
	t.Parallel()
	srv := startServer(t)
	rdb := srv.client()
	rec := &observetest.Recorder{}
	const timeout = 200 * time.Millisecond
	opts := []resilientredis.Option{resilientredis.Observe(rec), resilientredis.Timeout(timeout)}
	ctx := context.Background()

	store, err := resilientredis.NewStore(rdb, opts...)
	if err != nil {
		t.Fatal(err)
	}
	limiter, err := resilientredis.NewLimiter(rdb, "openai", 1000, time.Minute, opts...)
	if err != nil {
		t.Fatal(err)
	}
	sem := semaphoreOn(t, srv, 2, append(opts, resilientredis.Lease(time.Second))...)
	shared, err := resilientredis.ShareBreaker(ctx, rdb, breaker.New(breaker.Settings{Name: "openai", Failures: 3, Delay: time.Second}), "openai",
		append(opts, resilientredis.PollInterval(50*time.Millisecond))...)
	if err != nil {
		t.Fatal(err)
	}
	defer shared.Close()
	// Each feature's round trips; the breaker makes its own every poll.
	use := func() {
		_, _, _ = store.Get(ctx, "k")
		_ = limiter.Acquire(ctx, 1)
		if release, err := sem.Acquire(ctx, 0); err == nil {
			release()
		}
	}
	use()
	if got := rec.Events(); len(got) != 0 {
		t.Fatalf("while Redis answers: got events %+v, want none", got)
	}

	srv.kill()
	// Failures for longer than a probe interval (1 s): the probes fail too.
	for end := time.Now().Add(1500 * time.Millisecond); time.Now().Before(end); time.Sleep(100 * time.Millisecond) {
		use()
	}
	want := map[string]observe.SharedStateUnavailable{
		"store": {Feature: "store", Key: resilientredis.DefaultStorePrefix + "*",
			Action: observe.SharedFailClosed, Detail: "tool calls fail without running"},
		"limiter": {Feature: "limiter", Key: resilientredis.DefaultLimiterPrefix + "{openai}",
			Action: observe.SharedFailOpen, Detail: "admitting without the shared limit"},
		"semaphore": {Feature: "semaphore", Key: resilientredis.DefaultSemaphorePrefix + "provider",
			Action: observe.SharedLocal, Detail: "admitting up to 2 at once in this process"},
		"breaker": {Feature: "breaker", Key: resilientredis.DefaultBreakerPrefix + "openai",
			Action: observe.SharedLocal, Detail: "the breaker works alone"},
	}
	down := observetest.Of[observe.SharedStateUnavailable](rec)
	if len(down) != len(want) {
		t.Errorf("while Redis is down: got %d SharedStateUnavailable, want one per feature: %+v", len(down), down)
	}
	for _, e := range down {
		if e != want[e.Feature] {
			t.Errorf("got %+v, want %+v", e, want[e.Feature])
		}
	}
	if got := observetest.Of[observe.SharedStateRestored](rec); len(got) != 0 {
		t.Errorf("while Redis is down: got %+v, want no SharedStateRestored", got)
	}

	srv.start()
	restored := func() map[string]observe.SharedStateRestored {
		m := map[string]observe.SharedStateRestored{}
		for _, e := range observetest.Of[observe.SharedStateRestored](rec) {
			m[e.Feature] = e
		}
		return m
	}
	if _, ok := eventually(10*time.Second, func() bool { use(); return len(restored()) == len(want) }); !ok {
		t.Fatalf("after Redis came back: got %+v, want one SharedStateRestored per feature", restored())
	}
	for range 5 { // more round trips that succeed report nothing more
		use()
	}
	time.Sleep(200 * time.Millisecond) // the breaker's polls
	for _, e := range restored() {
		if e.Key != want[e.Feature].Key || e.Down < time.Second {
			t.Errorf("got %+v, want key %s and down for over a second", e, want[e.Feature].Key)
		}
	}
	if got := observetest.Of[observe.SharedStateRestored](rec); len(got) != len(want) {
		t.Errorf("got %d SharedStateRestored, want one per feature: %+v", len(got), got)
	}
	if got := observetest.Of[observe.SharedStateUnavailable](rec); len(got) != len(want) {
		t.Errorf("got %d SharedStateUnavailable in all, want one per feature: %+v", len(got), got)
	}
}

// TestObserveWithLogger: a program that sets both the Logger and a log
// observer on the same logger reads each line once; the other observers
// still receive the events; a log observer alone writes the lines.
func TestObserveWithLogger(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		logger bool // Logger(l)
		log    bool // Observe(observe.Log(l))
	}{
		{"Logger", true, false},
		{"log observer", false, true},
		{"both", true, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			logger, msgs := newRecorder()
			rec := &observetest.Recorder{}
			opts := []resilientredis.Option{resilientredis.Observe(rec)}
			if tt.logger {
				opts = append(opts, resilientredis.Logger(logger))
			}
			if tt.log {
				opts = append(opts, resilientredis.Observe(observe.Log(logger)))
			}
			l, err := resilientredis.NewLimiter(downClient(t), "openai", 10, time.Minute, opts...)
			if err != nil {
				t.Fatal(err)
			}
			for range 3 {
				_ = l.Acquire(context.Background(), 1)
			}
			if got := count(msgs(), "redis unavailable"); got != 1 {
				t.Errorf(`"redis unavailable" lines: got %d, want 1: %q`, got, msgs())
			}
			if got := observetest.Of[observe.SharedStateUnavailable](rec); len(got) != 1 {
				t.Errorf("the recorder's events: got %+v, want one SharedStateUnavailable", got)
			}
		})
	}
}

// TestObserveRedactsKey: credentials pasted into a key never reach an
// event nor a log line.
func TestObserveRedactsKey(t *testing.T) {
	t.Parallel()
	var logs observetest.LogBuffer
	rec := &observetest.Recorder{}
	const key = "redis://app:s3cretPassw0rd@cache.internal:6379/0"
	l, err := resilientredis.NewLimiter(downClient(t), key, 10, time.Minute,
		resilientredis.Observe(rec), resilientredis.Logger(logs.Logger()))
	if err != nil {
		t.Fatal(err)
	}
	_ = l.Acquire(context.Background(), 1)
	got := observetest.Of[observe.SharedStateUnavailable](rec)
	if len(got) != 1 || strings.Contains(got[0].Key, "s3cret") || !strings.Contains(got[0].Key, "cache.internal") {
		t.Errorf("got %+v, want one event whose key has the host and not the password", got)
	}
	if out := logs.String(); strings.Contains(out, "s3cret") || !strings.Contains(out, "redis unavailable") {
		t.Errorf("got the log %q, want a line without the password", out)
	}
}

func TestObserveNil(t *testing.T) {
	t.Parallel()
	_, err := resilientredis.NewSemaphore(downClient(t), "k", 1, resilientredis.Observe(nil))
	if want := "resilientredis: Observe(nil)"; err == nil || err.Error() != want {
		t.Errorf("got %v, want %q", err, want)
	}
}
