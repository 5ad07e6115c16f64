package observe

import (
	"context"
	"errors"
	"log/slog"

	"github.com/resilientgo/resilient/internal/redact"
)

// Attribute keys of the log lines [Log] writes, stable for dashboards and
// alerts: the words the table below lists ("target", "attempt", "kind",
// "rule", "delay", "reason", "err", ...). Every package of this library
// logs with these keys; those that packages other than this one write
// (resilientmcp, resilientredis) are exported.
//
// The lines, by message:
//
//	"retrying"                 WARN  target, attempt, kind, rule, delay, err   as the retry starts
//	"recovered"                INFO  target, attempts
//	"gave up"                  WARN  target, reason, attempts, kind, rule, err
//	"run limit reached"        WARN  target, reason, attempts, err   a run's usage limit stopped the call
//	"inner layer gave up"      DEBUG target, reason
//	"panic recovered"          ERROR target, attempt, err, stack
//	"attempt abandoned"        WARN  target, attempt, kind, rule
//	"late result discarded"    DEBUG target, attempt, late
//	"refused"                  INFO  target, reason
//	"circuit opened"           WARN  target, from, to
//	"circuit half-opened"      INFO  target, from, to
//	"circuit closed"           INFO  target, from, to
//	"cooling down"             INFO  target, delay   a member of a pool, after a wait hint
//	"member out of rotation: account failure"
//	                           WARN  target, delay, kind, rule   a member of a pool
//	"falling back"             WARN  target, fallback, kind
//	"compacted"                WARN  target, messages_before, messages_after
//	"stream restarted"         INFO  target, chunks
//	"batch split"              WARN  target, texts
//	"tool error"               DEBUG tool, err       the model is told and may correct itself
//	"tool failed internally"   ERROR tool, type, err the model reads only the tool's name and type
//	"tool stopped the run"     WARN  tool, reason, err
//	"already done"             INFO  tool, idempotency_key
//	"lease lost"               WARN  tool, idempotency_key
//	"idempotency store failed" ERROR tool, idempotency_key, err
//	"tool hung; outcome unknown"
//	                           ERROR tool, idempotency_key, held, err   the claim's lifetime ended
//	"tool progress"            INFO  server, tool, progress, total, message
//	"server log"               the server's level: server, logger, message
//	"redis unavailable"        WARN  feature, redis_key, action, err   shared state (resilientredis)
//	"redis reachable again"    INFO  feature, redis_key, down
const (
	KeyTarget         = "target"          // the protected target's name
	keyAttempt        = "attempt"         // the attempt number, from 1
	keyAttempts       = "attempts"        // how many attempts a call made
	keyKind           = "kind"            // taxonomy.Kind of the failure
	keyRule           = "rule"            // the classifier rule that decided
	KeyDelay          = "delay"           // the wait before the next attempt
	keyReason         = "reason"          // why a call stopped (Reason), or why a tool stopped the run
	KeyError          = "err"             // the error, redacted
	keyStack          = "stack"           // a recovered panic's stack
	keyFrom           = "from"            // a breaker's previous state
	keyTo             = "to"              // a breaker's new state
	keyLate           = "late"            // how long after its abandonment an attempt returned
	keyFallback       = "fallback"        // the model fallen back to
	keyMessagesBefore = "messages_before" // messages before a compaction
	keyMessagesAfter  = "messages_after"  // messages after it
	keyChunks         = "chunks"          // chunks a restarted stream had delivered
	keyTexts          = "texts"           // texts of an embeddings batch that was split
	KeyTool           = "tool"            // the tool's name
	keyType           = "type"            // the Go type of a tool's internal failure, "panic" for a panic
	keyIdempotencyKey = "idempotency_key" // the key of an idempotent call
	keyHeld           = "held"            // how long a hung idempotent call had held its key
)

// Attribute keys of the lines about MCP tool servers (package
// resilientmcp): progress notifications, server logs, sessions lost and
// replaced.
const (
	KeyServer   = "server"   // the MCP server's name, as it introduced itself
	keyProgress = "progress" // a progress notification's progress so far
	keyTotal    = "total"    // its total, when the server knows it
	keyMessage  = "message"  // the server's text, redacted: a progress message, a log message's data
	keyLogger   = "logger"   // the name of the server's logger that sent a log message
)

// Attribute keys of the lines about the state shared by replicas through
// Redis (package resilientredis; see [SharedStateUnavailable]).
const (
	KeyFeature  = "feature"   // "store", "limiter", "breaker" or "semaphore"
	KeyRedisKey = "redis_key" // the Redis key (or prefix*) concerned
	KeyAction   = "action"    // what the feature does while Redis is unavailable, in words
	KeyDown     = "down"      // how long Redis was unavailable
)

// Log returns the observer that writes the library's decisions to l as the
// lines listed with the attribute keys ([KeyTarget]). A nil l discards. Every value is
// redacted before it reaches l's handler (API keys, tokens, passwords in
// URLs, private keys...: the shapes of the common credential scanners), as
// gateways echo request headers into their error bodies; errors stay errors,
// so handlers that colour them still do. A logger that already redacts
// (package tools wraps its own, with the tool's Redactor) is used as it is.
func Log(l *slog.Logger) Observer {
	if l == nil {
		return logObserver{discard}
	}
	if !redact.Redacting(l.Handler()) {
		l = redact.Logger(l, nil)
	}
	return logObserver{l}
}

var discard = slog.New(slog.DiscardHandler)

type logObserver struct{ l *slog.Logger }

func (o logObserver) Start(ctx context.Context, _ Start) context.Context { return ctx }

// Observe logs e without an error attribute: the library itself reports
// through observeError, with the error.
func (o logObserver) Observe(ctx context.Context, e Event) { o.observeError(ctx, e, nil) }

func (o logObserver) observeError(ctx context.Context, e Event, err error) {
	l := o.l
	switch e := e.(type) {
	case RetryScheduled:
		msg := "retrying"
		if e.PastLimit {
			msg = "retrying past the attempt limit, on the run's budget"
		}
		l.LogAttrs(ctx, slog.LevelWarn, msg,
			slog.String(KeyTarget, e.Target), slog.Int(keyAttempt, e.Attempt),
			slog.String(keyKind, e.Class.Kind.String()), slog.String(keyRule, e.Class.Rule),
			slog.Duration(KeyDelay, e.Wait), errAttr(err))
	case Recovered:
		l.LogAttrs(ctx, slog.LevelInfo, "recovered",
			slog.String(KeyTarget, e.Target), slog.Int(keyAttempts, e.Attempts))
	case GaveUp:
		if e.PassedThrough {
			l.LogAttrs(ctx, slog.LevelDebug, "inner layer gave up",
				slog.String(KeyTarget, e.Target), slog.String(keyReason, e.Reason.String()))
			return
		}
		if e.Reason == ReasonUsageLimit {
			// Nothing failed: the run's own limit stopped the call, and the
			// class of its refusal (canceled) is no failure's kind.
			l.LogAttrs(ctx, slog.LevelWarn, "run limit reached",
				slog.String(KeyTarget, e.Target), slog.String(keyReason, e.Reason.String()),
				slog.Int(keyAttempts, e.Attempts), errAttr(err))
			return
		}
		l.LogAttrs(ctx, slog.LevelWarn, "gave up",
			slog.String(KeyTarget, e.Target), slog.String(keyReason, e.Reason.String()),
			slog.Int(keyAttempts, e.Attempts), slog.String(keyKind, e.Class.Kind.String()),
			slog.String(keyRule, e.Class.Rule), errAttr(err))
	case AttemptEnd:
		var pe panicError
		switch {
		case errors.As(err, &pe):
			l.LogAttrs(ctx, slog.LevelError, "panic recovered",
				slog.String(KeyTarget, e.Target), slog.Int(keyAttempt, e.Attempt),
				errAttr(err), slog.String(keyStack, string(pe.PanicStack())))
		case e.Abandoned:
			l.LogAttrs(ctx, slog.LevelWarn, "attempt abandoned",
				slog.String(KeyTarget, e.Target), slog.Int(keyAttempt, e.Attempt),
				slog.String(keyKind, e.Class.Kind.String()), slog.String(keyRule, e.Class.Rule))
		}
	case LateResult:
		l.LogAttrs(ctx, slog.LevelDebug, "late result discarded",
			slog.String(KeyTarget, e.Target), slog.Int(keyAttempt, e.Attempt), slog.Duration(keyLate, e.Late))
	case Refusal:
		l.LogAttrs(ctx, slog.LevelInfo, "refused",
			slog.String(KeyTarget, e.Target), slog.String(keyReason, e.Reason.String()))
	case BreakerChange:
		l.LogAttrs(ctx, breakerLevel(e.To), breakerMessage(e.To),
			slog.String(KeyTarget, e.Target), slog.String(keyFrom, e.From.String()), slog.String(keyTo, e.To.String()))
	case Cooldown:
		l.LogAttrs(ctx, slog.LevelInfo, "cooling down", slog.String(KeyTarget, e.Target), slog.Duration(KeyDelay, e.Wait))
	case Suspended:
		l.LogAttrs(ctx, slog.LevelWarn, "member out of rotation: account failure",
			slog.String(KeyTarget, e.Target), slog.Duration(KeyDelay, e.For),
			slog.String(keyKind, e.Class.Kind.String()), slog.String(keyRule, e.Class.Rule))
	case Fallback:
		l.LogAttrs(ctx, slog.LevelWarn, "falling back",
			slog.String(KeyTarget, e.Target), slog.String(keyFallback, e.To), slog.String(keyKind, e.Class.Kind.String()))
	case Compacted:
		l.LogAttrs(ctx, slog.LevelWarn, "compacted",
			slog.String(KeyTarget, e.Target), slog.Int(keyMessagesBefore, e.Before), slog.Int(keyMessagesAfter, e.After))
	case StreamRestarted:
		l.LogAttrs(ctx, slog.LevelInfo, "stream restarted", slog.String(KeyTarget, e.Target), slog.Int(keyChunks, e.Chunks))
	case BatchSplit:
		l.LogAttrs(ctx, slog.LevelWarn, "batch split", slog.String(KeyTarget, e.Target), slog.Int(keyTexts, e.Texts))
	case CallEnd:
		o.toolEnd(ctx, e, err)
	case IdempotentReplay:
		l.LogAttrs(ctx, slog.LevelInfo, "already done", slog.String(KeyTool, e.Tool), slog.String(keyIdempotencyKey, e.Key))
	case LeaseLost:
		l.LogAttrs(ctx, slog.LevelWarn, "lease lost", slog.String(KeyTool, e.Tool), slog.String(keyIdempotencyKey, e.Key))
	case StoreFailed:
		l.LogAttrs(ctx, slog.LevelError, "idempotency store failed",
			slog.String(KeyTool, e.Tool), slog.String(keyIdempotencyKey, e.Key), errAttr(err))
	case HungCall:
		l.LogAttrs(ctx, slog.LevelError, "tool hung; outcome unknown",
			slog.String(KeyTool, e.Tool), slog.String(keyIdempotencyKey, e.Key), slog.Duration(keyHeld, e.Held), errAttr(err))
	case ToolProgress:
		total := slog.Attr{}
		if e.Total > 0 {
			total = slog.Float64(keyTotal, e.Total)
		}
		l.LogAttrs(ctx, slog.LevelInfo, "tool progress", slog.String(KeyServer, e.Server), slog.String(KeyTool, e.Tool),
			slog.Float64(keyProgress, e.Progress), total, textAttr(err))
	case ServerLog:
		l.LogAttrs(ctx, e.Level, "server log",
			slog.String(KeyServer, e.Server), slog.String(keyLogger, e.Logger), textAttr(err))
	case SharedStateUnavailable:
		l.LogAttrs(ctx, slog.LevelWarn, "redis unavailable",
			slog.String(KeyFeature, e.Feature), slog.String(KeyRedisKey, e.Key), slog.String(KeyAction, e.Detail), errAttr(err))
	case SharedStateRestored:
		l.LogAttrs(ctx, slog.LevelInfo, "redis reachable again",
			slog.String(KeyFeature, e.Feature), slog.String(KeyRedisKey, e.Key), slog.Duration(KeyDown, e.Down))
	}
}

// LogsLibraryLines marks the observer of [Log], so that a package of this
// module that also writes its lines to a logger of its own
// (resilientredis's Logger) can leave the events it logs itself out of
// such an observer, and a program that sets both sees each line once. It
// does nothing.
func (logObserver) LogsLibraryLines() {}

// panicError is the failure of an attempt that panicked
// (middleware.PanicError): Log writes its stack.
type panicError interface {
	error
	PanicStack() []byte
}

// textAttr renders the text a server sent, which travels as the error of
// a report; nil gives an empty attribute, which slog drops.
func textAttr(text error) slog.Attr {
	if text == nil {
		return slog.Attr{}
	}
	return slog.String(keyMessage, text.Error())
}

// toolEnd logs how a tool call ended, when that is worth a line.
func (o logObserver) toolEnd(ctx context.Context, e CallEnd, err error) {
	if e.Target.Operation != OperationExecuteTool {
		return
	}
	name := slog.String(KeyTool, e.Target.Name)
	switch e.Reason {
	case ReasonToolError:
		o.l.LogAttrs(ctx, slog.LevelDebug, "tool error", name, errAttr(err))
	case ReasonInternal, ReasonTimeout:
		o.l.LogAttrs(ctx, slog.LevelError, "tool failed internally", name, slog.String(keyType, e.Type), errAttr(err))
	case ReasonFatal, ReasonCircuitOpen, ReasonStuck, ReasonUsageLimit, ReasonOutcomeUnknown:
		o.l.LogAttrs(ctx, slog.LevelWarn, "tool stopped the run", name, slog.String(keyReason, e.Reason.String()), errAttr(err))
	}
}

// errAttr renders err for a log line. Nil gives an empty attribute, which
// slog drops.
func errAttr(err error) slog.Attr {
	if err == nil {
		return slog.Attr{}
	}
	return slog.Any(KeyError, err)
}

func breakerLevel(s BreakerState) slog.Level {
	if s == BreakerOpen {
		return slog.LevelWarn
	}
	return slog.LevelInfo
}

func breakerMessage(s BreakerState) string {
	switch s {
	case BreakerOpen:
		return "circuit opened"
	case BreakerHalfOpen:
		return "circuit half-opened"
	}
	return "circuit closed"
}
