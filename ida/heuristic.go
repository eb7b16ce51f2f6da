// Package ida is the optimal IDA* solver for R x C sliding-tile puzzles (up to
// 16 cells) and the Heuristic interface that lower bounds plug into.
//
// The solver always keeps the Manhattan distance of the current position,
// updated incrementally per move. A heuristic that adds nothing to it (plain
// Manhattan distance) runs in a specialised loop with no interface calls; any
// other heuristic supplies an Evaluator that follows the search path with
// Push and Pop, so incremental tables (walking distance, pattern-database
// indices) and lower-bound-check skipping live inside the heuristic, not in
// the search loop.
package ida

import "github.com/gapset/gapset/encode"

// Position is the solver's board while it searches. Evaluators read it; they
// must not change it.
type Position struct {
	Rows, Cols int
	Tiles      [encode.MaxCells]uint8 // Tiles[cell] = tile, 0 = blank
	Blank      int
	MD         int // Manhattan distance of Tiles, kept by the solver
	Depth      int // moves from the root
}

// Key returns the 64-bit key of the position (see encode.Board.Key).
func (p *Position) Key() uint64 { return encode.KeyOf(p.Tiles[:p.Rows*p.Cols]) }

// Heuristic is an admissible lower bound on the number of moves to the goal.
// It is shared by concurrent searches; per-search state lives in Evaluators.
type Heuristic interface {
	// Name is the short name used in reports ("md", "gap0", ...).
	Name() string
	// NewEvaluator returns a fresh evaluator for one search on rows x cols
	// boards, or nil when the heuristic is exactly the Manhattan distance
	// (the solver then runs its specialised loop).
	NewEvaluator(rows, cols int) (Evaluator, error)
}

// Evaluator follows one search path and returns lower bounds along it.
type Evaluator interface {
	// Root resets the evaluator to the root position and returns its bound.
	Root(p *Position) int
	// Push is called after tile moved from cell from into cell to (the
	// blank's old cell); p, including p.MD and p.Depth, is already updated.
	// need is the largest bound that cannot cut this node (limit - depth).
	// Push must return a value above need whenever the true bound is above
	// need; when it can show the true bound is at most need it may return any
	// admissible value without computing it (lower-bound-check skipping).
	Push(p *Position, tile uint8, from, to int, need int) int
	// Pop undoes the last Push; p is already restored.
	Pop(p *Position, tile uint8, from, to int)
}

// Variant is a heuristic searched with search options of its own (the
// duplicate-move automaton, BPMX) under a name of its own, so that a
// benchmark reports it beside the plain heuristic. Solve takes the options
// from it (in addition to its Options) and searches with the heuristic
// inside.
type Variant struct {
	Heuristic
	FSM   *FSM
	BPMX  bool
	Label string
}

// Name implements Heuristic.
func (v Variant) Name() string { return v.Label }

// Prefetcher is implemented by evaluators whose bounds read large tables.
// The general loops call Prefetch when they expand a node, before its first
// child is pushed, with the cells the blank moves to in the children they
// will generate and the need those children will be pushed with.
type Prefetcher interface {
	Prefetch(p *Position, cells []uint8, need int)
}

// CounterReporter is implemented by evaluators that count their work (for
// example queries made and skipped). The solver adds the counts to Result.
type CounterReporter interface {
	Counters() map[string]int64
}

// Manhattan is the Manhattan-distance heuristic.
type Manhattan struct{}

// Name implements Heuristic.
func (Manhattan) Name() string { return "md" }

// NewEvaluator implements Heuristic: nil selects the specialised loop.
func (Manhattan) NewEvaluator(rows, cols int) (Evaluator, error) { return nil, nil }

// GapLooper is implemented by evaluators whose bound is the Manhattan
// distance M plus 2j + 2 for the first of N+1 nested sets j that does not
// hold the board (M + 2N + 2 outside all of them): the gap heuristics. The
// solver then runs a specialised loop that keeps the board's key itself and
// asks the sets only where the answer can change the cut, instead of calling
// Push and Pop (see GapLoop). Other heuristics built on nested sets can
// offer the same contract and get the same loops.
type GapLooper interface {
	GapLoop() *GapLoop
}

// GapLoop is the contract between a gap evaluator and the specialised loops:
// the first dense table of each level (read inline), the question past it,
// and the counters both sides keep. The evaluator owns it; a search reads
// the tables and updates the counters, one search at a time.
type GapLoop struct {
	// Levels is N + 1, the number of nested sets.
	Levels int
	// NoSkip asks every level at every generated child (no skipping).
	NoSkip bool
	// First[j] is level j's first dense table (Words nil: none); Second is
	// level 0's second one (First[0] when there is none). Both are
	// supersets of their level: a 0 bit means "not in the level".
	First  []DenseBits
	Second DenseBits
	// Ask answers whether level j holds the board with key (Position.Key)
	// for a board First[j] lets through; it counts Passed and Denied.
	Ask func(j int, key uint64) bool
	// Counters, updated by the loops and by the evaluator's own Push.
	Queries int64 // membership questions asked
	Passed  int64 // questions past First (or without one)
	Denied  int64 // questions a dense table after First answered "no"
	Skipped int64 // generated children answered without a question
}

// DenseBits is a superset stored as one bit per pattern of a key's masked
// bits (see BitTable); Words nil means no table.
type DenseBits struct {
	Words []uint64
	Mask  uint64
}

// Has reports the bit of key (Words must not be nil).
func (d *DenseBits) Has(key uint64) bool {
	k := key & d.Mask
	return d.Words[k>>6]&(1<<(k&63)) != 0
}
