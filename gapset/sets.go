package gapset

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/gapset/gapset/encode"
	"github.com/gapset/gapset/internal/safe"
	"github.com/gapset/gapset/internal/statedir"
	"github.com/gapset/gapset/internal/sysprobe"
	"github.com/gapset/gapset/keyset"
)

// Progress reports one finished layer of an enumeration.
//
// The enumeration walks reverse moves from the goal. Level j holds the
// configurations of exact gap 2j; its layer at step d holds those with
// Manhattan distance d - 2j, reached by d reverse moves of which exactly j
// lower the distance.
type Progress struct {
	Gap       int           // gap of the layer's members (2j; the residual with a base)
	Manhattan int           // Manhattan distance of the layer's members (the base's h with one)
	Step      int           // reverse moves from the goal: Manhattan + Gap
	Layer     int64         // members of this layer
	Members   int64         // members of all layers finished so far
	Elapsed   time.Duration // since the enumeration started
	RSS       uint64        // resident memory now, bytes (0 if unknown)
	PeakRSS   uint64        // peak resident memory so far, bytes (0 if unknown)
	Phase     string        // "layer" while enumerating, "project"/"merge" afterwards
}

// ErrArgs marks invalid enumeration arguments (board size, gap, cells).
var ErrArgs = errors.New("bad enumeration arguments")

// checkArgs validates the common arguments of Sets and Enumerate.
func checkArgs(rows, cols, maxGap int, cells []int) (*geometry, error) {
	g, err := newGeometry(rows, cols)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrArgs, err)
	}
	if maxGap < 0 || maxGap%2 != 0 || maxGap > keyset.MaxGap {
		return nil, fmt.Errorf("%w: gap %d must be even and in 0..%d", ErrArgs, maxGap, keyset.MaxGap)
	}
	if len(cells) == 0 {
		return nil, fmt.Errorf("%w: no projections asked for (cells is empty)", ErrArgs)
	}
	seen := map[int]bool{}
	for _, k := range cells {
		if k < 1 || k > g.N {
			return nil, fmt.Errorf("%w: cells %d out of range 1..%d for a %dx%d board", ErrArgs, k, g.N, rows, cols)
		}
		if seen[k] {
			return nil, fmt.Errorf("%w: cells %d asked for twice", ErrArgs, k)
		}
		seen[k] = true
	}
	return g, nil
}

// CheckInMemory says why Sets should not enumerate the set of one gap and
// cells in memory here (nil: it may), in the words of gapset build's
// flags: the gap and cells not given (negative), out of range, or a 4x4
// set beyond gap 0, which Enumerate writes to a key-set file instead.
func CheckInMemory(rows, cols, gap, cells int) error {
	switch {
	case gap < 0 || cells < 0:
		return errors.New("give --gap and --cells (the set to enumerate), or --keys FILE")
	case encode.CheckSize(rows, cols) != nil:
		return encode.CheckSize(rows, cols)
	case gap%2 != 0 || cells < 1 || cells > rows*cols:
		return fmt.Errorf("--gap must be even and --cells in 1..%d", rows*cols)
	case gap > 0 && rows*cols == 16:
		return fmt.Errorf("the 4x4 sets with gap %d are too big to enumerate in memory here: enumerate them to a key-set file and pass --keys", gap)
	}
	return nil
}

// Sets enumerates the configurations of a rows x cols board whose gap
// (optimum - Manhattan distance) is at most maxGap (an even number) and
// returns, for each k in cells, the sorted de-duplicated keys projected onto
// the last k cells (k = rows*cols: whole boards).
//
// Everything lives in memory: meant for boards up to 3x4 and for the 4x4
// G0 (88.7M keys, about 0.7 GiB per whole-board set). The 4x4 sets with
// gap 2 and more need Enumerate, which spills to disk.
func Sets(ctx context.Context, rows, cols, maxGap int, cells []int, progress func(Progress)) (map[int][]uint64, error) {
	g, err := checkArgs(rows, cols, maxGap, cells)
	if err != nil {
		return nil, err
	}
	layers, err := memLayers(ctx, rows, cols, maxGap, -1, progress)
	if err != nil {
		return nil, err
	}
	out := make(map[int][]uint64, len(cells))
	var scratch []uint64 // shared by the projections' sorts
	for _, k := range cells {
		out[k], scratch = unionProjected(layers, k, g.N, scratch)
	}
	return out, nil
}

// unionProjected projects every layer onto the last k cells and returns the
// sorted union (and the sort scratch, for reuse).
func unionProjected(layers []memLayer, k, n int, scratch []uint64) ([]uint64, []uint64) {
	total := 0
	for _, l := range layers {
		total += len(l.keys)
	}
	all := make([]uint64, 0, total)
	mask := encode.ProjectMask(k)
	for _, l := range layers {
		for _, v := range l.keys {
			all = append(all, v&mask)
		}
	}
	if len(scratch) < total && total >= 1<<16 {
		scratch = nil
		scratch = make([]uint64, total)
	}
	sortKeys(all, scratch, 4*min(k, n), defaultWorkers())
	if k < n {
		all = dedup(all)
	}
	if len(all) < cap(all)/2 {
		all = slices.Clone(all) // a projection can be far smaller: free the rest
	}
	return slices.Clip(all), scratch
}

// memLayer is one finished layer: level j (gap 2j) at step d.
type memLayer struct {
	level, step int
	keys        []uint64
}

// memLayers runs the layered enumeration in memory and returns every
// non-empty layer. maxStep >= 0 stops after that many reverse moves (tests
// use it to cut the 4x4 enumeration short: level j is then complete up to
// Manhattan distance maxStep - 2j).
func memLayers(ctx context.Context, rows, cols, maxGap, maxStep int, progress func(Progress)) ([]memLayer, error) {
	return memLayersOf(ctx, nil, rows, cols, maxGap, maxStep, progress)
}

// memLayersOf is memLayers layered by a base (nil: Manhattan distance):
// level j's layer at step d holds the configurations with optimum d and
// base d - 2j.
func memLayersOf(ctx context.Context, base Base, rows, cols, maxGap, maxStep int, progress func(Progress)) ([]memLayer, error) {
	g, err := checkArgs(rows, cols, maxGap, []int{rows * cols})
	if err != nil {
		return nil, err
	}
	if base != nil {
		if err := checkBase(base, g, false); err != nil {
			return nil, err
		}
		g = g.withBase(base)
	}
	if ctx == nil {
		ctx = context.Background()
	}
	start := time.Now()
	levels := maxGap/2 + 1
	workers := defaultWorkers()
	// hist[j][d] is level j's layer at step d.
	hist := make([][][]uint64, levels)
	hist[0] = append(hist[0], []uint64{g.goal})
	for j := 1; j < levels; j++ {
		hist[j] = append(hist[j], nil)
	}
	var out []memLayer
	var members int64
	report := func(j, d int, keys []uint64) {
		if len(keys) > 0 {
			out = append(out, memLayer{j, d, keys})
		}
		members += int64(len(keys))
		if progress != nil {
			rss, peak := sysprobe.Memory()
			progress(Progress{Gap: 2 * j, Manhattan: d - 2*j, Step: d, Layer: int64(len(keys)), Members: members,
				Elapsed: time.Since(start), RSS: rss, PeakRSS: peak, Phase: "layer"})
		}
	}
	report(0, 0, hist[0][0])
	var buf, scratch []uint64
	for d := 1; maxStep < 0 || d <= maxStep; d++ {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		grew := false // some level got a new layer at this step
		for j := 0; j < levels; j++ {
			// buf and scratch are reused from layer to layer; the layer
			// itself is stored in a slice of its exact size.
			buf = expandAll(g, hist[j][d-1], true, buf[:0], workers)
			if j > 0 {
				buf = expandAll(g, hist[j-1][d-1], false, buf, workers)
			}
			if err := g.baseErr(); err != nil {
				return nil, err
			}
			if len(scratch) < len(buf) {
				scratch = nil
				scratch = make([]uint64, len(buf))
			}
			sortKeys(buf, scratch, 4*g.N, workers)
			cand := dedup(buf)
			for i := 0; i < j; i++ {
				if s := statedir.LowerStep(i, j, d); s >= 0 {
					cand = subtract(cand, hist[i][s])
				}
			}
			cand = slices.Clone(cand)
			hist[j] = append(hist[j], cand)
			if len(cand) > 0 {
				grew = true
			}
			report(j, d, cand)
		}
		if !grew {
			break
		}
	}
	return out, nil
}

// expandAll appends to out the successors of in that raise (raise = true)
// or lower the Manhattan distance, computed by `workers` goroutines.
func expandAll(g *geometry, in []uint64, raise bool, out []uint64, workers int) []uint64 {
	if len(in) == 0 {
		return out
	}
	if len(in) < 1<<14 {
		workers = 1
	}
	base := len(out)
	out = slices.Grow(out, 4*len(in))[:base+4*len(in)]
	per := (len(in) + workers - 1) / workers
	got := make([]int, workers)
	var wg safe.Group
	for w := 0; w < workers; w++ {
		lo, hi := min(w*per, len(in)), min((w+1)*per, len(in))
		wg.Go(func() {
			dst := out[base+4*lo : base+4*hi]
			if raise {
				got[w] = g.expandRaise(in[lo:hi], dst)
			} else {
				got[w] = g.expandLower(in[lo:hi], dst)
			}
		})
	}
	wg.Wait()
	n := base + got[0]
	for w := 1; w < workers; w++ {
		lo := min(w*per, len(in))
		n += copy(out[n:], out[base+4*lo:base+4*lo+got[w]])
	}
	return out[:n]
}
