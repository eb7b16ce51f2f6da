package main

// Shared plumbing of the small-puzzle commands (six, oshidori, slide): the
// search flags and their errors; package report checks and renders the path.

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/gapset/gapset/internal/cmdline"
	"github.com/gapset/gapset/puzzle/report"
	"github.com/gapset/gapset/search"
	"github.com/urfave/cli/v2"
)

func formatFlag() cli.Flag {
	return &cli.StringFlag{Name: "format", Aliases: []string{"f"}, Value: "text", Usage: "output: text or json"}
}

// bfsFlags are the flags of the breadth-first methods.
func bfsFlags(noUndo bool) []cli.Flag {
	return []cli.Flag{
		formatFlag(),
		&cli.StringFlag{Name: "dedup", Value: "map", Usage: "duplicate detection: map, open (open addressing, linear probing) or linear (scan; slow, for measuring)"},
		&cli.BoolFlag{Name: "no-undo", Value: noUndo, Usage: "never generate the move that undoes the last one"},
		&cli.IntFlag{Name: "max-states", Value: 10_000_000, Usage: "give up after storing `N` states (about 100 bytes each)"},
	}
}

// deepenFlags are the flags of iterative deepening.
func deepenFlags() []cli.Flag {
	return []cli.Flag{
		formatFlag(),
		&cli.BoolFlag{Name: "lower-bound", Aliases: []string{"l"}, Usage: "prune with the admissible lower bound (depth + bound > limit cuts); the limit starts at the bound"},
		&cli.BoolFlag{Name: "no-undo", Value: true, Usage: "never move the same piece twice in a row (--no-undo=false to allow)"},
		&cli.IntFlag{Name: "max-depth", Value: 40, Usage: "give up after the pass with depth limit `N`"},
		&cli.Int64Flag{Name: "max-nodes", Usage: "give up after `N` nodes expanded (0: no limit)"},
	}
}

func searchOptions(c *cli.Context) (search.Options, error) {
	d, err := search.ParseDedup(c.String("dedup"))
	if err != nil {
		return search.Options{}, cmdline.BadInput(err)
	}
	if c.Int("max-states") < 1 {
		return search.Options{}, cmdline.BadInputf("--max-states must be at least 1")
	}
	return search.Options{Dedup: d, NoUndo: c.Bool("no-undo"), MaxStates: c.Int("max-states")}, nil
}

func deepenOptions(c *cli.Context) (search.DeepenOptions, error) {
	if c.Int("max-depth") < 0 || c.Int64("max-nodes") < 0 {
		return search.DeepenOptions{}, cmdline.BadInputf("--max-depth and --max-nodes must not be negative")
	}
	return search.DeepenOptions{NoUndo: c.Bool("no-undo"), MaxDepth: c.Int("max-depth"), MaxNodes: c.Int64("max-nodes")}, nil
}

// searchError turns a failed search into the command's error: an
// unreachable goal is the input's fault (exit 2), a limit is not.
func searchError(err error) error {
	if errors.Is(err, search.ErrNotFound) {
		return cmdline.BadInput(err)
	}
	if errors.Is(err, search.ErrLimit) {
		return fmt.Errorf("%w (raise --max-states, --max-nodes or --max-depth)", err)
	}
	return err
}

// writePath verifies the solution and prints its record.
func writePath[S comparable](w io.Writer, format string, spec report.Spec[S], rec report.Path, r search.Result[S]) error {
	rec, err := spec.Path(rec, r)
	if err != nil {
		return err
	}
	return rec.Write(w, format)
}

// joinArgs makes one board string of the arguments: either one quoted
// argument or several bare pieces.
func joinArgs(c *cli.Context, what string) (string, error) {
	if c.NArg() == 0 {
		return "", cmdline.BadInputf("no %s given", what)
	}
	for _, a := range c.Args().Slice() {
		if strings.HasPrefix(a, "--") {
			return "", cmdline.BadInputf("%s after the board: put flags before it", cmdline.Quote(a))
		}
	}
	return strings.Join(c.Args().Slice(), " "), nil
}

// boardPuzzle is a puzzle with one goal state, as its flags set it up.
type boardPuzzle[S comparable] struct {
	problem search.Problem[S]
	spec    report.Spec[S]
	goal    S
	bound   func() search.Bound[S]          // the admissible lower bound of --lower-bound
	start   func(c *cli.Context) (S, error) // reads the board arguments
}

// boardCommands are the solve, bidir, farthest and ida subcommands of a
// one-goal puzzle; usage holds their four usage lines.
func boardCommands[S comparable](e *env, setup func(*cli.Context) (boardPuzzle[S], error), usage [4]string) []*cli.Command {
	withStart := func(c *cli.Context) (boardPuzzle[S], S, error) {
		var start S
		p, err := setup(c)
		if err == nil {
			start, err = p.start(c)
		}
		return p, start, err
	}
	bfsLike := func(method string, run func(boardPuzzle[S], S, search.Options) (search.Result[S], error)) cli.ActionFunc {
		return func(c *cli.Context) error {
			if err := cmdline.CheckFormat(c.String("format"), "text", "json"); err != nil {
				return err
			}
			opt, err := searchOptions(c)
			if err != nil {
				return err
			}
			p, start, err := withStart(c)
			if err != nil {
				return err
			}
			r, err := run(p, start, opt)
			if err != nil {
				return searchError(err)
			}
			rec := report.Path{Method: method, Goal: p.spec.Format(p.goal), Dedup: opt.Dedup.String(), NoUndo: opt.NoUndo}
			return writePath(e.stdout, c.String("format"), p.spec, rec, r)
		}
	}
	return []*cli.Command{
		{
			Name: "solve", Usage: usage[0], ArgsUsage: "BOARD",
			Flags: bfsFlags(false),
			Action: bfsLike("bfs", func(p boardPuzzle[S], s S, opt search.Options) (search.Result[S], error) {
				return search.BFS(p.problem, s, p.spec.Goal, opt)
			}),
		},
		{
			Name: "bidir", Usage: usage[1], ArgsUsage: "BOARD",
			Flags: bfsFlags(false),
			Action: bfsLike("bidir", func(p boardPuzzle[S], s S, opt search.Options) (search.Result[S], error) {
				return search.Bidirectional(p.problem, s, p.goal, opt)
			}),
		},
		{
			Name: "farthest", Usage: usage[2],
			Flags: bfsFlags(true),
			Action: func(c *cli.Context) error {
				if err := cmdline.CheckFormat(c.String("format"), "text", "json"); err != nil {
					return err
				}
				if c.NArg() > 0 {
					return cmdline.BadInputf("farthest takes no board (it starts from the goal)")
				}
				opt, err := searchOptions(c)
				if err != nil {
					return err
				}
				p, err := setup(c)
				if err != nil {
					return err
				}
				l, err := search.Farthest(p.problem, p.goal, opt)
				if err != nil {
					return searchError(err)
				}
				return p.spec.Farthest(p.goal, l, opt).Write(e.stdout, c.String("format"))
			},
		},
		{
			Name: "ida", Usage: usage[3], ArgsUsage: "BOARD",
			Flags: deepenFlags(),
			Action: func(c *cli.Context) error {
				if err := cmdline.CheckFormat(c.String("format"), "text", "json"); err != nil {
					return err
				}
				p, start, err := withStart(c)
				if err != nil {
					return err
				}
				var lb search.Bound[S]
				useLB := c.Bool("lower-bound")
				if useLB {
					lb = p.bound()
				}
				opt, err := deepenOptions(c)
				if err != nil {
					return err
				}
				r, err := search.IterativeDeepening(p.problem, start, p.spec.Goal, lb, opt)
				if err != nil {
					return searchError(err)
				}
				rec := report.Path{Method: "iterative-deepening", Goal: p.spec.Format(p.goal), NoUndo: opt.NoUndo, LowerBound: &useLB}
				return writePath(e.stdout, c.String("format"), p.spec, rec, r)
			},
		},
	}
}
