package main

import (
	"fmt"
	"os"
	"runtime"
	"time"

	"github.com/gapset/gapset/heuristic"
	"github.com/gapset/gapset/internal/cmdline"
	"github.com/gapset/gapset/internal/progress"
	"github.com/gapset/gapset/internal/sysprobe"
	"github.com/gapset/gapset/pdb"
	"github.com/urfave/cli/v2"
)

func pdbCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:  "pdb",
		Usage: "additive pattern databases",
		Subcommands: []*cli.Command{{
			Name:        "build",
			Usage:       "build the databases of a partition into a directory",
			Description: help("pdb-build", pdb.Names()),
			Flags: withSize(4, 4,
				&cli.StringFlag{Name: "partition", Aliases: []string{"p"}, Value: "7-8", Usage: "tile groups"},
				&cli.StringFlag{Name: "out", Aliases: []string{"o"}, Value: heuristic.DefaultPDBDir, Usage: "output `DIR` (created if needed)"},
				&cli.IntFlag{Name: "workers", Value: runtime.NumCPU(), Usage: "goroutines for the large groups (at most 8 free cells)"},
				&cli.BoolFlag{Name: "compact", Usage: "write 4-bit entries (half the bytes to load; every heuristic reads both; groups must cover every tile)"},
				&cli.BoolFlag{Name: "blank", Usage: "blank-aware tables: an entry for every cell of the blank, exactly one apart along every move (4-bit entries; files NAME-blank.pdb)"},
				quietFlag(),
			),
			Action: func(c *cli.Context) error { return runPDBBuild(c, e) },
		}},
	}
}

func runPDBBuild(c *cli.Context, e *env) error {
	part, err := pdb.ParsePartition(c.String("partition"), c.Int("rows"), c.Int("cols"))
	if err != nil {
		return cmdline.BadInput(err)
	}
	if err := cmdline.NoArgs(c); err != nil {
		return err
	}
	if err := cmdline.InRange("--workers", c.Int("workers"), 1, maxWorkers); err != nil {
		return err
	}
	if c.Bool("blank") && c.Bool("compact") {
		return cmdline.BadInputf("--blank writes 4-bit entries already: leave out --compact")
	}
	part.Blank = c.Bool("blank")
	dir := c.String("out")
	if err := cmdline.CheckOutDir("--out", dir); err != nil {
		return err
	}
	if err := e.cleanup.WillWrite("--out", part.Paths(dir)...); err != nil {
		return err
	}
	disk, mem := part.DiskNeed(dir, c.Bool("compact")), part.BuildMemory(c.Bool("compact"))
	if !c.Bool("quiet") {
		fmt.Fprintf(e.stderr, "gapset: %d files, %.2f GiB on disk; %.2f GiB of memory at the peak (the tables of the largest group)\n",
			len(part.Groups), float64(disk)/gib, float64(mem)/gib)
	}
	if err := cmdline.CheckFreeDisk("--out", dir, disk); err != nil {
		return err
	}
	if _, avail := sysprobe.Machine(); avail > 0 && uint64(mem) > avail {
		return cmdline.LimitError{Err: fmt.Errorf("the build takes %.1f GiB of memory, %.1f GiB are available", float64(mem)/gib, float64(avail)/gib)}
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return cmdline.BadInput(err)
	}
	prog := progress.New(e.stderr, c.Bool("quiet"))
	start := time.Now()
	err = pdb.BuildFiles(e.context, part, dir, c.Int("workers"), c.Bool("compact"), func(gi int) pdb.Progress {
		t0 := time.Now()
		return func(layer int, reached, total int64) {
			prog.Update(reached, total, false, "group %d/%d %v: cost %d, %d placements reached, %s",
				gi+1, len(part.Groups), part.Groups[gi], layer, reached, time.Since(t0).Round(time.Second))
		}
	}, func(w pdb.Written) {
		prog.Done()
		fmt.Fprintf(e.stdout, "%s: %d entries, max %d moves, step %d, %s (memory from the OS so far %d MiB)\n",
			w.Path, w.Entries, w.Max, w.Step, w.Took.Round(100*time.Millisecond), w.Sys>>20)
	})
	prog.Done()
	if err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "built %s in %s\n", part.Name, time.Since(start).Round(100*time.Millisecond))
	return nil
}

const gib = 1 << 30
