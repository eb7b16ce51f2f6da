package bdd

import (
	"math/rand/v2"
	"path/filepath"
	"slices"
	"testing"

	"github.com/gapset/gapset/encode"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestTileKeyIsTheInversePermutation(t *testing.T) {
	rng := rand.New(rand.NewPCG(31, 32))
	for _, size := range [][2]int{{3, 3}, {4, 4}, {2, 3}} {
		n := size[0] * size[1]
		for i := 0; i < 500; i++ {
			b := encode.Random(rng, size[0], size[1])
			k := b.Key()
			tk := TileKey(k, n)
			for c, tile := range b.Tiles {
				require.Equal(t, uint64(c), tk>>(4*uint(n-1-int(tile)))&15, "tile %d is on cell %d", tile, c)
			}
			require.Equal(t, k, TileKey(tk, n), "an involution on boards")
		}
	}
	goal := encode.Goal(4, 4).Key()
	assert.Equal(t, uint64(0xf0123456789abcde), TileKey(goal, 16), "blank on cell 15, tile t on cell t-1")
}

// A tiles-encoded file answers queries given ordinary board keys.
func TestTilesEncodedSetAnswersBoardKeys(t *testing.T) {
	g0, g2 := sets3x3(t)
	rng := rand.New(rand.NewPCG(33, 34))
	dir := t.TempDir()
	for gi, set := range [][]uint64{g0, g2} {
		tk := make([]uint64, len(set))
		for i, k := range set {
			tk[i] = TileKey(k, 9)
		}
		slices.Sort(tk)
		for _, name := range []string{"natural", "reverse", "planes"} {
			o, _ := NamedOrder(name, 3, 3, 9)
			d, err := Build(tk, o, false)
			require.NoError(t, err)
			path := filepath.Join(dir, "t.bdd")
			_, err = Save(path, d, Meta{Rows: 3, Cols: 3, Cells: 9, Gap: 2 * gi, Tiles: true})
			require.NoError(t, err)
			s, err := Open(path)
			require.NoError(t, err)
			assert.True(t, s.Info().Tiles)
			c := s.NewCursor()
			for _, k := range set {
				require.True(t, s.Contains(k))
				require.True(t, c.Contains(k))
			}
			for i := 0; i < 3000; i++ {
				k := encode.Random(rng, 3, 3).Key()
				require.Equal(t, member(set, k), s.Contains(k))
				require.Equal(t, member(set, k), c.Contains(k))
			}
			if name != "planes" {
				assert.Error(t, s.Project(4, func(uint64) {}), "no projection onto cells of a tiles set")
			}
		}
	}
	o, _ := NamedOrder("natural", 3, 3, 6)
	d, err := Build(project(g0, 6), o, false)
	require.NoError(t, err)
	_, err = Save(filepath.Join(dir, "bad.bdd"), d, Meta{Rows: 3, Cols: 3, Cells: 6, Tiles: true})
	assert.ErrorContains(t, err, "whole boards")
}
