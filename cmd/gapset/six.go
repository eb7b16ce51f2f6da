package main

import (
	"github.com/gapset/gapset/puzzle"
	"github.com/gapset/gapset/puzzle/six"
	"github.com/gapset/gapset/search"
	"github.com/urfave/cli/v2"
)

func sixCommand(e *env) *cli.Command {
	setup := func(*cli.Context) (boardPuzzle[six.Board], error) {
		return boardPuzzle[six.Board]{
			OneGoal: puzzle.OneGoal[six.Board]{Problem: six.Puzzle{}, Spec: six.Spec(), Goal: six.Goal(),
				Bound: func() search.Bound[six.Board] { return six.NewBound() }},
			what: "board (7 numbers, e.g. \"1 5 2 6 3 4 0\")", parse: six.Parse,
		}, nil
	}
	return &cli.Command{
		Name:        "six",
		Usage:       "the 6-puzzle on its hexagonal graph (M. Hiroi's breadth-first search pages)",
		Description: help("six"),
		Subcommands: boardCommands(e, setup, [4]string{
			"breadth-first search with parent links",
			"bidirectional breadth-first search (one queue, a side per entry)",
			"breadth-first search from the goal to exhaustion: the hardest positions",
			"iterative deepening, optionally with the lower bound (sum of graph distances home)",
		}),
	}
}
