package gapdb

import (
	"context"
	"encoding/binary"
	"hash/crc32"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/gapset/gapset/encode"
	"github.com/gapset/gapset/keyset"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Residual level files (relative to a base) make a database that records
// the base and is named ResDB; level files of two bases, or of a base and
// the gap, do not make one; a damaged base record is found at load, and a
// header of gap levels keeps every byte it had.
func TestResidualDatabaseRecordsItsBase(t *testing.T) {
	tr := truth3x3()
	base := keyset.Base{Spec: "pdbb:4-4", Digest: [32]byte{7, 7}}
	dir := t.TempDir()
	write := func(b keyset.Base, gap int, keys []uint64) string {
		h := keyset.Header{Rows: 3, Cols: 3, Cells: 6, Gap: gap, Base: b}
		p := filepath.Join(dir, h.Name()+"-"+b.Spec[:min(2, len(b.Spec))]+".keys")
		proj := map[uint64]bool{}
		for _, k := range keys {
			proj[encode.Project(k, 6)] = true
		}
		var ks []uint64
		for k := range proj {
			ks = append(ks, k)
		}
		slices.Sort(ks)
		require.NoError(t, keyset.WriteFile(p, h, ks))
		return p
	}
	var paths []string
	for i, l := range tr.levels {
		paths = append(paths, write(base, 2*i, l))
	}
	b, err := FromKeyFiles(context.Background(), paths, 0, nil)
	require.NoError(t, err)
	out := filepath.Join(dir, "r.gapdb")
	require.NoError(t, b.Write(context.Background(), out))
	d, err := Open(out)
	require.NoError(t, err)
	assert.Equal(t, base, d.Base)
	assert.Equal(t, "ResDB4_6", d.Name())
	raw, err := os.ReadFile(out)
	require.NoError(t, err)
	d.Close()
	assert.Equal(t, byte(1), raw[61])

	other := write(keyset.Base{Spec: "pdbb:3-5", Digest: [32]byte{8}}, 2, tr.levels[1])
	_, err = FromKeyFiles(context.Background(), []string{paths[0], other, paths[2]}, 0, nil)
	assert.ErrorIs(t, err, ErrLevels)
	assert.ErrorContains(t, err, "one database holds the levels of one base")
	gap := write(keyset.Base{}, 2, tr.levels[1])
	_, err = FromKeyFiles(context.Background(), []string{paths[0], gap, paths[2]}, 0, nil)
	assert.ErrorIs(t, err, ErrLevels)

	hl, err := HeaderLen(raw)
	require.NoError(t, err)
	for name, edit := range map[string]func(b []byte){
		"flag cleared": func(b []byte) { b[61] = 0 },
		"other flag":   func(b []byte) { b[61] = 3 },
		"spec padding": func(b []byte) { b[hl-4-4*1-1] = 'x' },
	} {
		bad := append([]byte(nil), raw...)
		edit(bad)
		if n, err := HeaderLen(bad); err == nil && n <= len(bad) {
			binary.LittleEndian.PutUint32(bad[n-4:], crc32.Checksum(bad[:n-4], castagnoli))
		}
		p := filepath.Join(t.TempDir(), "bad.gapdb")
		require.NoError(t, os.WriteFile(p, bad, 0o644))
		_, err := Open(p)
		assert.ErrorIs(t, err, ErrFormat, name)
	}
}
