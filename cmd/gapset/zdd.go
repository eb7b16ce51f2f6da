package main

import (
	"fmt"
	"os"

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
				pr.Update(0, 0, true, "%s: loading", path)
				d, in, err := bdd.Load(path)
				if err != nil {
					return cmdline.InputIf(err, bdd.ErrFormat, os.ErrNotExist)
				}
				if in.ZDD {
					return cmdline.BadInputf("%s holds a ZDD already", path)
				}
				pr.Update(0, 0, true, "%s: converting %d BDD nodes", path, in.Nodes)
				zn, err := bdd.StoreZDDCount(path, d, in, !c.Bool("dry-run"), func() { pr.Update(0, 0, true, "%s: saving", path) })
				if err != nil {
					return err
				}
				fmt.Fprintf(e.stdout, "%s order=%s patterns=%d nodes=%d zdd_nodes=%d %s\n", in.Name(), in.Order.Name, in.Count, in.Nodes, zn, path)
			}
			return nil
		},
	}
}
