package gapset

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/gapset/gapset/keyset"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestBitsWriteFile(t *testing.T) {
	keys := []uint64{0x1234, 0x1243, 0x5678, 0x8765}
	b := BitsOf(keys, 4)
	path := filepath.Join(t.TempDir(), "G.keys")
	h := keyset.Header{Rows: 3, Cols: 3, Cells: 4, Gap: 4, Approx: true}
	require.NoError(t, b.WriteFile(context.Background(), path, h))
	got, back, err := keyset.ReadAll(path)
	require.NoError(t, err)
	assert.Equal(t, keys, back)
	assert.Equal(t, h.Name(), got.Name())
	assert.Equal(t, uint64(len(keys)), got.Count)
	assert.Error(t, b.WriteFile(context.Background(), filepath.Join(t.TempDir(), "missing", "G.keys"), h))
}

func TestPatterns(t *testing.T) {
	assert.Equal(t, 518918400.0, Patterns(16, 8)) // 16!/8!
	assert.Equal(t, 362880.0, Patterns(9, 9))
	assert.Equal(t, 1.0, Patterns(9, 0))
}

// LoadExact takes the exact Gap0_K, Gap2_K, ... in order and refuses any
// other set at a place; the levels Approximate reports name their sets.
func TestLoadExactAndLevelHeaders(t *testing.T) {
	exact, err := LevelSets(context.Background(), 3, 3, 2, []int{5}, nil)
	require.NoError(t, err)
	dir := t.TempDir()
	var paths []string
	for i, keys := range exact[5] {
		h := keyset.Header{Rows: 3, Cols: 3, Cells: 5, Gap: 2 * i}
		paths = append(paths, filepath.Join(dir, h.Name()+".keys"))
		require.NoError(t, BitsOf(keys, 5).WriteFile(context.Background(), paths[i], h))
	}
	sets, err := LoadExact(paths, 3, 3, 5)
	require.NoError(t, err)
	require.Len(t, sets, 2)
	assert.Equal(t, exact[5][1], sets[1].Keys())
	_, err = LoadExact([]string{paths[1]}, 3, 3, 5)
	var ne *NotExactError
	require.ErrorAs(t, err, &ne)
	assert.EqualError(t, err, paths[1]+": Gap2_5 is not the exact gap <= 0 set of a 3x3 board on 5 cells")
	_, err = LoadExact(paths, 3, 3, 6)
	assert.ErrorAs(t, err, &ne)
	_, err = LoadExact([]string{filepath.Join(dir, "missing")}, 3, 3, 5)
	assert.ErrorIs(t, err, os.ErrNotExist)

	var names []string
	require.NoError(t, Approximate(context.Background(), 3, 3, 5, 2, sets[:1], func(l ApproxLevel) error {
		names = append(names, l.Header.Name())
		return nil
	}, nil))
	assert.Equal(t, []string{"Gap0_5", "Gap2_5a", "Gap4_5a"}, names)
}
