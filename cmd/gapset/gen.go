package main

import (
	"github.com/gapset/gapset/encode"
	"github.com/gapset/gapset/internal/cmdline"
	"github.com/urfave/cli/v2"
)

func genCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:        "gen",
		Usage:       "generate random solvable instances",
		Description: help("gen"),
		Flags: withSize(4, 4,
			&cli.IntFlag{Name: "count", Aliases: []string{"n"}, Value: 10, Usage: "number of boards"},
			&cli.Uint64Flag{Name: "seed", Value: 1, Usage: "random seed"},
		),
		Action: func(c *cli.Context) error {
			if err := cmdline.NoArgs(c); err != nil {
				return err
			}
			rows, cols, n := c.Int("rows"), c.Int("cols"), c.Int("count") // the size checked by withSize
			if n < 0 {
				return cmdline.BadInputf("--count must be at least 0, got %d", n)
			}
			return encode.WriteInstances(e.stdout, encode.RandomInstances(c.Uint64("seed"), n, rows, cols))
		},
	}
}
