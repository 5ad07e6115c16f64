package main

import (
	"fmt"
	"image/color"
	"os"
	"slices"
	"time"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
)

var (
	admittedColor = color.RGBA{R: 0x3b, G: 0x75, B: 0xaf, A: 0xff}
	rejectedColor = color.RGBA{R: 0xd6, G: 0x3c, B: 0x2f, A: 0xff}
)

// plotHerd draws requests over time in the herd, one panel per run given
// (without jitter, then with it), each bar one server window split into
// admitted requests and 429s, on a shared provider-time axis.
func plotHerd(path string, runs []herdResult) error {
	titles := []string{"NoJitter(): retries arrive together", "full jitter (the default): retries spread out"}
	var end time.Duration
	for _, r := range runs {
		end = max(end, r.drain)
	}
	bins := windowOf(end) + 1
	counts := make([][2][]float64, len(runs))
	top := 0.0
	for i, r := range runs {
		counts[i] = binHerd(r, bins)
		top = max(top, slices.Max(counts[i][0]))
	}
	rows := make([][]*plot.Plot, len(runs))
	for i, r := range runs {
		p, err := herdPanel(titles[min(i, len(titles)-1)], r, counts[i], top)
		if err != nil {
			return err
		}
		rows[i] = []*plot.Plot{p}
	}
	img := vgimg.New(8*vg.Inch, 3*vg.Inch*vg.Length(len(runs)))
	dc := draw.New(img)
	tiles := draw.Tiles{Rows: len(runs), Cols: 1, PadX: vg.Millimeter, PadY: 3 * vg.Millimeter,
		PadTop: 2 * vg.Millimeter, PadBottom: 2 * vg.Millimeter, PadLeft: 2 * vg.Millimeter, PadRight: 4 * vg.Millimeter}
	canvases := plot.Align(rows, tiles, dc)
	for i := range rows {
		rows[i][0].Draw(canvases[i][0])
	}
	return writePNG(path, img)
}

// writePNG writes img to path as a PNG.
func writePNG(path string, img *vgimg.Canvas) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if _, err := (vgimg.PngCanvas{Canvas: img}).WriteTo(f); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// binHerd counts one run's requests, all and 429s, in the server's windows.
func binHerd(r herdResult, bins int) [2][]float64 {
	all, rejected := make([]float64, bins), make([]float64, bins)
	for _, q := range r.requests {
		i := min(windowOf(q.at), bins-1)
		all[i]++
		if q.rejected {
			rejected[i]++
		}
	}
	return [2][]float64{all, rejected}
}

// herdPanel is one run's histogram: requests per server window, the 429s
// drawn over the total.
func herdPanel(title string, r herdResult, counts [2][]float64, top float64) (*plot.Plot, error) {
	all, rejected := counts[0], counts[1]
	p := plot.New()
	p.Title.Text = fmt.Sprintf("%s: %d requests, %d answered 429, drained in %.1f s",
		title, len(r.requests), r.rejected, herdScale.provider(r.drain).Seconds())
	p.X.Label.Text = "provider time (s)"
	p.Y.Label.Text = fmt.Sprintf("requests per %v window", herdWindow)
	width, lead := herdWindow.Seconds(), herdLead.Seconds()
	p.X.Min, p.X.Max = -lead, float64(len(all))*width-lead
	p.Y.Min, p.Y.Max = 0, top
	total := histogram(all, width, lead, admittedColor)
	over := histogram(rejected, width, lead, rejectedColor)
	p.Add(plotter.NewGrid(), total, over)
	p.Legend.Top = true
	p.Legend.Add("admitted", total)
	p.Legend.Add("answered 429", over)
	return p, nil
}

// histogram draws counts in bins of width seconds, the first starting at
// -lead.
func histogram(counts []float64, width, lead float64, c color.Color) *plotter.Histogram {
	bins := make([]plotter.HistogramBin, len(counts))
	for i, v := range counts {
		bins[i] = plotter.HistogramBin{Min: float64(i)*width - lead, Max: float64(i+1)*width - lead, Weight: v}
	}
	return &plotter.Histogram{Bins: bins, Width: width, FillColor: c, LineStyle: draw.LineStyle{Width: 0}}
}
