package main

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	lctools "github.com/tmc/langchaingo/tools"

	"github.com/resilientgo/resilient"
	"github.com/resilientgo/resilient/tools"
)

// Scenario 7: a mutating tool called twice per logical call, as a confused
// model that repeats its tool call, or an outer retry, would call it.

// chargeTool charges an order: every execution counts, as a payment would.
type chargeTool struct{ executions atomic.Int64 }

func (*chargeTool) Name() string { return "charge" }
func (*chargeTool) Description() string {
	return "Charges an order. Input: {\"order\": id, \"cents\": amount}."
}

func (t *chargeTool) Call(ctx context.Context, input string) (string, error) {
	select { // the payment provider takes a moment
	case <-time.After(defaultScale.of(100 * time.Millisecond)):
	case <-ctx.Done():
		return "", ctx.Err()
	}
	n := t.executions.Add(1)
	return fmt.Sprintf("charged %s (payment %d)", input, n), nil
}

// toolCase is one way of exposing the tool to the agent, and of repeating
// the call.
type toolCase struct {
	name       string
	wrap       func(*chargeTool) lctools.Tool
	concurrent bool // the two calls at once, as parallel tool calls of one response
	idempotent bool // held to the target: one execution per logical call
}

func toolCases() []toolCase {
	raw := func(t *chargeTool) lctools.Tool { return t }
	plain := func(t *chargeTool) lctools.Tool { return resilient.Tool(t) }
	once := func(t *chargeTool) lctools.Tool {
		return resilient.Tool(t, resilient.Idempotent(tools.NewMemoryStore()))
	}
	return []toolCase{
		{name: "the tool as is", wrap: raw},
		{name: "resilient.Tool", wrap: plain},
		{name: "resilient.Tool, Idempotent", wrap: once, idempotent: true},
		{name: "resilient.Tool, Idempotent; the two calls concurrent", wrap: once, concurrent: true, idempotent: true},
	}
}

type toolResult struct {
	calls      int
	executions int64
	repeats    []string // what the second call of the first logical call returned
}

// runTool makes n logical calls, each calling the tool twice with the
// same input.
func runTool(tc toolCase, n int) (toolResult, error) {
	charge := &chargeTool{}
	tool := tc.wrap(charge)
	ctx := context.Background()
	r := toolResult{calls: n}
	for i := range n {
		input := fmt.Sprintf(`{"order": %d, "cents": 1999}`, 4471+i)
		outs := make([]string, 2)
		errs := make([]error, 2)
		var wg sync.WaitGroup
		for k := range 2 {
			call := func() { outs[k], errs[k] = tool.Call(ctx, input) }
			if tc.concurrent {
				wg.Go(call)
			} else {
				call()
			}
		}
		wg.Wait()
		for _, err := range errs {
			if err != nil {
				return r, err
			}
		}
		if i == 0 {
			r.repeats = outs
		}
	}
	r.executions = charge.executions.Load()
	return r, nil
}

func idempotency(cfg config) (section, error) {
	n := 20
	if cfg.quick {
		n = 5
	}
	sec := section{number: 7, title: "A retried mutating tool",
		setup: fmt.Sprintf("A `charge` tool (each execution is a payment; it takes %v) is called twice with the "+
			"same input per logical call, %d logical calls. Lower bound: one execution per logical call.",
			defaultScale.of(100*time.Millisecond), n),
		table: table{header: []string{"tool", "executions / logical call", "the two answers of the first call"}}}
	for _, tc := range toolCases() {
		var per samples
		var first toolResult
		for run := range cfg.runs {
			r, err := runTool(tc, n)
			if err != nil {
				return section{}, fmt.Errorf("%s: %w", tc.name, err)
			}
			per = append(per, float64(r.executions)/float64(r.calls))
			if run == 0 {
				first = r
			}
		}
		sec.table.add(tc.name, per.ratio(), fmt.Sprintf("`%s`; `%s`", first.repeats[0], first.repeats[1]))
		if tc.idempotent {
			lo, hi := per.bounds()
			sec.targets = append(sec.targets, target{scenario: 7,
				what:     "idempotency: exactly one execution per logical call (" + tc.name + ")",
				measured: per.ratio(), pass: lo == 1 && hi == 1})
		}
	}
	return sec, nil
}
