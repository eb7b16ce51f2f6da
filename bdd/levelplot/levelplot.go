// Package levelplot draws the node count per level of BDDs (one line per
// variable order) as a PNG chart. It is apart from package bdd so that the
// diagram code does not pull in the plotting library.
package levelplot

import (
	"bytes"
	"fmt"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
)

// Series is one diagram: Counts[level] nodes on each level, root's first.
type Series struct {
	Name   string
	Counts []int
}

// Chart draws the series as lines over the level (x) with the node count
// (y, linear), and returns the PNG.
func Chart(title string, series []Series) ([]byte, error) {
	if len(series) == 0 {
		return nil, fmt.Errorf("nothing to chart")
	}
	p := plot.New()
	p.Title.Text = title
	p.X.Label.Text = "level (0 = the root's variable)"
	p.Y.Label.Text = "nodes on the level"
	p.Y.Tick.Marker = countTicks{}
	p.Legend.Top = true
	p.Legend.Left = true
	for i, s := range series {
		if len(s.Counts) == 0 {
			return nil, fmt.Errorf("series %q is empty", s.Name)
		}
		pts := make(plotter.XYs, len(s.Counts))
		total := 0
		for lv, n := range s.Counts {
			pts[lv] = plotter.XY{X: float64(lv), Y: float64(n)}
			total += n
		}
		l, err := plotter.NewLine(pts)
		if err != nil {
			return nil, err
		}
		l.Color = plotutil.Color(i)
		l.Dashes = plotutil.Dashes(i)
		l.Width = vg.Points(1.5)
		p.Add(l)
		p.Legend.Add(fmt.Sprintf("%s: %s nodes", s.Name, group(total)), l)
	}
	p.Add(plotter.NewGrid())
	wt, err := p.WriterTo(9*vg.Inch, 5*vg.Inch, "png")
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	if _, err := wt.WriteTo(&b); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// countTicks labels node counts as 250k, 1.5M instead of 250000.00.
type countTicks struct{}

func (countTicks) Ticks(lo, hi float64) []plot.Tick {
	ticks := plot.DefaultTicks{}.Ticks(lo, hi)
	for i := range ticks {
		if ticks[i].Label == "" {
			continue
		}
		v := ticks[i].Value
		switch {
		case v >= 1e6:
			ticks[i].Label = strconv.FormatFloat(v/1e6, 'f', -1, 64) + "M"
		case v >= 1e3:
			ticks[i].Label = strconv.FormatFloat(v/1e3, 'f', -1, 64) + "k"
		default:
			ticks[i].Label = strconv.FormatFloat(v, 'f', -1, 64)
		}
	}
	return ticks
}

// group writes 1234567 as 1,234,567.
func group(v int) string {
	s := strconv.Itoa(v)
	var b []byte
	for i := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b = append(b, ',')
		}
		b = append(b, s[i])
	}
	return string(b)
}
