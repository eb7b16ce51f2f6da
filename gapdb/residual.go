package gapdb

import (
	"errors"
	"fmt"

	"github.com/gapset/gapset/ida"
	"github.com/gapset/gapset/keyset"
)

// Residual is h + 2v: a base heuristic h that changes by exactly one on
// every move plus twice the largest entry v (capped at N+1) of databases of
// its residual levels, R<=2j = {s : optimum(s) - h(s) <= 2j} projected
// (gapset.Config.Base): a board whose projection is not in R<=2(j-1)'s
// has optimum - h >= 2j (docs/proofs.md#residual-sets), so the sum is
// admissible, as is its maximum with the gap databases' Manhattan distance
// plus 2v (ida.Max).
//
// As Heuristic does with Manhattan distance, it asks a database only where
// the answer can change the cut: with the base's bound b <= need and d =
// need - b in 0..2N+1, whether every entry is at most d/2.
type Residual struct {
	// Base is h, as a tracker (a pattern database's heuristic): its ID
	// must be every database's Base.
	Base   ida.TrackerMaker
	BaseID keyset.Base
	DBs    []*DB
	// Levels is N+1: levels 0..N (r <= 2N) and N+1 above.
	Levels int
	// Transpose asks each database about the board's transpose too: for a
	// base of the same value on both (symmetric), whose residual is then
	// the same.
	Transpose bool
	// NoSkip computes h + 2v at every node (tests, comparisons).
	NoSkip bool
	Label  string
}

// Name implements ida.Heuristic.
func (h Residual) Name() string {
	if h.Label != "" {
		return h.Label
	}
	return fmt.Sprintf("res%d", 2*h.Levels-2)
}

// NewEvaluator implements ida.Heuristic.
func (h Residual) NewEvaluator(rows, cols int) (ida.Evaluator, error) {
	if h.Base == nil {
		return nil, errors.New("residual heuristic without a base")
	}
	if h.BaseID.IsZero() {
		return nil, errors.New("residual heuristic of Manhattan distance: the gap databases' heuristic is that one")
	}
	for _, d := range h.DBs {
		if d.Both() {
			return nil, fmt.Errorf("%s: %s holds both levels in one entry: the combined heuristic (gapdb.Both) reads it", d.Path, d.Name())
		}
		if d.Base != h.BaseID {
			return nil, fmt.Errorf("%s: %s holds the levels of %s, not of the base %s", d.Path, d.Name(), d.Base, h.BaseID)
		}
	}
	g, err := Heuristic{DBs: h.DBs, Levels: h.Levels, Transpose: h.Transpose, NoSkip: h.NoSkip, NoPrefetch: true}.newEvaluator(rows, cols)
	if err != nil {
		return nil, err
	}
	tr, err := h.Base.NewTracker(rows, cols)
	if err != nil {
		return nil, err
	}
	e := &residualEval{g: g, tr: tr}
	if pf, ok := tr.(ida.TrackerPrefetcher); ok && !h.NoSkip {
		return &residualPrefetch{e, pf}, nil
	}
	return e, nil
}

// residualPrefetch is residualEval over a base that prefetches (a pattern
// database's tracker): before a node's children are pushed, the base's
// entries of all of them are asked for at once (ida.Prefetcher).
type residualPrefetch struct {
	*residualEval
	pf ida.TrackerPrefetcher
}

// Prefetch implements ida.Prefetcher, for every child: Move reads the rank
// changes the tracker keeps for each cell.
func (e *residualPrefetch) Prefetch(p *ida.Position, cells []uint8, _ int) {
	e.pf.Prefetch(p, cells)
}

// residualEval keeps the board's key in g (a gap-database evaluator whose
// Manhattan distance is never read) and the base in tr.
type residualEval struct {
	g  *evaluator
	tr ida.Tracker
}

func (e *residualEval) follow(tile uint8, from, to int) {
	g := e.g
	g.key ^= uint64(tile) * g.geo.Flip[from][to]
	if g.transpose {
		g.rkey ^= uint64(g.tp.Tile[tile]) * g.rmul[from][to]
	}
}

// Root implements ida.Evaluator.
func (e *residualEval) Root(p *ida.Position) int {
	e.tr.Reset(p)
	g := e.g
	g.key = p.Key()
	if g.transpose {
		g.rkey = g.tp.Key(g.key)
	}
	return e.tr.Bound(p, 1<<30) + 2*int(g.value())
}

// Push implements ida.Evaluator: the base's bound b, exact when it does
// not exceed need; then, where b + 2(N+1) > need, whether every entry is
// at most j = (need - b)/2 (b + 2j + 2 when not).
func (e *residualEval) Push(p *ida.Position, tile uint8, from, to int, need int) int {
	e.tr.Move(p, tile, from, to)
	e.follow(tile, from, to)
	g := e.g
	if g.noSkip {
		return e.tr.Bound(p, 1<<30) + 2*int(g.value())
	}
	b := e.tr.Bound(p, need)
	d := need - b
	if d < 0 || d >= g.top {
		g.skipped++
		return b
	}
	j := uint16(d / 2)
	if g.holds(j, nil) {
		return b
	}
	return b + 2*int(j) + 2
}

// Pop implements ida.Evaluator.
func (e *residualEval) Pop(p *ida.Position, tile uint8, from, to int) {
	e.tr.Undo(p, tile, from, to)
	e.follow(tile, from, to)
}

// Counters implements ida.CounterReporter.
func (e *residualEval) Counters() map[string]int64 { return e.g.Counters() }
