package main

import (
	"github.com/gapset/gapset/demo"
	"github.com/gapset/gapset/internal/cmdline"
	"github.com/gapset/gapset/internal/progress"
	"github.com/urfave/cli/v2"
)

func demoCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:        "demo",
		Usage:       "the main job on embedded data: build Gap0_8 (exact and BDD), solve shipped instances with md and h_G, print Tables 1 and 2",
		Description: help("demo"),
		Flags: []cli.Flag{
			quietFlag(),
			&cli.BoolFlag{Name: "small", Usage: "the 3x3 board (Gap0_4, 20 random instances) instead of the 15-puzzle"},
		},
		Action: func(c *cli.Context) error { return runDemo(c, e) },
	}
}

func runDemo(c *cli.Context, e *env) error {
	if err := cmdline.NoArgs(c); err != nil {
		return err
	}
	prog := progress.New(e.stderr, c.Bool("quiet"))
	return demo.Run(e.context, e.stdout, c.Bool("small"), demo.Progress{Update: prog.Update, Done: prog.Done})
}
