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
