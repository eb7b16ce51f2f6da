package main

import (
	"errors"
	"fmt"
	"os"
	"runtime"

	"github.com/gapset/gapset/heuristic"
	"github.com/gapset/gapset/internal/cmdline"
	"github.com/urfave/cli/v2"
)

func verifyCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:      "verify",
		Usage:     "check key-set, BDD and pattern database files in full (slow)",
		ArgsUsage: "FILE...",
		Description: "The full checks, beyond those every load runs: key sets and BDDs are compared with the set\n" +
			"enumerated again where it fits in memory (boards of at most 12 cells, or gap 0); a BDD's\n" +
			"structure, count, order name and ZDD count are checked; a pattern database is built again and\n" +
			"compared entry by entry. One line per file; exit 2 at the first file that fails.",
		Flags: []cli.Flag{
			&cli.IntFlag{Name: "workers", Value: runtime.NumCPU(), Usage: "goroutines for rebuilding large pattern databases"},
		},
		Action: func(c *cli.Context) error {
			if c.NArg() == 0 {
				return cmdline.BadInputf("verify needs at least one file")
			}
			if err := cmdline.InRange("--workers", c.Int("workers"), 1, maxWorkers); err != nil {
				return err
			}
			for _, path := range c.Args().Slice() {
				msg, err := heuristic.VerifyFile(e.ctx(), path, c.Int("workers"))
				if errors.Is(err, heuristic.ErrVerify) || errors.Is(err, os.ErrNotExist) {
					return cmdline.BadInput(err)
				}
				if err != nil {
					return fmt.Errorf("%s: %w", path, err)
				}
				fmt.Fprintln(e.stdout, msg)
			}
			return nil
		},
	}
}
