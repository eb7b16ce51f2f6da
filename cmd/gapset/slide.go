package main

import (
	"fmt"

	"github.com/gapset/gapset/encode"
	"github.com/gapset/gapset/internal/cmdline"
	"github.com/gapset/gapset/puzzle"
	"github.com/gapset/gapset/puzzle/slide"
	"github.com/gapset/gapset/search"
	"github.com/urfave/cli/v2"
)

func slideCommand(e *env) *cli.Command {
	setup := func(c *cli.Context) (boardPuzzle[slide.State], error) {
		p, err := slide.New(c.Int("rows"), c.Int("cols"))
		if err != nil {
			return boardPuzzle[slide.State]{}, cmdline.BadInput(err)
		}
		return boardPuzzle[slide.State]{
			OneGoal: puzzle.OneGoal[slide.State]{Problem: p, Spec: p.Spec(), Goal: p.Goal(),
				Bound: func() search.Bound[slide.State] { return p.Manhattan() }},
			what: fmt.Sprintf("board (%d numbers, blank 0)", p.Rows()*p.Cols()),
			parse: func(s string) (slide.State, error) {
				b, err := encode.Parse(s, p.Rows(), p.Cols())
				if err != nil {
					return slide.State{}, err
				}
				return p.State(b), nil
			},
		}, nil
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
