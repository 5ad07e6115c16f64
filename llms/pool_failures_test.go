package llms_test

import (
	"errors"
	"log/slog"
	"strings"
	"testing"
	"time"

	lcllms "github.com/tmc/langchaingo/llms"

	"github.com/resilientgo/resilient/faultserver"
	"github.com/resilientgo/resilient/llms"
	"github.com/resilientgo/resilient/middleware"
	"github.com/resilientgo/resilient/observe"
	"github.com/resilientgo/resilient/observe/observetest"
	"github.com/resilientgo/resilient/pool"
)

// TestPoolStreamCutAfterText: a stream that one deployment cuts after
// delivering text. Without a restart hook the call stops there, with the
// partial text, and asks no other deployment: the caller has the text
// already. With one, the restart goes at once to the other deployment, the
// caller sees the text of the second stream only (after the hook), the
// first deployment's health and breaker are charged once, and the restart
// is reported naming the deployment whose stream broke.
func TestPoolStreamCutAfterText(t *testing.T) {
	forEachProvider(t, func(t *testing.T, f faultserver.Format) {
		{
			servers, members := deployments(t, f, []faultserver.Step{faultserver.DropStream("Hel")},
				[]faultserver.Step{faultserver.ReplyChunks("Hel", "lo")})
			var c collector
			_, err := mustPool(t, members, llms.Middleware(middleware.Balance(pool.RoundRobin{}))).
				GenerateContent(t.Context(), hello(), lcllms.WithStreamingFunc(c.fn))
			var partial *llms.PartialStreamError
			if !errors.As(err, &partial) || partial.Partial != "Hel" || counts(servers)[1] != 0 {
				t.Fatalf("without a hook: got %v after %v requests, want the partial Hel from d0 alone", err, counts(servers))
			}

			servers, members = deployments(t, f, []faultserver.Step{faultserver.DropStream("Hel")},
				[]faultserver.Step{faultserver.ReplyChunks("Hel", "lo")})
			rec := &observetest.Recorder{}
			c = collector{}
			pool := mustPool(t, members, llms.OnStreamRestart(c.restart), llms.Middleware(middleware.Observe(rec)),
				llms.Middleware(middleware.Balance(pool.RoundRobin{})))
			start := time.Now()
			resp, err := pool.GenerateContent(t.Context(), hello(), lcllms.WithStreamingFunc(c.fn))
			if err != nil || text(resp) != "Hello" || c.text() != "Hello" {
				t.Fatalf("with a hook: got (%v, %v), shown %q; want Hello from d1", resp, err, c.text())
			}
			if got := counts(servers); got[0] != 1 || got[1] != 1 || time.Since(start) != 0 {
				t.Errorf("requests %v after %v, want one to each, the restart at once", got, time.Since(start))
			}
			st := pool.Pool().Members()
			if st[0].Health != 1-1.0/8 || st[1].Health != 1 {
				t.Errorf("health %.3f and %.3f, want d0 charged once (0.875), d1 untouched", st[0].Health, st[1].Health)
			}
			if r := observetest.Of[observe.StreamRestarted](rec); len(r) != 1 || r[0].Target != "d0" || r[0].Chunks != 1 {
				t.Errorf("restarts %+v, want one of d0 after 1 chunk", r)
			}
		}
	})
}

// TestPoolErrorsKeepSecrets: deployments whose error bodies echo an API
// key: neither the pool's final error, which lists every member tried, nor
// its log lines carry the key.
func TestPoolErrorsKeepSecrets(t *testing.T) {
	const key = "sk-proj-Abcdefghijklmnopqrstuvwxyz0123456789"
	forEachProvider(t, func(t *testing.T, f faultserver.Format) {
		echo := faultserver.Status(500, "upstream rejected key "+key)
		servers, members := deployments(t, f, []faultserver.Step{echo}, []faultserver.Step{echo})
		var logs strings.Builder
		logger := slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
		_, err := mustPool(t, members, llms.Middleware(middleware.Logger(logger))).GenerateContent(t.Context(), hello())
		if err == nil || counts(servers)[0] == 0 || counts(servers)[1] == 0 {
			t.Fatalf("got %v after %v requests, want a failure after each member", err, counts(servers))
		}
		if !strings.Contains(err.Error(), "d0") || !strings.Contains(err.Error(), "d1") {
			t.Errorf("the error does not name both members: %v", err)
		}
		for what, s := range map[string]string{"error": err.Error(), "logs": logs.String()} {
			if strings.Contains(s, key) || strings.Contains(s, key[8:]) {
				t.Errorf("the %s carry the key: %s", what, s)
			}
		}
	})
}

// TestMemberOutsidePool: a client marked as a pool member and used as a
// plain model or a fallback is that client, named and checked as its
// provider's, with the name Named gave it, as Member's documentation
// promises; a nil client under Member is refused as a nil one is.
func TestMemberOutsidePool(t *testing.T) {
	s := faultserver.NewInMemory(faultserver.Reply("hi"))
	defer s.Close()
	client := realClient(t, s, faultserver.OpenAI)
	plain, err := llms.New(client)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		m    lcllms.Model
		want string
	}{
		{llms.Member(client, middleware.Weight(2)), plain.Name()},
		{llms.Member(llms.Named(client, "east")), "east"},
		{llms.Named(llms.Member(client), "east"), "east"},
	} {
		started := &observetest.Recorder{}
		m, err := llms.New(c.m, llms.Middleware(middleware.Observe(started)))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := m.GenerateContent(t.Context(), hello()); err != nil {
			t.Errorf("New(%s): %v", m.Name(), err)
		}
		if st := started.Starts(); m.Name() != c.want || len(st) == 0 || st[0].Target.Provider != "openai" {
			t.Errorf("New: named %q, started %+v; want %q for openai", m.Name(), st, c.want)
		}
		var fallbacks []string
		rec := &observetest.Recorder{}
		failing := faultserver.NewInMemory(faultserver.Overloaded())
		defer failing.Close()
		primary, err := llms.New(llms.Named(realClient(t, failing, faultserver.OpenAI), "primary"), llms.Fallbacks(c.m),
			llms.Middleware(middleware.Observe(rec), middleware.MaxAttempts(1)))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := primary.GenerateContent(t.Context(), hello()); err != nil {
			t.Errorf("Fallbacks: %v", err)
		}
		for _, f := range observetest.Of[observe.Fallback](rec) {
			fallbacks = append(fallbacks, f.To)
		}
		if len(fallbacks) != 1 || fallbacks[0] != c.want {
			t.Errorf("Fallbacks: fell back to %v, want %q", fallbacks, c.want)
		}
	}
	if _, err := llms.New(llms.Member(nil)); err == nil {
		t.Errorf("New(Member(nil)): no error")
	}
}
