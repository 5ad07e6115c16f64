package llms_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	lcllms "github.com/tmc/langchaingo/llms"

	"github.com/resilientgo/resilient/breaker"
	"github.com/resilientgo/resilient/faultserver"
	"github.com/resilientgo/resilient/internal/scripted"
	"github.com/resilientgo/resilient/limit"
	"github.com/resilientgo/resilient/llms"
	"github.com/resilientgo/resilient/middleware"
	"github.com/resilientgo/resilient/observe"
	"github.com/resilientgo/resilient/observe/observetest"
	"github.com/resilientgo/resilient/taxonomy"
)

// deployments starts one in-memory fault server per script, each a
// deployment of the same model, and returns the servers and a real client
// of each (with the evidence transport), named "d0", "d1"...
func deployments(t *testing.T, f faultserver.Format, scripts ...[]faultserver.Step) ([]*faultserver.Server, []lcllms.Model) {
	t.Helper()
	var servers []*faultserver.Server
	var members []lcllms.Model
	for i, script := range scripts {
		s := faultserver.NewInMemory(script...)
		t.Cleanup(s.Close)
		servers = append(servers, s)
		members = append(members, llms.Named(realClient(t, s, f), fmt.Sprintf("d%d", i)))
	}
	return servers, members
}

func mustPool(t *testing.T, members []lcllms.Model, opts ...llms.Option) *llms.Model {
	t.Helper()
	p, err := llms.NewPool(members, opts...)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// counts returns each server's request count.
func counts(servers []*faultserver.Server) []int {
	out := make([]int, len(servers))
	for i, s := range servers {
		out[i] = s.Count()
	}
	return out
}

// TestPoolBreakerMovesTrafficAndBack: three deployments behind real
// clients; one starts failing every request. Each call that meets it is
// answered by another deployment (one extra request), and once its breaker
// opens it gets no request at all: every call costs one request. When it
// has recovered, the probe after the breaker's delay finds it, and it gets
// its share of the traffic back.
func TestPoolBreakerMovesTrafficAndBack(t *testing.T) {
	forEachProvider(t, func(t *testing.T, f faultserver.Format) {
		const delay = 10 * time.Second
		servers, members := deployments(t, f,
			[]faultserver.Step{faultserver.Status(503, "Service Unavailable")},
			[]faultserver.Step{faultserver.Reply("ok")},
			[]faultserver.Step{faultserver.Reply("ok")})
		pool := mustPool(t, members, llms.Middleware(middleware.CircuitBreaker(3, delay)))
		sick := pool.Pool().Members()[0].Breaker
		calls := 0
		for sick.State() != observe.BreakerOpen {
			if _, err := pool.GenerateContent(t.Context(), hello()); err != nil {
				t.Fatalf("call %d: %v", calls, err)
			}
			calls++
			if sick.State() != observe.BreakerOpen {
				// One call at a time, the pool sends the calls to the members
				// healthier than d0 once it has failed, save a probe when d0
				// has had no call for its breaker's delay.
				time.Sleep(delay + time.Second)
			}
		}
		if got := counts(servers); got[0] != 3 || got[0]+got[1]+got[2] != calls+3 {
			t.Errorf("before the circuit opened: requests %v over %d calls, want 3 to d0, each answered elsewhere", got, calls)
		}
		before := counts(servers)
		for range 30 {
			if _, err := pool.GenerateContent(t.Context(), hello()); err != nil {
				t.Fatal(err)
			}
		}
		stream := lcllms.WithStreamingFunc(func(context.Context, []byte) error { return nil })
		for range 3 { // streamed calls share the members' breakers
			if _, err := pool.GenerateContent(t.Context(), hello(), stream); err != nil {
				t.Fatal(err)
			}
		}
		after := counts(servers)
		if after[0] != before[0] || after[1]+after[2]-before[1]-before[2] != 33 {
			t.Errorf("while d0's circuit is open: requests %v then %v, want none to d0 and one per call", before, after)
		}

		servers[0].SetScript(faultserver.Reply("ok")) // d0 recovers
		time.Sleep(delay)
		before = counts(servers)
		for range 30 {
			if _, err := pool.GenerateContent(t.Context(), hello()); err != nil {
				t.Fatal(err)
			}
		}
		after = counts(servers)
		if got := after[0] - before[0]; got != 10 || sick.State() != observe.BreakerClosed {
			t.Errorf("after recovery: d0 took %d of 30 requests, breaker %v; want 10, closed", got, sick.State())
		}
	})
}

// TestPoolUnderConcurrencyLimit: 200 callers at once through a model, and
// through a pool, limited to 8 attempts in flight: the fault server never
// answers more than 8 at once, callers beyond wait at most the wait
// allowed, and then fail with the concurrency reason, without a request,
// reported as refusals and never counted by a breaker. The synctest bubble
// (and goleak, after the package's tests) proves that no goroutine is left
// behind.
func TestPoolUnderConcurrencyLimit(t *testing.T) {
	const (
		callers = 200
		n       = 8
		work    = time.Second
		maxWait = 10*time.Second + work/2
	)
	// Every breaker opens at its first failure: a refusal counted as one
	// would open it.
	guard := []middleware.Option{middleware.CircuitBreaker(1, time.Minute)}
	build := map[string]func(t *testing.T, s *faultserver.Server, obs middleware.Option) *llms.Model{
		"model": func(t *testing.T, s *faultserver.Server, obs middleware.Option) *llms.Model {
			return mustWrap(t, realClient(t, s, faultserver.OpenAI), llms.Middleware(append(guard, obs, middleware.MaxConcurrent(n, maxWait))...))
		},
		"pool": func(t *testing.T, s *faultserver.Server, obs middleware.Option) *llms.Model {
			return mustPool(t, []lcllms.Model{realClient(t, s, faultserver.OpenAI), realClient(t, s, faultserver.OpenAI)},
				llms.Middleware(append(guard, obs, middleware.MaxConcurrent(n, maxWait))...))
		},
		"pool members": func(t *testing.T, s *faultserver.Server, obs middleware.Option) *llms.Model {
			a := llms.Member(realClient(t, s, faultserver.OpenAI), middleware.MaxConcurrent(n/2, maxWait))
			b := llms.Member(realClient(t, s, faultserver.OpenAI), middleware.MaxConcurrent(n/2, maxWait))
			return mustPool(t, []lcllms.Model{a, b}, llms.Middleware(append(guard, obs)...))
		},
	}
	for name, build := range build {
		t.Run(name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				s := faultserver.NewInMemory(faultserver.Reply("ok").After(work))
				defer s.Close()
				rec := &observetest.Recorder{}
				m := build(t, s, middleware.Observe(rec))
				var (
					wg            sync.WaitGroup
					mu            sync.Mutex
					ok, refused   int
					longest, fail time.Duration
				)
				for range callers {
					wg.Go(func() {
						start := time.Now()
						_, err := m.GenerateContent(context.Background(), hello())
						took := time.Since(start)
						mu.Lock()
						defer mu.Unlock()
						switch {
						case err == nil:
							ok++
							longest = max(longest, took)
						case errors.Is(err, limit.ErrConcurrency):
							refused++
							fail = max(fail, took)
						default:
							t.Errorf("a call failed with %v", err)
						}
					})
				}
				wg.Wait()
				if most := s.MaxInFlight(); most != n {
					t.Errorf("the server answered %d at most at once, want %d", most, n)
				}
				if ok+refused != callers || s.Count() != ok {
					t.Errorf("%d answered, %d refused, %d requests; want %d calls, one request per answer", ok, refused, s.Count(), callers)
				}
				if fail > maxWait || longest > maxWait+work {
					t.Errorf("the longest refused call took %v, the longest answered %v; want at most %v and %v", fail, longest, maxWait, maxWait+work)
				}
				// In batches of n, one per second: those that started within the wait.
				if want := n * 11; ok != want {
					t.Errorf("%d answered, want %d", ok, want)
				}
				if r := observetest.Of[observe.Refusal](rec); len(r) != refused || (refused > 0 && r[0].Reason != observe.ReasonConcurrency) {
					t.Errorf("%d refusal events (%+v), want %d for the concurrency limit", len(r), r[:min(len(r), 1)], refused)
				}
				breakers := []*breaker.Breaker{m.Breaker()}
				if p := m.Pool(); p != nil {
					breakers = nil
					for _, st := range p.Members() {
						breakers = append(breakers, st.Breaker)
					}
				}
				for _, b := range breakers {
					if b.State() != observe.BreakerClosed {
						t.Errorf("breaker %s is %v, want closed: a refusal is local overload", b.Name(), b.State())
					}
				}
			})
		})
	}
}

// TestPoolErrorsNameMembers: when every deployment fails, the error lists
// each attempt with its member; observers see the members as the targets
// of the attempts.
func TestPoolErrorsNameMembers(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		_, members := deployments(t, faultserver.OpenAI,
			[]faultserver.Step{faultserver.Overloaded()},
			[]faultserver.Step{faultserver.Status(503, "Service Unavailable")},
			[]faultserver.Step{faultserver.BadGateway()})
		rec := &observetest.Recorder{}
		pool := mustPool(t, members, llms.Name("gpt-pool"), llms.Middleware(middleware.Observe(rec)))
		_, err := pool.GenerateContent(t.Context(), hello())
		var final *middleware.Error
		if !errors.As(err, &final) || final.Reason != observe.ReasonExhausted || final.Target != "gpt-pool" {
			t.Fatalf("got %v, want gpt-pool exhausted", err)
		}
		for _, want := range []string{"attempt 1 to d0:", "attempt 2 to d1:", "attempt 3 to d2:", "502"} {
			if !strings.Contains(err.Error(), want) {
				t.Errorf("error %q does not say %q", err, want)
			}
		}
		var attempts []string
		for _, e := range observetest.Of[observe.AttemptEnd](rec) {
			attempts = append(attempts, e.Target)
		}
		if fmt.Sprint(attempts) != "[d0 d1 d2]" {
			t.Errorf("attempts ended on %v, want d0 d1 d2", attempts)
		}
		ends := observetest.Of[observe.CallEnd](rec)
		if len(ends) != 1 || ends[0].Target.Name != "gpt-pool" || ends[0].Attempts != 3 {
			t.Errorf("call ends %+v, want one of gpt-pool with 3 attempts", ends)
		}
	})
}

// TestPoolFallsBackWhenEveryMemberIsDown: with every member's circuit open
// the pool fails fast, saying so for each member, and the call's fallback
// answers it.
func TestPoolFallsBackWhenEveryMemberIsDown(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		servers, members := deployments(t, faultserver.OpenAI,
			[]faultserver.Step{faultserver.Status(503, "down")}, []faultserver.Step{faultserver.Status(503, "down")},
			[]faultserver.Step{faultserver.Reply("from the fallback")})
		pool := mustPool(t, members[:2], llms.Fallbacks(members[2]), llms.Middleware(middleware.CircuitBreaker(1, time.Minute)))
		for range 2 {
			if resp, err := pool.GenerateContent(t.Context(), hello()); err != nil || text(resp) != "from the fallback" {
				t.Fatalf("got %v, want the fallback's answer", err)
			}
		}
		if got := counts(servers); fmt.Sprint(got) != "[1 1 2]" {
			t.Errorf("requests %v, want each member once (their circuits opened), the fallback twice", got)
		}
		alone := mustPool(t, members[:2], llms.Name("alone"), llms.Middleware(middleware.CircuitBreaker(1, time.Minute)))
		for _, m := range alone.Pool().Members() {
			m.Breaker.Open()
		}
		_, err := alone.GenerateContent(t.Context(), hello())
		if !errors.Is(err, middleware.ErrCircuitOpen) || !strings.Contains(err.Error(), "d0: circuit open (1m0s left); d1: circuit open (1m0s left)") {
			t.Errorf("got %v, want circuit open with each member's state", err)
		}
	})
}

// TestPoolStickyKey: calls with one sticky key stay on one member, the key
// never reaches a provider, and the caller's metadata is left as it was.
func TestPoolStickyKey(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		servers, members := deployments(t, faultserver.OpenAI, nil, nil, nil)
		pool := mustPool(t, members)
		md := map[string]any{"user": "u-1"}
		for range 6 {
			if _, err := pool.GenerateContent(t.Context(), hello(), lcllms.WithMetadata(md), llms.StickyKey("conversation-42")); err != nil {
				t.Fatal(err)
			}
		}
		got := counts(servers)
		if got[0]+got[1]+got[2] != 6 || (got[0] != 6 && got[1] != 6 && got[2] != 6) {
			t.Errorf("requests %v, want all six on one member", got)
		}
		for _, s := range servers {
			for _, r := range s.Requests() {
				if strings.Contains(string(r.Body), "sticky") || !strings.Contains(string(r.Body), `"user":"u-1"`) {
					t.Errorf("request body %s: want the caller's metadata and no sticky key", r.Body)
				}
			}
		}
		if len(md) != 1 {
			t.Errorf("the caller's metadata became %v", md)
		}
		// A model that is not a pool ignores the key, and does not send it.
		s := faultserver.NewInMemory()
		defer s.Close()
		if _, err := mustWrap(t, realClient(t, s, faultserver.OpenAI)).GenerateContent(t.Context(), hello(), llms.StickyKey("k")); err != nil {
			t.Fatal(err)
		}
		if body := string(s.Requests()[0].Body); strings.Contains(body, "sticky") || strings.Contains(body, "metadata") {
			t.Errorf("a plain model sent %s", body)
		}
	})
}

// TestPoolMixedProvidersAndStreams: members of different providers each
// answer through their own client; a stream that fails on one member
// before its first chunk is retried on another, and the caller sees one
// clean stream.
func TestPoolMixedProvidersAndStreams(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		a := faultserver.NewInMemory(faultserver.Overloaded())
		o := faultserver.NewInMemory(faultserver.Reply("from openai"))
		defer a.Close()
		defer o.Close()
		pool := mustPool(t, []lcllms.Model{realClient(t, a, faultserver.Anthropic), realClient(t, o, faultserver.OpenAI)})
		if got, want := pool.Name(), "pool(anthropic/claude-3-5-haiku-latest, openai/gpt-4o-mini)"; got != want {
			t.Errorf("name %q, want %q", got, want)
		}
		var chunks []string
		stream := lcllms.WithStreamingFunc(func(_ context.Context, b []byte) error { chunks = append(chunks, string(b)); return nil })
		resp, err := pool.GenerateContent(t.Context(), hello(), stream)
		if err != nil || text(resp) != "from openai" || strings.Join(chunks, "") != "from openai" {
			t.Fatalf("got (%v, %v), chunks %q; want the openai member's stream", resp, err, chunks)
		}
		if a.Count() != 1 || o.Count() != 1 || !a.Requests()[0].Stream {
			t.Errorf("requests: anthropic %d, openai %d; want one streamed to each", a.Count(), o.Count())
		}
	})
}

// TestPoolConstruction: names, and what a pool refuses.
func TestPoolConstruction(t *testing.T) {
	x, y := scripted.New(), scripted.New()
	p := mustPool(t, []lcllms.Model{x, y, llms.Member(llms.Named(scripted.New(), "third"), middleware.Weight(2))})
	var names []string
	for _, m := range p.Pool().Members() {
		names = append(names, fmt.Sprintf("%s/%d", m.Name, m.Weight))
	}
	if fmt.Sprint(names) != "[scripted/1 scripted#2/1 third/2]" || p.Name() != "pool(scripted, scripted#2, third)" {
		t.Errorf("members %v in %q", names, p.Name())
	}
	if p.Breaker() != nil || p.Unwrap() != nil {
		t.Error("a pool has a breaker or a wrapped model of its own")
	}
	if p := mustPool(t, []lcllms.Model{llms.Named(llms.Member(x, middleware.Weight(3)), "w")}); p.Pool().Members()[0].Weight != 3 {
		t.Error("Named over Member lost the weight")
	}
	wrapped := mustWrap(t, scripted.New())
	tests := []struct {
		name    string
		members []lcllms.Model
		opts    []llms.Option
		want    string
	}{
		{"no member", nil, nil, "at least one member"},
		{"a nil member", []lcllms.Model{nil}, nil, "member 0 is nil"},
		{"a wrapped member", []lcllms.Model{wrapped}, nil, "member 0 is already wrapped"},
		{"a pool option in a member", []lcllms.Model{llms.Member(x, middleware.MaxAttempts(5))}, nil, "applies to the pool as a whole"},
		{"two members of one name", []lcllms.Model{llms.Named(x, "a"), llms.Named(y, "a")}, nil, `member 1 is named "a"`},
		{"a pool named like a member", []lcllms.Model{llms.Named(x, "a")}, []llms.Option{llms.Name("a")}, "named \"a\" like one of its members"},
		{"ShareLimits", []lcllms.Model{x}, []llms.Option{llms.ShareLimits(wrapped)}, "ShareLimits applies to a model"},
	}
	for _, tc := range tests {
		m, err := llms.NewPool(tc.members, tc.opts...)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: got %v, want an error saying %q", tc.name, err, tc.want)
			continue
		}
		if _, err := m.GenerateContent(t.Context(), hello()); taxonomy.Classify(err).Kind != taxonomy.Programming {
			t.Errorf("%s: the model returned answers %v, want the programming error", tc.name, err)
		}
	}
}

// TestConcurrencyLimitSharedByStreams: a model's streamed and plain calls
// draw on one concurrency limit.
func TestConcurrencyLimitSharedByStreams(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := faultserver.NewInMemory(faultserver.Reply("ok").After(time.Second))
		defer s.Close()
		m := mustWrap(t, realClient(t, s, faultserver.OpenAI), llms.Middleware(middleware.MaxConcurrent(1, 0)))
		done := make(chan struct{})
		go func() {
			defer close(done)
			if _, err := m.GenerateContent(context.Background(), hello()); err != nil {
				t.Error(err)
			}
		}()
		synctest.Wait()
		stream := lcllms.WithStreamingFunc(func(context.Context, []byte) error { return nil })
		if _, err := m.GenerateContent(t.Context(), hello(), stream); !errors.Is(err, limit.ErrConcurrency) {
			t.Errorf("a stream beside a call in flight: got %v, want the concurrency limit", err)
		}
		<-done
	})
}

// TestPoolSickDeploymentCostsOneRequest: three deployments behind real
// clients, one degraded (slow 503s), one rate limited (429 with a
// Retry-After), one healthy. Every call succeeds; no call sends two
// requests to one deployment nor waits for a backoff or the Retry-After:
// a retry goes at once to another deployment. The degraded one is tried
// once, after which the pool prefers the healthier ones (its probe would
// come after a breaker delay without calls, longer than the test), the
// rate-limited one once, for its cooldown.
// A model with the same deployments as fallbacks sends the degraded one
// its three attempts.
func TestPoolSickDeploymentCostsOneRequest(t *testing.T) {
	forEachProvider(t, func(t *testing.T, f faultserver.Format) {
		const slow = 2 * time.Second
		servers, members := deployments(t, f,
			[]faultserver.Step{faultserver.Status(503, "Service Unavailable").After(slow)},
			[]faultserver.Step{faultserver.RateLimited("50")},
			[]faultserver.Step{faultserver.Reply("ok")})
		pool := mustPool(t, members)
		const calls = 60
		for i := range calls {
			before := counts(servers)
			start := time.Now()
			if resp, err := pool.GenerateContent(t.Context(), hello()); err != nil || text(resp) != "ok" {
				t.Fatalf("call %d: got %v, want ok", i, err)
			}
			took := time.Since(start)
			after := counts(servers)
			for j := range servers {
				if after[j]-before[j] > 1 {
					t.Errorf("call %d sent %d requests to d%d, want at most one", i, after[j]-before[j], j)
				}
			}
			if want := time.Duration(after[0]-before[0]) * slow; took != want {
				t.Errorf("call %d took %v, want %v: the degraded deployment's answers and no wait", i, took, want)
			}
		}
		got := counts(servers)
		if got[0] != 1 || got[1] != 1 || got[2] != calls {
			t.Errorf("requests %v over %d calls, want 1 to the degraded deployment, 1 to the rate-limited one, %d to the healthy one",
				got, calls, calls)
		}
		if total := got[0] + got[1] + got[2]; float64(total)/calls > 1.2 {
			t.Errorf("%d requests for %d calls", total, calls)
		}

		before := servers[0].Count()
		plain := mustWrap(t, members[0], llms.Fallbacks(members[2]))
		if _, err := plain.GenerateContent(t.Context(), hello()); err != nil {
			t.Fatal(err)
		}
		if got := servers[0].Count() - before; got != middleware.DefaultMaxAttempts {
			t.Errorf("with fallbacks alone the degraded deployment got %d requests, want %d", got, middleware.DefaultMaxAttempts)
		}
	})
}

// TestEmbedderConcurrencyLimit: an embedder's batches in flight are bounded
// too; a batch that finds no slot within the wait fails without a request.
func TestEmbedderConcurrencyLimit(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := faultserver.NewInMemory(faultserver.Reply("").After(time.Second))
		defer s.Close()
		e := mustEmbedder(t, realEmbedder(t, s, faultserver.OpenAI), llms.Middleware(middleware.MaxConcurrent(2, 0)))
		var wg sync.WaitGroup
		var mu sync.Mutex
		var ok, refused int
		for range 5 {
			wg.Go(func() {
				_, err := e.CreateEmbedding(context.Background(), []string{"a text"})
				mu.Lock()
				defer mu.Unlock()
				switch {
				case err == nil:
					ok++
				case errors.Is(err, limit.ErrConcurrency):
					refused++
				default:
					t.Errorf("got %v", err)
				}
			})
		}
		wg.Wait()
		if ok != 2 || refused != 3 || s.Count() != 2 || s.MaxInFlight() != 2 {
			t.Errorf("%d answered, %d refused, %d requests, %d at most in flight; want 2, 3, 2, 2", ok, refused, s.Count(), s.MaxInFlight())
		}
	})
}
