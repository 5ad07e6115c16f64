package llms

import (
	"errors"
	"strings"
	"testing"
	"unicode/utf8"
)

// The guard's memory is bounded by what a PartialStreamError needs, however
// long the stream: at most twice the tail it keeps, plus the append slack.
func TestGuardKeepsABoundedTail(t *testing.T) {
	tests := []struct {
		name  string
		chunk string
		n     int
	}{
		{"many small chunks", strings.Repeat("a", 1000) + "|", 1000},
		{"chunks larger than the tail", strings.Repeat("b", maxPartial+7), 5},
		{"multi-byte runes", strings.Repeat("é", 333), 2000},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := &guard{}
			var all strings.Builder
			for range tt.n {
				g.chunks++
				g.keep([]byte(tt.chunk))
				all.WriteString(tt.chunk)
				if len(g.tail) > 2*maxPartial || cap(g.tail) > 4*maxPartial {
					t.Fatalf("the tail holds %d bytes in a buffer of %d, want at most %d in %d", len(g.tail), cap(g.tail), 2*maxPartial, 4*maxPartial)
				}
			}
			perr := g.partial(errors.New("dropped"))
			text := all.String()
			if perr.Bytes != len(text) || !strings.HasSuffix(text, perr.Partial) || len(perr.Partial) > maxPartial ||
				len(perr.Partial) < maxPartial-utf8.UTFMax || !utf8.ValidString(perr.Partial) {
				t.Errorf("got %d bytes counted and a partial of %d bytes (a suffix: %v, valid: %v); want %d and the last %d, from a rune start",
					perr.Bytes, len(perr.Partial), strings.HasSuffix(text, perr.Partial), utf8.ValidString(perr.Partial), len(text), maxPartial)
			}
		})
	}
}

func TestGuardWithoutChunksHasNoPartial(t *testing.T) {
	if perr := (&guard{}).partial(errors.New("dropped")); perr != nil {
		t.Errorf("got %v, want nil", perr)
	}
}
