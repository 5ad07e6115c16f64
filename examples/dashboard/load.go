package main

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/redis/go-redis/v9"
	lcllms "github.com/tmc/langchaingo/llms"
	"github.com/tmc/langchaingo/llms/openai"

	"github.com/resilientgo/resilient"
	"github.com/resilientgo/resilient/faultserver"
	"github.com/resilientgo/resilient/limit"
	"github.com/resilientgo/resilient/llms"
	"github.com/resilientgo/resilient/resilientotel"
	"github.com/resilientgo/resilient/resilientredis"
	"github.com/resilientgo/resilient/taxonomy"
	"github.com/resilientgo/resilient/tools"
)

// A scenario is one round of a fault and what the library does about it.
// A round returns an error only when the library did not do what it should:
// the load checks itself as it runs.
type scenario struct {
	name  string
	round func(ctx context.Context, obs *resilientotel.Observer) error
}

// scenarios returns the scenarios of the load; with a Redis address, the
// shared-state outage too.
func scenarios(redisAddr string) []scenario {
	s := []scenario{
		{"retries", retries},
		{"gives up", givesUp},
		{"breaker", breaker},
		{"fallback", fallback},
		{"hedge", hedge},
		{"refusals", refusals},
		{"pool", pool},
		{"tools", toolOutcomes},
	}
	if redisAddr != "" {
		s = append(s, scenario{"shared state", func(ctx context.Context, obs *resilientotel.Observer) error {
			return sharedOutage(ctx, obs, redisAddr)
		}})
	}
	return s
}

// pause is the rest between two rounds of a scenario.
const pause = 100 * time.Millisecond

// load runs every scenario in a loop of its own, with one observer on the
// global meter provider, until ctx ends (nil) or a round fails (its error).
func load(ctx context.Context, redisAddr string) error {
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	obs := resilientotel.New()
	var wg sync.WaitGroup
	for _, s := range scenarios(redisAddr) {
		wg.Go(func() {
			for ctx.Err() == nil {
				if err := s.round(ctx, obs); err != nil && ctx.Err() == nil {
					cancel(fmt.Errorf("%s: %w", s.name, err))
					return
				}
				sleep(ctx, pause)
			}
		})
	}
	wg.Wait()
	if err := context.Cause(ctx); !errors.Is(err, context.Canceled) {
		return err
	}
	return nil
}

func sleep(ctx context.Context, d time.Duration) {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
	case <-t.C:
	}
}

// provider is a loopback fault server playing steps, and the real OpenAI
// client of model name through the evidence transport, which reads what
// the client drops (Retry-After, the error code).
func provider(name string, steps ...faultserver.Step) (*faultserver.Server, lcllms.Model, error) {
	srv := faultserver.NewInMemory(steps...)
	hc := &http.Client{Transport: llms.NewTransport(srv.Client().Transport)}
	llm, err := srv.OpenAI(openai.WithModel(name), openai.WithHTTPClient(hc))
	if err != nil {
		srv.Close()
		return nil, nil, err
	}
	return srv, llm, nil
}

// always is a step played for every request.
func always(s faultserver.Step) faultserver.Step {
	return faultserver.Func(func(*faultserver.Request) faultserver.Step { return s })
}

// fast are the backoff settings of the load: short waits, so that rounds
// take a second or so.
var fast = resilient.Backoff(20*time.Millisecond, 100*time.Millisecond)

// retries: a 429 with Retry-After: 1, waited exactly, then a 529 retried
// after a backoff, then the answer.
func retries(ctx context.Context, obs *resilientotel.Observer) error {
	srv, llm, err := provider("gpt-4o", faultserver.RateLimited("1"), faultserver.Overloaded(), faultserver.Reply("Hello"))
	if err != nil {
		return err
	}
	defer srv.Close()
	_, err = resilient.Model(llm, resilient.Observe(obs), fast).Call(ctx, "Say hello")
	return err
}

// givesUp: a model overloaded at every attempt; the call fails after its
// attempts.
func givesUp(ctx context.Context, obs *resilientotel.Observer) error {
	srv, llm, err := provider("gpt-4o", always(faultserver.Overloaded()))
	if err != nil {
		return err
	}
	defer srv.Close()
	_, err = resilient.Model(llm, resilient.Observe(obs), fast, resilient.MaxAttempts(2)).Call(ctx, "Say hello")
	if !errors.Is(err, resilient.ErrExhausted) {
		return fmt.Errorf("got %v, want the attempts exhausted", err)
	}
	sleep(ctx, time.Second)
	return nil
}

// breakerOpen is how long the breaker scenario's breaker stays open:
// longer than a scrape interval, so that the gauge is seen open.
const breakerOpen = 2 * time.Second

// breaker: a provider failing until the breaker opens; a call while it is
// open fails fast without a request; the provider recovers and the probe
// closes the breaker.
func breaker(ctx context.Context, obs *resilientotel.Observer) error {
	var down atomic.Bool
	down.Store(true)
	srv, llm, err := provider("o3-mini", faultserver.Func(func(*faultserver.Request) faultserver.Step {
		if down.Load() {
			return faultserver.ServerError()
		}
		return faultserver.Reply("Hello")
	}))
	if err != nil {
		return err
	}
	defer srv.Close()
	model := resilient.Model(llm, resilient.Observe(obs), resilient.MaxAttempts(1), resilient.CircuitBreaker(2, breakerOpen))
	for range 2 {
		_, _ = model.Call(ctx, "Say hello")
	}
	if _, err := model.Call(ctx, "Say hello"); !errors.Is(err, resilient.ErrCircuitOpen) {
		return fmt.Errorf("third call: got %v, want the circuit open", err)
	}
	down.Store(false)
	sleep(ctx, breakerOpen+100*time.Millisecond)
	_, err = model.Call(ctx, "Say hello")
	return err
}

// fallback: the primary is overloaded, the backup answers.
func fallback(ctx context.Context, obs *resilientotel.Observer) error {
	srv, primary, err := provider("gpt-4o", always(faultserver.Overloaded()))
	if err != nil {
		return err
	}
	defer srv.Close()
	bsrv, backup, err := provider("claude-sonnet", faultserver.Reply("Hello from the backup"))
	if err != nil {
		return err
	}
	defer bsrv.Close()
	model := resilient.Model(primary, resilient.Observe(obs), fast, resilient.MaxAttempts(2), resilient.Fallbacks(backup))
	answer, err := model.Call(ctx, "Say hello")
	if err == nil && answer != "Hello from the backup" {
		err = fmt.Errorf("got %q, want the backup's answer", answer)
	}
	return err
}

// hedge: the first attempt is slow, a hedge started beside it answers.
func hedge(ctx context.Context, obs *resilientotel.Observer) error {
	srv, llm, err := provider("gpt-4o-mini", faultserver.Reply("slow").After(time.Second), faultserver.Reply("fast"))
	if err != nil {
		return err
	}
	defer srv.Close()
	answer, err := resilient.Model(llm, resilient.Observe(obs), resilient.Hedge(100*time.Millisecond, 1)).Call(ctx, "Say hello")
	if err == nil && answer != "fast" {
		err = fmt.Errorf("got %q, want the hedge's answer", answer)
	}
	return err
}

// refusals: calls refused before any request, for each reason a caller
// can cause: the concurrency limit full, the rate limit's wait too long,
// the run's retry budget spent, the run's request limit reached.
func refusals(ctx context.Context, obs *resilientotel.Observer) error {
	srv, llm, err := provider("gpt-4o-mini", always(faultserver.Reply("Hello").After(300*time.Millisecond)))
	if err != nil {
		return err
	}
	defer srv.Close()

	// Two calls at once through a limit of one, which does not wait.
	bounded := resilient.Model(llm, resilient.Observe(obs), resilient.MaxConcurrent(1, 0))
	errs := make([]error, 2)
	var wg sync.WaitGroup
	for i := range errs {
		wg.Go(func() { _, errs[i] = bounded.Call(ctx, "Say hello") })
	}
	wg.Wait()
	if !errors.Is(errors.Join(errs...), resilient.ErrConcurrency) {
		return fmt.Errorf("two calls through a limit of one: got %v, want one refused", errs)
	}

	// Two calls through a rate limit of one a minute, which waits a
	// millisecond at most.
	limiter, err := limit.NewLocalLimiter(1, time.Minute, time.Millisecond)
	if err != nil {
		return err
	}
	limited := resilient.Model(llm, resilient.Observe(obs), resilient.RateLimit(limiter))
	if _, err := limited.Call(ctx, "Say hello"); err != nil {
		return err
	}
	if _, err := limited.Call(ctx, "Say hello"); !errors.Is(err, limit.ErrLimited) {
		return fmt.Errorf("over the rate limit: got %v, want refused", err)
	}

	// A run limited to one request makes a second call.
	run := resilient.NewRun(ctx, resilient.RequestLimit(1))
	model := resilient.Model(llm, resilient.Observe(obs))
	if _, err := model.Call(run, "Say hello"); err != nil {
		return err
	}
	if _, err := model.Call(run, "Say hello"); !errors.Is(err, resilient.ErrUsageLimit) {
		return fmt.Errorf("over the run's request limit: got %v, want refused", err)
	}

	// A run with a retry budget of one meets a provider that keeps failing.
	osrv, overloaded, err := provider("gpt-4o-mini", always(faultserver.Overloaded()))
	if err != nil {
		return err
	}
	defer osrv.Close()
	run = resilient.NewRun(ctx, resilient.RetryBudget(1))
	if _, err := resilient.Model(overloaded, resilient.Observe(obs), fast).Call(run, "Say hello"); err == nil {
		return errors.New("a provider that keeps failing answered")
	}
	return nil
}

// pool: three deployments of one model; one answers 429 with
// Retry-After: 2 and cools down, one refuses its key and is suspended, the
// third answers every call.
func pool(ctx context.Context, obs *resilientotel.Observer) error {
	steps := map[string]faultserver.Step{
		"eu-west":  faultserver.RateLimited("2"),
		"us-east":  faultserver.InvalidAPIKey(),
		"us-west2": faultserver.Reply("Hello"),
	}
	var members []lcllms.Model
	for _, name := range []string{"eu-west", "us-east", "us-west2"} {
		srv, llm, err := provider("gpt-4o", always(steps[name]))
		if err != nil {
			return err
		}
		defer srv.Close()
		members = append(members, resilient.Named(llm, name))
	}
	model := resilient.Pool(members, resilient.Observe(obs), fast)
	for range 3 {
		if _, err := model.Call(ctx, "Say hello"); err != nil {
			return err
		}
	}
	return nil
}

// toolOutcomes: a tool that succeeds, one the model called wrongly, one
// that fails inside, one that runs out of time, one that ends the run,
// and a mutating tool called twice with the same input.
func toolOutcomes(ctx context.Context, obs *resilientotel.Observer) error {
	lookup := resilient.Tool(tools.Func("lookup_order", "Looks up an order by its id.",
		func(ctx context.Context, input string) (string, error) {
			switch {
			case strings.Contains(input, "crash"):
				return "", errors.New("connection refused")
			case strings.Contains(input, "slow"):
				select {
				case <-ctx.Done():
				case <-time.After(time.Second):
				}
				return "late", nil
			case strings.Contains(input, "fatal"):
				return "", taxonomy.NewFatalToolError(errors.New("the order database is gone"))
			case !strings.Contains(input, "4471"):
				return "", taxonomy.ToolErrorf("no such order; order ids have 4 digits")
			}
			return "order 4471: shipped", nil
		}), resilient.Observe(obs), resilient.ToolOptions(tools.Timeout(50*time.Millisecond)))
	for _, input := range []string{"4471", "9999", "crash", "4471", "slow", "4471", "fatal"} {
		_, _ = lookup.Call(ctx, input)
	}
	charge := resilient.Tool(tools.Func("charge_card", "Charges a card.", func(context.Context, string) (string, error) {
		return "charged", nil
	}), resilient.Observe(obs), resilient.Idempotent(nil))
	for range 2 {
		if _, err := charge.Call(ctx, `{"order":"4471","amount":2499}`); err != nil {
			return err
		}
	}
	sleep(ctx, 500*time.Millisecond)
	return nil
}

// sharedOutage: a rate limiter shared through Redis loses Redis (its
// client cannot connect) and admits without it, then finds Redis again.
func sharedOutage(ctx context.Context, obs *resilientotel.Observer, addr string) error {
	var down atomic.Bool
	down.Store(true)
	var d net.Dialer
	client := redis.NewClient(&redis.Options{Addr: addr, MaxRetries: -1, DialerRetries: 1,
		Dialer: func(ctx context.Context, network, addr string) (net.Conn, error) {
			if down.Load() {
				return nil, errors.New("dashboard: redis taken away")
			}
			return d.DialContext(ctx, network, addr)
		}})
	defer client.Close()
	limiter, err := resilientredis.NewLimiter(client, "dashboard", 1000, time.Minute,
		resilientredis.Prefix("resilient:dashboard:"), resilientredis.Observe(obs))
	if err != nil {
		return err
	}
	if err := limiter.Acquire(ctx, 1); err != nil { // admitted without Redis
		return err
	}
	down.Store(false)
	sleep(ctx, 1100*time.Millisecond) // a feature tries Redis again after a second
	return limiter.Acquire(ctx, 1)
}
