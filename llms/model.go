package llms

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	lcllms "github.com/tmc/langchaingo/llms"

	"github.com/resilientgo/resilient/breaker"
	"github.com/resilientgo/resilient/internal/chatcall"
	"github.com/resilientgo/resilient/internal/inspect"
	"github.com/resilientgo/resilient/internal/reply"
	"github.com/resilientgo/resilient/internal/sat"
	"github.com/resilientgo/resilient/internal/streamguard"
	"github.com/resilientgo/resilient/internal/wire"
	"github.com/resilientgo/resilient/limit"
	"github.com/resilientgo/resilient/middleware"
	"github.com/resilientgo/resilient/observe"
	"github.com/resilientgo/resilient/pool"
	"github.com/resilientgo/resilient/run"
	"github.com/resilientgo/resilient/taxonomy"
)

// The programming errors of a Model or an Embedder that cannot be called.
var (
	// errZeroModel is the error of a Model that [New] did not build.
	errZeroModel = programming("zero value", "llms: zero Model: build it with llms.New or resilient.Model")
	errNilModel  = programming("nil receiver", "llms: nil *Model: build it with llms.New or resilient.Model")
	errNilCtx    = programming("nil context", "llms: nil context")
)

// programming is the error text, classified as a programming failure
// under rule.
func programming(rule, text string) error {
	return taxonomy.WithClass(errors.New(text), taxonomy.Class{Kind: taxonomy.Programming, Rule: rule})
}

// Model is a resilient [lcllms.Model]: it wraps another model and runs every
// call under a [middleware.Pipeline], expanded as
//
//	fallbacks(retry(breaker(timeout(compact(stream guard(checks(model)))))))
//
// It never modifies the caller's messages or options. It is safe for
// concurrent use when the wrapped model is.
//
// The zero Model is not usable: its calls return an error saying so.
type Model struct {
	inner      lcllms.Model // nil for a pool
	name       string
	target     observe.Target
	cfg        config
	obs        observe.Observers
	provider   provider
	members    []client                                      // of a pool, indexed as middleware.State.Member
	pipe       *middleware.Pipeline[*lcllms.ContentResponse] // non-streaming calls
	streamPipe *middleware.Pipeline[*lcllms.ContentResponse] // streaming calls: same breaker, stream timeouts
	fallbacks  []*Model
	err        error // construction error, returned by every call
}

// client is a provider client that attempts are sent to: the wrapped
// model, or a member of a pool.
type client struct {
	llm      lcllms.Model
	provider provider
}

var (
	_ lcllms.Model          = (*Model)(nil)
	_ lcllms.ReasoningModel = (*Model)(nil)
)

// New returns m made resilient. A nil model or invalid options make it
// return an error naming each problem, together with a non-nil model that
// answers every call with that error, classified as a programming failure
// (and reports it from [Model.Err]): a caller that cannot handle the error
// where it builds the model, such as resilient.Model, returns that model so
// that the problem surfaces at the first call instead of as a nil pointer.
func New(m lcllms.Model, opts ...Option) (*Model, error) {
	cfg := configure(opts)
	if inspect.IsNil(m) {
		cfg.errorf("nil model (%T)", m)
	}
	err := errors.Join(cfg.errs...)
	var w *Model
	if err == nil {
		w, err = build(m, cfg)
	}
	if err != nil {
		return invalid(m, err), err
	}
	return w, nil
}

// invalid returns a model that answers every call with err, classified as
// a programming error, and reports it from [Model.Err].
func invalid(m lcllms.Model, err error) *Model {
	return &Model{inner: m, name: "invalid model", err: taxonomy.WithClass(err,
		taxonomy.Class{Kind: taxonomy.Programming, Rule: "invalid options"})}
}

func build(m lcllms.Model, cfg config) (*Model, error) {
	m, given, guards := unmember(m)
	if len(guards) > 0 {
		// Outside a pool, a member's guards (its limits, its breaker) guard
		// the model, after the options that the model was given; its weight
		// has nothing to weigh against.
		cfg.mw = append(append(cfg.mw[:len(cfg.mw):len(cfg.mw)], guards...), middleware.Unpooled())
	}
	if inspect.IsNil(m) {
		return nil, fmt.Errorf("llms: nil model (%T)", m)
	}
	name, provider, model := describe(m)
	switch {
	case cfg.name != "":
		name = cfg.name
	case given != "":
		name = given
	}
	w := &Model{inner: m, name: name, cfg: cfg, provider: providerOf(m),
		target: observe.Target{Name: name, Operation: observe.OperationChat, Provider: provider, Model: model}}
	if err := w.buildPipelines(cfg); err != nil {
		return nil, err
	}
	return w, w.buildFallbacks(cfg, nil)
}

// buildPipelines builds the model's two pipelines, sharing one breaker,
// one concurrency limit and, for a pool, one balancer; extra options go to
// the first (a pool's members).
func (w *Model) buildPipelines(cfg config, extra ...middleware.Option) error {
	common := append([]middleware.Option{middleware.Describe(w.target)}, cfg.mw...)
	common = append(common, cfg.sharedLimits()...)
	w.cfg.tokenLimiter = cfg.tokenLimit()
	if cfg.compactor != nil {
		common = append(common, middleware.KindAttempts(taxonomy.ContextOverflow, 2))
	}
	var err error
	first := common[:len(common):len(common)] // extra must not reach the stream pipeline
	if w.pipe, err = middleware.New[*lcllms.ContentResponse](w.name, append(first, extra...)...); err != nil {
		return fmt.Errorf("llms: %w", err)
	}
	streamOpts := append(common, middleware.Timeout(cmp.Or(cfg.streamTimeout, middleware.Forever)))
	if b := w.pipe.Breaker(); b != nil {
		streamOpts = append(streamOpts, middleware.UseBreaker(b))
	}
	if sem, wait := w.pipe.Concurrency(); sem != nil {
		streamOpts = append(streamOpts, middleware.ConcurrencyLimit(sem, wait))
	}
	if shared := w.pipe.Pool(); shared != nil {
		streamOpts = append(streamOpts, middleware.UsePool(shared))
	}
	if w.streamPipe, err = middleware.New[*lcllms.ContentResponse](w.name, streamOpts...); err != nil {
		return fmt.Errorf("llms: %w", err)
	}
	w.obs = w.pipe.Observers()
	return nil
}

// buildFallbacks wraps the fallbacks with the primary's options, each under
// a name no other model of the call has (taken holds the names already
// used, nil for the primary's alone): a model already wrapped by New is
// used as it is, and models that would share a name are numbered
// ("openai/gpt-4o#2") unless [Named] named them.
func (w *Model) buildFallbacks(cfg config, taken names) error {
	if taken == nil {
		taken = names{}
	}
	taken[w.name] = true
	fcfg := cfg
	fcfg.fallbacks, fcfg.shared = nil, nil
	for i, fb := range cfg.fallbacks {
		if wrapped, ok := fb.(*Model); ok {
			if wrapped.err != nil {
				return fmt.Errorf("llms: Fallbacks: model %d: %w", i, wrapped.err)
			}
			if taken[wrapped.name] {
				return fmt.Errorf("llms: Fallbacks: model %d is named %q like another model of the call; name it with Named or Name", i, wrapped.name)
			}
			taken[wrapped.name] = true
			w.fallbacks = append(w.fallbacks, wrapped)
			continue
		}
		inner, given, _ := unmember(fb)
		name, err := taken.claim(inner, given)
		if err != nil {
			return fmt.Errorf("llms: Fallbacks: model %d %w", i, err)
		}
		fcfg.name = name
		f, err := build(fb, fcfg) // with the guards of a Member
		if err != nil {
			return err
		}
		w.fallbacks = append(w.fallbacks, f)
	}
	return nil
}

// names are the names taken by the models of one call.
type names map[string]bool

// claim returns the name of model m, given by [Named] (given) or derived
// from its client, numbered when another model of the call has it
// ("openai/gpt-4o#2"), and takes it. A name given twice is an error.
func (taken names) claim(m lcllms.Model, given string) (string, error) {
	name, _, _ := describe(m)
	if given != "" {
		name = given
	}
	if taken[name] {
		if given != "" {
			return "", fmt.Errorf("is named %q like another model of the call", given)
		}
		n := 2
		for taken[fmt.Sprintf("%s#%d", name, n)] {
			n++
		}
		name = fmt.Sprintf("%s#%d", name, n)
	}
	taken[name] = true
	return name, nil
}

// Name returns the name used in errors and logs; "" for a nil *Model.
func (m *Model) Name() string {
	if m == nil {
		return ""
	}
	return m.name
}

// Unwrap returns the wrapped model; nil for a pool, whose members are
// many, and for a nil *Model.
func (m *Model) Unwrap() lcllms.Model {
	if m == nil {
		return nil
	}
	return m.inner
}

// Err returns the error [New] reported for this model, nil if none; for a
// nil *Model, the error its calls return.
func (m *Model) Err() error {
	if m == nil {
		return errNilModel
	}
	return m.err
}

// Breaker returns the model's circuit breaker, nil when disabled and for a
// pool, whose members have one each (see [Model.Pool]).
func (m *Model) Breaker() *breaker.Breaker {
	if m == nil || m.pipe == nil {
		return nil
	}
	return m.pipe.Breaker()
}

// Limiter returns the model's rate limiter of calls ([middleware.RateLimit]),
// nil if none. A pool's is for the pool as a whole; its members' are in
// [Model.Pool]'s Members.
func (m *Model) Limiter() limit.Limiter {
	if m == nil || m.pipe == nil {
		return nil
	}
	return m.pipe.Limiter()
}

// TokenLimiter returns the model's token limiter ([TokenLimit], or the
// one it shares with [ShareLimits]), nil if none.
func (m *Model) TokenLimiter() limit.Limiter {
	if m == nil {
		return nil
	}
	return m.cfg.tokenLimiter
}

// Concurrency returns the model's concurrency limit (MaxConcurrent,
// ConcurrencyLimit) and how long a call waits for a slot, nil if none. A
// pool's is for the pool as a whole; its members' are in [Model.Pool]'s
// Members.
func (m *Model) Concurrency() (limit.Semaphore, time.Duration) {
	if m == nil || m.pipe == nil {
		return nil, 0
	}
	return m.pipe.Concurrency()
}

// SupportsReasoning forwards [lcllms.ReasoningModel]: it reports the wrapped
// model's answer, false when the wrapped model does not say (or panics, or
// the model is invalid). A pool supports reasoning when every member does.
func (m *Model) SupportsReasoning() bool {
	if m == nil || m.err != nil {
		return false
	}
	if m.members == nil {
		return reasons(m.inner)
	}
	for _, c := range m.members {
		if !reasons(c.llm) {
			return false
		}
	}
	return true
}

// reasons reports whether m says it supports reasoning, false when it does
// not say or panics.
func reasons(m lcllms.Model) (ok bool) {
	defer func() {
		if recover() != nil {
			ok = false
		}
	}()
	if r, is := m.(lcllms.ReasoningModel); is {
		return r.SupportsReasoning()
	}
	return false
}

// Call answers a single prompt through GenerateContent, as langchaingo's
// own wrappers do.
func (m *Model) Call(ctx context.Context, prompt string, options ...lcllms.CallOption) (string, error) {
	if err := m.callable(ctx); err != nil {
		return "", err
	}
	return lcllms.GenerateFromSinglePrompt(ctx, m, prompt, options...)
}

// callable returns why m cannot be called with ctx, a programming error
// (a nil *Model, a nil context, a Model New did not build or refused), nil
// when it can.
func (m *Model) callable(ctx context.Context) error {
	switch {
	case m == nil:
		return errNilModel
	case m.err != nil:
		return m.err
	case m.pipe == nil:
		return errZeroModel
	case ctx == nil:
		return errNilCtx
	}
	return nil
}

// GenerateContent calls the wrapped model under the pipeline, then the
// fallbacks in order while the failure is one another model can fix. When
// every model fails, the error joins all their errors. A nil *Model or a
// nil context returns a programming error.
func (m *Model) GenerateContent(ctx context.Context, messages []lcllms.MessageContent, options ...lcllms.CallOption) (*lcllms.ContentResponse, error) {
	if err := m.callable(ctx); err != nil {
		return nil, err
	}
	opts := readOptions(options)
	c := &modelCall{messages: messages, options: options,
		stream: opts.StreamingFunc, streamReasoning: opts.StreamingReasoningFunc,
		streaming: opts.StreamingFunc != nil || opts.StreamingReasoningFunc != nil}
	if key, ok := stickyKeyOf(opts); ok {
		ctx = pool.Sticky(ctx, key)
		c.options = append(options[:len(options):len(options)], dropStickyKey)
	}
	if !m.obs.Active() {
		optionsPool.Put(opts)
		return m.generateWithFallbacks(ctx, c)
	}
	target := m.target
	if opts.Model != "" {
		target.Model = opts.Model // the call asked for another model of the client
	}
	optionsPool.Put(opts)
	start := time.Now()
	ctx = m.obs.StartCall(ctx, target)
	resp, err := m.generateWithFallbacks(ctx, c)
	end := chatcall.End(target, int(c.root().attempts.Load()), start, err)
	end.InputTokens, end.OutputTokens = int(c.input.Load()), int(c.output.Load())
	m.obs.Report(ctx, end, err)
	return resp, err
}

// generateWithFallbacks calls the model, then the fallbacks in order while
// the failure is one another model can fix.
func (m *Model) generateWithFallbacks(ctx context.Context, c *modelCall) (*lcllms.ContentResponse, error) {
	resp, err := m.generate(ctx, c)
	if err == nil || len(m.fallbacks) == 0 {
		return resp, err
	}
	errs := []error{err}
	from := m.name
	for _, fb := range m.fallbacks {
		if !chatcall.ShouldFallBack(ctx, err, m.cfg.fallbackOnOverflow) {
			break
		}
		if m.obs.Active() {
			m.obs.Report(ctx, observe.Fallback{Target: from, To: fb.name, Class: taxonomy.Classify(err)}, err)
		}
		if err := c.restart(ctx, m, chatcall.LastTarget(err, from)); err != nil {
			return nil, errors.Join(append(errs, err)...)
		}
		resp, err = fb.generate(ctx, c.forFallback())
		if err == nil {
			return resp, nil
		}
		errs = append(errs, err)
		from = fb.name
	}
	return nil, errors.Join(errs...)
}

// modelCall is the state of one GenerateContent across attempts and
// fallbacks: the messages (compacted on overflow) and what a stream
// delivered.
type modelCall struct {
	model           *Model // the model whose pipeline makes the attempts
	options         []lcllms.CallOption
	stream          func(ctx context.Context, chunk []byte) error // the caller's streaming functions
	streamReasoning func(ctx context.Context, reasoning, chunk []byte) error
	streaming       bool

	attempts atomic.Int32 // attempts made, fallbacks' included (shared through the first call's)
	input    atomic.Int64 // tokens the provider reported, same sharing
	output   atomic.Int64
	first    *modelCall // the call this one falls back from; nil for the first

	mu       sync.Mutex
	messages []lcllms.MessageContent
	partial  *PartialStreamError // set when a failed attempt had delivered chunks
}

// forFallback returns the call for a fallback model: the caller's options,
// the messages as compacted so far.
func (c *modelCall) forFallback() *modelCall {
	c.mu.Lock()
	defer c.mu.Unlock()
	return &modelCall{options: c.options, stream: c.stream, streamReasoning: c.streamReasoning,
		streaming: c.streaming, messages: c.messages, first: c.root()}
}

// addTokens adds the usage of one response to the call's.
func (c *modelCall) addTokens(input, output int) {
	sat.AddInt64(&c.input, int64(input))
	sat.AddInt64(&c.output, int64(output))
}

// root returns the first call of a chain of fallbacks.
func (c *modelCall) root() *modelCall {
	if c.first != nil {
		return c.first
	}
	return c
}

// restart calls the restart hook if the last attempt delivered chunks. No
// hook means such a call never gets here: its failure was final. The
// restart is reported for target, where the stream broke (a pool's
// member).
func (c *modelCall) restart(ctx context.Context, m *Model, target string) error {
	c.mu.Lock()
	partial := c.partial
	c.partial = nil
	c.mu.Unlock()
	if partial == nil || m.cfg.onRestart == nil {
		return nil
	}
	return restartStream(ctx, m, target, partial)
}

// restartStream tells the restart hook and the observers that the stream
// that partial delivered starts again.
func restartStream(ctx context.Context, m *Model, target string, partial *PartialStreamError) error {
	hook := m.cfg.onRestart
	if m.obs.Active() {
		m.obs.Observe(ctx, observe.StreamRestarted{Target: target, Chunks: partial.Chunks})
	}
	if err := hook(ctx, partial.Partial); err != nil {
		return middleware.Unretryable(fmt.Errorf("llms: stream restart hook: %w", err), "the stream restart hook refused")
	}
	return nil
}

func (m *Model) generate(ctx context.Context, c *modelCall) (*lcllms.ContentResponse, error) {
	c.model = m
	fn := c.attempt
	var request middleware.CallOption // without a run there is nothing to count
	if run.From(ctx) != nil {
		request = middleware.Request(func(_ context.Context, s middleware.State) int {
			return m.estimate(c, s)
		})
	}
	switch {
	case c.streaming:
		return m.streamPipe.Do(ctx, fn, request)
	default:
		return m.pipe.DoHedged(ctx, fn, request)
	}
}

// attempt is one attempt, the pipeline's function: compact after an
// overflow, restart a stream, call the model with an evidence slot and a
// stream guard, check the response. It runs on the attempt's goroutine,
// whose stack starts small: the work before and after the model's call is
// in functions of their own, so that the frames on the stack at once stay
// few and small.
func (c *modelCall) attempt(ctx context.Context, s middleware.State) (*lcllms.ContentResponse, error) {
	m := c.model
	messages, estimate, err := m.prepare(ctx, c, &s)
	if err != nil {
		return nil, err
	}
	actx, sl := wire.WithSlot(ctx)
	options := c.options
	var g *guard
	if c.streaming {
		actx, g, options = m.guard(actx, c, s.End)
	}
	cl := client{llm: m.inner, provider: m.provider}
	if m.members != nil {
		cl = m.members[s.Member]
	}
	resp, err := cl.llm.GenerateContent(actx, messages, options...)
	return m.settle(ctx, c, resp, err, sl, g, cl.provider, estimate)
}

// prepare readies an attempt: compacts the messages after an overflow,
// restarts a stream, takes the request's place in the token limiter. It
// returns the messages to send and the tokens taken.
func (m *Model) prepare(ctx context.Context, c *modelCall, s *middleware.State) ([]lcllms.MessageContent, int, error) {
	if m.compacts(s) {
		if err := m.compact(ctx, c); err != nil {
			return nil, 0, err
		}
	}
	c.root().attempts.Add(1)
	if err := c.restart(ctx, m, cmp.Or(s.Previous.Target, m.name)); err != nil {
		return nil, 0, err
	}
	c.mu.Lock()
	messages := c.messages
	c.mu.Unlock()
	estimate := 0
	if l := m.cfg.tokenLimiter; l != nil {
		estimate = estimateTokens(messages)
		if err := l.Acquire(ctx, estimate); err != nil {
			return nil, 0, tokenLimitRefused(err)
		}
	}
	return messages, estimate, nil
}

// tokenLimitRefused is the failure of an attempt that the token limiter
// refused with err.
func tokenLimitRefused(err error) error {
	return middleware.Unretryable(classed(taxonomy.RateLimited, "client-side token limit",
		fmt.Errorf("llms: token limit: %w", err)), "the token limiter refused the request")
}

// guard puts a streamed attempt's chunks through a stream guard, which
// ends the attempt (end) when the stream stalls, and returns the attempt's
// context and call options with it.
func (m *Model) guard(ctx context.Context, c *modelCall, end func(error)) (context.Context, *guard, []lcllms.CallOption) {
	onStall := func(g *guard, cause error) {
		end(m.streamFailure(c, g, classed(taxonomy.Transient, streamguard.StallRule(cause), cause)))
	}
	ctx, g := newGuard(ctx, c.stream, c.streamReasoning, m.cfg.firstChunk, m.cfg.idle, onStall)
	options := append(c.options[:len(c.options):len(c.options)], g.options()...)
	return ctx, g, options
}

// settle turns what the model returned into the attempt's outcome: the
// usage is counted, the response checked, a failure given its evidence.
func (m *Model) settle(ctx context.Context, c *modelCall, resp *lcllms.ContentResponse, err error,
	sl *wire.Slot, g *guard, p provider, estimate int) (*lcllms.ContentResponse, error) {
	var stall error
	if g != nil {
		stall = g.Stop()
	}
	if err == nil {
		m.count(ctx, c, resp, estimate)
		if err = m.check(resp, sl, g, p); err == nil {
			return resp, nil
		}
	} else {
		err = evidenced(err, sl)
	}
	return nil, m.failure(c, g, stall, err)
}

// count adds the usage of a response to the run's, the call's and the
// token limiter's.
func (m *Model) count(ctx context.Context, c *modelCall, resp *lcllms.ContentResponse, estimate int) {
	in, out := usageOf(resp)
	run.From(ctx).AddTokens(in, out)
	c.root().addTokens(in, out)
	if s, ok := m.cfg.tokenLimiter.(limit.Settler); ok && (in > 0 || out > 0) {
		s.Settle(ctx, estimate, sat.Add(in, out)) // the estimate was taken before; the truth is known now
	}
}

// evidenced gives err, the model's failure, what the transport saw of it.
func evidenced(err error, sl *wire.Slot) error {
	ev, seen := sl.Evidence()
	if stop := sl.StopReason(); seen && ev.EndMarker && reply.OutputLimit(stop) {
		// A whole stream that stopped at the output limit, which the client
		// reported as an error: it had no output to return.
		return reply.OutputLimitError(stop, err)
	}
	if seen {
		return taxonomy.WithEvidence(sl.WithCause(err), wire.ForError(ev))
	}
	return err
}

// failure returns the failure of an attempt that failed with err: as a
// stall if the stream guard saw one, as a stream's failure if streamed.
func (m *Model) failure(c *modelCall, g *guard, stall, err error) error {
	if stall != nil {
		err = classed(taxonomy.Transient, streamguard.StallRule(stall), fmt.Errorf("%w: %w", stall, err))
	}
	if g == nil {
		return err
	}
	return m.streamFailure(c, g, err)
}

// streamFailure returns the error of a streamed attempt that failed with
// err: the caller's own streaming error stops the call; a stream that had
// delivered chunks is not retried unless a restart hook is set (the
// partial text is kept for it); otherwise err.
func (m *Model) streamFailure(c *modelCall, g *guard, err error) error {
	if callerErr := g.CallerErr(); callerErr != nil {
		return middleware.Unretryable(classed(taxonomy.Canceled, "streaming function returned an error",
			fmt.Errorf("%w: %w", callerErr, err)), "the caller's streaming function stopped the call")
	}
	if perr := g.Partial(err); perr != nil {
		if m.cfg.onRestart == nil {
			return middleware.Unretryable(perr, "the stream had already delivered output; set OnStreamRestart to allow a retry")
		}
		c.mu.Lock()
		c.partial = perr
		c.mu.Unlock()
		return perr
	}
	return err
}

// estimate returns the estimated input tokens of the attempt described by
// s, for the run's token budget, which counts it before the attempt starts.
// An attempt after a context overflow is about to be compacted, to a size
// not known yet: it is estimated at 0, so that only a spent budget refuses
// it.
func (m *Model) estimate(c *modelCall, s middleware.State) int {
	if m.compacts(&s) {
		return 0
	}
	c.mu.Lock()
	messages := c.messages
	c.mu.Unlock()
	return estimateTokens(messages)
}

// compacts reports whether the attempt described by s compacts the messages
// first: the first attempt after a context overflow, not a hedge.
func (m *Model) compacts(s *middleware.State) bool {
	return s.Previous.Class.Kind == taxonomy.ContextOverflow && !s.Hedge && m.cfg.compactor != nil
}

// compact shrinks the call's messages after a context overflow.
func (m *Model) compact(ctx context.Context, c *modelCall) error {
	c.mu.Lock()
	before := len(c.messages)
	compacted, err := m.cfg.compactor.Compact(ctx, c.messages)
	if err == nil {
		c.messages = compacted
	}
	c.mu.Unlock()
	if err != nil {
		// Still an overflow: the pipeline stops with ReasonContextOverflow, and
		// a fallback with a larger window may take it (FallbackOnOverflow).
		return classed(taxonomy.ContextOverflow, "compaction failed",
			fmt.Errorf("llms: compacting %d messages: %w", before, err))
	}
	if m.obs.Active() {
		m.obs.Observe(ctx, observe.Compacted{Target: m.name, Before: before, After: len(compacted)})
	}
	return nil
}

// estimateTokens estimates a request's input tokens as a quarter of the
// bytes of its text (text parts, tool calls and tool results), at least 1,
// without copying any of it. Measured against OpenAI's cl100k_base and
// o200k_base (internal/tokencheck), English prose is 0.8 times the
// estimate, code and JSON 1 to 1.5 times, text of other scripts 0.5 to 1.6
// times, emoji up to 2.7 times, and a run of spaces far less. For the text
// it counts it is never low by more than four times with a byte-level
// tokenizer, which makes at most one token of a byte. Images, tool
// definitions and the provider's framing of the messages are not counted.
func estimateTokens(messages []lcllms.MessageContent) int {
	n := 0
	for _, m := range messages {
		for _, p := range m.Parts {
			switch p := p.(type) {
			case lcllms.TextContent:
				n += len(p.Text)
			case lcllms.ToolCall:
				if p.FunctionCall != nil {
					n += len(p.FunctionCall.Name) + len(p.FunctionCall.Arguments)
				}
			case lcllms.ToolCallResponse:
				n += len(p.Name) + len(p.Content)
			}
		}
	}
	return tokensFor(n)
}

// tokensFor estimates the tokens of n bytes of text: a quarter, at least 1
// (see estimateTokens for how far off it can be).
func tokensFor(n int) int { return max(1, (n+3)/4) }

// optionsPool recycles the CallOptions that GenerateContent reads the
// caller's options into (to see whether the call streams): the struct is
// large, and applying options through function values makes it escape.
var optionsPool = sync.Pool{New: func() any { return new(lcllms.CallOptions) }}

// readOptions applies options to a pooled CallOptions; put it back when done.
func readOptions(options []lcllms.CallOption) *lcllms.CallOptions {
	opts := optionsPool.Get().(*lcllms.CallOptions)
	*opts = lcllms.CallOptions{}
	for _, o := range options {
		if o != nil {
			o(opts)
		}
	}
	return opts
}
