package middleware

import "log/slog"

// Attribute keys of the slog events, stable for dashboards and alerts.
//
// The events, by message:
//
//	"retry scheduled"      WARN  target, attempt, kind, rule, delay, err
//	"recovered"            INFO  target, attempts
//	"gave up"              WARN  target, reason, attempts, kind, rule, err
//	"panic recovered"      ERROR target, attempt, err, stack
//	"circuit opened"       WARN  target, from, to
//	"circuit half-opened"  INFO  target, from, to
//	"circuit closed"       INFO  target, from, to
const (
	KeyTarget   = "target"   // the protected target's name
	KeyAttempt  = "attempt"  // the attempt number, from 1
	KeyAttempts = "attempts" // how many attempts a call made
	KeyKind     = "kind"     // taxonomy.Kind of the failure
	KeyRule     = "rule"     // the classifier rule that decided
	KeyDelay    = "delay"    // the wait before the next attempt
	KeyReason   = "reason"   // why a call stopped (Reason)
	KeyError    = "err"      // the error
	KeyStack    = "stack"    // a recovered panic's stack
	KeyFrom     = "from"     // a breaker's previous state
	KeyTo       = "to"       // a breaker's new state
)

var discard = slog.New(slog.DiscardHandler)

func orDiscard(l *slog.Logger) *slog.Logger {
	if l == nil {
		return discard
	}
	return l
}
