package redact

import (
	"context"
	"log/slog"
)

// Handler returns a slog.Handler that passes every record to inner after
// removing secrets with f ([String] when f is nil) from its message and
// from every value, in groups and in attributes added with WithAttrs:
// strings, errors, fmt.Stringers, byte slices and any other value as fmt
// prints it, each bounded as [Keep] bounds it. A value without a secret
// that is not too long reaches inner unchanged (a LogValuer unresolved, so
// that handlers that recognize their own values, such as tint's colours,
// still do); an error with one reaches it as an error whose text is
// redacted and bounded, so that handlers and ReplaceAttr functions that
// treat errors apart (tint colours them) still see an error.
//
// The handler is safe for concurrent use when inner is.
func Handler(inner slog.Handler, f func(string) string) slog.Handler {
	if f == nil {
		f = String
	}
	return &handler{inner: inner, redact: f}
}

// Logger returns a logger that redacts with f (String when nil) before l's
// handler, or a logger that discards when l is nil.
func Logger(l *slog.Logger, f func(string) string) *slog.Logger {
	if l == nil {
		return slog.New(slog.DiscardHandler)
	}
	return slog.New(Handler(l.Handler(), f))
}

// Redacting reports whether h already redacts (it is a Handler of this
// package), so that a logger is not wrapped twice.
func Redacting(h slog.Handler) bool {
	_, ok := h.(*handler)
	return ok
}

type handler struct {
	inner  slog.Handler
	redact func(string) string
}

func (h *handler) Enabled(ctx context.Context, level slog.Level) bool {
	return h.inner.Enabled(ctx, level)
}

func (h *handler) Handle(ctx context.Context, r slog.Record) error {
	out := slog.NewRecord(r.Time, r.Level, Keep(r.Message, h.redact), r.PC)
	r.Attrs(func(a slog.Attr) bool {
		out.AddAttrs(h.attr(a))
		return true
	})
	return h.inner.Handle(ctx, out)
}

func (h *handler) WithAttrs(attrs []slog.Attr) slog.Handler {
	clean := make([]slog.Attr, len(attrs))
	for i, a := range attrs {
		clean[i] = h.attr(a)
	}
	return &handler{inner: h.inner.WithAttrs(clean), redact: h.redact}
}

func (h *handler) WithGroup(name string) slog.Handler {
	return &handler{inner: h.inner.WithGroup(name), redact: h.redact}
}

// attr returns a with its value redacted, or a itself when it holds no
// secret.
func (h *handler) attr(a slog.Attr) slog.Attr {
	if v, changed := h.value(a.Value.Resolve()); changed {
		return slog.Attr{Key: a.Key, Value: v}
	}
	return a
}

// value returns v redacted and whether that changed it.
func (h *handler) value(v slog.Value) (slog.Value, bool) {
	switch v.Kind() {
	case slog.KindString:
		s := v.String()
		if clean := Keep(s, h.redact); clean != s {
			return slog.StringValue(clean), true
		}
	case slog.KindGroup:
		members := v.Group()
		var clean []slog.Attr
		for i, m := range members {
			c := h.attr(m)
			if clean == nil && !c.Equal(m) {
				clean = append(make([]slog.Attr, 0, len(members)), members[:i]...)
			}
			if clean != nil {
				clean = append(clean, c)
			}
		}
		if clean != nil {
			return slog.GroupValue(clean...), true
		}
	case slog.KindAny:
		return h.any(v.Any())
	}
	return v, false
}

// any redacts a value of kind Any through its text: an error stays an
// error, anything else becomes the redacted text.
func (h *handler) any(x any) (v slog.Value, changed bool) {
	defer func() {
		if recover() != nil { // a nil pointer's Error or String: nothing to redact
			v, changed = slog.AnyValue(x), false
		}
	}()
	text := Text(x)
	clean := Keep(text, h.redact)
	switch {
	case clean == text:
		return slog.AnyValue(x), false
	case isError(x):
		return slog.AnyValue(&Error{text: clean}), true
	}
	return slog.StringValue(clean), true
}

func isError(x any) bool {
	_, ok := x.(error)
	return ok
}

// Error is a logged error whose text had secrets in it: it reads as the
// redacted text. It does not unwrap to the original, so that no handler can
// reach the secret through it.
type Error struct{ text string }

// Error returns the redacted text.
func (e *Error) Error() string { return e.text }
