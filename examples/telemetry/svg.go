package main

import (
	"bytes"
	"fmt"
	"html"
	"math"
	"strings"
	"time"
)

// Layout of the picture, in pixels.
const (
	svgRowHeight  = 22
	svgCharWidth  = 7.8 // of the monospace font at 13 px
	svgTimelineW  = 460
	svgMarginX    = 16
	svgHeaderRows = 2
)

// svg draws the tree as a waterfall: the tree's text on the left, each
// span's bar on a shared time axis on the right (red when it failed), each
// event a diamond at its time, a retry's wait a dashed line after it.
func (t *tree) svg() []byte {
	rows := t.rows()
	textW := 0
	for _, r := range rows {
		textW = max(textW, len([]rune(r.prefix+r.label+"  "+r.note)))
	}
	left := float64(svgMarginX) + float64(textW)*svgCharWidth + 16
	width := left + svgTimelineW + 60
	height := float64((len(rows)+svgHeaderRows)*svgRowHeight + 12)
	total := t.root.EndTime.Sub(t.root.StartTime)
	x := func(d time.Duration) float64 {
		if total <= 0 {
			return left
		}
		return left + svgTimelineW*d.Seconds()/total.Seconds()
	}

	var b bytes.Buffer
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%.0f" height="%.0f" viewBox="0 0 %.0f %.0f" font-family="DejaVu Sans Mono, Menlo, Consolas, monospace" font-size="13">`+"\n",
		width, height, width, height)
	fmt.Fprintf(&b, `<rect width="100%%" height="100%%" fill="#ffffff"/>`+"\n")
	fmt.Fprintf(&b, `<text x="%d" y="%d" font-weight="bold">%s</text>`+"\n", svgMarginX, svgRowHeight-4,
		html.EscapeString("A recovered agent run, as resilientotel records it (examples/telemetry)"))

	// The time axis: a tick every half second.
	axisY := float64(2*svgRowHeight) - 6
	for s := 0.0; s <= total.Seconds()+1e-9; s += 0.5 {
		tx := x(time.Duration(s * float64(time.Second)))
		fmt.Fprintf(&b, `<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="#dddddd"/>`+"\n", tx, axisY+2, tx, height-6)
		fmt.Fprintf(&b, `<text x="%.1f" y="%.1f" fill="#777777" font-size="11" text-anchor="middle">%.1fs</text>`+"\n", tx, axisY-2, s)
	}

	for i, r := range rows {
		y := float64((i+svgHeaderRows)*svgRowHeight) + 4
		if i%2 == 1 {
			fmt.Fprintf(&b, `<rect x="0" y="%.1f" width="%.0f" height="%d" fill="#f6f8fa"/>`+"\n", y, width, svgRowHeight)
		}
		mid := y + svgRowHeight/2
		fmt.Fprintf(&b, `<text x="%d" y="%.1f" xml:space="preserve"><tspan fill="#999999">%s</tspan><tspan fill="%s">%s</tspan><tspan fill="#666666">  %s</tspan></text>`+"\n",
			svgMarginX, mid+4, html.EscapeString(r.prefix), labelColor(r), html.EscapeString(r.label), html.EscapeString(r.note))
		if r.span == nil {
			ex := x(r.start)
			if r.wait > 0 {
				// The wait before the retry, up to the next attempt.
				fmt.Fprintf(&b, `<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="#e69f00" stroke-width="2" stroke-dasharray="4 3"/>`+"\n",
					ex, mid, x(r.start+r.wait), mid)
			}
			fmt.Fprintf(&b, `<path d="M%.1f %.1f l5 5 l-5 5 l-5 -5 z" fill="#e69f00" stroke="#8a5f00"/>`+"\n", ex, mid-5)
			continue
		}
		x0, x1 := x(r.start), x(r.end)
		w := math.Max(x1-x0, 2)
		fmt.Fprintf(&b, `<rect x="%.1f" y="%.1f" width="%.1f" height="%d" rx="2" fill="%s"/>`+"\n", x0, mid-6, w, 12, barColor(r.span))
		fmt.Fprintf(&b, `<text x="%.1f" y="%.1f" fill="#777777" font-size="11">%s</text>`+"\n", x0+w+4, mid+4, duration(r.end-r.start))
	}
	b.WriteString("</svg>\n")
	return b.Bytes()
}

func duration(d time.Duration) string {
	if d < time.Millisecond {
		return fmt.Sprintf("%dµs", d.Microseconds())
	}
	if d < time.Second {
		return fmt.Sprintf("%dms", d.Milliseconds())
	}
	return fmt.Sprintf("%.2fs", d.Seconds())
}

func labelColor(r row) string {
	if r.span == nil {
		return "#8a5f00"
	}
	if r.span.failed() {
		return "#c0392b"
	}
	return "#222222"
}

// barColor tells the spans apart: the agent run, model calls, tool calls,
// attempts, HTTP requests; a failed span is red whatever it is.
func barColor(s *span) string {
	switch {
	case s.failed():
		return "#d63c2f"
	case s.Name == "resilient.attempt":
		return "#4a9a4a"
	case s.attr("gen_ai.operation.name") == "invoke_agent":
		return "#555555"
	case s.attr("gen_ai.operation.name") == "chat":
		return "#3b75af"
	case strings.HasPrefix(s.Name, "HTTP") || s.attr("http.request.method") != "":
		return "#aaaaaa"
	}
	return "#7b4fa6" // tool calls
}
