package tools_test

import (
	"bytes"
	"errors"
	"log/slog"
	"strings"
	"testing"

	"github.com/resilientgo/resilient/taxonomy"
	"github.com/resilientgo/resilient/tools"
)

// A tool's texts of any size reach the model and the log bounded, the cut
// marked.
func TestToolTextsAreBounded(t *testing.T) {
	huge := strings.Repeat("x", 10<<20)
	internal := errors.New("dump: " + huge)
	for _, c := range []struct {
		name string
		err  error
	}{
		{"tool error", taxonomy.NewToolError("bad input: " + huge)},
		{"internal failure", internal},
	} {
		t.Run(c.name, func(t *testing.T) {
			var log bytes.Buffer
			w := mustWrap(t, returns("", c.err), tools.Logger(slog.New(slog.NewTextHandler(&log, &slog.HandlerOptions{Level: slog.LevelDebug}))))
			out, _ := w.Call(t.Context(), "in")
			if len(out) > 8<<10 {
				t.Errorf("the model reads %d bytes, want at most 8 KiB", len(out))
			}
			if log.Len() > 16<<10 || !strings.Contains(log.String(), "…[cut ") {
				t.Errorf("the log holds %d bytes (%.60q…), want at most 16 KiB with the cut marked", log.Len(), log.String())
			}
		})
	}
}
