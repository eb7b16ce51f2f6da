package bench

import (
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
)

// TradeoffPoint is one heuristic in a chart of search effort against what
// it holds: the gap bound it certifies and the memory of its tables.
type TradeoffPoint struct {
	Series    string  // a family drawn as one line, e.g. "8 cells, exact + approximated"
	Label     string  // the point's name, e.g. "h_G:4"
	Gap       int     // the gap bound 2N of h_G:2N (-2 for Manhattan alone)
	Bytes     int64   // memory the heuristic's tables hold
	NodeRatio float64 // its average nodes over the baseline's
}

// tradeoffHeader is the CSV header ReadTradeoff expects.
var tradeoffHeader = []string{"series", "label", "gap", "bytes", "node_ratio"}

// ReadTradeoff reads points from CSV with the header
// series,label,gap,bytes,node_ratio; every field is checked.
func ReadTradeoff(r io.Reader) ([]TradeoffPoint, error) {
	cr := csv.NewReader(r)
	cr.Comment = '#'
	rows, err := cr.ReadAll()
	if err != nil {
		return nil, err
	}
	if len(rows) == 0 || !slices.Equal(rows[0], tradeoffHeader) {
		return nil, fmt.Errorf("trade-off CSV: the first line must be %s", strings.Join(tradeoffHeader, ","))
	}
	var pts []TradeoffPoint
	for i, row := range rows[1:] {
		line := i + 2
		gap, err := strconv.Atoi(row[2])
		if err != nil || gap < -2 || gap%2 != 0 {
			return nil, fmt.Errorf("trade-off CSV line %d: gap %q is not an even number >= -2", line, row[2])
		}
		b, err := strconv.ParseInt(row[3], 10, 64)
		if err != nil || b < 0 {
			return nil, fmt.Errorf("trade-off CSV line %d: bytes %q is not a count", line, row[3])
		}
		nr, err := strconv.ParseFloat(row[4], 64)
		if err != nil || !(nr > 0) || math.IsInf(nr, 0) {
			return nil, fmt.Errorf("trade-off CSV line %d: node ratio %q is not a positive number", line, row[4])
		}
		if row[0] == "" || row[1] == "" {
			return nil, fmt.Errorf("trade-off CSV line %d: empty series or label", line)
		}
		pts = append(pts, TradeoffPoint{Series: row[0], Label: row[1], Gap: gap, Bytes: b, NodeRatio: nr})
	}
	if len(pts) == 0 {
		return nil, errors.New("trade-off CSV: no points")
	}
	return pts, nil
}

// TradeoffChart draws two panels side by side: the node ratio against the
// gap bound, and against the memory held (MiB; tables under 1 MiB are drawn
// at 1 MiB), both on log scales for the ratio, one line per series.
func TradeoffChart(pts []TradeoffPoint, title string) ([]byte, error) {
	if len(pts) == 0 {
		return nil, errors.New("no points to chart")
	}
	var series []string
	for _, p := range pts {
		if !slices.Contains(series, p.Series) {
			series = append(series, p.Series)
		}
	}
	byGap := plot.New()
	byGap.Title.Text = title
	byGap.X.Label.Text = "gap bound 2N of h_G:2N (-2: Manhattan)"
	byMem := plot.New()
	byMem.Title.Text = "the same against memory"
	byMem.X.Label.Text = "memory held (MiB, log; under 1 MiB drawn at 1)"
	byMem.X.Scale = plot.LogScale{}
	byMem.X.Tick.Marker = plot.LogTicks{Prec: -1}
	low := pts[0].NodeRatio
	for _, p := range pts {
		low = min(low, p.NodeRatio)
	}
	for _, p := range []*plot.Plot{byGap, byMem} {
		p.Y.Min = low / 8 // room under the lowest point for the legend
		p.Y.Label.Text = "nodes / baseline nodes (log)"
		p.Y.Scale = plot.LogScale{}
		p.Y.Tick.Marker = plot.LogTicks{Prec: -1}
		p.Legend.Top = false
		p.Legend.Left = true
		p.Add(plotter.NewGrid())
	}
	for i, s := range series {
		var g, m plotter.XYs
		var labels []string
		for _, p := range pts {
			if p.Series != s {
				continue
			}
			g = append(g, plotter.XY{X: float64(p.Gap), Y: p.NodeRatio})
			m = append(m, plotter.XY{X: max(float64(p.Bytes)/(1<<20), 1), Y: p.NodeRatio})
			labels = append(labels, p.Label)
		}
		for j, xy := range []plotter.XYs{g, m} {
			l, sc, err := plotter.NewLinePoints(xy)
			if err != nil {
				return nil, err
			}
			l.Color, sc.Color = plotutil.Color(i), plotutil.Color(i)
			l.Dashes = plotutil.Dashes(i)
			sc.Shape = plotutil.Shape(i)
			lab, err := plotter.NewLabels(plotter.XYLabels{XYs: xy, Labels: labels})
			if err != nil {
				return nil, err
			}
			p := []*plot.Plot{byGap, byMem}[j]
			p.Add(l, sc, lab)
			if j == 0 {
				p.Legend.Add(s, l, sc)
			}
		}
	}
	const w, h = 13 * vg.Inch, 5.5 * vg.Inch
	img := vgimg.New(w, h)
	dc := draw.New(img)
	tiles := draw.Tiles{Rows: 1, Cols: 2, PadX: vg.Inch / 4, PadTop: vg.Inch / 8, PadBottom: vg.Inch / 8, PadLeft: vg.Inch / 8, PadRight: vg.Inch / 8}
	canvases := plot.Align([][]*plot.Plot{{byGap, byMem}}, tiles, dc)
	byGap.Draw(canvases[0][0])
	byMem.Draw(canvases[0][1])
	var b bytes.Buffer
	if _, err := (vgimg.PngCanvas{Canvas: img}).WriteTo(&b); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}
