package main

import (
	"fmt"

	"github.com/gapset/gapset/bdd"
	"github.com/gapset/gapset/internal/cmdline"
	"github.com/gapset/gapset/internal/progress"
	"github.com/urfave/cli/v2"
)

func zddCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:        "zdd",
		Usage:       "count the ZDD nodes of the sets in .bdd files and store the counts in them",
		ArgsUsage:   "FILE...",
		Description: help("zdd"),
		Before:      cmdline.InputArgs,
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "dry-run", Aliases: []string{"n"}, Usage: "print the counts, leave the files alone"},
			quietFlag(),
		},
		Action: func(c *cli.Context) error {
			if c.NArg() == 0 {
				return cmdline.BadInputf("zdd needs at least one .bdd file")
			}
			pr := progress.New(e.stderr, c.Bool("quiet"))
			defer pr.Done()
			// rewritten in place: temporary file, then rename
			if err := e.cleanup.WillUpdate("zdd", c.Args().Slice()...); err != nil {
				return err
			}
			for _, path := range c.Args().Slice() {
				line, err := bdd.CountZDD(path, !c.Bool("dry-run"), func(s string) { pr.Update(0, 0, true, "%s", s) })
				if err != nil {
					return cmdline.InputIf(err, bdd.ErrZDDInput)
				}
				fmt.Fprintln(e.stdout, line)
			}
			return nil
		},
	}
}
