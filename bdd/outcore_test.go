package bdd

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/gapset/gapset/keyset"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The out-of-core build writes the same file as the in-memory one (same
// bytes: the format is canonical), whether each level fits one table or
// is reduced in parts, BDD and ZDD count alike, on the 3x3 gap sets and
// the 4x4 projections, in the cells and ranks encodings; it leaves no
// scratch behind.
func TestOutOfCoreEqualsInMemory(t *testing.T) {
	g0, g2 := sets3x3(t)
	ball := ball4x4(t)
	type tc struct {
		keys          []uint64
		rows, cols, k int
	}
	cases := []tc{{g0, 3, 3, 9}, {project(g2, 5), 3, 3, 5}, {project(ball, 8), 4, 4, 8}, {project(ball, 16), 4, 4, 16}}
	dir := t.TempDir()
	for _, c := range cases {
		n := c.rows * c.cols
		h := keyset.Header{Rows: c.rows, Cols: c.cols, Cells: c.k, Gap: 2}
		path := filepath.Join(dir, h.Name()+".keys")
		require.NoError(t, keyset.WriteFile(path, h, c.keys))
		for _, enc := range []Encoding{Cells, Ranks} {
			if c.k == 16 && enc == Cells {
				continue // the slowest case: ranks only
			}
			o, err := NamedOrder("natural", c.rows, c.cols, c.k)
			require.NoError(t, err)
			kb := KeysBuild{Order: o, Encoding: enc, Count: uint64(len(c.keys)), ZDD: true}
			mem, err := BuildKeyFile(path, n, c.k, kb)
			require.NoError(t, err)
			want := encodedAs(t, mem.BDD, c.rows, c.cols, c.k)
			small := int64(2 << 10) // levels in parts
			if c.k == 16 {
				small = 12 << 10
			}
			for _, budget := range []int64{1 << 30, small} {
				msg := []any{"%s %v budget %d", h.Name(), enc, budget}
				scratch := t.TempDir()
				got, err := BuildOutOfCore(path, n, c.k, kb, OutOfCore{Memory: budget, TempDir: scratch})
				require.NoError(t, err, msg...)
				assert.True(t, bytes.Equal(want, encodedAs(t, got.BDD, c.rows, c.cols, c.k)), msg...)
				assert.Equal(t, mem.ZDDNodes, got.ZDDNodes, msg...)
				assert.Equal(t, mem.BDD.LevelSizes(), got.BDD.LevelSizes(), msg...)
				assert.Equal(t, uint64(len(c.keys)), got.BDD.Count, msg...)
				assert.LessOrEqual(t, got.BDD.TableBytes, max(budget, 8<<10), msg...)
				if budget == small {
					assert.Greater(t, slices.Max(got.BDD.Parts), 1, msg...)
				}
				if budget == 1<<30 {
					assert.Equal(t, 1, slices.Max(got.BDD.Parts), msg...)
				}
				if enc == Cells && budget == small && c.k < n {
					require.NoError(t, CheckRudd(path, o, got.BDD), msg...)
				}
				d := got.BDD.Diagram()
				require.NoError(t, got.BDD.Close())
				require.NoError(t, d.CheckCount(uint64(len(c.keys))), msg...)
				left, err := os.ReadDir(scratch)
				require.NoError(t, err)
				assert.Empty(t, left, msg...)
			}
		}
	}
}

// Bad input and budgets are refused with errors, and leave no scratch.
func TestOutOfCoreErrors(t *testing.T) {
	_, g2 := sets3x3(t)
	keys := project(g2, 5)
	path := filepath.Join(t.TempDir(), "Gap2_5.keys")
	require.NoError(t, keyset.WriteFile(path, keyset.Header{Rows: 3, Cols: 3, Cells: 5, Gap: 2}, keys))
	scratch := t.TempDir()
	oc := OutOfCore{Memory: 1 << 20, TempDir: scratch}
	_, err := BuildOutOfCore(path, 9, 5, KeysBuild{Order: mustOrder(t, "reverse", 5)}, oc)
	assert.ErrorContains(t, err, "natural order")
	_, err = BuildOutOfCore(path, 9, 5, KeysBuild{Order: mustOrder(t, "natural", 5), Encoding: RanksReverse}, oc)
	assert.ErrorContains(t, err, "natural order")
	_, err = BuildOutOfCore(path, 9, 5, KeysBuild{Order: mustOrder(t, "natural", 5), Count: uint64(len(keys)) + 1}, oc)
	assert.ErrorContains(t, err, "members from a file of")
	_, err = BuildOutOfCore(path, 9, 5, KeysBuild{Order: mustOrder(t, "natural", 5)}, OutOfCore{Memory: 16, TempDir: scratch})
	assert.ErrorIs(t, err, ErrBudget)
	_, err = BuildOutOfCore(path, 9, 5, KeysBuild{Order: mustOrder(t, "natural", 5)}, OutOfCore{TempDir: scratch})
	assert.ErrorIs(t, err, ErrBudget)
	_, err = BuildOutOfCore(filepath.Join(scratch, "none.keys"), 9, 5, KeysBuild{Order: mustOrder(t, "natural", 5)}, oc)
	assert.ErrorIs(t, err, os.ErrNotExist)
	// damage at the end of the key file is found (the checksum)
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	b[len(b)-1] ^= 1
	require.NoError(t, os.WriteFile(path, b, 0o644))
	_, err = BuildOutOfCore(path, 9, 5, KeysBuild{Order: mustOrder(t, "natural", 5)}, oc)
	assert.ErrorIs(t, err, keyset.ErrFormat)
	_, err = BuildOutOfCore(path, 9, 5, KeysBuild{Order: mustOrder(t, "natural", 5)}, OutOfCore{Memory: 1 << 20, TempDir: filepath.Join(scratch, "absent")})
	assert.Error(t, err)
	left, err := os.ReadDir(scratch)
	require.NoError(t, err)
	assert.Empty(t, left)
}
