package main

import (
	"github.com/gapset/gapset/puzzle/report"
	"github.com/gapset/gapset/puzzle/six"
	"github.com/gapset/gapset/search"
	"github.com/urfave/cli/v2"
)

func sixCommand(e *env) *cli.Command {
	board := func(c *cli.Context) (six.Board, error) {
		s, err := joinArgs(c, "board (7 numbers, e.g. \"1 5 2 6 3 4 0\")")
		if err != nil {
			return 0, err
		}
		b, err := six.Parse(s)
		if err != nil {
			return 0, badInputf("board %s: %v", quoteArg(s), err)
		}
		return b, nil
	}
	bfsLike := func(method string, run func(six.Board, search.Options) (search.Result[six.Board], error)) cli.ActionFunc {
		return func(c *cli.Context) error {
			if err := checkFormat(c.String("format"), "text", "json"); err != nil {
				return err
			}
			opt, err := searchOptions(c)
			if err != nil {
				return err
			}
			b, err := board(c)
			if err != nil {
				return err
			}
			r, err := run(b, opt)
			if err != nil {
				return searchError(err)
			}
			rec := report.Path{Method: method, Goal: six.Goal().String(), Dedup: opt.Dedup.String(), NoUndo: opt.NoUndo}
			return writePath(e.stdout, c.String("format"), six.Spec(), rec, r)
		}
	}
	goal := six.Goal()
	isGoal := func(b six.Board) bool { return b == goal }
	return &cli.Command{
		Name:  "six",
		Usage: "the 6-puzzle on its hexagonal graph (M. Hiroi's breadth-first search pages)",
		Description: "Seven positions, 3 the centre; 0 is the blank; the goal is (1 2 3 4 5 6 0).\n" +
			"Adjacency: 0:{1,2,3} 1:{0,3,4} 2:{0,3,5} 3:{0,1,2,4,5,6} 4:{1,3,6} 5:{2,3,6} 6:{3,4,5}.\n" +
			"Examples:\n" +
			"  gapset six solve 1 5 2 6 3 4 0\n" +
			"  gapset six bidir --format json \"(1 5 2 6 3 4 0)\"\n" +
			"  gapset six farthest\n" +
			"  gapset six ida --lower-bound 4 6 5 1 3 2 0",
		Subcommands: []*cli.Command{
			{
				Name: "solve", Usage: "breadth-first search with parent links", ArgsUsage: "BOARD",
				Flags: bfsFlags(false),
				Action: bfsLike("bfs", func(b six.Board, opt search.Options) (search.Result[six.Board], error) {
					return search.BFS[six.Board](six.Puzzle{}, b, isGoal, opt)
				}),
			},
			{
				Name: "bidir", Usage: "bidirectional breadth-first search (one queue, a side per entry)", ArgsUsage: "BOARD",
				Flags: bfsFlags(false),
				Action: bfsLike("bidir", func(b six.Board, opt search.Options) (search.Result[six.Board], error) {
					return search.Bidirectional[six.Board](six.Puzzle{}, b, goal, opt)
				}),
			},
			{
				Name: "farthest", Usage: "breadth-first search from the goal to exhaustion: the hardest positions",
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
					l, err := search.Farthest[six.Board](six.Puzzle{}, goal, opt)
					if err != nil {
						return searchError(err)
					}
					return six.Spec().Farthest(goal, l, opt).Write(e.stdout, c.String("format"))
				},
			},
			{
				Name: "ida", Usage: "iterative deepening, optionally with the lower bound (sum of graph distances home)", ArgsUsage: "BOARD",
				Flags: deepenFlags(),
				Action: func(c *cli.Context) error {
					if err := checkFormat(c.String("format"), "text", "json"); err != nil {
						return err
					}
					b, err := board(c)
					if err != nil {
						return err
					}
					var lb search.Bound[six.Board]
					useLB := c.Bool("lower-bound")
					if useLB {
						lb = six.NewBound()
					}
					opt, err := deepenOptions(c)
					if err != nil {
						return err
					}
					r, err := search.IterativeDeepening[six.Board](six.Puzzle{}, b, isGoal, lb, opt)
					if err != nil {
						return searchError(err)
					}
					rec := report.Path{Method: "iterative-deepening", Goal: goal.String(), NoUndo: opt.NoUndo, LowerBound: &useLB}
					return writePath(e.stdout, c.String("format"), six.Spec(), rec, r)
				},
			},
		},
	}
}
