package main

import (
	"fmt"
	"runtime"

	"github.com/gapset/gapset/ida"
	"github.com/gapset/gapset/internal/cmdline"
	"github.com/gapset/gapset/internal/progress"
	"github.com/gapset/gapset/solution"
	"github.com/urfave/cli/v2"
)

func solveCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:        "solve",
		Usage:       "solve boards optimally with IDA*",
		ArgsUsage:   "[BOARD...]",
		Description: help("solve") + "\n" + help("spec", heuristicNames()),
		Flags: append(append(boardFlags(),
			&cli.StringFlag{Name: "heuristic", Aliases: []string{"H"}, Value: "md", Usage: "lower bound `SPEC`: NAME, NAME:ARGS or max(SPEC,...); the names under Heuristics below"},
			&cli.StringFlag{Name: "format", Aliases: []string{"f"}, Value: "text", Usage: "output: text, json (one object per line) or csv"},
			&cli.Int64Flag{Name: "max-nodes", Usage: "give up on a board after `N` nodes expanded (0: no limit)"},
			&cli.IntFlag{Name: "threads", Value: runtime.NumCPU(), Usage: "search each board with `N` threads (same lengths; the last iteration's nodes depend on which thread reaches the goal first)"},
			&cli.BoolFlag{Name: "bpmx", Usage: "bidirectional pathmax: propagate bounds between a node and its children (fewer nodes with inconsistent heuristics such as dual lookups; one thread)"},
			&cli.BoolFlag{Name: "fsm", Usage: "prune duplicate move strings with a finite-state machine (fewer nodes, same lengths; not with --keep-undo)"},
			allSolutionsFlag(),
			keepUndoFlag(),
			quietFlag(),
		), heuristicFlags()...),
		Action: func(c *cli.Context) error { return runSolve(c, e) },
	}
}

func keepUndoFlag() cli.Flag {
	return &cli.BoolFlag{Name: "keep-undo", Usage: "also generate the move that undoes the previous one (an IDA* without that pruning; same solutions, more nodes)"}
}

func allSolutionsFlag() cli.Flag {
	return &cli.BoolFlag{Name: "all-solutions", Usage: "finish the last iteration: count every optimal solution, and nodes that do not depend on where the first lies"}
}

func runSolve(c *cli.Context, e *env) error {
	format := c.String("format")
	if err := cmdline.CheckFormat(format, "text", "json", "csv"); err != nil {
		return err
	}
	if c.Int64("max-nodes") < 0 {
		return cmdline.BadInputf("--max-nodes must not be negative (0: no limit)")
	}
	if err := cmdline.InRange("--threads", c.Int("threads"), 1, maxWorkers); err != nil {
		return err
	}
	if c.Bool("fsm") && c.Bool("keep-undo") {
		return cmdline.BadInputf("--fsm and --keep-undo exclude each other")
	}
	insts, err := readBoards(c, e)
	if err != nil {
		return err
	}
	hs, r, err := resolveHeuristics(c, e, []string{c.String("heuristic")}, true)
	if err != nil {
		return err
	}
	h := hs[0]
	// BPMX searches with one thread; a --threads asked for explicitly
	// would be silently ignored.
	if v, ok := h.(ida.Variant); (c.Bool("bpmx") || ok && v.BPMX) && c.IsSet("threads") && c.Int("threads") > 1 {
		return cmdline.BadInputf("--threads %d: bidirectional pathmax (--bpmx, +bpmx) searches with one thread", c.Int("threads"))
	}
	prog := progress.New(e.stderr, c.Bool("quiet"))
	// The databases' last checks run beside the first searches; the
	// lines wait for them.
	out := solution.NewHeldWriter(e.stdout, format, c.Int64("max-nodes"), c.Bool("all-solutions"), r.Pending())
	opt := ida.Options{Context: e.context, MaxNodes: c.Int64("max-nodes"), AllSolutions: c.Bool("all-solutions"), KeepUndo: c.Bool("keep-undo"), Threads: c.Int("threads"), BPMX: c.Bool("bpmx")}
	if c.Bool("fsm") {
		opt.FSM = ida.DefaultFSM()
	}
	if err := solution.Solve(insts, h, opt, out, prog); err != nil {
		return cmdline.InputIf(err, solution.ErrCheckFailed) // a database file's check failed beside the search: as at load
	}
	if out.Unsolved > 0 {
		return cmdline.LimitError{Err: fmt.Errorf("%d of %d boards unsolved: --max-nodes %d reached", out.Unsolved, len(insts), c.Int64("max-nodes"))}
	}
	return nil
}
