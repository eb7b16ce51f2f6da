package main

import (
	"errors"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/gapset/gapset/bdd"
	"github.com/gapset/gapset/bdd/levelplot"
	"github.com/gapset/gapset/internal/cmdline"
	"github.com/gapset/gapset/internal/progress"
	"github.com/gapset/gapset/keyset"
	"github.com/urfave/cli/v2"
)

// orderFlag reads an --order value: a named order, an inline list of key
// bits ("31,30,..."), or @FILE holding such a list (as `gapset order`
// writes it).
func orderFlag(v string, rows, cols, k int) (bdd.Order, error) {
	if path, ok := strings.CutPrefix(v, "@"); ok {
		b, err := os.ReadFile(path)
		if err != nil {
			return bdd.Order{}, err
		}
		o, err := bdd.ParseOrder(string(b), rows, cols, k)
		if err != nil {
			return bdd.Order{}, fmt.Errorf("%s: %w", path, err)
		}
		return o, nil
	}
	return bdd.ParseOrder(v, rows, cols, k)
}

func orderCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:  "order",
		Usage: "search for a variable order that gives a gap set a smaller BDD",
		Description: "Builds the BDD of a key-set file (--keys) in the --start order, or loads a .bdd file (--bdd),\n" +
			"then improves the order by swapping adjacent levels in place until a pass gains nothing or\n" +
			"--budget runs out; the best order found is written to --out (give it to build as --order @FILE)\n" +
			"and printed with its node count. Methods: sift (single variables), window (permutations of 3\n" +
			"adjacent variables), block-sift and block-window (whole cells, then the bits inside each cell;\n" +
			"these keep each cell's bits together, which the fast query layout needs).\n" +
			"Example: gapset order --keys /work/data/keys/Gap0_8.keys --start reverse --budget 2m --out g0_8.order",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "keys", Usage: "key-set `FILE` of the set"},
			&cli.StringFlag{Name: "bdd", Usage: "start from this .bdd `FILE` (its set and order) instead of --keys"},
			&cli.StringFlag{Name: "start", Value: "reverse", Usage: "start `ORDER` with --keys: a name, a bit list or @FILE"},
			encodingFlag(),
			&cli.StringFlag{Name: "method", Value: "block-sift", Usage: "`METHOD`: " + strings.Join(bdd.SearchMethods(), ", ")},
			&cli.DurationFlag{Name: "budget", Value: time.Minute, Usage: "stop searching after `DURATION` (the best order so far is kept)"},
			&cli.IntFlag{Name: "max-nodes", Usage: "never let the diagram pass `N` nodes while searching (0: 4x the start)"},
			&cli.StringFlag{Name: "out", Usage: "order `FILE` to write (required)"},
			&cli.StringFlag{Name: "save", Usage: "also save the BDD in the found order to this .bdd `FILE` (with its ZDD count)"},
			&cli.StringFlag{Name: "levels", Usage: "write nodes per level of the start and the found order to this CSV `FILE`"},
			&cli.StringFlag{Name: "chart", Usage: "draw nodes per level of the start and the found order to this PNG `FILE`"},
			&cli.BoolFlag{Name: "quiet", Aliases: []string{"q"}, Usage: "no progress on stderr"},
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
		if err := cmdline.CheckOutFile("--"+f, c.String(f)); err != nil {
			return err
		}
		e.cleanup.WillWrite(c.String(f))
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
	var d *bdd.Diagram
	var meta bdd.Meta
	var name string
	if path := c.String("bdd"); path != "" {
		pr.Update(0, 0, true, "%s: loading", path)
		var in bdd.Info
		var err error
		d, in, err = bdd.Load(path)
		if err != nil {
			if errors.Is(err, bdd.ErrFormat) || errors.Is(err, os.ErrNotExist) {
				return cmdline.BadInput(err)
			}
			return err
		}
		if in.ZDD {
			return cmdline.BadInputf("%s holds a ZDD: order search works on BDDs", path)
		}
		meta = in.Meta()
		meta.BuildTime, meta.ZDDNodes = 0, 0 // the search's own
		name = in.Name()
	} else {
		path := c.String("keys")
		h, keys, err := keyset.ReadAll(path)
		if err != nil {
			if errors.Is(err, keyset.ErrFormat) || errors.Is(err, os.ErrNotExist) {
				return cmdline.BadInput(err)
			}
			return err
		}
		o, err := orderFlag(c.String("start"), h.Rows, h.Cols, h.Cells)
		if err != nil {
			return cmdline.BadInput(fmt.Errorf("--start: %w", err))
		}
		enc, err := encodingOf(c, h)
		if err != nil {
			return err
		}
		enc.ConvertAll(keys, h.Rows*h.Cols, h.Cells)
		meta = bdd.Meta{Rows: h.Rows, Cols: h.Cols, Cells: h.Cells, Gap: h.Gap, Exact: h.Exact, Approx: h.Approx, Encoding: enc}
		name = h.Name()
		d, err = bdd.BuildInPlace(keys, o, false, func(stage string, done, total uint64) {
			pr.Update(int64(done), int64(total), false, "%s %s", name, stage)
		})
		if err != nil {
			return err
		}
	}
	startOrder := d.Order
	startSizes := d.LevelSizes()
	begin := time.Now()
	res, err := bdd.OrderSearch(d, bdd.SearchOptions{Method: c.String("method"), Deadline: begin.Add(c.Duration("budget")),
		MaxNodes: c.Int("max-nodes"), Progress: func(nodes, best int, note string) {
			pr.Update(0, 0, false, "%s %s: %d nodes now, best %d (start %d), %s", name, note, nodes, best, d.NodeCount(),
				time.Since(begin).Round(time.Second))
		}})
	if err != nil {
		return cmdline.BadInput(err)
	}
	took := time.Since(begin)
	d = nil
	got := res.Diagram
	if n, err := got.SatCount(); err != nil || n != got.Count {
		return fmt.Errorf("the reordered BDD holds %d members, the set %d (%v)", n, got.Count, err)
	}
	o := got.Order
	o.Name = orderName(c.String("method"), startOrder.Name)
	got.Order = o
	if err := bdd.WriteOrderFile(c.String("out"), o, meta.Rows, meta.Cols); err != nil {
		return err
	}
	if path := c.String("levels"); path != "" {
		csv := levelplot.CSV([]levelplot.Series{{Name: startOrder.Name, Counts: startSizes}, {Name: o.Name, Counts: res.LevelSizes}})
		if err := bdd.WriteTextFile(path, csv); err != nil {
			return err
		}
	}
	if path := c.String("chart"); path != "" {
		png, err := levelplot.Chart(fmt.Sprintf("%s: nodes per level, %s order and the order %s found (%s)", name, startOrder.Name,
			c.String("method"), took.Round(time.Second)),
			[]levelplot.Series{{Name: startOrder.Name, Counts: startSizes}, {Name: o.Name, Counts: res.LevelSizes}})
		if err != nil {
			return err
		}
		if err := bdd.WriteTextFile(path, string(png)); err != nil {
			return err
		}
	}
	var zddNodes int
	if path := c.String("save"); path != "" {
		pr.Update(0, 0, true, "%s: counting the ZDD", name)
		z, err := got.ZDDOf()
		if err != nil {
			return err
		}
		zddNodes = z.NodeCount()
		z = nil
		meta.BuildTime = took
		meta.ZDDNodes = uint64(zddNodes)
		pr.Update(0, 0, true, "%s: saving", name)
		if _, err := bdd.Save(path, got, meta); err != nil {
			return err
		}
	}
	pr.Done()
	fmt.Fprintf(e.stdout, "%s encoding=%s method=%s start=%s start_nodes=%d nodes=%d ratio=%.4f swaps=%d passes=%d timed_out=%t search=%.1fs",
		name, meta.Encoding, c.String("method"), startOrder.Name, res.Start, got.NodeCount(), float64(got.NodeCount())/float64(res.Start),
		res.Swaps, res.Passes, res.TimedOut, took.Seconds())
	if zddNodes > 0 {
		fmt.Fprintf(e.stdout, " zdd_nodes=%d", zddNodes)
	}
	fmt.Fprintf(e.stdout, " -> %s\n%s", c.String("out"), o.Format(meta.Rows, meta.Cols))
	return nil
}

// orderName names a found order after the method and the start, within the
// 32 bytes a .bdd header holds.
func orderName(method, start string) string {
	n := method + ":" + start
	if len(n) > 32 {
		n = n[:32]
	}
	return n
}

// encodingFlag selects the encoding of whole-board keys (build, order).
func encodingFlag() cli.Flag {
	return &cli.StringFlag{Name: "encoding", Value: bdd.Cells.String(),
		Usage: "key `ENCODING`: cells (the tile on each cell), ranks (each cell's tile ranked among the tiles not on the kept cells before it), ranks-reverse (... after it) or, for whole boards, tiles (the cell of each tile)"}
}

// encodingOf reads --encoding for a set of h's shape.
func encodingOf(c *cli.Context, h keyset.Header) (bdd.Encoding, error) {
	enc, err := bdd.ParseEncoding(c.String("encoding"))
	if err != nil {
		return 0, cmdline.BadInput(err)
	}
	if enc == bdd.Tiles && h.Cells != h.Rows*h.Cols {
		return 0, cmdline.BadInputf("--encoding %v needs whole boards, not %d of %d cells", enc, h.Cells, h.Rows*h.Cols)
	}
	return enc, nil
}
