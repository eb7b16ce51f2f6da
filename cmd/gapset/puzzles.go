package main

// Shared plumbing of the small-puzzle commands (six, oshidori, slide): the
// search flags and their errors; package report checks and renders the path.

import (
	"errors"
	"fmt"
	"strings"

	"github.com/gapset/gapset/internal/cmdline"
	"github.com/gapset/gapset/puzzle"
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

// boardCommands are the solve, bidir, farthest and ida subcommands of a
// one-goal puzzle (puzzle.Methods); usage holds their four usage lines.
// Each checks the flags, sets up the puzzle, reads the board (none for
// farthest), runs the search and writes its record.
func boardCommands[S comparable](e *env, setup func(*cli.Context) (puzzle.OneGoal[S], error), usage [4]string) []*cli.Command {
	action := func(method string) cli.ActionFunc {
		return func(c *cli.Context) error {
			if err := cmdline.CheckFormat(c.String("format"), "text", "json"); err != nil {
				return err
			}
			board := method != "farthest"
			if !board && c.NArg() > 0 {
				return cmdline.BadInputf("farthest takes no board (it starts from the goal)")
			}
			var opt search.Options
			var dopt search.DeepenOptions
			var err error
			if method == "ida" {
				dopt, err = deepenOptions(c)
			} else {
				opt, err = searchOptions(c)
			}
			if err != nil {
				return err
			}
			p, err := setup(c)
			var start S
			if err == nil && board {
				start, err = startBoard(c, p)
			}
			if err != nil {
				return err
			}
			rec, err := p.Run(method, start, opt, dopt, method == "ida" && c.Bool("lower-bound"))
			if err != nil {
				return searchError(err)
			}
			return rec.Write(e.stdout, c.String("format"))
		}
	}
	cmds := make([]*cli.Command, len(puzzle.Methods))
	for i, m := range puzzle.Methods {
		cmds[i] = &cli.Command{Name: m, Usage: usage[i], ArgsUsage: "BOARD", Flags: bfsFlags(m == "farthest"), Action: action(m)}
	}
	cmds[2].ArgsUsage, cmds[3].Flags = "", deepenFlags()
	return cmds
}

// startBoard reads the board arguments.
func startBoard[S comparable](c *cli.Context, p puzzle.OneGoal[S]) (S, error) {
	s, err := joinArgs(c, p.What)
	if err != nil {
		return *new(S), err
	}
	b, err := p.Parse(s)
	if err != nil {
		return *new(S), cmdline.BadInputf("board %s: %v", cmdline.Quote(s), err)
	}
	return b, nil
}
