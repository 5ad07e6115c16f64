package resilienttemporal_test

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/tmc/langchaingo/agents"
	"github.com/tmc/langchaingo/chains"
	lcllms "github.com/tmc/langchaingo/llms"
	"github.com/tmc/langchaingo/llms/openai"
	lctools "github.com/tmc/langchaingo/tools"
	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/log"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/worker"
	"go.temporal.io/sdk/workflow"

	"github.com/resilientgo/resilient"
	"github.com/resilientgo/resilient/faultserver"
	"github.com/resilientgo/resilient/llms"
	"github.com/resilientgo/resilient/resilientredis"
	"github.com/resilientgo/resilient/resilienttemporal"
	"github.com/resilientgo/resilient/taxonomy"
	"github.com/resilientgo/resilient/tools"
)

var (
	crashRuns        = flag.Int("crash.runs", 20, "agent runs of TestCrashedWorkerLosesNothing (the full proof: 100)")
	crashConcurrency = flag.Int("crash.concurrency", 10, "runs in flight at once in TestCrashedWorkerLosesNothing")
	crashSeed        = flag.Uint64("crash.seed", 1, "seed of the steps at which the worker is killed")
)

// workerProcessEnv, when set, makes the test binary the crash test's worker
// process: the JSON of a crashWorker.
const workerProcessEnv = "RESILIENTTEMPORAL_CRASH_WORKER"

// crashWorker is what the worker process needs to know.
type crashWorker struct {
	HostPort, Namespace, Queue string
	Provider, Services, Redis  string // URLs of the model and the tools' services, address of Redis
	Prefix                     string // of the idempotency records in Redis
	Generation                 int    // how many workers were killed before this one
}

// crashActivityOptions are the options of the crash test's activities: a
// dead worker is noticed after a second without heartbeat.
var crashActivityOptions = resilienttemporal.ActivityOptions(workflow.ActivityOptions{
	HeartbeatTimeout: time.Second,
	RetryPolicy:      &temporal.RetryPolicy{InitialInterval: 100 * time.Millisecond, BackoffCoefficient: 2, MaximumInterval: time.Second},
})

// crashAgent is the workflow of the crash test: run's agent, an unchanged
// agents.Executor with the four tools of the agent-runs scenario.
func crashAgent(wctx workflow.Context, run int) (agentResult, error) {
	ctx := resilienttemporal.NewRun(wctx)
	model := resilienttemporal.NewModel("chat", crashActivityOptions)
	var ts []lctools.Tool
	for _, d := range toolDescriptions {
		ts = append(ts, resilienttemporal.NewTool(d[0], d[1], crashActivityOptions))
	}
	executor := agents.NewExecutor(agents.NewOpenAIFunctionsAgent(model, ts), agents.WithMaxIterations(3*maxSteps))
	out, err := chains.Run(ctx, executor, newScript(run).task())
	return agentResult{Output: out, Usage: resilienttemporal.UsageFrom(ctx)}, err
}

var toolDescriptions = [][2]string{
	{"lookup_order", `Looks an order up. Input: {"order": id}.`},
	{"quote_shipping", `Quotes shipping for an order. Input: {"order": id, "carrier": name}.`},
	{"charge_card", `Charges the card on file. Input: {"order": id, "amount_cents": n}.`},
	{"send_receipt", `Emails the receipt. Input: {"order": id}.`},
}

// workerProcess is the crash test's worker: the real wrapped model and
// tools, the model talking to the test's fault server, the tools to its
// services, the idempotency records in Redis. It runs until it is killed.
func workerProcess() int {
	var cfg crashWorker
	if err := json.Unmarshal([]byte(os.Getenv(workerProcessEnv)), &cfg); err != nil {
		fmt.Fprintln(os.Stderr, "worker:", err)
		return 2
	}
	quiet := log.NewStructuredLogger(slog.New(slog.NewTextHandler(io.Discard, nil)))
	c, err := client.Dial(client.Options{HostPort: cfg.HostPort, Namespace: cfg.Namespace, Logger: quiet})
	if err != nil {
		fmt.Fprintln(os.Stderr, "worker:", err)
		return 2
	}
	hc := &http.Client{Transport: llms.NewTransport(attemptHeader{gen: cfg.Generation})}
	llm, err := openai.New(openai.WithBaseURL(cfg.Provider+"/v1"), openai.WithToken("sk-test"), openai.WithModel("gpt-4o-mini"), openai.WithHTTPClient(hc))
	if err != nil {
		fmt.Fprintln(os.Stderr, "worker:", err)
		return 2
	}
	store, err := resilientredis.NewStore(redis.NewClient(&redis.Options{Addr: cfg.Redis}), resilientredis.Prefix(cfg.Prefix))
	if err != nil {
		fmt.Fprintln(os.Stderr, "worker:", err)
		return 2
	}
	acts := &resilienttemporal.Activities{
		Models: map[string]lcllms.Model{"chat": resilient.Model(llm, resilient.Backoff(10*time.Millisecond, 100*time.Millisecond))},
	}
	for _, d := range toolDescriptions {
		opts := []resilient.ToolOption{resilient.Timeout(2 * time.Second)}
		if d[0] == "charge_card" || d[0] == "send_receipt" {
			opts = append(opts, resilient.Idempotent(store), resilient.ToolOptions(tools.Lease(2*time.Second)))
		}
		acts.Tools = append(acts.Tools, resilient.Tool(serviceTool(hc, cfg.Services, d[0], d[1]), opts...))
	}
	w := worker.New(c, cfg.Queue, worker.Options{StickyScheduleToStartTimeout: time.Second})
	w.RegisterWorkflow(crashAgent)
	if err := acts.Register(w); err != nil {
		fmt.Fprintln(os.Stderr, "worker:", err)
		return 2
	}
	if err := w.Run(worker.InterruptCh()); err != nil {
		fmt.Fprintln(os.Stderr, "worker:", err)
		return 2
	}
	return 0
}

// attemptHeader names, on each request, the activity attempt that sent it
// and the worker's generation, for the test to tell which requests a dead
// attempt made.
type attemptHeader struct{ gen int }

func (a attemptHeader) RoundTrip(req *http.Request) (*http.Response, error) {
	req = req.Clone(req.Context())
	req.Header.Set("X-Worker-Generation", strconv.Itoa(a.gen))
	if attempt := attemptOf(req.Context()); attempt != "" {
		req.Header.Set("X-Activity-Attempt", attempt)
	}
	return http.DefaultTransport.RoundTrip(req)
}

// attemptOf names the activity attempt of ctx, "" outside an activity.
func attemptOf(ctx context.Context) (name string) {
	defer func() { _ = recover() }() // activity.GetInfo panics outside an activity
	info := activity.GetInfo(ctx)
	return fmt.Sprintf("%s/%s#%d", info.WorkflowExecution.ID, info.ActivityID, info.Attempt)
}

// serviceTool is a tool that calls the test's services: 200 is its output,
// 422 a ToolError, anything else a failure. It passes its idempotency key
// on, as a payment API takes an Idempotency-Key.
func serviceTool(hc *http.Client, base, name, description string) lctools.Tool {
	return tools.Func(name, description, func(ctx context.Context, input string) (string, error) {
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, base+"/"+name, strings.NewReader(input))
		if err != nil {
			return "", err
		}
		if key, ok := tools.KeyFrom(ctx); ok {
			req.Header.Set("Idempotency-Key", key)
		}
		resp, err := hc.Do(req)
		if err != nil {
			return "", err
		}
		defer resp.Body.Close()
		body, err := io.ReadAll(resp.Body)
		switch {
		case err != nil:
			return "", err
		case resp.StatusCode == http.StatusUnprocessableEntity:
			return "", taxonomy.NewToolError(string(body))
		case resp.StatusCode != http.StatusOK:
			return "", fmt.Errorf("%s: %s: %s", name, resp.Status, body)
		}
		return string(body), nil
	})
}

// killer runs the worker process and kills it with SIGKILL when a run
// reaches the step drawn for it, then starts another. It is safe for
// concurrent use.
type killer struct {
	t     *testing.T
	start func(gen int) (*exec.Cmd, error)

	mu     sync.Mutex
	killAt map[int]int // run -> the event (model request or tool execution) at which to kill
	events map[int]int // run -> events so far
	gen    int         // workers killed so far
	cmd    *exec.Cmd
	err    error
}

// event counts an event of run, made by the worker of generation gen, and
// reports whether the worker must be killed now.
func (k *killer) event(run, gen int) bool {
	k.mu.Lock()
	defer k.mu.Unlock()
	k.events[run]++
	return k.events[run] == k.killAt[run] && gen == k.gen
}

// kill kills the worker of generation gen, if it still runs, and starts
// the next.
func (k *killer) kill(gen int) {
	k.mu.Lock()
	defer k.mu.Unlock()
	if gen != k.gen || k.err != nil {
		return
	}
	_ = k.cmd.Process.Signal(syscall.SIGKILL)
	_ = k.cmd.Wait()
	k.gen++
	k.cmd, k.err = k.start(k.gen)
}

// generation returns how many workers were killed so far.
func (k *killer) generation() int {
	k.mu.Lock()
	defer k.mu.Unlock()
	return k.gen
}

// stop kills the last worker.
func (k *killer) stop() {
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.cmd != nil {
		_ = k.cmd.Process.Signal(syscall.SIGKILL)
		_ = k.cmd.Wait()
	}
	k.err = errors.New("stopped")
}

// modelRequest is what the provider did with one request.
type modelRequest struct {
	run     int
	key     string // the reply asked for
	outcome string // "answer", a fault, or "killed": the worker was killed while it waited
	attempt string // the activity attempt that sent it
	gen     int
}

// services are the tools' back ends: each execution is counted and drawn
// its fault; the payment service executes a charge once per idempotency
// key, as Stripe does.
type services struct {
	k *killer

	mu         sync.Mutex
	executions map[string]int // tool and input -> executions
	byKey      map[string]string
	charges    map[string]int // order -> charges executed
	requests   int            // charge requests received
	repeats    int            // charge requests whose key had been executed already
}

func (s *services) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	name := strings.TrimPrefix(r.URL.Path, "/")
	body, _ := io.ReadAll(r.Body)
	input := string(body)
	gen, _ := strconv.Atoi(r.Header.Get("X-Worker-Generation"))
	var run int
	_, _ = fmt.Sscanf(orderOf(input), "R%d", &run)
	kill := s.k.event(run, gen)

	s.mu.Lock()
	n := s.executions[name+" "+input]
	s.executions[name+" "+input]++
	fault := toolFault(name, input, n)
	if kill {
		fault = "" // the effect happens, then the worker dies before it hears of it
	}
	out := ""
	switch fault {
	case "":
		out = s.effect(name, input, r.Header.Get("Idempotency-Key"))
	case "tool error":
		out = toolErrorPrefix + " the order must be confirmed; resend with \"confirmed\" set"
	}
	s.mu.Unlock()

	switch {
	case kill:
		go s.k.kill(gen)
		<-r.Context().Done()
	case fault == "hang":
		<-r.Context().Done()
	case fault == "tool error":
		http.Error(w, out, http.StatusUnprocessableEntity)
	case fault == "transient":
		http.Error(w, "connection reset by peer", http.StatusServiceUnavailable)
	default:
		_, _ = io.WriteString(w, out)
	}
}

// effect does what the tool is for; s.mu is held.
func (s *services) effect(name, input, key string) string {
	order := orderOf(input)
	switch name {
	case "lookup_order":
		return fmt.Sprintf("order %s: 1 kettle, card on file", order)
	case "quote_shipping":
		return "4.90 EUR, 2 days"
	case "charge_card":
		s.requests++
		if id, ok := s.byKey[key]; ok && key != "" {
			s.repeats++
			return "charged (payment " + id + ")"
		}
		s.charges[order]++
		id := fmt.Sprintf("p-%d", len(s.byKey)+1)
		if key != "" {
			s.byKey[key] = id
		}
		return "charged (payment " + id + ")"
	}
	return "receipt sent for order " + order
}

// redisAddr returns the address of a Redis for the test: the one of
// RESILIENT_REDIS_ADDR, or one it starts.
func redisAddr(t *testing.T) string {
	if addr := os.Getenv("RESILIENT_REDIS_ADDR"); addr != "" {
		return addr
	}
	bin, err := exec.LookPath("redis-server")
	if err != nil {
		t.Skip("no Redis: set RESILIENT_REDIS_ADDR or install redis-server")
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	_, port, _ := net.SplitHostPort(addr)
	cmd := exec.Command(bin, "--port", port, "--bind", "127.0.0.1", "--save", "", "--appendonly", "no")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	rdb := redis.NewClient(&redis.Options{Addr: addr})
	defer rdb.Close()
	for range 100 {
		if rdb.Ping(t.Context()).Err() == nil {
			return addr
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatalf("redis-server at %s does not answer", addr)
	return ""
}

// TestCrashedWorkerLosesNothing runs agent runs as workflows on a worker
// process that is killed with SIGKILL at a step drawn at random for each
// run, and started again: every run completes with its answer, no payment
// is executed twice, at most one model request is sent again per crash,
// and the usage each run reports adds up to what the provider served.
func TestCrashedWorkerLosesNothing(t *testing.T) {
	if testing.Short() {
		t.Skip("kills and restarts worker processes")
	}
	rdb := redisAddr(t)
	n := *crashRuns
	rng := rand.New(rand.NewPCG(*crashSeed, 1))
	queue := newQueue(t)
	k := &killer{t: t, killAt: map[int]int{}, events: map[int]int{}}
	for run := range n {
		k.killAt[run] = 1 + rng.IntN(newScript(run).events())
	}

	var mu sync.Mutex
	requests := map[int]modelRequest{} // by the provider's index
	seen := map[string]int{}           // reply key -> requests
	provider := faultserver.New(faultserver.Func(func(req *faultserver.Request) faultserver.Step {
		r, full, err := next(req.Body)
		if err != nil {
			return faultserver.Status(400, "the test's model: "+err.Error())
		}
		gen, _ := strconv.Atoi(req.Header.Get("X-Worker-Generation"))
		rec := modelRequest{run: r.run, key: r.key(), attempt: req.Header.Get("X-Activity-Attempt"), gen: gen}
		step := faultserver.Stall()
		if k.event(r.run, gen) {
			rec.outcome = "killed"
			go k.kill(gen)
		} else {
			mu.Lock()
			m := seen[r.key()]
			seen[r.key()]++
			mu.Unlock()
			step, rec.outcome = modelStep(r, m, full)
			if rec.outcome == "" {
				rec.outcome = "answer"
			}
		}
		mu.Lock()
		requests[req.Index] = rec
		mu.Unlock()
		return step
	}))
	defer provider.Close()
	svc := &services{k: k, executions: map[string]int{}, byKey: map[string]string{}, charges: map[string]int{}}
	back := httptest.NewServer(svc)
	defer back.Close()

	cfg := crashWorker{HostPort: server.GetFrontendHostPort(), Namespace: server.GetDefaultNamespace(), Queue: queue,
		Provider: provider.URL, Services: back.URL, Redis: rdb, Prefix: fmt.Sprintf("crash-%d:", time.Now().UnixNano())}
	k.start = func(gen int) (*exec.Cmd, error) {
		cfg := cfg
		cfg.Generation = gen
		env, _ := json.Marshal(cfg)
		cmd := exec.Command(os.Args[0], "-test.run=^$")
		cmd.Env = append(os.Environ(), workerProcessEnv+"="+string(env))
		cmd.Stderr = os.Stderr
		return cmd, cmd.Start()
	}
	k.cmd, k.err = k.start(0)
	if k.err != nil {
		t.Fatal(k.err)
	}
	defer k.stop()

	type outcome struct {
		res        agentResult
		err        error
		start, end int // worker generations
	}
	results := make([]outcome, n)
	work := make(chan int)
	var wg sync.WaitGroup
	began := time.Now()
	for range *crashConcurrency {
		wg.Go(func() {
			for run := range work {
				o := outcome{start: k.generation()}
				ctx, cancel := context.WithTimeout(t.Context(), 5*time.Minute)
				wr, err := server.GetDefaultClient().ExecuteWorkflow(ctx, client.StartWorkflowOptions{
					ID: fmt.Sprintf("%s-run-%d", queue, run), TaskQueue: queue, WorkflowTaskTimeout: 2 * time.Second,
				}, crashAgent, run)
				if err == nil {
					err = wr.Get(ctx, &o.res)
				}
				cancel()
				o.err, o.end = err, k.generation()
				results[run] = o
			}
		})
	}
	for run := range n {
		work <- run
	}
	close(work)
	wg.Wait()
	elapsed := time.Since(began)

	// What the provider served, per run.
	mu.Lock()
	defer mu.Unlock()
	served := provider.Requests()
	type attemptStats struct {
		gen, requests, tokens int
	}
	perRun := make([]struct {
		requests, tokens, resends int
		attempts                  map[string]map[int]*attemptStats // activity -> attempt number -> stats
	}, n)
	byKey := map[string][]string{} // reply key -> outcomes in order
	var keys []string
	for i, q := range served {
		rec, ok := requests[i]
		if !ok || rec.run < 0 || rec.run >= n {
			continue
		}
		pr := &perRun[rec.run]
		pr.requests++
		tokens := q.InputTokens + q.OutputTokens
		pr.tokens += tokens
		if pr.attempts == nil {
			pr.attempts = map[string]map[int]*attemptStats{}
		}
		act, num, _ := strings.Cut(rec.attempt, "#")
		a, _ := strconv.Atoi(num)
		if pr.attempts[act] == nil {
			pr.attempts[act] = map[int]*attemptStats{}
		}
		st := pr.attempts[act][a]
		if st == nil {
			st = &attemptStats{gen: rec.gen}
			pr.attempts[act][a] = st
		}
		st.requests++
		st.tokens += tokens
		if byKey[rec.key] == nil {
			keys = append(keys, rec.key)
		}
		byKey[rec.key] = append(byKey[rec.key], rec.outcome)
	}
	for _, key := range keys {
		var run int
		_, _ = fmt.Sscanf(key, "r%d.", &run)
		outs := byKey[key]
		for _, o := range outs[:len(outs)-1] {
			if o == "answer" || o == "killed" {
				perRun[run].resends++ // answered or cut off, and asked again: sent again after a crash
			}
		}
	}

	var completed, resends, lostRequests, lostTokens int
	for run, o := range results {
		s := newScript(run)
		switch {
		case o.err != nil:
			t.Errorf("run %d failed: %v", run, o.err)
			continue
		case o.res.Output != s.answer:
			t.Errorf("run %d answered %q, want %q", run, o.res.Output, s.answer)
			continue
		}
		completed++
		pr := perRun[run]
		crashes := o.end - o.start
		if crashes == 0 {
			t.Errorf("run %d: the worker was never killed during the run", run)
		}
		if pr.resends > crashes {
			t.Errorf("run %d: %d model requests sent again over %d crashes, want at most one per crash", run, pr.resends, crashes)
		}
		resends += pr.resends
		// The requests of an attempt whose worker died are counted only as
		// far as a heartbeat reported them.
		var deadRequests, deadTokens int
		for _, attempts := range pr.attempts {
			last := 0
			for _, st := range attempts {
				last = max(last, st.gen)
			}
			for _, st := range attempts {
				if st.gen < last {
					deadRequests += st.requests
					deadTokens += st.tokens
				}
			}
		}
		u := o.res.Usage
		if gap := pr.requests - u.Requests; gap < 0 || gap > deadRequests {
			t.Errorf("run %d: usage counts %d requests, the provider served %d; want the difference within [0, %d], the requests of attempts that died", run, u.Requests, pr.requests, deadRequests)
		}
		if gap := pr.tokens - u.Tokens(); gap < 0 || gap > deadTokens {
			t.Errorf("run %d: usage counts %d tokens, the provider reported %d; want the difference within [0, %d]", run, u.Tokens(), pr.tokens, deadTokens)
		}
		lostRequests += pr.requests - u.Requests
		lostTokens += pr.tokens - u.Tokens()
		svc.mu.Lock()
		c := svc.charges[s.order]
		svc.mu.Unlock()
		if c != 1 {
			t.Errorf("run %d: order %s charged %d times, want once", run, s.order, c)
		}
	}
	svc.mu.Lock()
	defer svc.mu.Unlock()
	duplicates := 0
	for _, c := range svc.charges {
		duplicates += max(c-1, 0)
	}
	t.Logf("%d runs, %d at a time, in %v: %d completed; worker killed %d times (SIGKILL); %d model requests served, %d sent again after a crash; "+
		"%d charge requests, %d of them repeats the payment service recognised by their key, %d duplicate charges; usage short of the provider's count by %d requests and %d tokens, all from attempts that died",
		n, *crashConcurrency, elapsed.Round(time.Second), completed, k.generation(), len(served), resends,
		svc.requests, svc.repeats, duplicates, lostRequests, lostTokens)
}
