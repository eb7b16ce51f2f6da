package heuristic

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/gapset/gapset/encode"
	"github.com/gapset/gapset/gapset"
	"github.com/gapset/gapset/ida"
	"github.com/gapset/gapset/internal/placement"
	"github.com/gapset/gapset/internal/slowtest"
	"github.com/gapset/gapset/keyset"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// counts3x4 is the committed table of docs/residual: |Gap<=k| and |R<=k|
// of the 3x4 board and their projections' pattern counts.
const counts3x4 = "../docs/residual/counts-3x4.tsv"

// base3x4 is the table's base: the blank-aware databases of 1-6 / 7-11.
const base3x4 = "pdbb:1-6/7-11"

// countKey is a row of the table: the set (gap or res), its bound k and
// the cells it is projected onto (the last ones).
type countKey struct {
	set      string
	k, cells int
}

func readCounts(t *testing.T) map[countKey]int64 {
	t.Helper()
	f, err := os.Open(counts3x4)
	require.NoError(t, err)
	defer f.Close()
	out := map[countKey]int64{}
	sc := bufio.NewScanner(f)
	header := false
	for sc.Scan() {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		fs := strings.Split(line, "\t")
		require.Len(t, fs, 4, line)
		if !header {
			require.Equal(t, []string{"set", "k", "cells", "count"}, fs)
			header = true
			continue
		}
		k, err1 := strconv.Atoi(fs[1])
		cells, err2 := strconv.Atoi(fs[2])
		n, err3 := strconv.ParseInt(fs[3], 10, 64)
		require.NoError(t, err1)
		require.NoError(t, err2)
		require.NoError(t, err3)
		out[countKey{fs[0], k, cells}] = n
	}
	require.NoError(t, sc.Err())
	return out
}

// The committed counts of the 3x4 table are a full BFS filtered: every
// board's optimal length from encode.DistanceTable, its base value and its
// Manhattan distance give r and the gap; |R<=k| and |Gap<=k| count the
// boards, and the projections the patterns of the last 8 and 6 cells of
// the boards within them. The enumerated R<=0 and R<=2 are the BFS's too,
// board by board: each member's r is within its level, and the counts
// agree. Minutes and about 3 GB: GAPSET_SLOW=1.
func TestResidual3x4CountsMatchBFS(t *testing.T) {
	slowtest.Skip(t, "filter a full BFS of the 3x4 board (239,500,800 boards, minutes)")
	want := readCounts(t)
	b, err := New(Options{Rows: 3, Cols: 4, PDBDir: blankDir(t, "1-6/7-11", 3, 4)}).Base(base3x4)
	require.NoError(t, err)
	dist, err := encode.DistanceTable(context.Background(), 3, 4)
	require.NoError(t, err)
	levels, err := gapset.ResidualLevelSets(context.Background(), b.Base, 3, 4, 2, []int{12}, nil)
	require.NoError(t, err)
	for i, keys := range levels[12] {
		for _, k := range keys {
			d := dist[placement.RankKey(k, 12, 12)]
			require.NotEqual(t, uint8(encode.Unreached), d)
			require.LessOrEqual(t, int(d)-b.H(k), 2*i, "%#x in R<=%d", k, 2*i)
		}
		require.Equal(t, want[countKey{"res", 2 * i, 12}], int64(len(keys)))
	}
	levels = nil
	geo, err := encode.NewGeometry(3, 4)
	require.NoError(t, err)
	const n, top = 12, 8
	// smallest r and gap of each pattern of the last 8 and 6 cells
	minR := map[int][]uint8{8: fill(placement.Size(n, 8)), 6: fill(placement.Size(n, 6))}
	minG := map[int][]uint8{8: fill(placement.Size(n, 8)), 6: fill(placement.Size(n, 6))}
	var whole [2][top + 1]int64 // boards of r (gap) exactly k
	var pos [16]uint8
	for rank, d := range dist {
		if d == encode.Unreached {
			continue
		}
		placement.Unrank(rank, pos[:n], n)
		key := encode.KeyOf(pos[:n])
		r, g := int(d)-b.H(key), int(d)-geo.Manhattan(key)
		for i, v := range []int{r, g} {
			if v <= top {
				whole[i][v]++
			}
		}
		for _, k := range []int{8, 6} {
			x := placement.RankKey(encode.Project(key, k), n, k)
			if r <= top {
				minR[k][x] = min(minR[k][x], uint8(r))
			}
			if g <= top {
				minG[k][x] = min(minG[k][x], uint8(g))
			}
		}
	}
	got := map[countKey]int64{}
	for k := 0; k <= top; k += 2 {
		for i, set := range []string{"res", "gap"} {
			var c int64
			for v := 0; v <= k; v++ {
				c += whole[i][v]
			}
			got[countKey{set, k, n}] = c
		}
		for _, cells := range []int{8, 6} {
			got[countKey{"res", k, cells}] = atMost(minR[cells], k)
			got[countKey{"gap", k, cells}] = atMost(minG[cells], k)
		}
	}
	assert.Equal(t, want, got)
	fmt.Fprintf(os.Stderr, "3x4 BFS filter: %d rows agree\n", len(got))
}

func fill(n int64) []uint8 {
	a := make([]uint8, n)
	for i := range a {
		a[i] = 0xFF
	}
	return a
}

func atMost(a []uint8, k int) int64 {
	var c int64
	for _, v := range a {
		if int(v) <= k {
			c++
		}
	}
	return c
}

// By default the smallest level on a sample: an in-memory enumeration of
// R<=0 (and Gap<=0) of the 3x4 board relative to the table's base gives
// the committed counts of k = 0, whole and projected (R<=2 holds about 40
// million boards: the slow test checks it); their 8-cell databases give
// res0 and max(res0, gap0), which are admissible at the root and find the
// base's own optimal lengths on random boards.
func TestResidual3x4Sample(t *testing.T) {
	want := readCounts(t)
	dir := blankDir(t, "1-6/7-11", 3, 4)
	b, err := New(Options{Rows: 3, Cols: 4, PDBDir: dir}).Base(base3x4)
	require.NoError(t, err)
	cells := []int{12, 8, 6}
	res, err := gapset.ResidualLevelSets(context.Background(), b.Base, 3, 4, 0, cells, nil)
	require.NoError(t, err)
	gaps, err := gapset.LevelSets(context.Background(), 3, 4, 0, cells, nil)
	require.NoError(t, err)
	for _, c := range cells {
		assert.Equal(t, want[countKey{"res", 0, c}], int64(len(res[c][0])), "res k=0 cells %d", c)
		assert.Equal(t, want[countKey{"gap", 0, c}], int64(len(gaps[c][0])), "gap k=0 cells %d", c)
	}
	rdb := writeLevelDB(t, 3, 4, 8, b.ID(), res[8])
	gdb := writeLevelDB(t, 3, 4, 8, keyset.Base{}, gaps[8])
	r := New(Options{Rows: 3, Cols: 4, GapDBs: []string{rdb, gdb}, PDBDir: dir})
	var hs []ida.Heuristic
	for _, spec := range []string{"res0:8", "max(res0:8,gap0:8)"} {
		h, err := r.Resolve(spec)
		require.NoError(t, err)
		hs = append(hs, h)
	}
	raised := 0
	for _, inst := range encode.RandomInstances(52, 25, 3, 4) {
		bd := inst.Board
		truth, err := ida.Solve(bd, b.Heuristic, ida.Options{})
		require.NoError(t, err)
		for _, h := range hs {
			s, err := ida.Solve(bd, h, ida.Options{})
			require.NoError(t, err)
			require.Equal(t, truth.Length, s.Length, "%s with %s", bd, h.Name())
			require.LessOrEqual(t, s.RootBound, truth.Length, "%s with %s", bd, h.Name())
			if s.RootBound > truth.RootBound {
				raised++
			}
		}
	}
	assert.Positive(t, raised, "the levels raise some root bounds")
}
