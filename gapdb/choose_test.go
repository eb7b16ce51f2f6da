package gapdb

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/gapset/gapset/internal/slowtest"

	"github.com/gapset/gapset/encode"
	"github.com/gapset/gapset/gapset"
	"github.com/gapset/gapset/ida"
	"github.com/stretchr/testify/require"
)

// Which cell sets make the best projections, measured on 3x4 with the exact
// whole-board levels up to gap 4 (so any projection can be built): h_G:4
// and h_G:8 on each 8-cell set alone and on pairs, over the 40 boards of
// docs/gaps-3x4, nodes against the last 8 cells (today's projection).
// Opt-in (GAPSET_SLOW=1): a few minutes. The tables go to the log.
func TestChooseProjections3x4(t *testing.T) {
	slowtest.Skip(t, "measure the 3x4 projections")
	for _, g := range []int{4, 8} {
		chooseProjections3x4(t, g)
	}
}

func chooseProjections3x4(t *testing.T, maxGap int) {
	sets, err := gapset.LevelSets(context.Background(), 3, 4, maxGap, []int{12}, nil)
	require.NoError(t, err)
	levels := sets[12]
	inst, err := encode.ReadInstanceFile("../docs/gaps-3x4/inst.txt", 3, 4)
	require.NoError(t, err)
	var mdLen []int
	var mdNodes int64
	for _, in := range inst {
		r := solve(t, in.Board, ida.Manhattan{})
		mdLen = append(mdLen, r.Length)
		mdNodes += r.Expanded
	}
	// the board, 3 rows of 4; the blank's home is cell 11
	//  0  1  2  3
	//  4  5  6  7
	//  8  9 10 11
	cand := map[string][]int{
		"last8 (rows 1-2)":        {4, 5, 6, 7, 8, 9, 10, 11},
		"rows 0-1":                {0, 1, 2, 3, 4, 5, 6, 7},
		"rows 0,2":                {0, 1, 2, 3, 8, 9, 10, 11},
		"cols 2-3 + 5,9":          {2, 3, 5, 6, 7, 9, 10, 11},
		"cols 0-1 + 2,6":          {0, 1, 2, 4, 5, 6, 8, 9},
		"cols 1-2 + 3,7":          {1, 2, 3, 5, 6, 7, 9, 10},
		"cols 0,3 + 1,9":          {0, 1, 3, 4, 7, 8, 9, 11},
		"checker":                 {0, 2, 5, 7, 8, 10, 1, 11},
		"last6 (cells 6..11)":     {6, 7, 8, 9, 10, 11},
		"whole board (12, exact)": {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11},
	}
	dbs := map[string]*DB{}
	for name, cells := range cand {
		cs := slices.Sorted(slices.Values(cells))
		dbs[name] = build(t, 3, 4, cs, levels)
	}
	run := func(ds ...*DB) int64 {
		var n int64
		for i, in := range inst {
			r := solve(t, in.Board, Heuristic{DBs: ds, Levels: maxGap/2 + 1})
			require.Equal(t, mdLen[i], r.Length, "%s", in.Board)
			n += r.Expanded
		}
		return n
	}
	base := run(dbs["last8 (rows 1-2)"])
	var b strings.Builder
	fmt.Fprintf(&b, "\n| projections (h_G:%d, 3x4, 40 boards) | nodes | of md's | of last8's |\n|---|---:|---:|---:|\n", maxGap)
	fmt.Fprintf(&b, "| md | %d | 1.000 | - |\n", mdNodes)
	row := func(name string, n int64) {
		fmt.Fprintf(&b, "| %s | %d | %.4f | %.3f |\n", name, n, float64(n)/float64(mdNodes), float64(n)/float64(base))
	}
	names := []string{"last8 (rows 1-2)", "rows 0-1", "rows 0,2", "cols 2-3 + 5,9", "cols 0-1 + 2,6", "cols 1-2 + 3,7", "cols 0,3 + 1,9", "checker", "last6 (cells 6..11)", "whole board (12, exact)"}
	for _, name := range names {
		row(name, run(dbs[name]))
	}
	for _, pair := range [][]string{
		{"last8 (rows 1-2)", "rows 0-1"},
		{"last8 (rows 1-2)", "cols 2-3 + 5,9"},
		{"last8 (rows 1-2)", "cols 0-1 + 2,6"},
		{"last8 (rows 1-2)", "rows 0,2"},
		{"cols 2-3 + 5,9", "cols 0-1 + 2,6"},
		{"last8 (rows 1-2)", "cols 2-3 + 5,9", "cols 0-1 + 2,6"},
		{"last8 (rows 1-2)", "rows 0-1", "cols 2-3 + 5,9", "cols 0-1 + 2,6"},
	} {
		var ds []*DB
		for _, p := range pair {
			ds = append(ds, dbs[p])
		}
		row("max("+strings.Join(pair, "; ")+")", run(ds...))
	}
	t.Log(b.String())
}
