package gapset

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gapset/gapset/encode"
	"github.com/gapset/gapset/internal/slowtest"
)

func approxLevels(t *testing.T, rows, cols, k, maxLevel int, exact []*Bits) [][]uint64 {
	var out [][]uint64
	err := Approximate(context.Background(), rows, cols, k, maxLevel, exact, func(l ApproxLevel) error {
		require.Equal(t, len(out), l.Level)
		keys := l.Set.Keys()
		require.Equal(t, l.Set.Len(), int64(len(keys)))
		out = append(out, keys)
		return nil
	}, nil)
	require.NoError(t, err)
	return out
}

// isSubset reports whether every key of a (sorted) is in b (sorted).
func isSubset(a, b []uint64) bool {
	j := 0
	for _, v := range a {
		for j < len(b) && b[j] < v {
			j++
		}
		if j == len(b) || b[j] != v {
			return false
		}
	}
	return true
}

// Every approximated level holds the exact projection of its gap set (so
// h_G:2N stays admissible with it), levels are nested, and with one hidden
// cell the abstraction loses nothing: the sets are exact.
func TestApproximateIsSuperset(t *testing.T) {
	// up to 7 cells: 8 cells take a 512 MiB table and three quarters of
	// the test's time (GAPSET_SLOW=1); the hidden cell that loses nothing
	// is the 2x4 board's by default
	big := slowtest.On()
	for _, c := range []struct{ rows, cols, maxGap, maxCells int }{{3, 3, 8, 7}, {2, 4, 8, 7}, {3, 4, 4, 7}} {
		n := c.rows * c.cols
		if big {
			c.maxCells = MaxApproxCells
		}
		var cells []int
		for k := 4; k <= min(n-1, c.maxCells); k++ {
			cells = append(cells, k)
		}
		exact, err := LevelSets(context.Background(), c.rows, c.cols, c.maxGap, cells, nil)
		require.NoError(t, err)
		for _, k := range cells {
			approx := approxLevels(t, c.rows, c.cols, k, c.maxGap/2, nil)
			// seeded with the exact gap <= 0 and gap <= 2 projections
			seeds := []*Bits{BitsOf(exact[k][0], k), BitsOf(exact[k][1], k)}
			seeded := approxLevels(t, c.rows, c.cols, k, c.maxGap/2, seeds)
			for j := range approx {
				if j < len(seeds) {
					assert.Equal(t, exact[k][j], seeded[j], "%dx%d k=%d seeded level %d", c.rows, c.cols, k, j)
				}
				assert.True(t, isSubset(exact[k][j], seeded[j]), "%dx%d k=%d seeded level %d misses a pattern", c.rows, c.cols, k, j)
				assert.True(t, isSubset(seeded[j], approx[j]), "%dx%d k=%d: seeding can only remove patterns", c.rows, c.cols, k)
				want := exact[k][j]
				assert.True(t, isSubset(want, approx[j]), "%dx%d k=%d level %d: approximation misses a pattern", c.rows, c.cols, k, j)
				if j > 0 {
					assert.True(t, isSubset(approx[j-1], approx[j]))
				}
				if k == n-1 {
					assert.Equal(t, want, approx[j], "%dx%d k=%d level %d", c.rows, c.cols, k, j)
				}
				t.Logf("%dx%d k=%d gap<=%d: exact %d approx %d seeded %d", c.rows, c.cols, k, 2*j, len(want), len(approx[j]), len(seeded[j]))
			}
		}
	}
}

func TestApproximateBadArgs(t *testing.T) {
	nop := func(ApproxLevel) error { return nil }
	assert.ErrorIs(t, Approximate(context.Background(), 3, 3, 9, 1, nil, nop, nil), ErrArgs)
	// 11 of 16 cells: two ranked tables of 20 GiB each
	err := Approximate(context.Background(), 4, 4, 11, 1, nil, nop, nil)
	assert.ErrorIs(t, err, ErrArgs)
	assert.ErrorContains(t, err, "40.6 GiB), more than the 16 GiB limit")
	assert.NoError(t, CheckApproxMemory(16, 10))
	table, tables := ApproxMemory(16, 10)
	assert.Equal(t, int64(29059430400/8), table, "16!/6! bits")
	assert.Equal(t, 2, tables)
	assert.ErrorIs(t, Approximate(context.Background(), 3, 3, 4, -1, nil, nop, nil), ErrArgs)
	assert.ErrorIs(t, Approximate(context.Background(), 3, 3, 4, 1, []*Bits{NewBits(5)}, nop, nil), ErrArgs)
}

// The memory line names the tables a run holds: 16^k ones with the wave
// lists up to 8 cells, two ranked ones above (3.4 GiB each for 10 of 16).
func TestApproxMemoryString(t *testing.T) {
	assert.Equal(t, "3 search tables and 2 exact tables (16^k bits) of 512.0 MiB each: 2.5 GiB and the lists of a wave's patterns (4 bytes each)", ApproxMemoryString(16, 8, 2))
	assert.Equal(t, "2 search tables and 1 exact tables (placement-rank bits) of 3.4 GiB each: 10.1 GiB (only the top one of the 4 exact levels is loaded)", ApproxMemoryString(16, 10, 4))
	assert.Equal(t, "2 search tables and 0 exact tables (placement-rank bits) of 3.4 GiB each: 6.8 GiB", ApproxMemoryString(16, 10, 0))
}

// ApproxCells takes one projection that leaves a cell out and fits the
// memory limit; ApproxPaths names the files above the exact levels.
func TestApproxCellsAndPaths(t *testing.T) {
	set, err := ApproxCells("6", 3, 3)
	require.NoError(t, err)
	assert.Equal(t, encode.LastCells(9, 6), set)
	set, err = ApproxCells("@0-2+6-8", 3, 3)
	require.NoError(t, err)
	assert.Equal(t, 6, set.Len())
	for spec, msg := range map[string]string{
		"6,4": "--cells 6,4: one projection",
		"9":   "--cells 9: want 1..8 cells",
		"0":   "--cells 0: want 1..8 cells",
		"x":   "x",
	} {
		_, err := ApproxCells(spec, 3, 3)
		assert.ErrorContains(t, err, msg, spec)
	}
	_, err = ApproxCells("15", 4, 4)
	assert.ErrorContains(t, err, "--cells 15: an approximation on 15 of 16 cells holds", "beyond MaxApproxBytes")

	paths := ApproxPaths("d", 3, 3, encode.LastCells(9, 6), 3, 1)
	assert.Equal(t, []string{"d/Gap2_6a.keys", "d/Gap4_6a.keys", "d/Gap6_6a.keys"}, paths)
}
