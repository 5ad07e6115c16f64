// Command durable runs an agent as a Temporal workflow and kills its worker
// in the middle of the run: the run finishes on the next worker, and the
// payment it made before the crash is not made again.
//
// Everything runs offline, in this program and one worker process it starts
// (this program again): a Temporal server (the server's own code, with
// SQLite in memory, as the CLI's dev server runs it), the model (the fault
// server speaking OpenAI's API, scripted to look an order up, charge it and
// answer) and the payment service. The worker is killed with SIGKILL while
// the model is working out its answer, after the charge; a new worker takes
// over. agent.go is the code a langchaingo user writes; this file is the
// demo around it.
//
//	cd resilienttemporal && go run ./examples/durable
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"time"

	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/log"
	"go.temporal.io/server/temporaltest"

	"github.com/resilientgo/resilient/faultserver"
)

const taskQueue = "durable-demo"

// workerEnv, when set, makes this program the worker: the JSON of a
// workerConfig.
const workerEnv = "DURABLE_DEMO_WORKER"

type workerConfig struct{ HostPort, Namespace, Provider, Services string }

func main() {
	if env := os.Getenv(workerEnv); env != "" {
		var cfg workerConfig
		if err := json.Unmarshal([]byte(env), &cfg); err != nil {
			fmt.Fprintln(os.Stderr, "worker:", err)
			os.Exit(2)
		}
		if err := runWorker(cfg.HostPort, cfg.Namespace, cfg.Provider, &services{url: cfg.Services}); err != nil {
			fmt.Fprintln(os.Stderr, "worker:", err)
			os.Exit(1)
		}
		return
	}
	if err := run(os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "durable:", err)
		os.Exit(1)
	}
}

// run is the demo; it writes what happens to out.
func run(out io.Writer) error {
	start := time.Now()
	say := func(format string, args ...any) {
		fmt.Fprintf(out, "%5.1fs  %s\n", time.Since(start).Seconds(), fmt.Sprintf(format, args...))
	}
	srv := temporaltest.NewServer()
	defer srv.Stop()
	say("Temporal server up at %s (in this process, SQLite in memory)", srv.GetFrontendHostPort())

	bank := newPaymentService()
	back := httptest.NewServer(bank)
	defer back.Close()

	w := &workers{say: say}
	model := faultserver.New(faultserver.Func(func(r *faultserver.Request) faultserver.Step {
		switch results := strings.Count(string(r.Body), `"role":"tool"`); {
		case results == 0:
			say("model: look the order up")
			return faultserver.ReplyToolCalls(faultserver.ToolCall{ID: "call_1", Name: "lookup_order", Arguments: `{"__arg1":"4471"}`})
		case results == 1:
			say("model: charge the card")
			return faultserver.ReplyToolCalls(faultserver.ToolCall{ID: "call_2", Name: "charge_card", Arguments: `{"__arg1":"4471"}`})
		case w.kill():
			say("model: working out the answer... and the worker is killed (SIGKILL)")
			return faultserver.Stall() // until the dead worker's connection closes
		}
		say("model: answer")
		return faultserver.Reply("Order 4471 is paid: 24.99 EUR charged to the card on file.")
	}))
	defer model.Close()

	cfg, _ := json.Marshal(workerConfig{HostPort: srv.GetFrontendHostPort(), Namespace: srv.GetDefaultNamespace(),
		Provider: model.OpenAIBaseURL(), Services: back.URL})
	w.env = workerEnv + "=" + string(cfg)
	if err := w.start(); err != nil {
		return err
	}
	defer w.stop()

	c, err := client.Dial(client.Options{HostPort: srv.GetFrontendHostPort(), Namespace: srv.GetDefaultNamespace(), Logger: quietLogger()})
	if err != nil {
		return err
	}
	defer c.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	// A short workflow task timeout: a task the dead worker held is retried
	// within 2 s.
	run, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: "pay-order-4471", TaskQueue: taskQueue, WorkflowTaskTimeout: 2 * time.Second},
		PayOrder, "Pay order 4471.")
	if err != nil {
		return err
	}
	say("workflow %s started", run.GetID())
	var res Result
	if err := run.Get(ctx, &res); err != nil {
		return err
	}
	say("run finished on worker %d: %q", w.generation(), res.Answer)
	charges := bank.count()
	say("payment service: %d charge for order 4471 (the payment ran %s)", charges, map[bool]string{true: "once", false: "MORE THAN ONCE"}[charges == 1])
	say("usage: %d requests, %d tokens, %d tool calls (the provider served %d requests: the one the dead worker sent was not reported)",
		res.Usage.Requests, res.Usage.Tokens(), res.Usage.ToolCalls, model.Count())
	if charges != 1 || w.generation() != 2 {
		return fmt.Errorf("want one charge and one crash, got %d charges and %d workers", charges, w.generation())
	}
	return nil
}

// workers starts the worker process, and kills it once.
type workers struct {
	say func(string, ...any)
	env string

	mu     sync.Mutex
	cmd    *exec.Cmd
	n      int
	killed bool
}

func (w *workers) start() error {
	exe, err := os.Executable()
	if err != nil {
		return err
	}
	cmd := exec.Command(exe)
	cmd.Env = append(os.Environ(), w.env)
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		return err
	}
	w.cmd = cmd
	w.n++
	w.say("worker %d started (pid %d)", w.n, cmd.Process.Pid)
	return nil
}

// kill kills the worker with SIGKILL and starts another, the first time it
// is called; it reports whether it did.
func (w *workers) kill() bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.killed {
		return false
	}
	w.killed = true
	go func() {
		w.mu.Lock()
		defer w.mu.Unlock()
		_ = w.cmd.Process.Signal(syscall.SIGKILL)
		_ = w.cmd.Wait()
		w.say("worker %d killed", w.n)
		if err := w.start(); err != nil {
			w.say("could not start a worker: %v", err)
		}
	}()
	return true
}

func (w *workers) generation() int {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.n
}

func (w *workers) stop() {
	w.mu.Lock()
	defer w.mu.Unlock()
	_ = w.cmd.Process.Signal(syscall.SIGKILL)
	_ = w.cmd.Wait()
}

// paymentService looks orders up and charges them, once per Idempotency-Key.
type paymentService struct {
	mu      sync.Mutex
	keys    map[string]bool
	charges int
}

func newPaymentService() *paymentService { return &paymentService{keys: map[string]bool{}} }

func (p *paymentService) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	order := string(body)
	if r.URL.Path == "/lookup" {
		fmt.Fprintf(w, "order %s: 1 kettle, 24.99 EUR, card on file", order)
		return
	}
	key := r.Header.Get("Idempotency-Key")
	p.mu.Lock()
	defer p.mu.Unlock()
	if key == "" || !p.keys[key] {
		p.charges++
		p.keys[key] = key != ""
	}
	fmt.Fprintf(w, "charged 24.99 EUR to order %s", order)
}

func (p *paymentService) count() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.charges
}

// postText posts body to url, with key as its Idempotency-Key, and returns
// the reply's text.
func postText(ctx context.Context, hc *http.Client, url, body, key string) (string, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, strings.NewReader(body))
	if err != nil {
		return "", err
	}
	if key != "" {
		req.Header.Set("Idempotency-Key", key)
	}
	resp, err := hc.Do(req)
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	text, err := io.ReadAll(resp.Body)
	if err == nil && resp.StatusCode != http.StatusOK {
		err = fmt.Errorf("%s: %s", resp.Status, text)
	}
	return string(text), err
}

func quietLogger() log.Logger {
	return log.NewStructuredLogger(slog.New(slog.DiscardHandler))
}
