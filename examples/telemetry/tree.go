package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"
)

// span is one span as OpenTelemetry's stdout exporter writes it (a
// tracetest.SpanStub in JSON), reduced to what the tree shows.
type span struct {
	Name        string
	SpanContext struct{ TraceID, SpanID string }
	Parent      struct{ SpanID string }
	StartTime   time.Time
	EndTime     time.Time
	Attributes  []keyValue
	Events      []struct {
		Name       string
		Attributes []keyValue
		Time       time.Time
	}
	Status struct {
		Code        json.RawMessage // "Error", or a number
		Description string
	}

	children []*span
}

type keyValue struct {
	Key   string
	Value struct {
		Type  string
		Value any
	}
}

func (s *span) attr(key string) string { return lookup(s.Attributes, key) }

func (s *span) failed() bool { return strings.Trim(string(s.Status.Code), `"`) == "Error" }

func lookup(kvs []keyValue, key string) string {
	for _, kv := range kvs {
		if kv.Key == key {
			return fmt.Sprint(kv.Value.Value)
		}
	}
	return ""
}

// tree is the spans of one trace under their root.
type tree struct {
	root *span
}

// parseSpans reads the stdout exporter's output (one JSON span after
// another) and returns the tree of the first trace with a root.
func parseSpans(r io.Reader) (*tree, error) {
	dec := json.NewDecoder(r)
	byID := map[string]*span{}
	var all []*span
	for {
		s := &span{}
		if err := dec.Decode(s); errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			return nil, fmt.Errorf("reading spans: %w", err)
		}
		byID[s.SpanContext.SpanID] = s
		all = append(all, s)
	}
	var root *span
	for _, s := range all {
		if p, ok := byID[s.Parent.SpanID]; ok {
			p.children = append(p.children, s)
		} else if root == nil {
			root = s
		}
	}
	if root == nil {
		return nil, errors.New("reading spans: no root span")
	}
	for _, s := range all {
		slices.SortStableFunc(s.children, func(a, b *span) int { return a.StartTime.Compare(b.StartTime) })
	}
	return &tree{root: root}, nil
}

// row is one line of the tree: a span or an event on it.
type row struct {
	depth  int
	prefix string // the tree's branches
	label  string // the span's name, or the event's
	note   string // what its attributes say, in a few words
	span   *span  // nil for an event
	start  time.Duration
	end    time.Duration // = start for an event
	wait   time.Duration // a retry event's wait
}

// rows flattens the tree, spans depth first in the order they started,
// each followed by its events.
func (t *tree) rows() []row {
	var out []row
	var walk func(s, parent *span, depth int, lead string, last bool)
	walk = func(s, parent *span, depth int, lead string, last bool) {
		branch, next := "", ""
		if depth > 0 {
			branch, next = "├─ ", "│  "
			if last {
				branch, next = "└─ ", "   "
			}
		}
		out = append(out, row{depth: depth, prefix: lead + branch, label: label(s), note: note(s, parent), span: s,
			start: s.StartTime.Sub(t.root.StartTime), end: s.EndTime.Sub(t.root.StartTime)})
		inner := lead + next
		for _, e := range s.Events {
			at := e.Time.Sub(t.root.StartTime)
			out = append(out, row{depth: depth + 1, prefix: inner + "· ", label: e.Name,
				note: eventNote(e.Name, e.Attributes), start: at, end: at, wait: retryWait(e.Attributes)})
		}
		for i, c := range s.children {
			walk(c, s, depth+1, inner, i == len(s.children)-1)
		}
	}
	walk(t.root, nil, 0, "", true)
	return out
}

func label(s *span) string {
	if n := s.attr("resilient.attempt"); n != "" && s.Name == "resilient.attempt" {
		return s.Name + " " + n
	}
	return s.Name
}

// note says in a few words what a span's attributes say.
func note(s, parent *span) string {
	var parts []string
	if v := s.attr("resilient.target"); v != "" && s.Name == "resilient.attempt" && (parent == nil || parent.attr("resilient.target") != v) {
		parts = append(parts, "to "+v) // a fallback's attempt
	}
	status := s.attr("http.response.status_code")
	if status != "" {
		parts = append(parts, "status "+status)
	}
	if v := s.attr("error.type"); v != "" && v != status {
		if rule := s.attr("resilient.rule"); rule != "" {
			v += " (" + rule + ")"
		}
		parts = append(parts, v)
	} else if v := s.attr("resilient.outcome"); v != "" {
		parts = append(parts, v)
	} else if s.attr("resilient.target") != "" {
		parts = append(parts, "ok") // a call or attempt of this library: no error.type is success
	}
	if v := s.attr("resilient.attempts"); v != "" && v != "1" {
		parts = append(parts, v+" attempts")
	}
	return strings.Join(parts, ", ")
}

func eventNote(name string, attrs []keyValue) string {
	switch name {
	case "resilient.retry":
		return fmt.Sprintf("retry in %v (%s)", retryWait(attrs).Round(time.Millisecond), lookup(attrs, "resilient.wait.source"))
	case "resilient.fallback":
		return "to " + lookup(attrs, "resilient.fallback")
	case "resilient.refusal", "resilient.gave_up":
		return lookup(attrs, "resilient.reason")
	}
	return ""
}

// retryWait is the wait of a retry event, 0 for other events.
func retryWait(attrs []keyValue) time.Duration {
	var seconds float64
	if _, err := fmt.Sscan(lookup(attrs, "resilient.retry.wait"), &seconds); err != nil {
		return 0
	}
	return time.Duration(seconds * float64(time.Second))
}

// print writes the tree as text: each span with its start and duration
// from the root's start, each event with its time.
func (t *tree) print(w io.Writer) {
	rows := t.rows()
	width := 0
	for _, r := range rows {
		width = max(width, len([]rune(r.prefix+r.label)))
	}
	for _, r := range rows {
		head := r.prefix + r.label
		pad := strings.Repeat(" ", width-len([]rune(head)))
		if r.span == nil {
			fmt.Fprintf(w, "  %s%s  at %6.3fs           %s\n", head, pad, r.start.Seconds(), r.note)
			continue
		}
		fmt.Fprintf(w, "  %s%s  at %6.3fs  %6.3fs  %s\n", head, pad, r.start.Seconds(), (r.end - r.start).Seconds(), r.note)
	}
}
