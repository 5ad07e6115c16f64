package main

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"time"

	lctools "github.com/tmc/langchaingo/tools"

	"github.com/resilientgo/resilient/taxonomy"
	"github.com/resilientgo/resilient/tools"
)

// The tools' faults, drawn per execution (see chance), except the ToolError,
// which is drawn per input: resending a rejected input is rejected again.
// Provider times.
var toolFaults = struct {
	transient, toolError, hang float64
	quoteOwn                   float64       // the quote service's own transient failures, on top
	failAfterEffect            float64       // share of the payment's transient failures that come after the charge
	hangFor                    time.Duration // a hang ends with the tool's own client timing out
	latency                    time.Duration
}{transient: 0.03, toolError: 0.01, hang: 0.005, quoteOwn: 0.05, failAfterEffect: 0.5,
	hangFor: 2 * time.Minute, latency: 200 * time.Millisecond}

// toolFault is the error of a tool whose service failed.
type toolFault struct{ tool, what string }

func (e *toolFault) Error() string { return e.tool + ": " + e.what }

// paymentService is the card processor behind charge_card. It executes
// every charge it is sent, unless the charge carries an idempotency key it
// has seen, as Stripe's Idempotency-Key works. It is safe for concurrent
// use.
type paymentService struct {
	mu      sync.Mutex
	byKey   map[string]string // idempotency key -> payment id
	charges map[string]int    // order -> charges executed
	n       int
}

func newPaymentService() *paymentService {
	return &paymentService{byKey: map[string]string{}, charges: map[string]int{}}
}

// charge charges cents to order and returns the payment id. A charge with a
// key already seen returns the first charge's id and charges nothing.
func (p *paymentService) charge(order string, cents int, key string) string {
	p.mu.Lock()
	defer p.mu.Unlock()
	if id, ok := p.byKey[key]; ok && key != "" {
		return id
	}
	p.n++
	id := fmt.Sprintf("p-%d", p.n)
	p.charges[order]++
	if key != "" {
		p.byKey[key] = id
	}
	return id
}

// duplicates counts the charges executed beyond the first of each order.
func (p *paymentService) duplicates() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	n := 0
	for _, c := range p.charges {
		n += max(0, c-1)
	}
	return n
}

// toolBox holds the tools of one policy's runs and what they did. It is safe
// for concurrent use.
type toolBox struct {
	seed     uint64
	ts       timeScale
	payments *paymentService
	secret   string // the payment service's credential, in the text of its failures; "" for none

	mu         sync.Mutex
	executions map[string]int // tool and input -> executions
	total      int
}

func newToolBox(seed uint64, ts timeScale) *toolBox {
	return &toolBox{seed: seed, ts: ts, payments: newPaymentService(), executions: map[string]int{}}
}

// next counts an execution of tool with input and returns how many came
// before it.
func (b *toolBox) next(tool, input string) int {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.total++
	n := b.executions[tool+" "+input]
	b.executions[tool+" "+input]++
	return n
}

// calls returns the number of tool executions so far.
func (b *toolBox) calls() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.total
}

// agentTools returns the four tools of the runs.
func (b *toolBox) agentTools() []*agentTool {
	return []*agentTool{
		{name: "lookup_order", desc: "Looks an order up. Input: {\"order\": id}.", kind: readOnly, box: b},
		{name: "quote_shipping", desc: "Quotes shipping for an order. Input: {\"order\": id, \"carrier\": name}.", kind: readOnly, ownFailures: toolFaults.quoteOwn, box: b},
		{name: "charge_card", desc: "Charges the card on file. Input: {\"order\": id, \"amount_cents\": n}.", kind: payment, box: b},
		{name: "send_receipt", desc: "Emails the receipt. Input: {\"order\": id}.", kind: mutating, box: b},
	}
}

// tools returns the four tools of the runs as p wraps them on r.
func (b *toolBox) tools(p Policy, r rig) []lctools.Tool {
	var out []lctools.Tool
	for _, d := range b.agentTools() {
		var t lctools.Tool = d
		if p.Tool != nil {
			t = p.Tool(r, t, d.kind)
		}
		out = append(out, t)
	}
	return out
}

// agentTool is one tool of the runs, with its faults.
type agentTool struct {
	name, desc  string
	kind        toolKind
	ownFailures float64 // the tool's own transient failures, beside the common mix
	box         *toolBox
}

func (t *agentTool) Name() string        { return t.name }
func (t *agentTool) Description() string { return t.desc }

func (t *agentTool) Call(ctx context.Context, input string) (string, error) {
	b, f := t.box, toolFaults
	n := b.next(t.name, input)
	if err := sleep(ctx, b.ts.of(f.latency)); err != nil {
		return "", err
	}
	switch toolFaultOf(b.seed, t.name, input, n, t.ownFailures) {
	case toolRejected:
		return "", taxonomy.NewToolError(toolErrorPrefix + " the order must be confirmed; resend with \"confirmed\" set")
	case toolFailedAfter:
		if t.kind == payment {
			t.effect(ctx, input) // charged; the reply was lost
		}
		fallthrough
	case toolFailed:
		return "", &toolFault{tool: t.name, what: t.request() + "read tcp 10.0.4.7:443: connection reset by peer"}
	case toolHung:
		if t.kind == payment {
			t.effect(ctx, input) // charged; the confirmation never comes
		}
		if err := sleep(ctx, b.ts.of(f.hangFor)); err != nil {
			return "", err
		}
		return "", &toolFault{tool: t.name, what: t.request() + "context deadline exceeded (Client.Timeout exceeded while awaiting headers)"}
	}
	return t.effect(ctx, input), nil
}

// request is how the tool's failures name the request that failed: the
// payment service's, with its credential, when the box has one.
func (t *agentTool) request() string {
	if t.kind != payment || t.box.secret == "" {
		return ""
	}
	return "POST https://payments.example/v1/charges (Authorization: Bearer " + t.box.secret + "): "
}

// The tools' drawn faults.
const (
	toolRejected    = "ToolError"
	toolFailed      = "transient failure"
	toolFailedAfter = "transient failure after the effect" // for a mutating tool: it acted, then failed
	toolHung        = "hang"
)

// toolFaultOf is the fault drawn for the n-th execution of tool with input,
// "" for none; own is the tool's own share of transient failures.
func toolFaultOf(seed uint64, tool, input string, n int, own float64) string {
	f, key := toolFaults, tool+"/"+input
	if chance(seed, "toolerror/"+key, 0) < f.toolError {
		return toolRejected
	}
	switch u := chance(seed, "tool/"+key, n); {
	case u < f.transient || chance(seed, "own/"+key, n) < own:
		if chance(seed, "after/"+key, n) < f.failAfterEffect {
			return toolFailedAfter
		}
		return toolFailed
	case u < f.transient+f.hang:
		return toolHung
	}
	return ""
}

// effect does what the tool is for and returns its observation.
func (t *agentTool) effect(ctx context.Context, input string) string {
	order := orderOf(input)
	switch t.name {
	case "lookup_order":
		return fmt.Sprintf("order %s: 1 kettle, card on file, address on file", order)
	case "quote_shipping":
		var in struct {
			Carrier string `json:"carrier"`
		}
		_ = json.Unmarshal([]byte(input), &in)
		return fmt.Sprintf("%s: 4.90 EUR, 2 days", in.Carrier)
	case "charge_card":
		var in struct {
			Cents int `json:"amount_cents"`
		}
		_ = json.Unmarshal([]byte(input), &in)
		// The payment service gets the idempotency key of the call, when
		// the wrapper gives one (tools.KeyFrom), as an Idempotency-Key.
		key, _ := tools.KeyFrom(ctx)
		id := t.box.payments.charge(order, in.Cents, key)
		return fmt.Sprintf("charged %d.%02d EUR to order %s (payment %s)", in.Cents/100, in.Cents%100, order, id)
	}
	return "receipt sent for order " + order
}
