package gapset

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/gapset/gapset/encode"
	"github.com/gapset/gapset/ida"
	"github.com/gapset/gapset/internal/slowtest"
	"github.com/gapset/gapset/memset"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Every level of one enumeration up to gap 8 is the BFS set of gap <= 2i,
// whole and projected.
func TestLevelSetsMatchBFS(t *testing.T) {
	for _, sz := range [][2]int{{3, 3}, {2, 4}} {
		rows, cols := sz[0], sz[1]
		n := rows * cols
		dist := encode.Distances(rows, cols)
		cells := []int{n, n - 3}
		sets, err := LevelSets(context.Background(), rows, cols, 8, cells, nil)
		require.NoError(t, err)
		for i := 0; i <= 4; i++ {
			want := encode.GapKeys(rows, cols, dist, 0, 2*i)
			assert.Equal(t, want, sets[n][i], "%dx%d gap<=%d", rows, cols, 2*i)
			assert.Equal(t, projectAll(want, n-3), sets[n-3][i], "%dx%d gap<=%d k=%d", rows, cols, 2*i, n-3)
		}
	}
}

// On the 3x4 board (too big for the BFS map) h_G:2N with the enumerated
// sets finds Manhattan's optimal lengths on random boards, with fewer
// nodes. By default gap <= 4; GAPSET_SLOW=1 runs gap <= 8 (about 10 s of
// enumeration).
func TestLevelSets3x4SolveSample(t *testing.T) {
	maxGap, samples := 4, 40
	if slowtest.On() {
		maxGap, samples = 8, 200
	}
	sets, err := LevelSets(context.Background(), 3, 4, maxGap, []int{12, 8}, nil)
	require.NoError(t, err)
	var exact, proj ida.Gap
	for i := range sets[12] {
		exact.Levels = append(exact.Levels, memset.New(sets[12][i], 12))
		proj.Levels = append(proj.Levels, memset.New(sets[8][i], 8))
	}
	rng := rand.New(rand.NewPCG(3, 4))
	var mdNodes, gapNodes int64
	for range samples {
		b := encode.Random(rng, 3, 4)
		md, err := ida.Solve(b, ida.Manhattan{}, ida.Options{})
		require.NoError(t, err)
		for _, h := range []ida.Heuristic{exact, proj} {
			r, err := ida.Solve(b, h, ida.Options{})
			require.NoError(t, err)
			require.Equal(t, md.Length, r.Length, "%s with %s", b, h.Name())
		}
		r, _ := ida.Solve(b, exact, ida.Options{})
		mdNodes += md.Expanded
		gapNodes += r.Expanded
		// the root bound is M + the gap, capped at M + maxGap + 2
		key := b.Key()
		want := min(md.Length, b.Manhattan()+maxGap+2)
		assert.Equal(t, want, r.RootBound, "%s (%#x)", b, key)
	}
	assert.Less(t, gapNodes, mdNodes/10)
}
