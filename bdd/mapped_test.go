package bdd

import (
	"encoding/binary"
	"hash/crc32"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/gapset/gapset/encode"
	"github.com/gapset/gapset/keyset"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// mappedCase builds the set of full keys full projected onto k cells (in
// memory, or out of core with a small budget), saves its .bdd and its
// mapped form, and returns both paths.
func mappedCase(t testing.TB, dir string, full []uint64, rows, cols, k int, enc Encoding, outOfCore bool) (bddPath, mapPath string) {
	t.Helper()
	n := rows * cols
	keys := project(full, k)
	h := keyset.Header{Rows: rows, Cols: cols, Cells: k, Gap: 2, Count: uint64(len(keys))}
	keyPath := filepath.Join(dir, "set.keys")
	require.NoError(t, keyset.WriteFile(keyPath, h, keys))
	o, err := NamedOrder("natural", rows, cols, k)
	require.NoError(t, err)
	kb := KeysBuild{Order: o, Encoding: enc, Count: uint64(len(keys))}
	var b Built
	if outOfCore {
		b, err = BuildOutOfCore(keyPath, n, k, kb, OutOfCore{Memory: 4 << 10, TempDir: t.TempDir()})
	} else {
		b, err = BuildKeyFile(keyPath, n, k, kb)
	}
	require.NoError(t, err)
	defer b.BDD.Close()
	bddPath, mapPath = filepath.Join(dir, "set.bdd"), filepath.Join(dir, "set.bddmap")
	in, err := b.Save(bddPath, h, enc)
	require.NoError(t, err)
	require.NoError(t, WriteMapped(mapPath, b.BDD, in))
	return bddPath, mapPath
}

// The mapped form answers every query as the truth (the keys it was built
// from) and the .bdd file's set do: 3x3 and 4x4 sets, whole boards and
// projections, both encodings, built in memory and out of core (whose
// nodes are themselves a mapped file); Set and Cursor alike.
func TestMappedAnswersLikeTheBDD(t *testing.T) {
	g0, g2 := sets3x3(t)
	ball := ball4x4(t)
	rng := rand.New(rand.NewPCG(7, 11))
	type tc struct {
		full          []uint64
		rows, cols, k int
	}
	for _, c := range []tc{{g0, 3, 3, 9}, {g2, 3, 3, 5}, {ball, 4, 4, 8}, {ball, 4, 4, 16}} {
		keys := project(c.full, c.k)
		queries := append([]uint64(nil), c.full...)
		for range 20000 {
			queries = append(queries, encode.Random(rng, c.rows, c.cols).Key())
		}
		for _, enc := range []Encoding{Cells, Ranks} {
			for _, ooc := range []bool{false, true} {
				dir := t.TempDir()
				bddPath, mapPath := mappedCase(t, dir, c.full, c.rows, c.cols, c.k, enc, ooc)
				assert.True(t, IsMapped(mapPath))
				assert.False(t, IsMapped(bddPath))
				want, err := Open(bddPath)
				require.NoError(t, err)
				got, err := Open(mapPath)
				require.NoError(t, err)
				require.NotNil(t, got.pairs, "the mapped form is queried where it lies")
				assert.Equal(t, want.Info().Count, got.Info().Count)
				assert.Equal(t, want.Info().Nodes, got.Info().Nodes)
				cur := got.NewCursor()
				var in, out int
				for _, q := range queries {
					truth := member(keys, encode.Project(q, c.k))
					require.Equal(t, truth, want.Contains(q), "%dx%d k=%d %v", c.rows, c.cols, c.k, enc)
					require.Equal(t, truth, got.Contains(q), "mapped %dx%d k=%d %v key %#x", c.rows, c.cols, c.k, enc, q)
					require.Equal(t, truth, cur.Contains(q), "cursor %dx%d k=%d %v key %#x", c.rows, c.cols, c.k, enc, q)
					if truth {
						in++
					} else {
						out++
					}
				}
				assert.Positive(t, in)
				assert.Positive(t, out)
				require.NoError(t, got.Close())
			}
		}
	}
}

// resum rewrites a mapped file's CRCs after a forgery, so that only the
// structure check can catch it.
func resum(t *testing.T, b []byte) {
	t.Helper()
	m, err := parseMapped(b, int64(len(b)))
	if err != nil { // the header CRC is wrong: recompute it first
		le := binary.LittleEndian
		I, C, B := le.Uint32(b[32:]), le.Uint32(b[24:]), le.Uint32(b[36:])
		end := mappedFixed + int(I) + 5*int(C) + 4*int(B) + 4
		le.PutUint32(b[end-4:], crc32.Checksum(b[:end-4], castagnoli))
		m, err = parseMapped(b, int64(len(b)))
		require.NoError(t, err)
	}
	p := b[m.H:]
	le := binary.LittleEndian
	I, C := le.Uint32(b[32:]), le.Uint32(b[24:])
	at := mappedFixed + int(I) + 5*int(C)
	for i := range m.sums {
		blk := p[i*mappedBlock : min(len(p), (i+1)*mappedBlock)]
		le.PutUint32(b[at+4*i:], crc32.Checksum(blk, castagnoli))
	}
	end := at + 4*len(m.sums) + 4
	le.PutUint32(b[end-4:], crc32.Checksum(b[:end-4], castagnoli))
}

// A damaged, truncated or forged mapped file is refused with ErrMapped at
// load, before any query: a flipped payload bit by the block CRCs, a
// header bit by the header's, a missing magic as no gapset file, and a child pointing out of the pool, up
// a level or at its sibling (CRCs made to match) by the structure pass.
func TestMappedRefusesDamage(t *testing.T) {
	g0, _ := sets3x3(t)
	dir := t.TempDir()
	_, mapPath := mappedCase(t, dir, g0, 3, 3, 9, Ranks, false)
	good, err := os.ReadFile(mapPath)
	require.NoError(t, err)
	m, err := parseMapped(good, int64(len(good)))
	require.NoError(t, err)
	// a node of the deepest chunk's level and one of a level above it
	var deep, upper int
	for c := range m.used {
		if m.levels[c] > m.levels[deep] {
			deep = c
		}
	}
	for c := range m.used {
		if m.levels[c] < m.levels[deep] && m.levels[c] > 0 {
			upper = c
		}
	}
	nodeAt := func(c, i int) int { return int(m.H) + (c<<chunkBits+i)*8 }
	le := binary.LittleEndian
	cases := map[string]func(b []byte) []byte{
		"payload bit": func(b []byte) []byte { b[nodeAt(deep, 0)] ^= 4; return b },
		"header bit":  func(b []byte) []byte { b[mappedFixed+3] ^= 1; return b },
		"truncated":   func(b []byte) []byte { return b[:len(b)-8] },
		"extended":    func(b []byte) []byte { return append(b, 0) },
		"child beyond the pool": func(b []byte) []byte {
			le.PutUint32(b[nodeAt(upper, 0):], uint32(len(m.used))<<chunkBits)
			resum(t, b)
			return b
		},
		"child up a level": func(b []byte) []byte {
			le.PutUint32(b[nodeAt(deep, 0):], uint32(upper)<<chunkBits)
			resum(t, b)
			return b
		},
		"unreduced node": func(b []byte) []byte {
			at := nodeAt(upper, 0)
			copy(b[at:at+4], b[at+4:at+8])
			resum(t, b)
			return b
		},
		"chunk past its nodes": func(b []byte) []byte {
			le.PutUint32(b[nodeAt(upper, 0):], uint32(deep)<<chunkBits|m.used[deep])
			resum(t, b)
			return b
		},
	}
	for name, damage := range cases {
		bad := damage(append([]byte(nil), good...))
		path := filepath.Join(dir, "bad.bddmap")
		require.NoError(t, os.WriteFile(path, bad, 0o644))
		_, err := Open(path)
		require.ErrorIs(t, err, ErrMapped, name)
	}
	// without the magic it is no gapset file of either kind
	bad := append([]byte(nil), good...)
	bad[0] = 'X'
	path := filepath.Join(dir, "nomagic.bddmap")
	require.NoError(t, os.WriteFile(path, bad, 0o644))
	_, err = Open(path)
	require.ErrorIs(t, err, ErrFormat)
	// the undamaged file still opens (the damage was in the copies)
	s, err := Open(mapPath)
	require.NoError(t, err)
	require.NoError(t, s.Close())
}

// FuzzMappedHeader: any bytes are refused or accepted without a panic, and
// an accepted header's pool is in range.
func FuzzMappedHeader(f *testing.F) {
	// a small seed: three 2x2 boards (the fuzz workers each make it)
	keys := []uint64{0x0123, 0x1230, 0x3210}
	h := keyset.Header{Rows: 2, Cols: 2, Cells: 4, Gap: 0, Count: uint64(len(keys))}
	o, err := NamedOrder("natural", 2, 2, 4)
	if err != nil {
		f.Fatal(err)
	}
	b, err := BuildKeys(keys, 4, 4, KeysBuild{Order: o, Encoding: Cells, Count: uint64(len(keys))})
	if err != nil {
		f.Fatal(err)
	}
	dir := f.TempDir()
	in, err := b.Save(filepath.Join(dir, "s.bdd"), h, Cells)
	if err != nil {
		f.Fatal(err)
	}
	mapPath := filepath.Join(dir, "s.bddmap")
	if err := WriteMapped(mapPath, b.BDD, in); err != nil {
		f.Fatal(err)
	}
	good, err := os.ReadFile(mapPath)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(good[:mappedAlign])
	f.Add(good[:100])
	f.Fuzz(func(t *testing.T, b []byte) {
		size := int64(len(b)) // the size the header claims, so that the checks behind it are reached
		if len(b) >= mappedFixed {
			size = int64(binary.LittleEndian.Uint32(b[12:])) + int64(binary.LittleEndian.Uint64(b[16:])&(1<<40-1))
		}
		m, err := parseMapped(b, size)
		if err != nil {
			return
		}
		assert.Equal(t, len(m.levels), len(m.used))
		assert.True(t, m.inRange(m.root, -1))
	})
}
