package main

import (
	"github.com/gapset/gapset/demo"
	"github.com/gapset/gapset/internal/cmdline"
	"github.com/gapset/gapset/internal/progress"
	"github.com/urfave/cli/v2"
)

func demoCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:  "demo",
		Usage: "the main job on embedded data: build Gap0_8 (exact and BDD), solve shipped instances with md and h_G, print Tables 1 and 2",
		Description: "Needs no files. It enumerates the Gap0 set of the 15-puzzle (88.7M configurations, about\n" +
			"a minute), keeps its projection onto the last 8 cells (Gap0_8) exactly in memory and as a BDD, then\n" +
			"solves Korf's instances 12, 42, 55, 79, 97 with Manhattan distance and with h_G, checks that\n" +
			"both find the same (published) lengths, and prints the Table 1 row and the Table 2\n" +
			"comparison beside the paper's. --small runs the same steps on the 8-puzzle in a second.",
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "quiet", Aliases: []string{"q"}, Usage: "no progress on stderr"},
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
	return demo.Run(e.ctx(), e.stdout, c.Bool("small"), demo.Progress{Update: prog.Update, Done: prog.Done})
}
