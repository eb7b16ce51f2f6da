package main

import (
	"github.com/gapset/gapset/internal/cmdline"
	"github.com/gapset/gapset/puzzle/oshidori"
	"github.com/urfave/cli/v2"
)

func oshidoriCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:        "oshidori",
		Usage:       "the oshidori stone-pair puzzle (M. Hiroi's breadth-first search page) by breadth-first search",
		ArgsUsage:   "[START]",
		Description: help("oshidori"),
		Flags: append(bfsFlags(false),
			&cli.StringFlag{Name: "goal", Value: "B B B W W W _ _", Usage: "the goal row"},
			&cli.BoolFlag{Name: "free-gap", Usage: "the empty pair may end anywhere: only the order of the stones must match the goal"},
			&cli.BoolFlag{Name: "bidir", Usage: "bidirectional search (not with --free-gap)"},
		),
		Action: func(c *cli.Context) error {
			if err := cmdline.CheckFormat(c.String("format"), "text", "json"); err != nil {
				return err
			}
			opt, err := searchOptions(c)
			if err != nil {
				return err
			}
			startText := "B W B W B W _ _"
			if c.NArg() > 0 {
				startText, _ = joinArgs(c, "start")
			}
			start, err := oshidori.Parse(startText)
			if err != nil {
				return cmdline.BadInputf("start: %v", err)
			}
			target, err := oshidori.Parse(c.String("goal"))
			if err != nil {
				return cmdline.BadInputf("--goal: %v", err)
			}
			free, bidir := c.Bool("free-gap"), c.Bool("bidir")
			if _, err := oshidori.Goal(start, target, free); err != nil {
				return cmdline.BadInput(err)
			}
			if bidir && free {
				return cmdline.BadInputf("--bidir needs one goal row; it cannot be combined with --free-gap")
			}
			rec, err := oshidori.Solve(start, target, free, bidir, opt)
			if err != nil {
				return searchError(err)
			}
			return rec.Write(e.stdout, c.String("format"))
		},
	}
}
