package main

import (
	"errors"
	"fmt"
	"path/filepath"

	"github.com/gapset/gapset/gapset"
	"github.com/gapset/gapset/internal/cmdline"
	"github.com/gapset/gapset/internal/progress"
	"github.com/gapset/gapset/keyset"
	"github.com/urfave/cli/v2"
)

func approxCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:        "approx",
		Usage:       "write approximated gap sets (supersets of the projections) for h_G:4 ... h_G:8",
		Description: help("approx"),
		Flags: withSize(4, 4,
			&cli.StringFlag{Name: "cells", Value: "8", Usage: fmt.Sprintf("the last `K` cells, or @SET a cell set as enumerate's (a table of 16^K bits per set up to %d, one bit per placement above: 3.4 GiB for 10 of 16 cells)", gapset.MaxApproxCells)},
			&cli.IntFlag{Name: "max-gap", Value: 8, Usage: "largest gap `G` (even)"},
			&cli.StringSliceFlag{Name: "exact", Usage: "exact key-set `FILE` of the lowest levels, in order (Gap0_K, then Gap2_K, ...)", Action: cmdline.InputsFlag("--exact")},
			&cli.StringFlag{Name: "out-dir", Required: true, Usage: "write the key-set files into `DIR` (required: a 4x4 run writes gigabytes, 8 bytes per pattern)"},
			&cli.BoolFlag{Name: "packed", Usage: "write the key-set files delta-coded (about 1 byte per pattern; see enumerate --packed)"},
			quietFlag(),
		),
		Action: func(c *cli.Context) error {
			if err := cmdline.NoArgs(c); err != nil {
				return err
			}
			rows, cols, maxGap := c.Int("rows"), c.Int("cols"), c.Int("max-gap") // the size checked by withSize
			set, err := gapset.ApproxCells(c.String("cells"), rows, cols)
			if err != nil {
				return cmdline.BadInput(err)
			}
			k := set.Len()
			dir := c.String("out-dir")
			if err := cmdline.CheckWritableDir("--out-dir", dir); err != nil {
				return err
			}
			if maxGap < 0 || maxGap%2 != 0 || maxGap > keyset.MaxGap {
				return cmdline.BadInputf("--max-gap %d must be even and in 0..%d", maxGap, keyset.MaxGap)
			}
			if !c.Bool("quiet") {
				fmt.Fprintf(e.stderr, "approx: %s\n", gapset.ApproxMemoryString(rows*cols, k, len(c.StringSlice("exact"))))
			}
			exact, err := gapset.LoadExactCells(c.StringSlice("exact"), rows, cols, set)
			if ne := (*gapset.NotExactError)(nil); errors.As(err, &ne) {
				return cmdline.BadInputf("%v (the --exact files go in order Gap0, Gap2, ...)", err)
			} else if err != nil {
				return cmdline.BadInput(err)
			}
			if err := e.cleanup.WillWrite("--out-dir", gapset.ApproxPaths(dir, rows, cols, set, maxGap/2, len(exact))...); err != nil {
				return err
			}
			space := gapset.Patterns(rows*cols, k)
			prog := progress.New(e.stderr, c.Bool("quiet"))
			fmt.Fprintf(e.stdout, "| set | patterns | of the %.0f patterns | seconds |\n|---|---:|---:|---:|\n", space)
			err = gapset.ApproximateCells(e.context, rows, cols, set, maxGap/2, exact, func(l gapset.ApproxLevel) error {
				prog.Done()
				h := l.Header
				h.Packed = c.Bool("packed")
				fmt.Fprintf(e.stdout, "| %s | %d | %.4f | %.1f |\n", h.Name(), l.Set.Len(), float64(l.Set.Len())/space, l.Elapsed.Seconds())
				if l.Level < len(exact) {
					return nil // the exact file exists
				}
				prog.Update(0, 0, true, "writing %s", h.Name())
				defer prog.Done()
				return l.Set.WriteFile(e.context, filepath.Join(dir, h.Name()+".keys"), h)
			}, func(level int, seen int64) {
				prog.Update(0, 0, false, "level %d (gap %d): %d patterns so far (%.4f of all)", level, 2*level, seen, float64(seen)/space)
			})
			prog.Done()
			return cmdline.InputIf(err, gapset.ErrArgs)
		},
	}
}
