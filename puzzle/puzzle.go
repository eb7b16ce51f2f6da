// Package puzzle runs the searches of the small puzzles (the `gapset six`
// and `gapset slide` subcommands) on the generic core of package search and
// returns their records, checked by replaying the solution (package
// report): breadth-first, bidirectional, farthest positions from the goal
// and iterative deepening with or without the puzzle's lower bound.
package puzzle

import (
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
