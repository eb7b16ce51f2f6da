package main

import (
	"errors"
	"fmt"
	"os"
	"runtime"

	"github.com/gapset/gapset/internal/cmdline"
	"github.com/gapset/gapset/verify"
	"github.com/urfave/cli/v2"
)

func verifyCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:        "verify",
		Usage:       "check key-set, BDD and pattern database files in full (slow)",
		ArgsUsage:   "FILE...",
		Description: help("verify"),
		Before:      cmdline.InputArgs,
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
				msg, err := verify.File(e.context, path, c.Int("workers"))
				if errors.Is(err, verify.ErrFailed) || errors.Is(err, os.ErrNotExist) {
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
