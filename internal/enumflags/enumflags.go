// Package enumflags declares, once, the flags that `gapset enumerate` and
// `gapset-cluster enumerate` share (the board, the sets, the outputs, the
// summary, resuming) and reads them into a gapset.Layout, so that the two
// commands take the same enumeration the same way. Each command adds its
// own (the work buffers, the runner).
package enumflags

import (
	"strconv"

	"github.com/gapset/gapset/encode"
	"github.com/gapset/gapset/gapset"
	"github.com/gapset/gapset/internal/cmdline"
	"github.com/urfave/cli/v2"
)

// Size is --rows and --cols (defaults rows, cols): the one place a size
// given by the user is checked, as they are parsed, before the command
// runs.
func Size(rows, cols int) []cli.Flag {
	return []cli.Flag{
		&cli.IntFlag{Name: "rows", Value: rows, Usage: "board rows", Action: checkSize},
		&cli.IntFlag{Name: "cols", Value: cols, Usage: "board columns", Action: checkSize},
	}
}

// checkSize is the action of --rows and --cols (run when either is given):
// encode.CheckSize, which never forms a product that can wrap around.
func checkSize(c *cli.Context, _ int) error {
	return cmdline.BadInput(encode.CheckSize(c.Int("rows"), c.Int("cols")))
}

// Quiet is -q, --quiet.
func Quiet() cli.Flag {
	return &cli.BoolFlag{Name: "quiet", Aliases: []string{"q"}, Usage: "no progress on stderr"}
}

// TextOrJSON checks a --format flag of the two summary formats.
func TextOrJSON(_ *cli.Context, v string) error { return cmdline.CheckFormat(v, "text", "json") }

// Flags are the shared flags of the two enumerate commands, on a 4x4
// board by default; state says what --fresh discards (the command's
// resumable state and where it is).
func Flags(state string) []cli.Flag {
	return append(Size(4, 4),
		&cli.IntFlag{Name: "gap", Value: 0, Usage: "largest gap (even): 0 for G0, 2 for G0 and G2, ..."},
		&cli.BoolFlag{Name: "exact", Usage: "keep only the members whose gap equals --gap"},
		&cli.StringFlag{Name: "cells", Usage: "comma-separated projections `K[,K...]`: K the last K cells, @SET a cell set such as @0-3+8-11 (default rows*cols = whole boards)"},
		&cli.BoolFlag{Name: "packed", Usage: "write the key-set files delta-coded (format version 2, 1-3.5 bytes per key instead of 8; every command reads both)"},
		&cli.BoolFlag{Name: "transpose", Value: true, Usage: "on a square board, enumerate one of each transposed pair (half the layers' keys, the same files); --transpose=false: every configuration"},
		&cli.BoolFlag{Name: "rank-runs", Usage: "code the whole-board runs by rank: about 40% less disk for about 20% more CPU"},
		&cli.StringFlag{Name: "out-dir", Value: ".", Usage: "write the key-set files into `DIR`"},
		&cli.StringFlag{Name: "format", Value: "text", Usage: "summary format: text or json", Action: TextOrJSON},
		Quiet(),
		&cli.BoolFlag{Name: "fresh", Usage: "discard " + state + " and start over instead of resuming"},
	)
}

// Layout reads the shared flags into a layout (the command sets its
// buffers and splitting); bad values are refused as bad input. The
// caller checks the whole (Layout.Check) once it is complete.
func Layout(c *cli.Context) (gapset.Layout, error) {
	spec := c.String("cells")
	if !c.IsSet("cells") {
		spec = strconv.Itoa(c.Int("rows") * c.Int("cols"))
	}
	cells, sets, err := gapset.ParseCells(spec, c.Int("rows")*c.Int("cols"))
	if err != nil {
		return gapset.Layout{}, cmdline.BadInput(err)
	}
	l := gapset.Layout{Rows: c.Int("rows"), Cols: c.Int("cols"), MaxGap: c.Int("gap"), Exact: c.Bool("exact"),
		Packed: c.Bool("packed"), Cells: cells, Sets: sets, RankRuns: c.Bool("rank-runs"), Transpose: c.Bool("transpose")}
	if c.IsSet("transpose") && l.Transpose && l.Rows != l.Cols {
		return l, cmdline.BadInputf("--transpose needs a square board, not %dx%d (others enumerate every configuration)", l.Rows, l.Cols)
	}
	return l, nil
}
