package keyset

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestCount(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "s.keys")
	h := Header{Rows: 4, Cols: 4, Cells: 8, Gap: 2}
	require.NoError(t, WriteFile(p, h, sampleKeys(8)))
	got, n, err := Count(p)
	require.NoError(t, err)
	assert.Equal(t, uint64(1000), n)
	assert.Equal(t, "Gap2_8", got.Name())
	head, err := ReadHeader(p)
	require.NoError(t, err)
	assert.Equal(t, got, head)
	_, err = ReadHeader(filepath.Join(dir, "missing.keys"))
	assert.ErrorIs(t, err, os.ErrNotExist)

	good, err := os.ReadFile(p)
	require.NoError(t, err)
	crc := append([]byte(nil), good...)
	crc[len(crc)-1] ^= 1
	q := filepath.Join(dir, "crc.keys")
	require.NoError(t, os.WriteFile(q, crc, 0o644))
	_, _, err = Count(q)
	assert.ErrorIs(t, err, ErrFormat)
	_, _, err = Count(filepath.Join(dir, "missing.keys"))
	assert.Error(t, err)
}

func TestWriteCount(t *testing.T) {
	h := Header{Rows: 4, Cols: 4, Cells: 8, Gap: 2}
	var text, js strings.Builder
	require.NoError(t, WriteCount(&text, "text", "a/s.keys", h, 1000))
	assert.Equal(t, "a/s.keys: Gap2_8 4x4 cells 8 gap 2 exact false count 1000 checksum ok\n", text.String())
	require.NoError(t, WriteCount(&js, "json", "a/s.keys", h, 1000))
	assert.Equal(t, `{"cells":8,"checksum":"ok","cols":4,"count":1000,"exact":false,"file":"a/s.keys","gap":2,"name":"Gap2_8","packed":false,"rows":4}`+"\n", js.String())
	text.Reset()
	h.Packed = true
	require.NoError(t, WriteCount(&text, "text", "a/s.keys", h, 1000))
	assert.Equal(t, "a/s.keys: Gap2_8 4x4 cells 8 gap 2 exact false count 1000 checksum ok packed\n", text.String())
}
