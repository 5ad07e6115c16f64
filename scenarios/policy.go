package main

import (
	"context"
	"fmt"
	"math/rand/v2"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"

	lcllms "github.com/tmc/langchaingo/llms"
	"github.com/tmc/langchaingo/llms/openai"

	"github.com/resilientgo/resilient"
	"github.com/resilientgo/resilient/faultserver"
	"github.com/resilientgo/resilient/llms"
	"github.com/resilientgo/resilient/middleware"
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

// A Policy is one way of calling the model, built afresh for every run
// against the run's server, so that no state (a breaker, say) leaks from one
// run into the next.
type Policy struct {
	// Name labels the policy's row, e.g. "(a) no retry".
	Name string
	// New builds the caller on r.
	New func(r rig) (Caller, error)
}

// A rig is what a policy is built on in one run: the run's server, an HTTP
// transport of its own that reaches it, and the time scale that divides the
// policy's waits.
type rig struct {
	server    *faultserver.Server
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

// rawClient is langchaingo's openai client as shipped, pointed at the server.
func (r rig) rawClient() (*openai.LLM, error) {
	return r.server.OpenAI(openai.WithHTTPClient(&http.Client{Transport: r.transport}))
}

// evidenceClient is the openai client with the library's evidence transport
// installed over the rig's, as resilient.HTTPClient installs it over
// http.DefaultTransport.
func (r rig) evidenceClient() (*openai.LLM, error) {
	return r.server.OpenAI(openai.WithHTTPClient(&http.Client{Transport: llms.NewTransport(r.transport)}))
}

// policies are the four policies compared in every scenario.
func policies() []Policy {
	return []Policy{
		{Name: "(a) no retry", New: newNoRetry},
		{Name: "(b) seed 000: 3 x 3 stacked", New: newStacked},
		{Name: "(c) provider SDK default", New: newSDKDefault},
		{Name: "(d) resilient defaults", New: func(r rig) (Caller, error) { return newLibrary(r) }},
	}
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

// (a) ---------------------------------------------------------------------

// noRetry is langchaingo as shipped: one request, whatever happens.
type noRetry struct{ llm lcllms.Model }

func newNoRetry(r rig) (Caller, error) {
	llm, err := r.rawClient()
	return noRetry{llm}, err
}

func (c noRetry) Call(ctx context.Context) error { return generate(ctx, c.llm) }

// (b) ---------------------------------------------------------------------

// stacked is seed 000's two retry layers, each written as the seed describes
// it, scaled: an outer loop (Runtime.exec: 3 attempts, 1.5 s * 2^n between
// them, stopping on permanent markers) around an inner loop (AgentSession: 3
// attempts, 2 s * 2^(n-1) between them, retrying empty messages and the
// transient pattern, never a context overflow). Neither layer jitters.
type stacked struct {
	llm lcllms.Model
	ts  timeScale
}

func newStacked(r rig) (Caller, error) {
	llm, err := r.rawClient()
	return stacked{llm, r.ts}, err
}

// seedRetryPattern is the seed's _RETRY_PATTERN, as a Go regular expression.
var seedRetryPattern = regexp.MustCompile(`(?i)overloaded|rate.?limit|\b429\b|\b5\d\d\b|service unavailable|` +
	`connection (error|refused)|other side closed|fetch failed|reset before headers|terminated`)

// seedOverflow recognizes a context overflow, which the inner layer leaves to
// compaction.
var seedOverflow = regexp.MustCompile(`(?i)context length|context window|prompt is too long`)

// seedPermanentMarkers are the seed's _PERMANENT_ERROR_MARKERS.
var seedPermanentMarkers = []string{"not a valid image", "invalid image", "image data is not",
	"login expired", "login failed", "re-auth", "unauthorized", "invalid api key", "invalid_api_key"}

func (c stacked) Call(ctx context.Context) error {
	const attempts = 3
	var err error
	for n := range attempts {
		if err = c.inner(ctx); err == nil {
			return nil
		}
		text := strings.ToLower(fmt.Sprintf("%T: %v", err, err))
		for _, m := range seedPermanentMarkers {
			if strings.Contains(text, m) {
				return fmt.Errorf("failed permanently: %w", err)
			}
		}
		if n == attempts-1 {
			break
		}
		if serr := sleep(ctx, c.ts.of(1500*time.Millisecond<<n)); serr != nil {
			return err
		}
	}
	return fmt.Errorf("failed after %d attempts: %w", attempts, err)
}

func (c stacked) inner(ctx context.Context) error {
	const attempts = 3
	var err error
	for n := 1; n <= attempts; n++ {
		if err = generate(ctx, c.llm); err == nil {
			return nil
		}
		msg := err.Error()
		retryable := !seedOverflow.MatchString(msg) && (msg == "" || seedRetryPattern.MatchString(msg))
		if !retryable || n == attempts {
			return err
		}
		if serr := sleep(ctx, c.ts.of(2*time.Second<<(n-1))); serr != nil {
			return err
		}
	}
	return err
}

// (c) ---------------------------------------------------------------------

// sdkDefault is the retry loop the OpenAI and Anthropic SDKs ship: 2
// retries, 0.5 s * 2^n capped at 8 s, times U(0.75, 1); 408, 409, 429, 5xx
// and connection errors are retried; Retry-After is ignored here, as the
// brief for this comparison asks. It retries next, which makes one request
// (or, nested, calls another layer).
type sdkDefault struct {
	next func(context.Context) error
	ts   timeScale
	mu   sync.Mutex
	rng  *rand.Rand
}

func newSDKDefault(r rig) (Caller, error) {
	llm, err := r.rawClient()
	return sdkAround(func(ctx context.Context) error { return generate(ctx, llm) }, r.ts), err
}

// sdkAround is the SDK's loop around next.
func sdkAround(next func(context.Context) error, ts timeScale) *sdkDefault {
	return &sdkDefault{next: next, ts: ts, rng: rand.New(rand.NewPCG(3, 0))}
}

// statusPattern finds the HTTP status in langchaingo's openai error text:
// "API returned unexpected status code: 429: ...". The SDKs read the status
// itself; langchaingo keeps only this text.
var statusPattern = regexp.MustCompile(`status code: (\d{3})`)

// sdkRetryable is the SDKs' rule. An error without a status is a connection
// error or a timeout (langchaingo replaces both with fixed strings), which
// the SDKs retry.
func sdkRetryable(err error) bool {
	m := statusPattern.FindStringSubmatch(err.Error())
	if m == nil {
		return true
	}
	status, _ := strconv.Atoi(m[1])
	return status == 408 || status == 409 || status == 429 || status >= 500
}

func (c *sdkDefault) jitter() float64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return 0.75 + 0.25*c.rng.Float64()
}

func (c *sdkDefault) Call(ctx context.Context) error {
	const maxRetries = 2
	for retry := 0; ; retry++ {
		err := c.next(ctx)
		if err == nil || retry == maxRetries || !sdkRetryable(err) {
			return err
		}
		wait := min(500*time.Millisecond<<retry, 8*time.Second)
		if serr := sleep(ctx, c.ts.of(time.Duration(float64(wait)*c.jitter()))); serr != nil {
			return err
		}
	}
}

// (d) ---------------------------------------------------------------------

// library is resilient.Model with its defaults, every duration scaled, over
// the openai client with the evidence transport installed.
type library struct{ m *llms.Model }

// libraryOptions are the library's defaults in harness time, then extra:
// every default duration divided by ts, nothing else changed.
func libraryOptions(ts timeScale, extra ...resilient.Option) []resilient.Option {
	return append([]resilient.Option{
		resilient.Backoff(ts.of(middleware.DefaultBaseDelay), ts.of(middleware.DefaultMaxDelay)),
		resilient.RetryAfterCap(ts.of(middleware.DefaultRetryAfterCap)),
		resilient.CircuitBreaker(middleware.DefaultBreakerFailures, ts.of(middleware.DefaultBreakerDelay)),
		resilient.ModelOptions(llms.Timeout(ts.of(middleware.DefaultTimeout))),
	}, extra...)
}

func newLibrary(r rig, extra ...resilient.Option) (*library, error) {
	llm, err := r.evidenceClient()
	if err != nil {
		return nil, err
	}
	m := resilient.Model(llm, libraryOptions(r.ts, extra...)...)
	return &library{m}, m.Err()
}

func (c *library) Call(ctx context.Context) error { return generate(ctx, c.m) }
