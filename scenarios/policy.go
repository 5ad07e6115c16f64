package main

import (
	"context"
	"net/http"
	"strconv"
	"time"

	lcllms "github.com/tmc/langchaingo/llms"
	"github.com/tmc/langchaingo/llms/openai"
	lctools "github.com/tmc/langchaingo/tools"

	"github.com/resilientgo/resilient/faultserver"
	"github.com/resilientgo/resilient/llms"
	"github.com/resilientgo/resilient/observe"
)

// A timeScale divides every duration on both sides, the policies' waits and
// the server's. At scale 100 one second of provider time is 10 ms of harness
// time, and a Retry-After of 5 s is sent as retry-after-ms: 50.
type timeScale int

// defaultScale is the scale of every scenario but the herd.
const defaultScale timeScale = 100

// of returns provider time d in harness time.
func (ts timeScale) of(d time.Duration) time.Duration { return d / time.Duration(ts) }

// provider returns harness time d in provider time.
func (ts timeScale) provider(d time.Duration) time.Duration { return d * time.Duration(ts) }

// prompt is what every logical call sends.
var prompt = []lcllms.MessageContent{lcllms.TextParts(lcllms.ChatMessageTypeHuman, "hi")}

// A Caller makes one logical call: one model call as the application sees
// it, with whatever retries its policy makes underneath. Callers are safe
// for concurrent use.
type Caller interface {
	Call(ctx context.Context) error
}

// A Policy is one way of calling the model (and, in the agent runs, the
// tools), built afresh for every run against the run's server, so that no
// state (a breaker, say) leaks from one run into the next.
type Policy struct {
	// Name labels the policy's row, e.g. "no retry".
	Name string
	// About says how the policy behaves. It is generated from the values
	// the policy is built with, so that the report cannot disagree with
	// the code.
	About string
	// Library marks this library's own rows, which the targets hold to
	// account; the others are baselines.
	Library bool
	// Model builds the model on r: langchaingo's openai client, pointed at
	// r's server, with the policy's retries around it or in its transport.
	Model func(r rig) (lcllms.Model, error)
	// Tool wraps a tool for the agent runs; nil leaves tools as they are,
	// so that the executor ends the run on the first tool error.
	Tool func(r rig, t lctools.Tool, k toolKind) lctools.Tool
	// Run returns the context of one agent run; nil uses ctx as it is.
	Run func(ctx context.Context) context.Context
	// CallRun makes each logical call of the scenarios without agents a
	// run of its own, with Run; without it they are made outside any run.
	CallRun bool
}

// New builds p's caller on r.
func (p Policy) New(r rig) (Caller, error) {
	m, err := p.Model(r)
	c := modelCaller{m: m}
	if p.CallRun {
		c.run = p.Run
	}
	return c, err
}

// modelCaller makes a logical call through any model, in a run of its own
// when run is set.
type modelCaller struct {
	m   lcllms.Model
	run func(ctx context.Context) context.Context
}

func (c modelCaller) Call(ctx context.Context) error {
	if c.run != nil {
		ctx = c.run(ctx)
	}
	return generate(ctx, c.m)
}

// A rig is what a policy is built on in one run: the run's server, an HTTP
// transport of its own that reaches it, the time scale that divides the
// policy's waits, and, for the policies that fall back or pool, a second
// provider or several deployments.
type rig struct {
	server   *faultserver.Server
	fallback *faultserver.Server // nil unless the scenario offers one
	// deployments are interchangeable deployments of one model, for the
	// pools of scenario 9; nil elsewhere.
	deployments []*faultserver.Server
	// observer, when set, is given to the library's models with
	// resilient.Observe, to count what they decided; it changes nothing.
	observer  observe.Observer
	transport http.RoundTripper
	ts        timeScale
}

// newRig returns a rig for s whose transport keeps enough idle connections
// for the herd's 100 callers and stamps every request with its send time
// (see sentAt). Close it with close.
func newRig(s *faultserver.Server, ts timeScale) rig {
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.Proxy = nil
	t.MaxIdleConns, t.MaxIdleConnsPerHost = 256, 256
	return rig{server: s, transport: stamping{t}, ts: ts}
}

func (r rig) close() { r.transport.(stamping).base.CloseIdleConnections() }

// sentHeader carries the time a request left the policy, in Unix
// nanoseconds.
const sentHeader = "X-Harness-Sent"

// stamping is a transport that sets sentHeader on every request.
type stamping struct{ base *http.Transport }

func (t stamping) RoundTrip(req *http.Request) (*http.Response, error) {
	req = req.Clone(req.Context())
	req.Header.Set(sentHeader, strconv.FormatInt(time.Now().UnixNano(), 10))
	return t.base.RoundTrip(req)
}

// sentAt returns when r left the policy: its sentHeader, or its arrival
// time. A server that decides by time should use it when this machine's
// own queueing would blur the answer: a hundred requests sent at once take
// about 15 ms to arrive here, where a provider would see them within one
// network latency of each other.
func sentAt(r *faultserver.Request) time.Time {
	if ns, err := strconv.ParseInt(r.Header.Get(sentHeader), 10, 64); err == nil {
		return time.Unix(0, ns)
	}
	return r.Time
}

// client is langchaingo's openai client pointed at s, sending through
// transport rt (which ends in the rig's transport).
func (r rig) client(s *faultserver.Server, rt http.RoundTripper) (*openai.LLM, error) {
	return s.OpenAI(openai.WithHTTPClient(&http.Client{Transport: rt}))
}

// rawClient is langchaingo's openai client as shipped, pointed at the server.
func (r rig) rawClient() (*openai.LLM, error) { return r.client(r.server, r.transport) }

// evidenceClient is the openai client pointed at s with the library's
// evidence transport installed over the rig's, as resilient.HTTPClient
// installs it over http.DefaultTransport.
func (r rig) evidenceClient(s *faultserver.Server) (*openai.LLM, error) {
	return r.client(s, llms.NewTransport(r.transport))
}

// policies are the policies compared in every scenario: the baselines,
// then this library's defaults.
func policies() []Policy {
	return []Policy{noRetryPolicy(), stackedPolicy(), sdkPolicy(openaiGo), sdkPolicy(anthropicGo),
		failsafePolicy(), libraryPolicy(libraryDefaults())}
}

// generate makes one request through m.
func generate(ctx context.Context, m lcllms.Model) error {
	_, err := m.GenerateContent(ctx, prompt)
	return err
}

// sleep waits d or until ctx is done.
func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// noRetryPolicy is langchaingo as shipped: one request per call, tools as
// they are.
func noRetryPolicy() Policy {
	return Policy{Name: "no retry",
		About: "langchaingo as shipped: one request per model call; tools as they are.",
		Model: func(r rig) (lcllms.Model, error) { return r.rawClient() }}
}
