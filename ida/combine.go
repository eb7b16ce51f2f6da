package ida

import (
	"errors"
	"fmt"

	"github.com/gapset/gapset/encode"
)

// Combined is max(Base, h_G:2N) where Base is a heuristic offering a
// Tracker (a pattern database) and Gap is h_G:2N. With Transpose the gap
// sets are also asked about the board's transpose (its image in the main
// diagonal, tiles renumbered so that the goal maps onto itself): it has the
// same optimum and the same Manhattan distance, so it has the same gap, but
// a projected set sees other cells of it (the last rows of the transpose
// are the last columns of the board).
//
// The gap sets can change the cut decision of a child only where the
// database does not cut (Base <= need) and M + 2N + 2 > need; elsewhere no
// question is asked. With GapFirst the question (a few nanoseconds when a
// dense table answers it) is asked before the database's bound, and a "no"
// saves the database lookup (a cache miss); otherwise the database goes
// first and a question is asked only where it does not cut. Both orders
// make the same cut decisions; only the value returned on a cut (and so,
// rarely, the next iteration's limit) can differ.
type Combined struct {
	Base TrackerMaker
	// Gap is h_G:2N: an ida.Gap, or any heuristic whose evaluator offers
	// the same contract (GapLooper; the gap databases' do).
	Gap       Heuristic
	Transpose bool
	GapFirst  bool
	// NoSkip computes the database's bound and every gap level (of the board
	// and, with Transpose, its transpose) at every node: the exact maximum,
	// for tests and comparisons.
	NoSkip bool
	Label  string
}

// Name implements Heuristic.
func (c Combined) Name() string {
	if c.Label != "" {
		return c.Label
	}
	base := "base"
	if h, ok := c.Base.(Heuristic); ok {
		base = h.Name()
	}
	gap := "gap"
	if c.Gap != nil {
		gap = c.Gap.Name()
	}
	name := base + "+" + gap
	if c.Transpose {
		name += "r"
	}
	return name
}

// NewEvaluator implements Heuristic.
func (c Combined) NewEvaluator(rows, cols int) (Evaluator, error) {
	if c.Base == nil {
		return nil, errors.New("combined heuristic without a base")
	}
	if c.Gap == nil {
		return nil, errors.New("combined heuristic without gap sets")
	}
	if c.Transpose && rows != cols {
		return nil, fmt.Errorf("the transposed gap query needs a square board, not %dx%d", rows, cols)
	}
	tr, err := c.Base.NewTracker(rows, cols)
	if err != nil {
		return nil, err
	}
	gev, err := c.Gap.NewEvaluator(rows, cols)
	if err != nil {
		return nil, err
	}
	gl, ok := gev.(GapLooper)
	if !ok {
		return nil, errors.New("combined heuristic: the gap evaluator offers no GapLoop")
	}
	geo, err := encode.NewGeometry(rows, cols)
	if err != nil {
		return nil, err
	}
	step, geMD := c.Base.TrackerInfo()
	e := &combinedEval{tr: tr, gev: gev, gap: gl.GapLoop(), step: max(step, 1), geMD: geMD,
		transpose: c.Transpose, gapFirst: c.GapFirst, noSkip: c.NoSkip, mul: geo.Flip, delta: &geo.Delta}
	e.top = 2 * e.gap.Levels
	if c.Transpose {
		tp, err := encode.NewSquareTransposition(rows, cols)
		if err != nil {
			return nil, err
		}
		e.tp = *tp // by value: Push reads its tile map
		n := rows * cols
		for a := 0; a < n; a++ {
			for b := 0; b < n; b++ {
				e.rmul[a][b] = e.mul[e.tp.Cell[a]][e.tp.Cell[b]]
			}
		}
	}
	if c.NoSkip {
		return e, nil
	}
	gpf, _ := gev.(GapPrefetcher)
	e.pf, _ = tr.(TrackerPrefetcher)
	if gpf != nil || e.pf != nil {
		return &combinedPrefetch{combinedEval: e, gpf: gpf}, nil
	}
	return e, nil
}

// GapPrefetcher is implemented by gap evaluators whose levels are read
// from large tables (the gap databases): PrefetchKey asks for the cache
// lines the question "does level j hold the board with this key?" will
// read (none where a filter in cache will answer it).
type GapPrefetcher interface {
	PrefetchKey(key uint64, j int)
}

// combinedPrefetch is combinedEval over a database tracker or a gap
// evaluator that prefetches (gpf nil: only the tracker does).
type combinedPrefetch struct {
	*combinedEval
	gpf GapPrefetcher
}

// Prefetch implements Prefetcher: the database entries of the children,
// unless the skipping will not compute their bound (as SkipEvaluator), and
// the gap entries of the children whose question can change the cut (need
// - M in 0..2N+1), and of their transposes, are asked for before the
// children are pushed.
func (e *combinedPrefetch) Prefetch(p *Position, cells []uint8, need int) {
	if e.pf != nil && e.hi[p.Depth]+e.step > need {
		e.pf.Prefetch(p, cells)
	}
	if e.gpf == nil {
		return
	}
	blank := p.Blank
	for _, c := range cells {
		t := p.Tiles[c]
		x := need - (p.MD + int(e.delta[t][c][blank]))
		if x < 0 || x >= e.top {
			continue
		}
		e.gpf.PrefetchKey(e.key^uint64(t)*e.mul[c][blank], x>>1)
		if e.transpose {
			e.gpf.PrefetchKey(e.rkey^uint64(e.tp.Tile[t])*e.rmul[c][blank], x>>1)
		}
	}
}

// slackBins is the number of bins of combinedEval.slack: need - M of 0-1,
// 2-3, ..., 18 or more (h_G:2N for N up to 8 has a bin of its own).
const slackBins = 10

// combinedEval follows the database's tracker (with the lower-bound-check
// skipping of SkipEvaluator), the board's key and, with transpose, the
// transpose's key; the gap sets are asked through the gap evaluator's GapLoop.
type combinedEval struct {
	tr        Tracker
	pf        TrackerPrefetcher // tr, when it prefetches (set when the search skips)
	gev       Evaluator
	gap       *GapLoop
	top       int // 2N + 2
	key       uint64
	mul       [16][16]uint64
	delta     *[16][16][16]int8 // encode.Geometry.Delta
	step      int
	geMD      bool
	transpose bool
	gapFirst  bool
	noSkip    bool
	lo, hi    []int // the database's bounds per depth (see SkipEvaluator)
	rkey      uint64
	tp        encode.Transposition // the transpose, with transpose
	rmul      [16][16]uint64

	checks        int64 // database bounds computed
	baseSkip      int64 // database bounds skipped (cannot cut)
	saved         int64 // database bounds not computed because the gap sets cut
	noAskMD       int64 // pushes without a question: Manhattan distance cuts
	noAskBase     int64 // ... the database cuts
	noAskRange    int64 // ... M + 2N + 2 <= need: the gap sets cannot cut
	cuts          int64 // children cut by the board's gap query
	transposeCuts int64 // children cut by the transpose's query alone
	asked         int64 // pushes that asked (asked + skipped = pushes)
	// slack[k]: pushes (database first) the database let through with
	// need - M in [2k, 2k+1] (the last bin: 2k or more); h_G:2N can cut
	// such a push only when N >= k.
	slack [slackBins]int64
}

// transposeKey is Position.Key of p's transpose.
func (e *combinedEval) transposeKey(p *Position) uint64 { return e.tp.Key(p.Key()) }

// gapExact is the exact h_G:2N bound, the larger of the board's and its
// transpose's.
func (e *combinedEval) gapExact(md int) int {
	b := e.gap.bound(md, e.key)
	if e.transpose {
		b = max(b, e.gap.bound(md, e.rkey))
	}
	return b
}

// Root implements Evaluator.
func (e *combinedEval) Root(p *Position) int {
	e.tr.Reset(p)
	e.key = p.Key()
	if e.transpose {
		e.rkey = e.transposeKey(p)
	}
	h := max(e.tr.Bound(p, 1<<30), e.gapExact(p.MD))
	e.checks++
	e.lo = append(e.lo[:0], h)
	e.hi = append(e.hi[:0], h)
	return h
}

// excess asks the gap sets whether a board with need - M = x (0 <= x <
// 2N + 2) has a gap above x: level j = x/2 alone decides it (see
// gapEval.Push). It returns 2j + 2 when the board or its transpose is
// outside level j (the bound is then M + 2j + 2 > need), else 0.
func (e *combinedEval) excess(x int) int {
	e.asked++
	j := x >> 1
	if !e.gap.contains(j, e.key) {
		e.cuts++
		return 2*j + 2
	}
	if e.transpose && !e.gap.contains(j, e.rkey) {
		e.transposeCuts++
		return 2*j + 2
	}
	return 0
}

// Push implements Evaluator.
func (e *combinedEval) Push(p *Position, tile uint8, from, to int, need int) int {
	e.tr.Move(p, tile, from, to)
	e.key ^= uint64(tile) * e.mul[from][to]
	if e.transpose {
		e.rkey ^= uint64(e.tp.Tile[tile]) * e.rmul[from][to]
	}
	d := p.Depth
	if e.noSkip {
		h := max(e.tr.Bound(p, 1<<30), e.gapExact(p.MD))
		e.checks++
		e.keep(d, h, h)
		return h
	}
	x := need - p.MD
	if x < 0 {
		e.noAskMD++
		return p.MD // cut by Manhattan distance: no children, no bounds kept
	}
	ask := x < e.top
	if e.gapFirst && ask {
		if b := e.excess(x); b > 0 {
			e.saved++
			return p.MD + b
		}
	}
	lo, hi := e.lo[d-1]-e.step, e.hi[d-1]+e.step
	if hi <= need {
		e.baseSkip++
		if e.geMD && p.MD > lo {
			lo = p.MD
		}
	} else {
		e.checks++
		lo = e.tr.Bound(p, need)
		hi = lo
		if lo > need {
			if !e.gapFirst {
				e.noAskBase++
			} else if !ask {
				e.noAskRange++
			}
			return lo // cut: no children, no bounds kept
		}
	}
	lo = max(lo, 0)
	e.keep(d, lo, hi)
	if !e.gapFirst {
		e.slack[min(x>>1, slackBins-1)]++
	}
	if e.gapFirst {
		if !ask {
			e.noAskRange++
		}
		return lo
	}
	if !ask {
		e.noAskRange++
		return lo
	}
	if b := e.excess(x); b > 0 {
		return max(lo, p.MD+b)
	}
	return lo
}

// keep records the database's bounds [lo, hi] at depth d.
func (e *combinedEval) keep(d, lo, hi int) {
	if len(e.lo) <= d {
		e.lo = append(e.lo, lo)
		e.hi = append(e.hi, hi)
	} else {
		e.lo[d], e.hi[d] = lo, hi
	}
}

// Pop implements Evaluator.
func (e *combinedEval) Pop(p *Position, tile uint8, from, to int) {
	e.tr.Undo(p, tile, from, to)
	e.key ^= uint64(tile) * e.mul[from][to]
	if e.transpose {
		e.rkey ^= uint64(e.tp.Tile[tile]) * e.rmul[from][to]
	}
}

// Counters implements CounterReporter. queries are gap-set questions (the
// board's and the transpose's); asked and skipped are the pushes that
// asked some and none.
func (e *combinedEval) Counters() map[string]int64 {
	c := map[string]int64{
		"queries":          e.gap.Queries,
		"asked":            e.asked,
		"skipped":          e.noAskMD + e.noAskBase + e.noAskRange,
		"skipped_md":       e.noAskMD,
		"skipped_base_cut": e.noAskBase,
		"skipped_range":    e.noAskRange,
		"gap_cuts":         e.cuts,
		"base_checks":      e.checks,
		"base_skipped":     e.baseSkip,
	}
	if e.transpose {
		c["mirror_cuts"] = e.transposeCuts // the name of the committed results
	}
	if e.gapFirst {
		c["base_saved"] = e.saved
	} else {
		for k, v := range e.slack {
			name := fmt.Sprintf("slack_%d", 2*k)
			if k == slackBins-1 {
				name += "+"
			}
			c[name] = v
		}
	}
	if cr, ok := e.gev.(CounterReporter); ok {
		gc := cr.Counters()
		for _, k := range []string{"memo_hits", "dense_no", "filtered"} {
			if v, ok := gc[k]; ok {
				c[k] = v
			}
		}
	}
	return c
}
