// Package ordersearch runs the variable-order search of `gapset order` end
// to end: the BDD to start from (built from a key-set file's keys in a start
// order, or loaded from a .bdd file), bdd.OrderSearch within a time budget,
// the check that the reordered BDD holds the same members, and the outputs:
// the order file, nodes per level of both orders as CSV and as a chart, and
// the BDD saved in the found order with its ZDD count.
package ordersearch

import (
	"context"
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/gapset/gapset/bdd"
	"github.com/gapset/gapset/bdd/levelplot"
	"github.com/gapset/gapset/internal/atomicfile"
	"github.com/gapset/gapset/internal/errmark"
	"github.com/gapset/gapset/keyset"
)

// ErrZDD is returned by Load for a file holding a ZDD.
var ErrZDD = errors.New("order search works on BDDs")

// ErrInput marks a start Open refuses: a damaged or missing file, a ZDD,
// a start order or encoding the set cannot take (bad input; the text
// unchanged, errmark).
var ErrInput = errors.New("bad order search start")

// Open is gapset order's start: the .bdd file bddPath (status hears that
// it loads), or else the keys of the key-set file keysPath built in the
// start order (a name, a bit list or @FILE) and encoding named
// (progress hears the build, with the set's name).
func Open(bddPath, keysPath, order, encoding string, status func(string), progress func(set, stage string, done, total uint64)) (Start, error) {
	if bddPath != "" {
		status(bddPath + ": loading")
		s, err := Load(bddPath)
		return s, errmark.If(err, ErrInput, bdd.ErrFormat, os.ErrNotExist, ErrZDD)
	}
	h, keys, err := keyset.ReadAll(keysPath)
	if err != nil {
		return Start{}, errmark.If(err, ErrInput, keyset.ErrFormat, os.ErrNotExist)
	}
	o, err := bdd.ParseOrderArg(order, h.Rows, h.Cols, h.Cells)
	if err != nil {
		return Start{}, errmark.As(fmt.Errorf("--start: %w", err), ErrInput)
	}
	enc, err := bdd.EncodingFor(encoding, h.Rows*h.Cols, h.Cells)
	if err != nil {
		return Start{}, errmark.As(err, ErrInput)
	}
	return FromKeys(h, keys, o, enc, func(stage string, done, total uint64) { progress(h.Name(), stage, done, total) })
}

// Start is the BDD a search starts from and what its saved form records.
type Start struct {
	Diagram *bdd.Diagram
	Meta    bdd.Meta // BuildTime and ZDDNodes zero: the search sets its own
	Name    string   // the set's name (Gap0_8)
}

// Load starts from a .bdd file: its set in its order.
func Load(path string) (Start, error) {
	d, in, err := bdd.Load(path)
	if err != nil {
		return Start{}, err
	}
	if in.ZDD {
		return Start{}, fmt.Errorf("%s holds a ZDD: %w", path, ErrZDD)
	}
	meta := in.Meta()
	meta.BuildTime, meta.ZDDNodes = 0, 0
	return Start{Diagram: d, Meta: meta, Name: in.Name()}, nil
}

// FromKeys starts from the keys of a key-set file with header h: they are
// converted into enc in place and built into a BDD in order o.
func FromKeys(h keyset.Header, keys []uint64, o bdd.Order, enc bdd.Encoding, progress bdd.Progress) (Start, error) {
	enc.ConvertAll(keys, h.Rows*h.Cols, h.Cells)
	d, err := bdd.BuildInPlace(keys, o, false, progress)
	if err != nil {
		return Start{}, err
	}
	return Start{Diagram: d, Meta: bdd.SetMeta(h, enc), Name: h.Name()}, nil
}

// Options bound a search.
type Options struct {
	Method   string        // one of bdd.SearchMethods
	Budget   time.Duration // stop after this long (the best order so far is kept)
	MaxNodes int           // zero: 4x the start
	// Progress, if set, gets a line of status after every move.
	Progress func(status string)
}

// Result is a finished search.
type Result struct {
	Name       string   // the set's
	Meta       bdd.Meta // of the start, for saving
	Method     string
	StartOrder bdd.Order
	StartSizes []int // nodes per level of the start
	bdd.SearchResult
	Took     time.Duration
	ZDDNodes int // counted by Save
}

// Run searches from s; Result.Diagram holds the set in the order found,
// named after the method and the start. The start diagram is left as it
// was, and unreferenced by the search: the caller may drop it.
func Run(s Start, opt Options) (*Result, error) {
	d, name := s.Diagram, s.Name
	r := &Result{Name: name, Meta: s.Meta, Method: opt.Method, StartOrder: d.Order, StartSizes: d.LevelSizes()}
	begin := time.Now()
	start := d.NodeCount()
	var err error
	r.SearchResult, err = bdd.OrderSearch(d, bdd.SearchOptions{Method: opt.Method, Deadline: begin.Add(opt.Budget),
		MaxNodes: opt.MaxNodes, Progress: func(nodes, best int, note string) {
			if opt.Progress != nil {
				opt.Progress(fmt.Sprintf("%s %s: %d nodes now, best %d (start %d), %s", name, note, nodes, best, start,
					time.Since(begin).Round(time.Second)))
			}
		}})
	if err != nil {
		return nil, err
	}
	r.Took = time.Since(begin)
	got := r.Diagram
	if n, err := got.SatCount(); err != nil || n != got.Count {
		return nil, fmt.Errorf("the reordered BDD holds %d members, the set %d (%v)", n, got.Count, err)
	}
	got.Order.Name = orderName(opt.Method, r.StartOrder.Name)
	return r, nil
}

// orderName names a found order after the method and the start, within the
// 32 bytes a .bdd header holds.
func orderName(method, start string) string {
	n := method + ":" + start
	if len(n) > 32 {
		n = n[:32]
	}
	return n
}

// WriteOrder writes the order found (for build --order @FILE).
func (r *Result) WriteOrder(path string) error {
	return bdd.WriteOrderFile(path, r.Diagram.Order, r.Meta.Rows, r.Meta.Cols)
}

func (r *Result) series() []levelplot.Series {
	return []levelplot.Series{{Name: r.StartOrder.Name, Counts: r.StartSizes}, {Name: r.Diagram.Order.Name, Counts: r.LevelSizes}}
}

// WriteLevels writes nodes per level of the start and the found order as CSV.
func (r *Result) WriteLevels(path string) error {
	return atomicfile.WriteFile(path, []byte(levelplot.CSV(r.series())))
}

// WriteChart draws nodes per level of the start and the found order as PNG.
func (r *Result) WriteChart(path string) error {
	png, err := r.chart()
	if err != nil {
		return err
	}
	return atomicfile.WriteFile(path, png)
}

func (r *Result) chart() ([]byte, error) {
	return levelplot.Chart(fmt.Sprintf("%s: nodes per level, %s order and the order %s found (%s)", r.Name, r.StartOrder.Name,
		r.Method, r.Took.Round(time.Second)), r.series())
}

// WriteFiles writes the order, the levels CSV, the chart and the saved BDD
// (see Save, which tells progress) to the paths given, in that order; an
// empty path: not that one. Once ctx is done no file takes its name
// (atomicfile.File.CommitContext): those written before stay, each whole.
func (r *Result) WriteFiles(ctx context.Context, order, levels, chart, saved string, progress func(status string)) error {
	for _, out := range []struct {
		path string
		data func() ([]byte, error)
	}{
		{order, func() ([]byte, error) { return []byte(r.Diagram.Order.Format(r.Meta.Rows, r.Meta.Cols)), nil }},
		{levels, func() ([]byte, error) { return []byte(levelplot.CSV(r.series())), nil }},
		{chart, r.chart},
	} {
		if out.path == "" {
			continue
		}
		b, err := out.data()
		if err == nil {
			err = atomicfile.WriteFileContext(ctx, out.path, b)
		}
		if err != nil {
			return err
		}
	}
	if saved == "" {
		return nil
	}
	return r.save(ctx, saved, progress)
}

// Save counts the ZDD of the set in the found order and saves the BDD with
// it; progress (if set) hears of each stage.
func (r *Result) Save(path string, progress func(status string)) error {
	return r.save(context.Background(), path, progress)
}

func (r *Result) save(ctx context.Context, path string, progress func(status string)) error {
	if progress == nil {
		progress = func(string) {}
	}
	progress(r.Name + ": counting the ZDD")
	z, err := r.Diagram.ZDDOf()
	if err != nil {
		return err
	}
	r.ZDDNodes = z.NodeCount()
	meta := r.Meta
	meta.BuildTime, meta.ZDDNodes = r.Took, uint64(r.ZDDNodes)
	progress(r.Name + ": saving")
	_, err = bdd.SaveContext(ctx, path, r.Diagram, meta)
	return err
}

// Summary is the result as `gapset order` prints it: one line of figures
// ending in "-> out", then the order found as its file holds it.
func (r *Result) Summary(out string) string {
	got := r.Diagram
	s := fmt.Sprintf("%s encoding=%s method=%s start=%s start_nodes=%d nodes=%d ratio=%.4f swaps=%d passes=%d timed_out=%t search=%.1fs",
		r.Name, r.Meta.Encoding, r.Method, r.StartOrder.Name, r.Start, got.NodeCount(), float64(got.NodeCount())/float64(r.Start),
		r.Swaps, r.Passes, r.TimedOut, r.Took.Seconds())
	if r.ZDDNodes > 0 {
		s += fmt.Sprintf(" zdd_nodes=%d", r.ZDDNodes)
	}
	return s + " -> " + out + "\n" + got.Order.Format(r.Meta.Rows, r.Meta.Cols)
}
