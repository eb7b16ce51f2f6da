package main

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime/debug"
	"time"

	"github.com/gapset/gapset/encode"
	"github.com/gapset/gapset/gapset"
	"github.com/gapset/gapset/heuristic"
	"github.com/gapset/gapset/internal/cmdline"
	"github.com/gapset/gapset/internal/enumflags"
	"github.com/gapset/gapset/internal/progress"
	"github.com/gapset/gapset/keyset"
	"github.com/urfave/cli/v2"
)

func enumerateCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:        "enumerate",
		Usage:       "enumerate a gap set and write its projections as key-set files",
		Description: help("enumerate"),
		Flags: append(enumflags.Flags("the checkpoint in the output directory ("+gapset.CheckpointName+"/)"),
			&cli.StringFlag{Name: "out", Usage: "write the (single) projection to `FILE`"},
			&cli.StringFlag{Name: "tmp", Usage: "scratch `DIR` for sorted runs (default: inside the output directory)",
				Action: func(_ *cli.Context, v string) error { return cmdline.CheckWritableDir("--tmp", v) }},
			&cli.IntFlag{Name: "memory", Value: 4096, Usage: "MiB for the work buffers (sort buffer + scratch); bigger layers spill to disk; the process holds more (gap <= 4 at 8192: 14 GB)",
				Action: func(_ *cli.Context, v int) error { return cmdline.InRange("--memory", v, 64, 1<<24) }},
			&cli.BoolFlag{Name: "estimate", Usage: "print the estimated members, disk and CPU time and stop"},
			&cli.BoolFlag{Name: "raw-runs", Usage: "keep scratch runs as 8 bytes per key, not delta-coded (which take a fraction of the disk)"},
			&cli.BoolFlag{Name: "tables", Usage: "keep projections as bit tables in memory (10 of 16 cells: 3.6 GiB) instead of runs on disk; taken by itself when the disk is short"},
			&cli.IntFlag{Name: "max-step", Usage: "stop after `N` reverse moves and write no key-set file (calibration: the layers found are counted)"},
			&cli.DurationFlag{Name: "checkpoint-every", Value: 30 * time.Second, Usage: "write a checkpoint after a step only when `DURATION` has passed since the last one (0: after every step)"},
			&cli.StringFlag{Name: "base", Usage: "the residual sets of the base heuristic `SPEC` (optimum - h <= --gap): pdbb:PARTITION, pdbbr:PARTITION, pdb78b, wd, md"},
			&cli.StringFlag{Name: heuristic.OptPDB, Value: heuristic.DefaultPDBDir, Usage: "the blank-aware pattern databases of --base are in `DIR` (gapset pdb build --blank)", Action: cmdline.InputDirFlag("--" + heuristic.OptPDB)},
			&cli.IntFlag{Name: "samples", Value: 200, Usage: "with --base and no measured levels of it, estimate them from `N` random boards solved optimally (0: no estimate)",
				Action: func(_ *cli.Context, v int) error { return cmdline.InRange("--samples", v, 0, 1<<20) }},
		),
		Action: func(c *cli.Context) error {
			if err := cmdline.NoArgs(c); err != nil {
				return err
			}
			l, err := enumflags.Layout(c)
			if err != nil {
				return err
			}
			cfg := l.Config(c.String("out-dir"))
			cfg.TempDir, cfg.Memory, cfg.RawRuns, cfg.Tables = c.String("tmp"), int64(c.Int("memory"))<<20, c.Bool("raw-runs"), c.Bool("tables")
			cfg.MaxStep, cfg.CheckpointEvery = c.Int("max-step"), c.Duration("checkpoint-every")
			base, err := baseFlag(c, e, &cfg)
			if err != nil {
				return err
			}
			if err := cfg.Check(); err != nil {
				return cmdline.BadInput(err)
			}
			outFlag := "--out-dir"
			if out := c.String("out"); out != "" {
				if n := len(l.Cells) + len(l.Sets); n != 1 {
					return cmdline.BadInputf("--out takes one projection; use --out-dir for %d", n)
				}
				if c.IsSet("out-dir") {
					return cmdline.BadInputf("give either --out or --out-dir")
				}
				if err := cmdline.CheckOutFile("--out", out); err != nil {
					return err
				}
				outFlag, cfg.Dir = "--out", filepath.Dir(out)
				cfg.Paths = map[encode.CellSet]string{cfg.Projections()[0]: out}
			} else if err := cmdline.CheckOutDir("--out-dir", cfg.Dir); err != nil {
				return err
			}
			if err := cmdline.CheckOutFiles(outFlag, cfg.OutputPaths()...); err != nil {
				return err
			}
			prog := progress.New(e.stderr, c.Bool("quiet"))
			cfg.Progress = func(p gapset.Progress) { prog.Update(0, 0, p.Phase != "layer", "%s", p) }
			est, err := heuristic.EstimateRun(e.context, cfg, base, c.Int("samples"), func(s string) { fmt.Fprintf(e.stderr, "gapset: %s\n", s) })
			if err != nil {
				return err
			}
			if c.Bool("estimate") {
				fmt.Fprintln(e.stdout, est)
				return nil
			}
			if !c.Bool("quiet") && est.Known {
				fmt.Fprintln(e.stderr, est)
			}
			if err := os.MkdirAll(cfg.Dir, 0o755); err != nil { // checked above: a failure here is not the input's
				return err
			}
			scratch := cfg.ScratchDir()
			cfg.Checkpoint = filepath.Join(cfg.Dir, gapset.CheckpointName) // runs with --max-step keep none
			cfg.Fresh = c.Bool("fresh")
			cfg.OnResume = func(r gapset.Resumed) { prog.Done(); fmt.Fprintf(e.stderr, "gapset: %s\n", r) }
			cfg, est, ranked, err := gapset.FitDisk(cfg, est, scratch)
			if err != nil {
				return cmdline.BadInput(err)
			} else if ranked && !c.Bool("quiet") {
				fmt.Fprintf(e.stderr, "gapset: the disk is short for key-difference runs; %s fit: %s\n", map[bool]string{false: "rank-coded runs (--rank-runs)", true: "rank-coded runs and projection tables (--rank-runs --tables)"}[cfg.Tables], est)
			}
			if os.Getenv("GOMEMLIMIT") == "" { // the user's limit wins
				debug.SetMemoryLimit(cfg.SoftMemoryLimit())
			}
			if err := e.cleanup.WillWrite(outFlag, cfg.OutputPaths()...); err != nil {
				return err
			}
			e.cleanup.WillScratch(scratch, gapset.ScratchName)
			res, err := gapset.Enumerate(e.context, cfg)
			prog.Done()
			if err != nil {
				return cmdline.InputIf(err, gapset.ErrArgs, gapset.ErrForeign, gapset.ErrDamaged)
			}
			return res.Write(e.stdout, c.String("format"))
		},
	}
}

// baseFlag resolves --base into the configuration (--pdb and --samples
// only with it). Canonical layers need a symmetric base: without one,
// --transpose's default gives way, and --transpose given is refused by the
// check.
func baseFlag(c *cli.Context, e *env, cfg *gapset.Config) (heuristic.Base, error) {
	spec := c.String("base")
	if spec == "" {
		for _, f := range []string{heuristic.OptPDB, "samples"} {
			if c.IsSet(f) {
				return heuristic.Base{}, cmdline.BadInputf("--%s applies to --base only", f)
			}
		}
		return heuristic.Base{}, nil
	}
	r := heuristic.New(heuristic.Options{Rows: cfg.Rows, Cols: cfg.Cols, PDBDir: c.String(heuristic.OptPDB), PDBVerified: pdbVerified(e), Context: e.context})
	b, err := r.Base(spec)
	r.SaveVerified() // best effort
	if err != nil {
		return b, cmdline.BadInput(err)
	}
	cfg.Base = b.Base
	if !c.IsSet("transpose") && !b.Symmetric() {
		cfg.Transpose = false
	}
	return b, nil
}

// textOrJSON checks a --format flag of the two summary formats.
var textOrJSON = enumflags.TextOrJSON

func countCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:      "count",
		Usage:     "print a key-set file's header and count, verifying order and checksum",
		ArgsUsage: "FILE...",
		Before:    cmdline.InputArgs,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "format", Value: "text", Usage: "text or json", Action: textOrJSON},
		},
		Action: func(c *cli.Context) error {
			if c.NArg() == 0 {
				return cmdline.BadInputf("no key-set file given")
			}
			for _, path := range c.Args().Slice() {
				h, n, err := keyset.Count(path)
				if err != nil {
					return cmdline.BadInput(err)
				}
				if err := keyset.WriteCount(e.stdout, c.String("format"), path, h, n); err != nil {
					return err
				}
			}
			return nil
		},
	}
}
