package gapset

import (
	"context"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/gapset/gapset/encode"
	"github.com/gapset/gapset/ida"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func projectAll(keys []uint64, k int) []uint64 {
	out := make([]uint64, len(keys))
	for i, v := range keys {
		out[i] = encode.Project(v, k)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

func TestBFSSanity(t *testing.T) {
	assert.Len(t, encode.Distances(3, 3), 181440)
	assert.Len(t, encode.Distances(2, 3), 360)
}

func TestSetsMatchBFS(t *testing.T) {
	for _, sz := range [][2]int{{2, 3}, {3, 3}, {2, 4}} {
		rows, cols := sz[0], sz[1]
		n := rows * cols
		dist := encode.Distances(rows, cols)
		for _, gap := range []int{0, 2, 4} {
			cells := []int{n, n - 1, n / 2}
			sets, err := Sets(context.Background(), rows, cols, gap, cells, nil)
			require.NoError(t, err)
			want := encode.GapKeys(rows, cols, dist, 0, gap)
			require.NotEmpty(t, want)
			assert.Equal(t, want, sets[n], "%dx%d gap<=%d", rows, cols, gap)
			for _, k := range cells[1:] {
				assert.Equal(t, projectAll(want, k), sets[k], "%dx%d gap<=%d k=%d", rows, cols, gap, k)
			}
		}
	}
}

func TestLayersAreExactGaps(t *testing.T) {
	dist := encode.Distances(3, 3)
	g, _ := newGeometry(3, 3)
	layers, err := memLayers(context.Background(), 3, 3, 4, -1, nil)
	require.NoError(t, err)
	byGap := map[int][]uint64{}
	for _, l := range layers {
		assert.True(t, slices.IsSorted(l.keys))
		for _, k := range l.keys {
			require.Equal(t, l.step-2*l.level, g.Manhattan(k))
			require.Equal(t, l.step, dist[k], "key %#x level %d", k, l.level)
		}
		byGap[2*l.level] = append(byGap[2*l.level], l.keys...)
	}
	for gap := 0; gap <= 4; gap += 2 {
		slices.Sort(byGap[gap])
		assert.Equal(t, encode.GapKeys(3, 3, dist, gap, gap), byGap[gap], "exact gap %d", gap)
	}
	// The paper's G0 and G2 of the 8-puzzle are both non-trivial.
	assert.Greater(t, len(byGap[0]), 1000)
	assert.Greater(t, len(byGap[2]), len(byGap[0]))
}

func TestDepthFirstAgrees(t *testing.T) {
	for _, gap := range []int{0, 2} {
		df, err := DepthFirst(context.Background(), 3, 3, gap)
		require.NoError(t, err)
		sets, err := Sets(context.Background(), 3, 3, gap, []int{9}, nil)
		require.NoError(t, err)
		var keys []uint64
		for k := range df {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		assert.Equal(t, sets[9], keys, "gap<=%d", gap)
	}
	df, err := DepthFirst(context.Background(), 3, 3, 2)
	require.NoError(t, err)
	dist := encode.Distances(3, 3)
	g, _ := newGeometry(3, 3)
	for k, gap := range df {
		require.Equal(t, dist[k]-g.Manhattan(k), gap)
	}
}

func TestSetsBadArgs(t *testing.T) {
	for _, c := range []struct {
		rows, cols, gap int
		cells           []int
	}{
		{5, 4, 0, []int{16}}, {3, 3, 1, []int{9}}, {3, 3, -2, []int{9}}, {3, 3, 0, nil}, {3, 3, 0, []int{10}}, {3, 3, 0, []int{9, 9}},
	} {
		_, err := Sets(context.Background(), c.rows, c.cols, c.gap, c.cells, nil)
		assert.ErrorIs(t, err, ErrArgs, "%+v", c)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := Sets(ctx, 3, 3, 0, []int{9}, nil)
	assert.ErrorIs(t, err, context.Canceled)
}

func TestSetsProgress(t *testing.T) {
	var reports []Progress
	sets, err := Sets(context.Background(), 3, 3, 2, []int{9}, func(p Progress) { reports = append(reports, p) })
	require.NoError(t, err)
	require.NotEmpty(t, reports)
	last := reports[len(reports)-1]
	assert.Equal(t, int64(len(sets[9])), last.Members)
	var sum int64
	for _, p := range reports {
		sum += p.Layer
		assert.Equal(t, p.Step, p.Manhattan+p.Gap)
	}
	assert.Equal(t, last.Members, sum)
}

// On the 4x4 board the sets are checked by solving sampled members and
// neighbouring non-members with IDA*. The enumeration is cut at 16 reverse
// moves, so G0 is complete up to Manhattan 16 and G2 up to 14.
func TestSampled4x4AgainstIDA(t *testing.T) {
	const maxStep = 16
	layers, err := memLayers(context.Background(), 4, 4, 2, maxStep, nil)
	require.NoError(t, err)
	g, _ := newGeometry(4, 4)
	layer := map[[2]int][]uint64{}
	for _, l := range layers {
		layer[[2]int{l.level, l.step}] = l.keys
	}
	in := func(level, step int, k uint64) bool {
		_, ok := slices.BinarySearch(layer[[2]int{level, step}], k)
		return ok
	}
	solve := func(k uint64) int {
		b, err := encode.FromKey(k, 4, 4)
		require.NoError(t, err)
		r, err := ida.Solve(b, ida.Manhattan{}, ida.Options{})
		require.NoError(t, err)
		return r.Length
	}
	rng := rand.New(rand.NewPCG(4, 2012))
	checkedNon := 0
	for _, level := range []int{0, 1} {
		for step := 2*level + 4; step <= maxStep-1; step += 3 {
			keys := layer[[2]int{level, step}]
			require.NotEmpty(t, keys, "level %d step %d", level, step)
			for range 6 {
				k := keys[rng.IntN(len(keys))]
				m := g.Manhattan(k)
				require.Equal(t, step-2*level, m)
				assert.Equal(t, m+2*level, solve(k), "member %#x of gap %d", k, 2*level)
				// A neighbour one move closer (lower Manhattan) that is not a member has gap
				// exactly 2 more than the member (reached in M+2 more-than-Manhattan moves, parity).
				g.successors(k, func(n uint64, raise bool) {
					if raise {
						return
					}
					mn := m - 1 // within the complete range: M 15 for G0, 14 for G2
					switch {
					case in(0, mn, n):
						return
					case level == 0: // not in G0, so gap 2, so in G2
						assert.True(t, in(1, mn+2, n), "%#x", n)
						assert.Equal(t, 2, solve(n)-mn, "non-member of G0 %#x", n)
					case in(1, mn+2, n):
						return
					default: // neither G0 nor G2: gap 4
						assert.Equal(t, 4, solve(n)-mn, "non-member of G0+G2 %#x", n)
					}
					checkedNon++
				})
			}
		}
	}
	assert.Greater(t, checkedNon, 10)
}

func TestRadixSort(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{0, 1, 2, 47, 1000, 1 << 16, 300000} {
		for _, width := range []int{64, 48, 36, 8} {
			a := make([]uint64, n)
			for i := range a {
				a[i] = rng.Uint64() & encode.ProjectMask(width/4)
				if i%7 == 3 && i > 0 {
					a[i] = a[i-1] // repeats
				}
			}
			want := slices.Clone(a)
			slices.Sort(want)
			b := slices.Clone(a)
			sortKeys(a, nil, width, 2)
			require.Equal(t, want, a, "in place n=%d width=%d", n, width)
			sortKeys(b, make([]uint64, n), width, 2)
			require.Equal(t, want, b, "with scratch n=%d width=%d", n, width)
			assert.Equal(t, slices.Compact(slices.Clone(want)), dedup(a))
		}
	}
	// The in-place path for buckets too big for the scratch buffer.
	a := make([]uint64, 5000)
	for i := range a {
		a[i] = rng.Uint64() >> 20
	}
	want := slices.Clone(a)
	slices.Sort(want)
	sortBucket(a, 44, nil, 100)
	assert.Equal(t, want, a)
}

func TestSubtract(t *testing.T) {
	assert.Equal(t, []uint64{1, 5, 9}, subtract([]uint64{1, 2, 5, 7, 9}, []uint64{0, 2, 3, 7, 10}))
	assert.Equal(t, []uint64{}, subtract([]uint64{}, []uint64{1}))
}

func TestBlankAndManhattan(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 3))
	for _, sz := range [][2]int{{4, 4}, {3, 3}, {2, 3}, {3, 4}} {
		g, err := newGeometry(sz[0], sz[1])
		require.NoError(t, err)
		for range 200 {
			b := encode.Random(rng, sz[0], sz[1])
			k := b.Key()
			require.Equal(t, b.Blank(), g.blank(k))
			require.Equal(t, b.Manhattan(), g.Manhattan(k))
			g.successors(k, func(n uint64, raise bool) {
				nb, err := encode.FromKey(n, sz[0], sz[1])
				require.NoError(t, err)
				assert.Equal(t, raise, nb.Manhattan() == b.Manhattan()+1)
			})
		}
	}
}

// CheckInMemory lets Sets enumerate what it can in memory here and names
// what it cannot: no gap or cells, a bad size or gap, cells out of range,
// the 4x4 sets beyond gap 0.
func TestCheckInMemory(t *testing.T) {
	for _, c := range []struct {
		rows, cols, gap, cells int
		err                    string
	}{
		{3, 3, 4, 9, ""},
		{4, 4, 0, 8, ""},
		{3, 3, -1, 9, "give --gap and --cells"},
		{3, 3, 2, -1, "give --gap and --cells"},
		{5, 4, 0, 8, "board size"},
		{3, 3, 3, 9, "--gap must be even and --cells in 1..9"},
		{3, 3, 2, 10, "--gap must be even and --cells in 1..9"},
		{4, 4, 2, 8, "the 4x4 sets with gap 2 are too big to enumerate in memory here"},
	} {
		err := CheckInMemory(c.rows, c.cols, c.gap, c.cells)
		if c.err == "" {
			assert.NoError(t, err, "%+v", c)
		} else {
			assert.ErrorContains(t, err, c.err, "%+v", c)
		}
	}
}
