package main

import (
	"fmt"

	"github.com/gapset/gapset/encode"
	"github.com/gapset/gapset/puzzle/report"
	"github.com/gapset/gapset/puzzle/slide"
	"github.com/gapset/gapset/search"
	"github.com/urfave/cli/v2"
)

func slideCommand(e *env) *cli.Command {
	setup := func(c *cli.Context) (*slide.Puzzle, report.Spec[slide.State], error) {
		p, err := slide.New(c.Int("rows"), c.Int("cols"))
		if err != nil {
			return nil, report.Spec[slide.State]{}, badInput(err)
		}
		return p, p.Spec(), nil
	}
	readBoard := func(c *cli.Context, p *slide.Puzzle) (slide.State, error) {
		s, err := joinArgs(c, fmt.Sprintf("board (%d numbers, blank 0)", p.Rows()*p.Cols()))
		if err != nil {
			return slide.State{}, err
		}
		b, err := encode.Parse(s, p.Rows(), p.Cols())
		if err != nil {
			return slide.State{}, badInputf("board %s: %v", quoteArg(s), err)
		}
		return p.State(b), nil
	}
	bfsLike := func(method string, run func(*slide.Puzzle, slide.State, search.Options) (search.Result[slide.State], error)) cli.ActionFunc {
		return func(c *cli.Context) error {
			if err := checkFormat(c.String("format"), "text", "json"); err != nil {
				return err
			}
			opt, err := searchOptions(c)
			if err != nil {
				return err
			}
			p, spec, err := setup(c)
			if err != nil {
				return err
			}
			start, err := readBoard(c, p)
			if err != nil {
				return err
			}
			r, err := run(p, start, opt)
			if err != nil {
				return searchError(err)
			}
			rec := report.Path{Method: method, Goal: spec.Format(p.Goal()), Dedup: opt.Dedup.String(), NoUndo: opt.NoUndo}
			return writePath(e.stdout, c.String("format"), spec, rec, r)
		}
	}
	return &cli.Command{
		Name:  "slide",
		Usage: "R x C sliding boards (2x3, 3x3, ...) with the generic search core",
		Description: "Boards as in solve: row-major numbers, blank 0, goal 1 2 ... N-1 then the blank.\n" +
			"Examples:\n" +
			"  gapset slide --rows 2 --cols 3 farthest\n" +
			"  gapset slide farthest --format json          # 3x3\n" +
			"  gapset slide solve 8 6 7 2 5 4 3 0 1\n" +
			"  gapset slide ida --lower-bound 8 6 7 2 5 4 3 0 1",
		Flags: []cli.Flag{
			&cli.IntFlag{Name: "rows", Value: 3, Usage: "board rows"},
			&cli.IntFlag{Name: "cols", Value: 3, Usage: "board columns"},
		},
		Subcommands: []*cli.Command{
			{
				Name: "solve", Usage: "breadth-first search with parent links", ArgsUsage: "BOARD",
				Flags: bfsFlags(false),
				Action: bfsLike("bfs", func(p *slide.Puzzle, s slide.State, opt search.Options) (search.Result[slide.State], error) {
					goal := p.Goal()
					return search.BFS[slide.State](p, s, func(k slide.State) bool { return k == goal }, opt)
				}),
			},
			{
				Name: "bidir", Usage: "bidirectional breadth-first search", ArgsUsage: "BOARD",
				Flags: bfsFlags(false),
				Action: bfsLike("bidir", func(p *slide.Puzzle, s slide.State, opt search.Options) (search.Result[slide.State], error) {
					return search.Bidirectional[slide.State](p, s, p.Goal(), opt)
				}),
			},
			{
				Name: "farthest", Usage: "breadth-first search from the goal to exhaustion: the hardest boards",
				Flags: bfsFlags(true),
				Action: func(c *cli.Context) error {
					if err := checkFormat(c.String("format"), "text", "json"); err != nil {
						return err
					}
					if c.NArg() > 0 {
						return badInputf("farthest takes no board (it starts from the goal)")
					}
					opt, err := searchOptions(c)
					if err != nil {
						return err
					}
					p, spec, err := setup(c)
					if err != nil {
						return err
					}
					l, err := search.Farthest[slide.State](p, p.Goal(), opt)
					if err != nil {
						return searchError(err)
					}
					return spec.Farthest(p.Goal(), l, opt).Write(e.stdout, c.String("format"))
				},
			},
			{
				Name: "ida", Usage: "iterative deepening, optionally with the Manhattan distance as lower bound", ArgsUsage: "BOARD",
				Flags: deepenFlags(),
				Action: func(c *cli.Context) error {
					if err := checkFormat(c.String("format"), "text", "json"); err != nil {
						return err
					}
					p, spec, err := setup(c)
					if err != nil {
						return err
					}
					start, err := readBoard(c, p)
					if err != nil {
						return err
					}
					var lb search.Bound[slide.State]
					useLB := c.Bool("lower-bound")
					if useLB {
						lb = p.Manhattan()
					}
					opt, err := deepenOptions(c)
					if err != nil {
						return err
					}
					r, err := search.IterativeDeepening[slide.State](p, start, spec.Goal, lb, opt)
					if err != nil {
						return searchError(err)
					}
					rec := report.Path{Method: "iterative-deepening", Goal: spec.Format(p.Goal()), NoUndo: opt.NoUndo, LowerBound: &useLB}
					return writePath(e.stdout, c.String("format"), spec, rec, r)
				},
			},
		},
	}
}
