package gapset

import (
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
	require.NoError(t, b.WriteFile(path, h))
	got, back, err := keyset.ReadAll(path)
	require.NoError(t, err)
	assert.Equal(t, keys, back)
	assert.Equal(t, h.Name(), got.Name())
	assert.Equal(t, uint64(len(keys)), got.Count)
	assert.Error(t, b.WriteFile(filepath.Join(t.TempDir(), "missing", "G.keys"), h))
}

func TestPatterns(t *testing.T) {
	assert.Equal(t, 518918400.0, Patterns(16, 8)) // 16!/8!
	assert.Equal(t, 362880.0, Patterns(9, 9))
	assert.Equal(t, 1.0, Patterns(9, 0))
}
