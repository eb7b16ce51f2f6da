package main

import (
	"math/rand/v2"
	"strconv"

	"github.com/gapset/gapset/encode"
	"github.com/gapset/gapset/internal/cmdline"
	"github.com/urfave/cli/v2"
)

func genCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:        "gen",
		Usage:       "generate random solvable instances",
		Description: help("gen"),
		Flags: []cli.Flag{
			&cli.IntFlag{Name: "count", Aliases: []string{"n"}, Value: 10, Usage: "number of boards"},
			&cli.Uint64Flag{Name: "seed", Value: 1, Usage: "random seed"},
			&cli.IntFlag{Name: "rows", Value: 4, Usage: "board rows"},
			&cli.IntFlag{Name: "cols", Value: 4, Usage: "board columns"},
		},
		Action: func(c *cli.Context) error {
			if err := cmdline.NoArgs(c); err != nil {
				return err
			}
			rows, cols, n := c.Int("rows"), c.Int("cols"), c.Int("count")
			if err := encode.CheckSize(rows, cols); err != nil {
				return cmdline.BadInput(err)
			}
			if n < 0 {
				return cmdline.BadInputf("--count must be at least 0, got %d", n)
			}
			seed := c.Uint64("seed")
			rng := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
			insts := make([]encode.Instance, n)
			for i := range insts {
				insts[i] = encode.Instance{ID: strconv.Itoa(i + 1), Board: encode.Random(rng, rows, cols)}
			}
			return encode.WriteInstances(e.stdout, insts)
		},
	}
}
