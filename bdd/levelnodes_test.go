package bdd

import (
	"bytes"
	"encoding/binary"
	"hash/crc32"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// levelFiles are the small sets' files in every format the reader takes:
// the 3x3 gap sets on 6 and 9 cells, three orders, the cells and ranks
// encodings, the BDD and its ZDD, written as versions 4, 3 and 2, with
// the diagram each holds.
func levelFiles(t *testing.T) (files [][]byte, want []*Diagram) {
	t.Helper()
	g0, g2 := sets3x3(t)
	for _, k := range []int{6, 9} {
		for _, set := range [][]uint64{g0, g2, {}} {
			for _, name := range []string{"natural", "reverse", "planes"} {
				for _, enc := range []Encoding{Cells, Ranks} {
					o, err := NamedOrder(name, 3, 3, k)
					require.NoError(t, err)
					keys := project(set, k)
					b, err := BuildKeys(keys, 9, k, KeysBuild{Order: o, Encoding: enc})
					require.NoError(t, err)
					d := b.BDD.Diagram()
					z, err := d.ZDDOf()
					require.NoError(t, err)
					m := Meta{Rows: 3, Cols: 3, Cells: k, Encoding: enc}
					for _, g := range []*Diagram{d, z} {
						var v4 bytes.Buffer
						_, err = Encode(&v4, g, m)
						require.NoError(t, err)
						files = append(files, v4.Bytes(), asV3(t, v4.Bytes()), encodeV2File(g, m))
						want = append(want, g, g, g)
					}
				}
			}
		}
	}
	return files, want
}

func sizes64(d *Diagram) []uint64 {
	var out []uint64
	for _, n := range d.LevelSizes() {
		out = append(out, uint64(n))
	}
	return out
}

// LevelNodes reads every file the decoder reads and counts what the
// decoded diagram's LevelSizes counts.
func TestLevelNodesEqualLevelSizes(t *testing.T) {
	files, want := levelFiles(t)
	dir := t.TempDir()
	versions := map[int]int{}
	for i, data := range files {
		path := filepath.Join(dir, "x.bdd")
		require.NoError(t, os.WriteFile(path, data, 0o644))
		got, in, err := LevelNodes(path)
		require.NoError(t, err, "file %d", i)
		d, din, err := Decode(data)
		require.NoError(t, err)
		require.Equal(t, sizes64(want[i]), got, "file %d (version %d, zdd %t)", i, in.Version, in.ZDD)
		require.Equal(t, sizes64(d), got)
		din.FileSize = int64(len(data))
		require.Equal(t, din, in, "the header as Decode reads it")
		versions[in.Version]++
	}
	assert.Equal(t, map[int]int{2: len(files) / 3, 3: len(files) / 3, 4: len(files) / 3}, versions)

	_, _, err := LevelNodes(filepath.Join(dir, "missing.bdd"))
	assert.ErrorIs(t, err, os.ErrNotExist)
	_, _, err = LevelNodes(dir)
	assert.ErrorIs(t, err, ErrFormat, "a directory")
}

// A cut, padded or changed file is refused; so is a changed one whose
// checksum was made to match when its stream breaks the rules.
func TestLevelNodesRefusesDamage(t *testing.T) {
	files, _ := levelFiles(t)
	rng := rand.New(rand.NewPCG(37, 38))
	for i := 0; i < len(files); i += 5 {
		data := files[i]
		for n := 0; n < len(data); n += 1 + n/5 {
			_, _, err := readLevels(bytes.NewReader(data[:n]), int64(n))
			require.ErrorIs(t, err, ErrFormat, "file %d cut to %d bytes", i, n)
		}
		_, _, err := readLevels(bytes.NewReader(append(slices.Clone(data), 0)), int64(len(data)+1))
		require.ErrorIs(t, err, ErrFormat, "padded")
		_, _, err = readLevels(bytes.NewReader(data), int64(len(data)+1))
		require.ErrorIs(t, err, ErrFormat, "ends early")
		in, err := parseHeader(data)
		require.NoError(t, err)
		for j := 0; j < 100; j++ {
			bad := slices.Clone(data)
			off := rng.IntN(len(bad))
			bad[off] ^= byte(1 + rng.IntN(255))
			_, _, err := readLevels(bytes.NewReader(bad), int64(len(bad)))
			require.ErrorIs(t, err, ErrFormat)
			if off >= in.headerSize() {
				require.ErrorContains(t, err, "checksum", "a payload byte changed")
			}
		}
	}
	// With the checksum repaired: every payload byte changed in turn. What
	// the stream walk accepts, it counts as the decoder does, or it is
	// something only the full decode can tell (shared flags, the count).
	data := files[0]
	in, err := parseHeader(data)
	require.NoError(t, err)
	refused, agreed := 0, 0
	for off := in.headerSize(); off < len(data)-4; off += 3 {
		for _, x := range []byte{1, 0x80, 0xff} {
			bad := slices.Clone(data)
			bad[off] ^= x
			binary.LittleEndian.PutUint32(bad[len(bad)-4:], crc32.Checksum(bad[:len(bad)-4], castagnoli))
			got, _, err := readLevels(bytes.NewReader(bad), int64(len(bad)))
			d, _, derr := Decode(bad)
			if derr == nil {
				require.NoError(t, err, "the decoder takes what the walk refused (offset %d)", off)
				require.Equal(t, sizes64(d), got)
				agreed++
				continue
			}
			if err != nil {
				require.ErrorIs(t, err, ErrFormat)
				refused++
			}
		}
	}
	assert.Greater(t, refused, (len(data)-in.headerSize())/2, "most changes break the stream") // of 3 a third of the bytes
	t.Logf("%d changes refused by the walk, %d read alike", refused, agreed)
}

// FuzzLevelNodes: no input panics the walk; what the decoder accepts, the
// walk accepts and counts alike.
func FuzzLevelNodes(f *testing.F) {
	o, _ := NamedOrder("natural", 2, 2, 4)
	for _, keys := range [][]uint64{{}, {0x1230}, {0x0123, 0x1230, 0x3210}} {
		d, err := Build(keys, o, false)
		if err != nil {
			f.Fatal(err)
		}
		var buf bytes.Buffer
		if _, err := Encode(&buf, d, Meta{Rows: 2, Cols: 2, Cells: 4}); err != nil {
			f.Fatal(err)
		}
		f.Add(buf.Bytes())
		f.Add(asV3(f, buf.Bytes()))
		f.Add(encodeV2File(d, Meta{Rows: 2, Cols: 2, Cells: 4}))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > 4 && data[len(data)-1]&1 == 0 { // as FuzzDecode: reach past the checksum
			data = bytes.Clone(data)
			binary.LittleEndian.PutUint32(data[len(data)-4:], crc32.Checksum(data[:len(data)-4], castagnoli))
		}
		got, in, err := readLevels(bytes.NewReader(data), int64(len(data)))
		d, _, derr := Decode(data)
		if derr == nil {
			if err != nil {
				t.Fatalf("the decoder takes a file the walk refuses: %v", err)
			}
			if !slices.Equal(sizes64(d), got) || in.Nodes != uint64(d.NodeCount()) {
				t.Fatalf("counted %v, the decoder %v", got, d.LevelSizes())
			}
		}
	})
}

// checkBytes runs Check's walk (no nodes kept) over a file image.
func checkBytes(data []byte) ([]uint64, error) {
	var levels []uint64
	_, err := readStream(bytes.NewReader(data), int64(len(data)), func(br *bitReader, in Info) (err error) {
		_, levels, err = leanWalk(br, in, 0, false)
		return err
	})
	return levels, err
}

// Check takes every file Decode takes, with its levels; and of files
// changed with their checksums repaired, it refuses exactly those Decode
// refuses (shared flags and member counts included, which LevelNodes
// leaves to Load).
func TestCheckAgreesWithDecode(t *testing.T) {
	files, want := levelFiles(t)
	dir := t.TempDir()
	for i, data := range files {
		path := filepath.Join(dir, "x.bdd")
		require.NoError(t, os.WriteFile(path, data, 0o644))
		got, in, err := Check(path, 0)
		require.NoError(t, err, "file %d", i)
		_, din, err := Decode(data)
		require.NoError(t, err)
		din.FileSize = int64(len(data))
		require.Equal(t, din, in)
		require.Equal(t, sizes64(want[i]), got, "file %d (version %d, zdd %t)", i, in.Version, in.ZDD)
	}
	refused, taken := 0, 0
	for _, i := range []int{6, 13} { // g0 on 6 cells: natural ranks (v4), reverse cells (v3)
		data := files[i]
		in, err := parseHeader(data)
		require.NoError(t, err)
		if in.ZDD || in.Version == bddV2 {
			continue
		}
		for off := in.headerSize(); off < len(data)-4; off += 2 {
			for _, x := range []byte{1, 0xff} {
				bad := bytes.Clone(data)
				bad[off] ^= x
				_, err := checkBytes(bad)
				require.ErrorContains(t, err, "checksum")
				binary.LittleEndian.PutUint32(bad[len(bad)-4:], crc32.Checksum(bad[:len(bad)-4], castagnoli))
				d, _, derr := Decode(bad)
				got, err := checkBytes(bad)
				if derr != nil {
					require.ErrorIs(t, err, ErrFormat, "file %d offset %d ^%#x: Decode says %v", i, off, x, derr)
					refused++
					continue
				}
				require.NoError(t, err, "file %d offset %d ^%#x", i, off, x)
				require.Equal(t, sizes64(d), got)
				taken++
			}
		}
	}
	assert.Greater(t, refused, 100)
	t.Logf("%d changed files refused by both, %d taken by both", refused, taken)
	_, _, err := Check(filepath.Join(dir, "missing.bdd"), 0)
	assert.ErrorIs(t, err, os.ErrNotExist)
	// a limit below what its shared nodes take: refused as too big, not as damaged
	var big []byte // the version 4 BDD of most nodes
	var most uint64
	for _, data := range files {
		in, err := parseHeader(data)
		require.NoError(t, err)
		if !in.ZDD && in.Version == bddVersion && in.Nodes > most {
			big, most = data, in.Nodes
		}
	}
	require.Greater(t, most, uint64(100))
	path := filepath.Join(dir, "big.bdd")
	require.NoError(t, os.WriteFile(path, big, 0o644))
	_, _, err = Check(path, 1)
	require.ErrorIs(t, err, ErrTooBig)
	_, _, err = Check(path, 1<<30)
	require.NoError(t, err)
}
