package pdb

import (
	"math/rand/v2"
	"testing"

	"github.com/gapset/gapset/encode"
	"github.com/gapset/gapset/ida"
	"github.com/gapset/gapset/internal/placement"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The compact coding decodes to the byte tables entry by entry, gives the
// same bound on every board (direct, transposed, dual) and so the same search.
func TestCompactSameBounds(t *testing.T) {
	for _, c := range []struct {
		part       string
		rows, cols int
	}{{"4-4", 3, 3}, {"1,5/2,3,6/4,7,8", 3, 3}, {"5-5-5", 4, 4}} {
		set := buildSet(t, c.part, c.rows, c.cols)
		cs, err := set.Compact(2)
		require.NoError(t, err, c.part)
		assert.Nil(t, cs.Tables)
		var half int64
		for _, tb := range set.Tables {
			half += int64(len(tb)+1) / 2
		}
		assert.Equal(t, half, cs.Bytes(), c.part)
		geo, err := encode.NewGeometry(c.rows, c.cols)
		require.NoError(t, err)
		n := c.rows * c.cols
		for gi, g := range set.Part.Groups {
			pos := make([]uint8, len(g))
			for r, v := range set.Tables[gi] {
				placement.Unrank(r, pos, n)
				m := 0
				for i, tile := range g {
					m += int(geo.Dist[tile][pos[i]])
				}
				require.Equal(t, int(v), m+2*int(nibble(cs.Nibbles[gi], r)), "%s group %d rank %d", c.part, gi, r)
			}
		}
		rng := rand.New(rand.NewPCG(9, 10))
		for _, opts := range []Heuristic{{}, {Transpose: true}, {Transpose: true, Dual: true}} {
			a, b := opts, opts
			a.DBs, b.DBs = set, cs
			for i := 0; i < 300; i++ {
				board := encode.Random(rng, c.rows, c.cols)
				va, err := a.Value(board)
				require.NoError(t, err)
				vb, err := b.Value(board)
				require.NoError(t, err)
				require.Equal(t, va, vb, "%s %+v %s", c.part, opts, board)
			}
			if c.rows == 3 {
				for i := 0; i < 30; i++ {
					board := encode.Random(rng, c.rows, c.cols)
					ra, err := ida.Solve(board, &a, ida.Options{})
					require.NoError(t, err)
					rb, err := ida.Solve(board, &b, ida.Options{})
					require.NoError(t, err)
					require.Equal(t, ra.Length, rb.Length)
					require.Equal(t, ra.Expanded, rb.Expanded, "the same bounds, the same search")
				}
			}
		}
	}
	// groups that leave tiles out have no compact coding
	set := buildSet(t, "4-4", 3, 3)
	part := set.Part
	part.Groups = part.Groups[:1]
	_, err := (&Databases{Part: part, Tables: set.Tables[:1], Steps: set.Steps[:1]}).Compact(1)
	assert.ErrorContains(t, err, "covers 4 of the 8 tiles")
	// a damaged entry (odd excess) is refused
	set.Tables[0][5] ^= 1
	_, err = set.Compact(1)
	assert.ErrorContains(t, err, "not its Manhattan distance plus an even number")
}
