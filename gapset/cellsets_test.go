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
		{3, 3, 4, false, true, []int{6, 9}, []string{"0-2+6-8", "0+3+6", "0+4+8", "1-3", "0-7"}, 1 << 24, 1 << 20, false},
		{3, 3, 2, false, true, []int{5}, []string{"0-2+6-8", "0+2+4+6+8"}, 1, 64, true}, // spills, layers read back
		{3, 3, 4, true, false, []int{4}, []string{"0-2+6-8", "0+3+6"}, 1, 64, false},
		{3, 3, 6, false, true, nil, []string{"0-3", "2+4+6"}, 1 << 24, 1 << 20, true}, // sets alone
		{3, 4, 2, false, false, []int{8}, []string{"0-3+8-11", "0-1+3-4+7-9+11"}, 1 << 24, 1 << 20, true},
		{3, 4, 2, true, false, []int{6}, []string{"0-3+8-11"}, 1, 1 << 12, false}, // spills
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
