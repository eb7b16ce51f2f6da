package heuristic

import (
	"os"
	"testing"

	"github.com/gapset/gapset/data"
	"github.com/gapset/gapset/ida"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestPDB78MidFromEnv checks the heuristics with the fewest nodes on Korf's
// 100 (opt-in: the databases take minutes and 2.5 GB to build):
//
//	GAPSET_PDB78MID_DIR=DIR go test -run PDB78Mid ./heuristic/
//
// with DIR holding both the 7-8 and the 7-8-mid databases. Every length is
// Korf's published one, and the search options and the second partition
// only remove nodes.
func TestPDB78MidFromEnv(t *testing.T) {
	dir := os.Getenv("GAPSET_PDB78MID_DIR")
	if dir == "" {
		t.Skip("set GAPSET_PDB78MID_DIR to a directory holding the 7-8 and 7-8-mid databases")
	}
	r := New(Options{Rows: 4, Cols: 4, PDBDir: dir})
	nodes := map[string]int64{}
	specs := []string{"pdb78", "pdb78+fsm", "pdb78+78mid", "pdb78+78mid+bpmx+fsm"}
	for _, spec := range specs {
		h, err := r.Resolve(spec)
		require.NoError(t, err, spec)
		for i, in := range data.Korf100() {
			res, err := ida.Solve(in.Board, h, ida.Options{})
			require.NoError(t, err, "%s korf %s", spec, in.ID)
			assert.Equal(t, data.KorfLength(i+1), res.Length, "%s korf %s", spec, in.ID)
			nodes[spec] += res.Expanded
		}
		t.Logf("%s: %d nodes", spec, nodes[spec])
	}
	assert.Less(t, nodes["pdb78+fsm"], nodes["pdb78"])
	assert.Less(t, nodes["pdb78+78mid"], nodes["pdb78"])
	assert.Less(t, nodes["pdb78+78mid+bpmx+fsm"], nodes["pdb78+78mid"])
	assert.LessOrEqual(t, nodes["pdb78+78mid+bpmx+fsm"], int64(1_000_000), "issue 16's target")
}
