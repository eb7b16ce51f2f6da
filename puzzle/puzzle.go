// Package puzzle runs the searches of the small puzzles (the `gapset six`
// and `gapset slide` subcommands) on the generic core of package search and
// returns their records, checked by replaying the solution (package
// report): breadth-first, bidirectional, farthest positions from the goal
// and iterative deepening with or without the puzzle's lower bound.
package puzzle

import (
	"io"

	"github.com/gapset/gapset/puzzle/report"
	"github.com/gapset/gapset/search"
)

// OneGoal is a puzzle with one goal state.
type OneGoal[S comparable] struct {
	Problem search.Problem[S]
	Spec    report.Spec[S] // Spec.Goal tests for Goal
	Goal    S
	// Bound makes the admissible lower bound of iterative deepening.
	Bound func() search.Bound[S]
	// Parse reads a board written as text; What names such a board in
	// messages ("board (7 numbers, ...)").
	Parse func(string) (S, error)
	What  string
}

// Record is a search's checked result: report.Path or report.Farthest.
type Record interface {
	Write(w io.Writer, format string) error
}

// Methods are the searches Run runs: breadth-first ("solve"),
// bidirectional, farthest (from the goal, no start) and iterative
// deepening ("ida").
var Methods = [4]string{"solve", "bidir", "farthest", "ida"}

// Run runs one of Methods from start: opt for the breadth-first ones,
// dopt and lowerBound for iterative deepening.
func (p OneGoal[S]) Run(method string, start S, opt search.Options, dopt search.DeepenOptions, lowerBound bool) (Record, error) {
	switch method {
	case "solve":
		return p.BFS(start, opt)
	case "bidir":
		return p.Bidirectional(start, opt)
	case "farthest":
		return p.Farthest(opt)
	}
	return p.Deepen(start, lowerBound, dopt)
}

// BFS solves from start by breadth-first search with parent links.
func (p OneGoal[S]) BFS(start S, opt search.Options) (report.Path, error) {
	r, err := search.BFS(p.Problem, start, p.Spec.Goal, opt)
	return p.path(report.Path{Method: "bfs", Dedup: opt.Dedup.String(), NoUndo: opt.NoUndo}, r, err)
}

// Bidirectional solves from start by bidirectional breadth-first search.
func (p OneGoal[S]) Bidirectional(start S, opt search.Options) (report.Path, error) {
	r, err := search.Bidirectional(p.Problem, start, p.Goal, opt)
	return p.path(report.Path{Method: "bidir", Dedup: opt.Dedup.String(), NoUndo: opt.NoUndo}, r, err)
}

// Deepen solves from start by iterative deepening, pruned by the lower
// bound when lowerBound is set.
func (p OneGoal[S]) Deepen(start S, lowerBound bool, opt search.DeepenOptions) (report.Path, error) {
	var lb search.Bound[S]
	if lowerBound {
		lb = p.Bound()
	}
	r, err := search.IterativeDeepening(p.Problem, start, p.Spec.Goal, lb, opt)
	return p.path(report.Path{Method: "iterative-deepening", NoUndo: opt.NoUndo, LowerBound: &lowerBound}, r, err)
}

// Farthest searches from the goal to exhaustion: the hardest positions.
func (p OneGoal[S]) Farthest(opt search.Options) (report.Farthest, error) {
	l, err := search.Farthest(p.Problem, p.Goal, opt)
	if err != nil {
		return report.Farthest{}, err
	}
	return p.Spec.Farthest(p.Goal, l, opt), nil
}

func (p OneGoal[S]) path(rec report.Path, r search.Result[S], err error) (report.Path, error) {
	if err != nil {
		return report.Path{}, err
	}
	rec.Goal = p.Spec.Format(p.Goal)
	return p.Spec.Path(rec, r)
}
