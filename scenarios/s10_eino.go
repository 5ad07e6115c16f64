package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"net/http"
	"sync"
	"time"

	"github.com/cloudwego/eino-ext/components/model/openai"
	"github.com/cloudwego/eino/adk"
	"github.com/cloudwego/eino/components/model"
	"github.com/cloudwego/eino/components/tool"
	"github.com/cloudwego/eino/components/tool/utils"
	"github.com/cloudwego/eino/compose"
	"github.com/cloudwego/eino/schema"

	"github.com/resilientgo/resilient/breaker"
	"github.com/resilientgo/resilient/faultserver"
	"github.com/resilientgo/resilient/middleware"
	"github.com/resilientgo/resilient/resilienteino"
	"github.com/resilientgo/resilient/taxonomy"
	"github.com/resilientgo/resilient/tools"
)

// Scenario 10: the agent runs of scenario 8 on Eino.

// einoSecret is the credential the payment service's failures carry in
// their text, as an SDK's error that prints the request it failed does.
const einoSecret = "sk_live_51H8aBcDeFgHiJkLmNoPqRsT"

// An einoPolicy is one way of running the agent on Eino: how the model,
// the tools, the agent and each run's context are set up.
type einoPolicy struct {
	Name, About string
	Library     bool
	// Transport wraps the rig's transport for the model's client.
	Transport func(rt http.RoundTripper) http.RoundTripper
	// Tool wraps a tool; nil leaves it as it is.
	Tool func(r rig, t tool.InvokableTool, k toolKind) tool.BaseTool
	// Agent returns what completes the configuration of each run's agent,
	// built once for the policy's runs (a handler and its breakers are
	// shared by them; Eino v0.9.0's ChatModelAgent is not safe for
	// concurrent runs, so each run has an agent of its own).
	Agent func(r rig) func(cfg *adk.ChatModelAgentConfig)
	// Run returns the context of one run; nil uses ctx as it is.
	Run func(ctx context.Context) context.Context
}

// einoPolicies are Eino as shipped, Eino with its own retry and tool error
// handler, and this library's handler.
func einoPolicies() []einoPolicy {
	return []einoPolicy{einoShipped(), einoRetry(), einoLibrary()}
}

func einoShipped() einoPolicy {
	return einoPolicy{Name: "Eino as shipped",
		About: "adk.ChatModelAgent with eino-ext's openai model, no ModelRetryConfig, tools as they are (a tool's error ends the run)."}
}

// einoMaxRetries is the ModelRetryConfig of the Eino baseline: 3 retries,
// 4 calls in all.
const einoMaxRetries = 3

func einoRetry() einoPolicy {
	return einoPolicy{Name: "Eino ModelRetryConfig + WrapToolWithErrorHandler",
		About: fmt.Sprintf("adk.ChatModelAgent with `ModelRetryConfig{MaxRetries: %d}` (every error retried, as Eino "+
			"v0.9.0's default IsRetryAble does, with its default backoff: 100 ms doubling to 10 s plus up to 50 %% "+
			"jitter, scaled like every wait) and every tool wrapped with `utils.WrapToolWithErrorHandler(t, h)` "+
			"where h returns `err.Error()`, the error's text, to the model.", einoMaxRetries),
		Tool: func(_ rig, t tool.InvokableTool, _ toolKind) tool.BaseTool {
			return utils.WrapToolWithErrorHandler(t, func(_ context.Context, err error) string { return err.Error() })
		},
		Agent: func(r rig) func(cfg *adk.ChatModelAgentConfig) {
			retry := &adk.ModelRetryConfig{MaxRetries: einoMaxRetries,
				BackoffFunc: func(_ context.Context, attempt int) time.Duration { return r.ts.of(einoBackoff(attempt)) }}
			return func(cfg *adk.ChatModelAgentConfig) { cfg.ModelRetryConfig = retry }
		},
	}
}

// einoBackoff is Eino v0.9.0's default backoff (adk/retry_chatmodel.go,
// defaultBackoff): 100 ms doubling per attempt up to 10 s, plus a jitter
// of up to half of it.
func einoBackoff(attempt int) time.Duration {
	delay := min(100*time.Millisecond<<max(0, attempt-1), 10*time.Second)
	return delay + time.Duration(rand.Int64N(int64(delay/2)))
}

func einoLibrary() einoPolicy {
	return einoPolicy{Name: "resilienteino.Handler", Library: true,
		About: "the same agent, its model's client given the library's evidence transport (`resilienteino.HTTPClient`), " +
			"with one handler: `resilienteino.Handler(ForTool(\"lookup_order\", SafeToRetry()), " +
			"ForTool(\"quote_shipping\", SafeToRetry()), ForTool(\"charge_card\", Idempotent(nil)))`, every other " +
			"option at its default (its durations scaled like every wait), and each run's context " +
			"`resilienteino.NewRun(ctx)`.",
		Transport: func(rt http.RoundTripper) http.RoundTripper { return resilienteino.Transport(rt) },
		Agent: func(r rig) func(cfg *adk.ChatModelAgentConfig) {
			ts := r.ts
			h := resilienteino.Handler(
				resilienteino.Backoff(ts.of(middleware.DefaultBaseDelay), ts.of(middleware.DefaultMaxDelay)),
				resilienteino.RetryAfterCap(ts.of(middleware.DefaultRetryAfterCap)),
				resilienteino.CircuitBreaker(breaker.DefaultFailures, ts.of(breaker.DefaultDelay)),
				resilienteino.Timeout(ts.of(middleware.DefaultTimeout)),
				resilienteino.ToolOptions(tools.Timeout(ts.of(tools.DefaultTimeout)),
					tools.Middleware(middleware.CircuitBreaker(tools.DefaultBreakerFailures, ts.of(tools.DefaultBreakerDelay)))),
				resilienteino.ForTool("lookup_order", resilienteino.SafeToRetry()),
				resilienteino.ForTool("quote_shipping", resilienteino.SafeToRetry()),
				resilienteino.ForTool("charge_card", resilienteino.Idempotent(nil),
					resilienteino.ToolOptions(tools.Lease(ts.of(tools.DefaultLease)))))
			return func(cfg *adk.ChatModelAgentConfig) { cfg.Handlers = append(cfg.Handlers, h) }
		},
		Run: func(ctx context.Context) context.Context { return resilienteino.NewRun(ctx) },
	}
}

// einoTool is a tool of the runs as an Eino tool: the model's arguments
// carry the input as scenario 8's agent sends it.
type einoTool struct{ t *agentTool }

func (e einoTool) Info(context.Context) (*schema.ToolInfo, error) {
	return &schema.ToolInfo{Name: e.t.name, Desc: e.t.desc,
		ParamsOneOf: schema.NewParamsOneOfByParams(map[string]*schema.ParameterInfo{
			"__arg1": {Type: schema.String, Desc: "the input", Required: true}})}, nil
}

func (e einoTool) InvokableRun(ctx context.Context, args string, _ ...tool.Option) (string, error) {
	return e.t.Call(ctx, unarg(args))
}

// einoTools returns the four tools of the runs as p wraps them on r.
func (b *toolBox) einoTools(p einoPolicy, r rig) []tool.BaseTool {
	var out []tool.BaseTool
	for _, t := range b.agentTools() {
		var et tool.BaseTool = einoTool{t}
		if p.Tool != nil {
			et = p.Tool(r, einoTool{t}, t.kind)
		}
		out = append(out, et)
	}
	return out
}

// einoModel is eino-ext's openai model pointed at s through rt.
func einoModel(s *faultserver.Server, rt http.RoundTripper) (model.ToolCallingChatModel, error) {
	return openai.NewChatModel(context.Background(), &openai.ChatModelConfig{
		APIKey: "sk-test", Model: "gpt-4o", BaseURL: s.OpenAIBaseURL(), HTTPClient: &http.Client{Transport: rt}})
}

// einoResult is what one policy's runs did.
type einoResult struct {
	agentResult
	secrets int // model requests that carried the payment service's credential
}

// runEino makes the runs numbered runs through p, agentConcurrency at a
// time, as runAgents does for langchaingo.
func runEino(p einoPolicy, runs []int) (einoResult, error) {
	ts := defaultScale
	provider := newAgentModel(primarySeed, ts)
	provider.secret = []byte(einoSecret)
	s := faultserver.New(faultserver.Func(provider.step))
	defer s.Close()
	r := newRig(s, ts)
	defer r.close()
	rt := r.transport
	if p.Transport != nil {
		rt = p.Transport(rt)
	}
	m, err := einoModel(s, rt)
	if err != nil {
		return einoResult{}, err
	}
	box := newToolBox(primarySeed, ts)
	box.secret = einoSecret
	agentTools := box.einoTools(p, r)
	complete := func(*adk.ChatModelAgentConfig) {}
	if p.Agent != nil {
		complete = p.Agent(r)
	}
	// newRunner runs a new agent over the policy's model and tools.
	newRunner := func() (*adk.Runner, error) {
		cfg := &adk.ChatModelAgentConfig{Name: "payments", Description: "pays orders",
			Instruction: "You pay orders with the tools.", Model: m, MaxIterations: maxIterations,
			ToolsConfig: adk.ToolsConfig{ToolsNodeConfig: compose.ToolsNodeConfig{Tools: agentTools}}}
		complete(cfg)
		agent, err := adk.NewChatModelAgent(context.Background(), cfg)
		if err != nil {
			return nil, err
		}
		return adk.NewRunner(context.Background(), adk.RunnerConfig{Agent: agent}), nil
	}
	if _, err := newRunner(); err != nil {
		return einoResult{}, err
	}

	res := einoResult{agentResult: agentResult{runs: make([]agentRun, len(runs))}}
	work := make(chan int)
	var wg sync.WaitGroup
	for range agentConcurrency {
		wg.Go(func() {
			for i := range work {
				runner, err := newRunner()
				if err != nil { // it built above
					res.runs[i] = agentRun{script: newScript(runs[i]), err: err}
					continue
				}
				res.runs[i] = oneEinoRun(p, runner, newScript(runs[i]), ts)
			}
		})
	}
	for i := range runs {
		work <- i
	}
	close(work)
	wg.Wait()
	s.Close()

	res.faults = map[string]int{}
	for _, q := range provider.requests() {
		res.requests++
		res.tokens += q.tokens
		if q.fault != "" {
			res.faults[q.fault]++
		}
		if q.secret {
			res.secrets++
		}
	}
	res.toolCalls = box.calls()
	res.duplicates = box.payments.duplicates()
	markUnpaid(res.runs, box.payments)
	return res, nil
}

// oneEinoRun runs one script through the agent, to its last message.
func oneEinoRun(p einoPolicy, runner *adk.Runner, script agentScript, ts timeScale) agentRun {
	ctx, cancel := context.WithTimeout(context.Background(), ts.of(runDeadline))
	defer cancel()
	if p.Run != nil {
		ctx = p.Run(ctx)
	}
	start := time.Now()
	iter := runner.Run(ctx, []*schema.Message{schema.UserMessage(script.task())})
	run := agentRun{script: script}
	for {
		e, ok := iter.Next()
		if !ok {
			break
		}
		if e.Err != nil {
			run.err = e.Err
			continue
		}
		if msg, _, err := adk.GetMessage(e); err == nil && msg != nil && msg.Role == schema.Assistant && len(msg.ToolCalls) == 0 {
			run.output = msg.Content
		}
	}
	if run.err == nil && ctx.Err() != nil {
		run.err = ctx.Err()
	}
	run.wall = time.Since(start)
	return run
}

// einoCause names why an Eino run failed, in scenario 8's words where they
// apply.
func einoCause(err error) string {
	var exhausted *adk.RetryExhaustedError
	switch {
	case errors.Is(err, adk.ErrExceedMaxIterations):
		return "agent iteration limit"
	case errors.As(err, &exhausted):
		return "model: Eino's retries exhausted (" + taxonomy.Classify(exhausted.LastErr).Kind.String() + ")"
	}
	return cause(err)
}

func einoScenario(cfg config) (section, error) {
	n := agentRuns
	if cfg.quick {
		n = 40
	}
	runs := make([]int, n)
	for i := range runs {
		runs[i] = i
	}
	ps := einoPolicies()
	res := make([]einoResult, len(ps))
	for i, p := range ps { // one policy at a time, as scenario 8
		var err error
		if res[i], err = runEino(p, runs); err != nil {
			return section{}, fmt.Errorf("%s: %w", p.Name, err)
		}
	}
	var steps int
	for run := range n {
		steps += newScript(run).modelSteps()
	}
	faultFree := float64(steps) / float64(n)

	sec := section{number: 10, title: "Whole agent runs on Eino",
		table: table{header: []string{"policy", "runs completed", "failed", "misleading successes", "duplicated payments",
			"secrets sent to the model", "requests / completed run", "vs fault-free", "429s retried early",
			"p50 run (provider time)", "p99 run (provider time)", "why runs failed"}}}
	served := map[string]int{}
	for _, r := range res {
		for k, v := range r.faults {
			served[k] += v
		}
	}
	var abouts bytes.Buffer
	for _, p := range ps {
		fmt.Fprintf(&abouts, "- **%s**: %s\n", p.Name, p.About)
	}
	sec.setup = fmt.Sprintf("Scenario 8's %d runs, its scripted provider, its faults and its tools, on Eino v0.9.0: "+
		"an `adk.ChatModelAgent` (iteration limit %d) with eino-ext's openai model v0.1.7, run by `adk.Runner` without "+
		"streaming (the runner's default), so that a stream cut is a reply cut in its body; each run has an agent of "+
		"its own over the policy's model, tools and handler (Eino v0.9.0's agent is not safe for concurrent runs). The payment service's "+
		"failures carry its credential in their text (`%s...`), as an SDK's error that prints its request does; "+
		"\"secrets sent to the model\" counts the model requests that carried it. The policies:\n\n%s\n"+
		"Served in all, over every policy: %s. The other columns are scenario 8's; \"429s retried early\" counts "+
		"the retries of a rate-limited request sent before its Retry-After had passed.",
		n, maxIterations, einoSecret[:8], abouts.String(), formatReasons(served))
	for i, p := range ps {
		r := res[i]
		st := r.stats(faultFree)
		causes := map[string]int{}
		for _, run := range r.runs {
			if !run.completed() && !run.misleading() {
				causes[einoCause(run.err)]++
			}
		}
		sec.table.add(p.Name, fmt.Sprintf("%d (%.1f %%)", st.completed, st.completedPct),
			fmt.Sprint(st.failed), fmt.Sprint(st.misleading), fmt.Sprint(r.duplicates), fmt.Sprint(r.secrets),
			fmt.Sprintf("%.2f", st.requestsPerCompleted), fmt.Sprintf("%.2fx", st.vsFaultFree),
			fmt.Sprint(r.faults["429 (retried early)"]),
			formatMillis(ms(defaultScale.provider(st.p50))), formatMillis(ms(defaultScale.provider(st.p99))),
			formatReasons(causes))
		if !p.Library {
			continue
		}
		add := func(what, measured string, pass bool, why string) {
			sec.targets = append(sec.targets, target{scenario: 10, what: p.Name + ": " + what, measured: measured, pass: pass, why: why})
		}
		add("at least 99 % of runs completed", fmt.Sprintf("%.1f %% (%d of %d)", st.completedPct, st.completed, n),
			st.completedPct >= 99, "failed: "+formatReasons(causes))
		add("at most 1.15x the requests of a fault-free run", fmt.Sprintf("%.2fx", st.vsFaultFree), st.vsFaultFree <= 1.15,
			"served: "+formatReasons(r.faults))
		add("zero duplicated payments", fmt.Sprint(r.duplicates), r.duplicates == 0, "")
		add("no secret sent to the model", fmt.Sprint(r.secrets), r.secrets == 0, "")
		add("no 429 retried before its Retry-After", fmt.Sprint(r.faults["429 (retried early)"]), r.faults["429 (retried early)"] == 0, "")
		add("zero misleading successes", fmt.Sprint(st.misleading), st.misleading == 0, "")
	}
	sec.notes = append(sec.notes, "A run is completed when the agent's last message is the script's answer and the "+
		"payment service charged the run's order; a misleading success is a run that answered otherwise, or said the "+
		"order was paid when it was never charged (a failed charge taken for done). "+
		"Eino's own retry sends every failure again, the 400 of a context overflow included (which no retry mends), "+
		"and waits its own backoff whatever the provider's Retry-After says; its tool error handler hands the model "+
		"each error's text. The library's handler compacts the overflowing conversation, waits the Retry-After, "+
		"retries only what a retry can mend, and maps tool failures at the boundary.")
	return sec, nil
}
