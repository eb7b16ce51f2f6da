package heuristic

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/gapset/gapset/encode"
	"github.com/gapset/gapset/ida"
	"github.com/gapset/gapset/pdb"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The blank-aware specs read the -blank.pdb files of the board of
// --rows/--cols, beside the blank-minimised ones; they find the BFS
// optimum, pass pdb.UnitStep (pdb44 does not), and load a partition
// once however it is written.
func TestResolveBlankDatabases(t *testing.T) {
	dir := pdb44Dir(t)
	part, err := pdb.ParsePartition("4-4", 3, 3)
	require.NoError(t, err)
	part.Blank = true
	require.NoError(t, pdb.BuildFiles(context.Background(), part, dir, 1, false, nil, nil))
	truth := encode.Distances(3, 3)
	r := New(Options{Rows: 3, Cols: 3, PDBDir: dir})
	specs := []string{"pdbb:4-4", "pdbbr:4-4", "pdbbr:1-4/5-8", "pdbbr:1.2.3.4/5.6.7.8", "max(pdbbr:4-4,pdb44)", "pdbbr:4-4+bpmx+fsm"}
	rng := rand.New(rand.NewPCG(3, 5))
	for i := 0; i < 10; i++ {
		b := encode.Random(rng, 3, 3)
		for _, s := range specs {
			h, err := r.Resolve(s)
			require.NoError(t, err, s)
			res, err := ida.Solve(b, h, ida.Options{})
			require.NoError(t, err, s)
			assert.Equal(t, truth[b.Key()], res.Length, "%s on %s", s, b)
		}
	}
	assert.Len(t, r.pdbs, 2, "the 4-4 databases of each kind, loaded once")
	for _, s := range specs[:4] {
		h, err := r.Resolve(s)
		require.NoError(t, err)
		assert.Equal(t, s, h.Name())
		assert.NoError(t, pdb.UnitStep(h), s)
	}
	h, err := r.Resolve("max(pdbbr:4-4,pdb44)")
	require.NoError(t, err)
	assert.ErrorIs(t, pdb.UnitStep(h), pdb.ErrNotUnitStep)

	for spec, msg := range map[string]string{
		"pdbb":          "pdbb needs a partition",
		"pdbb:1-4/5-7":  "tile 8 in no group",
		"pdbb:1,2":      "unexpected",
		"pdb78b":        "for 4x4 boards",
		"pdbbr:3-8/1-2": "3x3-3-4-5-6-7-8-blank.pdb is missing",
	} {
		_, err := r.Resolve(spec)
		assert.ErrorContains(t, err, msg, spec)
	}
	_, err = New(Options{Rows: 2, Cols: 4, PDBDir: dir}).Resolve("pdbbr:1-4/5-7")
	assert.ErrorContains(t, err, "a square board, not 2x4")
	_, err = New(Options{Rows: 3, Cols: 3, PDBDir: t.TempDir()}).Resolve("pdbb:4-4")
	assert.ErrorContains(t, err, "gapset pdb build --partition 4-4 --rows 3 --cols 3 --blank --out")
}
