package main

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/tmc/langchaingo/agents"
	"github.com/tmc/langchaingo/chains"
	lcllms "github.com/tmc/langchaingo/llms"
	lctools "github.com/tmc/langchaingo/tools"

	"github.com/resilientgo/resilient"
	"github.com/resilientgo/resilient/faultserver"
	"github.com/resilientgo/resilient/llms"
	"github.com/resilientgo/resilient/middleware"
	"github.com/resilientgo/resilient/run"
	"github.com/resilientgo/resilient/taxonomy"
	"github.com/resilientgo/resilient/tools"
)

// Scenario 8: whole agent runs.
const (
	agentRuns        = 200
	agentConcurrency = 10               // runs in flight at once, per policy
	runDeadline      = 10 * time.Minute // provider time: a run still going then has failed
	maxIterations    = 3 * maxSteps     // the executor's step limit, far above any plan
	primarySeed      = 8
	fallbackSeed     = 88
)

// agentPolicies are the baselines, then this library: its defaults, with
// the stream restart hook a streaming agent needs, and with a fallback
// model as well.
func agentPolicies() []Policy {
	return append(policies(),
		libraryPolicy(libraryConfig{streamRestart: true}),
		libraryPolicy(libraryConfig{streamRestart: true, fallback: true}))
}

// streamed is what the user saw of a run: the text the agent streamed. It
// is safe for concurrent use.
type streamed struct {
	mu   sync.Mutex
	text string
}

// show is the run's streaming function.
func (s *streamed) show(_ context.Context, chunk []byte) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.text += string(chunk)
	return nil
}

type streamedKey struct{}

// clearStreamed is the stream restart hook: before a streamed call is
// tried again, the text the failed attempt showed is taken off the run's
// screen.
func clearStreamed(ctx context.Context, partial string) error {
	if s, ok := ctx.Value(streamedKey{}).(*streamed); ok {
		s.mu.Lock()
		s.text = strings.TrimSuffix(s.text, partial)
		s.mu.Unlock()
	}
	return nil
}

// agentRun is how one run ended.
type agentRun struct {
	script    agentScript
	output    string
	err       error
	wall      time.Duration
	unpaid    bool // the run's order was never charged
	pastLimit int  // retries past a call's attempt limit (run.Usage.PastLimit)
}

func (r agentRun) completed() bool { return r.err == nil && r.output == r.script.answer && !r.unpaid }
func (r agentRun) misleading() bool {
	return r.err == nil && (r.output != r.script.answer || r.unpaid)
}

// markUnpaid marks the runs whose order the payment service never charged:
// an answer that says the order is paid is then a misleading one.
func markUnpaid(runs []agentRun, p *paymentService) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for i := range runs {
		runs[i].unpaid = p.charges[runs[i].script.order] == 0
	}
}

// agentResult is what one policy's runs did.
type agentResult struct {
	runs       []agentRun
	requests   int            // to both providers
	tokens     int            // billed by both providers
	faults     map[string]int // what the providers served, by fault
	toolCalls  int
	duplicates int // charges beyond the first of an order
	pastLimit  int // retries past a call's attempt limit, over every run (library rows)
}

// runAgents makes the runs numbered runs through p, agentConcurrency at a
// time, against providers with scenario 8's faults.
func runAgents(p Policy, runs []int) (agentResult, error) { return runAgentsWith(p, runs, modelFaults) }

// runAgentsWith makes the runs against providers with the faults of mix.
func runAgentsWith(p Policy, runs []int, mix faultMix) (agentResult, error) {
	ts := defaultScale
	primary, second := newAgentModel(primarySeed, ts), newAgentModel(fallbackSeed, ts)
	primary.faults, second.faults = mix, mix
	s1, s2 := faultserver.New(faultserver.Func(primary.step)), faultserver.New(faultserver.Func(second.step))
	defer s1.Close()
	defer s2.Close()
	r := newRig(s1, ts)
	r.fallback = s2
	defer r.close()
	model, err := p.Model(r)
	if err != nil {
		return agentResult{}, err
	}
	box := newToolBox(primarySeed, ts)
	tools := box.tools(p, r)
	for _, t := range tools {
		if w, ok := t.(interface{ Err() error }); ok && w.Err() != nil {
			return agentResult{}, w.Err()
		}
	}

	res := agentResult{runs: make([]agentRun, len(runs))}
	work := make(chan int)
	var wg sync.WaitGroup
	for range agentConcurrency {
		wg.Go(func() {
			for i := range work {
				res.runs[i] = oneRun(p, model, tools, newScript(runs[i]), ts)
			}
		})
	}
	for i := range runs {
		work <- i
	}
	close(work)
	wg.Wait()
	s1.Close() // every handler has returned
	s2.Close()

	res.faults = map[string]int{}
	for _, q := range append(primary.requests(), second.requests()...) {
		res.requests++
		res.tokens += q.tokens
		if q.fault != "" {
			res.faults[q.fault]++
		}
	}
	for _, run := range res.runs {
		res.pastLimit += run.pastLimit
	}
	res.toolCalls = box.calls()
	res.duplicates = box.payments.duplicates()
	markUnpaid(res.runs, box.payments)
	return res, nil
}

// oneRun runs one script through a real agents.Executor.
func oneRun(p Policy, model lcllms.Model, tools []lctools.Tool, script agentScript, ts timeScale) agentRun {
	ctx, cancel := context.WithTimeout(context.Background(), ts.of(runDeadline))
	defer cancel()
	ui := &streamed{}
	ctx = context.WithValue(ctx, streamedKey{}, ui)
	if p.Run != nil {
		ctx = p.Run(ctx)
	}
	agent := agents.NewOpenAIFunctionsAgent(model, tools)
	executor := agents.NewExecutor(agent, agents.WithMaxIterations(maxIterations))
	start := time.Now()
	// The streaming function goes with the call: the agent's own callbacks
	// handler is overridden by the chain's call options, which set none.
	out, err := executor.Call(ctx, map[string]any{"input": script.task()}, chains.WithStreamingFunc(ui.show))
	run := agentRun{script: script, err: err, wall: time.Since(start), pastLimit: resilient.UsageFrom(ctx).PastLimit}
	run.output, _ = out["output"].(string)
	return run
}

// cause names why a run failed, in the same words for every policy.
func cause(err error) string {
	var fault *toolFault
	var toolErr *taxonomy.ToolError
	var fatal *taxonomy.FatalToolError
	var partial *llms.PartialStreamError
	var final *middleware.Error
	switch {
	case errors.Is(err, tools.ErrStuck) && errors.As(err, &fatal):
		return "tool " + fatal.Tool + " stopped the run as stuck (the repeat limit: a 4th call with the same input)"
	case errors.Is(err, context.DeadlineExceeded):
		return "run deadline"
	case errors.Is(err, agents.ErrNotFinished):
		return "executor step limit"
	case errors.As(err, &fatal):
		return "tool " + fatal.Tool + " ended the run: " + taxonomy.Classify(fatal.Cause).Kind.String()
	case errors.As(err, &toolErr):
		return "a tool rejected its input"
	case errors.As(err, &fault):
		return "tool " + fault.tool + " failed"
	case errors.As(err, &partial):
		return "model: stream cut after text was shown (not retried without OnStreamRestart)"
	case errors.As(err, &final):
		return "model: " + final.Reason.String() + " (" + final.Class().Kind.String() + ")"
	}
	return "model: " + taxonomy.Classify(err).Kind.String()
}

func agentScenario(cfg config) (section, []agentPoint, float64, error) {
	n := agentRuns
	if cfg.quick {
		n = 40
	}
	ps := agentPolicies()
	runs := make([]int, n)
	for i := range runs {
		runs[i] = i
	}
	// One policy at a time: the runs of one already keep this machine's
	// cores busy, and run times measured beside another policy's runs
	// would measure the contention.
	res, err := measure(ps, false, func(p Policy) (agentResult, error) { return runAgents(p, runs) })
	if err != nil {
		return section{}, nil, 0, err
	}

	var steps, calls int
	for run := range n {
		s := newScript(run)
		steps += s.modelSteps()
		for _, st := range s.steps {
			calls += len(st)
		}
	}
	faultFree := float64(steps) / float64(n)
	sec := section{number: 8, title: "Whole agent runs",
		setup: agentSetup(n, faultFree, float64(calls)/float64(n), res),
		table: table{header: []string{"policy", "runs completed", "failed", "misleading successes", "duplicated payments",
			"requests / completed run", "vs fault-free", "tokens / completed run", "tool calls / run",
			"p50 run (provider time)", "p99 run (provider time)", "why runs failed"}},
		compact: table{header: []string{"policy", "runs completed", "misleading successes", "duplicated payments",
			"requests / completed run", "p99 run"}}}
	f := modelFaults
	sec.brief = fmt.Sprintf("%d runs per policy of a real `agents.Executor` (streaming, 4 to 7 model steps, 3 to 6 "+
		"tool calls, one of them a payment), with %.1f %% 529s, %.1f %% 429s, %.1f %% cut streams and %.1f %% HTML 502s "+
		"per request, a context overflow in runs of seven steps, and %.1f %% transient failures, %.1f %% ToolErrors "+
		"and %.1f %% hangs per tool call.", n, 100*f.overloaded, 100*f.rateLimited, 100*f.cutStream, 100*f.badGateway,
		100*toolFaults.transient, 100*toolFaults.toolError, 100*toolFaults.hang)
	var points []agentPoint
	for i, p := range ps {
		r := res[i]
		st := r.stats(faultFree)
		sec.table.add(p.Name,
			fmt.Sprintf("%d (%.1f %%)", st.completed, st.completedPct),
			fmt.Sprint(st.failed), fmt.Sprint(st.misleading), fmt.Sprint(r.duplicates),
			fmt.Sprintf("%.2f", st.requestsPerCompleted), fmt.Sprintf("%.2fx", st.vsFaultFree),
			fmt.Sprintf("%.0f", st.tokensPerCompleted),
			fmt.Sprintf("%.2f", float64(r.toolCalls)/float64(len(r.runs))),
			formatMillis(ms(defaultScale.provider(st.p50))), formatMillis(ms(defaultScale.provider(st.p99))),
			formatReasons(st.causes))
		sec.compact.add(p.Name, fmt.Sprintf("%d (%.1f %%)", st.completed, st.completedPct), fmt.Sprint(st.misleading),
			fmt.Sprint(r.duplicates), fmt.Sprintf("%.2f", st.requestsPerCompleted),
			formatMillis(ms(defaultScale.provider(st.p99))))
		points = append(points, agentPoint{name: p.Name, library: p.Library, completedPct: st.completedPct,
			requestsPerRun: float64(r.requests) / float64(len(r.runs))})
	}
	sec.targets = agentTargets(ps, res, faultFree)
	heavy, targets, err := heavyRuns(runs, faultFree)
	if err != nil {
		return section{}, nil, 0, err
	}
	sec.targets = append(sec.targets, targets...)
	sec.notes = append(sec.notes, "Why runs failed names what ended each failed run, in the same words for every "+
		"policy: a tool that failed or rejected its input ends the executor's run when the error reaches it (langchaingo "+
		"returns the first tool error as the run's), a model failure is named by the library's reason or, for the "+
		"baselines, by how `taxonomy.Classify` reads the error.")
	sec.notes = append(sec.notes, "![completed runs against requests per run, per policy](agent-runs.png)")
	sec.notes = append(sec.notes, heavy)
	return sec, points, faultFree, nil
}

// pastLimitOption is middleware.PastLimitAttempts(n), for the model and the
// tools of a row.
func pastLimitOption(n int) libOption {
	return fixedOption(resilient.Middleware(middleware.PastLimitAttempts(n)), resilient.Middleware,
		callOf{middleware.PastLimitAttempts, []any{n}})
}

// heavyPolicies are the library's rows of the runs under heavier faults:
// the defaults, then with the stream restart hook and each count of
// attempts past the limit, the default's among them.
func heavyPolicies() []Policy {
	ps := []Policy{libraryPolicy(libraryDefaults())}
	for _, n := range []int{0, 1, middleware.DefaultPastLimitAttempts} {
		c := libraryConfig{streamRestart: true}
		if n != middleware.DefaultPastLimitAttempts {
			c.everywhere = []libOption{pastLimitOption(n)}
		}
		ps = append(ps, libraryPolicy(c))
	}
	return ps
}

// heavyRuns makes the same runs against providers whose requests fail
// 10 % of the time, for the library's rows, and returns the note that
// shows them and their targets.
func heavyRuns(runs []int, faultFree float64) (string, []target, error) {
	ps := heavyPolicies()
	res, err := measure(ps, false, func(p Policy) (agentResult, error) { return runAgentsWith(p, runs, heavyFaults) })
	if err != nil {
		return "", nil, err
	}
	f := heavyFaults
	served := map[string]int{}
	t := table{header: []string{"policy", "runs completed", "failed", "misleading successes", "duplicated payments",
		"requests / completed run", "vs fault-free", "retries past the limit", "why runs failed"}}
	var targets []target
	none := -1 // the row without attempts past the limit
	for i, p := range ps {
		r := res[i]
		st := r.stats(faultFree)
		for k, v := range r.faults {
			served[k] += v
		}
		t.add(p.Name, fmt.Sprintf("%d (%.1f %%)", st.completed, st.completedPct), fmt.Sprint(st.failed),
			fmt.Sprint(st.misleading), fmt.Sprint(r.duplicates), fmt.Sprintf("%.2f", st.requestsPerCompleted),
			fmt.Sprintf("%.2fx", st.vsFaultFree), fmt.Sprint(r.pastLimit), formatReasons(st.causes))
		if p.Name == (libraryConfig{streamRestart: true, everywhere: []libOption{pastLimitOption(0)}}).name() {
			none = i
		}
		if p.Name != (libraryConfig{streamRestart: true}).name() {
			continue
		}
		n := len(r.runs)
		add := func(what, measured string, pass bool, why string) {
			targets = append(targets, target{scenario: 8, what: fmt.Sprintf("%s, %.0f %% faults: %s", p.Name, 100*f.total(), what),
				measured: measured, pass: pass, why: why})
		}
		add("at least 99.5 % of runs completed", fmt.Sprintf("%.1f %% (%d of %d)", st.completedPct, st.completed, n),
			st.completedPct >= 99.5, "failed: "+formatReasons(st.causes))
		b := res[none].stats(faultFree)
		// Requests vary a little between identical rows (a 429's retry races
		// its window): 1 % is that noise, not the cost of a retry.
		add("at least as many runs completed as without attempts past the limit, for at most 1 % more requests per completed run",
			fmt.Sprintf("%d runs, %.3f requests each; without: %d, %.3f", st.completed, st.requestsPerCompleted, b.completed, b.requestsPerCompleted),
			st.completed >= b.completed && st.requestsPerCompleted <= 1.01*b.requestsPerCompleted,
			"the attempts past the limit cost more requests than the runs they completed saved")
		add("zero duplicated payments", fmt.Sprint(r.duplicates), r.duplicates == 0, "")
		add("zero misleading successes", fmt.Sprint(st.misleading), st.misleading == 0, "")
	}
	var b strings.Builder
	fmt.Fprintf(&b, "The same %d runs under heavier faults, for the library's rows: %.0f %% of requests fail, "+
		"independently (%.0f %% 529, %.0f %% 429 with the same Retry-After, %.0f %% a cut stream, %.0f %% a 502), the "+
		"tools' faults as above; served in all: %s. A call of the library that met its attempt limit (%d) may take "+
		"attempts past it, paid from its run's unspent retry budget (%d), while its target's breaker is closed and "+
		"its retry throttle allows retries (`middleware.PastLimitAttempts`, %d by default); \"retries past the limit\" "+
		"counts them (`run.Usage.PastLimit`, over every run). Without `OnStreamRestart` a stream cut after text was "+
		"shown ends its run whatever the budget: the text cannot be taken back. No row can stay within 1.15x the "+
		"fault-free requests here: %.0f %% of requests failing costs 1/(1-%.2f) = %.2fx by itself.\n\n",
		len(runs), 100*f.total(), 100*f.overloaded, 100*f.rateLimited, 100*f.cutStream, 100*f.badGateway,
		formatReasons(served), middleware.DefaultMaxAttempts, run.DefaultRetryBudget, middleware.DefaultPastLimitAttempts,
		100*f.total(), f.total(), 1/(1-f.total()))
	t.write(&b)
	return strings.TrimSpace(b.String()), targets, nil
}

// agentStats are one policy's figures.
type agentStats struct {
	completed, failed, misleading int
	completedPct                  float64
	requestsPerCompleted          float64
	vsFaultFree                   float64 // requests per completed run over the model steps of a run without faults
	tokensPerCompleted            float64
	p50, p99                      time.Duration
	causes                        map[string]int
}

func (r agentResult) stats(faultFree float64) agentStats {
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
			st.causes[cause(run.err)]++
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

// agentSetup describes the scenario from the values it runs with.
func agentSetup(n int, steps, calls float64, res []agentResult) string {
	f, t := modelFaults, toolFaults
	served := map[string]int{}
	for _, r := range res {
		for k, v := range r.faults {
			served[k] += v
		}
	}
	return fmt.Sprintf("Each policy makes the same %d runs of a real `agents.Executor` with an "+
		"`agents.OpenAIFunctionsAgent` over langchaingo's openai client, %d at a time, against `faultserver` playing a "+
		"scripted tool-calling model. Run i pays order i (R0017 for run 17): it looks the order up, gets shipping quotes, charges "+
		"the card and, in longer runs, sends a receipt, in %d to %d model steps (%.2f on average) with 3 to %d tool "+
		"calls (%.2f on average), some of them parallel calls of one step, then answers. The agent streams "+
		"(`chains.WithStreamingFunc` on the executor's call), as agents that show their progress do. The model answers from the "+
		"conversation it is sent, as a real one: the ids of its own tool calls say where the run is; it resends a "+
		"call whose observation starts with \"Error: \", corrects one rejected with a ToolError, and otherwise goes on.\n\n"+
		"Faults, drawn per request from a seeded generator keyed by what is asked (the n-th request for step s of "+
		"run i), so that every policy meets the same fault on the same request: %.1f %% 529 overloaded, %.1f %% 429 "+
		"with retry-after-ms %d (Retry-After %v; a retry of that request before then gets another 429), %.1f %% a "+
		"stream cut after its first chunk (half ending cleanly without its end marker, half broken off), %.1f %% a "+
		"502 with an HTML page; from the %s model step on, a run's full conversation no longer fits the context "+
		"window (a 400 context overflow for every request that still carries the task from its start). Every "+
		"answer takes %v. Tools, per execution: %.1f %% a transient failure (for the payment, half of them after "+
		"the card was charged), %.1f %% a ToolError the model corrects (drawn per input, so a resent input is "+
		"rejected again), %.1f %% a hang of %v (for the payment, after the charge) ending in a client timeout; "+
		"`quote_shipping` fails %.0f %% of its calls on top, its own failures. A tool takes %v. The payment service "+
		"executes every charge unless it carries an idempotency key it has seen; `charge_card` passes the key "+
		"it finds in its context (`tools.KeyFrom`), which only the library's `Idempotent` puts there. A run "+
		"still going after %v has failed.\n\n"+
		"Served in all, over every policy: %s. A run is completed when the executor returns the script's answer; a "+
		"misleading success is a run that returned without error but with another answer (a cut stream taken for "+
		"the answer), or said the order was paid when it was never charged. Requests and tokens count both providers; tokens are a quarter of the request's bytes plus "+
		"the answer's words (20 per tool call), for the requests the provider answered. \"vs fault-free\" divides "+
		"the requests per completed run by the model steps of a run without faults (%.2f). Times are provider "+
		"time (harness time x %d).",
		n, agentConcurrency, minSteps, maxSteps, steps, maxToolCalls, calls,
		100*f.overloaded, 100*f.rateLimited, defaultScale.of(f.retryAfter).Milliseconds(), f.retryAfter,
		100*f.cutStream, 100*f.badGateway, ordinal(overflowStep+1), f.latency,
		100*t.transient, 100*t.toolError, 100*t.hang, t.hangFor, 100*t.quoteOwn, t.latency, runDeadline,
		formatReasons(served), steps, defaultScale)
}

// ordinal renders 7 as "7th".
func ordinal(n int) string {
	switch {
	case n%100 >= 11 && n%100 <= 13:
		return fmt.Sprintf("%dth", n)
	case n%10 == 1:
		return fmt.Sprintf("%dst", n)
	case n%10 == 2:
		return fmt.Sprintf("%dnd", n)
	case n%10 == 3:
		return fmt.Sprintf("%drd", n)
	}
	return fmt.Sprintf("%dth", n)
}

// agentTargets holds each of the library's rows to the scenario's targets
// and explains every miss from the row's own failures.
func agentTargets(ps []Policy, res []agentResult, faultFree float64) []target {
	stats := make([]agentStats, len(ps))
	for i := range ps {
		stats[i] = res[i].stats(faultFree)
	}
	// The best baseline completes the most runs; of those, with the fewest
	// requests per completed run.
	best := -1
	for i, p := range ps {
		if p.Library {
			continue
		}
		if best < 0 || stats[i].completed > stats[best].completed ||
			stats[i].completed == stats[best].completed && stats[i].requestsPerCompleted < stats[best].requestsPerCompleted {
			best = i
		}
	}
	var targets []target
	for i, p := range ps {
		if !p.Library {
			continue
		}
		st, b := stats[i], stats[best]
		n := len(res[i].runs)
		short := int(float64(n)*0.99+0.999999) - st.completed
		mostBaseline := 0
		for j, q := range ps {
			if !q.Library {
				mostBaseline = max(mostBaseline, stats[j].completed)
			}
		}
		add := func(what, measured string, pass bool, why string) {
			targets = append(targets, target{scenario: 8, what: p.Name + ": " + what, measured: measured, pass: pass, why: why})
		}
		add("at least 99 % of runs completed", fmt.Sprintf("%.1f %% (%d of %d)", st.completedPct, st.completed, n), short <= 0,
			fmt.Sprintf("%d runs short; failed: %s", short, formatReasons(st.causes)))
		add("at most 1.15x the requests of a fault-free run", fmt.Sprintf("%.2fx", st.vsFaultFree), st.vsFaultFree <= 1.15,
			fmt.Sprintf("%.0f %% over, for the requests its retries, corrections and compactions add; served: %s",
				100*(st.vsFaultFree/1.15-1), formatReasons(res[i].faults)))
		add("zero duplicated payments", fmt.Sprint(res[i].duplicates), res[i].duplicates == 0, "")
		add("zero misleading successes", fmt.Sprint(st.misleading), st.misleading == 0, "")
		add("strictly more completed runs than every baseline", fmt.Sprintf("%d; most of a baseline: %d", st.completed, mostBaseline),
			st.completed > mostBaseline, fmt.Sprintf("failed: %s", formatReasons(st.causes)))
		add("no more requests per completed run than the best baseline",
			fmt.Sprintf("%.2f; %s: %.2f", st.requestsPerCompleted, ps[best].Name, b.requestsPerCompleted),
			st.requestsPerCompleted <= b.requestsPerCompleted,
			fmt.Sprintf("%s completes %d runs; served to the library: %s", ps[best].Name, b.completed, formatReasons(res[i].faults)))
	}
	return targets
}
