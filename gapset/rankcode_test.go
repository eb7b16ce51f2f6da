package gapset

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// permKey packs a permutation of 0..n-1 as a key (cell 0 most significant).
func permKey(p []int) uint64 {
	var k uint64
	for _, t := range p {
		k = k<<4 | uint64(t)
	}
	return k
}

// allPerms lists the permutations of 0..n-1 in lexicographic order.
func allPerms(n int) [][]int {
	var out [][]int
	var rec func(p []int, used int)
	rec = func(p []int, used int) {
		if len(p) == n {
			out = append(out, slices.Clone(p))
			return
		}
		for t := 0; t < n; t++ {
			if used&(1<<t) == 0 {
				rec(append(p, t), used|1<<t)
			}
		}
	}
	rec(nil, 0)
	return out
}

// On boards of at most 8 cells the code is the permutation's lexicographic
// rank: the k-th permutation in lexicographic order codes as k, and the
// code decodes back to it.
func TestRankCodeIsLexicographicRank(t *testing.T) {
	for _, n := range []int{1, 2, 3, 6, 8} {
		rc := newRankCoder(n)
		d := rankDecoder{rankCoder: rc}
		for i, p := range allPerms(n) {
			k := permKey(p)
			require.Equal(t, uint64(i), rc.code(k), "n=%d perm %v", n, p)
			back, err := d.key(uint64(i))
			require.NoError(t, err)
			require.Equal(t, k, back, "n=%d rank %d", n, i)
		}
	}
}

// randomKeys returns count sorted distinct random boards of n cells, in
// clusters like a layer's (neighbours share long prefixes).
func randomKeys(rng *rand.Rand, n, count int) []uint64 {
	keys := make([]uint64, 0, count)
	p := make([]int, n)
	for i := range p {
		p[i] = i
	}
	for len(keys) < count {
		rng.Shuffle(n, func(i, j int) { p[i], p[j] = p[j], p[i] })
		keys = append(keys, permKey(p))
		for c := 0; c < 5 && n >= 4; c++ { // a neighbour: two of the last four cells swapped
			q := slices.Clone(p)
			i, j := n-1-rng.IntN(4), n-1-rng.IntN(4)
			q[i], q[j] = q[j], q[i]
			keys = append(keys, permKey(q))
		}
	}
	slices.Sort(keys)
	return slices.Compact(keys)
}

// Beyond 8 cells codes keep the keys' order (a prefix of nibbles, the rank
// of the last 8), rank-coded runs read back exactly in chunks of any size,
// take fewer bytes than the keys' own differences, and a damaged one is
// refused.
func TestRankCodedRunsRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	dir := t.TempDir()
	for _, n := range []int{6, 9, 12, 16} {
		keys := randomKeys(rng, n, 20000)
		rc := newRankCoder(n)
		for i := 1; i < len(keys); i++ {
			require.Less(t, rc.code(keys[i-1]), rc.code(keys[i]), "n=%d: codes must keep the keys' order", n)
		}
		plain, err := writeRun(filepath.Join(dir, "plain"), keys, coding{delta: true})
		require.NoError(t, err)
		ranked, err := writeRun(filepath.Join(dir, "ranked"), keys, coding{delta: true, cells: n})
		require.NoError(t, err)
		st, err := os.Stat(ranked.path)
		require.NoError(t, err)
		assert.Equal(t, st.Size(), ranked.bytes)
		assert.Less(t, ranked.bytes, plain.bytes, "n=%d", n)
		t.Logf("%d cells: %.2f bytes a key rank-coded, %.2f as key differences", n,
			float64(ranked.bytes)/float64(len(keys)), float64(plain.bytes)/float64(len(keys)))
		for _, chunk := range []int{1, 7, 1 << 16} {
			var got []uint64
			require.NoError(t, forEachChunk(ranked, chunk, func(a []uint64) error { got = append(got, a...); return nil }))
			require.Equal(t, keys, got, "n=%d chunk=%d", n, chunk)
		}
	}
	// A code whose prefix repeats a tile is no board.
	bad, err := writeRun(filepath.Join(dir, "bad"), []uint64{0x1100000000000000}, coding{delta: true})
	require.NoError(t, err)
	bad.cells = 16
	err = forEachChunk(bad, 16, func([]uint64) error { return nil })
	assert.ErrorContains(t, err, "damaged run")
	// A rank beyond 8! is no board either.
	bad, err = writeRun(filepath.Join(dir, "bad"), []uint64{0x0123456789abcdef<<16>>16 | 0xffff}, coding{delta: true})
	require.NoError(t, err)
	bad.cells = 16
	err = forEachChunk(bad, 16, func([]uint64) error { return nil })
	assert.ErrorContains(t, err, "damaged run")
}
