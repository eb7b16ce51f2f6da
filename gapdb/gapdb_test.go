package gapdb

import (
	"context"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"sync"
	"testing"

	"github.com/gapset/gapset/encode"
	"github.com/gapset/gapset/gapset"
	"github.com/gapset/gapset/ida"
	"github.com/gapset/gapset/internal/placement"
	"github.com/gapset/gapset/memset"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// truth is the BFS distance of every board of a small size and the true
// gap sets made from it (levels[i]: the boards of gap <= 2i), independent
// of the enumerator.
type truth struct {
	rows, cols int
	dist       map[uint64]int
	levels     [][]uint64
}

func newTruth(rows, cols, n int) *truth {
	tr := &truth{rows: rows, cols: cols, dist: encode.Distances(rows, cols)}
	for i := 0; i < n; i++ {
		tr.levels = append(tr.levels, encode.GapKeys(rows, cols, tr.dist, 0, 2*i))
	}
	return tr
}

var (
	truth3x3 = sync.OnceValue(func() *truth { return newTruth(3, 3, 3) })
	truth2x4 = sync.OnceValue(func() *truth { return newTruth(2, 4, 3) })
)

// testFilter is the filter the tests' databases of k cells get: half
// their cells, so that every search in the tests goes through a filter.
func testFilter(k int) int { return min(k/2, MaxFilterCells) }

// build writes the database of the level sets (cumulative, keys of whole
// boards or projected onto cells that include cells) and opens it.
func build(t testing.TB, rows, cols int, cells []int, levels [][]uint64) *DB {
	t.Helper()
	return buildFiltered(t, rows, cols, cells, levels, testFilter(len(cells)))
}

// buildFiltered is build with a filter of f cells (0: none).
func buildFiltered(t testing.TB, rows, cols int, cells []int, levels [][]uint64, f int) *DB {
	t.Helper()
	b, err := NewBuilder(rows, cols, cells, len(levels), f)
	require.NoError(t, err)
	for i := len(levels) - 1; i >= 0; i-- { // any order
		for _, k := range levels[i] {
			b.Add(i, k)
		}
	}
	path := filepath.Join(t.TempDir(), "g.gapdb")
	require.NoError(t, b.Write(context.Background(), path))
	d, err := Open(path)
	require.NoError(t, err)
	t.Cleanup(d.Close)
	return d
}

// transposedSet holds a board when the inner set holds it and its transpose
// (heuristic's gapGr levels).
type transposedSet struct {
	inner ida.Set
	t     *encode.Transposition
}

func (m transposedSet) Contains(key uint64) bool {
	return m.inner.Contains(key) && m.inner.Contains(m.t.Key(key))
}

// chain is ida.Gap over the level sets projected onto the last k cells.
func chain(t testing.TB, rows, cols, k int, levels [][]uint64, transpose bool) ida.Gap {
	var g ida.Gap
	tp, _ := encode.NewSquareTransposition(rows, cols)
	for _, l := range levels {
		var s ida.Set = memset.New(l, k)
		if transpose {
			s = transposedSet{s, tp}
		}
		g.Levels = append(g.Levels, s)
	}
	return g
}

func boards(t testing.TB, tr *truth, n int, seed uint64) []encode.Board {
	keys := make([]uint64, 0, len(tr.dist))
	for k := range tr.dist {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	rng := rand.New(rand.NewPCG(seed, 1))
	var out []encode.Board
	for i := 0; i < n; i++ {
		b, err := encode.FromKey(keys[rng.IntN(len(keys))], tr.rows, tr.cols)
		require.NoError(t, err)
		out = append(out, b)
	}
	return out
}

func solve(t testing.TB, b encode.Board, h ida.Heuristic) ida.Result {
	t.Helper()
	r, err := ida.Solve(b, h, ida.Options{})
	require.NoError(t, err)
	return r
}

// The database reads, one entry a board, what the chain of level sets
// answers level by level: the same nodes, on 3x3 with and without the
// transpose, and lengths equal to BFS truth.
func TestSameNodesAsChain3x3(t *testing.T) {
	tr := truth3x3()
	for _, k := range []int{5, 6, 9} {
		for _, transpose := range []bool{false, true} {
			d := build(t, 3, 3, lastCells(9, k), tr.levels)
			ch := chain(t, 3, 3, k, tr.levels, transpose)
			for n := 1; n <= len(tr.levels); n++ {
				ch.Levels = ch.Levels[:n]
				h := Heuristic{DBs: []*DB{d}, Levels: n, Transpose: transpose}
				for _, b := range boards(t, tr, 25, uint64(k)) {
					want := solve(t, b, ch)
					got := solve(t, b, h)
					require.Equal(t, tr.dist[b.Key()], got.Length, "k %d %s", k, b)
					require.Equal(t, want.Expanded, got.Expanded, "k %d levels %d transpose %v %s", k, n, transpose, b)
					require.Equal(t, want.Generated, got.Generated)
					noPF := h
					noPF.NoPrefetch = true
					assert.Equal(t, want.Expanded, solve(t, b, noPF).Expanded)
				}
			}
		}
	}
}

// On 3x4 (no BFS truth: the lengths are Manhattan distance's, optimal
// too) the exact levels projected onto the last 8 cells, by the
// enumerator.
func TestSameNodesAsChain3x4(t *testing.T) {
	sets, err := gapset.LevelSets(context.Background(), 3, 4, 4, []int{8}, nil)
	require.NoError(t, err)
	levels := sets[8]
	d := build(t, 3, 4, lastCells(12, 8), levels)
	ch := chain(t, 3, 4, 8, levels, false)
	inst, err := encode.ReadInstanceFile("../docs/gaps-3x4/inst.txt", 3, 4)
	require.NoError(t, err)
	for _, in := range inst[:12] {
		md := solve(t, in.Board, ida.Manhattan{})
		want := solve(t, in.Board, ch)
		got := solve(t, in.Board, Heuristic{DBs: []*DB{d}, Levels: 3})
		require.Equal(t, md.Length, got.Length)
		require.Equal(t, want.Expanded, got.Expanded, "%s", in.Board)
		assert.Less(t, got.Expanded, md.Expanded)
	}
}

// The rank memo answers every pattern as the ranking does, whether the
// pattern was asked before, replaced in its slot by another, or is new.
func TestRankMemo(t *testing.T) {
	p := newProjector(16, []int{1, 4, 6, 9, 11, 12, 14, 15})
	var m rankMemo
	rng := rand.New(rand.NewPCG(7, 11))
	var keys []uint64
	for range 300 {
		var tiles []uint8
		for _, v := range rng.Perm(16) {
			tiles = append(tiles, uint8(v))
		}
		keys = append(keys, encode.KeyOf(tiles))
	}
	for round := 0; round < 4; round++ {
		for i, key := range keys {
			if round > 0 && i%3 == 0 { // revisit in another order too
				key = keys[(i*7)%len(keys)]
			}
			require.Equal(t, placement.RankKey(p.pattern(key), 16, 8), m.index(&p, key), "round %d key %#x", round, key)
		}
	}
}
