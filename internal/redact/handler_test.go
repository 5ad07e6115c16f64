package redact_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"testing"
	"testing/slogtest"

	"github.com/lmittmann/tint"

	"github.com/resilientgo/resilient/internal/redact"
)

func TestHandlerConformance(t *testing.T) {
	var buf bytes.Buffer
	newHandler := func(*testing.T) slog.Handler {
		buf.Reset()
		return redact.Handler(slog.NewJSONHandler(&buf, nil), nil)
	}
	result := func(t *testing.T) map[string]any {
		m := map[string]any{}
		if err := json.Unmarshal(buf.Bytes(), &m); err != nil {
			t.Fatal(err)
		}
		return m
	}
	slogtest.Run(t, newHandler, result)
}

type stringer struct{ s string }

func (s stringer) String() string { return s.s }

type withSecret struct {
	User     string
	Password []byte
}

type valuer struct{ v slog.Value }

func (v valuer) LogValue() slog.Value { return v.v }

func TestHandlerRedactsEveryValue(t *testing.T) {
	key := "sk-proj-" + strings.Repeat("aB3dE5gH7k", 4)
	var buf bytes.Buffer
	logger := slog.New(redact.Handler(slog.NewTextHandler(&buf, &slog.HandlerOptions{
		ReplaceAttr: func(groups []string, a slog.Attr) slog.Attr {
			if a.Key == slog.TimeKey && len(groups) == 0 {
				return slog.Attr{}
			}
			return a
		},
	}), nil))
	logger = logger.With("with", "key "+key).WithGroup("g").With(slog.Group("inner", "k", key))
	logger.Info("calling with "+key,
		"s", key,
		"err", fmt.Errorf("call: %w", errors.New("bad key "+key)),
		"stringer", stringer{key},
		"bytes", []byte(key),
		"struct", withSecret{"bob", []byte("password=hunter2")},
		"valuer", valuer{slog.StringValue(key)},
		slog.Group("group", "k", key, "n", 7),
		"clean", "nothing here",
	)
	got := buf.String()
	for _, secret := range []string{key, "hunter2", "104 117"} {
		if strings.Contains(got, secret) {
			t.Errorf("the log holds %q:\n%s", secret, got)
		}
	}
	want := `level=INFO msg="calling with [REDACTED]" with="key [REDACTED]" g.inner.k=[REDACTED] g.s=[REDACTED] g.err="call: bad key [REDACTED]" ` +
		`g.stringer=[REDACTED] g.bytes=[REDACTED] g.struct="{bob password=[REDACTED]}" g.valuer=[REDACTED] g.group.k=[REDACTED] g.group.n=7 g.clean="nothing here"` + "\n"
	if got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}

// An error stays an error, so that tint (and any ReplaceAttr that treats
// errors apart) still colours it; a value without a secret reaches the
// handler as it was given, tint's own coloured values included.
func TestHandlerKeepsErrorsAndValues(t *testing.T) {
	key := "sk-proj-" + strings.Repeat("aB3dE5gH7k", 4)
	var seen []any
	inner := slog.NewTextHandler(&bytes.Buffer{}, &slog.HandlerOptions{
		ReplaceAttr: func(_ []string, a slog.Attr) slog.Attr {
			seen = append(seen, a.Value.Any())
			return a
		},
	})
	plain := errors.New("plain failure")
	slog.New(redact.Handler(inner, nil)).Info("m", "secret", errors.New("bad key "+key), "plain", plain)
	var redacted *redact.Error
	if len(seen) < 5 || !errors.As(seen[3].(error), &redacted) || redacted.Error() != "bad key [REDACTED]" || seen[4] != plain {
		t.Errorf("values seen by the inner handler: %#v", seen)
	}

	var out bytes.Buffer
	colored := slog.New(redact.Handler(tint.NewTextHandler(&out, &tint.Options{NoColor: false}), nil))
	colored.Error("m", tint.Err(errors.New("boom")), tint.Err(errors.New("bad key "+key)))
	if got := out.String(); !strings.Contains(got, "91merr=\x1b[22mboom") || strings.Contains(got, key) {
		t.Errorf("tint output: %q", got)
	}
}
