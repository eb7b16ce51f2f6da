package ida

// Tracker is a heuristic split into cheap bookkeeping (Move, Undo), done at
// every node, and the possibly expensive bound (Bound), done only when it can
// matter. Lower-bound-check skipping relies on knowing the largest change of
// the bound along one move (1 for a consistent heuristic).
type Tracker interface {
	// Reset follows the root position.
	Reset(p *Position)
	// Move follows a move (same arguments as Evaluator.Push, p updated).
	Move(p *Position, tile uint8, from, to int)
	// Undo reverts the last Move (p already restored).
	Undo(p *Position, tile uint8, from, to int)
	// Bound returns the heuristic value of the current position, or, when
	// it finds part of it already above need, any admissible value above
	// need (the node will be cut, so the rest need not be computed).
	Bound(p *Position, need int) int
}

// TrackerPrefetcher is implemented by trackers whose bounds read large
// tables: Prefetch is told, before a node's children are pushed, the cells
// the blank moves to in each (the tile there moves into the blank's cell),
// so that it can compute their table entries and ask for them ahead of use.
// Several cache misses are then in flight at once, and the first child's
// subtree runs while the later children's entries arrive.
type TrackerPrefetcher interface {
	Prefetch(p *Position, cells []uint8)
}

// TrackerMaker is implemented by heuristics that offer a Tracker; Max uses it
// to skip checks for a whole combination at once.
type TrackerMaker interface {
	NewTracker(rows, cols int) (Tracker, error)
	// TrackerInfo gives the largest change of the bound along one move and
	// whether the bound is never below Manhattan distance.
	TrackerInfo() (step int, geMD bool)
}

// SkipEvaluator turns a Tracker into an Evaluator with the lower-bound-check
// skipping of the web page "PDBを使った15パズル自動解答プログラム" (2000):
// when one move changes the bound by at most step, a
// node whose parent had bounds [lo, hi] has a true bound in
// [lo-step, hi+step]. While hi+step cannot cut (hi+step <= need), the bound is
// not computed; the node gets max(lo-step, Manhattan) when the tracker's
// bound dominates Manhattan distance, else lo-step. Once computed, lo = hi =
// the value. Cut decisions, and so nodes and lengths, are identical to
// computing the bound everywhere.
type SkipEvaluator struct {
	tr      Tracker
	pf      TrackerPrefetcher // tr, when it prefetches
	skip    bool
	step    int
	geMD    bool
	lo, hi  []int
	checks  int64
	skipped int64
}

// NewSkipEvaluator wraps tr. skip=false computes the bound at every node (for
// comparison). step is the largest change of the bound along one move. geMD
// says the bound is never below Manhattan distance, so Manhattan distance can
// be used as a free lower bound while skipping.
func NewSkipEvaluator(tr Tracker, skip bool, step int, geMD bool) *SkipEvaluator {
	pf, _ := tr.(TrackerPrefetcher)
	return &SkipEvaluator{tr: tr, pf: pf, skip: skip, step: max(step, 1), geMD: geMD}
}

// Prefetch implements Prefetcher: the tracker is asked to prefetch only when
// the children's bounds will be computed (skipping decides for all the
// children of a node at once: their need is the same).
func (s *SkipEvaluator) Prefetch(p *Position, cells []uint8, need int) {
	if s.pf == nil || s.skip && s.hi[p.Depth]+s.step <= need {
		return
	}
	s.pf.Prefetch(p, cells)
}

// Root implements Evaluator.
func (s *SkipEvaluator) Root(p *Position) int {
	s.tr.Reset(p)
	h := s.tr.Bound(p, 1<<30)
	s.checks++
	s.lo = append(s.lo[:0], h)
	s.hi = append(s.hi[:0], h)
	return h
}

// Push implements Evaluator.
func (s *SkipEvaluator) Push(p *Position, tile uint8, from, to int, need int) int {
	s.tr.Move(p, tile, from, to)
	d := p.Depth
	lo, hi := s.lo[d-1]-s.step, s.hi[d-1]+s.step
	if s.skip && hi <= need {
		s.skipped++
		if s.geMD && p.MD > lo {
			lo = p.MD
		}
	} else {
		s.checks++
		lo = s.tr.Bound(p, need)
		hi = lo
		if lo > need { // maybe not exact, but the node is cut: no children
			hi = 1 << 30
		}
	}
	if lo < 0 {
		lo = 0
	}
	if len(s.lo) <= d {
		s.lo = append(s.lo, lo)
		s.hi = append(s.hi, hi)
	} else {
		s.lo[d], s.hi[d] = lo, hi
	}
	return lo
}

// Pop implements Evaluator.
func (s *SkipEvaluator) Pop(p *Position, tile uint8, from, to int) {
	s.tr.Undo(p, tile, from, to)
}

// Counters implements CounterReporter: bounds computed and skipped.
func (s *SkipEvaluator) Counters() map[string]int64 {
	return map[string]int64{"checks": s.checks, "skipped": s.skipped}
}
