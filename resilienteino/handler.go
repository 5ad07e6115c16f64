package resilienteino

import (
	"context"
	"errors"
	"sync"

	"github.com/cloudwego/eino/adk"
	"github.com/cloudwego/eino/components/model"
	"github.com/cloudwego/eino/components/tool"
	"github.com/cloudwego/eino/compose"
	"github.com/cloudwego/eino/schema"

	"github.com/resilientgo/resilient/tools"
)

// ForTool applies opts to the tool called name only, after the options
// given to every tool: ForTool("charge_card", Idempotent(store)).
func ForTool(name string, opts ...ToolOption) HandlerOption {
	return forTool{name: name, opts: opts}
}

type forTool struct {
	name string
	opts []ToolOption
}

func (f forTool) applyHandler(c *handlerConfig) {
	if c.perTool == nil {
		c.perTool = map[string][]ToolOption{}
	}
	c.perTool[f.name] = append(c.perTool[f.name], f.opts...)
}

type handlerConfig struct {
	model   []ModelOption
	tool    []ToolOption
	perTool map[string][]ToolOption
	errs    []error
}

func configureHandler(opts []HandlerOption) handlerConfig {
	var c handlerConfig
	for _, o := range opts {
		if o == nil {
			c.errs = append(c.errs, errNilOption)
			continue
		}
		o.applyHandler(&c)
	}
	return c
}

// Handler returns the middleware that makes an adk.ChatModelAgent (and the
// agents built on it, DeepAgent's) resilient in one line:
//
//	agent, err := adk.NewChatModelAgent(ctx, &adk.ChatModelAgentConfig{
//		Model:    chatModel,
//		ToolsConfig: adk.ToolsConfig{ToolsNodeConfig: compose.ToolsNodeConfig{Tools: tools}},
//		Handlers: []adk.ChatModelAgentMiddleware{resilienteino.Handler(
//			resilienteino.ForTool("charge_card", resilienteino.Idempotent(nil)))},
//	})
//
// Its WrapModel puts every model call under the pipeline of [Model], with
// the model options given: one breaker and one set of limits for all the
// agent's model calls (named "model" in errors and events unless [Name]
// says otherwise: the agent hands the handler an endpoint, not its
// client); leave ModelRetryConfig unset, or its retries multiply with
// these. Its WrapInvokableToolCall and
// WrapStreamableToolCall put every tool call through the boundary of
// [Tool], with the tool options given and, per tool, those of [ForTool]:
// one breaker and one idempotency store per tool name (the first 1024
// names; a call to a tool past them gets a boundary of its own). Tools of
// the enhanced kinds (multimodal results) pass through unwrapped.
//
// The handler is safe for concurrent use: share one among the agents of
// one model and set of tools (its breakers and limits are theirs
// together), for instance an agent per run, as Eino v0.9.0's
// ChatModelAgent is not safe for concurrent runs (adk/chatmodel.go writes
// its run function's configuration on each Run). Invalid options make
// every model and tool call fail with the problem.
func Handler(opts ...HandlerOption) adk.ChatModelAgentMiddleware {
	cfg := configureHandler(opts)
	return &handler{cfg: cfg, tools: newToolSet(cfg)}
}

type handler struct {
	*adk.BaseChatModelAgentMiddleware
	cfg   handlerConfig
	tools *toolSet

	once  sync.Once
	model *ChatModel // the agent's first model, wrapped: its core is every call's
}

// WrapModel wraps m, the agent's model for one call, under the handler's
// pipeline.
func (h *handler) WrapModel(_ context.Context, m model.BaseChatModel, _ *adk.ModelContext) (model.BaseChatModel, error) {
	h.once.Do(func() {
		// m is the agent's endpoint, which says nothing of the client: the
		// model is called "model" unless Name says otherwise.
		opts := append([]ModelOption{Name("model")}, h.cfg.model...)
		if err := errors.Join(h.cfg.errs...); err != nil {
			opts = append(opts[:len(opts):len(opts)], failModel(err))
		}
		h.model, _ = New(m, opts...)
	})
	if h.model.err != nil {
		return h.model, nil // answers every call with the problem
	}
	return &ChatModel{core: h.model.core, inner: m, fbs: h.model.fbs}, nil
}

// failModel makes New report err.
func failModel(err error) ModelOption {
	return modelOnly(func(c *modelConfig) { c.errs = append(c.errs, err) })
}

// WrapInvokableToolCall puts the call through the tool's boundary.
func (h *handler) WrapInvokableToolCall(_ context.Context, endpoint adk.InvokableToolCallEndpoint, tc *adk.ToolContext) (adk.InvokableToolCallEndpoint, error) {
	w := h.tools.get(tc.Name)
	return func(ctx context.Context, args string, opts ...tool.Option) (string, error) {
		return w.call(ctx, args, opts, func(ctx context.Context, args string, opts []tool.Option) (string, error) {
			return endpoint(ctx, args, opts...)
		})
	}, nil
}

// WrapStreamableToolCall puts the call through the tool's boundary: the
// stream is read whole inside it and handed on as one chunk.
func (h *handler) WrapStreamableToolCall(_ context.Context, endpoint adk.StreamableToolCallEndpoint, tc *adk.ToolContext) (adk.StreamableToolCallEndpoint, error) {
	w := h.tools.get(tc.Name)
	run := readWhole(func(ctx context.Context, args string, opts ...tool.Option) (*schema.StreamReader[string], error) {
		return endpoint(ctx, args, opts...)
	})
	return func(ctx context.Context, args string, opts ...tool.Option) (*schema.StreamReader[string], error) {
		out, err := w.call(ctx, args, opts, run)
		if err != nil {
			return nil, err
		}
		return schema.StreamReaderFromArray([]string{out}), nil
	}, nil
}

// ToolMiddleware returns the same tool boundary as [Handler] for a compose
// ToolsNode (compose.ToolsNodeConfig.ToolCallMiddlewares, or
// react.AgentConfig's ToolsConfig), for graphs and agents other than
// adk.ChatModelAgent:
//
//	ToolsConfig: compose.ToolsNodeConfig{
//		Tools:               tools,
//		ToolCallMiddlewares: []compose.ToolMiddleware{resilienteino.ToolMiddleware(resilienteino.ForTool("charge_card", resilienteino.Idempotent(nil)))},
//	}
//
// Model options given to it are ignored. It is safe for concurrent use;
// build one per tools node.
func ToolMiddleware(opts ...HandlerOption) compose.ToolMiddleware {
	ts := newToolSet(configureHandler(opts))
	return compose.ToolMiddleware{
		Invokable: func(next compose.InvokableToolEndpoint) compose.InvokableToolEndpoint {
			return func(ctx context.Context, in *compose.ToolInput) (*compose.ToolOutput, error) {
				out, err := ts.get(in.Name).call(ctx, in.Arguments, in.CallOptions,
					func(ctx context.Context, args string, opts []tool.Option) (string, error) {
						res, err := next(ctx, withArguments(in, args, opts))
						if err != nil || res == nil {
							return "", cmpErr(err, "the tool returned no output")
						}
						return res.Result, nil
					})
				if err != nil {
					return nil, err
				}
				return &compose.ToolOutput{Result: out}, nil
			}
		},
		Streamable: func(next compose.StreamableToolEndpoint) compose.StreamableToolEndpoint {
			run := readWhole(func(ctx context.Context, args string, opts ...tool.Option) (*schema.StreamReader[string], error) {
				in := inputFrom(ctx)
				res, err := next(ctx, withArguments(in, args, opts))
				if err != nil || res == nil {
					return nil, cmpErr(err, "the tool returned no stream")
				}
				return res.Result, nil
			})
			return func(ctx context.Context, in *compose.ToolInput) (*compose.StreamToolOutput, error) {
				out, err := ts.get(in.Name).call(context.WithValue(ctx, inputKey{}, in), in.Arguments, in.CallOptions, run)
				if err != nil {
					return nil, err
				}
				return &compose.StreamToolOutput{Result: schema.StreamReaderFromArray([]string{out})}, nil
			}
		},
	}
}

// withArguments returns a copy of in with the arguments and options of an
// attempt.
func withArguments(in *compose.ToolInput, args string, opts []tool.Option) *compose.ToolInput {
	out := *in
	out.Arguments, out.CallOptions = args, opts
	return &out
}

type inputKey struct{}

// inputFrom returns the tool input a streaming call carries in ctx.
func inputFrom(ctx context.Context) *compose.ToolInput {
	in, _ := ctx.Value(inputKey{}).(*compose.ToolInput)
	if in == nil {
		in = &compose.ToolInput{}
	}
	return in
}

// cmpErr returns err, or an error saying what when err is nil.
func cmpErr(err error, what string) error {
	if err != nil {
		return err
	}
	return errors.New("resilienteino: " + what)
}

// toolSet keeps one boundary per tool name for a middleware.
type toolSet struct {
	cfg handlerConfig

	mu    sync.Mutex
	byKey map[string]*boundTool
}

// maxTools bounds the tool names a toolSet remembers.
const maxTools = 1024

func newToolSet(cfg handlerConfig) *toolSet {
	return &toolSet{cfg: cfg, byKey: map[string]*boundTool{}}
}

// get returns the boundary of the tool called name.
func (s *toolSet) get(name string) *boundTool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if t, ok := s.byKey[name]; ok {
		return t
	}
	t := s.build(name)
	if len(s.byKey) < maxTools {
		s.byKey[name] = t
	}
	return t
}

func (s *toolSet) build(name string) *boundTool {
	opts := append(s.cfg.tool[:len(s.cfg.tool):len(s.cfg.tool)], s.cfg.perTool[name]...)
	b := &boundTool{}
	b.w = wrapTool(func(context.Context) (*schema.ToolInfo, error) { return &schema.ToolInfo{Name: name}, nil },
		func(ctx context.Context, args string, opts []tool.Option) (string, error) {
			run := endpointFrom(ctx)
			if run == nil {
				return "", errors.New("resilienteino: a tool call without its endpoint")
			}
			return run(ctx, args, opts)
		}, append(opts, failTool(errors.Join(s.cfg.errs...))))
	return b
}

// failTool makes the boundary report err, if any.
func failTool(err error) ToolOption {
	return toolOnly(func(c *toolConfig) {
		if err != nil {
			c.tools = append(c.tools, tools.Fail(err))
		}
	})
}

// boundTool is the boundary of one tool of a middleware, whose endpoint
// comes with each call.
type boundTool struct{ w *tools.Tool }

type endpointKey struct{}

func endpointFrom(ctx context.Context) runFunc {
	run, _ := ctx.Value(endpointKey{}).(runFunc)
	return run
}

// call runs the endpoint run through the boundary.
func (b *boundTool) call(ctx context.Context, args string, opts []tool.Option, run runFunc) (string, error) {
	ctx = context.WithValue(withToolOptions(ctx, opts), endpointKey{}, run)
	out, err := b.w.Call(ctx, args)
	return out, passInterrupt(err)
}
