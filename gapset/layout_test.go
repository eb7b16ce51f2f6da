package gapset

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/gapset/gapset/internal/slowtest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// byPart enumerates with the per-part API in a plain loop, as a
// pipeline does one step at a time: every call on its own part, the
// files named by the loop, the layers no longer Needed removed, the
// projection runs compacted by FoldCount. It returns the summary's layers
// and members and the key-set files written into dir.
func byPart(t *testing.T, l Layout, dir string) ([]LayerCount, int64, []OutputFile) {
	t.Helper()
	ctx := context.Background()
	work := t.TempDir()
	name := func(format string, a ...any) string { return filepath.Join(work, fmt.Sprintf(format, a...)) }
	levels, np := l.Levels(), 1<<l.Bits()
	layers := make([][][]RunFile, levels) // layers[j][d][p]
	type tiered struct {
		tier int
		byQ  map[int]RunFile
	}
	proj := map[int][]tiered{}
	var counts []LayerCount
	var members int64

	goal, err := l.WriteGoal(func(p int) string { return name("goal.p%03d", p) })
	require.NoError(t, err)
	candidates := map[[2]int][]RunFile{{0, goal.P}: {goal.RunFile}}
	for d := 0; ; d++ {
		if d > 0 {
			candidates = map[[2]int][]RunFile{}
			for j := range levels {
				for p, f := range layers[j][d-1] {
					if f.N == 0 {
						continue
					}
					pieces, err := l.ExpandPart(ctx, j, f, func(level, q, piece int) string {
						return name("c%d-%d-from-%d-%d-%d.p%03d", level, d, j, p, piece, q)
					})
					require.NoError(t, err)
					for _, pc := range pieces {
						require.True(t, pc.Level == j || pc.Level == j+1)
						candidates[[2]int{pc.Level, pc.P}] = append(candidates[[2]int{pc.Level, pc.P}], pc.RunFile)
					}
				}
			}
		}
		newProj := map[[2]int][]RunFile{}
		found := false
		for j := range levels {
			layer := make([]RunFile, np)
			var n int64
			for p := range np {
				in := candidates[[2]int{j, p}]
				if len(in) == 0 {
					continue
				}
				var lower []RunFile
				for i, s := range l.Lower(j, d) {
					if s >= 0 {
						lower = append(lower, layers[i][s][p])
					}
				}
				got, ps, err := l.MergePart(ctx, j, p, in, lower, name("L%d-%d.p%03d", j, d, p),
					func(k, q, piece int) string { return name("p%d-%d-L%d.p%03d-%d.p%03d", k, d, j, p, piece, q) })
				require.NoError(t, err)
				require.Equal(t, p, got.P)
				layer[p] = got.RunFile
				n += got.N
				if l.Canonical() {
					n += got.N - got.Self // the transposes
				}
				for _, pc := range ps {
					newProj[[2]int{pc.Cells, pc.P}] = append(newProj[[2]int{pc.Cells, pc.P}], pc.RunFile)
				}
				for _, f := range in {
					require.NoError(t, os.Remove(f.Path))
				}
			}
			layers[j] = append(layers[j], layer)
			if n > 0 {
				counts = append(counts, LayerCount{Gap: 2 * j, Manhattan: d - 2*j, Count: n})
				members += n
				found = true
			}
		}
		for _, k := range l.Projections() {
			var tiers []int
			for _, r := range proj[k] {
				tiers = append(tiers, r.tier)
			}
			fold, tier := FoldCount(tiers)
			folded := proj[k][len(proj[k])-fold:]
			merged := tiered{tier: tier, byQ: map[int]RunFile{}}
			for q := range 1 << l.ProjectionBits(k) {
				in := slices.Clone(newProj[[2]int{k, q}])
				for _, r := range folded {
					in = append(in, r.byQ[q])
				}
				f, err := MergeRunFiles(ctx, in, name("p%d-%d-t%d.p%03d", k, d, tier, q))
				require.NoError(t, err)
				merged.byQ[q] = f
				for _, x := range in {
					if x.N > 0 {
						require.NoError(t, os.Remove(x.Path))
					}
				}
			}
			proj[k] = append(proj[k][:len(proj[k])-fold], merged)
		}
		// What no later step reads goes (a wrong Needed fails a later read).
		for i := range levels {
			for s := range layers[i] {
				if !l.Needed(i, s, d) {
					for _, f := range layers[i][s] {
						if f.N > 0 {
							require.NoError(t, os.Remove(f.Path))
						}
					}
					layers[i][s] = make([]RunFile, np)
				}
			}
		}
		if !found {
			break
		}
	}
	cfg := l.Config(dir)
	var outs []OutputFile
	for _, k := range l.Cells {
		var byPart [][]RunFile
		if k == l.N() && !l.Canonical() {
			byPart = make([][]RunFile, np)
			for j := range levels {
				if !l.Projected(j) {
					continue
				}
				for _, layer := range layers[j] {
					for p, f := range layer {
						byPart[p] = append(byPart[p], f)
					}
				}
			}
		} else {
			byPart = make([][]RunFile, 1<<l.ProjectionBits(k))
			for _, r := range proj[k] {
				for q, f := range r.byQ {
					byPart[q] = append(byPart[q], f)
				}
			}
		}
		// A count other than the merge's: refused, no file in place.
		_, err := l.WriteOutput(ctx, k, cfg.OutputPath(k), byPart, 1<<62)
		require.ErrorIs(t, err, ErrCount)
		require.NoFileExists(t, cfg.OutputPath(k))
		out, err := l.WriteOutput(ctx, k, cfg.OutputPath(k), byPart, -1)
		require.NoError(t, err)
		outs = append(outs, out)
	}
	return counts, members, outs
}

// The per-part API driven step by step writes the key-set files of
// Enumerate byte for byte, with the same layers and members: with the
// default, the widest and a single part, exact sets, buffers so
// small that candidates and projections are written in pieces, and
// canonical layers (compared with Enumerate's full ones). The transposed
// cases are on the 3x3 board; the others, each file of a part and step
// costing a create, on the 2x3 and 2x4 boards by default (with
// GAPSET_SLOW=1 the 3x3 and 3x4 ones, four times the test's time).
func TestPartAPIMatchesEnumerate(t *testing.T) {
	sr, whole, exact := 2, []int{6, 4, 3}, []int{3, 6} // the small board, 2x3 or 3x3
	rows, gap, n := 2, 6, 8                            // the board not square, 2x4 or 3x4
	if slowtest.On() {
		sr, whole, exact = 3, []int{9, 6, 4}, []int{4, 9}
		rows, gap, n = 3, 2, 12
	}
	for _, l := range []Layout{
		{Rows: sr, Cols: 3, MaxGap: 4, Cells: whole},
		{Rows: sr, Cols: 3, MaxGap: 2, Exact: true, Cells: exact, PrefixBits: 8, Memory: 1},
		{Rows: 3, Cols: 3, MaxGap: 6, Cells: []int{5}, PrefixBits: -1, Packed: true, Memory: 1},
		{Rows: rows, Cols: 4, MaxGap: gap, Cells: []int{n, n - 4, n - 6}, Packed: true},
		{Rows: sr, Cols: 3, MaxGap: 4, Cells: whole, RankRuns: true, Memory: 1},
		{Rows: rows, Cols: 4, MaxGap: gap, Cells: []int{n, n - 4}, Packed: true, RankRuns: true},
		{Rows: 3, Cols: 3, MaxGap: 4, Cells: []int{9, 6, 4}, Transpose: true},
		{Rows: 3, Cols: 3, MaxGap: 2, Exact: true, Cells: []int{4, 9}, PrefixBits: 8, Memory: 1, Transpose: true, RankRuns: true},
		{Rows: rows, Cols: 4, MaxGap: gap, Cells: []int{n, n - 4}, Transpose: true}, // not square: every configuration
	} {
		t.Run(fmt.Sprintf("%dx%d-gap%d-exact%v-bits%d-rank%v-transpose%v", l.Rows, l.Cols, l.MaxGap, l.Exact, l.PrefixBits, l.RankRuns, l.Transpose), func(t *testing.T) {
			want, got := t.TempDir(), t.TempDir()
			full := l
			full.Transpose = false
			res, err := Enumerate(context.Background(), full.Config(want))
			require.NoError(t, err)
			counts, members, outs := byPart(t, l, got)
			assert.Equal(t, res.Layers, counts)
			assert.Equal(t, res.Members, members)
			require.Len(t, outs, len(res.Outputs))
			for _, o := range res.Outputs {
				i := slices.IndexFunc(outs, func(x OutputFile) bool { return x.Cells == o.Cells })
				require.GreaterOrEqual(t, i, 0, "cells %d", o.Cells)
				assert.Equal(t, o.Name, outs[i].Name)
				assert.Equal(t, o.Count, outs[i].Count)
				assert.Equal(t, filepath.Join(got, filepath.Base(o.Path)), outs[i].Path)
				a, err := os.ReadFile(o.Path)
				require.NoError(t, err)
				b, err := os.ReadFile(outs[i].Path)
				require.NoError(t, err)
				assert.True(t, slices.Equal(a, b), "%s differs from Enumerate's", o.Name)
				assert.Positive(t, o.Count)
			}
			left, err := os.ReadDir(got)
			require.NoError(t, err)
			assert.Len(t, left, len(l.Cells), "only the key-set files, no temporaries")
		})
	}
}

// FoldCount merges eight runs of a tier into one of the next, as
// Enumerate's compaction does: after n runs the tiers are n's digits in
// base 8.
func TestFoldCount(t *testing.T) {
	var tiers []int
	for n := 1; n <= 600; n++ {
		fold, tier := FoldCount(tiers)
		tiers = append(tiers[:len(tiers)-fold], tier)
		var want []int
		for m, t := n, 0; m > 0; m, t = m/8, t+1 {
			for range m % 8 {
				want = append([]int{t}, want...)
			}
		}
		require.Equal(t, want, tiers, "after %d runs", n)
	}
}

func TestPartAPIRefusesDamage(t *testing.T) {
	l := Layout{Rows: 3, Cols: 3, MaxGap: 2, Cells: []int{9}}
	dir := t.TempDir()
	goal, err := l.WriteGoal(func(p int) string { return filepath.Join(dir, fmt.Sprintf("goal.p%03d", p)) })
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(goal.Path, []byte{1, 2, 3}, 0o644))
	_, err = l.ExpandPart(context.Background(), 0, goal.RunFile, func(level, p, piece int) string {
		return filepath.Join(dir, fmt.Sprintf("c%d-%d.p%03d", level, piece, p))
	})
	require.ErrorContains(t, err, "damaged or replaced")
	_, err = l.ExpandPart(context.Background(), 2, goal.RunFile, nil)
	require.ErrorIs(t, err, ErrArgs)
}
