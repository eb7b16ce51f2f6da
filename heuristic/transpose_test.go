package heuristic

import (
	"context"
	"slices"
	"testing"

	"github.com/gapset/gapset/encode"
	"github.com/gapset/gapset/gapset"
	"github.com/gapset/gapset/ida"
	"github.com/gapset/gapset/memset"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A board and its transpose have the same gap (encode's transposition
// keeps BFS and Manhattan distance), so transposed projected sets keep h_G:8
// admissible: solves give the BFS lengths with fewer nodes than the plain
// sets.
func TestTransposedSets(t *testing.T) {
	dist := encode.Distances(3, 3)
	tr, err := encode.NewSquareTransposition(3, 3)
	require.NoError(t, err)
	sets, err := gapset.LevelSets(context.Background(), 3, 3, 8, []int{5}, nil)
	require.NoError(t, err)
	var plain, transposed ida.Gap
	for _, s := range sets[5] {
		ms := memset.New(s, 5)
		plain.Levels = append(plain.Levels, ms)
		transposed.Levels = append(transposed.Levels, transposedSet{ms, tr})
	}
	keys := make([]uint64, 0, len(dist))
	for k := range dist {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	var np, nm int64
	for i, k := range keys {
		if i%40 != 0 {
			continue
		}
		b, _ := encode.FromKey(k, 3, 3)
		rp, err := ida.Solve(b, plain, ida.Options{})
		require.NoError(t, err)
		rm, err := ida.Solve(b, transposed, ida.Options{})
		require.NoError(t, err)
		require.Equal(t, dist[k], rp.Length)
		require.Equal(t, dist[k], rm.Length, "%s", b)
		np += rp.Expanded
		nm += rm.Expanded
	}
	assert.Less(t, nm, np)
	t.Logf("3x3, 5 cells, h_G:8: %d nodes plain, %d transposed", np, nm)
}
