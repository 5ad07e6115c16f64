package observetest

import (
	"bytes"
	"log/slog"
	"sync"
)

// LogBuffer is an io.Writer that keeps what slog writes to it, for tests
// that assert on the lines of observe.Log. It is safe for concurrent use.
type LogBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

// Write appends p.
func (b *LogBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

// String returns everything written so far.
func (b *LogBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// Logger returns a debug-level text logger writing to b without times, so
// that its lines can be compared exactly.
func (b *LogBuffer) Logger() *slog.Logger {
	return slog.New(slog.NewTextHandler(b, &slog.HandlerOptions{
		Level: slog.LevelDebug,
		ReplaceAttr: func(groups []string, a slog.Attr) slog.Attr {
			if a.Key == slog.TimeKey && len(groups) == 0 {
				return slog.Attr{}
			}
			return a
		},
	}))
}
