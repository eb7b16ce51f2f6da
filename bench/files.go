package bench

import (
	"bytes"
	"cmp"
	"context"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"time"

	"github.com/gapset/gapset/internal/atomicfile"
	"github.com/gapset/gapset/internal/infile"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
)

// Output file names inside the output directory.
const (
	CSVFile     = "results.csv"
	JSONLFile   = "results.jsonl"
	SummaryFile = "summary.md"
	ChartFile   = "nodes.png"
)

// CSV encodes records with a header line.
func CSV(recs []Record) []byte {
	var b bytes.Buffer
	w := csv.NewWriter(&b)
	_ = w.Write([]string{"id", "heuristic", "length", "root_bound", "nodes", "generated", "seconds", "cpu_seconds", "queries", "skipped", "error", "board"})
	for _, r := range recs {
		_ = w.Write([]string{r.ID, r.Heuristic, strconv.Itoa(r.Length), strconv.Itoa(r.RootBound),
			strconv.FormatInt(r.Nodes, 10), strconv.FormatInt(r.Generated, 10), strconv.FormatFloat(r.Seconds, 'f', 6, 64), strconv.FormatFloat(r.CPU, 'f', 6, 64),
			strconv.FormatInt(r.Queries, 10), strconv.FormatInt(r.Skipped, 10), r.Error, r.Board})
	}
	w.Flush()
	return b.Bytes()
}

// JSONL encodes one record per line.
func JSONL(recs []Record) []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	for _, r := range recs {
		_ = enc.Encode(r)
	}
	return b.Bytes()
}

// Chart draws nodes expanded per instance, one series per heuristic, on a
// log scale; instances are ordered by the baseline's nodes (or the first
// heuristic's) so the series read as curves.
func Chart(recs []Record, baseline, title string) ([]byte, error) {
	var names []string
	byH := map[string]map[string]float64{}
	var ids []string
	for _, r := range recs {
		if r.Error != "" || r.Nodes <= 0 {
			continue
		}
		if byH[r.Heuristic] == nil {
			byH[r.Heuristic] = map[string]float64{}
			names = append(names, r.Heuristic)
		}
		if !slices.Contains(ids, r.ID) {
			ids = append(ids, r.ID)
		}
		byH[r.Heuristic][r.ID] = float64(r.Nodes)
	}
	if len(names) == 0 {
		return nil, fmt.Errorf("no solved instance to chart")
	}
	order := baseline
	if byH[order] == nil {
		order = names[0]
	}
	slices.SortStableFunc(ids, func(a, b string) int {
		x, y := byH[order][a], byH[order][b]
		switch {
		case x < y:
			return -1
		case x > y:
			return 1
		}
		return 0
	})
	p := plot.New()
	p.Title.Text = title
	p.X.Label.Text = fmt.Sprintf("instance (ordered by %s nodes)", order)
	p.Y.Label.Text = "nodes expanded"
	p.Y.Scale = plot.LogScale{}
	p.Y.Tick.Marker = plot.LogTicks{Prec: -1}
	p.Legend.Top = true
	p.Legend.Left = true
	for i, n := range names {
		var pts plotter.XYs
		for x, id := range ids {
			if v, ok := byH[n][id]; ok {
				pts = append(pts, plotter.XY{X: float64(x + 1), Y: v})
			}
		}
		sc, err := plotter.NewScatter(pts)
		if err != nil {
			return nil, err
		}
		sc.GlyphStyle.Color = plotutil.Color(i)
		sc.GlyphStyle.Shape = plotutil.Shape(i)
		sc.GlyphStyle.Radius = vg.Points(2.5)
		p.Add(sc)
		p.Legend.Add(n, sc)
	}
	p.Add(plotter.NewGrid())
	// The range is set here, not left to the plot: one point (or equal
	// ones) would give a range padded down to 0, which a log axis refuses.
	lo, hi := math.Inf(1), 0.0
	for _, m := range byH {
		for _, v := range m {
			lo, hi = min(lo, v), max(hi, v)
		}
	}
	p.Y.Min, p.Y.Max = lo/2, hi*2
	wt, err := p.WriterTo(9*vg.Inch, 5.5*vg.Inch, "png")
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	if _, err := wt.WriteTo(&b); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// WriteAll writes the outputs into dir (created if missing): every file is
// rendered and written to its temporary first, then all take their names
// together under ctx (atomicfile.CommitAll), so a failure or an interrupt
// leaves the previous run's files as they were and no partial set. With no solved
// instance there is nothing to chart: the records and the summary are
// still written (a run whose every solve hit --max-nodes keeps them), and
// a chart of an earlier run in dir is left as it is, since the summary
// does not link it.
func WriteAll(ctx context.Context, dir string, recs []Record, s Summary, title string, notes []string) error {
	var md bytes.Buffer
	if err := s.Markdown(&md, title, notes); err != nil {
		return err
	}
	var png []byte
	if solved(recs) {
		var err error
		if png, err = Chart(recs, s.Baseline, title); err != nil {
			return err
		}
		fmt.Fprintf(&md, "\n![nodes per instance](%s)\n", ChartFile)
	}
	_, statErr := os.Stat(dir)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	var files []*atomicfile.File
	defer func() {
		for _, f := range files {
			f.Abort() // a no-op once committed
		}
	}()
	err := func() error {
		for _, f := range []struct {
			name string
			data []byte
		}{{CSVFile, CSV(recs)}, {JSONLFile, JSONL(recs)}, {ChartFile, png}, {SummaryFile, md.Bytes()}} {
			if f.data == nil {
				continue
			}
			out, err := atomicfile.Create(filepath.Join(dir, f.name))
			if err != nil {
				return err
			}
			files = append(files, out)
			if _, err := out.Write(f.data); err != nil {
				return err
			}
		}
		// All the run's files take their names together, or none does (a
		// full disk, an interrupt): the previous run's stay as they were.
		return atomicfile.CommitAll(ctx, files...)
	}()
	if err != nil && os.IsNotExist(statErr) {
		os.Remove(dir) // the directory this call made, if still empty
	}
	return err
}

// Publish summarizes the records against baseline, writes the run's files
// into dir (WriteAll) and the summary to w, under title (empty: the
// summary's DefaultTitle of input, today).
func Publish(ctx context.Context, dir string, w io.Writer, recs []Record, baseline, title, input string, notes []string) (Summary, error) {
	s := Summarize(recs, baseline)
	title = cmp.Or(title, s.DefaultTitle(input, time.Now()))
	if err := WriteAll(ctx, dir, recs, s, title, notes); err != nil {
		return s, err
	}
	return s, s.Markdown(w, title, notes)
}

// GaveUp counts the solves that gave up (a node limit).
func GaveUp(recs []Record) int {
	n := 0
	for _, r := range recs {
		if r.Error != "" {
			n++
		}
	}
	return n
}

// solved tells whether any record holds a solved instance (one Chart can
// draw).
func solved(recs []Record) bool {
	for _, r := range recs {
		if r.Error == "" && r.Nodes > 0 {
			return true
		}
	}
	return false
}

// MaxJSONL bounds a results.jsonl file ReadJSONL reads: a record is about
// half a kilobyte, a run a few thousand records.
const MaxJSONL = 1 << 30

// ReadJSONL reads records written by JSONL (a results.jsonl file).
func ReadJSONL(path string) ([]Record, error) {
	data, err := infile.ReadAll(path, "a results.jsonl file", MaxJSONL)
	if err != nil {
		return nil, err
	}
	var out []Record
	dec := json.NewDecoder(bytes.NewReader(data))
	for n := 1; dec.More(); n++ {
		var r Record
		if err := dec.Decode(&r); err != nil {
			return nil, fmt.Errorf("%s: record %d: %w", path, n, err)
		}
		if r.ID == "" || r.Heuristic == "" {
			return nil, fmt.Errorf("%s: record %d has no id or heuristic", path, n)
		}
		out = append(out, r)
	}
	return out, nil
}
