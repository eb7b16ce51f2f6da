package verify

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/gapset/gapset/encode"
	"github.com/gapset/gapset/gapset"
	"github.com/gapset/gapset/keyset"
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

// A key set of a cell set is compared with the whole set gathered onto its
// cells: the enumerator's file passes, the same keys under another cell
// set's header fail.
func TestFileCellSet(t *testing.T) {
	dir := t.TempDir()
	rows02 := encode.CellSetOf([]int{0, 1, 2, 6, 7, 8})
	_, err := gapset.Enumerate(context.Background(), gapset.Config{Rows: 3, Cols: 3, MaxGap: 2, Sets: []encode.CellSet{rows02}, Dir: dir})
	require.NoError(t, err)
	path := filepath.Join(dir, "Gap2_6c01C7.keys")
	msg, err := File(context.Background(), path, 1)
	require.NoError(t, err)
	assert.Contains(t, msg, "equal to the set enumerated again")

	h, keys, err := keyset.ReadAllAny(path)
	require.NoError(t, err)
	h.CellSet = encode.CellSetOf([]int{0, 1, 2, 3, 4, 5}) // rows 0 and 1
	other := filepath.Join(t.TempDir(), h.Name()+".keys")
	require.NoError(t, keyset.WriteFile(other, h, keys))
	_, err = File(context.Background(), other, 1)
	assert.ErrorIs(t, err, ErrFailed)
}
