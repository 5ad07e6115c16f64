package resilienteino

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/cloudwego/eino/components"
	"github.com/cloudwego/eino/components/tool"
	"github.com/cloudwego/eino/compose"
	"github.com/cloudwego/eino/schema"

	"github.com/resilientgo/resilient/internal/inspect"
	"github.com/resilientgo/resilient/taxonomy"
	"github.com/resilientgo/resilient/tools"
)

// InvokableTool is an Eino tool wrapped for an agent: it has the wrapped
// tool's Info, and InvokableRun maps every outcome at the dispatch boundary
// as package tools does:
//
//   - the tool's output, or the text of a taxonomy.ToolError with its
//     credentials redacted, with a nil error: the model reads it and may
//     correct its call;
//   - "Error: <tool> failed internally (<Type>)" with a nil error for any
//     other failure and a panic, "Error: <tool> timed out" for a timeout:
//     no message, no stack, no secret reaches the model; the full error is
//     logged, redacted;
//   - a *taxonomy.FatalToolError when the tool returned one, when its
//     circuit is open, when the model is stuck repeating the call and when
//     the run's tool call limit is reached: the graph's run ends with it;
//   - an Eino interrupt (compose.Interrupt and kin) unchanged, so that
//     human-in-the-loop runs pause and resume as before.
//
// It is safe for concurrent use when the wrapped tool is. Build it once and
// share it: its circuit breaker and idempotency records are per tool.
type InvokableTool struct {
	inner tool.InvokableTool
	w     *tools.Tool
}

// StreamableTool is an Eino streaming tool wrapped for an agent, with the
// boundary of [InvokableTool]: its stream is read whole inside the
// boundary (so that a failure in the middle of it is mapped like any other,
// and an idempotent call stores the whole result), then handed on as one
// chunk.
type StreamableTool struct {
	inner tool.StreamableTool
	w     *tools.Tool
}

var (
	_ tool.InvokableTool  = (*InvokableTool)(nil)
	_ tool.StreamableTool = (*StreamableTool)(nil)
	_ components.Checker  = (*InvokableTool)(nil)
)

// Tool wraps t for an agent and returns it, still a tool.InvokableTool with
// the same Info: drop it into react.AgentConfig's or adk.ToolsConfig's
// tools. With no option: a 30 s timeout per call, no retry (mark read-only
// tools [SafeToRetry]), a circuit breaker per tool (5 failures, 30 s), the
// run's repeat limit. Mark mutating tools [Idempotent].
//
// Tool never fails, nor panics: a nil tool, an Info that fails or panics,
// or an invalid option makes every call end the run with a
// taxonomy.FatalToolError naming the problem, and [InvokableTool.Err]
// reports it.
func Tool(t tool.InvokableTool, opts ...ToolOption) *InvokableTool {
	var run func(ctx context.Context, args string, opts ...tool.Option) (string, error)
	var info func(context.Context) (*schema.ToolInfo, error)
	if !inspect.IsNil(t) {
		run, info = t.InvokableRun, t.Info
	}
	return &InvokableTool{inner: t, w: wrapTool(info, invoke(run), opts)}
}

// Streamable wraps the streaming tool t for an agent, with the boundary of
// [Tool]; see [StreamableTool].
func Streamable(t tool.StreamableTool, opts ...ToolOption) *StreamableTool {
	var run func(ctx context.Context, args string, opts ...tool.Option) (*schema.StreamReader[string], error)
	var info func(context.Context) (*schema.ToolInfo, error)
	if !inspect.IsNil(t) {
		run, info = t.StreamableRun, t.Info
	}
	return &StreamableTool{inner: t, w: wrapTool(info, readWhole(run), opts)}
}

// runFunc runs a tool with the options of the call, which the boundary
// carries in the context.
type runFunc func(ctx context.Context, args string, opts []tool.Option) (string, error)

// invoke returns the runFunc of an invokable tool's run, nil for nil.
func invoke(run func(context.Context, string, ...tool.Option) (string, error)) runFunc {
	if run == nil {
		return nil
	}
	return func(ctx context.Context, args string, opts []tool.Option) (string, error) {
		return run(ctx, args, opts...)
	}
}

// readWhole returns the runFunc of a streaming tool's run: its stream read
// to the end and concatenated, nil for nil.
func readWhole(run func(context.Context, string, ...tool.Option) (*schema.StreamReader[string], error)) runFunc {
	if run == nil {
		return nil
	}
	return func(ctx context.Context, args string, opts []tool.Option) (string, error) {
		sr, err := run(ctx, args, opts...)
		if err != nil {
			return "", err
		}
		if sr == nil {
			return "", errors.New("resilienteino: the tool returned no stream")
		}
		defer sr.Close()
		var b strings.Builder
		for {
			chunk, err := sr.Recv()
			if err == io.EOF {
				return b.String(), nil
			}
			if err != nil {
				return "", err
			}
			b.WriteString(chunk)
		}
	}
}

// wrapTool builds the boundary around run, the tool described by info.
func wrapTool(info func(context.Context) (*schema.ToolInfo, error), run runFunc, opts []ToolOption) *tools.Tool {
	var cfg toolConfig
	var errs []error
	for _, o := range opts {
		if o == nil {
			errs = append(errs, errNilOption)
			continue
		}
		o.applyTool(&cfg)
	}
	a := &adapted{run: run}
	if run == nil || info == nil {
		errs = append(errs, errors.New("resilienteino: nil tool"))
		a.name = "invalid tool"
	} else if a.name, a.desc, a.err = readInfo(info); a.err != nil {
		errs = append(errs, a.err)
	}
	topts := cfg.options()
	if err := errors.Join(errs...); err != nil {
		topts = append(topts, tools.Fail(err))
	}
	w, _ := tools.New(a, topts...) // on error, a tool that reports it
	return w
}

// readInfo reads a tool's name and description once, recovering from a
// panic.
func readInfo(info func(context.Context) (*schema.ToolInfo, error)) (name, desc string, err error) {
	defer func() {
		if v := recover(); v != nil {
			name, desc, err = "invalid tool", "", fmt.Errorf("resilienteino: the tool's Info panicked: %v", v)
		}
	}()
	ti, err := info(context.Background())
	switch {
	case err != nil:
		return "invalid tool", "", fmt.Errorf("resilienteino: the tool's Info: %w", err)
	case ti == nil:
		return "invalid tool", "", errors.New("resilienteino: the tool's Info is nil")
	}
	return ti.Name, ti.Desc, nil
}

// adapted is an Eino tool as package tools calls it (a tools.Callable).
type adapted struct {
	name, desc string
	err        error
	run        runFunc
}

func (a *adapted) Name() string        { return a.name }
func (a *adapted) Description() string { return a.desc }

// Call runs the tool with the options of the call in ctx. An interrupt
// crosses the boundary as a fatal error, which the wrapper unwraps.
func (a *adapted) Call(ctx context.Context, input string) (string, error) {
	out, err := a.run(ctx, input, toolOptionsFrom(ctx))
	if err != nil && isInterrupt(err) {
		return "", &taxonomy.FatalToolError{Tool: a.name, Cause: &interrupt{err}}
	}
	return out, err
}

// interrupt marks an Eino interrupt that crossed the boundary.
type interrupt struct{ err error }

func (i *interrupt) Error() string { return i.err.Error() }
func (i *interrupt) Unwrap() error { return i.err }

// isInterrupt reports whether err pauses the graph for a human (or reruns
// the node), which the boundary must pass on unchanged.
func isInterrupt(err error) bool {
	if _, ok := compose.IsInterruptRerunError(err); ok {
		return true
	}
	_, ok := compose.ExtractInterruptInfo(err)
	return ok
}

// passInterrupt returns the interrupt err carries across the boundary,
// unchanged, else err.
func passInterrupt(err error) error {
	var i *interrupt
	if errors.As(err, &i) {
		return i.err
	}
	return err
}

type toolOptionsKey struct{}

func withToolOptions(ctx context.Context, opts []tool.Option) context.Context {
	if len(opts) == 0 {
		return ctx
	}
	return context.WithValue(ctx, toolOptionsKey{}, opts)
}

func toolOptionsFrom(ctx context.Context) []tool.Option {
	opts, _ := ctx.Value(toolOptionsKey{}).([]tool.Option)
	return opts
}

// Info returns the wrapped tool's Info.
func (t *InvokableTool) Info(ctx context.Context) (*schema.ToolInfo, error) {
	return info(ctx, t.inner)
}

// InvokableRun runs the tool through the boundary (see [InvokableTool]).
func (t *InvokableTool) InvokableRun(ctx context.Context, argumentsInJSON string, opts ...tool.Option) (string, error) {
	out, err := t.w.Call(withToolOptions(ctx, opts), argumentsInJSON)
	return out, passInterrupt(err)
}

// Err returns the problem found when the tool was wrapped, nil if none.
func (t *InvokableTool) Err() error { return t.w.Err() }

// Unwrap returns the wrapped tool.
func (t *InvokableTool) Unwrap() tool.InvokableTool { return t.inner }

// Wrapped returns the boundary of package tools the tool runs through: its
// breaker, its name.
func (t *InvokableTool) Wrapped() *tools.Tool { return t.w }

// IsCallbacksEnabled forwards the wrapped tool's answer (components.Checker):
// a tool that runs Eino's callbacks itself is not wrapped with them again.
func (t *InvokableTool) IsCallbacksEnabled() bool { return components.IsCallbacksEnabled(t.inner) }

// Info returns the wrapped tool's Info.
func (t *StreamableTool) Info(ctx context.Context) (*schema.ToolInfo, error) {
	return info(ctx, t.inner)
}

// StreamableRun runs the tool through the boundary and returns its output
// as a stream of one chunk (see [StreamableTool]).
func (t *StreamableTool) StreamableRun(ctx context.Context, argumentsInJSON string, opts ...tool.Option) (*schema.StreamReader[string], error) {
	out, err := t.w.Call(withToolOptions(ctx, opts), argumentsInJSON)
	if err != nil {
		return nil, passInterrupt(err)
	}
	return schema.StreamReaderFromArray([]string{out}), nil
}

// Err returns the problem found when the tool was wrapped, nil if none.
func (t *StreamableTool) Err() error { return t.w.Err() }

// Unwrap returns the wrapped tool.
func (t *StreamableTool) Unwrap() tool.StreamableTool { return t.inner }

// Wrapped returns the boundary of package tools the tool runs through.
func (t *StreamableTool) Wrapped() *tools.Tool { return t.w }

// IsCallbacksEnabled forwards the wrapped tool's answer.
func (t *StreamableTool) IsCallbacksEnabled() bool { return components.IsCallbacksEnabled(t.inner) }

// info returns t's Info, or the problem of a nil tool.
func info(ctx context.Context, t tool.BaseTool) (*schema.ToolInfo, error) {
	if inspect.IsNil(t) {
		return nil, errors.New("resilienteino: nil tool")
	}
	return t.Info(ctx)
}
