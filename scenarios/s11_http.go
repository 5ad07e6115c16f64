package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"

	"github.com/resilientgo/resilient"
	"github.com/resilientgo/resilient/breaker"
	"github.com/resilientgo/resilient/faultserver"
	"github.com/resilientgo/resilient/llms"
	"github.com/resilientgo/resilient/middleware"
	"github.com/resilientgo/resilient/resilienthttp"
)

// Scenario 11: scenario 8's runs as a plain openai-go tool-calling loop,
// with the faults the HTTP layer is for, openai-go's own retry beside
// resilienthttp.

// httpFaults are the model's faults in this scenario, drawn per request:
// what the HTTP layer can see and mend. No context overflow, no stream cut
// after its first chunk (no one below the SDK can take back what it read),
// and the tools do not fail.
var httpFaults = struct {
	overloaded, rateLimited, badGateway, dropped, inBand float64
	retryAfter                                           time.Duration // of a 429, provider time
	latency                                              time.Duration // of every answer, provider time
}{overloaded: 0.03, rateLimited: 0.02, badGateway: 0.01, dropped: 0.015, inBand: 0.02,
	retryAfter: 2 * time.Second, latency: time.Second}

// The drawn faults, as the report names them.
const (
	faultDropped = "dropped connection"
	faultInBand  = "in-band error before the first event"
	httpSeed     = 11
)

// httpFault is the fault drawn for the n-th request for reply key, "" for
// none.
func httpFault(key string, n int) string {
	f := httpFaults
	switch u := chance(httpSeed, "http/"+key, n); {
	case u < f.overloaded:
		return fault529
	case u < f.overloaded+f.rateLimited:
		return fault429
	case u < f.overloaded+f.rateLimited+f.badGateway:
		return fault502
	case u < f.overloaded+f.rateLimited+f.badGateway+f.dropped:
		return faultDropped
	case u < f.overloaded+f.rateLimited+f.badGateway+f.dropped+f.inBand:
		return faultInBand
	}
	return ""
}

// loopModel is scenario 8's scripted tool-calling model (see agentModel)
// with this scenario's faults. It is safe for concurrent use.
type loopModel struct {
	ts timeScale

	mu     sync.Mutex
	seen   map[string]int
	reopen map[string]time.Time
	log    []modelRequest
}

func newLoopModel(ts timeScale) *loopModel {
	return &loopModel{ts: ts, seen: map[string]int{}, reopen: map[string]time.Time{}}
}

func (m *loopModel) requests() []modelRequest {
	m.mu.Lock()
	defer m.mu.Unlock()
	return append([]modelRequest(nil), m.log...)
}

// step answers one request.
func (m *loopModel) step(req *faultserver.Request) faultserver.Step {
	var body chatRequest
	if err := json.Unmarshal(req.Body, &body); err != nil {
		return faultserver.Status(400, "the harness's model could not read the request: "+err.Error())
	}
	rp, _, err := next(body.Messages)
	if err != nil {
		return faultserver.Status(400, "the harness's model: "+err.Error())
	}
	prompt := len(req.Body)/4 + 1
	m.mu.Lock()
	defer m.mu.Unlock()
	log := func(fault string, tokens int) {
		m.log = append(m.log, modelRequest{run: rp.run, fault: fault, tokens: tokens})
	}
	key := rp.key()
	if until, ok := m.reopen[key]; ok && req.Time.Before(until) {
		log("429 (retried early)", 0)
		return rateLimitedFor(until.Sub(req.Time))
	}
	n := m.seen[key]
	m.seen[key]++
	switch fault := httpFault(key, n); fault {
	case fault529:
		log(fault, 0)
		return faultserver.Overloaded()
	case fault429:
		wait := m.ts.of(httpFaults.retryAfter)
		m.reopen[key] = req.Time.Add(wait)
		log(fault, 0)
		return rateLimitedFor(wait)
	case fault502:
		log(fault, 0)
		return faultserver.BadGateway()
	case faultDropped:
		log(fault, 0)
		return faultserver.HangUp()
	case faultInBand:
		log(fault, prompt)
		return faultserver.InBandError("server_error", "The server had an error while processing your request. Sorry about that!").
			After(m.ts.of(httpFaults.latency))
	}
	latency := m.ts.of(httpFaults.latency)
	if rp.calls == nil {
		log("", prompt+len(strings.Fields(rp.answer)))
		return faultserver.Reply(rp.answer).After(latency)
	}
	calls := make([]faultserver.ToolCall, len(rp.calls))
	for k, c := range rp.calls {
		calls[k] = faultserver.ToolCall{ID: callID(rp.run, rp.step, rp.attempt, k), Name: c.tool, Arguments: arg(c.input)}
	}
	log("", prompt+20*len(calls))
	return faultserver.ReplyToolCalls(calls...).After(latency)
}

// loopPolicy is one row: how the loop's openai-go client is built, and the
// context of each run.
type loopPolicy struct {
	name, about string
	library     bool
	options     func(r rig) []option.RequestOption
	run         func(ctx context.Context) context.Context
}

// httpDefaults are resilienthttp's default durations, from the exported
// constants, divided by the time scale.
func httpDefaults(ts timeScale) []resilienthttp.Option {
	return []resilienthttp.Option{
		resilienthttp.Backoff(ts.of(middleware.DefaultBaseDelay), ts.of(middleware.DefaultMaxDelay)),
		resilienthttp.RetryAfterCap(ts.of(middleware.DefaultRetryAfterCap)),
		resilienthttp.CircuitBreaker(breaker.DefaultFailures, ts.of(breaker.DefaultDelay)),
		resilienthttp.Timeout(ts.of(middleware.DefaultTimeout)),
		resilienthttp.StreamIdleTimeout(ts.of(llms.DefaultStreamIdleTimeout)),
	}
}

func loopPolicies() []loopPolicy {
	sdk := openaiGo
	return []loopPolicy{
		{name: "openai-go, retries off", about: "openai-go as shipped with `option.WithMaxRetries(0)`: no retry at all.",
			options: func(rig) []option.RequestOption { return []option.RequestOption{option.WithMaxRetries(0)} }},
		{name: sdk.name(), about: fmt.Sprintf("openai-go %s as shipped, its own retry at its defaults (%d retries; see "+
			"the policy of that name above, whose loop is the one running here, inside the SDK). Its backoff cannot be "+
			"configured, so its waits are not scaled: they are 100 times longer, in provider time, than they would be.",
			sdk.version, sdk.maxRetries),
			options: func(rig) []option.RequestOption { return nil }},
		{name: "openai-go + resilienthttp", library: true, about: "openai-go with " +
			"`option.WithMiddleware(resilienthttp.Middleware(...))`, the library's defaults with every duration divided by " +
			"the time scale (from middleware.DefaultBaseDelay, DefaultMaxDelay, DefaultRetryAfterCap, " +
			"DefaultTimeout, breaker.DefaultFailures, DefaultDelay and llms.DefaultStreamIdleTimeout), and the SDK's own retries left " +
			"on at their default; each run's context is `resilient.NewRun(ctx)` (a retry budget of 10).",
			options: func(r rig) []option.RequestOption {
				return []option.RequestOption{option.WithMiddleware(resilienthttp.Middleware(httpDefaults(r.ts)...))}
			},
			run: func(ctx context.Context) context.Context { return resilient.NewRun(ctx) }},
	}
}

// loopTools are the four tools of the runs, as the model is told of them.
func loopTools() []openai.ChatCompletionToolUnionParam {
	var out []openai.ChatCompletionToolUnionParam
	for _, t := range []struct{ name, desc string }{
		{"lookup_order", "Looks an order up."},
		{"quote_shipping", "Quotes shipping for an order."},
		{"charge_card", "Charges the card on file."},
		{"send_receipt", "Emails the receipt."},
	} {
		out = append(out, openai.ChatCompletionFunctionTool(openai.FunctionDefinitionParam{
			Name: t.name, Description: openai.String(t.desc),
			Parameters: openai.FunctionParameters{"type": "object"},
		}))
	}
	return out
}

// errLoopLimit ends a loop that took more steps than any plan has.
var errLoopLimit = errors.New("the loop's step limit")

// oneLoop is the agent: a plain tool-calling loop over openai-go's
// streaming chat completions, as the SDK's examples write it. Tools are
// called as they are; they do not fail in this scenario.
func oneLoop(ctx context.Context, client openai.Client, box *toolBox, script agentScript) (string, error) {
	messages := []openai.ChatCompletionMessageParamUnion{openai.UserMessage(script.task())}
	tools := map[string]*agentTool{}
	for _, name := range []string{"lookup_order", "quote_shipping", "charge_card", "send_receipt"} {
		tools[name] = &agentTool{name: name, box: box}
	}
	for range maxIterations {
		stream := client.Chat.Completions.NewStreaming(ctx, openai.ChatCompletionNewParams{
			Model: "gpt-4o-mini", Messages: messages, Tools: loopTools(),
		})
		var acc openai.ChatCompletionAccumulator
		for stream.Next() {
			acc.AddChunk(stream.Current())
		}
		err := stream.Err()
		stream.Close()
		if err != nil {
			return "", err
		}
		if len(acc.Choices) == 0 {
			return "", errors.New("no choices")
		}
		msg := acc.Choices[0].Message
		if len(msg.ToolCalls) == 0 {
			return msg.Content, nil
		}
		messages = append(messages, msg.ToParam())
		for _, call := range msg.ToolCalls {
			t, ok := tools[call.Function.Name]
			out := "Error: no such tool"
			if ok {
				box.next(t.name, call.Function.Arguments)
				out = t.effect(ctx, call.Function.Arguments)
			}
			messages = append(messages, openai.ToolMessage(out, call.ID))
		}
	}
	return "", errLoopLimit
}

// loopResult is what one policy's runs did.
type loopResult struct {
	runs     []agentRun
	requests int
	tokens   int
	faults   map[string]int
}

// runLoops makes the numbered runs through p, agentConcurrency at a time.
func runLoops(p loopPolicy, runs []int) (loopResult, error) {
	ts := defaultScale
	model := newLoopModel(ts)
	srv := faultserver.New(faultserver.Func(model.step))
	defer srv.Close()
	r := newRig(srv, ts)
	defer r.close()
	opts := append([]option.RequestOption{option.WithBaseURL(srv.OpenAIBaseURL() + "/"), option.WithAPIKey("sk-test"),
		option.WithHTTPClient(&http.Client{Transport: r.transport})}, p.options(r)...)
	client := openai.NewClient(opts...)
	box := newToolBox(httpSeed, ts)

	res := loopResult{runs: make([]agentRun, len(runs))}
	work := make(chan int)
	var wg sync.WaitGroup
	for range agentConcurrency {
		wg.Go(func() {
			for i := range work {
				script := newScript(runs[i])
				ctx, cancel := context.WithTimeout(context.Background(), ts.of(runDeadline))
				if p.run != nil {
					ctx = p.run(ctx)
				}
				start := time.Now()
				out, err := oneLoop(ctx, client, box, script)
				cancel()
				res.runs[i] = agentRun{script: script, output: out, err: err, wall: time.Since(start)}
			}
		})
	}
	for i := range runs {
		work <- i
	}
	close(work)
	wg.Wait()
	srv.Close()

	res.faults = map[string]int{}
	for _, q := range model.requests() {
		res.requests++
		res.tokens += q.tokens
		if q.fault != "" {
			res.faults[q.fault]++
		}
	}
	return res, nil
}

// loopCause names why a loop failed.
func loopCause(err error) string {
	var apiErr *openai.Error
	var final *middleware.Error
	switch {
	case errors.Is(err, context.DeadlineExceeded):
		return "run deadline"
	case errors.Is(err, errLoopLimit):
		return "step limit"
	case errors.As(err, &final):
		return "the library gave up: " + final.Reason.String()
	case errors.As(err, &apiErr) && apiErr.StatusCode != 0:
		return fmt.Sprintf("status %d", apiErr.StatusCode)
	case strings.Contains(err.Error(), "server had an error"):
		return "in-band error event"
	case errors.As(err, new(*url.Error)):
		return "dropped connection"
	}
	return "other: " + err.Error()
}

func (r loopResult) stats(faultFree float64) agentStats {
	st := agentStats{causes: map[string]int{}}
	walls := make([]time.Duration, len(r.runs))
	for i, run := range r.runs {
		walls[i] = run.wall
		switch {
		case run.completed():
			st.completed++
		case run.misleading():
			st.misleading++
		default:
			st.failed++
			st.causes[loopCause(run.err)]++
		}
	}
	st.completedPct = 100 * float64(st.completed) / float64(len(r.runs))
	st.requestsPerCompleted = float64(r.requests) / float64(max(st.completed, 1))
	st.vsFaultFree = st.requestsPerCompleted / faultFree
	st.tokensPerCompleted = float64(r.tokens) / float64(max(st.completed, 1))
	st.p50 = time.Duration(percentile(walls, 50) * float64(time.Millisecond))
	st.p99 = time.Duration(percentile(walls, 99) * float64(time.Millisecond))
	return st
}

func httpScenario(cfg config) (section, error) {
	n := agentRuns
	if cfg.quick {
		n = 40
	}
	ps := loopPolicies()
	runs := make([]int, n)
	steps := 0
	for i := range runs {
		runs[i] = i
		steps += newScript(i).modelSteps()
	}
	faultFree := float64(steps) / float64(n)
	res := make([]loopResult, len(ps))
	for i, p := range ps {
		var err error
		if res[i], err = runLoops(p, runs); err != nil {
			return section{}, fmt.Errorf("%s: %w", p.name, err)
		}
	}

	f := httpFaults
	sec := section{number: 11, title: "An openai-go tool-calling loop at the HTTP layer",
		table: table{header: []string{"policy", "runs completed", "failed", "misleading successes",
			"requests / completed run", "vs fault-free", "tokens / completed run", "why runs failed"}},
		compact: table{header: []string{"policy", "runs completed", "requests / completed run", "vs fault-free"}}}
	served := map[string]int{}
	for _, r := range res {
		for k, v := range r.faults {
			served[k] += v
		}
	}
	var about []string
	for _, p := range ps {
		about = append(about, fmt.Sprintf("**%s**: %s", p.name, p.about))
	}
	sec.setup = fmt.Sprintf("Scenario 8's %d runs (the same scripts, %d at a time), but the agent is a plain tool-calling "+
		"loop over openai-go v3's streaming chat completions (`NewStreaming`, `ChatCompletionAccumulator`, the tool "+
		"results sent back with `ToolMessage`), its tools called as they are, and they do not fail. The faults are "+
		"the ones the HTTP layer is for, drawn per request as in scenario 8: %.1f %% 529 overloaded, %.1f %% 429 with "+
		"retry-after-ms %d (Retry-After %v; a retry before then gets another 429), %.1f %% a 502 HTML page, %.1f %% a "+
		"connection dropped before any response, %.1f %% an in-band error event (`data: {\"error\": ...}`) before the "+
		"stream's first chunk; no context overflow, no stream cut after its first chunk. Every answer takes %v. "+
		"Served in all, over every policy: %s. A run is completed when the loop returns the script's answer. "+
		"\"vs fault-free\" divides the requests per completed run by the model steps of a run without faults (%.2f).\n\n%s",
		n, agentConcurrency, 100*f.overloaded, 100*f.rateLimited, defaultScale.of(f.retryAfter).Milliseconds(),
		f.retryAfter, 100*f.badGateway, 100*f.dropped, 100*f.inBand, f.latency, formatReasons(served), faultFree,
		"- "+strings.Join(about, "\n- "))
	sec.brief = fmt.Sprintf("%d runs of a plain openai-go v3 tool-calling loop (streaming) with %.1f %% 529s, %.1f %% 429s "+
		"with a hint, %.1f %% 502 pages, %.1f %% dropped connections and %.1f %% in-band error events before the first "+
		"chunk per request.", n, 100*f.overloaded, 100*f.rateLimited, 100*f.badGateway, 100*f.dropped, 100*f.inBand)
	for i, p := range ps {
		st := res[i].stats(faultFree)
		sec.table.add(p.name, fmt.Sprintf("%d (%.1f %%)", st.completed, st.completedPct), fmt.Sprint(st.failed),
			fmt.Sprint(st.misleading), fmt.Sprintf("%.2f", st.requestsPerCompleted), fmt.Sprintf("%.2fx", st.vsFaultFree),
			fmt.Sprintf("%.0f", st.tokensPerCompleted), formatReasons(st.causes))
		sec.compact.add(p.name, fmt.Sprintf("%d (%.1f %%)", st.completed, st.completedPct),
			fmt.Sprintf("%.2f", st.requestsPerCompleted), fmt.Sprintf("%.2fx", st.vsFaultFree))
		if !p.library {
			continue
		}
		short := int(float64(n)*0.99+0.999999) - st.completed
		sec.targets = append(sec.targets,
			target{scenario: 11, what: p.name + ": at least 99 % of runs completed",
				measured: fmt.Sprintf("%.1f %% (%d of %d)", st.completedPct, st.completed, n), pass: short <= 0,
				why: fmt.Sprintf("%d runs short; failed: %s", short, formatReasons(st.causes))},
			target{scenario: 11, what: p.name + ": at most 1.15x the requests of a fault-free run",
				measured: fmt.Sprintf("%.2fx", st.vsFaultFree), pass: st.vsFaultFree <= 1.15,
				why: fmt.Sprintf("served: %s", formatReasons(res[i].faults))})
	}
	sec.notes = append(sec.notes, "openai-go retries a 529, a 429, a 502 and a dropped connection by itself, but an error "+
		"event inside a 200 stream reaches the loop as `stream.Err()`, which ends the run: no retry of the SDK's sees it. "+
		"resilienthttp holds the stream back until its first chunk with content, retries the error event, and hands the "+
		"SDK the stream that answered; its last response, when a call fails, says `x-should-retry: false`, so that the "+
		"SDK's own retries, left on, never add a request.")
	return sec, nil
}
