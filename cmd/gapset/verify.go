package main

import (
	"errors"
	"fmt"
	"os"
	"runtime"

	"github.com/gapset/gapset/internal/cmdline"
	"github.com/gapset/gapset/internal/progress"
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
			quietFlag(),
			&cli.StringFlag{Name: "keys", Usage: "compare the one BDD FILE's members with this key-set `KEYS` file of the same set (a .bdd file is loaded, 12 bytes a node; a mapped one is walked where it lies)", Action: func(_ *cli.Context, p string) error { return cmdline.CheckInput("--keys", p) }},
		},
		Action: func(c *cli.Context) error {
			if c.NArg() == 0 {
				return cmdline.BadInputf("verify needs at least one file")
			}
			if err := cmdline.InRange("--workers", c.Int("workers"), 1, maxWorkers); err != nil {
				return err
			}
			if keys := c.String("keys"); c.IsSet("keys") {
				if c.NArg() != 1 {
					return cmdline.BadInputf("verify --keys compares one BDD file with the keys, not %d files", c.NArg())
				}
				prog := progress.New(e.stderr, c.Bool("quiet"))
				msg, err := verify.BDDKeys(e.context, c.Args().First(), keys, func(done, total uint64) {
					if done == 0 {
						prog.Update(0, 0, true, "%s", verify.BDDKeysStarting(c.Args().First()))
						return
					}
					prog.Update(int64(done), int64(total), false, "members compared with %s", keys)
				})
				prog.Done()
				if err != nil {
					return cmdline.InputIf(err, verify.ErrFailed, verify.ErrUnsupported, os.ErrNotExist)
				}
				fmt.Fprintln(e.stdout, msg)
				return nil
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
