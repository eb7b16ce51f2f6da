package ida

import (
	"errors"
	"fmt"

	"github.com/gapset/gapset/encode"
)

// Set answers membership of a board in a gap set. Contains takes the key of
// the whole board (Position.Key); a set stored on fewer cells projects the
// key itself. Implementations must be safe for concurrent readers: one Set
// serves every search of a benchmark.
type Set interface {
	Contains(key uint64) bool
}

// BitTable is a set stored as one bit per pattern of the key's masked bits:
// key&mask indexes the bit. Bits returns the table, read only.
type BitTable interface {
	Bits() (words []uint64, mask uint64)
}

// Masked is implemented by sets stored on fewer cells than the board: Mask
// keeps the bits of the key the set looks at. The evaluator then memoises
// answers by the masked key, so moves outside the set's cells (half of all
// moves for an 8-cell set) are answered from a small cache, not the table.
type Masked interface {
	Mask() uint64
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
	// Filters, when set, holds for some levels a cheaper superset of the
	// level (its projection onto fewer cells: Gap0_8 for Gap0). A board the
	// filter rejects is outside the level without asking the big set; the
	// answers, and so the nodes, stay the same.
	Filters []Set
	// Dense, when set, holds for some levels supersets small enough to be
	// bit tables in the core's caches (the level's projections onto its
	// last 4 and 6 cells: 8 KiB and 2 MiB), smallest first. They are tested
	// before the memo and the filter, the first (with one level, the first
	// two) inline in the search loop:
	// most questions of an IDA* search have the answer "no", and these give
	// most of them in a few nanoseconds. Answers and nodes stay the same.
	Dense [][]BitTable
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
	if len(g.Filters) != 0 && len(g.Filters) != len(g.Levels) {
		return nil, fmt.Errorf("gap heuristic: %d filters for %d levels", len(g.Filters), len(g.Levels))
	}
	if len(g.Dense) != 0 && len(g.Dense) != len(g.Levels) {
		return nil, fmt.Errorf("gap heuristic: %d dense tables for %d levels", len(g.Dense), len(g.Levels))
	}
	geo, err := encode.NewGeometry(rows, cols)
	if err != nil {
		return nil, err
	}
	ev := &gapEval{levels: g.Levels, top: 2 * len(g.Levels), noSkip: g.NoSkip, mul: geo.Flip}
	first := make([]DenseBits, len(g.Levels))
	ev.more = make([][]DenseBits, len(g.Levels))
	for i, tabs := range g.Dense {
		for k, d := range tabs {
			var t DenseBits
			t.Words, t.Mask = d.Bits()
			if k == 0 {
				first[i] = t
			} else {
				ev.more[i] = append(ev.more[i], t)
			}
		}
	}
	ev.loop = GapLoop{Levels: len(g.Levels), NoSkip: g.NoSkip, First: first, Second: first[0], Ask: ev.lookup}
	if len(ev.more[0]) > 0 {
		ev.loop.Second = ev.more[0][0]
	}
	ev.memo = make([]memo, len(g.Levels))
	ev.filters = make([]Set, len(g.Levels))
	copy(ev.filters, g.Filters)
	for i, s := range g.Levels {
		ev.memo[i] = newMemo(maskOf(s), rows*cols)
	}
	if len(g.Filters) > 0 {
		ev.fmemo = make([]memo, len(g.Levels))
		for i, f := range g.Filters {
			if f != nil {
				ev.fmemo[i] = newMemo(maskOf(f), rows*cols)
			}
		}
	}
	return ev, nil
}

func maskOf(s Set) uint64 {
	if m, ok := s.(Masked); ok {
		return m.Mask()
	}
	return ^uint64(0)
}

// gapEval keeps the board's key along the path (two nibbles change per
// move); every bound is a function of the position alone. Its tables and
// counters live in loop, which the specialised loops share (GapLooper).
type gapEval struct {
	levels []Set
	top    int // 2N + 2: the bound's excess over M outside every level
	noSkip bool
	key    uint64         // Position.Key of the current position
	mul    [16][16]uint64 // encode.Geometry.Flip

	loop    GapLoop
	memo    []memo
	filters []Set         // per level, nil or a cheaper superset
	fmemo   []memo        // the filters' memos (nil without filters)
	more    [][]DenseBits // per level, the dense tables after the first
	hits    int64         // set lookups the memos answered
	vetoed  int64         // questions a filter answered "no"
}

// GapLoop implements GapLooper.
func (e *gapEval) GapLoop() *GapLoop { return &e.loop }

// lookup asks level i past its first dense table: the other dense tables,
// the filter (if any), then the set, each of these two through its memo.
func (e *gapEval) lookup(i int, key uint64) bool {
	e.loop.Passed++
	for k := range e.more[i] {
		if !e.more[i][k].Has(key) {
			e.loop.Denied++
			return false
		}
	}
	if f := e.filters[i]; f != nil {
		if !e.ask(f, &e.fmemo[i], key) {
			e.vetoed++
			return false
		}
	}
	return e.ask(e.levels[i], &e.memo[i], key)
}

// full is the exact bound of the evaluator's position.
func (e *gapEval) full(p *Position) int { return e.loop.bound(p.MD, e.key) }

// Root implements Evaluator.
func (e *gapEval) Root(p *Position) int {
	e.key = p.Key()
	return e.full(p)
}

// Push implements Evaluator. The bound lies in [M, M+2N+2], so a node cuts
// (bound > need) for sure when M > need and never when M + 2N + 2 <= need;
// only in between can a query change the decision. There one query decides
// it (the skipping of lower-bound checks, see SkipEvaluator): with d = need - M and
// j = d/2, the bound exceeds need exactly when the board is outside the
// first j+1 levels; the sets are nested (projections of nested sets), so
// asking Levels[j] alone suffices. Outside it the gap exceeds 2j and
// M + 2j + 2 is a valid bound; inside it no cut happens and M is returned.
func (e *gapEval) Push(p *Position, tile uint8, from, to int, need int) int {
	// the blank's nibble is 0, so the tile's two nibbles flip by xor
	e.key ^= uint64(tile) * e.mul[from][to]
	if e.noSkip {
		return e.full(p)
	}
	d := need - p.MD
	if d < 0 || d >= e.top {
		e.loop.Skipped++
		return p.MD
	}
	j := d / 2
	if e.loop.contains(j, e.key) {
		return p.MD
	}
	return p.MD + 2*j + 2
}

// Pop implements Evaluator.
func (e *gapEval) Pop(_ *Position, tile uint8, from, to int) {
	e.key ^= uint64(tile) * e.mul[from][to]
}

// Counters implements CounterReporter.
func (e *gapEval) Counters() map[string]int64 {
	l := &e.loop
	c := map[string]int64{"queries": l.Queries, "skipped": l.Skipped, "memo_hits": e.hits}
	if len(e.fmemo) > 0 {
		c["filtered"] = e.vetoed
	}
	for _, d := range l.First {
		if d.Words != nil {
			// the first tables' "no"s are the questions that never got past
			c["dense_no"] = l.Queries - l.Passed + l.Denied
			break
		}
	}
	return c
}
