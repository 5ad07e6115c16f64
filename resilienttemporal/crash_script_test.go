package resilienttemporal_test

import (
	"encoding/json"
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"strings"

	"github.com/resilientgo/resilient/faultserver"
)

// The crash test's agent runs follow the agent-runs scenario
// (scenarios/agent_script.go, agent_model.go, agent_tools.go): a run pays
// one order, looking it up, quoting shipping, charging the card and (in
// longer runs) sending a receipt, in 4 to 7 model steps with 3 to 6 tool
// calls, some in parallel, then answers. The faults are the scenario's mix.
const (
	minSteps, maxSteps = 4, 7
	maxToolCalls       = 6
	overflowStep       = 6 // the first step whose full conversation overflows the context window
	toolErrorPrefix    = "invalid input:"
)

// The scenario's fault mix: per model request, per tool execution (the
// ToolError per input: resent unchanged, it is rejected again).
var (
	modelFaults = struct{ overloaded, rateLimited, cutStream, badGateway float64 }{0.02, 0.01, 0.01, 0.005}
	toolFaults  = struct{ transient, toolError, hang float64 }{0.03, 0.01, 0.005}
)

type plannedCall struct{ tool, input string }

// script is one run's plan: the tool calls of each step, then the answer.
type script struct {
	run    int
	order  string
	amount int
	steps  [][]plannedCall
	answer string
}

func (s script) task() string {
	return fmt.Sprintf("Pay order %s and tell me when it is done.", s.order)
}

// events is how many model requests and tool executions the run makes when
// nothing fails.
func (s script) events() int {
	n := len(s.steps) + 1
	for _, st := range s.steps {
		n += len(st)
	}
	return n
}

// newScript draws run's plan, as the scenario does.
func newScript(run int) script {
	rng := rand.New(rand.NewPCG(uint64(run), 8))
	steps := minSteps + rng.IntN(maxSteps-minSteps+1)
	calls := max(3, steps-1) + rng.IntN(maxToolCalls-max(3, steps-1)+1)
	order := fmt.Sprintf("R%04d", run)
	amount := 1000 + rng.IntN(9000)
	plan := []plannedCall{{"lookup_order", fmt.Sprintf(`{"order":%q}`, order)}}
	quotes := calls - 2
	receipt := calls >= 4
	if receipt {
		quotes--
	}
	carriers := []string{"dhl", "ups", "fedex", "gls"}
	for i := range quotes {
		plan = append(plan, plannedCall{"quote_shipping", fmt.Sprintf(`{"order":%q,"carrier":%q}`, order, carriers[i%len(carriers)])})
	}
	plan = append(plan, plannedCall{"charge_card", fmt.Sprintf(`{"order":%q,"amount_cents":%d}`, order, amount)})
	if receipt {
		plan = append(plan, plannedCall{"send_receipt", fmt.Sprintf(`{"order":%q}`, order)})
	}
	ends := make([]bool, len(plan))
	for _, c := range rng.Perm(len(plan) - 1)[:steps-2] {
		ends[c] = true
	}
	ends[len(plan)-1] = true
	s := script{run: run, order: order, amount: amount}
	var cur []plannedCall
	for i, c := range plan {
		cur = append(cur, c)
		if ends[i] {
			s.steps, cur = append(s.steps, cur), nil
		}
	}
	s.answer = fmt.Sprintf("Order %s is paid: %d.%02d EUR charged to the card on file.", order, amount/100, amount%100)
	return s
}

// chance is a uniform draw in [0, 1) for the n-th occurrence of key: the
// same request or execution draws the same luck whenever it is made.
func chance(key string, n int) float64 {
	h := fnv.New64a()
	fmt.Fprintf(h, "%s#%d", key, n)
	return rand.New(rand.NewPCG(31, h.Sum64())).Float64()
}

// reply is what the model means to answer: the tool calls of one step
// (attempt a), or the final answer.
type reply struct {
	run, step, attempt int
	calls              []plannedCall
	answer             string
}

func (r reply) key() string { return fmt.Sprintf("r%d.s%d.a%d", r.run, r.step, r.attempt) }

type chatMessage struct {
	Role       string          `json:"role"`
	Content    json.RawMessage `json:"content"`
	ToolCallID string          `json:"tool_call_id"`
	ToolCalls  []struct {
		ID       string `json:"id"`
		Function struct {
			Name      string `json:"name"`
			Arguments string `json:"arguments"`
		} `json:"function"`
	} `json:"tool_calls"`
}

func (c chatMessage) text() string {
	var s string
	if json.Unmarshal(c.Content, &s) == nil {
		return s
	}
	var parts []struct {
		Text string `json:"text"`
	}
	_ = json.Unmarshal(c.Content, &parts)
	var b strings.Builder
	for _, p := range parts {
		b.WriteString(p.Text)
	}
	return b.String()
}

// next decides the model's reply to a conversation, as the scenario's
// model does: its own last tool call ids say where the run is; it repeats
// a call that failed, corrects one the tool rejected, and goes on when all
// is well. It also reports whether the conversation still holds the task
// (it was not compacted).
func next(body []byte) (reply, bool, error) {
	var req struct {
		Messages []chatMessage `json:"messages"`
	}
	if err := json.Unmarshal(body, &req); err != nil {
		return reply{}, false, err
	}
	full, last, task := false, -1, ""
	for i, m := range req.Messages {
		switch {
		case m.Role == "user" && strings.HasPrefix(m.text(), "Pay order "):
			full, task = true, m.text()
		case m.Role == "assistant" && len(m.ToolCalls) > 0:
			last = i
		}
	}
	if last < 0 {
		var run int
		if _, err := fmt.Sscanf(task, "Pay order R%d", &run); err != nil {
			return reply{}, false, fmt.Errorf("no task and no tool calls in the conversation")
		}
		return stepReply(newScript(run), 0, 0), full, nil
	}
	observed := map[string]string{}
	for _, m := range req.Messages[last+1:] {
		if m.Role == "tool" {
			observed[m.ToolCallID] = m.text()
		}
	}
	run, step, attempt := -1, -1, -1
	for _, c := range req.Messages[last].ToolCalls {
		var r, s, a, k int
		if n, _ := fmt.Sscanf(c.ID, "r%d.s%d.a%d.k%d", &r, &s, &a, &k); n != 4 {
			return reply{}, false, fmt.Errorf("a tool call id the model did not make: %q", c.ID)
		}
		if s > step || s == step && a > attempt {
			run, step, attempt = r, s, a
		}
	}
	var again []plannedCall
	for _, c := range req.Messages[last].ToolCalls {
		if !strings.HasPrefix(c.ID, fmt.Sprintf("r%d.s%d.a%d.", run, step, attempt)) {
			continue
		}
		input := unarg(c.Function.Arguments)
		switch obs := observed[c.ID]; {
		case strings.HasPrefix(obs, toolErrorPrefix):
			again = append(again, plannedCall{c.Function.Name, corrected(input)})
		case strings.HasPrefix(obs, "Error: "):
			again = append(again, plannedCall{c.Function.Name, input})
		}
	}
	if again != nil {
		return reply{run: run, step: step, attempt: attempt + 1, calls: again}, full, nil
	}
	return stepReply(newScript(run), step+1, 0), full, nil
}

func stepReply(s script, step, attempt int) reply {
	r := reply{run: s.run, step: step, attempt: attempt}
	if step < len(s.steps) {
		r.calls = s.steps[step]
	} else {
		r.answer = s.answer
	}
	return r
}

// modelStep is the provider's answer to the n-th request for reply r with
// the conversation whole (full) or compacted, and the fault it plays ("" for
// none).
func modelStep(r reply, n int, full bool) (faultserver.Step, string) {
	if r.step >= overflowStep && full {
		return faultserver.ContextOverflow(), "context overflow"
	}
	f := modelFaults
	switch u := chance("model/"+r.key(), n); {
	case u < f.overloaded:
		return faultserver.Overloaded(), "529"
	case u < f.overloaded+f.rateLimited:
		return faultserver.RateLimited("").WithHeader("retry-after-ms", "20"), "429"
	case u < f.overloaded+f.rateLimited+f.cutStream:
		return faultserver.DropStream("Checking"), "cut"
	case u < f.overloaded+f.rateLimited+f.cutStream+f.badGateway:
		return faultserver.BadGateway(), "502"
	}
	if r.calls == nil {
		return faultserver.Reply(r.answer), ""
	}
	calls := make([]faultserver.ToolCall, len(r.calls))
	for k, c := range r.calls {
		args, _ := json.Marshal(map[string]string{"__arg1": c.input})
		calls[k] = faultserver.ToolCall{ID: fmt.Sprintf("r%d.s%d.a%d.k%d", r.run, r.step, r.attempt, k), Name: c.tool, Arguments: string(args)}
	}
	return faultserver.ReplyToolCalls(calls...), ""
}

// toolFault is the fault drawn for the n-th execution of tool with input.
func toolFault(tool, input string, n int) string {
	key := tool + "/" + input
	if chance("toolerror/"+key, 0) < toolFaults.toolError {
		return "tool error"
	}
	switch u := chance("tool/"+key, n); {
	case u < toolFaults.transient:
		return "transient"
	case u < toolFaults.transient+toolFaults.hang:
		return "hang"
	}
	return ""
}

// corrected is input as the model resends it after a ToolError.
func corrected(input string) string {
	var fields map[string]any
	if json.Unmarshal([]byte(input), &fields) != nil {
		return input
	}
	n, _ := fields["confirmed"].(float64)
	fields["confirmed"] = n + 1
	out, _ := json.Marshal(fields)
	return string(out)
}

func unarg(arguments string) string {
	var wrapped struct {
		Arg *string `json:"__arg1"`
	}
	if json.Unmarshal([]byte(arguments), &wrapped) == nil && wrapped.Arg != nil {
		return *wrapped.Arg
	}
	return arguments
}

// orderOf reads the order id of a tool input.
func orderOf(input string) string {
	var fields struct {
		Order string `json:"order"`
	}
	_ = json.Unmarshal([]byte(input), &fields)
	return fields.Order
}
