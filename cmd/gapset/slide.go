package main

import (
	"github.com/gapset/gapset/internal/cmdline"
	"github.com/gapset/gapset/puzzle"
	"github.com/gapset/gapset/puzzle/slide"
	"github.com/urfave/cli/v2"
)

func slideCommand(e *env) *cli.Command {
	setup := func(c *cli.Context) (puzzle.OneGoal[slide.State], error) {
		p, err := slide.OneGoal(c.Int("rows"), c.Int("cols"))
		return p, cmdline.BadInput(err)
	}
	return &cli.Command{
		Name:        "slide",
		Usage:       "R x C sliding boards (2x3, 3x3, ...) with the generic search core",
		Description: help("slide"),
		Flags:       withSize(3, 3),
		Subcommands: boardCommands(e, setup, [4]string{
			"breadth-first search with parent links",
			"bidirectional breadth-first search",
			"breadth-first search from the goal to exhaustion: the hardest boards",
			"iterative deepening, optionally with the Manhattan distance as lower bound",
		}),
	}
}
