package pdb

import (
	"context"
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// BuildFiles writes the tables BuildSet builds, one file per group, and
// reports each.
func TestBuildFiles(t *testing.T) {
	part, err := ParsePartition("3-5", 3, 3)
	require.NoError(t, err)
	dir := t.TempDir()
	var written []Written
	var asked []int
	err = BuildFiles(context.Background(), part, dir, 2, func(g int) Progress {
		asked = append(asked, g)
		return nil
	}, func(w Written) { written = append(written, w) })
	require.NoError(t, err)
	assert.Equal(t, []int{0, 1}, asked)
	set, err := BuildSet(context.Background(), part, 1, nil)
	require.NoError(t, err)
	paths := part.Paths(dir)
	require.Len(t, written, 2)
	var entries int64
	for gi, w := range written {
		assert.Equal(t, paths[gi], w.Path)
		table, step, err := Read(w.Path, 3, 3, part.Groups[gi])
		require.NoError(t, err)
		assert.Equal(t, set.Tables[gi], table)
		assert.Equal(t, set.Steps[gi], step)
		assert.Equal(t, step, w.Step)
		assert.Equal(t, len(table), w.Entries)
		top := 0
		for _, v := range table {
			top = max(top, int(v))
		}
		assert.Equal(t, top, w.Max)
		entries += int64(w.Entries)
	}
	assert.GreaterOrEqual(t, part.FileBytes(), entries)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	require.NoError(t, os.RemoveAll(dir))
	require.NoError(t, os.Mkdir(dir, 0o755))
	assert.Error(t, BuildFiles(ctx, part, dir, 1, nil, nil), "a cancelled build stops")
}
