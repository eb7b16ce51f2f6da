package heuristic

import (
	"context"
	"math/rand/v2"
	"path/filepath"
	"testing"

	"github.com/gapset/gapset/encode"
	"github.com/gapset/gapset/gapdb"
	"github.com/gapset/gapset/gapset"
	"github.com/gapset/gapset/ida"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The gap specs read from a gap database (--gapdb) expand the same nodes as
// read from the level sets it was built from, alone and with pdb44, with
// and without the mirror image, and solve to BFS length.
func TestGapDBSpecsSameNodes(t *testing.T) {
	sets, err := gapset.LevelSets(context.Background(), 3, 3, 4, []int{5}, nil)
	require.NoError(t, err)
	path := writeGapDB(t, []int{4, 5, 6, 7, 8}, sets[5])

	dir := pdb44Dir(t)
	chain := New(Options{Rows: 3, Cols: 3, Cells: []int{5}, MaxGap: 4, PDBDir: dir})
	db := New(Options{Rows: 3, Cols: 3, GapDBs: []string{path}, PDBDir: dir})
	truth := encode.Distances(3, 3)
	rng := rand.New(rand.NewPCG(33, 1))
	for _, s := range []string{"gap2:5", "gap4:5", "gap4r:5", "gap4r", "pdb44+gap4:5", "pdb44+gap4r:5"} {
		want, err := chain.Resolve(s)
		require.NoError(t, err, s)
		got, err := db.Resolve(s)
		require.NoError(t, err, s)
		if c, ok := got.(ida.Combined); ok {
			_, isChain := c.Gap.(ida.Gap)
			assert.False(t, isChain, s)
		} else {
			assert.Contains(t, got.Name(), "GapDB4_5")
		}
		for i := 0; i < 15; i++ {
			bd := encode.Random(rng, 3, 3)
			w, err := ida.Solve(bd, want, ida.Options{})
			require.NoError(t, err)
			g, err := ida.Solve(bd, got, ida.Options{})
			require.NoError(t, err)
			assert.Equal(t, truth[bd.Key()], g.Length, "%s on %s", s, bd)
			assert.Equal(t, w.Expanded, g.Expanded, "%s on %s", s, bd)
		}
	}
	assert.True(t, db.Uses(OptGapDB))
}

// A gap database of fewer levels joins one that reaches the spec's gap
// (a big projection exact to gap 2 beside a small one to gap 4): gap4r
// takes both and solves to BFS length; a spec only the small-gap database
// would answer is refused, naming the largest gap given.
func TestGapDBFewerLevelsJoin(t *testing.T) {
	sets, err := gapset.LevelSets(context.Background(), 3, 3, 4, []int{5, 6}, nil)
	require.NoError(t, err)
	big := writeGapDB(t, []int{3, 4, 5, 6, 7, 8}, sets[6][:2])
	small := writeGapDB(t, []int{4, 5, 6, 7, 8}, sets[5])
	r := New(Options{Rows: 3, Cols: 3, GapDBs: []string{big, small}})
	h, err := r.Resolve("gap4r")
	require.NoError(t, err)
	assert.Equal(t, "gap4r(GapDB2_6+GapDB4_5)", h.Name())
	truth := encode.Distances(3, 3)
	rng := rand.New(rand.NewPCG(34, 1))
	for i := 0; i < 20; i++ {
		bd := encode.Random(rng, 3, 3)
		g, err := ida.Solve(bd, h, ida.Options{})
		require.NoError(t, err)
		assert.Equal(t, truth[bd.Key()], g.Length, "%s", bd)
	}
	_, err = r.Resolve("gap4:6")
	assert.ErrorContains(t, err, "gap4 needs a gap database of gap <= 4; the largest given holds gap <= 2 (GapDB2_6)")
	_, err = r.Resolve("gap2:6")
	assert.NoError(t, err)
}

// writeGapDB writes the 3x3 gap database of the level sets (level i: gap
// <= 2i) on the given cells and returns its path.
func writeGapDB(t *testing.T, cells []int, levels [][]uint64) string {
	t.Helper()
	b, err := gapdb.NewBuilder(3, 3, cells, len(levels), len(cells)/2) // a filter, as the big databases have
	require.NoError(t, err)
	for i, l := range levels {
		for _, k := range l {
			b.Add(i, k)
		}
	}
	path := filepath.Join(t.TempDir(), "g.gapdb")
	require.NoError(t, b.Write(context.Background(), path))
	return path
}
