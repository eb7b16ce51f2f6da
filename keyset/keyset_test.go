package keyset

import (
	"encoding/binary"
	"hash/crc32"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/gapset/gapset/encode"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// sampleKeys is 1000 sorted keys of 4x4 boards projected onto the last
// cells cells (distinct tiles: valid keys).
func sampleKeys(cells int) []uint64 {
	rng := rand.New(rand.NewPCG(1, uint64(cells)))
	seen := map[uint64]bool{}
	var keys []uint64
	for len(keys) < 1000 {
		perm := rng.Perm(16)
		var k uint64
		for _, t := range perm[:cells] {
			k = k<<4 | uint64(t)
		}
		if !seen[k] {
			seen[k] = true
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	return keys
}

func TestValidKey(t *testing.T) {
	assert.True(t, ValidKey(0x123456780, 9, 9))
	assert.False(t, ValidKey(0x123456781, 9, 9), "tile 1 twice")
	assert.False(t, ValidKey(0x923456780, 9, 9), "tile 9 on a 3x3 board")
	assert.True(t, ValidKey(0x5678, 9, 4))
	assert.False(t, ValidKey(0x15678, 9, 4), "a bit above the last 4 cells")
	assert.True(t, ValidKey(0xfedcba9876543210, 16, 16))

	_, err := Open(t.TempDir())
	assert.ErrorContains(t, err, "a directory")
}

func TestKeySetRoundTrip(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "s.keys")
	h := Header{Rows: 4, Cols: 4, Cells: 8, Gap: 2}
	require.NoError(t, WriteFile(p, h, sampleKeys(8)))
	got, keys, err := ReadAll(p)
	require.NoError(t, err)
	assert.Equal(t, sampleKeys(8), keys)
	assert.Equal(t, uint64(1000), got.Count)
	assert.Equal(t, "Gap2_8", got.Name())
	st, err := os.Stat(p)
	require.NoError(t, err)
	assert.Equal(t, int64(32+8*1000+4), st.Size())
	// No temporary file left behind.
	entries, _ := os.ReadDir(dir)
	assert.Len(t, entries, 1)
}

func TestKeySetRejectsDamage(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "s.keys")
	require.NoError(t, WriteFile(p, Header{Rows: 4, Cols: 4, Cells: 16, Gap: 0}, sampleKeys(16)))
	good, err := os.ReadFile(p)
	require.NoError(t, err)

	damage := map[string][]byte{
		"truncated":    good[:len(good)-9],
		"empty":        {},
		"short header": good[:10],
		"magic":        append([]byte("XAPKEYS\x00"), good[8:]...),
	}
	flip := append([]byte(nil), good...)
	flip[32+8*500+3] ^= 0x40
	damage["flipped key"] = flip
	crc := append([]byte(nil), good...)
	crc[len(crc)-1] ^= 1
	damage["checksum"] = crc
	order := append([]byte(nil), good...)
	copy(order[32:40], good[40:48])
	damage["order"] = order
	for name, b := range damage {
		q := filepath.Join(dir, name)
		require.NoError(t, os.WriteFile(q, b, 0o644))
		_, _, err := ReadAll(q)
		assert.ErrorIs(t, err, ErrFormat, name)
	}
}

func TestKeySetWriterRefusesDisorder(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "s.keys")
	err := WriteFile(p, Header{Rows: 3, Cols: 3, Cells: 9}, []uint64{5, 3})
	require.Error(t, err)
	_, err = os.Stat(p)
	assert.True(t, os.IsNotExist(err), "no file after a failed write")
	entries, _ := os.ReadDir(dir)
	assert.Empty(t, entries, "temporary file removed")
	err = WriteFile(p, Header{Rows: 4, Cols: 4, Cells: 8}, []uint64{1 << 40})
	require.Error(t, err)
	_, err = Create(p, Header{Rows: 4, Cols: 4, Cells: 17})
	require.Error(t, err)
}

func FuzzKeySetReader(f *testing.F) {
	dir := f.TempDir()
	p := filepath.Join(dir, "seed.keys")
	if err := WriteFile(p, Header{Rows: 3, Cols: 3, Cells: 9}, []uint64{0x123456708, 0x123456780}); err != nil {
		f.Fatal(err)
	}
	seed, _ := os.ReadFile(p)
	f.Add(seed)
	f.Add(seed[:20])
	packed := filepath.Join(dir, "packed.keys")
	if err := WriteFile(packed, Header{Rows: 3, Cols: 3, Cells: 9, Packed: true}, []uint64{0x123456708, 0x123456780}); err != nil {
		f.Fatal(err)
	}
	seed, _ = os.ReadFile(packed)
	f.Add(seed)
	// cell sets (rows 0 and 2 of a 3x3 board), plain and packed
	for _, pk := range []bool{false, true} {
		q := filepath.Join(dir, "set.keys")
		if err := WriteFile(q, Header{Rows: 3, Cols: 3, Cells: 6, CellSet: 0x1C7, Packed: pk}, []uint64{0x123456, 0x123465}); err != nil {
			f.Fatal(err)
		}
		seed, _ = os.ReadFile(q)
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		if len(b) >= HeaderSize {
			// a header that decodes is the one its fields encode
			if h, n, residual, err := decodeHeader(b[:HeaderSize]); err == nil {
				if !h.Packed {
					n = 0
				}
				if residual {
					h.Base = Base{Spec: "x", Digest: [32]byte{1}} // the record is not in the fixed header
				}
				if got := h.encode(n); string(got) != string(b[:HeaderSize]) {
					t.Fatalf("header %x decodes to %+v, which encodes to %x", b[:HeaderSize], h, got)
				}
			}
		}
		q := filepath.Join(t.TempDir(), "f.keys")
		if err := os.WriteFile(q, b, 0o644); err != nil {
			t.Fatal(err)
		}
		h, keys, err := ReadAllAny(q)
		if err != nil {
			return
		}
		if uint64(len(keys)) != h.Count {
			t.Fatalf("count %d, read %d", h.Count, len(keys))
		}
		for i := 1; i < len(keys); i++ {
			if keys[i] <= keys[i-1] {
				t.Fatal("accepted unsorted keys")
			}
		}
	})
}

func TestWriterAddSorted(t *testing.T) {
	dir := t.TempDir()
	h := Header{Rows: 4, Cols: 4, Cells: 16, Gap: 0}
	keys := sampleKeys(16)
	p := filepath.Join(dir, "a.keys")
	w, err := Create(p, h)
	require.NoError(t, err)
	require.NoError(t, w.AddSorted(keys[:10]))
	require.NoError(t, w.Add(keys[10]))
	require.NoError(t, w.AddSorted(keys[11:]))
	require.NoError(t, w.Close())
	_, got, err := ReadAll(p)
	require.NoError(t, err)
	assert.Equal(t, keys, got)

	w, err = Create(filepath.Join(dir, "b.keys"), h)
	require.NoError(t, err)
	require.NoError(t, w.AddSorted(keys[5:10]))
	assert.Error(t, w.AddSorted(keys[9:12]), "a repeat across batches")
	w.Abort()
	w, err = Create(filepath.Join(dir, "c.keys"), Header{Rows: 4, Cols: 4, Cells: 8, Gap: 0})
	require.NoError(t, err)
	assert.Error(t, w.AddSorted([]uint64{1, 3, 2}))
	w.Abort()
	w, err = Create(filepath.Join(dir, "d.keys"), Header{Rows: 4, Cols: 4, Cells: 8, Gap: 0})
	require.NoError(t, err)
	assert.Error(t, w.AddSorted([]uint64{1, 1 << 40}), "bits outside the cells")
	w.Abort()
	entries, _ := os.ReadDir(dir)
	assert.Len(t, entries, 1)
}

func TestKeySetFileIsReadable(t *testing.T) {
	p := filepath.Join(t.TempDir(), "m.keys")
	require.NoError(t, WriteFile(p, Header{Rows: 3, Cols: 3, Cells: 9}, []uint64{1, 2}))
	st, err := os.Stat(p)
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o644), st.Mode().Perm())
}

func TestKeySetApproxFlag(t *testing.T) {
	p := filepath.Join(t.TempDir(), "a.keys")
	h := Header{Rows: 4, Cols: 4, Cells: 8, Gap: 6, Approx: true}
	require.NoError(t, WriteFile(p, h, sampleKeys(8)))
	got, _, err := ReadAll(p)
	require.NoError(t, err)
	assert.True(t, got.Approx)
	assert.False(t, got.Exact)
	assert.Equal(t, "Gap6_8a", got.Name())
}

func TestPackedRoundTrip(t *testing.T) {
	dir := t.TempDir()
	for _, cells := range []int{8, 12, 16} {
		p := filepath.Join(dir, "p.keys")
		h := Header{Rows: 4, Cols: 4, Cells: cells, Gap: 4, Packed: true}
		require.NoError(t, WriteFile(p, h, sampleKeys(cells)))
		got, keys, err := ReadAll(p)
		require.NoError(t, err, cells)
		assert.Equal(t, sampleKeys(cells), keys, cells)
		assert.True(t, got.Packed)
		assert.Equal(t, uint64(1000), got.Count)
		st, err := os.Stat(p)
		require.NoError(t, err)
		// 1000 random keys spread over 4*cells bits: each delta needs about
		// 4*cells-10 bits, so at most ceil((4*cells-3)/7) bytes.
		assert.Less(t, st.Size(), int64(32+4+1000*((4*cells-3)/7+1)), cells)
		assert.Less(t, st.Size(), int64(32+4+8*1000), cells)
	}
	// The empty set and small sets (the first delta is the key itself).
	for _, keys := range [][]uint64{{}, {0x10}, {0x10, 0x32}} {
		p := filepath.Join(dir, "e.keys")
		require.NoError(t, WriteFile(p, Header{Rows: 2, Cols: 2, Cells: 2, Packed: true}, keys))
		_, got, err := ReadAll(p)
		require.NoError(t, err)
		assert.Equal(t, keys, append([]uint64{}, got...))
	}
}

func TestPackedRejectsDamage(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "s.keys")
	keys := sampleKeys(12)
	require.NoError(t, WriteFile(p, Header{Rows: 4, Cols: 4, Cells: 12, Packed: true}, keys))
	good, err := os.ReadFile(p)
	require.NoError(t, err)
	withCRC := func(b []byte) []byte { // damage the checksum cannot see
		b = append([]byte(nil), b[:len(b)-4]...)
		return binary.LittleEndian.AppendUint32(b, crc32.Checksum(b, castagnoli))
	}
	damage := map[string][]byte{
		"truncated":   good[:len(good)-7],
		"flipped bit": func() []byte { b := append([]byte(nil), good...); b[100] ^= 0x10; return b }(),
	}
	// A zero delta (a key twice), valid checksum.
	zero := append([]byte(nil), good[:len(good)-4]...)
	zero = append(zero[:32+1], append([]byte{0}, zero[33:]...)...)
	binary.LittleEndian.PutUint64(zero[24:], binary.LittleEndian.Uint64(zero[24:])+1)
	damage["zero delta"] = withCRC(append(zero, 0, 0, 0, 0))
	// One byte more in the key section than the keys use, valid checksum.
	extra := append([]byte(nil), good[:len(good)-4]...)
	extra = append(extra, 1)
	binary.LittleEndian.PutUint64(extra[24:], binary.LittleEndian.Uint64(extra[24:])+1)
	damage["trailing byte"] = withCRC(append(extra, 0, 0, 0, 0))
	// A key beyond 12 cells, valid checksum: the last delta made huge.
	big := append([]byte(nil), good[:len(good)-4]...)
	big = binary.AppendUvarint(big, 1<<60)
	binary.LittleEndian.PutUint64(big[16:], uint64(len(keys)+1))
	binary.LittleEndian.PutUint64(big[24:], uint64(len(big)-32))
	damage["key outside the cells"] = withCRC(append(big, 0, 0, 0, 0))
	// A valid first key coded in one byte more than it needs (a
	// continuation bit, then a zero byte), valid checksum.
	enc := binary.AppendUvarint(nil, keys[0])
	enc[len(enc)-1] |= 0x80
	enc = append(enc, 0x00)
	long := append(append([]byte(nil), good[:32]...), enc...)
	binary.LittleEndian.PutUint64(long[16:], 1)
	binary.LittleEndian.PutUint64(long[24:], uint64(len(enc)))
	damage["not minimally coded"] = withCRC(append(long, 0, 0, 0, 0))
	// A version-1 file may not claim a section length.
	v1 := append([]byte(nil), good...)
	binary.LittleEndian.PutUint16(v1[8:], 1)
	damage["length in version 1"] = v1
	for name, b := range damage {
		q := filepath.Join(dir, name)
		require.NoError(t, os.WriteFile(q, b, 0o644))
		_, _, err := ReadAll(q)
		assert.ErrorIs(t, err, ErrFormat, name)
	}
	// The withCRC helper itself keeps an undamaged file valid.
	q := filepath.Join(dir, "rewritten")
	require.NoError(t, os.WriteFile(q, withCRC(good), 0o644))
	_, got, err := ReadAll(q)
	require.NoError(t, err)
	assert.Equal(t, keys, got)
}

// A file of a cell set keeps its cells in the header: it reads back with
// them, is named by them, and refuses a header whose cells do not agree
// with its count or are the last k (which have one spelling, without the
// flag); the last k cells keep every byte of the format.
func TestCellSetHeader(t *testing.T) {
	dir := t.TempDir()
	rows02 := encode.CellSetOf([]int{0, 1, 2, 3, 8, 9, 10, 11})
	for _, packed := range []bool{false, true} {
		h := Header{Rows: 4, Cols: 4, Cells: 8, Gap: 4, Exact: true, CellSet: rows02, Packed: packed}
		p := filepath.Join(dir, h.Name()+".keys")
		require.NoError(t, WriteFile(p, h, sampleKeys(8)))
		_, _, err := ReadAll(p)
		assert.ErrorIs(t, err, ErrCellSet, "a reader of the last cells refuses it")
		assert.ErrorIs(t, err, ErrFormat)
		_, err = Open(p)
		assert.ErrorIs(t, err, ErrCellSet)
		got, keys, err := ReadAllAny(p)
		require.NoError(t, err)
		assert.Equal(t, sampleKeys(8), keys)
		assert.Equal(t, rows02, got.CellSet)
		assert.Equal(t, rows02, got.Set())
		assert.Equal(t, "G4x_8c0F0F", got.Name())
		raw, err := os.ReadFile(p)
		require.NoError(t, err)
		assert.Equal(t, byte(1), raw[15], "the cell-set flag")
		assert.Equal(t, []byte{0x0F, 0x0F}, raw[30:32])
		if !packed {
			assert.Equal(t, make([]byte, 6), raw[24:30])
		}
		var text strings.Builder
		require.NoError(t, WriteCount(&text, "text", "s.keys", got, 1000))
		assert.Equal(t, "s.keys: G4x_8c0F0F 4x4 cells 8 (0-3+8-11) gap 4 exact true count 1000 checksum ok"+map[bool]string{true: " packed"}[packed]+"\n", text.String())
	}
	approx := Header{Rows: 3, Cols: 4, Cells: 8, Gap: 8, Approx: true}.OnCells(encode.CellSetOf([]int{0, 1, 3, 4, 7, 8, 9, 11}))
	assert.Equal(t, "Gap8_8c0B9Ba", approx.Name())
	last := Header{Rows: 3, Cols: 4, Gap: 2}.OnCells(encode.LastCells(12, 8))
	assert.Equal(t, Header{Rows: 3, Cols: 4, Cells: 8, Gap: 2}, last, "the last cells: no set")
	assert.Equal(t, encode.LastCells(12, 8), last.Set())

	for name, h := range map[string]Header{
		"count":      {Rows: 4, Cols: 4, Cells: 7, CellSet: rows02},
		"the last 8": {Rows: 4, Cols: 4, Cells: 8, CellSet: 0xFF00},
		"off board":  {Rows: 3, Cols: 3, Cells: 2, CellSet: 0x201},
	} {
		assert.Error(t, WriteFile(filepath.Join(dir, "bad.keys"), h, nil), name)
		assert.NoFileExists(t, filepath.Join(dir, "bad.keys"))
	}
	// The same damage in a header read back: refused as a format error.
	good, err := os.ReadFile(filepath.Join(dir, "G4x_8c0F0F.keys"))
	require.NoError(t, err)
	for name, edit := range map[string]func(b []byte){
		"no cells":       func(b []byte) { b[30], b[31] = 0, 0 },
		"the last 8":     func(b []byte) { b[30], b[31] = 0, 0xFF },
		"seven cells":    func(b []byte) { b[30] = 0x07 },
		"other flag":     func(b []byte) { b[15] = 3 },
		"length bits":    func(b []byte) { b[29] = 1 },
		"flag cleared":   func(b []byte) { b[15] = 0 },
		"cells 3x3 only": func(b []byte) { b[10], b[11] = 3, 3 },
	} {
		b := append([]byte(nil), good...)
		edit(b)
		binary.LittleEndian.PutUint32(b[len(b)-4:], crc32.Checksum(b[:len(b)-4], castagnoli))
		q := filepath.Join(dir, "damaged.keys")
		require.NoError(t, os.WriteFile(q, b, 0o644))
		_, _, err := ReadAllAny(q)
		assert.ErrorIs(t, err, ErrFormat, name)
		assert.NotErrorIs(t, err, ErrCellSet, name)
	}
}

// A residual set records its base after the header: it reads back with
// it, is named Res/R, and is refused by the readers of gap sets (Open,
// OpenAny: its levels bound optimum - h, not the gap) while ReadHeader,
// Count and OpenResidual read it. A damaged base record is a format error.
func TestResidualHeader(t *testing.T) {
	dir := t.TempDir()
	base := Base{Spec: "bpdb:6-5", Digest: [32]byte{0xAB, 1, 2}}
	for _, packed := range []bool{false, true} {
		for _, exact := range []bool{false, true} {
			h := Header{Rows: 4, Cols: 4, Cells: 8, Gap: 4, Exact: exact, Packed: packed, Base: base}
			name := map[bool]string{false: "Res4_8", true: "R4x_8"}[exact]
			assert.Equal(t, name, h.Name())
			p := filepath.Join(dir, h.Name()+".keys")
			require.NoError(t, WriteFile(p, h, sampleKeys(8)))
			_, err := Open(p)
			assert.ErrorIs(t, err, ErrResidual)
			_, _, err = ReadAllAny(p)
			assert.ErrorIs(t, err, ErrResidual)
			assert.ErrorIs(t, err, ErrFormat)
			assert.ErrorContains(t, err, "bpdb:6-5")
			r, err := OpenResidual(p)
			require.NoError(t, err)
			var keys []uint64
			for k, ok := r.Next(); ok; k, ok = r.Next() {
				keys = append(keys, k)
			}
			require.NoError(t, r.Err())
			r.Close()
			assert.Equal(t, sampleKeys(8), keys)
			got, n, err := Count(p)
			require.NoError(t, err)
			assert.Equal(t, uint64(1000), n)
			assert.Equal(t, base, got.Base)
			assert.Equal(t, int64(128), got.KeysOffset())
			raw, err := os.ReadFile(p)
			require.NoError(t, err)
			assert.Equal(t, byte(4), raw[14]&4, "the residual flag")
			assert.Equal(t, base.Digest[:], raw[32:64])
			assert.Equal(t, "bpdb:6-5", string(raw[64:72]))
			var text strings.Builder
			require.NoError(t, WriteCount(&text, "text", "r.keys", got, n))
			assert.Contains(t, text.String(), " base bpdb:6-5 ab0102")
		}
	}
	// A gap set keeps every byte: no flag, keys at 32.
	g := filepath.Join(dir, "g.keys")
	require.NoError(t, WriteFile(g, Header{Rows: 4, Cols: 4, Cells: 8, Gap: 4}, sampleKeys(8)))
	raw, err := os.ReadFile(g)
	require.NoError(t, err)
	assert.Equal(t, byte(0), raw[14])
	assert.Len(t, raw, 32+8*1000+4)

	for name, b := range map[string]Base{
		"no digest": {Spec: "x"},
		"no spec":   {Digest: [32]byte{1}},
		"blank":     {Spec: "a b", Digest: [32]byte{1}},
		"too long":  {Spec: strings.Repeat("x", 65), Digest: [32]byte{1}},
		"non-ascii": {Spec: "é", Digest: [32]byte{1}},
	} {
		assert.Error(t, WriteFile(filepath.Join(dir, "bad.keys"), Header{Rows: 3, Cols: 3, Cells: 9, Base: b}, nil), name)
		assert.NoFileExists(t, filepath.Join(dir, "bad.keys"))
	}
	assert.Error(t, WriteFile(filepath.Join(dir, "bad.keys"), Header{Rows: 3, Cols: 3, Cells: 9, Base: base, Approx: true}, nil))

	good, err := os.ReadFile(filepath.Join(dir, "Res4_8.keys"))
	require.NoError(t, err)
	for name, edit := range map[string]func(b []byte) []byte{
		"record zeroed":       func(b []byte) []byte { clear(b[32:128]); return b },
		"spec not NUL-padded": func(b []byte) []byte { b[127] = 'x'; return b },
		"approximated":        func(b []byte) []byte { b[14] |= 2; return b },
		"record cut":          func(b []byte) []byte { return append(b[:40:40], b[len(b)-4:]...) },
		"flag cleared":        func(b []byte) []byte { b[14] &^= 4; return b },
	} {
		b := edit(append([]byte(nil), good...))
		binary.LittleEndian.PutUint32(b[len(b)-4:], crc32.Checksum(b[:len(b)-4], castagnoli))
		q := filepath.Join(dir, "damaged.keys")
		require.NoError(t, os.WriteFile(q, b, 0o644))
		_, _, err := Count(q)
		assert.ErrorIs(t, err, ErrFormat, name)
	}
}
