package gapset

import (
	"context"
	"slices"
	"testing"

	"github.com/gapset/gapset/encode"
	"github.com/gapset/gapset/ida"
	"github.com/gapset/gapset/memset"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The transpose keeps the BFS distance and the Manhattan distance of every
// 3x3 board, so mirrored projected sets keep h_G:8 admissible: solves give
// the BFS lengths with no more nodes than the plain sets.
func TestMirroredSets(t *testing.T) {
	dist := encode.Distances(3, 3)
	g, _ := newGeometry(3, 3)
	tr, err := NewTransposer(3, 3)
	require.NoError(t, err)
	assert.Equal(t, g.goal, tr.Key(g.goal))
	for k, d := range dist {
		m, ok := dist[tr.Key(k)]
		require.True(t, ok, "%#x transposes to an unreachable board", k)
		require.Equal(t, d, m)
		require.Equal(t, g.Manhattan(k), g.Manhattan(tr.Key(k)))
		require.Equal(t, k, tr.Key(tr.Key(k)))
	}
	_, err = NewTransposer(3, 4)
	assert.Error(t, err)

	sets, err := LevelSets(context.Background(), 3, 3, 8, []int{5}, nil)
	require.NoError(t, err)
	var plain, mirrored ida.Gap
	for _, s := range sets[5] {
		ms := memset.New(s, 5)
		plain.Levels = append(plain.Levels, ms)
		mirrored.Levels = append(mirrored.Levels, Mirrored{ms, tr})
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
		rm, err := ida.Solve(b, mirrored, ida.Options{})
		require.NoError(t, err)
		require.Equal(t, dist[k], rp.Length)
		require.Equal(t, dist[k], rm.Length, "%s", b)
		np += rp.Expanded
		nm += rm.Expanded
	}
	assert.Less(t, nm, np)
	t.Logf("3x3, 5 cells, h_G:8: %d nodes plain, %d mirrored", np, nm)
}
