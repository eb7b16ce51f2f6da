package bdd

import (
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
