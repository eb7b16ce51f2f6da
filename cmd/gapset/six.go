package main

import (
	"github.com/gapset/gapset/puzzle"
	"github.com/gapset/gapset/puzzle/six"
	"github.com/urfave/cli/v2"
)

func sixCommand(e *env) *cli.Command {
	setup := func(*cli.Context) (puzzle.OneGoal[six.Board], error) { return six.OneGoal(), nil }
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
