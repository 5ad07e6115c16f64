// Package dispatch runs the native tool calls of a langchaingo model's
// response through wrapped tools (package tools) and returns the tool
// messages to append to the conversation, with the same outcome mapping as
// tools.Tool.Call: a [Dispatcher] takes the []llms.ToolCall of a response and
// returns one tool message per call, in call order; [AssistantMessage]
// builds the assistant turn that goes before them; [Concurrent] runs the
// calls of one response concurrently.
//
// It is the one part of the tool boundary that speaks langchaingo's message
// types; package tools itself knows none, so that other frameworks' adapters
// (module resilienteino) build on it too.
package dispatch

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/tmc/langchaingo/llms"
	lctools "github.com/tmc/langchaingo/tools"

	"github.com/resilientgo/resilient/taxonomy"
	"github.com/resilientgo/resilient/tools"
)

// Dispatcher runs the tool calls of a model's response (native tool
// calling) through wrapped tools and returns the tool messages to append to
// the conversation, with the same outcome mapping as tools.Tool.Call.
//
// A Dispatcher is safe for concurrent use.
type Dispatcher struct {
	byName     map[string]*tools.Tool
	available  string // the tools' names, sorted, for the unknown-tool answer
	concurrent int
}

// An Option configures a [Dispatcher].
// Options follow the rule of every option of the library, stated on
// [github.com/resilientgo/resilient.Option].
type Option func(*config)

type config struct {
	concurrent int            // Default: one call after the other
	toolOpts   []tools.Option // Default: none, tools.New's defaults
	errs       []error
}

// Concurrent lets up to n calls of one response run at once; they are
// started in call order. Use it when the calls of a response are
// independent, as providers that emit parallel tool calls intend.
// Default: one call after the other.
func Concurrent(n int) Option {
	return func(c *config) {
		if n < 1 {
			c.errs = append(c.errs, fmt.Errorf("Concurrent(%d): must be at least 1", n))
			return
		}
		c.concurrent = n
	}
}

// ToolOptions sets the options with which the dispatcher wraps (with
// tools.New) the tools that are not wrapped already. Default: none,
// tools.New's defaults.
func ToolOptions(opts ...tools.Option) Option {
	return func(c *config) { c.toolOpts = append(c.toolOpts, opts...) }
}

// New returns a dispatcher for ts. A *tools.Tool is used as it is; any
// other tool is wrapped (see [ToolOptions]). It fails on a nil tool, on two
// tools with the same name and on invalid options.
func New(ts []lctools.Tool, opts ...Option) (*Dispatcher, error) {
	cfg := config{concurrent: 1}
	for _, o := range opts {
		if o == nil {
			cfg.errs = append(cfg.errs, errors.New("nil option"))
			continue
		}
		o(&cfg)
	}
	d := &Dispatcher{byName: make(map[string]*tools.Tool, len(ts)), concurrent: cfg.concurrent}
	names := make([]string, 0, len(ts))
	for i, t := range ts {
		w, ok := t.(*tools.Tool)
		switch {
		case t == nil || ok && w == nil:
			cfg.errs = append(cfg.errs, fmt.Errorf("tool %d is nil", i))
			continue
		case !ok:
			var err error
			if w, err = tools.New(t, cfg.toolOpts...); err != nil {
				cfg.errs = append(cfg.errs, err)
				continue
			}
		}
		if _, dup := d.byName[w.Name()]; dup {
			cfg.errs = append(cfg.errs, fmt.Errorf("two tools named %q", w.Name()))
			continue
		}
		d.byName[w.Name()] = w
		names = append(names, w.Name())
	}
	if err := errors.Join(cfg.errs...); err != nil {
		return nil, fmt.Errorf("dispatch: New: %w", err)
	}
	slices.Sort(names)
	d.available = strings.Join(names, ", ")
	return d, nil
}

// The errors of Dispatch on a nil *Dispatcher or with a nil context.
var (
	errNilDispatcher = errors.New("dispatch: nil *Dispatcher: build it with dispatch.New")
	errNilContext    = errors.New("dispatch: nil context")
)

// programming returns problem classified as a programming failure.
func programming(problem error) error {
	return taxonomy.WithClass(problem, taxonomy.Class{Kind: taxonomy.Programming, Rule: "invalid dispatcher"})
}

// Dispatch runs calls and returns one tool message per call, in call order:
// Role [llms.ChatMessageTypeTool] and one [llms.ToolCallResponse] part
// carrying the call's ID, the tool's name and the observation (openai
// accepts exactly one part per tool message). A call's arguments, the JSON
// text, are the tool's input. A call to a tool the dispatcher does not know
// (names match exactly) is answered with a text naming the tools it knows,
// as a ToolError would be.
//
// When a call ends the run (a taxonomy.FatalToolError, or the context is
// done), Dispatch returns no messages and the error of the first such call
// in call order: the run is over, and a conversation with a call left
// unanswered is one that no provider accepts. Calls not yet started are not
// started; calls already running finish, because a mutating call abandoned
// halfway is the worst outcome of all. A nil *Dispatcher or a nil context
// makes it return an error classified as a programming failure.
func (d *Dispatcher) Dispatch(ctx context.Context, calls []llms.ToolCall) ([]llms.MessageContent, error) {
	switch {
	case d == nil:
		return nil, programming(errNilDispatcher)
	case ctx == nil:
		return nil, programming(errNilContext)
	}
	msgs := make([]llms.MessageContent, len(calls))
	errs := make([]error, len(calls))
	var next atomic.Int64
	var stopped atomic.Bool
	work := func() {
		for {
			i := int(next.Add(1) - 1)
			if i >= len(calls) || stopped.Load() {
				return
			}
			msgs[i], errs[i] = d.dispatch(ctx, calls[i])
			if errs[i] != nil {
				stopped.Store(true)
			}
		}
	}
	workers := min(d.concurrent, len(calls))
	var wg sync.WaitGroup
	for range workers - 1 {
		wg.Go(work)
	}
	work()
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	return msgs, nil
}

// dispatch runs one call.
func (d *Dispatcher) dispatch(ctx context.Context, call llms.ToolCall) (llms.MessageContent, error) {
	var name, args string
	if call.FunctionCall != nil {
		name, args = call.FunctionCall.Name, call.FunctionCall.Arguments
	}
	var content string
	if t, ok := d.byName[name]; ok {
		out, err := t.Call(ctx, args)
		if err != nil {
			return llms.MessageContent{}, err
		}
		content = out
	} else {
		content = "there is no tool named " + strconv.Quote(name) + "; the available tools are: " + d.available
	}
	return llms.MessageContent{
		Role:  llms.ChatMessageTypeTool,
		Parts: []llms.ContentPart{llms.ToolCallResponse{ToolCallID: call.ID, Name: name, Content: content}},
	}, nil
}

// AssistantMessage returns the assistant turn that asked for calls, to
// append to the conversation before the tool messages of [Dispatcher.Dispatch]:
// Role [llms.ChatMessageTypeAI] with one [llms.ToolCall] part per call.
// (langchaingo's anthropic client, as of v0.1.14, reads only the first part
// of an assistant message.)
func AssistantMessage(calls []llms.ToolCall) llms.MessageContent {
	parts := make([]llms.ContentPart, len(calls))
	for i, c := range calls {
		parts[i] = c
	}
	return llms.MessageContent{Role: llms.ChatMessageTypeAI, Parts: parts}
}
