package verify

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/gapset/gapset/pdb"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A database passes when it is the table built again under its own name;
// under another group's name, or with a raised entry whose checksum was
// recomputed, it fails with ErrFailed.
func TestFileDatabase(t *testing.T) {
	part, err := pdb.ParsePartition("3-5", 3, 3)
	require.NoError(t, err)
	dir := t.TempDir()
	require.NoError(t, pdb.BuildFiles(context.Background(), part, dir, 1, false, nil, nil))
	paths := part.Paths(dir)
	msg, err := File(context.Background(), paths[0], 1)
	require.NoError(t, err)
	assert.Contains(t, msg, "equal to the table built again")

	b, err := os.ReadFile(paths[0])
	require.NoError(t, err)
	other := filepath.Join(t.TempDir(), filepath.Base(paths[1]))
	require.NoError(t, os.WriteFile(other, b, 0o644))
	_, err = File(context.Background(), other, 1)
	assert.ErrorIs(t, err, ErrFailed)
	assert.ErrorContains(t, err, "holds group [1 2 3]")

	table, step, err := pdb.Build(context.Background(), 3, 3, part.Groups[0], 1, nil)
	require.NoError(t, err)
	table[100] += 2
	require.NoError(t, pdb.Write(paths[0], 3, 3, part.Groups[0], table, step))
	_, err = File(context.Background(), paths[0], 1)
	assert.ErrorIs(t, err, ErrFailed)
}

func TestFileUnknownKind(t *testing.T) {
	p := filepath.Join(t.TempDir(), "x")
	require.NoError(t, os.WriteFile(p, []byte("not a gapset file"), 0o644))
	_, err := File(context.Background(), p, 1)
	assert.ErrorIs(t, err, ErrFailed)
}
