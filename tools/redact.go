package tools

import (
	"context"
	"fmt"
	"log/slog"
	"regexp"
)

// redacted replaces a secret in logged text.
const redacted = "[REDACTED]"

// secretRules find credentials in error text. A credential is plainly one
// when it has a well-known shape or follows a name that says so; anything
// else is left alone, because an error message stripped of its ids and
// numbers is useless to whoever reads the logs. The group named "keep", when
// present, is kept (the field's name and separator).
var secretRules = []*regexp.Regexp{
	// OpenAI (sk-..., sk-proj-...), Anthropic (sk-ant-...) and look-alikes.
	regexp.MustCompile(`\bsk-[A-Za-z0-9_-]{8,}`),
	// Stripe secret and restricted keys.
	regexp.MustCompile(`\b[rs]k_(?:live|test)_[A-Za-z0-9]{8,}`),
	// AWS access key ids.
	regexp.MustCompile(`\b(?:AKIA|ASIA)[0-9A-Z]{16}\b`),
	// Google API keys.
	regexp.MustCompile(`\bAIza[0-9A-Za-z_-]{35}`),
	// GitHub tokens.
	regexp.MustCompile(`\b(?:gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{22,})`),
	// Slack tokens.
	regexp.MustCompile(`\bxox[abprs]-[A-Za-z0-9-]{10,}`),
	// JSON web tokens: header.payload.signature, the header being base64 JSON.
	regexp.MustCompile(`\beyJ[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+`),
	// An Authorization header's credentials: a scheme and the rest of the
	// line, or one long token. "authorization: card declined" is left alone.
	regexp.MustCompile(`(?i)(?P<keep>\b(?:proxy-)?authorization["']?\s*[:=]\s*["']?)(?:(?:bearer|basic|digest|token|apikey|aws4-hmac-sha256|negotiate|ntlm)\s+[^\r\n"']+|[^\s"']{16,})`),
	// A bearer token anywhere else.
	regexp.MustCompile(`(?i)(?P<keep>\bbearer\s+)[A-Za-z0-9._~+/-]+=*`),
	// key=value, key: value and "key": "value" for names that say secret.
	regexp.MustCompile(`(?i)(?P<keep>\b(?:x-)?(?:api[_-]?key|apikey|(?:access|refresh|auth|id)?[_-]?token|client[_-]?secret|secret(?:[_-]?key)?|password|passwd)["']?\s*[:=]\s*["']?)[^\s"'&,;]+`),
}

// Redact returns s with the credentials it plainly contains replaced by
// "[REDACTED]": API keys of well-known shapes (sk-..., sk-ant-..., sk_live_...,
// AKIA..., AIza..., ghp_..., xoxb-...), JSON web tokens, bearer tokens,
// Authorization headers, and the values of fields named like api_key, token,
// secret or password. It is the default [Redactor] and is safe for
// concurrent use.
func Redact(s string) string {
	for _, re := range secretRules {
		if !re.MatchString(s) {
			continue
		}
		if re.SubexpIndex("keep") < 0 {
			s = re.ReplaceAllLiteralString(s, redacted)
			continue
		}
		s = re.ReplaceAllString(s, "${keep}"+redacted)
	}
	return s
}

// redactingHandler passes every text attribute, error and message through
// redact before the inner handler sees it.
type redactingHandler struct {
	inner  slog.Handler
	redact func(string) string
}

func (h *redactingHandler) Enabled(ctx context.Context, level slog.Level) bool {
	return h.inner.Enabled(ctx, level)
}

func (h *redactingHandler) Handle(ctx context.Context, r slog.Record) error {
	out := slog.NewRecord(r.Time, r.Level, h.redact(r.Message), r.PC)
	r.Attrs(func(a slog.Attr) bool {
		out.AddAttrs(h.attr(a))
		return true
	})
	return h.inner.Handle(ctx, out)
}

func (h *redactingHandler) WithAttrs(attrs []slog.Attr) slog.Handler {
	clean := make([]slog.Attr, len(attrs))
	for i, a := range attrs {
		clean[i] = h.attr(a)
	}
	return &redactingHandler{inner: h.inner.WithAttrs(clean), redact: h.redact}
}

func (h *redactingHandler) WithGroup(name string) slog.Handler {
	return &redactingHandler{inner: h.inner.WithGroup(name), redact: h.redact}
}

// attr redacts strings, errors and Stringers, and the members of groups.
func (h *redactingHandler) attr(a slog.Attr) slog.Attr {
	v := a.Value.Resolve()
	switch v.Kind() {
	case slog.KindString:
		return slog.String(a.Key, h.redact(v.String()))
	case slog.KindGroup:
		members := v.Group()
		clean := make([]slog.Attr, len(members))
		for i, m := range members {
			clean[i] = h.attr(m)
		}
		return slog.Attr{Key: a.Key, Value: slog.GroupValue(clean...)}
	case slog.KindAny:
		switch x := v.Any().(type) {
		case error:
			return slog.String(a.Key, h.redact(x.Error()))
		case fmt.Stringer:
			return slog.String(a.Key, h.redact(x.String()))
		}
	}
	return slog.Attr{Key: a.Key, Value: v}
}

// redactingLogger returns a logger that redacts before l's handler, or a
// discarding logger when l is nil.
func redactingLogger(l *slog.Logger, redact func(string) string) *slog.Logger {
	if l == nil {
		return slog.New(slog.DiscardHandler)
	}
	return slog.New(&redactingHandler{inner: l.Handler(), redact: redact})
}
