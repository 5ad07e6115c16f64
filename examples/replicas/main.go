// Command replicas runs two replicas of an agent service in one program,
// each with its own wrapped model and tool, its own circuit breaker, rate
// limiter and idempotency store, and its own Redis client, as two processes
// would have; they share one Redis, and with it:
//
//  1. a payment that the load balancer sends to both replicas charges once;
//  2. an outage that opens replica A's breaker makes replica B fail fast
//     too (to its fallback model, without a request to the failing
//     provider), and when A's probe succeeds, B closes as well;
//  3. one rate limit keeps both replicas together under the provider's limit;
//  4. one concurrency limit (a semaphore with leases) keeps both replicas'
//     callers together at n requests in flight at most: the callers beyond
//     wait for a slot up to a bound, then are refused with
//     resilient.ErrConcurrency without a request.
//
// It needs a Redis:
//
//	redis-server --port 6379
//	go run ./examples/replicas                      # or -redis host:port
//
// Without a reachable Redis it says how to start one and exits 0. The model
// side is langchaingo's real OpenAI client against loopback fault servers:
// the provider, a backup provider to fall back to, and a slow deployment
// that counts the requests it answers at once.
package main

import (
	"context"
	"crypto/rand"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"os"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/lmittmann/tint"
	"github.com/redis/go-redis/v9"
	"github.com/tmc/langchaingo/llms/openai"

	"github.com/resilientgo/resilient"
	"github.com/resilientgo/resilient/examples/internal/tty"
	"github.com/resilientgo/resilient/faultserver"
	"github.com/resilientgo/resilient/limit"
	"github.com/resilientgo/resilient/llms"
	"github.com/resilientgo/resilient/observe"
	"github.com/resilientgo/resilient/resilientredis"
	"github.com/resilientgo/resilient/tools"
)

func main() {
	addr := flag.String("redis", defaultAddr(), "the Redis address (also $RESILIENT_REDIS_ADDR)")
	flag.Parse()
	logger := slog.New(tint.NewTextHandler(os.Stderr, &tint.Options{TimeFormat: "15:04:05.000", NoColor: !tty.Color(os.Stderr)}))
	redis.SetLogger(redisLog{logger})
	if err := run(*addr, logger, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "replicas:", err)
		os.Exit(1)
	}
}

func defaultAddr() string {
	if a := os.Getenv("RESILIENT_REDIS_ADDR"); a != "" {
		return a
	}
	return "127.0.0.1:6379"
}

// The demo's settings: short periods, so that it runs in seconds.
const (
	breakerFailures = 3
	breakerDelay    = time.Second
	perPeriod       = 10 // attempts per limitPeriod, for both replicas together
	limitPeriod     = 500 * time.Millisecond
	callsEach       = 8 // calls per replica in part 3

	inFlight     = 3                      // requests in flight, for both replicas together (part 4)
	callersEach  = 6                      // callers per replica in part 4
	slowReply    = 400 * time.Millisecond // how long the slow deployment takes to answer
	maxSlotWait  = time.Second            // how long a caller waits for a slot
	slotLeaseFor = 3 * time.Second        // a crashed replica's slot is free after this
)

// run runs the demo, writing what happens to out.
func run(addr string, logger *slog.Logger, out io.Writer) error {
	ctx := context.Background()
	if err := ping(ctx, addr); err != nil {
		fmt.Fprintf(out, "replicas: no Redis at %s (%v).\nStart Redis with: redis-server --port 6379\n", addr, err)
		return nil
	}
	// Keys of this run only, deleted at the end.
	prefix := "resilient-example:" + rand.Text()[:8] + ":"
	defer cleanup(addr, prefix)

	var outage atomic.Bool
	srv := faultserver.New(faultserver.Func(func(*faultserver.Request) faultserver.Step {
		if outage.Load() {
			return faultserver.Overloaded() // 529
		}
		return faultserver.Reply("Paris.")
	}))
	defer srv.Close()
	backup := faultserver.New(faultserver.Reply("Paris. (from the backup provider)"))
	defer backup.Close()
	slow := faultserver.New(faultserver.Reply("Paris.").After(slowReply))
	defer slow.Close()
	bank := &bank{}

	var replicas []*replica
	for _, name := range []string{"A", "B"} {
		r, err := newReplica(ctx, name, addr, prefix, servers{srv, backup, slow}, bank, logger)
		if err != nil {
			return err
		}
		defer r.close()
		replicas = append(replicas, r)
	}
	if err := payOnce(ctx, out, replicas, bank); err != nil {
		return err
	}
	if err := shareOutage(ctx, out, replicas[0], replicas[1], srv, &outage); err != nil {
		return err
	}
	time.Sleep(limitPeriod) // a fresh window for part 3
	shareLimit(ctx, out, replicas)
	return shareConcurrency(ctx, out, replicas, slow)
}

// payOnce: a payment sent to both replicas charges once.
func payOnce(ctx context.Context, out io.Writer, replicas []*replica, bank *bank) error {
	fmt.Fprintln(out, "1. The load balancer sends one payment to both replicas at once:")
	var mu sync.Mutex // out is not safe for concurrent use
	var wg sync.WaitGroup
	for _, r := range replicas {
		wg.Go(func() {
			answer, err := r.charge.Call(ctx, `{"order_id":"4471","amount_paise":249900}`)
			if err != nil {
				answer = err.Error()
			}
			mu.Lock()
			defer mu.Unlock()
			fmt.Fprintf(out, "   replica %s: %s\n", r.name, answer)
		})
	}
	wg.Wait()
	fmt.Fprintf(out, "   the bank made %d charge(s)\n\n", bank.charges.Load())
	if bank.charges.Load() != 1 {
		return errors.New("the payment was not charged exactly once")
	}
	return nil
}

// shareOutage: an outage that opens A's breaker makes B fail fast; A's
// successful probe closes both.
func shareOutage(ctx context.Context, out io.Writer, a, b *replica, srv *faultserver.Server, outage *atomic.Bool) error {
	fmt.Fprintln(out, "2. The provider is overloaded (529):")
	outage.Store(true)
	before := srv.Count()
	answer, err := a.model.Call(ctx, "Capital of France?")
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "   replica A: %d requests failed, its breaker opened; it answers %q\n", srv.Count()-before, answer)
	if !waitFor(func() bool { return b.model.Breaker().State() == observe.BreakerOpen }) {
		return errors.New("replica B's breaker did not open")
	}
	fmt.Fprintf(out, "   replica B's breaker is %v too, for the %v left of A's open period\n",
		b.model.Breaker().State(), b.model.Breaker().RemainingDelay().Round(10*time.Millisecond))
	before = srv.Count()
	start := time.Now()
	if answer, err = b.model.Call(ctx, "Capital of France?"); err != nil {
		return err
	}
	fmt.Fprintf(out, "   replica B: fails fast to its fallback in %v, with %d requests to the overloaded provider; it answers %q\n",
		time.Since(start).Round(10*time.Microsecond), srv.Count()-before, answer)

	outage.Store(false)
	time.Sleep(a.model.Breaker().RemainingDelay())
	if answer, err = a.model.Call(ctx, "Capital of France?"); err != nil {
		return err
	}
	fmt.Fprintf(out, "   the provider recovers; at the end of the open period replica A's probe answers %q: breaker %v\n",
		answer, a.model.Breaker().State())
	if !waitFor(func() bool { return b.model.Breaker().State() == observe.BreakerClosed }) {
		return errors.New("replica B's breaker did not close")
	}
	if answer, err = b.model.Call(ctx, "Capital of France?"); err != nil {
		return err
	}
	fmt.Fprintf(out, "   replica B's breaker closed with it; B answers %q\n\n", answer)
	return nil
}

// shareLimit: both replicas together stay under one limit.
func shareLimit(ctx context.Context, out io.Writer, replicas []*replica) {
	fmt.Fprintf(out, "3. Each replica makes %d calls at once, under one shared limit of %d attempts per %v:\n", callsEach, perPeriod, limitPeriod)
	start := time.Now()
	var mu sync.Mutex
	var times []string
	var wg sync.WaitGroup
	for _, r := range replicas {
		for range callsEach {
			wg.Go(func() {
				_, err := r.model.Call(ctx, "Capital of France?")
				mu.Lock()
				defer mu.Unlock()
				if err != nil {
					fmt.Fprintln(out, "   error:", err)
				}
				times = append(times, fmt.Sprintf("+%.2fs %s", time.Since(start).Seconds(), r.name))
			})
		}
	}
	wg.Wait()
	slices.Sort(times)
	fmt.Fprintf(out, "   answered at: %s\n", strings.Join(times, ", "))
	fmt.Fprintf(out, "   %d at once, the other %d one window later: together under the limit (alone, each replica would have sent all %d at once)\n\n",
		perPeriod, 2*callsEach-perPeriod, callsEach)
}

// shareConcurrency: the callers of both replicas together never have more
// than inFlight requests at the slow deployment; the callers beyond wait
// for a slot up to maxSlotWait, then are refused without a request.
func shareConcurrency(ctx context.Context, out io.Writer, replicas []*replica, slow *faultserver.Server) error {
	fmt.Fprintf(out, "4. Each replica has %d callers at once for a deployment that answers in %v, under one shared limit of %d in flight:\n",
		callersEach, slowReply, inFlight)
	start := time.Now()
	var mu sync.Mutex
	var times []string
	var refused []time.Duration // how long each refused caller waited
	var wg sync.WaitGroup
	var failure error
	for _, r := range replicas {
		for range callersEach {
			wg.Go(func() {
				_, err := r.limited.Call(ctx, "Capital of France?")
				mu.Lock()
				defer mu.Unlock()
				var full *limit.ConcurrencyError
				switch {
				case errors.Is(err, resilient.ErrConcurrency) && errors.As(err, &full):
					refused = append(refused, full.Waited)
				case err != nil:
					failure = err
				default:
					times = append(times, fmt.Sprintf("+%.1fs %s", time.Since(start).Seconds(), r.name))
				}
			})
		}
	}
	wg.Wait()
	if failure != nil {
		return failure
	}
	slices.Sort(times)
	fmt.Fprintf(out, "   answered at: %s\n", strings.Join(times, ", "))
	most, requests := slow.MaxInFlight(), slow.Count()
	fmt.Fprintf(out, "   at most %d requests in flight at the deployment, both replicas together (alone, each replica would have sent %d at once)\n",
		most, callersEach)
	if len(refused) > 0 {
		fmt.Fprintf(out, "   %d callers waited %v for a slot, then were refused with resilient.ErrConcurrency, without a request: %d requests for %d answers\n",
			len(refused), slices.Max(refused).Round(100*time.Millisecond), requests, len(times))
	}
	switch {
	case most > inFlight:
		return fmt.Errorf("%d requests in flight at once, more than the shared limit of %d", most, inFlight)
	case len(refused) == 0:
		return errors.New("no caller was refused: the callers did not outnumber the slots")
	case requests != len(times):
		return fmt.Errorf("%d requests for %d answers: a refused caller sent a request", requests, len(times))
	case slices.Min(refused) < maxSlotWait-100*time.Millisecond:
		return fmt.Errorf("a caller was refused after %v, before its wait of %v", slices.Min(refused), maxSlotWait)
	}
	return nil
}

// replica is one instance of the service: what a process would hold.
type replica struct {
	name    string
	rdb     *redis.Client
	charge  *tools.Tool
	model   *llms.Model
	shared  *resilientredis.SharedBreaker
	limited *llms.Model // the slow deployment, under the shared concurrency limit
	sem     *resilientredis.Semaphore
}

// servers are the providers the replicas call.
type servers struct {
	provider, backup, slow *faultserver.Server
}

func newReplica(ctx context.Context, name, addr, prefix string, s servers, bank *bank, logger *slog.Logger) (*replica, error) {
	srv, backup := s.provider, s.backup
	logger = logger.With("replica", name)
	rdb := redis.NewClient(&redis.Options{Addr: addr})
	store, err := resilientredis.NewStore(rdb, resilientredis.Prefix(prefix+"idempotency:"), resilientredis.Logger(logger))
	if err != nil {
		return nil, err
	}
	limiter, err := resilientredis.NewLimiter(rdb, "provider", perPeriod, limitPeriod,
		resilientredis.Prefix(prefix+"limiter:"), resilientredis.MaxWait(5*time.Second), resilientredis.Logger(logger))
	if err != nil {
		return nil, err
	}
	// The evidence transport recovers the status and headers the client drops.
	llm, err := srv.OpenAI(openai.WithHTTPClient(&http.Client{Transport: llms.NewTransport(srv.Client().Transport)}))
	if err != nil {
		return nil, err
	}
	fallback, err := backup.OpenAI()
	if err != nil {
		return nil, err
	}
	model := resilient.Model(llm,
		resilient.ModelOptions(llms.Name("provider")),
		resilient.Fallbacks(fallback),
		resilient.Logger(logger),
		resilient.Backoff(10*time.Millisecond, 50*time.Millisecond),
		resilient.CircuitBreaker(breakerFailures, breakerDelay),
		resilient.RateLimit(limiter))
	if err := model.Err(); err != nil {
		return nil, err
	}
	shared, err := resilientredis.ShareBreaker(ctx, rdb, model.Breaker(), "provider",
		resilientredis.Prefix(prefix+"breaker:"), resilientredis.Logger(logger))
	if err != nil {
		return nil, err
	}
	charge := resilient.Tool(tools.Func("charge", "Charges a card once for an order.", bank.charge),
		resilient.Idempotent(store), resilient.Logger(logger))

	// The slow deployment takes at most inFlight requests at once from the
	// whole fleet: each replica takes a slot of one semaphore in Redis for
	// each attempt.
	sem, err := resilientredis.NewSemaphore(rdb, "slow-deployment", inFlight,
		resilientredis.Prefix(prefix+"semaphore:"), resilientredis.Lease(slotLeaseFor), resilientredis.Logger(logger))
	if err != nil {
		return nil, err
	}
	slowLLM, err := s.slow.OpenAI()
	if err != nil {
		return nil, err
	}
	limited := resilient.Model(slowLLM,
		resilient.ModelOptions(llms.Name("slow-deployment")),
		resilient.Logger(logger),
		resilient.ConcurrencyLimit(sem, maxSlotWait))
	if err := limited.Err(); err != nil {
		return nil, err
	}
	return &replica{name: name, rdb: rdb, charge: charge, model: model, shared: shared, limited: limited, sem: sem}, nil
}

func (r *replica) close() {
	_ = r.shared.Close()
	_ = r.sem.Close()
	_ = r.rdb.Close()
}

// bank is the payment provider: every charge it accepts moves money.
type bank struct{ charges atomic.Int32 }

func (b *bank) charge(ctx context.Context, _ string) (string, error) {
	time.Sleep(100 * time.Millisecond) // long enough for the calls to overlap
	return fmt.Sprintf("charged 2499.00 INR for order 4471 as txn-%d", b.charges.Add(1)), nil
}

func ping(ctx context.Context, addr string) error {
	rdb := redis.NewClient(&redis.Options{Addr: addr, MaxRetries: -1, DialerRetries: 1})
	defer rdb.Close()
	ctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	return rdb.Ping(ctx).Err()
}

// cleanup deletes the keys of this run.
func cleanup(addr, prefix string) {
	rdb := redis.NewClient(&redis.Options{Addr: addr})
	defer rdb.Close()
	ctx := context.Background()
	iter := rdb.Scan(ctx, 0, prefix+"*", 100).Iterator()
	for iter.Next(ctx) {
		rdb.Del(ctx, iter.Val())
	}
}

// waitFor polls cond for up to a second.
func waitFor(cond func() bool) bool {
	for range 200 {
		if cond() {
			return true
		}
		time.Sleep(5 * time.Millisecond)
	}
	return false
}

// redisLog sends go-redis's own log lines to slog, at DEBUG.
type redisLog struct{ l *slog.Logger }

func (r redisLog) Printf(ctx context.Context, format string, v ...any) {
	r.l.DebugContext(ctx, fmt.Sprintf(format, v...))
}
