package heuristic

import (
	"math/rand/v2"
	"testing"

	"github.com/gapset/gapset/encode"
	"github.com/gapset/gapset/ida"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The combined names build ida.Combined over the registry's database and
// gap sets, and solve 3x3 boards to their BFS length with no more nodes
// than the database alone.
func TestCombinedNamesSolveOptimally(t *testing.T) {
	truth := encode.Distances(3, 3)
	r := New(Options{Rows: 3, Cols: 3, Cells: []int{5}, MaxGap: 2, PDBDir: pdb44Dir(t)})
	base, err := r.Resolve("pdb44")
	require.NoError(t, err)
	rng := rand.New(rand.NewPCG(13, 1))
	for _, s := range []string{"pdb44+gap0", "pdb44+gap2r", "pdb44+gap2:5"} {
		h, err := r.Resolve(s)
		require.NoError(t, err, s)
		assert.Equal(t, s, h.Name())
		c, ok := h.(ida.Combined)
		require.True(t, ok, s)
		assert.Equal(t, s == "pdb44+gap2r", c.Transpose, s)
		for i := 0; i < 20; i++ {
			b := encode.Random(rng, 3, 3)
			res, err := ida.Solve(b, h, ida.Options{})
			require.NoError(t, err, s)
			assert.Equal(t, truth[b.Key()], res.Length, "%s on %s", s, b)
			ref, err := ida.Solve(b, base, ida.Options{})
			require.NoError(t, err)
			assert.LessOrEqual(t, res.Expanded, ref.Expanded, "%s on %s", s, b)
		}
	}
	for _, bad := range []string{"pdb44+gap2:5/4", "pdb44+gap2:x", "pdb44+gap4", "pdb44+gap2-gapfirst"} {
		_, err := r.Resolve(bad)
		assert.Error(t, err, bad)
	}
	assert.True(t, r.Uses(OptPDB))
	assert.True(t, r.Uses(OptCells))
}
