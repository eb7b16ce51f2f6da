package main

import (
	"fmt"
	"runtime"
	"time"

	"github.com/gapset/gapset/bench"
	"github.com/gapset/gapset/heuristic"
	"github.com/gapset/gapset/internal/cmdline"
	"github.com/gapset/gapset/internal/progress"
	"github.com/urfave/cli/v2"
)

func benchCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:        "bench",
		Usage:       "run heuristics over an instance file and report nodes and times (the paper's Table 2)",
		Description: help("bench") + "\n" + help("spec", heuristicNames()),
		Flags: append(append(boardFlags(),
			&cli.StringFlag{Name: "heuristics", Aliases: []string{"H"}, Value: "md", Usage: "comma-separated `LIST` of heuristic specs, each NAME, NAME:ARGS or max(SPEC,...); the names under Heuristics below"},
			&cli.IntFlag{Name: "jobs", Aliases: []string{"j"}, Value: runtime.NumCPU(), Usage: "searches run in parallel"},
			&cli.IntFlag{Name: "limit", Usage: "only the first `N` instances (0: all)"},
			&cli.IntFlag{Name: "repeat", Value: 1, Usage: "solve each instance `N` times with each heuristic, in interleaved rounds, and keep the fastest wall and CPU times (steadier ratios on a shared machine)"},
			allSolutionsFlag(),
			keepUndoFlag(),
			&cli.Int64Flag{Name: "max-nodes", Usage: "give up on a solve after `N` nodes expanded (recorded, left out of the averages; any give-up: exit 3 after the files are written; 0: no limit)"},
			&cli.StringFlag{Name: "out", Aliases: []string{"o"}, Usage: "output `DIR` (created if missing; required)"},
			&cli.StringFlag{Name: "title", Usage: "title of the summary and the chart (default: the heuristics, the instances and the date)"},
			&cli.StringFlag{Name: "baseline", Value: "md", Usage: "heuristic `NAME` the ratios refer to (e.g. pdb78)"},
			&cli.StringSliceFlag{Name: "include", Usage: "add the records of an earlier run's results.jsonl `FILE` for the same instances (repeatable); with --heuristics \"\" nothing is solved, the runs are only combined", Action: cmdline.InputsFlag("--include")},
			quietFlag(),
		), heuristicFlags()...),
		Action: func(c *cli.Context) error { return runBench(c, e) },
	}
}

func runBench(c *cli.Context, e *env) error {
	start := time.Now()
	if err := cmdline.InRange("--jobs", c.Int("jobs"), 1, maxWorkers); err != nil {
		return err
	}
	if c.Int64("max-nodes") < 0 {
		return cmdline.BadInputf("--max-nodes must not be negative (0: no limit)")
	}
	if err := cmdline.CheckOutDir("--out", c.String("out")); err != nil {
		return err
	}
	if err := e.cleanup.WillWrite("--out", bench.Paths(c.String("out"))...); err != nil {
		return err
	}
	if c.Int("limit") < 0 {
		return cmdline.BadInputf("--limit must not be negative")
	}
	if c.Int("repeat") < 1 {
		return cmdline.BadInputf("--repeat must be at least 1")
	}
	insts, err := readBoards(c, e)
	if err != nil {
		return err
	}
	if n := c.Int("limit"); n > 0 && n < len(insts) {
		insts = insts[:n]
	}
	hs, res, err := resolveHeuristics(c, e, heuristic.SplitList(c.String("heuristics")), false)
	if err != nil {
		return err
	}
	ready := time.Since(start)
	included, err := bench.ReadRecords(c.StringSlice("include"))
	if err != nil {
		return cmdline.BadInput(err)
	}
	if len(hs) == 0 && len(included) == 0 {
		return cmdline.BadInputf("--heuristics names no heuristic")
	}
	prog := progress.New(e.stderr, c.Bool("quiet"))
	var nodes int64
	recs, err := bench.Run(e.context, insts, hs, bench.Options{
		Jobs: c.Int("jobs"), MaxNodes: c.Int64("max-nodes"), AllSolutions: c.Bool("all-solutions"), KeepUndo: c.Bool("keep-undo"), Repeat: c.Int("repeat"),
		Progress: func(done, total int, r bench.Record) {
			nodes += r.Nodes
			prog.Update(int64(done), int64(total), false, "%s %s: length %d, %d nodes (%.3g nodes so far)", r.ID, r.Heuristic, r.Length, r.Nodes, float64(nodes))
		},
	})
	prog.Done()
	done := time.Since(start)
	if err != nil {
		return err
	}
	gaveUp := bench.GaveUp(recs) // solves of this run over --max-nodes (included records do not count)
	recs, err = bench.Merge(insts, included, recs)
	if err != nil {
		return cmdline.BadInput(err)
	}
	notes := bench.RunInfo{Instances: len(insts), Input: c.String("input"), Heuristics: c.String("heuristics"), Solved: len(hs) > 0,
		Jobs: c.Int("jobs"), Cores: runtime.NumCPU(), Repeat: c.Int("repeat"), Included: c.StringSlice("include"), SetNotes: res.SetNotes(), DBNotes: res.DBNotes(),
		Ready: ready, Done: done}.Notes()
	s, err := bench.Publish(e.context, c.String("out"), e.stdout, recs, c.String("baseline"), c.String("title"), c.String("input"), notes)
	if err != nil {
		return err
	}
	if len(s.Mismatches) > 0 {
		return fmt.Errorf("%d instances got different lengths from different heuristics (see %s)", len(s.Mismatches), c.String("out"))
	}
	if n := gaveUp; n > 0 {
		return cmdline.LimitError{Err: fmt.Errorf("%d solves gave up at --max-nodes %d (their records are in %s)", n, c.Int64("max-nodes"), c.String("out"))}
	}
	return nil
}
