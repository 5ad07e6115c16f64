package status_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	lcllms "github.com/tmc/langchaingo/llms"
	"github.com/tmc/langchaingo/llms/openai"
	"go.uber.org/goleak"

	"github.com/resilientgo/resilient"
	"github.com/resilientgo/resilient/breaker"
	"github.com/resilientgo/resilient/faultserver"
	"github.com/resilientgo/resilient/limit"
	"github.com/resilientgo/resilient/llms"
	"github.com/resilientgo/resilient/middleware"
	"github.com/resilientgo/resilient/observe"
	"github.com/resilientgo/resilient/observe/observetest"
	"github.com/resilientgo/resilient/status"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// openaiAgainst returns langchaingo's real OpenAI client for s, its
// transport reading the wire's evidence as resilient.HTTPClient's does.
func openaiAgainst(t *testing.T, s *faultserver.Server) lcllms.Model {
	t.Helper()
	llm, err := s.OpenAI(openai.WithHTTPClient(&http.Client{Transport: llms.NewTransport(s.Client().Transport)}))
	if err != nil {
		t.Fatal(err)
	}
	return llm
}

// serve makes one request of h and returns the status code and the body.
func serve(t *testing.T, h http.Handler, method, path string) (int, string) {
	t.Helper()
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequestWithContext(t.Context(), method, path, nil))
	if ct := rec.Header().Get("Content-Type"); ct != "application/json" {
		t.Errorf("%s %s: Content-Type %q, want application/json", method, path, ct)
	}
	return rec.Code, rec.Body.String()
}

// report returns the report h serves.
func report(t *testing.T, h http.Handler) status.Report {
	t.Helper()
	code, body := serve(t, h, "GET", "/")
	var r status.Report
	if err := json.Unmarshal([]byte(body), &r); code != http.StatusOK || err != nil {
		t.Fatalf("GET /: %d %v\n%s", code, err, body)
	}
	return r
}

// act posts an action and returns the breaker's state it answers with.
func act(t *testing.T, h http.Handler, path string) status.BreakerReport {
	t.Helper()
	code, body := serve(t, h, "POST", path)
	var b status.BreakerReport
	if err := json.Unmarshal([]byte(body), &b); code != http.StatusOK || err != nil {
		t.Fatalf("POST %s: %d %v\n%s", path, code, err, body)
	}
	return b
}

// ready returns the code and body of GET /ready.
func ready(t *testing.T, h http.Handler) string {
	t.Helper()
	code, body := serve(t, h, "GET", "/ready")
	return http.StatusText(code) + " " + strings.Join(strings.Fields(body), "")
}

// TestBreakerShownAsCallsMeetIt: after faults from the fault server
// through langchaingo's OpenAI client, the model's breaker is shown open
// for failures, the model unready, and calls are refused without a
// request; once its delay is over it is ready, and a call closes it. Forced
// open, it refuses calls for as long as it stays forced, and a reset lets
// them through; forced closed, failures reach the provider and do not open
// it.
func TestBreakerShownAsCallsMeetIt(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srv := faultserver.NewInMemory(faultserver.Overloaded())
		defer srv.Close()
		model := resilient.Model(openaiAgainst(t, srv), resilient.CircuitBreaker(2, 10*time.Second), resilient.MaxAttempts(1))
		reg := &status.Registry{}
		if err := reg.AddModel("chat", model); err != nil {
			t.Fatal(err)
		}
		h, readOnly := status.Handler(reg, status.AllowActions()), status.Handler(reg)
		call := func() error {
			_, err := model.Call(t.Context(), "Where is order 4471?")
			return err
		}
		breakerOf := func() status.BreakerReport { return *report(t, h).Models[0].Breaker }

		if got, want := breakerOf(), (status.BreakerReport{Name: "openai/gpt-4o-mini", State: "closed", Threshold: 2, RetriesAllowed: true}); got != want {
			t.Errorf("before any call: %+v, want %+v", got, want)
		}
		for range 2 {
			if err := call(); err == nil {
				t.Fatal("a call to an overloaded provider succeeded")
			}
		}
		if got, want := breakerOf(), (status.BreakerReport{Name: "openai/gpt-4o-mini", State: "open", Why: status.WhyFailures, RemainingSeconds: 10,
			Failures: 2, Threshold: 2, RetriesAllowed: true}); got != want {
			t.Errorf("after two failures: %+v, want %+v", got, want)
		}
		if got := ready(t, h); got != `Service Unavailable {"ready":false,"unready":["chat"]}` {
			t.Errorf("GET /ready while open: %s", got)
		}
		if err := call(); !errors.Is(err, resilient.ErrCircuitOpen) || srv.Count() != 2 {
			t.Errorf("a call while shown open: %v after %d requests, want ErrCircuitOpen and no request", err, srv.Count())
		}

		srv.SetScript(faultserver.Reply("Order 4471 shipped."))
		time.Sleep(10 * time.Second)
		if got := ready(t, h); got != `OK {"ready":true}` {
			t.Errorf("GET /ready once the delay is over: %s", got)
		}
		if err := call(); err != nil {
			t.Fatalf("the probe: %v", err)
		}
		if got := breakerOf(); got.State != "closed" || got.Why != "" {
			t.Errorf("after the probe answered: %+v, want closed", got)
		}

		if code, body := serve(t, readOnly, "POST", "/breakers/chat/force_open"); code != http.StatusForbidden || !strings.Contains(body, "AllowActions") {
			t.Errorf("an action without AllowActions: %d %s, want 403", code, body)
		}
		if got := act(t, h, "/breakers/chat/force_open"); got.State != "open" || got.Why != status.WhyForcedOpen {
			t.Errorf("force_open answered %+v", got)
		}
		time.Sleep(time.Hour) // far past its delay and its longest hold
		if err := call(); !errors.Is(err, resilient.ErrCircuitOpen) || srv.Count() != 3 {
			t.Errorf("a call an hour after force_open: %v after %d requests, want ErrCircuitOpen and no request", err, srv.Count())
		}
		if got := ready(t, h); got != `Service Unavailable {"ready":false,"unready":["chat"]}` {
			t.Errorf("GET /ready while forced open: %s", got)
		}
		if got := act(t, h, "/breakers/chat/reset"); got.State != "closed" || got.Why != "" {
			t.Errorf("reset answered %+v", got)
		}
		if err := call(); err != nil || srv.Count() != 4 {
			t.Errorf("a call after reset: %v after %d requests, want an answer from the 4th", err, srv.Count())
		}

		act(t, h, "/breakers/chat/force_closed")
		srv.SetScript(faultserver.Overloaded())
		for range 5 {
			if err := call(); err == nil || errors.Is(err, resilient.ErrCircuitOpen) {
				t.Errorf("a call while forced closed: %v, want the provider's overload", err)
			}
		}
		if got := breakerOf(); srv.Count() != 9 || got.State != "closed" || got.Why != status.WhyForcedClosed {
			t.Errorf("after 5 failures forced closed: %d requests, %+v; want 9, closed (forced)", srv.Count(), got)
		}

		for _, c := range []struct {
			path string
			code int
		}{
			{"/breakers/nosuch/reset", http.StatusNotFound},
			{"/breakers/chat/explode", http.StatusBadRequest},
			{"/models/chat/members/eastus/reset", http.StatusNotFound}, // not a pool
		} {
			if code, body := serve(t, h, "POST", c.path); code != c.code || !strings.Contains(body, `"error": "status: `) {
				t.Errorf("POST %s: %d %s, want %d with an error", c.path, code, body, c.code)
			}
		}
		if code, body := serve(t, h, "GET", "/breakers/chat/reset"); code != http.StatusMethodNotAllowed || !strings.Contains(body, "POST") {
			t.Errorf("GET of an action: %d %s, want 405", code, body)
		}
		if code, _ := serve(t, h, "GET", "/nosuch"); code != http.StatusNotFound {
			t.Errorf("GET /nosuch: %d, want 404", code)
		}
	})
}

// TestPoolMembersShownAsCallsMeetThem: a member whose key is refused is
// shown out of rotation with the account failure, the pool still ready;
// with every member out, the pool is unready and calls fail without a
// request; a member forced closed by an operator takes calls again.
func TestPoolMembersShownAsCallsMeetThem(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		eastus := faultserver.NewInMemory(faultserver.InvalidAPIKey())
		westus := faultserver.NewInMemory(faultserver.Reply("Hello from westus."))
		defer eastus.Close()
		defer westus.Close()
		model := resilient.Pool([]lcllms.Model{
			resilient.Named(openaiAgainst(t, eastus), "eastus"),
			resilient.Named(openaiAgainst(t, westus), "westus"),
		})
		reg := &status.Registry{}
		if err := reg.AddModel("chat", model); err != nil {
			t.Fatal(err)
		}
		h := status.Handler(reg, status.AllowActions())
		for range 4 {
			if answer, err := model.Call(t.Context(), "Say hello"); err != nil || answer != "Hello from westus." {
				t.Fatalf("got (%q, %v), want westus's answer", answer, err)
			}
		}
		if eastus.Count() != 1 {
			t.Fatalf("eastus got %d requests, want 1 (then out of rotation)", eastus.Count())
		}
		members := report(t, h).Models[0].Members
		east, west := members[0], members[1]
		if east.Name != "eastus" || east.Usable || east.SuspendedSeconds != 300 || !strings.Contains(east.AccountFailure, "401") ||
			east.Breaker == nil || east.Breaker.Why != status.WhyHeld {
			t.Errorf("eastus after a refused key: %+v (breaker %+v), want out of rotation for 5 min after a 401", east, east.Breaker)
		}
		if west.Name != "westus" || !west.Usable || west.SuspendedSeconds != 0 || west.AccountFailure != "" {
			t.Errorf("westus: %+v, want usable", west)
		}
		if got := ready(t, h); got != `OK {"ready":true}` {
			t.Errorf("GET /ready with westus usable: %s", got)
		}

		westus.SetScript(faultserver.QuotaExceeded())
		if _, err := model.Call(t.Context(), "Say hello"); err == nil {
			t.Fatal("a call with every member's account failing succeeded")
		}
		if got := ready(t, h); got != `Service Unavailable {"ready":false,"unready":["chat"]}` {
			t.Errorf("GET /ready with every member out: %s", got)
		}
		before := eastus.Count() + westus.Count()
		if _, err := model.Call(t.Context(), "Say hello"); err == nil || eastus.Count()+westus.Count() != before {
			t.Errorf("a call with every member shown out: %v after %d more requests, want an error and none", err, eastus.Count()+westus.Count()-before)
		}

		eastus.SetScript(faultserver.Reply("Hello from eastus."))
		if got := act(t, h, "/models/chat/members/eastus/force_closed"); got.State != "closed" || got.Why != status.WhyForcedClosed {
			t.Errorf("force_closed answered %+v", got)
		}
		if got := ready(t, h); got != `OK {"ready":true}` {
			t.Errorf("GET /ready with eastus forced closed: %s", got)
		}
		if answer, err := model.Call(t.Context(), "Say hello"); err != nil || answer != "Hello from eastus." {
			t.Errorf("got (%q, %v), want eastus's answer", answer, err)
		}
	})
}

// secret is a credential that no report may show.
const secret = "sk-proj-Zx8Qw3Er5Ty7Ui9Op1As2Df4Gh6Jk8Lz0Xc3Vb5Nm7Qw9Er"

// leaky is a shared-state feature whose key, detail and error carry a
// credential, as a misconfigured program's may.
type leaky struct{}

func (leaky) SharedState() observe.SharedState {
	return observe.SharedState{Feature: "store", Key: "tools:" + secret, Action: observe.SharedFailClosed,
		Detail: "api_key=" + secret, Down: 3 * time.Second, Err: errors.New("dial redis://:" + secret + "@redis:6379: refused")}
}

// TestReportRedactsEveryText: names, descriptions, keys, details and
// errors that hold a credential are shown with it redacted.
func TestReportRedactsEveryText(t *testing.T) {
	reg := &status.Registry{}
	l, err := limit.NewLocalLimiter(10, time.Second, resilient.Forever)
	if err != nil {
		t.Fatal(err)
	}
	bh, _ := limit.NewBulkhead(4)
	for _, err := range []error{
		reg.AddBreaker("tool "+secret, breaker.New(breaker.Settings{Name: "Bearer " + secret})),
		reg.AddLimiter("openai "+secret, l),
		reg.AddSemaphore("tools "+secret, bh),
		reg.AddShared("store "+secret, leaky{}),
	} {
		if err != nil {
			t.Fatal(err)
		}
	}
	code, body := serve(t, status.Handler(reg), "GET", "/")
	if code != http.StatusOK || strings.Contains(body, secret) || strings.Count(body, "[REDACTED]") < 7 {
		t.Errorf("GET /: %d, the credential shown or not every place redacted:\n%s", code, body)
	}
	rep := report(t, status.Handler(reg))
	if got := rep.Shared[0]; got.Reachable || got.Action != "fail_closed" || got.DownSeconds != 3 || got.Error == "" {
		t.Errorf("shared: %+v, want unreachable for 3 s, failing closed, with its error", got)
	}
	if got := rep.Limiters[0]; got.Type != "*limit.LocalLimiter" || got.Limit != "10 per 1s, waiting as long as the caller allows" {
		t.Errorf("limiter: %+v", got)
	}
	if got := rep.Semaphores[0]; got.Size == nil || *got.Size != 4 || got.InUse == nil || *got.InUse != 0 {
		t.Errorf("semaphore: %+v, want 4 slots, none in use", got)
	}
}

// TestSemaphoreInUse: the slots a call holds are shown in use while it
// holds them.
func TestSemaphoreInUse(t *testing.T) {
	bh, _ := limit.NewBulkhead(3)
	reg := &status.Registry{}
	_ = reg.AddSemaphore("tools", bh)
	inUse := func() int { return *reg.Report().Semaphores[0].InUse }
	var releases []func()
	for want := 1; want <= 3; want++ {
		r, err := bh.Acquire(t.Context(), 0)
		if err != nil {
			t.Fatal(err)
		}
		releases = append(releases, r)
		if got := inUse(); got != want {
			t.Errorf("%d slots taken: shown %d", want, got)
		}
	}
	for _, r := range releases {
		r()
		r() // a second release gives nothing back
	}
	if got := inUse(); got != 0 {
		t.Errorf("every slot given back: shown %d in use", got)
	}
}

// TestRegistryBounds: names are unique and non-empty, nil is refused, and
// the registry holds at most DefaultMaxEntries; removing one makes room.
func TestRegistryBounds(t *testing.T) {
	reg := &status.Registry{}
	b := breaker.New(breaker.Settings{})
	var nilBreaker *breaker.Breaker
	var nilLimiter *limit.LocalLimiter
	for _, err := range []error{
		reg.AddBreaker("", b),
		reg.AddBreaker("b", nilBreaker),
		reg.AddLimiter("l", nilLimiter),
		reg.AddModel("m", nil),
	} {
		if err == nil {
			t.Error("an invalid entry was added")
		}
	}
	for i := range status.DefaultMaxEntries {
		if err := reg.AddBreaker("b"+strings.Repeat("x", i), b); err != nil {
			t.Fatalf("entry %d: %v", i, err)
		}
	}
	if err := reg.AddBreaker("b", b); err == nil || errors.Is(err, status.ErrFull) {
		t.Errorf("a name added twice: %v, want an error that is not ErrFull", err)
	}
	if err := reg.AddBreaker("one more", b); !errors.Is(err, status.ErrFull) {
		t.Errorf("an entry past the bound: %v, want ErrFull", err)
	}
	reg.Remove("bx")
	reg.Remove("never added")
	if err := reg.AddBreaker("one more", b); err != nil {
		t.Errorf("after a removal: %v", err)
	}
	names := []string{}
	for _, br := range reg.Report().Breakers {
		names = append(names, br.Name)
	}
	if len(names) != status.DefaultMaxEntries || slices.Contains(names, "bx") || names[len(names)-1] != "one more" {
		t.Errorf("%d breakers listed, bx removed: %v, last %q", len(names), !slices.Contains(names, "bx"), names[len(names)-1])
	}
}

// TestActionsLogged: each action taken is logged with the breaker, the
// action and the client; a refused one is not.
func TestActionsLogged(t *testing.T) {
	var logs observetest.LogBuffer
	reg := &status.Registry{}
	_ = reg.AddBreaker("tool:refund", breaker.New(breaker.Settings{Name: "refund"}))
	h := status.Handler(reg, status.AllowActions(), status.Logger(slog.New(slog.NewTextHandler(&logs, nil))))
	act(t, h, "/breakers/tool:refund/force_open")
	serve(t, h, "POST", "/breakers/tool:refund/explode")
	serve(t, h, "POST", "/breakers/nosuch/reset")
	want := `level=WARN msg="breaker forced by an operator" name=tool:refund member="" action=force_open client=192.0.2.1:1234`
	if got := strings.TrimSpace(logs.String()); !strings.HasSuffix(got, want) || strings.Count(got, "\n") != 0 {
		t.Errorf("logged:\n%s\nwant one line ending in\n%s", got, want)
	}
}

// TestConcurrentReportsAndActions: reports, readiness and actions served
// at once, while calls change the state, race with nothing (run with
// -race).
func TestConcurrentReportsAndActions(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srv := faultserver.NewInMemory(faultserver.Overloaded(), faultserver.Reply("ok"))
		defer srv.Close()
		model := resilient.Model(openaiAgainst(t, srv), resilient.CircuitBreaker(1, time.Second), resilient.MaxAttempts(1))
		reg := &status.Registry{}
		_ = reg.AddModel("chat", model)
		h := status.Handler(reg, status.AllowActions())
		var wg sync.WaitGroup
		for i := range 4 {
			wg.Go(func() {
				for j := range 20 {
					_, _ = model.Call(t.Context(), "hi")
					serve(t, h, "GET", "/")
					serve(t, h, "GET", "/ready")
					serve(t, h, "POST", "/breakers/chat/"+[]string{"force_open", "reset", "force_closed"}[(i+j)%3])
					_ = reg.AddBreaker(fmt.Sprint("b", i, j), model.Breaker())
					reg.Remove(fmt.Sprint("b", i, j-1))
					time.Sleep(100 * time.Millisecond)
				}
			})
		}
		wg.Wait()
	})
}

// TestUnknownMember: an action on a member a pool does not have is a 404.
func TestUnknownMember(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srv := faultserver.NewInMemory()
		defer srv.Close()
		model := resilient.Pool([]lcllms.Model{resilient.Named(openaiAgainst(t, srv), "eastus")})
		reg := &status.Registry{}
		_ = reg.AddModel("chat", model)
		h := status.Handler(reg, status.AllowActions())
		if code, body := serve(t, h, "POST", "/models/chat/members/westus/force_open"); code != http.StatusNotFound ||
			!strings.Contains(body, `no member \"westus\" of pool \"chat\"`) {
			t.Errorf("an action on an unknown member: %d %s", code, body)
		}
		if code, body := serve(t, h, "POST", "/breakers/chat/force_open"); code != http.StatusNotFound {
			t.Errorf("an action on a pool's own breaker, which it has not: %d %s", code, body)
		}
		if got := act(t, h, "/models/chat/members/eastus/force_open"); got.Why != status.WhyForcedOpen {
			t.Errorf("an action on a member: %+v", got)
		}
	})
}

// TestNameWithASlash: an entry whose name holds a slash (as a model's
// default name does) is reached with the slash escaped.
func TestNameWithASlash(t *testing.T) {
	reg := &status.Registry{}
	b := breaker.New(breaker.Settings{Name: "openai/gpt-4o"})
	_ = reg.AddBreaker("openai/gpt-4o", b)
	if got := act(t, status.Handler(reg, status.AllowActions()), "/breakers/openai%2Fgpt-4o/force_open"); got.Name != "openai/gpt-4o" || b.Forced() != breaker.ForcedOpen {
		t.Errorf("force_open of openai%%2Fgpt-4o answered %+v; the breaker %v", got, b.Forced())
	}
}

// TestNilRegistry: a handler of no registry shows an empty one.
func TestNilRegistry(t *testing.T) {
	h := status.Handler(nil)
	if r := report(t, h); !r.Ready || len(r.Models)+len(r.Breakers)+len(r.Limiters)+len(r.Semaphores)+len(r.Shared) != 0 {
		t.Errorf("the report of no registry: %+v", r)
	}
	if got := ready(t, h); got != `OK {"ready":true}` {
		t.Errorf("GET /ready: %s", got)
	}
}

// TestLimitsShownAsCallsMeetThem: the concurrency and rate limits a pool
// and its members build themselves (MaxConcurrent, RateLimit) are shown in
// the pool's report: slots in use while calls are in flight, as many as
// the calls that took them, and a call finding every member's slot shown
// in use is refused without a request.
func TestLimitsShownAsCallsMeetThem(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var servers []*faultserver.Server
		var members []lcllms.Model
		for _, name := range []string{"eastus", "westus"} {
			s := faultserver.NewInMemory(faultserver.Reply("Hello from " + name + ".").After(time.Minute))
			defer s.Close()
			rate, err := limit.NewLocalLimiter(10, time.Minute, time.Second)
			if err != nil {
				t.Fatal(err)
			}
			servers = append(servers, s)
			members = append(members, resilient.Member(resilient.Named(openaiAgainst(t, s), name),
				resilient.MaxConcurrent(1, 0), resilient.RateLimit(rate)))
		}
		poolRate, err := limit.NewLocalLimiter(60, time.Minute, resilient.Forever)
		if err != nil {
			t.Fatal(err)
		}
		tokens, err := limit.NewLocalLimiter(1_000_000, time.Minute, resilient.Forever)
		if err != nil {
			t.Fatal(err)
		}
		model, err := llms.NewPool(members, llms.Middleware(middleware.MaxConcurrent(3, 0), middleware.RateLimit(poolRate)), llms.TokenLimit(tokens))
		if err != nil {
			t.Fatal(err)
		}
		reg := &status.Registry{}
		if err := reg.AddModel("chat", model); err != nil {
			t.Fatal(err)
		}
		h := status.Handler(reg)
		requests := func() int { return servers[0].Count() + servers[1].Count() }
		inUse := func(m status.ModelReport) []int {
			return []int{*m.Semaphore.InUse, *m.Members[0].Semaphore.InUse, *m.Members[1].Semaphore.InUse}
		}

		m := report(t, h).Models[0]
		if m.Semaphore == nil || *m.Semaphore.Size != 3 || *m.Semaphore.InUse != 0 || m.Semaphore.Type != "*limit.Bulkhead" ||
			m.Limiter == nil || m.Limiter.Limit != "60 per 1m0s, waiting as long as the caller allows" ||
			m.TokenLimiter == nil || m.TokenLimiter.Limit != "1000000 per 1m0s, waiting as long as the caller allows" {
			t.Fatalf("the pool's limits before any call: %+v, %+v, %+v", m.Semaphore, m.Limiter, m.TokenLimiter)
		}
		for _, mr := range m.Members {
			if mr.Semaphore == nil || *mr.Semaphore.Size != 1 || *mr.Semaphore.InUse != 0 || mr.Semaphore.Type != "*limit.Bulkhead" ||
				mr.Limiter == nil || mr.Limiter.Limit != "10 per 1m0s, waiting up to 1s" || mr.Limiter.Type != "*limit.LocalLimiter" {
				t.Fatalf("%s's limits before any call: %+v, %+v", mr.Name, mr.Semaphore, mr.Limiter)
			}
		}

		done := make(chan error, 2)
		for i := range 2 {
			go func() {
				_, err := model.Call(t.Context(), "Say hello")
				done <- err
			}()
			time.Sleep(time.Second) // the pool's limiter spaces its calls a second apart
			if got := requests(); got != i+1 {
				select {
				case err := <-done:
					t.Fatalf("call %d ended: %v", i+1, err)
				default:
				}
				t.Fatalf("%d calls in flight made %d requests", i+1, got)
			}
		}
		m = report(t, h).Models[0]
		if got := inUse(m); fmt.Sprint(got) != "[2 1 1]" {
			t.Errorf("slots in use with two calls in flight (pool, eastus, westus): %v, want [2 1 1]", got)
		}
		if _, err := model.Call(t.Context(), "Say hello"); !errors.Is(err, resilient.ErrConcurrency) || requests() != 2 {
			t.Errorf("a call with every member's slot shown in use: %v after %d requests, want ErrConcurrency after 2", err, requests())
		}

		time.Sleep(time.Minute)
		for range 2 {
			if err := <-done; err != nil {
				t.Fatal(err)
			}
		}
		if got := inUse(report(t, h).Models[0]); fmt.Sprint(got) != "[0 0 0]" {
			t.Errorf("slots in use after the calls: %v, want none", got)
		}
	})
}

// heldTool is a tool whose calls each say they started, then wait to be
// let go.
type heldTool struct{ started, release chan struct{} }

func (heldTool) Name() string        { return "refund" }
func (heldTool) Description() string { return "refunds an order" }
func (h heldTool) Call(ctx context.Context, _ string) (string, error) {
	h.started <- struct{}{}
	<-h.release
	return "refunded", nil
}

// TestToolLimitsShown: the bulkhead MaxConcurrent builds inside a tool is
// shown in the tool's report, its slot in use while a call holds it.
func TestToolLimitsShown(t *testing.T) {
	h := heldTool{started: make(chan struct{}), release: make(chan struct{})}
	tool := resilient.Tool(h, resilient.MaxConcurrent(2, 0))
	reg := &status.Registry{}
	if err := reg.AddModel("tool:refund", tool); err != nil {
		t.Fatal(err)
	}
	shown := func() string {
		s := reg.Report().Models[0].Semaphore
		if s == nil || s.Size == nil || s.InUse == nil {
			return fmt.Sprintf("%+v", s)
		}
		return fmt.Sprintf("%d of %d", *s.InUse, *s.Size)
	}
	if got := shown(); got != "0 of 2" {
		t.Errorf("before any call: %s, want 0 of 2", got)
	}
	done := make(chan string)
	go func() {
		answer, _ := tool.Call(t.Context(), "order 7")
		done <- answer
	}()
	<-h.started
	if got := shown(); got != "1 of 2" {
		t.Errorf("with a call in flight: %s, want 1 of 2", got)
	}
	close(h.release)
	if answer := <-done; answer != "refunded" {
		t.Errorf("the call answered %q", answer)
	}
	if got := shown(); got != "0 of 2" {
		t.Errorf("after the call: %s, want 0 of 2", got)
	}
}
