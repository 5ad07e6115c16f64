package main

import (
	"encoding/json"
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"strings"
)

// The agent runs: what each run asks the model to do. A run pays one order:
// it looks the order up, gets shipping quotes, charges the card and (in
// longer runs) sends a receipt, in 4 to 7 model steps with 3 to 6 tool calls,
// some of them in parallel, then answers.

const (
	minSteps, maxSteps = 4, 7 // model steps of a run without faults, the answer included
	maxToolCalls       = 6
	// overflowStep is the first model step (from 0) whose full conversation
	// no longer fits the model's context window: runs longer than six steps
	// overflow once they get there.
	overflowStep = 6
)

// A plannedCall is one tool call the model means to make.
type plannedCall struct {
	tool  string
	input string // the tool's argument, a JSON object
}

// An agentScript is one run's plan: the tool calls of each step, then the
// answer.
type agentScript struct {
	run    int
	order  string
	steps  [][]plannedCall
	answer string
}

// modelSteps is the number of model requests the run makes when nothing
// fails.
func (s agentScript) modelSteps() int { return len(s.steps) + 1 }

// task is the user's request that starts the run.
func (s agentScript) task() string {
	return fmt.Sprintf("Pay order %s and tell me when it is done.", s.order)
}

// newScript draws run's plan from a generator seeded with the run number.
func newScript(run int) agentScript {
	rng := rand.New(rand.NewPCG(uint64(run), 8))
	steps := minSteps + rng.IntN(maxSteps-minSteps+1)
	calls := max(3, steps-1) + rng.IntN(maxToolCalls-max(3, steps-1)+1)
	order := fmt.Sprintf("R%04d", run)
	amount := 1000 + rng.IntN(9000)

	// The calls in order: a lookup first, the charge near the end, a
	// receipt after it when there is room, shipping quotes in between.
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

	// Split the calls into steps-1 non-empty steps, in order: a step of
	// several calls is a response with parallel tool calls.
	groups := steps - 1
	cuts := rng.Perm(len(plan) - 1)[:groups-1] // positions after which a step ends
	ends := make([]bool, len(plan))
	for _, c := range cuts {
		ends[c] = true
	}
	ends[len(plan)-1] = true
	var script [][]plannedCall
	var cur []plannedCall
	for i, c := range plan {
		cur = append(cur, c)
		if ends[i] {
			script = append(script, cur)
			cur = nil
		}
	}
	return agentScript{run: run, order: order, steps: script,
		answer: fmt.Sprintf("Order %s is paid: %d.%02d EUR charged to the card on file, and the customer has been told.",
			order, amount/100, amount%100)}
}

// chance returns a uniform number in [0, 1) for the n-th occurrence of key
// under seed. Keying the draws by what is asked, rather than by arrival
// order, gives every policy the same fault on the same request (the first
// request of step 3 of run 17, the second execution of a tool call), so
// that the policies are compared on the same luck.
func chance(seed uint64, key string, n int) float64 {
	h := fnv.New64a()
	fmt.Fprintf(h, "%s#%d", key, n)
	return rand.New(rand.NewPCG(seed, h.Sum64())).Float64()
}

// callID names the k-th tool call of attempt a at step s of run: the
// scripted model reads its own ids back to know where the run is.
func callID(run, step, attempt, k int) string {
	return fmt.Sprintf("r%d.s%d.a%d.k%d", run, step, attempt, k)
}

// parseCallID reads an id made by callID.
func parseCallID(id string) (run, step, attempt int, ok bool) {
	var k int
	n, err := fmt.Sscanf(id, "r%d.s%d.a%d.k%d", &run, &step, &attempt, &k)
	return run, step, attempt, err == nil && n == 4
}

// corrected returns input as the model resends it after the tool rejected
// it with a ToolError: with a "confirmed" field counting the corrections.
func corrected(input string) string {
	var fields map[string]any
	if json.Unmarshal([]byte(input), &fields) != nil {
		return input
	}
	n, _ := fields["confirmed"].(float64)
	fields["confirmed"] = n + 1
	out, _ := json.Marshal(fields) // keys sorted: the same correction, the same text
	return string(out)
}

// arg wraps a tool input as OpenAIFunctionsAgent's single argument.
func arg(input string) string {
	out, _ := json.Marshal(map[string]string{"__arg1": input})
	return string(out)
}

// unarg returns the tool input in arguments as the conversation carries
// them: the executor writes its steps back with the input itself, not
// wrapped in __arg1 as the model sent it.
func unarg(arguments string) string {
	var wrapped struct {
		Arg *string `json:"__arg1"`
	}
	if json.Unmarshal([]byte(arguments), &wrapped) == nil && wrapped.Arg != nil {
		return *wrapped.Arg
	}
	return arguments
}

// orderOf reads the order id from a tool input.
func orderOf(input string) string {
	var fields struct {
		Order string `json:"order"`
	}
	_ = json.Unmarshal([]byte(input), &fields)
	return fields.Order
}

// runOf reads the run number from an order id made by newScript.
func runOf(order string) (int, bool) {
	var run int
	_, err := fmt.Sscanf(strings.TrimPrefix(order, "R"), "%d", &run)
	return run, err == nil && strings.HasPrefix(order, "R")
}
