package middleware_test

import (
	"bytes"
	"errors"
	"log/slog"
	"strings"
	"testing"
	"testing/synctest"

	"github.com/resilientgo/resilient/middleware"
	"github.com/resilientgo/resilient/taxonomy"
)

// An error text of any size is kept bounded, the cut marked, in the final
// error and in the log lines, while errors.Is still reaches the original.
func TestErrorTextsAreBounded(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		huge := errors.New("status 503: " + strings.Repeat("<html>overloaded</html>", 1<<20)) // 23 MiB
		var log bytes.Buffer
		p := mustPipeline(t, middleware.Logger(slog.New(slog.NewTextHandler(&log, nil))))
		_, err := p.Do(t.Context(), newScript(fails(huge)).fn)
		e := asError(t, err)
		if len(e.Attempts) != 3 || !errors.Is(err, huge) {
			t.Fatalf("got %d attempts, errors.Is(err, huge) = %v; want 3 and true", len(e.Attempts), errors.Is(err, huge))
		}
		text := err.Error()
		if len(text) > 3*5<<10 || strings.Count(text, "…[cut ") != 3 {
			t.Errorf("the final error's text is %d bytes with %d cuts marked, want at most 15 KiB and 3", len(text), strings.Count(text, "…[cut "))
		}
		if log.Len() > 4*5<<10 || !strings.Contains(log.String(), "…[cut ") {
			t.Errorf("the log holds %d bytes, want at most 20 KiB with the cuts marked", log.Len())
		}
	})
}

// A rule of any length from a classifier of the caller's is bounded: it
// goes to every event, log line and span.
func TestClassifierRulesAreBounded(t *testing.T) {
	long := taxonomy.ClassifierFunc(func(error) taxonomy.Class {
		return taxonomy.Class{Kind: taxonomy.Permanent, Rule: strings.Repeat("r", 1<<20)}
	})
	p := mustPipeline(t, middleware.Classifier(long))
	_, err := p.Do(t.Context(), newScript(fails(errors.New("bad"))).fn)
	if rule := asError(t, err).Class().Rule; len(rule) > 5<<10 {
		t.Errorf("the rule kept is %d bytes, want at most 5 KiB", len(rule))
	}
}
