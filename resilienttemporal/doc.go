// Package resilienttemporal makes an agent run durable on Temporal: a run
// that survives the crash of its process, with every model and tool call
// made through this library's resilient models and tools.
//
// In workflow code, [NewRun] makes the context that langchaingo code takes
// from the workflow's context, and [NewModel] and [NewTool] stand in for
// the model and the tools: an unchanged agents.Executor runs as the
// workflow, each model call and each tool call as an activity, whose
// result the workflow's history keeps. A worker that dies loses nothing
// that completed: the workflow is replayed from its history on another
// worker without calling anything again, and the call in flight runs again.
//
//	func Agent(wctx workflow.Context, task string) (string, error) {
//		ctx := resilienttemporal.NewRun(wctx, resilienttemporal.TokenBudget(50_000))
//		model := resilienttemporal.NewModel("chat")
//		charge := resilienttemporal.NewTool("charge_card", "Charges the card on file.")
//		executor := agents.NewExecutor(agents.NewOpenAIFunctionsAgent(model, []tools.Tool{charge}))
//		return chains.Run(ctx, executor, task)
//	}
//
// On the worker, [Activities] holds the real models and tools, wrapped by
// package resilient as in any program, and runs the calls:
//
//	acts := &resilienttemporal.Activities{
//		Models: map[string]llms.Model{"chat": resilient.Model(llm)},
//		Tools:  []tools.Tool{resilient.Tool(charge, resilient.Idempotent(store))},
//	}
//	w.RegisterWorkflow(Agent)
//	err := acts.Register(w)
//
// # Retries: short ones in the worker, long ones on the server
//
// The wrapped model retries as it does anywhere (attempts, backoff,
// Retry-After, breaker, compaction, fallbacks), in the activity. When it
// gives up, its final failure, classified, becomes the activity's error: a
// temporal.ApplicationError whose type is the failure's kind
// ("rate_limited", "overloaded", "permanent", ...; list kinds in the
// RetryPolicy's NonRetryableErrorTypes to stop on more of them),
// non-retryable when another attempt cannot help (a permanent or
// programming failure, a context overflow compaction did not cure, a limit
// of the run, the run's retry budget spent, a tool that ended the run),
// and with NextRetryDelay set to the provider's Retry-After, or the
// breaker's remaining hold, when the wait was longer than the worker holds
// a call for (resilient.RetryAfterCap, 60 s): the long wait becomes a
// durable timer on the server, not a held worker. Other failures are
// retried by Temporal under [DefaultRetryPolicy].
//
// # Exactly once
//
// Temporal runs an activity at least once. A tool activity scopes its
// tool's idempotency key by the workflow run (workflow id and run id), so
// that a tool made resilient.Idempotent with a store that outlives the
// worker runs each call once per run across retries, lost replies and
// crashes; see [Activities].
//
// # Limits and usage
//
// The run's limits ([TokenBudget], [RequestLimit], [ToolCallLimit],
// [RetryBudget], [RepeatLimit]) and its usage ([UsageFrom]) live in the
// workflow's state, rebuilt on replay: a limit holds across crashes and
// workers. Each activity runs its call under what remains of them.
//
// # What crosses the activity boundary
//
// Messages, call options and responses travel as JSON. A streaming
// function stays in the workflow: the activity calls the model without
// streaming and the function receives the whole text at once (not again on
// replay). Numbers in a response's GenerationInfo come back as float64.
package resilienttemporal
