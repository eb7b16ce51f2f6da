package main

import (
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/gapset/gapset/bdd"
	"github.com/gapset/gapset/bdd/report"
	"github.com/gapset/gapset/gapset"
	"github.com/gapset/gapset/internal/cmdline"
	"github.com/gapset/gapset/internal/progress"
	"github.com/gapset/gapset/internal/statedir"
	"github.com/gapset/gapset/keyset"
	"github.com/urfave/cli/v2"
)

func buildCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:        "build",
		Usage:       "build a gap-set BDD (enumerated, or from a key-set file) and save it",
		Description: help("build", strings.Join(bdd.OrderNames(), ", ")),
		Flags: withSize(4, 4, // the size when enumerating
			&cli.StringFlag{Name: "keys", Usage: "key-set `FILE` to build from", Action: cmdline.InputFlag("--keys")},
			&cli.IntFlag{Name: "gap", Value: -1, DefaultText: "the key file's", Usage: "gap of the set to enumerate (even; on 4x4 only 0, the larger gaps from --keys); with --keys, checked against the file"},
			&cli.IntFlag{Name: "cells", Value: -1, DefaultText: "the key file's", Usage: "cells kept (1 to the board's; the paper's 8, 10, 12, 16); with --keys, checked against the file"},
			&cli.StringFlag{Name: "order", Value: "natural", Usage: "variable order: a `NAME`, a list of key bits (level 0 first) or @FILE (from gapset order)", Action: cmdline.AtInputFlag("--order")},
			encodingFlag(),
			&cli.StringFlag{Name: "out", Usage: "output .bdd `FILE` (required)"},
			&cli.StringFlag{Name: "map", Usage: "also write the diagram's mapped form to `FILE` (8 bytes a node, queried where it lies: solve and bench take it as --bdd when the .bdd would not fit memory)"},
			&cli.BoolFlag{Name: "zdd", Value: true, Usage: "also count the ZDD nodes (stored in the file)"},
			&cli.Float64Flag{Name: "sort-mem", Value: 4, Usage: "`GiB` of keys held at once when re-sorting a key file for an order other than natural"},
			&cli.BoolFlag{Name: "rudd", Usage: "build through rudd too and check it gives the same BDD (small sets)"},
			&cli.BoolFlag{Name: "out-of-core", Usage: "build level by level from streams on disk within --memory (natural order, cells or ranks)"},
			&cli.IntFlag{Name: "memory", Value: 4096, Usage: "`MiB` for the level an out-of-core build reduces; a bigger level is reduced in parts (implies --out-of-core)",
				Action: func(_ *cli.Context, v int) error { return cmdline.InRange("--memory", v, 64, 1<<24) }},
			&cli.StringFlag{Name: "tmp", Usage: "scratch `DIR` of an out-of-core build (default: the output's directory; implies --out-of-core)",
				Action: func(_ *cli.Context, v string) error { return cmdline.CheckWritableDir("--tmp", v) }},
			&cli.StringFlag{Name: "resume", Usage: "keep the out-of-core build's state in `DIR` (made if absent; instead of --tmp), a checkpoint after each level, and continue from it when run again (implies --out-of-core)",
				Action: func(_ *cli.Context, v string) error { return cmdline.CheckOutDir("--resume", v) }},
			&cli.BoolFlag{Name: "fresh", Usage: "discard the state in --resume DIR and start over"},
			quietFlag(),
		),
		Action: func(c *cli.Context) error { return runBuild(c, e) },
	}
}

func runBuild(c *cli.Context, e *env) error {
	if err := cmdline.NoArgs(c); err != nil {
		return err
	}
	if err := e.willWrite("--out", c.String("out")); err != nil {
		return err
	}
	if m := c.String("map"); m != "" {
		if err := e.willWrite("--map", m); err != nil {
			return err
		}
	}
	path := c.String("keys")
	h := keyset.Header{Rows: c.Int("rows"), Cols: c.Int("cols"), Gap: c.Int("gap"), Cells: c.Int("cells")}
	if path != "" {
		var err error
		if h, err = keyset.ReadHeader(path); err != nil {
			return cmdline.BadInput(err)
		}
		if g := c.Int("gap"); g >= 0 && g != h.Gap {
			return cmdline.BadInputf("--gap %d but %s holds gap %d", g, path, h.Gap)
		}
		if k := c.Int("cells"); k >= 0 && k != h.Cells {
			return cmdline.BadInputf("--cells %d but %s holds %d cells", k, path, h.Cells)
		}
		if (c.IsSet("rows") || c.IsSet("cols")) && (c.Int("rows") != h.Rows || c.Int("cols") != h.Cols) {
			return cmdline.BadInputf("--rows %d --cols %d but %s holds a %dx%d set", c.Int("rows"), c.Int("cols"), path, h.Rows, h.Cols)
		}
	} else if err := gapset.CheckInMemory(h.Rows, h.Cols, h.Gap, h.Cells); err != nil {
		return cmdline.BadInput(err)
	} else if c.Bool("rudd") {
		return cmdline.BadInputf("--rudd needs --keys")
	}
	o, err := bdd.ParseOrderArg(c.String("order"), h.Rows, h.Cols, h.Cells)
	if err != nil {
		return cmdline.BadInput(err)
	}
	enc, err := encodingOf(c, h)
	if err != nil {
		return err
	}
	if enc != bdd.Cells && c.Bool("rudd") {
		return cmdline.BadInputf("--rudd checks the cells encoding only")
	}
	pr := progress.New(e.stderr, c.Bool("quiet"))
	kb := bdd.KeysBuild{Order: o, Encoding: enc, Count: h.Count, ZDD: c.Bool("zdd"), Rudd: c.Bool("rudd"), Progress: func(stage string, done, total uint64) {
		pr.Update(int64(done), int64(total), false, "%s %s", h.Name(), stage)
	}}
	oc, outOfCore, err := planBuild(c, e, path, h, o, enc)
	if err != nil {
		return err
	}
	sb := bdd.SetBuild{KeyFile: path, Header: h, Keys: kb, Out: c.String("out"), Map: c.String("map"),
		Saving: func(nodes int) { pr.Update(0, 0, true, "%s: saving %d nodes", h.Name(), nodes) }}
	switch {
	case outOfCore:
		if oc.State == nil {
			e.cleanup.WillScratch(oc.TempDir, bdd.ScratchName)
		} else {
			defer oc.State.Close()
			oc.OnResume = func(r bdd.Resumed) { pr.Done(); fmt.Fprintf(e.stderr, "gapset: %s\n", r) }
		}
		oc.Progress, sb.OutOfCore = kb.Progress, &oc
	case path == "":
		sb.Enumerate = func() ([]uint64, error) {
			start := time.Now()
			sets, err := gapset.Sets(e.context, h.Rows, h.Cols, h.Gap, []int{h.Cells}, func(p gapset.Progress) {
				pr.Update(p.Members, 0, false, "enumerating %s: gap %d, Manhattan %d, %d members", h.Name(), p.Gap, p.Manhattan, p.Members)
			})
			if keys := sets[h.Cells]; err == nil && !c.Bool("quiet") {
				fmt.Fprintf(e.stderr, "%s: %d keys enumerated in %.1fs\n", h.Name(), len(keys), time.Since(start).Seconds())
			}
			return sets[h.Cells], err
		}
	case (o.Name != "natural" || enc != bdd.Cells) && !c.Bool("rudd"):
		gib := c.Float64("sort-mem")
		if !(gib > 0) || gib > 1<<20 {
			return cmdline.BadInputf("--sort-mem must be a positive number of GiB")
		}
		sb.Keys.MaxKeys = max(1, int(gib*(1<<30)/8))
	}
	lines, err := sb.Run(e.context)
	pr.Done()
	for _, l := range lines {
		fmt.Fprintln(e.stdout, l)
	}
	return cmdline.InputIf(err, keyset.ErrFormat, bdd.ErrBudget, bdd.ErrStateMismatch, statedir.ErrDamaged)
}

// planBuild reads the out-of-core flags (--out-of-core=false builds in
// memory whatever the estimate) into bdd.PlanBuild and prints its notes.
func planBuild(c *cli.Context, e *env, path string, h keyset.Header, o bdd.Order, enc bdd.Encoding) (bdd.OutOfCore, bool, error) {
	if c.IsSet("out-of-core") && !c.Bool("out-of-core") {
		if c.IsSet("memory") || c.IsSet("tmp") || c.IsSet("resume") {
			return bdd.OutOfCore{}, false, cmdline.BadInputf("--memory, --tmp and --resume are for the out-of-core build, not --out-of-core=false")
		}
		return bdd.OutOfCore{}, false, nil
	}
	resume := c.String("resume")
	switch {
	case c.Bool("fresh") && resume == "":
		return bdd.OutOfCore{}, false, cmdline.BadInputf("--fresh discards the state of --resume DIR: give --resume")
	case resume != "" && c.IsSet("tmp"):
		return bdd.OutOfCore{}, false, cmdline.BadInputf("--resume DIR is the scratch directory: give --resume or --tmp, not both")
	}
	tmp := c.String("tmp")
	if resume != "" {
		tmp = filepath.Dir(resume)
	} else if tmp == "" {
		tmp = filepath.Dir(c.String("out"))
	}
	p, err := bdd.PlanBuild(bdd.PlanRequest{Count: h.Count, N: h.Rows * h.Cols, Cells: h.Cells, ZDD: c.Bool("zdd"),
		Streams: path != "" && !c.Bool("rudd") && bdd.Streams(o, enc), Asked: c.Bool("out-of-core") || c.IsSet("memory") || c.IsSet("tmp") || resume != "",
		Memory: int64(c.Int("memory")) << 20, TempDir: tmp, Resume: resume, Fresh: c.Bool("fresh"), Quiet: c.Bool("quiet")})
	for _, n := range p.Notes {
		fmt.Fprintf(e.stderr, "gapset: %s\n", n)
	}
	return p.Config, p.OutOfCore, cmdline.InputIf(err, bdd.ErrPlan, statedir.ErrForeign, statedir.ErrDamaged, statedir.ErrBusy)
}

func reportCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:        "report",
		Usage:       "describe BDD files beside the paper's Table 1",
		ArgsUsage:   "FILE...",
		Description: help("report"),
		Before:      cmdline.InputArgs,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "format", Value: "md", Usage: "md, csv or json"},
			&cli.BoolFlag{Name: "verify", Usage: "check each file whole (structure, shared nodes, member count) besides the checksum, in one pass over it"},
			&cli.BoolFlag{Name: "levels", Usage: "add each file's nodes per level (one pass over the file; the diagram is not loaded)"},
			&cli.StringFlag{Name: "chart", Usage: "draw the files' nodes per level, one line per file, to this PNG `FILE`"},
		},
		Action: func(c *cli.Context) error { return runReport(c, e) },
	}
}

func runReport(c *cli.Context, e *env) error {
	format := c.String("format")
	if format != "md" && format != "csv" && format != "json" {
		return cmdline.BadInputf("unknown --format %s (choose md, csv or json)", cmdline.Quote(format))
	}
	if c.NArg() == 0 {
		return cmdline.BadInputf("report needs at least one .bdd file")
	}
	chart := c.String("chart")
	if chart != "" {
		if err := e.willWrite("--chart", chart); err != nil {
			return err
		}
	}
	opt := report.Options{Format: format, Verify: c.Bool("verify"), Levels: c.Bool("levels"), Chart: chart}
	return cmdline.InputIf(report.Files(e.stdout, c.Args().Slice(), opt), report.ErrInput)
}
