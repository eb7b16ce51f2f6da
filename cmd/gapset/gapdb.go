package main

import (
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/gapset/gapset/gapdb"
	"github.com/gapset/gapset/internal/cmdline"
	"github.com/gapset/gapset/internal/progress"
	"github.com/gapset/gapset/internal/sysprobe"
	"github.com/gapset/gapset/keyset"
	"github.com/urfave/cli/v2"
)

func gapdbCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:        "gapdb",
		Usage:       "write a gap database (the smallest gap level of every pattern) from the level files of one projection",
		Description: help("gapdb"),
		Flags: []cli.Flag{
			&cli.StringSliceFlag{Name: "keys", Usage: "key-set `FILE` of one level (Gap0_K, Gap2_K, Gap4_Ka, ...); repeat, one a level, any order", Action: cmdline.InputsFlag("--keys")},
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
	if err := cmdline.CheckOutFile("--out", out); err != nil {
		return err
	}
	if err := e.cleanup.WillWrite("--out", out); err != nil {
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
	if err := checkGapDBPlan(plan, out, c.Bool("quiet"), e); err != nil {
		return err
	}
	b, err := plan.Build(e.context, func(done, total uint64) {
		pr.Update(int64(done), int64(total), false, "reading the levels: %d of %d keys", done, total)
	})
	if err != nil {
		pr.Done()
		return cmdline.InputIf(err, gapdb.ErrLevels, gapdb.ErrFilter, keyset.ErrFormat, os.ErrNotExist)
	}
	h := b.Header()
	pr.Update(0, 0, true, "%s: counting and writing %d bytes", h.Name(), h.TableOff+h.TableLen+h.FilterLen)
	err = b.Write(e.context, out)
	pr.Done()
	if err != nil {
		return err
	}
	h, err = gapdb.ReadHeader(out)
	if err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "%s levels=%d bits=%d entries=%d filter_cells=%d bytes=%d digest=%08x build=%.1fs -> %s\n",
		h.Name(), h.Levels, h.Bits, h.Entries, h.FilterCells, h.TableOff+h.TableLen+h.FilterLen, h.Digest(), time.Since(start).Seconds(), out)
	return nil
}

// gapdbKeysPerSecond is the build's rate on the reference machine (2
// cores; 2026-11-27: 22 million keys a second on 8 cells, 12 on 10 cells
// before the reading had a goroutine of its own), for the estimate only.
const gapdbKeysPerSecond = 15e6

// checkGapDBPlan says what the build will take before it starts, and
// refuses (exit 3) a table the machine's available memory or the
// output's disk cannot hold.
func checkGapDBPlan(p *gapdb.Plan, out string, quiet bool, e *env) error {
	h := p.Header
	if !quiet {
		eta := time.Duration(float64(p.Keys) / gapdbKeysPerSecond * float64(time.Second)).Round(time.Second)
		fmt.Fprintf(e.stderr, "gapset: %s: %d patterns at %d bits; %d keys to read; %.1f GiB of memory, a %.1f GiB file; about %v\n",
			h.Name(), h.Entries, h.Bits, p.Keys, float64(p.Memory())/gib, float64(p.FileBytes())/gib, eta)
	}
	_, avail := sysprobe.Machine()
	free := int64(-1)
	if d, err := sysprobe.FreeDisk(filepath.Dir(out)); err == nil {
		free = d.Free
	}
	return gapdbFits(p, avail, free, filepath.Dir(out))
}

const gib = 1 << 30

// gapdbFits refuses a build whose table passes the available memory
// (avail; 0: unknown) or whose file passes the free disk (free; negative:
// unknown).
func gapdbFits(p *gapdb.Plan, avail uint64, free int64, dir string) error {
	name := p.Header.Name()
	if avail > 0 && p.Memory() > avail {
		return cmdline.LimitError{Err: fmt.Errorf("%s: the table takes %.1f GiB of memory, %.1f GiB are available", name, float64(p.Memory())/gib, float64(avail)/gib)}
	}
	if free >= 0 && uint64(free) < p.FileBytes() {
		return cmdline.LimitError{Err: fmt.Errorf("%s: the file takes %.1f GiB, %s has %.1f GiB free", name, float64(p.FileBytes())/gib, dir, float64(free)/gib)}
	}
	return nil
}
