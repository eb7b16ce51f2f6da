package bdd

import (
	"fmt"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The ZDD count is stored once, leaves nodes and size alone, and a dry run
// or a second run writes nothing; a header holding another count is refused.
func TestStoreZDDCount(t *testing.T) {
	g0, _ := sets3x3(t)
	keys := project(g0, 6)
	o, err := NamedOrder("natural", 3, 3, 6)
	require.NoError(t, err)
	d, err := Build(keys, o, false)
	require.NoError(t, err)
	z, err := Build(keys, o, true)
	require.NoError(t, err)
	path := filepath.Join(t.TempDir(), "g.bdd")
	in, err := Save(path, d, Meta{Rows: 3, Cols: 3, Cells: 6})
	require.NoError(t, err)
	require.Zero(t, in.ZDDNodes)

	saved := 0
	zn, err := StoreZDDCount(path, d, in, false, func() { saved++ })
	require.NoError(t, err)
	assert.Equal(t, uint64(z.NodeCount()), zn)
	assert.Zero(t, saved, "a dry run writes nothing")
	_, in2, err := Load(path)
	require.NoError(t, err)
	assert.Zero(t, in2.ZDDNodes)

	_, err = StoreZDDCount(path, d, in, true, func() { saved++ })
	require.NoError(t, err)
	assert.Equal(t, 1, saved)
	d2, in2, err := Load(path)
	require.NoError(t, err)
	assert.Equal(t, zn, in2.ZDDNodes)
	assert.Equal(t, in.Nodes, in2.Nodes)
	assert.Equal(t, in.FileSize, in2.FileSize)
	_, err = StoreZDDCount(path, d2, in2, true, func() { saved++ })
	require.NoError(t, err)
	assert.Equal(t, 1, saved, "the count is there already")

	in2.ZDDNodes++
	_, err = StoreZDDCount(path, d2, in2, true, nil)
	assert.ErrorContains(t, err, "header says")
	in2.ZDDNodes, in2.Count = 0, in2.Count+1
	_, err = StoreZDDCount(path, d2, in2, true, nil)
	assert.ErrorContains(t, err, "the ZDD holds")
}

// CountZDD stores the count and says so in gapset zdd's line, tells each
// stage, and refuses (ErrZDDInput) a missing file and a ZDD.
func TestCountZDD(t *testing.T) {
	g0, _ := sets3x3(t)
	keys := project(g0, 6)
	o, err := NamedOrder("natural", 3, 3, 6)
	require.NoError(t, err)
	d, err := Build(keys, o, false)
	require.NoError(t, err)
	dir := t.TempDir()
	path := filepath.Join(dir, "g.bdd")
	_, err = Save(path, d, Meta{Rows: 3, Cols: 3, Cells: 6})
	require.NoError(t, err)
	var stages []string
	line, err := CountZDD(path, true, func(s string) { stages = append(stages, s) })
	require.NoError(t, err)
	in, err := ReadInfo(path)
	require.NoError(t, err)
	assert.NotZero(t, in.ZDDNodes)
	assert.Equal(t, fmt.Sprintf("Gap0_6 order=natural patterns=%d nodes=%d zdd_nodes=%d %s", len(keys), in.Nodes, in.ZDDNodes, path), line)
	assert.Equal(t, []string{path + ": loading", fmt.Sprintf("%s: converting %d BDD nodes", path, in.Nodes), path + ": saving"}, stages)

	_, err = CountZDD(filepath.Join(dir, "none.bdd"), true, func(string) {})
	assert.ErrorIs(t, err, ErrZDDInput)
	z, err := Build(keys, o, true)
	require.NoError(t, err)
	zpath := filepath.Join(dir, "z.bdd")
	_, err = Save(zpath, z, Meta{Rows: 3, Cols: 3, Cells: 6})
	require.NoError(t, err)
	_, err = CountZDD(zpath, false, func(string) {})
	assert.ErrorIs(t, err, ErrZDDInput)
	assert.EqualError(t, err, zpath+" holds a ZDD already")
}
