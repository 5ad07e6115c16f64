package main

import (
	"fmt"
	"image/color"
	"math"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
)

// agentPoint is one policy in the agent-runs chart.
type agentPoint struct {
	name           string
	library        bool
	completedPct   float64
	requestsPerRun float64
}

// plotAgentRuns draws completed runs against requests per run, one point per
// policy (policies at the same point share it and its label), with the
// requests of a run without faults as a dashed line.
func plotAgentRuns(path string, points []agentPoint, faultFree float64) error {
	type group struct {
		agentPoint
		names []string
	}
	var groups []*group
	for _, pt := range points {
		found := false
		for _, g := range groups {
			if math.Abs(g.completedPct-pt.completedPct) < 0.05 && math.Abs(g.requestsPerRun-pt.requestsPerRun) < 0.005 {
				g.names = append(g.names, pt.name)
				g.library = g.library || pt.library
				found = true
				break
			}
		}
		if !found {
			groups = append(groups, &group{agentPoint: pt, names: []string{pt.name}})
		}
	}

	p := plot.New()
	p.Title.Text = "Whole agent runs under faults: completed runs against requests per run"
	p.X.Label.Text = "requests to the providers per run started"
	p.Y.Label.Text = "runs completed with the right answer (%)"
	lo, hi := faultFree, faultFree
	for _, g := range groups {
		lo, hi = math.Min(lo, g.requestsPerRun), math.Max(hi, g.requestsPerRun)
	}
	p.X.Min, p.X.Max = lo-0.5, hi+0.5
	p.Y.Min, p.Y.Max = 0, 105
	p.Add(plotter.NewGrid())

	free, err := plotter.NewLine(plotter.XYs{{X: faultFree, Y: 0}, {X: faultFree, Y: 105}})
	if err != nil {
		return err
	}
	free.LineStyle.Dashes = []vg.Length{vg.Points(4), vg.Points(3)}
	free.LineStyle.Color = color.Gray{Y: 0x80}
	p.Add(free)
	p.Legend.Add(fmt.Sprintf("a run without faults: %.2f requests", faultFree), free)

	mid := (p.X.Min + p.X.Max) / 2
	for _, library := range []bool{false, true} {
		var xys plotter.XYs
		for _, g := range groups {
			if g.library != library {
				continue
			}
			xy := plotter.XY{X: g.requestsPerRun, Y: g.completedPct}
			xys = append(xys, xy)
			// Labels point away from the nearer edge, so that none runs
			// off the chart.
			lb, err := plotter.NewLabels(plotter.XYLabels{XYs: plotter.XYs{xy}, Labels: []string{strings.Join(g.names, " / ")}})
			if err != nil {
				return err
			}
			lb.TextStyle[0].Font.Size = vg.Points(8)
			lb.TextStyle[0].XAlign, lb.Offset = draw.XLeft, vg.Point{X: vg.Points(7), Y: vg.Points(-3)}
			if xy.X > mid {
				lb.TextStyle[0].XAlign, lb.Offset = draw.XRight, vg.Point{X: vg.Points(-7), Y: vg.Points(-3)}
			}
			p.Add(lb)
		}
		if len(xys) == 0 {
			continue
		}
		sc, err := plotter.NewScatter(xys)
		if err != nil {
			return err
		}
		c, legend := rejectedColor, "baselines"
		if library {
			c, legend = admittedColor, "this library"
		}
		sc.GlyphStyle = draw.GlyphStyle{Color: c, Radius: vg.Points(4), Shape: draw.CircleGlyph{}}
		p.Add(sc)
		p.Legend.Add(legend, sc)
	}
	p.Legend.Top = false
	p.Legend.Left = true

	img := vgimg.New(9*vg.Inch, 5*vg.Inch)
	p.Draw(draw.New(img))
	return writePNG(path, img)
}
