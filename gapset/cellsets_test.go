package gapset

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/gapset/gapset/encode"
	"github.com/gapset/gapset/keyset"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// gatherSlow is the projection of a whole-board key of an n-cell board
// onto cells (increasing), nibble by nibble: the test's own, not
// encode.Projector's.
func gatherSlow(key uint64, n int, cells []int) uint64 {
	var x uint64
	for _, c := range cells {
		x = x<<4 | key>>(4*(n-1-c))&15
	}
	return x
}

// The enumerator's key-set file of a cell set is the projection onto those
// cells of the whole-board set (LevelSets, gathered by a loop of the
// test's): on 3x3 (canonical and full), 3x4 and 2x4, nested and exact
// sets, tiny buffers (spills, layers read back), sets alone and beside
// the last k cells; and the last-k files of a run with sets are byte for
// byte those of the run without.
func TestEnumerateCellSets(t *testing.T) {
	for _, tc := range []struct {
		rows, cols, gap int
		exact           bool
		transpose       bool
		cells           []int
		sets            []string
		memory          int64
		inChunk         int
		packed          bool
	}{
		// 0-2+6-7 is gathered from 0-2+6-8's keys, 0+2+6 from 0-2+6-7's
		{3, 3, 4, false, true, []int{6, 9}, []string{"0-2+6-8", "0+2+6", "0+3+6", "0+4+8", "1-3", "0-7", "0-2+6-7"}, 1 << 24, 1 << 20, false},
		{3, 3, 2, false, true, []int{5}, []string{"0-2+6-8", "0+2+4+6+8"}, 1, 64, true}, // spills, layers read back
		{3, 3, 4, true, false, []int{4}, []string{"0-2+6-8", "0+3+6"}, 1, 64, false},
		{3, 3, 6, false, true, nil, []string{"0-3", "2+4+6"}, 1 << 24, 1 << 20, true}, // sets alone
		{3, 4, 2, false, false, []int{8}, []string{"0-3+8-11", "0-1+3-4+7-9+11"}, 1 << 24, 1 << 20, true},
		{3, 4, 2, true, false, []int{6}, []string{"0-3+8-9", "0-3+8-11"}, 1, 1 << 12, false}, // spills; one set from the other
		{2, 4, 6, false, false, nil, []string{"0-1+6-7", "0+2+4+6"}, 1 << 24, 1 << 20, false},
	} {
		name := fmt.Sprintf("%dx%d gap %d exact %v sets %v", tc.rows, tc.cols, tc.gap, tc.exact, tc.sets)
		t.Run(name, func(t *testing.T) {
			n := tc.rows * tc.cols
			var sets []encode.CellSet
			for _, s := range tc.sets {
				set, err := encode.ParseCellSet(s)
				require.NoError(t, err)
				sets = append(sets, set)
			}
			cfg := Config{Rows: tc.rows, Cols: tc.cols, MaxGap: tc.gap, Exact: tc.exact, Cells: tc.cells, Sets: sets,
				Memory: tc.memory, Packed: tc.packed, Transpose: tc.transpose, Dir: t.TempDir()}
			res, err := enumerate(context.Background(), cfg, tc.inChunk)
			require.NoError(t, err, name)
			levels, err := LevelSets(context.Background(), tc.rows, tc.cols, tc.gap, []int{n}, nil)
			require.NoError(t, err, name)
			whole := levels[n][tc.gap/2]
			if tc.exact && tc.gap > 0 {
				lower := levels[n][tc.gap/2-1]
				whole = slices.DeleteFunc(slices.Clone(whole), func(k uint64) bool { _, found := slices.BinarySearch(lower, k); return found })
			}
			require.Len(t, res.Outputs, len(tc.cells)+len(sets), name)
			for _, o := range res.Outputs {
				h, keys, err := keyset.ReadAllAny(o.Path)
				require.NoError(t, err, name)
				cells := h.Set().Cells()
				var want []uint64
				for _, k := range whole {
					want = append(want, gatherSlow(k, n, cells))
				}
				slices.Sort(want)
				want = slices.Compact(want)
				assert.Equal(t, want, keys, "%s cells %v", name, cells)
				assert.Equal(t, uint64(len(want)), o.Count)
				assert.Equal(t, filepath.Join(cfg.Dir, h.Name()+".keys"), o.Path)
				if slices.Contains(sets, h.Set()) {
					assert.Equal(t, h.Set(), h.CellSet, "a set's header names it")
					assert.Equal(t, h.CellSet.String(), o.CellSet)
					assert.Contains(t, h.Name(), "c"+h.CellSet.Hex())
				} else {
					assert.Zero(t, h.CellSet, "the last cells: no set in the header")
					assert.Empty(t, o.CellSet)
				}
			}
			entries, err := os.ReadDir(cfg.Dir)
			require.NoError(t, err)
			assert.Len(t, entries, len(res.Outputs), "only the key-set files remain")
			if len(tc.cells) > 0 {
				cfg.Sets = nil
				_, plain := enumerateFiles(t, cfg, tc.inChunk)
				require.Len(t, plain, len(tc.cells))
				for fname, b := range plain {
					got, err := os.ReadFile(filepath.Join(cfg.Dir, fname))
					require.NoError(t, err)
					assert.Equal(t, b, got, "%s: %s with the sets beside it", name, fname)
				}
			}
		})
	}
}

// Bad cell sets are refused before any work: off the board, the last k
// cells (which have one spelling, K), twice; --cells parses both kinds.
func TestCellSetsRefused(t *testing.T) {
	for name, sets := range map[string][]encode.CellSet{
		"off the board": {0x200},
		"the last 4":    {encode.LastCells(9, 4)},
		"twice":         {0x7, 0x7},
		"empty":         {0},
	} {
		err := Config{Rows: 3, Cols: 3, MaxGap: 2, Sets: sets, Dir: t.TempDir()}.Check()
		assert.ErrorIs(t, err, ErrArgs, name)
	}
	assert.ErrorIs(t, Config{Rows: 3, Cols: 3, MaxGap: 2}.Check(), ErrArgs, "no projection at all")
	cells, sets, err := ParseCells("8,@0-3+8-11,@12-15,10", 16)
	require.NoError(t, err)
	assert.Equal(t, []int{8, 4, 10}, cells, "a set of the last cells is K")
	assert.Equal(t, []encode.CellSet{0x0F0F}, sets)
	for _, bad := range []string{"@", "@0-3+", "@16", "x", "@0-3,8-11", ""} {
		_, _, err := ParseCells(bad, 16)
		assert.Error(t, err, bad)
	}
	_, _, err = ParseCells("@0-9", 9)
	assert.ErrorContains(t, err, "beyond")
	// The per-part API (the cluster) projects onto the last cells only.
	err = Layout{Rows: 3, Cols: 3, MaxGap: 2, Cells: []int{9}, Sets: []encode.CellSet{0x7}}.Check()
	assert.ErrorIs(t, err, ErrArgs)
	assert.ErrorContains(t, err, "gapset enumerate only")
}

// approxSetLevels runs the approximation onto set (16^k or ranked tables) and
// returns each level's patterns and header.
func approxSetLevels(t *testing.T, rows, cols int, set encode.CellSet, maxLevel int, exact []*Bits, ranked bool) ([][]uint64, []keyset.Header) {
	t.Helper()
	g, err := checkArgs(rows, cols, 2*maxLevel, []int{rows * cols})
	require.NoError(t, err)
	var levels [][]uint64
	var hs []keyset.Header
	err = approximateSet(context.Background(), g, rows, cols, set, maxLevel, exact, func(l ApproxLevel) error {
		levels = append(levels, l.Set.Keys())
		hs = append(hs, l.Header)
		return nil
	}, nil, ranked)
	require.NoError(t, err)
	return levels, hs
}

// transposePatterns maps patterns on the cells of set to the patterns of
// their transposes on the image cells (the test's own loop over the
// transposition's cell and tile maps).
func transposePatterns(tr *encode.Transposition, set encode.CellSet, keys []uint64) (encode.CellSet, []uint64) {
	cells := set.Cells()
	var image encode.CellSet
	for _, c := range cells {
		image |= 1 << tr.Cell[c]
	}
	out := make([]uint64, 0, len(keys))
	for _, x := range keys {
		tiles := map[int]uint64{} // image cell -> tile
		for i, c := range cells {
			v := x >> (4 * (len(cells) - 1 - i)) & 15
			tiles[int(tr.Cell[c])] = uint64(tr.Tile[v])
		}
		var y uint64
		for _, c := range image.Cells() {
			y = y<<4 | tiles[c]
		}
		out = append(out, y)
	}
	slices.Sort(out)
	return image, out
}

// Approximated sets on any cell set: every level a superset of the exact
// projection of its gap (admissible), the seeded levels exact, 16^k and
// ranked tables alike, the headers naming the cells; and, on the 3x3
// board, the approximation onto a set's transpose is the transpose of the
// approximation onto the set, which ties the cell-set path to the last-k
// one (the transpose of the last 3 cells is column 2).
func TestApproximateCellSets(t *testing.T) {
	tr, err := encode.NewSquareTransposition(3, 3)
	require.NoError(t, err)
	for _, tc := range []struct {
		rows, cols, maxLevel int
		sets                 []encode.CellSet
		seeds                []int
	}{
		{3, 3, 4, []encode.CellSet{encode.LastCells(9, 3), 0x1C7, 0x155, 0x00F, 0x092}, []int{0, 1, 2}},
		{3, 4, 2, []encode.CellSet{0x0E07, 0x0999}, []int{1}}, // 6 cells: rows 0 and 2 less three, columns 0 and 3
	} {
		n := tc.rows * tc.cols
		levels, err := LevelSets(context.Background(), tc.rows, tc.cols, 2*tc.maxLevel, []int{n}, nil)
		require.NoError(t, err)
		for _, set := range tc.sets {
			p := set.Projector(n)
			var exact [][]uint64
			for _, l := range levels[n] {
				var e []uint64
				for _, k := range l {
					e = append(e, gatherSlow(k, n, set.Cells()))
				}
				slices.Sort(e)
				exact = append(exact, slices.Compact(e))
			}
			_, found := slices.BinarySearch(exact[0], p.Gather(encode.Goal(tc.rows, tc.cols).Key()))
			require.True(t, found, "the goal's pattern is of gap 0")
			for _, nSeed := range tc.seeds {
				var seeds []*Bits
				for i := 0; i < nSeed; i++ {
					seeds = append(seeds, BitsOf(exact[i], set.Len()))
				}
				name := fmt.Sprintf("%dx%d %s seeds %d", tc.rows, tc.cols, set, nSeed)
				got, hs := approxSetLevels(t, tc.rows, tc.cols, set, tc.maxLevel, seeds, false)
				require.Len(t, got, tc.maxLevel+1, name)
				for j, l := range got {
					assert.Equal(t, set.IsLast(n), hs[j].CellSet == 0, name)
					assert.Equal(t, set, hs[j].Set(), name)
					assert.Equal(t, j >= nSeed, hs[j].Approx, name)
					if j < nSeed {
						assert.Equal(t, exact[j], l, "%s level %d: seeded, exact", name, j)
					}
					missing := 0
					for _, x := range exact[j] {
						if _, ok := slices.BinarySearch(l, x); !ok {
							missing++
						}
					}
					assert.Zero(t, missing, "%s level %d: a superset of the exact projection", name, j)
					assert.GreaterOrEqual(t, len(l), len(exact[j]), name)
				}
				if nSeed > 0 {
					ranked, _ := approxSetLevels(t, tc.rows, tc.cols, set, tc.maxLevel, seeds, true)
					assert.Equal(t, got[nSeed-1:], ranked, "%s: ranked tables", name)
				}
				if tc.rows == tc.cols && nSeed == 0 {
					image, _ := transposePatterns(tr, set, nil)
					mirror, _ := approxSetLevels(t, tc.rows, tc.cols, image, tc.maxLevel, nil, false)
					for j := range got {
						_, want := transposePatterns(tr, set, got[j])
						assert.Equal(t, want, mirror[j], "%s level %d: the transpose's approximation onto %s", name, j, image)
					}
				}
			}
		}
	}
}
