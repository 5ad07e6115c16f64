package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/resilientgo/resilient/faultserver"
)

// faultMix is the model's faults, drawn per request (see chance). Each
// share is of all requests; the context overflow is not drawn but follows
// from the length of the conversation (see overflowStep).
type faultMix struct {
	overloaded, rateLimited, cutStream, badGateway float64
	retryAfter                                     time.Duration // of a 429, provider time
	latency                                        time.Duration // of every answer, provider time
}

// total is the share of requests that meet a drawn fault.
func (f faultMix) total() float64 { return f.overloaded + f.rateLimited + f.cutStream + f.badGateway }

// modelFaults are the faults of scenario 8's runs.
var modelFaults = faultMix{overloaded: 0.02, rateLimited: 0.01, cutStream: 0.01, badGateway: 0.005,
	retryAfter: 2 * time.Second, latency: 1 * time.Second}

// heavyFaults are the faults of scenario 8's second table: 15 % of requests,
// independent, so that some calls meet three in a row.
var heavyFaults = faultMix{overloaded: 0.08, rateLimited: 0.03, cutStream: 0.01, badGateway: 0.03,
	retryAfter: 2 * time.Second, latency: 1 * time.Second}

// toolErrorPrefix starts the text of every ToolError the tools return: the
// scripted model reads it as "my input was wrong".
const toolErrorPrefix = "invalid input:"

// agentModel is the provider of the agent runs: a scripted tool-calling
// model behind a faultserver. Like a real model it answers from the
// conversation it is sent: the ids of its own last tool calls say where the
// run is, and the observations say whether to go on, correct a call the
// tool rejected, or repeat one that failed. The scripts come from newScript,
// so that every policy is asked the same. It is safe for concurrent use.
type agentModel struct {
	seed   uint64
	ts     timeScale
	faults faultMix
	secret []byte // a credential to look for in the requests; nil: none

	mu     sync.Mutex
	seen   map[string]int       // requests per reply, for the draws
	reopen map[string]time.Time // reply -> when its rate limit lifts
	log    []modelRequest
}

// modelRequest is what the provider did with one request.
type modelRequest struct {
	run    int
	fault  string // "" for an answer
	tokens int    // billed: prompt and answer, for the requests the provider answered
	secret bool   // the request carried the secret the model looks for
}

func newAgentModel(seed uint64, ts timeScale) *agentModel {
	return &agentModel{seed: seed, ts: ts, faults: modelFaults, seen: map[string]int{}, reopen: map[string]time.Time{}}
}

// requests returns what the provider did, in arrival order.
func (m *agentModel) requests() []modelRequest {
	m.mu.Lock()
	defer m.mu.Unlock()
	return append([]modelRequest(nil), m.log...)
}

// chatRequest is the part of an OpenAI chat request the model reads.
type chatRequest struct {
	Messages []chatMessage `json:"messages"`
	Stream   bool          `json:"stream"`
}

type chatMessage struct {
	Role       string          `json:"role"`
	Content    json.RawMessage `json:"content"`
	ToolCallID string          `json:"tool_call_id"`
	ToolCalls  []toolCall      `json:"tool_calls"`
}

type toolCall struct {
	ID       string `json:"id"`
	Function struct {
		Name      string `json:"name"`
		Arguments string `json:"arguments"`
	} `json:"function"`
}

// text returns the message's text, whether sent as a string or as parts.
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

// A reply is what the model means to answer: the tool calls of one step
// (attempt a), or the final answer.
type reply struct {
	run, step, attempt int
	calls              []plannedCall // nil for the answer
	answer             string
}

func (r reply) key() string { return fmt.Sprintf("r%d.s%d.a%d", r.run, r.step, r.attempt) }

// step answers one request.
func (m *agentModel) step(req *faultserver.Request) faultserver.Step {
	var body chatRequest
	if err := json.Unmarshal(req.Body, &body); err != nil {
		return faultserver.Status(400, "the harness's model could not read the request: "+err.Error())
	}
	rp, fullHistory, err := next(body.Messages)
	if err != nil {
		return faultserver.Status(400, "the harness's model: "+err.Error())
	}
	prompt := len(req.Body)/4 + 1

	m.mu.Lock()
	defer m.mu.Unlock()
	secret := len(m.secret) > 0 && bytes.Contains(req.Body, m.secret)
	log := func(fault string, tokens int) {
		m.log = append(m.log, modelRequest{run: rp.run, fault: fault, tokens: tokens, secret: secret})
	}
	if rp.step >= overflowStep && fullHistory {
		log("context overflow", 0)
		return faultserver.ContextOverflow()
	}
	key := rp.key()
	if until, ok := m.reopen[key]; ok && req.Time.Before(until) {
		log("429 (retried early)", 0)
		return rateLimitedFor(until.Sub(req.Time))
	}
	n := m.seen[key]
	m.seen[key]++
	latency := m.ts.of(m.faults.latency)
	first := "Checking" // what a cut stream shows: the first word
	if rp.calls == nil {
		first = strings.Fields(rp.answer)[0]
	}
	switch fault := m.faults.draw(m.seed, key, n); fault {
	case fault529:
		log(fault, 0)
		return faultserver.Overloaded()
	case fault429:
		wait := m.ts.of(m.faults.retryAfter)
		m.reopen[key] = req.Time.Add(wait)
		log(fault, 0)
		return rateLimitedFor(wait)
	case faultCleanCut:
		log(fault, prompt+1)
		if !body.Stream {
			// A JSON body cut short is never whole: only a stream can
			// end cleanly where it was cut.
			return faultserver.DropStream(first).After(latency)
		}
		return faultserver.NoEndMarker(first).After(latency)
	case faultBrokenCut:
		log(fault, prompt+1)
		return faultserver.DropStream(first).After(latency)
	case fault502:
		log(fault, 0)
		return faultserver.BadGateway()
	}
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

// The model's drawn faults, as the report names them.
const (
	fault529       = "529"
	fault429       = "429"
	faultCleanCut  = "stream cut, clean end"
	faultBrokenCut = "stream cut, broken"
	fault502       = "502"
)

// modelFault is the fault of scenario 8's mix drawn for the n-th request
// for reply key, "" for none.
func modelFault(seed uint64, key string, n int) string { return modelFaults.draw(seed, key, n) }

// draw is the fault of mix f drawn for the n-th request for reply key, ""
// for none. Half the cut streams end cleanly (a proxy closing a
// close-delimited response), half are broken off.
func (f faultMix) draw(seed uint64, key string, n int) string {
	switch u := chance(seed, "model/"+key, n); {
	case u < f.overloaded:
		return fault529
	case u < f.overloaded+f.rateLimited:
		return fault429
	case u < f.overloaded+f.rateLimited+f.cutStream && chance(seed, "cut/"+key, n) < 0.5:
		return faultCleanCut
	case u < f.overloaded+f.rateLimited+f.cutStream:
		return faultBrokenCut
	case u < f.overloaded+f.rateLimited+f.cutStream+f.badGateway:
		return fault502
	}
	return ""
}

// rateLimitedFor is a 429 asking for wait, as retry-after-ms.
func rateLimitedFor(wait time.Duration) faultserver.Step {
	msec := max(1, (wait+time.Millisecond-1)/time.Millisecond)
	return faultserver.RateLimited("").WithHeader("retry-after-ms", strconv.FormatInt(int64(msec), 10))
}

// next decides the model's reply to a conversation, and reports whether the
// conversation still holds the user's task from its start (it was not
// compacted).
func next(msgs []chatMessage) (reply, bool, error) {
	fullHistory := false
	var task string
	last := -1 // the model's last message with tool calls
	for i, msg := range msgs {
		switch {
		case msg.Role == "user" && strings.HasPrefix(msg.text(), "Pay order "):
			fullHistory, task = true, msg.text()
		case msg.Role == "assistant" && len(msg.ToolCalls) > 0:
			last = i
		}
	}
	if last < 0 {
		var order string
		if _, err := fmt.Sscanf(task, "Pay order %s", &order); err != nil {
			return reply{}, false, fmt.Errorf("no task and no tool calls in the conversation")
		}
		run, ok := runOf(order)
		if !ok {
			return reply{}, false, fmt.Errorf("no run in the task %q", task)
		}
		return stepReply(newScript(run), 0, 0), fullHistory, nil
	}

	// The model's latest reply is the calls of the latest step and attempt,
	// wherever the executor wrote them back: it groups the calls of its
	// steps by their log line, so a repeated call joins the message of the
	// call it repeats, and the parallel calls of one reply, to different
	// tools, are messages of their own (reading the last message alone
	// took a failed charge_card followed by a send_receipt that succeeded
	// for a step done, and answered "paid"). Call ids are unique, so each
	// call's observation is found wherever it stands.
	observed := map[string]string{}
	var all []toolCall
	for _, msg := range msgs {
		switch {
		case msg.Role == "tool":
			observed[msg.ToolCallID] = msg.text()
		case msg.Role == "assistant":
			all = append(all, msg.ToolCalls...)
		}
	}
	run, step, attempt := -1, -1, -1
	for _, c := range all {
		r, s, a, ok := parseCallID(c.ID)
		if !ok {
			return reply{}, false, fmt.Errorf("a tool call id the model did not make: %q", c.ID)
		}
		if s > step || s == step && a > attempt {
			run, step, attempt = r, s, a
		}
	}
	var calls []toolCall
	for _, c := range all {
		if _, s, a, _ := parseCallID(c.ID); s == step && a == attempt {
			calls = append(calls, c)
		}
	}
	// Repeat what failed, correct what was rejected, go on when all is well.
	var again []plannedCall
	for _, c := range calls {
		input := unarg(c.Function.Arguments)
		switch obs := observed[c.ID]; {
		case strings.HasPrefix(obs, toolErrorPrefix):
			again = append(again, plannedCall{c.Function.Name, corrected(input)})
		case strings.HasPrefix(obs, "Error: "), obs != "" && !succeeded(obs):
			again = append(again, plannedCall{c.Function.Name, input})
		}
	}
	if again != nil {
		return reply{run: run, step: step, attempt: attempt + 1, calls: again}, fullHistory, nil
	}
	return stepReply(newScript(run), step+1, 0), fullHistory, nil
}

// stepReply is step s of script, attempt a: its tool calls, or the answer
// after the last.
func stepReply(script agentScript, s, a int) reply {
	r := reply{run: script.run, step: s, attempt: a}
	if s < len(script.steps) {
		r.calls = script.steps[s]
	} else {
		r.answer = script.answer
	}
	return r
}

// succeeded reports whether an observation is a tool's result, as the
// tools' effect writes it (or an idempotent tool's replay of one): any
// other text, "Error: ..." or an error's own text (as Eino's tool error
// handler passes it on), says the call failed, and the model sends it
// again.
func succeeded(obs string) bool {
	obs = strings.TrimPrefix(obs, "already done: ")
	for _, prefix := range []string{"order ", "charged ", "receipt sent "} {
		if strings.HasPrefix(obs, prefix) {
			return true
		}
	}
	return strings.HasSuffix(obs, ": 4.90 EUR, 2 days")
}
