package pdb

import (
	"context"
	"encoding/binary"
	"hash/crc32"
	"math/rand/v2"
	"os"
	"testing"

	"github.com/gapset/gapset/encode"

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
	err = BuildFiles(context.Background(), part, dir, 2, false, func(g int) Progress {
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
	// The disk a build needs: every file's bytes into an empty directory
	// (exactly: it refused builds that fit when it counted the blank's
	// cell too), half of that compact, and the largest file when the
	// files are rebuilt in place.
	var sizes, largest int64
	for _, p := range paths {
		st, err := os.Stat(p)
		require.NoError(t, err)
		sizes += st.Size()
		largest = max(largest, st.Size())
	}
	assert.Equal(t, largest, part.DiskNeed(dir, false))
	empty := t.TempDir()
	assert.Equal(t, sizes, part.DiskNeed(empty, false))
	assert.Greater(t, sizes, entries)
	assert.Less(t, part.DiskNeed(empty, true), sizes*6/10)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	require.NoError(t, os.RemoveAll(dir))
	require.NoError(t, os.Mkdir(dir, 0o755))
	assert.Error(t, BuildFiles(ctx, part, dir, 1, false, nil, nil), "a cancelled build stops")
}

// --compact files: half the bytes; Load gives the compact set, Read the
// byte tables; the bounds are those of the byte files; damage is caught.
func TestBuildFilesCompact(t *testing.T) {
	part, err := ParsePartition("4-4", 3, 3)
	require.NoError(t, err)
	plain, packed := t.TempDir(), t.TempDir()
	require.NoError(t, BuildFiles(context.Background(), part, plain, 2, false, nil, nil))
	require.NoError(t, BuildFiles(context.Background(), part, packed, 2, true, nil, nil))
	a, err := Load(plain, part)
	require.NoError(t, err)
	b, err := Load(packed, part)
	require.NoError(t, err)
	assert.Nil(t, b.Tables)
	require.Len(t, b.Nibbles, 2)
	c, err := a.Compact(1)
	require.NoError(t, err)
	assert.Equal(t, c.Nibbles, b.Nibbles)
	for gi, g := range part.Groups {
		table, _, err := Read(part.Paths(packed)[gi], 3, 3, g)
		require.NoError(t, err)
		assert.Equal(t, a.Tables[gi], table, "decoded to bytes")
		sp, _ := os.Stat(part.Paths(plain)[gi])
		sq, _ := os.Stat(part.Paths(packed)[gi])
		assert.Equal(t, (sp.Size()-headerSize+1)/2, sq.Size()-headerSize)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < 200; i++ {
		board := encode.Random(rng, 3, 3)
		va, err := (&Heuristic{DBs: a, Transpose: true}).Value(board)
		require.NoError(t, err)
		vb, err := (&Heuristic{DBs: b, Transpose: true}).Value(board)
		require.NoError(t, err)
		require.Equal(t, va, vb)
	}
	// A compact entry set to 15 (checksum recomputed): the load-time check
	// of the sampled placements (4,096 of these 3,024) and their neighbours
	// sees the jump; the check samples, so most, not all, are caught.
	p := part.Paths(packed)[0]
	raw, err := os.ReadFile(p)
	require.NoError(t, err)
	damaged := 0
	tried := 0
	for off := headerSize; off < len(raw) && damaged < 20; off += 37 {
		if raw[off]>>4 == 15 {
			continue
		}
		tried++
		bad := append([]byte(nil), raw...)
		bad[off] |= 0xf0 // an odd rank's entry
		binary.LittleEndian.PutUint32(bad[36:], crc32.Update(crc32.Checksum(bad[:36], castagnoli), castagnoli, bad[headerSize:]))
		require.NoError(t, os.WriteFile(p, bad, 0o644))
		if _, err := Load(packed, part); err != nil {
			assert.ErrorIs(t, err, ErrCorrupt)
			damaged++
		}
	}
	assert.Equal(t, 20, damaged)
	assert.Less(t, tried, 26, "most damaged files are caught")
	// a mix of codings is refused
	require.NoError(t, os.WriteFile(p, raw, 0o644))
	require.NoError(t, os.Rename(part.Paths(plain)[1], part.Paths(packed)[1]))
	_, err = Load(packed, part)
	assert.ErrorContains(t, err, "compact and byte tables")
	// compact files need the groups to cover every tile
	p35, err := ParsePartition("3-5", 3, 3)
	require.NoError(t, err)
	assert.NoError(t, BuildFiles(context.Background(), p35, t.TempDir(), 1, true, nil, nil))
}

// A mapped payload (large files are mapped, not read) gives the table the
// reading path gives, and the same checks: a damaged byte fails the
// checksum, a short file falls back to reading, which reports it.
func TestMappedPayload(t *testing.T) {
	part, err := ParsePartition("4-4", 3, 3)
	require.NoError(t, err)
	for _, compact := range []bool{false, true} {
		dir := t.TempDir()
		require.NoError(t, BuildFiles(context.Background(), part, dir, 1, compact, nil, nil))
		p, g := part.Paths(dir)[0], part.Groups[0]
		open := func() (*os.File, func(int64) ([]byte, func())) {
			f, err := os.Open(p)
			require.NoError(t, err)
			t.Cleanup(func() { f.Close() })
			return f, func(size int64) ([]byte, func()) { return mapPayload(f, headerSize, size) }
		}
		want, err := readRaw(p, 3, 3, g, nil, false) // small: read
		require.NoError(t, err)
		f, m := open()
		got, err := decode(f, p, 3, 3, g, m, nil, false)
		require.NoError(t, err)
		assert.Equal(t, want, got)
		raw, err := os.ReadFile(p)
		require.NoError(t, err)
		bad := append([]byte(nil), raw...)
		bad[headerSize+100] ^= 0x22
		require.NoError(t, os.WriteFile(p, bad, 0o644))
		f, m = open()
		_, err = decode(f, p, 3, 3, g, m, nil, false)
		assert.ErrorIs(t, err, ErrCorrupt)
		assert.ErrorContains(t, err, "checksum")
		require.NoError(t, os.WriteFile(p, raw[:len(raw)-3], 0o644))
		f, m = open()
		_, err = decode(f, p, 3, 3, g, m, nil, false)
		assert.ErrorContains(t, err, "truncated")
	}
}

// ParseFileName reads back what FileName and BlankFileName write, and
// nothing else.
func TestParseFileName(t *testing.T) {
	for _, p := range namedGroups(t) {
		g := p.Groups[0]
		for _, blank := range []bool{false, true} {
			name := FileName(p.Rows, p.Cols, g)
			if blank {
				name = BlankFileName(p.Rows, p.Cols, g)
			}
			r, c, pg, pb, err := ParseFileName(name)
			require.NoError(t, err, name)
			assert.Equal(t, []any{p.Rows, p.Cols, g, blank}, []any{r, c, pg, pb}, name)
		}
	}
	for _, bad := range []string{"", ".pdb", "3x3.pdb", "3x3-1-2", "3x3-1-2.PDB", "3x3-01-2.pdb", "3x3-+1-2.pdb",
		"3x3-1-1.pdb", "3x3-0-1.pdb", "3x3-9.pdb", "3x3-1-2-3-4-5-6-7-8-9.pdb", "9x9-1.pdb", "3-3-1.pdb", "3x-1.pdb", "groups.pdb", "3x3--1.pdb",
		"3x3-blank.pdb", "3x3-1-2-blank-blank.pdb", "3x3-1-2-BLANK.pdb", "3x3-1-2.blank.pdb", "3x3-1-blank-2.pdb", "3x3-01-2-blank.pdb"} {
		_, _, _, _, err := ParseFileName(bad)
		assert.Error(t, err, bad)
	}
}
