package encode

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
)

// The model's tables agree with the board's own moves: every successor's
// key is the parent's key flipped by Flip, its Manhattan distance changes by
// Delta, which is always +1 or -1, and Manhattan of a key is the board's.
func TestGeometryAgreesWithMoves(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for _, sz := range [][2]int{{2, 2}, {2, 3}, {3, 3}, {2, 8}, {3, 4}, {4, 4}} {
		g, err := NewGeometry(sz[0], sz[1])
		require.NoError(t, err)
		for i := 0; i < 200; i++ {
			b := Random(rng, sz[0], sz[1])
			require.Equal(t, b.Manhattan(), g.Manhattan(b.Key()))
			blank := b.Blank()
			nbrs := Neighbors(b.Rows, b.Cols, blank)
			require.Len(t, nbrs, int(g.NbrN[blank]))
			kids, tiles := b.Successors()
			for j, k := range kids {
				from := nbrs[j]
				require.Equal(t, uint8(from), g.Nbr[blank][j])
				tile := uint64(tiles[j])
				require.Equal(t, k.Key(), b.Key()^tile*g.Flip[from][blank], "%s tile %d", b, tile)
				d := int(g.Delta[tile][from][blank])
				require.Contains(t, []int{-1, 1}, d)
				require.Equal(t, k.Manhattan()-b.Manhattan(), d)
			}
		}
	}
	_, err := NewGeometry(5, 4)
	require.ErrorIs(t, err, ErrSize)
}
