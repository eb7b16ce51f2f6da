package main

import (
	"fmt"

	"github.com/gapset/gapset/data"
	"github.com/gapset/gapset/encode"
	"github.com/gapset/gapset/ida"
	"github.com/urfave/cli/v2"
)

// demoIDs are Korf instances quick enough for a demo on any machine.
var demoIDs = []string{"12", "42", "55", "79", "97"}

func demoCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:  "demo",
		Usage: "the main job on embedded data: solve shipped instances and print the report",
		Description: "Needs no files: the instances are embedded in the binary.\n" +
			"Solves a handful of Korf's instances optimally and prints a Markdown table.",
		Flags: []cli.Flag{&cli.BoolFlag{Name: "quiet", Aliases: []string{"q"}, Usage: "no progress on stderr"}},
		Action: func(c *cli.Context) error {
			prog := newProgress(e.stderr, c.Bool("quiet"))
			var insts []encode.Instance
			for _, in := range data.Korf100() {
				for _, id := range demoIDs {
					if in.ID == id {
						insts = append(insts, in)
					}
				}
			}
			fmt.Fprintln(e.stdout, "## Korf instances solved optimally (Manhattan distance)")
			fmt.Fprintln(e.stdout)
			fmt.Fprintln(e.stdout, "| id | length | nodes | seconds |")
			fmt.Fprintln(e.stdout, "|---|---|---|---|")
			for i, in := range insts {
				prog.update(int64(i), int64(len(insts)), true, "solving korf %s", in.ID)
				res, err := ida.Solve(in.Board, ida.Manhattan{}, ida.Options{})
				if err != nil {
					return err
				}
				fmt.Fprintf(e.stdout, "| %s | %d | %d | %s |\n", in.ID, res.Length, res.Expanded, seconds(res.Elapsed.Seconds()))
			}
			prog.done()
			return nil
		},
	}
}
