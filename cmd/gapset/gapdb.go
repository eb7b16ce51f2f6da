package main

import (
	"fmt"
	"os"
	"time"

	"github.com/gapset/gapset/gapdb"
	"github.com/gapset/gapset/internal/cmdline"
	"github.com/gapset/gapset/internal/progress"
	"github.com/gapset/gapset/keyset"
	"github.com/urfave/cli/v2"
)

func gapdbCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:        "gapdb",
		Usage:       "write a gap database (the smallest gap level of every pattern) from the level files of one projection",
		Description: help("gapdb"),
		Flags: []cli.Flag{
			&cli.StringSliceFlag{Name: "keys", Usage: "key-set `FILE` of one level (Gap0_K, Gap2_K, Gap4_Ka, ...; Res0_K ...: residual levels); repeat, one a level, any order", Action: cmdline.InputsFlag("--keys")},
			&cli.StringFlag{Name: "out", Usage: "output gap database `FILE` (required)"},
			&cli.IntFlag{Name: "filter-cells", Value: -1, DefaultText: "6 where the table is over 64 MiB, else none", Usage: "`F`: a filter of the projection's last F cells (0: none, at most 6, fewer than K)"},
			quietFlag(),
		},
		Action: func(c *cli.Context) error { return runGapDB(c, e) },
	}
}

func runGapDB(c *cli.Context, e *env) error {
	if err := cmdline.NoArgs(c); err != nil {
		return err
	}
	out := c.String("out")
	if err := e.willWrite("--out", out); err != nil {
		return err
	}
	paths := c.StringSlice("keys")
	if len(paths) == 0 {
		return cmdline.BadInputf("give the level files with --keys FILE, one a level")
	}
	start := time.Now()
	pr := progress.New(e.stderr, c.Bool("quiet"))
	filter := c.Int("filter-cells")
	if filter < -1 || filter > gapdb.MaxFilterCells {
		return cmdline.BadInputf("--filter-cells %d: want 0 (none) to %d", filter, gapdb.MaxFilterCells)
	}
	plan, err := gapdb.PlanKeyFiles(paths, filter)
	if err != nil {
		return cmdline.InputIf(err, gapdb.ErrLevels, gapdb.ErrFilter, keyset.ErrFormat, os.ErrNotExist)
	}
	if !c.Bool("quiet") {
		fmt.Fprintf(e.stderr, "gapset: %s\n", plan.Estimate())
	}
	if err := plan.FitsMachine(out); err != nil {
		return err
	}
	h, err := plan.BuildFile(e.context, out, func(done, total uint64) {
		pr.Update(int64(done), int64(total), false, "reading the levels: %d of %d keys", done, total)
	}, func(h gapdb.Header) {
		pr.Update(0, 0, true, "%s: counting and writing %d bytes", h.Name(), h.TableOff+h.TableLen+h.FilterLen)
	})
	pr.Done()
	if err != nil {
		return cmdline.InputIf(err, gapdb.ErrInput)
	}
	fmt.Fprintln(e.stdout, h.Built(out, time.Since(start)))
	return nil
}
