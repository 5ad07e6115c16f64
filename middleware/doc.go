// Package middleware decides what to do about a failure and carries the
// decision out: it turns a [taxonomy.Class] into retry, wait, stop or fail
// fast, on failsafe-go's retry, circuit breaker and hedge policies. Both
// wrappers of this library, models (package llms) and tools (package tools),
// run on a [Pipeline].
//
// # Order
//
// A pipeline expands, first element outermost, to
//
//	retry(hedge?(policies...(limiter?(concurrency?(breaker(timeout(fn)))))))
//
// so the retry decides on every outcome; a hedge ([Hedge], for
// [Pipeline.DoHedged] only) starts attempts beside a slow one; raw
// failsafe-go policies ([Policies]) run around each attempt; a rate limiter
// ([RateLimit]) spaces attempts before they take a breaker permit; a
// concurrency limit ([MaxConcurrent], [ConcurrencyLimit]) holds a slot from
// before the breaker until the function returns; the breaker sees every
// attempt and fails fast while open; and the timeout ([Timeout]) bounds
// each attempt.
//
// # Pools
//
// A pipeline built with [Members] is a pool: the breaker's place is taken
// by the choice of a member, among interchangeable targets each with its
// own concurrency limit, rate limiter, breaker and retry throttle. Package
// pool holds the members and chooses among them ([pool.Pool], asked once
// per attempt); this package decides what a refusal or a failure means for
// the call. An attempt goes to a member whose circuit is not open, that
// does not cool down after a wait hint and whose limits have room, chosen
// by the [Balance] strategy ([pool.LeastInFlight], [pool.RoundRobin],
// [pool.LowestLatency]) with the member a run or a [pool.Sticky] key stuck
// to first; a retry goes at once
// ([taxonomy.WaitNextMember]) to a member no attempt of the call went to. A member's
// Retry-After cools it down ([observe.Cooldown] event) rather than making the call
// wait, unless no other member can take the call. A member's account
// failure (a key refused, a quota used up) takes it out of rotation for
// its [MaxHold] ([observe.Suspended] event) and sends the call at once to another
// member. When no member can, the call stops with [observe.ReasonCircuitOpen] (or
// the limit's reason, or [observe.ReasonPermanent] after account failures) and a
// detail stating each member's state. Each attempt names its member:
// [Attempt.Target] in the final error, the Target of [observe.Start],
// [observe.AttemptEnd], [observe.LateResult], [observe.RetryScheduled] and [observe.Refusal] (and of
// package llms's [observe.StreamRestarted]); [Pipeline.Pool] reports on the
// members.
//
// # Decisions
//
//   - permanent, canceled and programming failures stop at once, save a
//     pool member's account failure, which moves the call to another
//     member (see Pools);
//   - retryable kinds retry until the call has made as many attempts as the
//     kind allows: 3 ([MaxAttempts]), except rate_limited 5 and unknown 2
//     unless MaxAttempts is given; [KindAttempts] sets one kind's limit;
//   - the wait is full jitter, uniform in [0, min(0.5s*2^(n-1), 8s))
//     ([Backoff]), unless the provider said how long to wait: a Retry-After
//     (or retry-after-ms, or "try again in 7s" in its message) or, for a
//     rate limit without one, a rate-limit reset it announced (an exhausted
//     limit's, else the soonest). Then the wait is exactly that long, never
//     sooner, followed, while other calls of the pipeline wait on such a
//     hint too, by a jitter of at most a tenth of it, at most the base
//     delay ([HintJitterDivisor]), so that callers told the same instant
//     do not all come back in it. A wait over the cap
//     ([RetryAfterCap], 60 s) is not slept on: the call fails at once and
//     the breaker is held open for the period the provider asked for, at
//     most [MaxHold] (5 min);
//   - context_overflow is never retried blindly: only a function that repairs
//     its request between attempts raises its limit (llms compacts);
//   - a caller that gave up makes the call canceled, whatever the error says;
//     a backoff sleep ends at once and no attempt starts after it;
//   - an error that an inner layer of this library already gave up on is not
//     retried again: three nested layers over a failing call make 3 calls,
//     not 27;
//   - a call inside a run that reaches its limit on a transient,
//     overloaded or rate-limited failure may take up to 2 attempts more
//     ([PastLimitAttempts]), paid from the run's unspent budget, while its
//     breaker is closed and its retry throttle allows retries;
//   - a [run.Run] in the context ([run.New]) caps the retries of every model and
//     tool call of one agent run together, counts the run's usage and may
//     limit it: a call made with the [Request] option has each attempt
//     counted as a request, and refused ([observe.ReasonUsageLimit], never retried)
//     before it takes anything from the limiter or the breaker;
//   - the circuit breaker ([CircuitBreaker]) opens after 10 consecutive
//     failures that say something about the target (not cancellations, rate
//     limits or requests rejected for their own content) and probes after
//     10 s; while it is open a call fails fast, or with [WaitWhileOpen]
//     waits for the probe;
//   - the retry throttle: each breaker keeps a bucket of 20 tokens, takes
//     one per failure it counts and gives one back per answer; while the
//     bucket holds half its tokens or fewer (failures have outnumbered
//     successes by 10 since it was full), calls make no retries, so that an
//     outage is met with one request per call, not three ([NoThrottle]
//     turns it off). A provider failing one request in three keeps the
//     bucket full;
//   - a concurrency limit with no free slot within its wait stops the call
//     with [observe.ReasonConcurrency] ([limit.ErrConcurrency]), never retried, never
//     counted by the breaker, reported as a [observe.Refusal];
//   - while 256 abandoned attempts of the pipeline have not returned
//     ([MaxAbandoned]), a new attempt is refused before it starts: the call
//     stops with [observe.ReasonAbandoned] ([ErrAbandoned]), never retried,
//     never counted by the breaker, reported as a [observe.Refusal];
//   - a panic in the protected function is recovered and becomes a
//     programming failure ([PanicError]), so no breaker permit leaks.
//
// The final error, an *[Error], says why the call stopped and lists every
// attempt as "Type: text" with its kind, rule and the wait before it. It
// matches context.DeadlineExceeded exactly when the caller's deadline is
// why it stopped; attempts that ran out of their own time match
// [ErrAttemptTimeout].
//
// # Runs
//
// A [run.Run] in the context ([run.New]) is the scope of one agent run
// (package run says what it holds): a pipeline takes each retry and hedge
// from its budget, counts each request and adds its waits, and a call that
// one of its limits refuses fails with a *[run.UsageLimitError], never
// retried.
//
// # Attempts that do not return
//
// Each attempt runs the function on a goroutine of its own, so that the
// pipeline returns at the attempt timeout (a transient failure, retried as
// usual) or when the caller gives up (canceled), even when the function
// ignores its context, as some provider clients do. Such an attempt is
// abandoned (its failure is an *[AbandonedError]): the function's goroutine
// ends when it returns, and what it returns then is discarded and reported
// once, as a [observe.LateResult] event. A function that sees for itself that its
// work is hung, such as a stalled stream, ends its attempt with [State.End].
// The abandoned attempts still running are bounded ([MaxAbandoned]): a
// client that never returns costs at most that many goroutines, and the
// calls past the bound fail fast until some return.
//
// # Events
//
// Every decision is reported to the observers installed with [Observe] as a
// typed event ([observe.AttemptEnd], [observe.RetryScheduled], [observe.GaveUp], [observe.BreakerChange],
// [observe.Refusal], [observe.Fallback], ...: see [observe.Event]); an [observe.Observer] may also put
// values in the context of each call and attempt, as a tracer does. [observe.Log]
// is the observer that writes the events as slog lines, every value
// redacted, with the attribute keys listed at [observe.KeyTarget]; [Logger]
// installs it. With neither, nothing is reported.
//
// # Concurrency
//
// Pipelines, breakers and runs are safe for concurrent use. Build a pipeline
// once per target; per call, only a small state object is allocated.
package middleware
