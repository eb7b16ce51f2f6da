package bdd

import (
	"bytes"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"testing"

	"github.com/gapset/gapset/encode"
	"github.com/gapset/gapset/keyset"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// decodeLeanBytes runs the lean decode over a file image.
func decodeLeanBytes(data []byte) (*Diagram, Info, error) {
	var d *Diagram
	in, err := readStream(bytes.NewReader(data), int64(len(data)), func(br *bitReader, in Info) (err error) {
		d, err = decodeLean(br, in, 0)
		return err
	})
	return d, in, err
}

// The lean decode gives the diagram Decode gives, node for node, on every
// small BDD file of formats 3 and 4.
func TestDecodeLeanEqualsDecode(t *testing.T) {
	files, _ := levelFiles(t)
	seen := 0
	for i, data := range files {
		want, win, err := Decode(data)
		require.NoError(t, err)
		if win.ZDD || win.Version == bddV2 {
			continue
		}
		got, in, err := decodeLeanBytes(data)
		require.NoError(t, err, "file %d", i)
		assert.Equal(t, win, in)
		require.Equal(t, want.Nodes, got.Nodes, "file %d", i)
		assert.Equal(t, want.Root, got.Root)
		assert.Equal(t, want.Count, got.Count)
		assert.Equal(t, want.Order, got.Order)
		seen++
	}
	assert.Equal(t, len(files)/3, seen, "the BDDs of versions 3 and 4")
}

// With the checksum repaired, every changed payload byte is refused by
// both decoders or taken by both alike; without, by the checksum.
func TestDecodeLeanRefusesWhatDecodeRefuses(t *testing.T) {
	files, _ := levelFiles(t)
	for _, i := range []int{6, 13} { // g0 on 6 cells: natural ranks (v4), reverse cells (v3)
		data := files[i]
		in, err := parseHeader(data)
		require.NoError(t, err)
		require.False(t, in.ZDD)
		alike := 0
		for off := in.headerSize(); off < len(data)-4; off += 3 {
			for _, x := range []byte{1, 0xff} {
				bad := bytes.Clone(data)
				bad[off] ^= x
				_, _, err := decodeLeanBytes(bad)
				require.ErrorContains(t, err, "checksum")
				binary.LittleEndian.PutUint32(bad[len(bad)-4:], crc32.Checksum(bad[:len(bad)-4], castagnoli))
				want, _, derr := Decode(bad)
				got, _, err := decodeLeanBytes(bad)
				if derr != nil {
					require.ErrorIs(t, err, ErrFormat, "offset %d ^%#x: Decode says %v", off, x, derr)
					continue
				}
				require.NoError(t, err, "offset %d ^%#x", off, x)
				require.Equal(t, want.Nodes, got.Nodes)
				alike++
			}
		}
		t.Logf("file %d: %d changed files taken by both", i, alike)
	}
	for n := 0; n < len(files[0]); n += 1 + n/9 {
		_, _, err := decodeLeanBytes(files[0][:n])
		require.ErrorIs(t, err, ErrFormat, "cut to %d bytes", n)
	}
}

// FuzzDecodeLean: no input panics the lean decode, and it accepts exactly
// the BDDs of format 3 and 4 Decode accepts, with the same nodes.
func FuzzDecodeLean(f *testing.F) {
	for _, d := range seedDiagrams(f) {
		var buf bytes.Buffer
		if _, err := Encode(&buf, d, Meta{Rows: 2, Cols: 2, Cells: 4}); err != nil {
			f.Fatal(err)
		}
		f.Add(buf.Bytes())
		f.Add(asV3(f, buf.Bytes()))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > 4 && data[len(data)-1]&1 == 0 {
			data = bytes.Clone(data)
			binary.LittleEndian.PutUint32(data[len(data)-4:], crc32.Checksum(data[:len(data)-4], castagnoli))
		}
		got, _, err := decodeLeanBytes(data)
		want, in, derr := Decode(data)
		if derr != nil || in.ZDD || in.Version == bddV2 {
			if err == nil && derr != nil {
				t.Fatalf("the lean decode takes a file Decode refuses: %v", derr)
			}
			return
		}
		if err != nil {
			t.Fatalf("the lean decode refuses a file Decode takes: %v", err)
		}
		if len(got.Nodes) != len(want.Nodes) || got.Root != want.Root {
			t.Fatalf("decoded differently")
		}
		for i := range got.Nodes {
			if got.Nodes[i] != want.Nodes[i] {
				t.Fatalf("node %d differs", i)
			}
		}
	})
}

// OpenWith lays the nodes out as NewSet does when that fits, queries them
// where they lie when only the nodes fit, and refuses, before reading
// them, a diagram whose load would not fit; every layout answers alike.
func TestOpenWithinMemory(t *testing.T) {
	_, g2 := sets3x3(t)
	dir := t.TempDir()
	rng := rand.New(rand.NewPCG(37, 1))
	for _, name := range []string{"natural", "planes"} {
		for _, enc := range []Encoding{Cells, Ranks} {
			o, _ := NamedOrder(name, 3, 3, 9)
			b, err := BuildKeys(project(g2, 9), 9, 9, KeysBuild{Order: o, Encoding: enc})
			require.NoError(t, err)
			path := filepath.Join(dir, name+enc.String()+".bdd")
			in, err := b.Save(path, keyset.Header{Rows: 3, Cols: 3, Cells: 9, Gap: 2}, enc)
			require.NoError(t, err)
			n := in.Nodes
			var notes []string
			roomy, err := OpenWith(path, OpenOptions{Available: 1 << 40, Note: func(s string) { notes = append(notes, s) }})
			require.NoError(t, err)
			assert.Empty(t, notes, "a small load says nothing")
			assert.Equal(t, name == "natural", roomy.cells != nil, "the 16-way layout for cell-wise orders")
			d, _, err := Load(path)
			require.NoError(t, err)
			S := sharedNodes(d)
			require.Positive(t, S)
			tight, err := OpenWith(path, OpenOptions{Available: leanPeak(n, S) + 4*n})
			require.NoError(t, err)
			assert.Nil(t, tight.cells, "no room for the layout: the nodes where they lie")
			assert.Len(t, tight.nodes, int(n)+2)
			assert.Equal(t, in, tight.Info())
			_, err = OpenWith(path, OpenOptions{Available: leanPeak(n, 0) - 1})
			require.ErrorIs(t, err, ErrTooBig, "the nodes alone do not fit: refused before reading")
			assert.ErrorContains(t, err, path)
			assert.ErrorContains(t, err, "at least")
			_, err = OpenWith(path, OpenOptions{Available: leanPeak(n, S) - 1})
			require.ErrorIs(t, err, ErrTooBig, "the shared nodes' counts do not fit")
			assert.NotErrorIs(t, err, ErrFormat)
			_, err = OpenWith(path, OpenOptions{Available: leanPeak(n, S)})
			require.NoError(t, err, "just enough")

			c := tight.NewCursor()
			board := encode.Random(rng, 3, 3)
			for i := 0; i < 20000; i++ {
				key := board.Key()
				want := d.Contains(enc.Convert(key, 9, 9))
				require.Equal(t, want, tight.Contains(key), "%s %v key %#x", name, enc, key)
				require.Equal(t, want, roomy.Contains(key))
				require.Equal(t, want, c.Contains(key))
				next, _ := board.Successors()
				board = next[rng.IntN(len(next))]
				if i%500 == 0 {
					board = encode.Random(rng, 3, 3)
				}
			}
			for _, key := range g2[:2000] {
				require.True(t, tight.Contains(key))
			}
		}
	}
	bad := filepath.Join(dir, "bad.bdd")
	require.NoError(t, os.WriteFile(bad, []byte("GAPBDD\x00\x00 not a diagram"), 0o644))
	_, err := OpenWith(bad, OpenOptions{})
	assert.ErrorIs(t, err, ErrFormat)
}

// sharedNodes counts the nodes with more than one parent.
func sharedNodes(d *Diagram) uint64 {
	parents := make([]int, len(d.Nodes))
	for _, nd := range d.Nodes[2:] {
		parents[nd.Lo]++
		parents[nd.Hi]++
	}
	var S uint64
	for _, p := range parents[2:] {
		if p > 1 {
			S++
		}
	}
	return S
}

// FuzzCheck: no input panics Check, and it accepts exactly the files
// Decode accepts (every format and ZDDs included: Check loads those
// whole), with Decode's header and nodes per level; what it refuses is
// refused as a bad file (ErrFormat), never as too big without a limit.
func FuzzCheck(f *testing.F) {
	for _, d := range seedDiagrams(f) {
		z, err := d.ZDDOf()
		if err != nil {
			f.Fatal(err)
		}
		m := Meta{Rows: 2, Cols: 2, Cells: 4}
		for _, g := range []*Diagram{d, z} {
			var buf bytes.Buffer
			if _, err := Encode(&buf, g, m); err != nil {
				f.Fatal(err)
			}
			f.Add(buf.Bytes())
			f.Add(asV3(f, buf.Bytes()))
			f.Add(encodeV2File(g, m))
		}
	}
	path := filepath.Join(f.TempDir(), "x.bdd")
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > 4 && data[len(data)-1]&1 == 0 { // as FuzzDecode: reach past the checksum
			data = bytes.Clone(data)
			binary.LittleEndian.PutUint32(data[len(data)-4:], crc32.Checksum(data[:len(data)-4], castagnoli))
		}
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		got, in, err := Check(path, 0)
		d, din, derr := Decode(data)
		switch {
		case derr != nil && err == nil:
			t.Fatalf("Check takes a file Decode refuses: %v", derr)
		case derr != nil && !errors.Is(err, ErrFormat):
			t.Fatalf("Check refuses a bad file (%v) not as ErrFormat: %v", derr, err)
		case derr != nil:
		case err != nil:
			t.Fatalf("Check refuses a file Decode takes: %v", err)
		case !reflect.DeepEqual(in, din):
			t.Fatalf("Check reads the header %+v, Decode %+v", in, din)
		case !slices.Equal(got, sizes64(d)):
			t.Fatalf("Check counts %v nodes per level, Decode %v", got, d.LevelSizes())
		}
	})
}

// seedDiagrams are the fuzzers' seed diagrams: small 2x2 sets (empty, one
// member, three, four) in the natural order.
func seedDiagrams(f *testing.F) []*Diagram {
	o, _ := NamedOrder("natural", 2, 2, 4)
	var out []*Diagram
	for _, keys := range [][]uint64{{}, {0x1230}, {0x0123, 0x1230, 0x3210}, {0x0123, 0x0132, 0x1023, 0x3210}} {
		d, err := Build(keys, o, false)
		if err != nil {
			f.Fatal(err)
		}
		out = append(out, d)
	}
	return out
}
