package search

import (
	"errors"
	"time"
)

// Step is one move: the state it leads to and a label for the move (for
// sliding puzzles the piece moved).
type Step[S comparable] struct {
	State S
	Move  int
}

// Problem is a puzzle as the algorithms see it.
type Problem[S comparable] interface {
	// Successors appends the moves out of s to dst and returns it. The
	// order is the search order; it is the puzzle's to choose.
	Successors(s S, dst []Step[S]) []Step[S]
	// Hash returns a hash of s for the open-addressing table; equal states
	// must hash equally. A packed key of the state is a good hash.
	Hash(s S) uint64
}

// Sentinel errors.
var (
	// ErrNotFound: the search exhausted the reachable states (or the depth
	// limit) without reaching the goal.
	ErrNotFound = errors.New("goal not reachable")
	// ErrLimit: Options.MaxStates or Options.MaxNodes was exceeded.
	ErrLimit = errors.New("search limit reached")
	// ErrDepthLimit is wrapped beside ErrNotFound when iterative deepening
	// stops at its depth limit: the goal may lie deeper.
	ErrDepthLimit = errors.New("depth limit reached")
)

// Options tune BFS, Bidirectional and Farthest. The zero value uses Go's
// map and no limits.
type Options struct {
	Dedup Dedup
	// NoUndo skips a successor equal to the state the current one was
	// reached from (for sliding puzzles: never move the same piece twice in
	// a row). Skipped successors are not counted as generated.
	NoUndo bool
	// SizeHint is the expected number of distinct states (0: unknown).
	SizeHint int
	// MaxStates stops the search with ErrLimit once this many states are
	// stored (0: no limit).
	MaxStates int
}

// Result is a path found by a search and the work it took.
type Result[S comparable] struct {
	Path      []S   // start ... goal; nil when not found
	Moves     []int // Moves[i] leads from Path[i] to Path[i+1]
	Generated int64
	Stored    int
	Expanded  int64
	// Iterations holds the passes of iterative deepening.
	Iterations []Iteration
	Elapsed    time.Duration
}

// Length is the number of moves of the path.
func (r Result[S]) Length() int { return len(r.Moves) }

// Iteration is one depth-limited pass of iterative deepening.
type Iteration struct {
	Limit     int   `json:"limit"`
	Expanded  int64 `json:"expanded"`
	Generated int64 `json:"generated"`
}
