package streamguard

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"
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
			g := &Guard{}
			var all strings.Builder
			for range tt.n {
				g.chunks++
				g.keep([]byte(tt.chunk))
				all.WriteString(tt.chunk)
				if len(g.tail) > 2*maxPartial || cap(g.tail) > 4*maxPartial {
					t.Fatalf("the tail holds %d bytes in a buffer of %d, want at most %d in %d", len(g.tail), cap(g.tail), 2*maxPartial, 4*maxPartial)
				}
			}
			perr := g.Partial(errors.New("dropped"))
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
	if perr := (&Guard{}).Partial(errors.New("dropped")); perr != nil {
		t.Errorf("got %v, want nil", perr)
	}
}

// A stalled stream is ended with the cause of the timeout that fired: the
// first chunk's while none has come (when it is set), else the idle one.
func TestGuardStallCause(t *testing.T) {
	tests := []struct {
		name        string
		first, idle time.Duration
		chunk       bool // one chunk arrives at once
		want        error
		after       time.Duration
	}{
		{"no first chunk", 10 * time.Second, time.Minute, false, ErrFirstChunkTimeout, 10 * time.Second},
		{"idle after the first chunk", 10 * time.Second, time.Minute, true, ErrStreamIdle, time.Minute},
		{"no first chunk, only an idle timeout", 0, time.Minute, false, ErrStreamIdle, time.Minute},
		{"the first chunk only is bounded", 10 * time.Second, 0, true, nil, 0},
		{"no timeouts", 0, 0, false, nil, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				var mu sync.Mutex
				var stalls []error
				ctx, g := New(t.Context(), tt.first, tt.idle,
					func(_ *Guard, cause error) { mu.Lock(); stalls = append(stalls, cause); mu.Unlock() })
				start := time.Now()
				if tt.chunk {
					if err := g.Deliver([]byte("Hel"), func() error { return nil }); err != nil {
						t.Fatal(err)
					}
				}
				select {
				case <-ctx.Done():
				case <-time.After(time.Hour):
				}
				synctest.Wait() // the timer's goroutine has told onStall
				stall := g.Stop()
				mu.Lock()
				defer mu.Unlock()
				if tt.want == nil {
					if stall != nil || len(stalls) != 0 || time.Since(start) != time.Hour {
						t.Errorf("got %v (%v) after %v, want no stall", stall, stalls, time.Since(start))
					}
					return
				}
				if !errors.Is(stall, tt.want) || len(stalls) != 1 || !errors.Is(stalls[0], tt.want) || time.Since(start) != tt.after {
					t.Errorf("got %v (told %v) after %v, want %v after %v", stall, stalls, time.Since(start), tt.want, tt.after)
				}
			})
		})
	}
}

// Once the attempt's context ends, whatever ended it, no chunk reaches the
// caller, and the guard counts none.
func TestGuardDropsChunksAfterTheAttempt(t *testing.T) {
	parent, cancel := context.WithCancel(context.Background())
	calls := 0
	_, g := New(parent, 0, 0, nil)
	cancel()
	if err := g.Deliver([]byte("late"), func() error { calls++; return nil }); !errors.Is(err, ErrAttemptOver) || calls != 0 {
		t.Errorf("got %v after %d deliveries, want ErrAttemptOver and none", err, calls)
	}
	if chunks, bytes := g.Delivered(); chunks != 0 || bytes != 0 {
		t.Errorf("counted %d chunks, %d bytes, want none", chunks, bytes)
	}
	g.Stop()
}

// The partial text starts at a rune when the tail cut one, and is the whole
// text, as it came, when nothing was cut.
func TestGuardPartialStartsAtARune(t *testing.T) {
	tests := []struct {
		name string
		text string
		want string
	}{
		{"cut inside a rune", strings.Repeat("é", maxPartial/2) + "a", strings.Repeat("é", maxPartial/2-1) + "a"},
		{"cut inside invalid bytes", "a" + strings.Repeat("\x80", maxPartial), ""},
		{"not cut: kept as it came", "\x80abc", "\x80abc"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := &Guard{chunks: 1}
			g.keep([]byte(tt.text))
			if perr := g.Partial(errors.New("dropped")); perr.Partial != tt.want || perr.Bytes != len(tt.text) {
				t.Errorf("got %d bytes (%q...) of %d, want %d bytes of %d", len(perr.Partial), perr.Partial[:min(8, len(perr.Partial))], perr.Bytes, len(tt.want), len(tt.text))
			}
		})
	}
}

// The caller's error stops the delivery and is kept; a chunk the caller
// refused is not counted.
func TestGuardKeepsTheCallersError(t *testing.T) {
	_, g := New(context.Background(), 0, 0, nil)
	defer g.Stop()
	mine := errors.New("the screen is gone")
	if err := g.Deliver([]byte("Hel"), func() error { return mine }); err != mine || g.CallerErr() != mine {
		t.Errorf("got %v, kept %v; want %v both", err, g.CallerErr(), mine)
	}
	if chunks, _ := g.Delivered(); chunks != 0 {
		t.Errorf("counted %d chunks, want 0", chunks)
	}
}
