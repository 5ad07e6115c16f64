package main

import (
	"context"
	"fmt"
	"strings"
	"time"

	lcllms "github.com/tmc/langchaingo/llms"
	lctools "github.com/tmc/langchaingo/tools"

	"github.com/resilientgo/resilient"
	"github.com/resilientgo/resilient/breaker"
	"github.com/resilientgo/resilient/llms"
	"github.com/resilientgo/resilient/middleware"
	"github.com/resilientgo/resilient/run"
	"github.com/resilientgo/resilient/tools"
)

// libraryConfig is this library as one row uses it: its defaults, passed
// explicitly only so that every duration can be divided by the time scale,
// plus what the row adds.
type libraryConfig struct {
	extra         []libOption // model options beyond the defaults
	everywhere    []libOption // options beyond the defaults for the model and every tool
	fallback      bool        // a second provider, given to resilient.Fallbacks
	streamRestart bool        // llms.OnStreamRestart: a stream cut after text was shown may be retried
	callRun       bool        // each logical call a run of its own (resilient.NewRun)
}

func libraryDefaults() libraryConfig { return libraryConfig{} }

// modelDefaults are the library's default model durations, from its
// exported constants.
func modelDefaults() []libOption {
	return []libOption{
		durs2Option(resilient.Backoff, middleware.DefaultBaseDelay, middleware.DefaultMaxDelay),
		durOption(resilient.RetryAfterCap, middleware.DefaultRetryAfterCap),
		countDurOption(resilient.CircuitBreaker, breaker.DefaultFailures, breaker.DefaultDelay),
		durOption(resilient.Timeout, middleware.DefaultTimeout),
		modelDurOption(llms.FirstChunkTimeout, llms.DefaultFirstChunkTimeout),
		modelDurOption(llms.StreamIdleTimeout, llms.DefaultStreamIdleTimeout),
	}
}

// modelDurOption passes a package llms option taking a duration.
func modelDurOption(f func(time.Duration) llms.Option, d time.Duration) libOption {
	return libOption{fn: resilient.ModelOptions, args: []any{callOf{f, []any{d}}},
		build: func(ts timeScale) any { return resilient.ModelOptions(f(ts.of(d))) }}
}

// defaultConstants names the exported constants the defaults above come
// from, for the report.
const defaultConstants = "middleware.DefaultBaseDelay, DefaultMaxDelay, DefaultRetryAfterCap, " +
	"DefaultTimeout; breaker.DefaultFailures, DefaultDelay; llms.DefaultFirstChunkTimeout, " +
	"DefaultStreamIdleTimeout; tools.DefaultTimeout, DefaultBreakerFailures, DefaultBreakerDelay, DefaultLease"

// A toolKind says what a tool of the agent runs does, which decides how
// this library's rows wrap it.
type toolKind int

const (
	readOnly toolKind = iota // safe to call again: SafeToRetry
	payment                  // mutating, once per input: Idempotent
	mutating                 // mutating, not worth a key: one attempt
)

// toolDefaults are the options this library's rows wrap a tool of kind k
// with.
func toolDefaults(k toolKind) []libOption {
	opts := []libOption{
		durOption(resilient.Timeout, tools.DefaultTimeout),
		countDurOption(resilient.CircuitBreaker, tools.DefaultBreakerFailures, tools.DefaultBreakerDelay),
		durs2Option(resilient.Backoff, middleware.DefaultBaseDelay, middleware.DefaultMaxDelay),
	}
	switch k {
	case readOnly:
		opts = append(opts, fixedOption(resilient.SafeToRetry(), resilient.SafeToRetry))
	case payment:
		opts = append(opts, fixedOption(resilient.Idempotent(nil), resilient.Idempotent, "nil"),
			libOption{fn: resilient.ToolOptions, args: []any{callOf{tools.Lease, []any{tools.DefaultLease}}},
				build: func(ts timeScale) any {
					return resilient.ToolOptions(tools.Lease(ts.of(tools.DefaultLease)))
				}})
	}
	return opts
}

// name is the row's label: the defaults and what the row adds.
func (c libraryConfig) name() string {
	name := "resilient defaults"
	for _, o := range c.extra {
		name += " + " + o.String()
	}
	for _, o := range c.everywhere {
		name += " + " + o.String() + " (model and tools)"
	}
	if c.streamRestart {
		name += " + OnStreamRestart"
	}
	if c.fallback {
		name += " + a fallback model"
	}
	if c.callRun {
		name += ", each call in a run"
	}
	return name
}

// modelOptions are the options the row passes to resilient.Model.
func (c libraryConfig) modelOptions() []libOption {
	opts := append(append(modelDefaults(), c.extra...), c.everywhere...)
	if c.streamRestart {
		opts = append(opts, libOption{fn: resilient.ModelOptions, args: []any{callOf{llms.OnStreamRestart, []any{clearStreamed}}},
			build: func(timeScale) any { return resilient.ModelOptions(llms.OnStreamRestart(clearStreamed)) }})
	}
	return opts
}

// describe says what the row runs, rendered from the options it passes:
// in full for the defaults, as what it adds for the others.
func (c libraryConfig) describe() string {
	if c.callRun {
		return libraryConfig{extra: c.extra, everywhere: c.everywhere, streamRestart: c.streamRestart, fallback: c.fallback}.name() +
			" as described there, each logical call made in a run of its own (`resilient.NewRun(ctx)`, a retry budget of " +
			fmt.Sprint(run.DefaultRetryBudget) + "), so that a call that meets its attempt limit may take up to " +
			fmt.Sprint(middleware.DefaultPastLimitAttempts) + " attempts past it, paid from that budget, while its breaker " +
			"is closed and its retry throttle allows retries (`middleware.PastLimitAttempts`); the other rows of the " +
			"library make their calls outside any run."
	}
	if len(c.extra) > 0 || len(c.everywhere) > 0 || c.streamRestart || c.fallback {
		var adds []string
		if len(c.extra) > 0 {
			adds = append(adds, "`"+options(c.extra)+"`")
		}
		if len(c.everywhere) > 0 {
			adds = append(adds, "`"+options(c.everywhere)+"` given to the model and to every tool")
		}
		if c.streamRestart {
			adds = append(adds, "`"+options(c.modelOptions()[len(c.modelOptions())-1:])+"`, which lets a streamed "+
				"call whose stream broke after showing text be tried again once the hook has cleared that text "+
				"(without a hook the library does not retry such a call: the text cannot be taken back)")
		}
		if c.fallback {
			adds = append(adds, "`resilient.Fallbacks(second)`, where second is the same client against a second "+
				"fault server (another provider) that draws its faults independently; the fallback is wrapped with "+
				"the same options and has its own breaker")
		}
		return libraryDefaults().name() + " as described there, plus " + strings.Join(adds, "; plus ") + "."
	}
	var b strings.Builder
	fmt.Fprintf(&b, "`resilient.Model(llm, %s)`, where llm is the openai client with the library's evidence "+
		"transport (`llms.NewTransport`, what `resilient.HTTPClient` installs). In the agent runs, tools are "+
		"wrapped as `resilient.Tool(t, %s)` when read-only, `resilient.Tool(t, %s)` for the payment and "+
		"`resilient.Tool(t, %s)` for the other mutating tool, and each run's context is `resilient.NewRun(ctx)` "+
		"(a retry budget of %d per run, a repeat limit of %d). ", options(c.modelOptions()),
		options(toolDefaults(readOnly)), options(toolDefaults(payment)), options(toolDefaults(mutating)),
		run.DefaultRetryBudget, run.DefaultRepeatLimit)
	fmt.Fprintf(&b, "Every duration is the library's own default, read from its exported constants (%s), given "+
		"explicitly only so that the harness can divide it by the time scale; everything else is left at its "+
		"default, including the attempts (%d, with per-kind defaults of its own for rate limits and unknown "+
		"failures, see middleware.KindAttempts).", defaultConstants, middleware.DefaultMaxAttempts)
	return b.String()
}

func libraryPolicy(c libraryConfig) Policy {
	return Policy{Name: c.name(), About: c.describe(), Library: true, CallRun: c.callRun,
		Model: func(r rig) (lcllms.Model, error) { return c.model(r) },
		Tool: func(r rig, t lctools.Tool, k toolKind) lctools.Tool {
			return resilient.Tool(t, build[resilient.ToolOption](append(toolDefaults(k), c.everywhere...), r.ts)...)
		},
		Run: func(ctx context.Context) context.Context { return resilient.NewRun(ctx) }}
}

// model builds the row's model on r.
func (c libraryConfig) model(r rig, extra ...resilient.ModelOption) (*llms.Model, error) {
	llm, err := r.evidenceClient(r.server)
	if err != nil {
		return nil, err
	}
	opts := append(build[resilient.ModelOption](c.modelOptions(), r.ts), extra...)
	if c.fallback {
		if r.fallback == nil {
			return nil, fmt.Errorf("%s: the scenario offers no second provider", c.name())
		}
		second, err := r.evidenceClient(r.fallback)
		if err != nil {
			return nil, err
		}
		opts = append(opts, resilient.Fallbacks(second))
	}
	m := resilient.Model(llm, opts...)
	return m, m.Err()
}

// build makes opts at scale ts, as options of one target, O (such as
// resilient.ModelOption); an option that does not apply to it is a
// mistake of the harness's and panics.
func build[O any](opts []libOption, ts timeScale) []O {
	out := make([]O, len(opts))
	for i, o := range opts {
		v := o.build(ts)
		opt, ok := v.(O)
		if !ok {
			panic(fmt.Sprintf("scenarios: %s is a %T, not a %T option", o, v, out[:0]))
		}
		out[i] = opt
	}
	return out
}
