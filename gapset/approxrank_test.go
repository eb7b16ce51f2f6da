package gapset

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/gapset/gapset/internal/placement"
	"github.com/gapset/gapset/internal/slowtest"
	"github.com/gapset/gapset/keyset"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// writeLevels runs the approximation with ranked or 16^k tables and writes
// every level's set into dir; it returns the files' contents.
func writeLevels(t *testing.T, rows, cols, k, maxLevel int, exact []*Bits, ranked bool, dir string) [][]byte {
	g, err := newGeometry(rows, cols)
	require.NoError(t, err)
	var out [][]byte
	// progress: the level and the patterns seen so far, reported during
	// the level, never more than the level ends with
	pLevel, pSeen, reports := -1, int64(0), 0
	progress := func(j int, seen int64) {
		if j != pLevel {
			require.Greater(t, j, pLevel, "progress went back a level")
			pLevel, pSeen = j, 0
		}
		require.GreaterOrEqual(t, seen, pSeen, "progress at level %d went back", j)
		pSeen = seen
		reports++
	}
	err = approximate(context.Background(), g, rows, cols, k, maxLevel, exact, func(l ApproxLevel) error {
		if l.Level >= len(exact) {
			assert.Equal(t, l.Level, pLevel, "no progress during level %d", l.Level)
			assert.LessOrEqual(t, pSeen, l.Set.Len(), "progress beyond the level's set")
		}
		assert.Equal(t, ranked, l.Set.rk != nil)
		assert.Equal(t, l.Set.Len(), int64(len(l.Set.Keys())))
		path := filepath.Join(dir, l.Header.Name()+".keys")
		require.NoError(t, l.Set.WriteFile(context.Background(), path, l.Header))
		b, err := os.ReadFile(path)
		require.NoError(t, err)
		out = append(out, b)
		return nil
	}, progress, ranked)
	require.NoError(t, err)
	return out
}

// Ranked tables give the same key-set files, byte for byte, as 16^k
// tables, unseeded and seeded with one to four exact levels (given
// as 16^k or ranked tables); and the sets contain the exact projections.
func TestApproximateRankedSameFiles(t *testing.T) {
	big := slowtest.On()
	for _, c := range []struct{ rows, cols, maxGap, maxCells int }{{3, 3, 8, 7}, {2, 4, 8, 7}, {3, 4, 4, 6}} {
		// 8 cells take 512 MiB 16^k tables (GAPSET_SLOW=1)
		if big {
			c.maxCells = min(c.rows*c.cols-1, MaxApproxCells)
		}
		var cells []int
		for k := 2; k <= c.maxCells; k++ {
			cells = append(cells, k)
		}
		exact, err := LevelSets(context.Background(), c.rows, c.cols, c.maxGap, cells, nil)
		require.NoError(t, err)
		n := c.rows * c.cols
		for _, k := range cells {
			for seeds := 0; seeds <= min(4, c.maxGap/2); seeds++ { // 4: exact to gap 6, as on the 4x4 board
				var flat, ranked []*Bits
				for i := 0; i < seeds; i++ {
					flat = append(flat, BitsOf(exact[k][i], k))
					ranked = append(ranked, BitsOf(exact[k][i], k).reindexed(n, true))
				}
				want := writeLevels(t, c.rows, c.cols, k, c.maxGap/2, flat, false, t.TempDir())
				dir := t.TempDir()
				got := writeLevels(t, c.rows, c.cols, k, c.maxGap/2, ranked, true, dir)
				// the ranked search starts from the top seed
				first := max(seeds-1, 0)
				require.Equal(t, len(want)-first, len(got))
				for j := range got {
					assert.True(t, bytes.Equal(want[first+j], got[j]), "%dx%d k=%d seeds=%d level %d: the files differ", c.rows, c.cols, k, seeds, first+j)
				}
				// seeds held as 16^k tables are copied into ranked ones;
				// the lower seeds are not needed
				got2 := writeLevels(t, c.rows, c.cols, k, c.maxGap/2, flat, true, t.TempDir())
				assert.Equal(t, got, got2)
				if seeds > 1 {
					top := make([]*Bits, seeds)
					top[seeds-1] = ranked[seeds-1]
					assert.Equal(t, got, writeLevels(t, c.rows, c.cols, k, c.maxGap/2, top, true, t.TempDir()))
				}
				for j := first; j <= c.maxGap/2; j++ {
					_, keys, err := keyset.ReadAll(filepath.Join(dir, ApproxHeader(c.rows, c.cols, k, j, seeds).Name()+".keys"))
					require.NoError(t, err)
					assert.True(t, isSubset(exact[k][j], keys), "%dx%d k=%d seeds=%d level %d misses a pattern", c.rows, c.cols, k, seeds, j)
					if j < seeds {
						assert.Equal(t, exact[k][j], keys)
					}
				}
			}
		}
	}
}

// Above MaxApproxCells the public path takes ranked tables: on 3x4 with 10
// cells (a 16^10 table would be 128 GiB, a ranked one is 29 MiB) the sets,
// seeded from ranked key-set files that LoadExact reads, contain the exact
// projections and the seeded levels are exact (9 cells: the command's
// test).
func TestApproximateRankedCells(t *testing.T) {
	cells := []int{10}
	exact, err := LevelSets(context.Background(), 3, 4, 4, cells, nil)
	require.NoError(t, err)
	dir := t.TempDir()
	for _, k := range cells {
		var paths []string
		for i := 0; i < 2; i++ {
			h := keyset.Header{Rows: 3, Cols: 4, Cells: k, Gap: 2 * i, Exact: i == 0}
			p := filepath.Join(dir, h.Name()+".keys")
			require.NoError(t, keyset.WriteFile(p, h, exact[k][i]))
			paths = append(paths, p)
		}
		seeds, err := LoadExact(paths, 3, 4, k)
		require.NoError(t, err)
		require.Len(t, seeds, 2)
		assert.Nil(t, seeds[0], "above 8 cells only the top seed is loaded")
		s := seeds[1]
		require.NotNil(t, s.rk, "a %d-cell set is ranked", k)
		assert.Equal(t, placement.Bytes(12, k), s.Bytes())
		assert.Equal(t, exact[k][1], s.Keys())
		assert.Equal(t, int64(len(exact[k][1])), s.Len())
		// members and non-members, asked with whole-board keys (the first
		// cells' values do not matter)
		in := exact[k][1][len(exact[k][1])/2]
		assert.True(t, seeds[1].Contains(in|0xf<<44))
		out := 0
		first := placement.NewPrefix(placement.NewRanker(12, k)) // the patterns of the first 5000 ranks
		for x := range uint64(5000) {
			first.SetRank(x)
			p := first.Key()
			if !slices.Contains(exact[k][1], p) {
				assert.False(t, seeds[1].Contains(p))
				out++
			}
		}
		assert.Greater(t, out, 0)
		err = Approximate(context.Background(), 3, 4, k, 2, seeds, func(l ApproxLevel) error {
			require.NotNil(t, l.Set.rk)
			keys := l.Set.Keys()
			assert.True(t, isSubset(exact[k][l.Level], keys), "k=%d level %d misses a pattern", k, l.Level)
			if l.Level < 2 {
				assert.Equal(t, exact[k][l.Level], keys)
			} else {
				assert.Greater(t, len(keys), len(exact[k][l.Level]), "k=%d: an approximation", k)
			}
			t.Logf("3x4 k=%d gap<=%d: exact %d approx %d (%.1fs)", k, 2*l.Level, len(exact[k][l.Level]), len(keys), l.Elapsed.Seconds())
			return nil
		}, nil)
		require.NoError(t, err)
	}
}

// BenchmarkApproximate3x4 times the approximation on 8 cells of the 3x4
// board, seeded with the exact gap <= 0 and gap <= 2 levels, up to gap 4,
// with 16^8 bit tables (512 MiB each) and with ranked ones (2.5 MiB each):
//
//	go test -run - -bench Approximate3x4 -benchtime 1x -count 3 ./gapset/
func BenchmarkApproximate3x4(b *testing.B) {
	exact, err := LevelSets(context.Background(), 3, 4, 2, []int{8}, nil)
	require.NoError(b, err)
	seeds := []*Bits{BitsOf(exact[8][0], 8), BitsOf(exact[8][1], 8)}
	g, err := newGeometry(3, 4)
	require.NoError(b, err)
	for _, c := range []struct {
		name   string
		ranked bool
	}{{"bits", false}, {"ranked", true}} {
		s := []*Bits{seeds[0].reindexed(12, c.ranked), seeds[1].reindexed(12, c.ranked)}
		b.Run(c.name, func(b *testing.B) {
			var n int64
			for b.Loop() {
				err := approximate(context.Background(), g, 3, 4, 8, 2, s, func(l ApproxLevel) error {
					n = l.Set.Len()
					return nil
				}, nil, c.ranked)
				require.NoError(b, err)
			}
			b.ReportMetric(float64(n), "patterns")
		})
	}
}

// TestApproximateRankedFiles writes the approximated sets of a key-set
// directory's exact seeds with ranked tables, whatever the cells, for a
// comparison (cmp) with the files `gapset approx` writes from 16^k tables:
//
//	GAPSET_APPROX_SEEDS=DIR GAPSET_APPROX_OUT=OUT go test -run RankedFiles -v -timeout 0 ./gapset/
//
// with DIR holding Gap0_8.keys and Gap2_8.keys of the 4x4 board (files
// written packed, up to gap 8).
func TestApproximateRankedFiles(t *testing.T) {
	seedDir, out := os.Getenv("GAPSET_APPROX_SEEDS"), os.Getenv("GAPSET_APPROX_OUT")
	if seedDir == "" || out == "" {
		t.Skip("set GAPSET_APPROX_SEEDS and GAPSET_APPROX_OUT to write a 4x4 8-cell approximation with ranked tables")
	}
	seeds, err := LoadExact([]string{filepath.Join(seedDir, "Gap0_8.keys"), filepath.Join(seedDir, "Gap2_8.keys")}, 4, 4, 8)
	require.NoError(t, err)
	g, err := newGeometry(4, 4)
	require.NoError(t, err)
	err = approximate(context.Background(), g, 4, 4, 8, 4, seeds, func(l ApproxLevel) error {
		t.Logf("%s: %d patterns, %.1fs", l.Header.Name(), l.Set.Len(), l.Elapsed.Seconds())
		if l.Level < len(seeds) {
			return nil
		}
		h := l.Header
		h.Packed = true
		return l.Set.WriteFile(context.Background(), filepath.Join(out, h.Name()+".keys"), h)
	}, nil, true)
	require.NoError(t, err)
}
