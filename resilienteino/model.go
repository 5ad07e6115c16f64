package resilienteino

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/cloudwego/eino/components"
	"github.com/cloudwego/eino/components/model"
	"github.com/cloudwego/eino/schema"

	"github.com/resilientgo/resilient/breaker"
	"github.com/resilientgo/resilient/internal/chatcall"
	"github.com/resilientgo/resilient/internal/inspect"
	"github.com/resilientgo/resilient/internal/reply"
	"github.com/resilientgo/resilient/internal/sat"
	"github.com/resilientgo/resilient/internal/wire"
	"github.com/resilientgo/resilient/middleware"
	"github.com/resilientgo/resilient/observe"
	"github.com/resilientgo/resilient/pool"
	"github.com/resilientgo/resilient/run"
	"github.com/resilientgo/resilient/taxonomy"
)

// ChatModel is a resilient Eino chat model: it wraps another and runs every
// call under a middleware.Pipeline, expanded as
//
//	fallbacks(retry(breaker(timeout(compact(stream guard(checks(model)))))))
//
// It is a model.ToolCallingChatModel; WithTools returns a ChatModel too,
// sharing the breaker, limits and fallbacks (each bound to the same tools).
// It never modifies the caller's messages or options. It is safe for
// concurrent use when the wrapped model is.
//
// The zero ChatModel is not usable: its calls return an error saying so.
type ChatModel struct {
	*core
	inner   model.BaseChatModel   // nil for a pool
	members []model.BaseChatModel // of a pool, indexed as middleware.State.Member
	fbs     []*ChatModel          // the fallbacks, bound to the same tools as this model
}

// core is what the models derived from one wrapped model share: the
// pipelines (so one breaker, one set of limits) and the configuration.
type core struct {
	name       string
	target     observe.Target
	cfg        modelConfig
	obs        observe.Observers
	pipe       *middleware.Pipeline[*schema.Message] // Generate
	streamPipe *middleware.Pipeline[*schema.Message] // Stream: same breaker, stream timeouts
	err        error                                 // construction error, returned by every call
}

var (
	_ model.ToolCallingChatModel = (*ChatModel)(nil)
	_ components.Typer           = (*ChatModel)(nil)
	_ components.Checker         = (*ChatModel)(nil)
)

// errZeroModel is the error of a ChatModel that [New] did not build.
var errZeroModel = taxonomy.WithClass(errors.New("resilienteino: zero ChatModel: build it with resilienteino.Model or New"),
	taxonomy.Class{Kind: taxonomy.Programming, Rule: "zero value"})

// Model makes m resilient and returns it, still a
// model.ToolCallingChatModel: it drops into react.NewAgent, an
// adk.ChatModelAgent, a compose graph, or any code that takes a model. With
// no option it has the recommended defaults of package resilient: 3
// attempts with full-jitter backoff from 0.5 s to 8 s, Retry-After waited
// exactly up to 60 s, a circuit breaker, a 2-minute attempt timeout, stream
// timeouts, response checks and compaction on context overflow.
//
// Give the provider client [HTTPClient] (eino-ext openai's
// ChatModelConfig.HTTPClient, say) so that every attempt reads the wire
// evidence its error drops: the status, Retry-After, the provider's error
// code, whether a stream ended.
//
// Model never fails: a nil model or an invalid option makes every call of
// the result return the problem, as a programming error, and
// [ChatModel.Err] reports it. Use [New] to get the error at once.
func Model(m model.ToolCallingChatModel, opts ...ModelOption) *ChatModel {
	w, _ := New(m, opts...)
	return w
}

// New is [Model] for any Eino chat model, a model.BaseChatModel (WithTools
// of the result fails unless m is a model.ToolCallingChatModel), and
// returns the problem of a nil model or an invalid option, together with a
// model that answers every call with it.
func New(m model.BaseChatModel, opts ...ModelOption) (*ChatModel, error) {
	cfg := configure(opts)
	if inspect.IsNil(m) {
		cfg.errorf("nil model (%T)", m)
	}
	errs := cfg.errs
	var w *ChatModel
	if !inspect.IsNil(m) {
		var err error
		if w, err = build(m, cfg, cfg.name, names{}); err != nil {
			errs = append(errs, err) // the pipeline's own problems, too
		}
	}
	if err := errors.Join(errs...); err != nil {
		return invalid(m, err), err
	}
	return w, nil
}

func configure(opts []ModelOption) modelConfig {
	cfg := modelDefaults()
	for _, o := range opts {
		if o == nil {
			cfg.errs = append(cfg.errs, errNilOption)
			continue
		}
		o.applyModel(&cfg)
	}
	return cfg
}

// invalid returns a model that answers every call with err, classified as
// a programming error.
func invalid(m model.BaseChatModel, err error) *ChatModel {
	return &ChatModel{inner: m, core: &core{name: "invalid model",
		err: taxonomy.WithClass(err, taxonomy.Class{Kind: taxonomy.Programming, Rule: "invalid options"})}}
}

// build wraps m under name ("" for the name derived from its client), with
// its fallbacks; taken holds the names the models of the call took.
func build(m model.BaseChatModel, cfg modelConfig, name string, taken names) (*ChatModel, error) {
	m, given, _ := unwrapSpec(m) // outside a pool, a member's options do not apply
	if name == "" {
		name = given
	}
	derived, provider, modelName := describe(m)
	if name == "" {
		name = taken.claim(derived)
	} else if taken[name] {
		return nil, fmt.Errorf("resilienteino: the model is named %q like another model of the call", name)
	}
	taken[name] = true
	c := &core{name: name, cfg: cfg,
		target: observe.Target{Name: name, Operation: observe.OperationChat, Provider: provider, Model: modelName}}
	if err := c.buildPipelines(); err != nil {
		return nil, err
	}
	w := &ChatModel{core: c, inner: m}
	return w, w.buildFallbacks(taken)
}

// buildPipelines builds the model's two pipelines, sharing one breaker,
// one concurrency limit and, for a pool, one balancer; extra options go to
// the first (a pool's members).
func (c *core) buildPipelines(extra ...middleware.Option) error {
	common := append([]middleware.Option{middleware.Describe(c.target)}, c.cfg.mw...)
	if c.cfg.compactor != nil {
		common = append(common, middleware.KindAttempts(taxonomy.ContextOverflow, 2))
	}
	var err error
	first := common[:len(common):len(common)] // what follows must not reach the stream pipeline
	if c.pipe, err = middleware.New[*schema.Message](c.name, append(first, extra...)...); err != nil {
		return fmt.Errorf("resilienteino: %w", err)
	}
	streamOpts := append(common, middleware.Timeout(cmp.Or(c.cfg.streamTimeout, middleware.Forever)))
	if b := c.pipe.Breaker(); b != nil {
		streamOpts = append(streamOpts, middleware.UseBreaker(b))
	}
	if sem, wait := c.pipe.Concurrency(); sem != nil {
		streamOpts = append(streamOpts, middleware.ConcurrencyLimit(sem, wait))
	}
	if shared := c.pipe.Pool(); shared != nil {
		streamOpts = append(streamOpts, middleware.UsePool(shared))
	}
	if c.streamPipe, err = middleware.New[*schema.Message](c.name, streamOpts...); err != nil {
		return fmt.Errorf("resilienteino: %w", err)
	}
	c.obs = c.pipe.Observers()
	return nil
}

// buildFallbacks wraps the fallbacks with the primary's options, each under
// a name no other model of the call has. A fallback already wrapped is
// used as it is.
func (w *ChatModel) buildFallbacks(taken names) error {
	fcfg := w.cfg
	fcfg.fallbacks, fcfg.name = nil, ""
	for i, fb := range w.cfg.fallbacks {
		if wrapped, ok := fb.(*ChatModel); ok {
			switch {
			case wrapped.core == nil:
				return fmt.Errorf("resilienteino: Fallbacks: model %d: %w", i, errZeroModel)
			case wrapped.err != nil:
				return fmt.Errorf("resilienteino: Fallbacks: model %d: %w", i, wrapped.err)
			case taken[wrapped.name]:
				return fmt.Errorf("resilienteino: Fallbacks: model %d is named %q like another model of the call; name it with Name", i, wrapped.name)
			}
			taken[wrapped.name] = true
			w.fbs = append(w.fbs, wrapped)
			continue
		}
		f, err := build(fb, fcfg, "", taken)
		if err != nil {
			return err
		}
		w.fbs = append(w.fbs, f)
	}
	return nil
}

// names are the names taken by the models of one call.
type names map[string]bool

// claim returns name, numbered when another model of the call has it
// ("openai/gpt-4o#2").
func (taken names) claim(name string) string {
	if !taken[name] {
		return name
	}
	n := 2
	for taken[fmt.Sprintf("%s#%d", name, n)] {
		n++
	}
	return fmt.Sprintf("%s#%d", name, n)
}

// modelFields are the names, lowercased, under which Eino's model clients
// keep their model: eino-ext openai's Config.Model, ark's and ollama's
// Model, qwen's and the others' alike.
var modelFields = map[string]bool{"model": true, "modelname": true, "modelid": true}

// describe names m: the package of its client and its configured model,
// "openai/gpt-4o", when its struct reveals it. It calls no method of m.
func describe(m model.BaseChatModel) (name, provider, modelName string) {
	provider = inspect.Package(m)
	modelName = inspect.Model(m, modelFields)
	if modelName == "" {
		return provider, provider, ""
	}
	return provider + "/" + modelName, provider, modelName
}

// Name returns the name used in errors and logs.
func (m *ChatModel) Name() string {
	if m.core == nil {
		return ""
	}
	return m.name
}

// Err returns the problem [New] reported for this model, nil if none.
func (m *ChatModel) Err() error {
	if m.core == nil {
		return errZeroModel
	}
	return m.err
}

// Unwrap returns the wrapped model; nil for a pool, whose members are many.
func (m *ChatModel) Unwrap() model.BaseChatModel { return m.inner }

// Breaker returns the model's circuit breaker, nil when disabled and for a
// pool, whose members have one each (see [ChatModel.Pool]).
func (m *ChatModel) Breaker() *breaker.Breaker {
	if m.core == nil || m.pipe == nil {
		return nil
	}
	return m.pipe.Breaker()
}

// Pool returns the pool built by [Pool], which reports on its
// members; nil for a model that is not a pool.
func (m *ChatModel) Pool() *pool.Pool {
	if m.core == nil || m.pipe == nil {
		return nil
	}
	return m.pipe.Pool()
}

// GetType forwards the wrapped model's type (components.Typer), so that
// Eino's callbacks name the component as before; "Resilient" when it has
// none.
func (m *ChatModel) GetType() string {
	for _, inner := range m.clients() {
		if t, ok := components.GetType(inner); ok {
			return t
		}
	}
	return "Resilient"
}

// IsCallbacksEnabled reports whether the wrapped model runs Eino's
// callbacks itself (components.Checker): then each attempt reports its own
// start and end, and the framework does not wrap this model with callbacks
// again. A pool does when every member does.
func (m *ChatModel) IsCallbacksEnabled() bool {
	clients := m.clients()
	for _, inner := range clients {
		if !components.IsCallbacksEnabled(inner) {
			return false
		}
	}
	return len(clients) > 0
}

// clients returns the models attempts go to.
func (m *ChatModel) clients() []model.BaseChatModel {
	if m.members != nil {
		return m.members
	}
	if m.inner == nil {
		return nil
	}
	return []model.BaseChatModel{m.inner}
}

// WithTools returns the model bound to tools, still resilient: the wrapped
// model's WithTools (each member's, for a pool), with the same breaker,
// limits and configuration, and the fallbacks bound to the same tools. It
// fails when a model it must bind is not a model.ToolCallingChatModel.
func (m *ChatModel) WithTools(tools []*schema.ToolInfo) (model.ToolCallingChatModel, error) {
	if err := m.Err(); err != nil {
		return nil, err
	}
	bind := func(inner model.BaseChatModel) (model.BaseChatModel, error) {
		tc, ok := inner.(model.ToolCallingChatModel)
		if !ok {
			return nil, fmt.Errorf("resilienteino: WithTools: %T is not a model.ToolCallingChatModel", inner)
		}
		return tc.WithTools(tools)
	}
	out := &ChatModel{core: m.core}
	var err error
	if m.members != nil {
		out.members = make([]model.BaseChatModel, len(m.members))
		for i, member := range m.members {
			if out.members[i], err = bind(member); err != nil {
				return nil, err
			}
		}
	} else if out.inner, err = bind(m.inner); err != nil {
		return nil, err
	}
	for _, fb := range m.fbs {
		bound, err := fb.WithTools(tools)
		if err != nil {
			return nil, err
		}
		out.fbs = append(out.fbs, bound.(*ChatModel))
	}
	return out, nil
}

// Generate calls the wrapped model under the pipeline, then the fallbacks in
// order while the failure is one another model can fix. When every model
// fails, the error joins all their errors.
func (m *ChatModel) Generate(ctx context.Context, input []*schema.Message, opts ...model.Option) (*schema.Message, error) {
	if err := m.Err(); err != nil {
		return nil, err
	}
	c := &modelCall{messages: input, options: opts}
	if !m.obs.Active() {
		return m.withFallbacks(ctx, c, (*ChatModel).generate)
	}
	start := time.Now()
	ctx = m.obs.StartCall(ctx, m.target)
	out, err := m.withFallbacks(ctx, c, (*ChatModel).generate)
	m.reportEnd(ctx, c, start, err)
	return out, err
}

// reportEnd reports the end of the logical call c, which started at start.
func (m *ChatModel) reportEnd(ctx context.Context, c *modelCall, start time.Time, err error) {
	end := chatcall.End(m.target, int(c.attempts.Load()), start, err)
	end.InputTokens, end.OutputTokens = int(c.input.Load()), int(c.output.Load())
	m.obs.Report(ctx, end, err)
}

// withFallbacks calls do on the model, then on the fallbacks in order while
// the failure is one another model can fix.
func (m *ChatModel) withFallbacks(ctx context.Context, c *modelCall,
	do func(*ChatModel, context.Context, *modelCall) (*schema.Message, error),
) (*schema.Message, error) {
	out, err := do(m, ctx, c)
	if err == nil || len(m.fbs) == 0 {
		return out, err
	}
	errs := []error{err}
	from := m.name
	for _, fb := range m.fbs {
		if !chatcall.ShouldFallBack(ctx, err, m.cfg.fallbackOnOverflow) {
			break
		}
		if m.obs.Active() {
			m.obs.Report(ctx, observe.Fallback{Target: from, To: fb.name, Class: taxonomy.Classify(err)}, err)
		}
		if err := c.restart(ctx, m, chatcall.LastTarget(err, from)); err != nil {
			return nil, errors.Join(append(errs, err)...)
		}
		if out, err = do(fb, ctx, c); err == nil {
			return out, nil
		}
		errs = append(errs, err)
		from = fb.name
	}
	return nil, errors.Join(errs...)
}

// modelCall is the state of one logical call across attempts and
// fallbacks: the messages (compacted on overflow), what a stream
// delivered, the usage.
type modelCall struct {
	options []model.Option
	stream  *streamCall // of a call to Stream; nil for Generate

	attempts atomic.Int32 // attempts made, the fallbacks' included
	input    atomic.Int64 // tokens the provider reported
	output   atomic.Int64

	mu       sync.Mutex
	messages []*schema.Message
	partial  *PartialStreamError // set when a failed attempt had delivered chunks
}

func (c *modelCall) current() []*schema.Message {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.messages
}

// addUsage adds the usage msg reports to the call's and the run's.
func (c *modelCall) addUsage(ctx context.Context, msg *schema.Message) {
	in, out := usageOf(msg)
	run.From(ctx).AddTokens(in, out)
	sat.AddInt64(&c.input, int64(in))
	sat.AddInt64(&c.output, int64(out))
}

// usageOf returns the input and output tokens msg reports.
func usageOf(msg *schema.Message) (input, output int) {
	if msg == nil || msg.ResponseMeta == nil || msg.ResponseMeta.Usage == nil {
		return 0, 0
	}
	u := msg.ResponseMeta.Usage
	return max(0, u.PromptTokens), max(0, u.CompletionTokens)
}

// restart calls the restart hook if the last attempt delivered chunks. No
// hook means such a call never gets here: its failure was final. The
// restart is reported for target, where the stream broke.
func (c *modelCall) restart(ctx context.Context, m *ChatModel, target string) error {
	c.mu.Lock()
	partial := c.partial
	c.partial = nil
	c.mu.Unlock()
	hook := m.cfg.onRestart
	if partial == nil || hook == nil {
		return nil
	}
	if m.obs.Active() {
		m.obs.Observe(ctx, observe.StreamRestarted{Target: target, Chunks: partial.Chunks})
	}
	if err := hook(ctx, partial.Partial); err != nil {
		return middleware.Unretryable(fmt.Errorf("resilienteino: stream restart hook: %w", err), "the stream restart hook refused")
	}
	return nil
}

// request returns the call option that counts each attempt as a request of
// the run in ctx, none without a run.
func (m *ChatModel) request(ctx context.Context, c *modelCall) middleware.CallOption {
	if run.From(ctx) == nil {
		return middleware.CallOption{}
	}
	return middleware.Request(func(_ context.Context, s middleware.State) int {
		if m.compacts(s) {
			return 0 // compacted first, to a size not known yet
		}
		return estimateTokens(c.current())
	})
}

func (m *ChatModel) generate(ctx context.Context, c *modelCall) (*schema.Message, error) {
	return m.pipe.DoHedged(ctx, func(ctx context.Context, s middleware.State) (*schema.Message, error) {
		return m.attempt(ctx, c, s)
	}, m.request(ctx, c))
}

// client returns the model the attempt described by s goes to.
func (m *ChatModel) client(s middleware.State) model.BaseChatModel {
	if m.members != nil {
		return m.members[s.Member]
	}
	return m.inner
}

// prepare readies an attempt: compaction after an overflow, the restart
// hook after a stream that broke, the count.
func (m *ChatModel) prepare(ctx context.Context, c *modelCall, s middleware.State) error {
	if m.compacts(s) {
		if err := m.compact(ctx, c); err != nil {
			return err
		}
	}
	c.attempts.Add(1)
	return c.restart(ctx, m, restartTarget(s, m.name))
}

// attempt is one attempt of Generate: call the model with an evidence slot,
// check the reply.
func (m *ChatModel) attempt(ctx context.Context, c *modelCall, s middleware.State) (*schema.Message, error) {
	if err := m.prepare(ctx, c, s); err != nil {
		return nil, err
	}
	actx, sl := wire.WithSlot(ctx)
	out, err := m.client(s).Generate(actx, c.current(), c.options...)
	ev, seen := sl.Evidence()
	if err != nil {
		return nil, withEvidence(sl, err, ev, seen)
	}
	c.addUsage(ctx, out)
	if err := m.check(out, replyOf(out), ev, seen); err != nil {
		return nil, err
	}
	return out, nil
}

// withEvidence attaches what the wire said to err, an attempt's failure.
func withEvidence(sl *wire.Slot, err error, ev taxonomy.Evidence, seen bool) error {
	if !seen {
		return err
	}
	return taxonomy.WithEvidence(sl.WithCause(err), wire.ForError(ev))
}

// replyOf describes a reply for the built-in checks.
func replyOf(msg *schema.Message) reply.Reply {
	if msg == nil {
		return reply.Reply{NoChoices: true}
	}
	r := reply.Reply{Empty: isEmpty(msg)}
	if msg.ResponseMeta != nil {
		r.Stop = msg.ResponseMeta.FinishReason
	}
	return r
}

// isEmpty reports whether msg carries no text, reasoning, tool call or
// other output.
func isEmpty(msg *schema.Message) bool {
	return msg == nil || strings.TrimSpace(msg.Content) == "" && msg.ReasoningContent == "" && len(msg.ToolCalls) == 0 &&
		len(msg.MultiContent) == 0 && len(msg.AssistantGenMultiContent) == 0
}

// check runs the built-in checks, then the caller's.
func (m *ChatModel) check(msg *schema.Message, r reply.Reply, ev taxonomy.Evidence, seen bool) error {
	if err := reply.Check(r, &ev, seen); err != nil {
		return err
	}
	for _, check := range m.cfg.checks {
		if err := check(msg); err != nil {
			return err
		}
	}
	return nil
}

// compacts reports whether the attempt described by s compacts the messages
// first: the first attempt after a context overflow, not a hedge.
func (m *ChatModel) compacts(s middleware.State) bool {
	return s.Previous.Class.Kind == taxonomy.ContextOverflow && !s.Hedge && m.cfg.compactor != nil
}

// compact shrinks the call's messages after a context overflow.
func (m *ChatModel) compact(ctx context.Context, c *modelCall) error {
	c.mu.Lock()
	before := len(c.messages)
	compacted, err := m.cfg.compactor.Compact(ctx, c.messages)
	if err == nil {
		c.messages = compacted
	}
	c.mu.Unlock()
	if err != nil {
		// Still an overflow: the pipeline stops with ReasonContextOverflow,
		// and a fallback with a larger window may take it.
		return reply.Classed(taxonomy.ContextOverflow, "compaction failed",
			fmt.Errorf("resilienteino: compacting %d messages: %w", before, err))
	}
	if m.obs.Active() {
		m.obs.Observe(ctx, observe.Compacted{Target: m.name, Before: before, After: len(compacted)})
	}
	return nil
}

// estimateTokens estimates a request's input tokens as a quarter of the
// bytes of its text (contents, reasoning, tool calls), at least 1, as
// package llms does (see its TokenBudget).
func estimateTokens(messages []*schema.Message) int {
	n := 0
	for _, m := range messages {
		if m == nil {
			continue
		}
		n += len(m.Content) + len(m.ReasoningContent)
		for _, c := range m.ToolCalls {
			n += len(c.Function.Name) + len(c.Function.Arguments)
		}
	}
	return max(1, (n+3)/4)
}
