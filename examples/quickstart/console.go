package main

import (
	"fmt"
	"io"
	"strings"
	"sync"
)

// console writes the demo's text to out and its log to log, so that a log
// line never lands inside a line of a streamed answer, even when out and
// log are the same terminal: while the answer has an unfinished line, log
// lines are held, and written as soon as that line ends. Safe for
// concurrent use.
type console struct {
	mu      sync.Mutex
	out     io.Writer
	log     io.Writer
	midLine bool     // out has a line not yet ended
	held    [][]byte // log lines waiting for it
}

func newConsole(out, log io.Writer) *console { return &console{out: out, log: log} }

// Line writes a whole line to out, ending an unfinished one first.
func (c *console) Line(format string, args ...any) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.endLine()
	fmt.Fprintf(c.out, format+"\n", args...)
}

// Stream writes a chunk of a streamed answer to out, each of its lines
// indented by two spaces.
func (c *console) Stream(chunk string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for len(chunk) > 0 {
		if !c.midLine {
			io.WriteString(c.out, "  ")
			c.midLine = true
		}
		line, rest, ended := strings.Cut(chunk, "\n")
		io.WriteString(c.out, line)
		if ended {
			c.endLine()
		}
		chunk = rest
	}
}

// End ends the streamed answer's unfinished line, if any, and writes the
// log lines held meanwhile.
func (c *console) End() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.endLine()
}

// Write takes one log record (slog handlers write one per call): it goes
// to the log at once, or after the streamed line in progress has ended.
func (c *console) Write(p []byte) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.midLine {
		c.held = append(c.held, append([]byte(nil), p...))
		return len(p), nil
	}
	return c.log.Write(p)
}

// endLine ends out's unfinished line and writes the held log lines; c.mu
// is held.
func (c *console) endLine() {
	if c.midLine {
		io.WriteString(c.out, "\n")
		c.midLine = false
	}
	for _, p := range c.held {
		c.log.Write(p)
	}
	c.held = nil
}
