package main

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/gapset/gapset/bdd"
	"github.com/gapset/gapset/encode"
	"github.com/gapset/gapset/gapset"
	"github.com/gapset/gapset/ida"
	"github.com/gapset/gapset/memset"
	"github.com/urfave/cli/v2"
)

// gapSetFlags are the flags that supply gap sets to the gap0/gap2 heuristics.
func gapSetFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringSliceFlag{Name: "keys", Usage: "key-set `FILE` (gapset enumerate) held exactly in memory; repeat for the Gap0 and Gap2 sets"},
		&cli.StringSliceFlag{Name: "bdd", Usage: "BDD `FILE` of a gap set; repeat for the Gap0 and Gap2 sets"},
		&cli.IntSliceFlag{Name: "cells", Usage: "enumerate in memory the sets Gap0, Gap2, ..., Gap<max-gap> projected onto the last `K` cells (K = rows*cols: whole boards; the 4x4 Gap0 takes about a minute); repeatable"},
		&cli.IntFlag{Name: "max-gap", Usage: "largest gap `G` enumerated for --cells (even; the 4x4 board needs key files beyond 0)"},
		&cli.IntSliceFlag{Name: "dense", Value: cli.NewIntSlice(defaultDense()...), Usage: "put in front of each gap set its projections onto its last `K` cells as bit tables (16^K bits: 4 is 8 KiB, 5 128 KiB, 6 2 MiB), asked in the order given, that answer most questions \"no\" from the cache; repeatable; 0: none"},
		&cli.BoolFlag{Name: "no-skip", Usage: "query the gap sets at every node (no lower-bound-check skipping)"},
	}
}

// loadedSet is one gap set ready for queries.
type loadedSet struct {
	set   ida.Set
	name  string // Gap0_8, Gap2, ...
	gap   int    // holds configurations of gap <= gap
	cells int
	count int
	bytes int64
	// bddNodes is the decision-node count of a BDD (0 for an exact set)
	bddNodes uint64
}

// bddSet tells the evaluator which key bits a BDD tests, so answers are
// memoised per projected key.
type bddSet struct {
	*bdd.Set
	mask uint64
}

func (b bddSet) Mask() uint64 { return b.mask }

// setPool is every set named by the flags, loaded once per run.
type setPool struct {
	sets   []loadedSet
	tables map[string]*memset.Dense // dense filters by set name and cells
}

const poolKey = "gapsets"

// gapPool loads the sets named by the flags, once per command run (kept in
// the app's metadata, not in a global).
func gapPool(c *cli.Context) (*setPool, error) {
	if p, ok := c.App.Metadata[poolKey].(*setPool); ok {
		return p, nil
	}
	rows, cols := c.Int("rows"), c.Int("cols")
	if err := encode.CheckSize(rows, cols); err != nil {
		return nil, err
	}
	p := &setPool{}
	for _, path := range c.StringSlice("keys") {
		s, h, err := memset.Load(path)
		if err != nil {
			return nil, err
		}
		if h.Rows != rows || h.Cols != cols {
			return nil, fmt.Errorf("%s: a %dx%d set, but the boards are %dx%d (use --rows/--cols)", path, h.Rows, h.Cols, rows, cols)
		}
		if h.Exact && h.Gap > 0 {
			return nil, fmt.Errorf("%s: %s holds gap exactly %d; the heuristic needs sets of gap at most 2i", path, h.Name(), h.Gap)
		}
		p.sets = append(p.sets, loadedSet{set: s, name: h.Name(), gap: h.Gap, cells: h.Cells, count: s.Len(), bytes: s.Bytes()})
	}
	for _, path := range c.StringSlice("bdd") {
		s, err := bdd.Open(path)
		if err != nil {
			return nil, err
		}
		in := s.Info()
		if in.Rows != rows || in.Cols != cols {
			return nil, fmt.Errorf("%s: a %dx%d set, but the boards are %dx%d (use --rows/--cols)", path, in.Rows, in.Cols, rows, cols)
		}
		if in.Exact && in.Gap > 0 {
			return nil, fmt.Errorf("%s: %s holds gap exactly %d; the heuristic needs sets of gap at most 2i", path, in.Name(), in.Gap)
		}
		p.sets = append(p.sets, loadedSet{set: bddSet{s, encode.ProjectMask(in.Cells)}, name: in.Name() + ".bdd", gap: in.Gap,
			cells: in.Cells, count: int(in.Count), bytes: in.FileSize, bddNodes: in.Nodes})
	}
	if cells := c.IntSlice("cells"); len(cells) > 0 {
		n := rows * cols
		cells = slices.Compact(slices.Sorted(slices.Values(cells)))
		maxGap := c.Int("max-gap")
		if maxGap < 0 || maxGap%2 != 0 {
			return nil, fmt.Errorf("--max-gap %d must be even and not negative", maxGap)
		}
		prog := newProgress(c.App.ErrWriter, c.Bool("quiet"))
		// one enumeration gives every level: the layers are exact gaps
		sets, err := gapset.LevelSets(context.Background(), rows, cols, maxGap, cells, func(pr gapset.Progress) {
			prog.update(0, 0, false, "enumerating gap <= %d of %dx%d: gap %d, Manhattan %d, %d members so far", maxGap, rows, cols, pr.Gap, pr.Manhattan, pr.Members)
		})
		prog.done()
		if err != nil {
			return nil, err
		}
		for i := 0; 2*i <= maxGap; i++ {
			for _, k := range cells {
				s := memset.New(sets[k][i], k)
				name := "Gap" + strconv.Itoa(2*i)
				if k < n {
					name += "_" + strconv.Itoa(k)
				}
				p.sets = append(p.sets, loadedSet{set: s, name: name, gap: 2 * i, cells: k, count: s.Len(), bytes: s.Bytes()})
			}
		}
	}
	if c.App.Metadata == nil {
		c.App.Metadata = map[string]any{}
	}
	c.App.Metadata[poolKey] = p
	return p, nil
}

// pick finds the set for gap g; cells 0 accepts any, but only if one fits.
func (p *setPool) pick(g, cells int) (loadedSet, error) {
	var fit []loadedSet
	for _, s := range p.sets {
		if s.gap == g && (cells == 0 || s.cells == cells) {
			fit = append(fit, s)
		}
	}
	switch {
	case len(fit) == 1:
		return fit[0], nil
	case len(fit) == 0:
		return loadedSet{}, fmt.Errorf("no Gap%d set%s given (use --keys, --bdd or --cells)", g, cellsNote(cells))
	}
	var names []string
	for _, s := range fit {
		names = append(names, s.name)
	}
	return loadedSet{}, fmt.Errorf("several Gap%d sets (%s): name one, e.g. gap%d:%d", g, strings.Join(names, ", "), g, fit[0].cells)
}

func cellsNote(cells int) string {
	if cells == 0 {
		return ""
	}
	return fmt.Sprintf(" on %d cells", cells)
}

// gapHeuristic makes h_G:maxGap from the pool: levels Gap0, Gap2, ...,
// Gap<maxGap>, each on the given cells (0: the only set of its gap).
// filter > 0 puts the sets on filter cells in front of them (see ida.Gap).
func gapHeuristic(c *cli.Context, maxGap, cells, filter int) (ida.Heuristic, error) {
	p, err := gapPool(c)
	if err != nil {
		return nil, err
	}
	h := ida.Gap{NoSkip: c.Bool("no-skip")}
	var names []string
	for g := 0; g <= maxGap; g += 2 {
		s, err := p.pick(g, cells)
		if err != nil {
			return nil, err
		}
		h.Levels = append(h.Levels, s.set)
		name := s.name
		var tabs []ida.BitTable
		var ks []string
		for _, k := range c.IntSlice("dense") {
			d, err := p.dense(s, k)
			if err != nil {
				return nil, err
			}
			if d != nil {
				tabs = append(tabs, d)
				ks = append(ks, strconv.Itoa(k))
			}
		}
		h.Dense = append(h.Dense, tabs)
		if c.IsSet("dense") {
			// only named when chosen, to compare runs; the default is silent
			name += "<" + strings.Join(ks, ",") + ">"
		}
		if filter > 0 {
			f, err := p.pick(g, filter)
			if err != nil {
				return nil, err
			}
			if f.cells >= s.cells {
				return nil, fmt.Errorf("filter %s must have fewer cells than %s", f.name, s.name)
			}
			h.Filters = append(h.Filters, f.set)
			name += "[" + f.name + "]"
		}
		names = append(names, name)
	}
	h.Label = fmt.Sprintf("gap%d(%s)", maxGap, strings.Join(names, "+"))
	if h.NoSkip {
		h.Label += "-noskip"
	}
	return h, nil
}

// defaultDense is the dense tables' cells by default: 8 KiB that stays in
// the L1 cache, then 2 MiB in L2 (see NOTES.md, issue 6: the fastest of 4,
// 5, 6 and 4+6 on random instances).
func defaultDense() []int { return []int{4, 6} }

// dense returns the bit table of s projected onto its last k cells (nil
// when k is 0 or s is on no more than k cells), made once per set and k.
func (p *setPool) dense(s loadedSet, k int) (ida.BitTable, error) {
	if k <= 0 || s.cells <= k {
		return nil, nil
	}
	if k > memset.MaxDenseCells {
		return nil, badInputf("--dense %d: at most %d cells", k, memset.MaxDenseCells)
	}
	id := fmt.Sprintf("%s/%d", s.name, k)
	if d, ok := p.tables[id]; ok {
		return d, nil
	}
	var d *memset.Dense
	var err error
	switch set := s.set.(type) {
	case *memset.Set:
		d, err = set.Project(k)
	case bddSet:
		d, err = memset.NewDense(k)
		if err == nil {
			err = set.Project(k, d.Add)
		}
		if errors.Is(err, bdd.ErrNotCellwise) {
			return nil, nil // the set is still used, only without its dense table
		}
	default:
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", s.name, err)
	}
	if p.tables == nil {
		p.tables = map[string]*memset.Dense{}
	}
	p.tables[id] = d
	return d, nil
}

// resolveHeuristic accepts every name of heuristicMakers and, for gap
// sets, the qualified form gapG:K (h_G:G with the sets on K cells) or
// gapG:K/F (the same, asking the sets on F cells first as a filter).
func resolveHeuristic(c *cli.Context, name string) (ida.Heuristic, error) {
	if base, k, ok := strings.Cut(name, ":"); ok && strings.HasPrefix(base, "gap") {
		k, f, hasFilter := strings.Cut(k, "/")
		g, err1 := strconv.Atoi(strings.TrimPrefix(base, "gap"))
		cells, err2 := strconv.Atoi(k)
		filter := 0
		var err3 error
		if hasFilter {
			filter, err3 = strconv.Atoi(f)
		}
		if err1 != nil || err2 != nil || err3 != nil || g < 0 || g%2 != 0 || cells < 1 || (hasFilter && filter < 1) {
			return nil, badInputf("bad heuristic %q: want gapG:K or gapG:K/F with even G and cells K (filter cells F), e.g. gap0:8 or gap0:16/8", name)
		}
		h, err := gapHeuristic(c, g, cells, filter)
		return h, badInput(err)
	}
	return makeHeuristic(c, name)
}

// poolNotes describes the loaded sets for reports (the paper's Table 1
// columns we have: patterns, plus the table's memory).
func poolNotes(c *cli.Context) []string {
	p, ok := c.App.Metadata[poolKey].(*setPool)
	if !ok || len(p.sets) == 0 {
		return nil
	}
	out := []string{"| set | patterns | bytes (hash table; BDD: file) | BDD nodes |", "|---|---:|---:|---:|"}
	for _, s := range p.sets {
		nodes := "-"
		if s.bddNodes > 0 {
			nodes = strconv.FormatUint(s.bddNodes, 10)
		}
		out = append(out, fmt.Sprintf("| %s | %d | %d | %s |", s.name, s.count, s.bytes, nodes))
	}
	return out
}
