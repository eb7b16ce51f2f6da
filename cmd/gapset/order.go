package main

import (
	"fmt"
	"strings"
	"time"

	"github.com/gapset/gapset/bdd"
	"github.com/gapset/gapset/bdd/ordersearch"
	"github.com/gapset/gapset/internal/cmdline"
	"github.com/gapset/gapset/internal/progress"
	"github.com/gapset/gapset/keyset"
	"github.com/urfave/cli/v2"
)

func orderCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:        "order",
		Usage:       "search for a variable order that gives a gap set a smaller BDD",
		Description: help("order"),
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "keys", Usage: "key-set `FILE` of the set", Action: cmdline.InputFlag("--keys")},
			&cli.StringFlag{Name: "bdd", Usage: "start from this .bdd `FILE` (its set and order) instead of --keys", Action: cmdline.InputFlag("--bdd")},
			&cli.StringFlag{Name: "start", Value: "reverse", Usage: "start `ORDER` with --keys: a name, a bit list or @FILE", Action: cmdline.AtInputFlag("--start")},
			encodingFlag(),
			&cli.StringFlag{Name: "method", Value: "block-sift", Usage: "`METHOD`: " + strings.Join(bdd.SearchMethods(), ", ")},
			&cli.DurationFlag{Name: "budget", Value: time.Minute, Usage: "stop searching after `DURATION` (the best order so far is kept)"},
			&cli.IntFlag{Name: "max-nodes", Usage: "abandon (and undo) a direction of moves once the diagram passes `N` nodes (at least the start's; 0: 4x the start)"},
			&cli.StringFlag{Name: "out", Usage: "order `FILE` to write (required)"},
			&cli.StringFlag{Name: "save", Usage: "also save the BDD in the found order to this .bdd `FILE` (with its ZDD count)"},
			&cli.StringFlag{Name: "levels", Usage: "write nodes per level of the start and the found order to this CSV `FILE`"},
			&cli.StringFlag{Name: "chart", Usage: "draw nodes per level of the start and the found order to this PNG `FILE`"},
			quietFlag(),
		},
		Action: func(c *cli.Context) error { return runOrder(c, e) },
	}
}

func runOrder(c *cli.Context, e *env) error {
	if err := cmdline.NoArgs(c); err != nil {
		return err
	}
	for _, f := range []string{"out", "save", "levels", "chart"} {
		if f != "out" && c.String(f) == "" {
			continue
		}
		if err := e.willWrite("--"+f, c.String(f)); err != nil {
			return err
		}
	}
	if (c.String("keys") == "") == (c.String("bdd") == "") {
		return cmdline.BadInputf("give exactly one of --keys FILE and --bdd FILE")
	}
	if c.Duration("budget") <= 0 {
		return cmdline.BadInputf("--budget must be positive")
	}
	if c.Int("max-nodes") < 0 {
		return cmdline.BadInputf("--max-nodes must not be negative")
	}
	pr := progress.New(e.stderr, c.Bool("quiet"))
	defer pr.Done()
	status := func(s string) { pr.Update(0, 0, true, "%s", s) }
	start, err := ordersearch.Open(c.String("bdd"), c.String("keys"), c.String("start"), c.String("encoding"), status, func(set, stage string, done, total uint64) {
		pr.Update(int64(done), int64(total), false, "%s %s", set, stage)
	})
	if err != nil {
		return cmdline.InputIf(err, ordersearch.ErrInput)
	}
	res, err := ordersearch.Run(start, ordersearch.Options{Method: c.String("method"), Budget: c.Duration("budget"), MaxNodes: c.Int("max-nodes"),
		Progress: func(s string) { pr.Update(0, 0, false, "%s", s) }})
	if err != nil {
		return cmdline.BadInput(err)
	}
	if err := res.WriteFiles(e.context, c.String("out"), c.String("levels"), c.String("chart"), c.String("save"), status); err != nil {
		return err
	}
	pr.Done()
	fmt.Fprint(e.stdout, res.Summary(c.String("out")))
	return nil
}

// encodingFlag selects the encoding of whole-board keys (build, order).
func encodingFlag() cli.Flag {
	return &cli.StringFlag{Name: "encoding", Value: bdd.Cells.String(),
		Usage: "key `ENCODING`: cells (tile on each cell), ranks (tile ranked among those not on kept cells before), ranks-reverse (... after), tiles (cell of each tile)"}
}

// encodingOf reads --encoding for a set of h's shape.
func encodingOf(c *cli.Context, h keyset.Header) (bdd.Encoding, error) {
	enc, err := bdd.EncodingFor(c.String("encoding"), h.Rows*h.Cols, h.Cells)
	return enc, cmdline.BadInput(err)
}
