package ida

import (
	"errors"
	"fmt"
)

// Set answers membership of a board in a gap set. Contains takes the key of
// the whole board (Position.Key); a set stored on fewer cells projects the
// key itself. Implementations must be safe for concurrent readers: one Set
// serves every search of a benchmark.
type Set interface {
	Contains(key uint64) bool
}

// Gap is the gap-set heuristic h_G:2N of Hasegawa & Yamamoto. Levels[i] must
// hold (a superset of) every configuration whose optimum exceeds its
// Manhattan distance M by at most 2i: Levels[0] a Gap0 set, Levels[1] a Gap2
// set, and so on. The bound is M + 2i for the first level i containing the
// board, and M + 2N + 2 when no level contains it (N = len(Levels) - 1).
// Supersets (projected sets) keep it admissible, because a board of gap 2m
// is in Levels[m] and so gets at most M + 2m.
//
// With one level this is h_G; with two, the paper's h_G:2.
type Gap struct {
	// Label is the report name; empty gives "gap0", "gap2", ... by levels.
	Label  string
	Levels []Set
	// NoSkip evaluates every level at every node instead of only where the
	// answer can change the cut decision (for comparison and tests).
	NoSkip bool
}

// Name implements Heuristic.
func (g Gap) Name() string {
	if g.Label != "" {
		return g.Label
	}
	return fmt.Sprintf("gap%d", 2*(len(g.Levels)-1))
}

// NewEvaluator implements Heuristic.
func (g Gap) NewEvaluator(rows, cols int) (Evaluator, error) {
	if len(g.Levels) == 0 {
		return nil, errors.New("gap heuristic without sets")
	}
	for i, s := range g.Levels {
		if s == nil {
			return nil, fmt.Errorf("gap heuristic: level %d has no set", i)
		}
	}
	ev := &gapEval{levels: g.Levels, top: 2 * len(g.Levels), noSkip: g.NoSkip}
	n := rows * cols
	for c := 0; c < n; c++ {
		ev.shift[c] = uint8(4 * (n - 1 - c))
	}
	return ev, nil
}

// gapEval keeps the board's key along the path (two nibbles change per
// move); every bound is a function of the position alone.
type gapEval struct {
	levels  []Set
	top     int // 2N + 2: the bound's excess over M outside every level
	noSkip  bool
	key     uint64 // Position.Key of the current position
	shift   [16]uint8
	queries int64 // Contains calls
	skipped int64 // pushes answered without any Contains call
}

// full is the exact bound: the first level containing the board.
func (e *gapEval) full(p *Position) int {
	key := e.key
	for i, s := range e.levels {
		e.queries++
		if s.Contains(key) {
			return p.MD + 2*i
		}
	}
	return p.MD + e.top
}

// Root implements Evaluator.
func (e *gapEval) Root(p *Position) int {
	e.key = p.Key()
	return e.full(p)
}

// Push implements Evaluator. The bound lies in [M, M+2N+2], so a node cuts
// (bound > need) for sure when M > need and never when M + 2N + 2 <= need;
// only in between can a query change the decision. There one query decides
// it (seed 002's skipping of lower-bound checks): with d = need - M and
// j = d/2, the bound exceeds need exactly when the board is outside the
// first j+1 levels; the sets are nested (projections of nested sets), so
// asking Levels[j] alone suffices. Outside it the gap exceeds 2j and
// M + 2j + 2 is a valid bound; inside it no cut happens and M is returned.
func (e *gapEval) Push(p *Position, tile uint8, from, to int, need int) int {
	// the blank's nibble is 0, so the tile's two nibbles flip by xor
	e.key ^= uint64(tile)<<e.shift[from] | uint64(tile)<<e.shift[to]
	if e.noSkip {
		return e.full(p)
	}
	d := need - p.MD
	if d < 0 || d >= e.top {
		e.skipped++
		return p.MD
	}
	j := d / 2
	e.queries++
	if e.levels[j].Contains(e.key) {
		return p.MD
	}
	return p.MD + 2*j + 2
}

// Pop implements Evaluator.
func (e *gapEval) Pop(_ *Position, tile uint8, from, to int) {
	e.key ^= uint64(tile)<<e.shift[from] | uint64(tile)<<e.shift[to]
}

// Counters implements CounterReporter.
func (e *gapEval) Counters() map[string]int64 {
	return map[string]int64{"queries": e.queries, "skipped": e.skipped}
}
