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

	"github.com/gapset/gapset/encode"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestNamedOrdersArePermutations(t *testing.T) {
	for _, name := range OrderNames() {
		for _, k := range []int{4, 9} {
			o, err := NamedOrder(name, 3, 3, k)
			require.NoError(t, err, name)
			require.NoError(t, o.Validate(), name)
			assert.Equal(t, 4*k, o.Vars())
		}
	}
	nat, _ := NamedOrder("natural", 4, 4, 8)
	assert.Equal(t, uint8(31), nat.Bits[0], "natural: cell 8's top bit first")
	assert.Equal(t, uint8(0), nat.Bits[31])
	rev, _ := NamedOrder("reverse", 4, 4, 8)
	assert.Equal(t, []uint8{3, 2, 1, 0}, rev.Bits[:4], "reverse: cell 15 first")
	_, err := NamedOrder("nope", 4, 4, 8)
	assert.Error(t, err)
	assert.Error(t, Order{Bits: []uint8{0, 0}}.Validate())
}

func TestPermuterMatchesBitByBit(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, name := range OrderNames() {
		o, _ := NamedOrder(name, 4, 4, 12)
		p := newPermuter(o)
		L := o.Vars()
		for i := 0; i < 200; i++ {
			key := rng.Uint64() & encode.ProjectMask(12)
			var want uint64
			for lv, b := range o.Bits {
				want |= (key >> b & 1) << uint(L-1-lv)
			}
			require.Equal(t, want, p.apply(key), name)
		}
	}
}

// checkMembership compares a diagram with the sorted keys it holds on every
// member and on random non-members.
func checkMembership(t *testing.T, rng *rand.Rand, d *Diagram, keys []uint64, k int, rows, cols int) {
	t.Helper()
	for _, key := range keys {
		if !d.Contains(key) {
			t.Fatalf("%s: member %#x missing", d.Order.Name, key)
		}
	}
	for i := 0; i < 3000; i++ {
		key := encode.Project(encode.Random(rng, rows, cols).Key(), k)
		if i%2 == 1 { // also keys that are not boards at all
			key = rng.Uint64() & encode.ProjectMask(k)
		}
		require.Equal(t, member(keys, key), d.Contains(key), "%s key %#x", d.Order.Name, key)
	}
}

func TestBuild3x3AllOrders(t *testing.T) {
	g0, g2 := sets3x3(t)
	assert.Less(t, len(g0), len(g2))
	rng := rand.New(rand.NewPCG(3, 4))
	for _, k := range []int{4, 6, 9} {
		for _, set := range [][]uint64{g0, g2} {
			keys := project(set, k)
			for _, name := range OrderNames() {
				o, err := NamedOrder(name, 3, 3, k)
				require.NoError(t, err)
				d, err := Build(keys, o, false)
				require.NoError(t, err)
				n, err := d.SatCount()
				require.NoError(t, err)
				require.Equal(t, uint64(len(keys)), n)
				require.NoError(t, d.check())
				checkMembership(t, rng, d, keys, k, 3, 3)

				z, err := Build(keys, o, true)
				require.NoError(t, err)
				n, err = z.SatCount()
				require.NoError(t, err)
				require.Equal(t, uint64(len(keys)), n, "ZDD count")
				require.NoError(t, z.check())
				checkMembership(t, rng, z, keys, k, 3, 3)
			}
		}
	}
}

func TestBuildRejectsUnsortedAndDuplicates(t *testing.T) {
	o, _ := NamedOrder("natural", 3, 3, 9)
	_, err := Build([]uint64{5, 5}, o, false)
	assert.ErrorContains(t, err, "strictly increasing")
	b, _ := NewBuilder(o, false)
	require.NoError(t, b.AddPermuted(7))
	assert.Error(t, b.AddPermuted(3))
	assert.Error(t, b.AddPermuted(1<<40), "beyond 36 bits")
	d, err := Build(nil, o, false)
	require.NoError(t, err)
	assert.Equal(t, False, d.Root)
	assert.False(t, d.Contains(0))
}

// Our builder and rudd must agree node for node: same count, same file.
func TestRuddAgreesWithOwnBuilder(t *testing.T) {
	g0, g2 := sets3x3(t)
	rng := rand.New(rand.NewPCG(5, 6))
	cases := []struct {
		keys       []uint64
		rows, cols int
		k          int
	}{
		{project(g0, 9), 3, 3, 9}, {project(g2, 6), 3, 3, 6},
		{randomKeys(rng, 4, 4, 16, 800), 4, 4, 16}, {randomKeys(rng, 4, 4, 8, 800), 4, 4, 8},
	}
	for _, c := range cases {
		for _, name := range []string{"natural", "reverse", "planes"} {
			o, _ := NamedOrder(name, c.rows, c.cols, c.k)
			own, err := Build(c.keys, o, false)
			require.NoError(t, err)
			r, err := BuildRudd(c.keys, o)
			require.NoError(t, err)
			assert.Equal(t, own.NodeCount(), r.NodeCount(), name)
			rd, err := r.Diagram()
			require.NoError(t, err)
			m := Meta{Rows: c.rows, Cols: c.cols, Cells: c.k}
			var a, b bytes.Buffer
			_, err = Encode(&a, own, m)
			require.NoError(t, err)
			_, err = Encode(&b, rd, m)
			require.NoError(t, err)
			assert.Equal(t, a.Bytes(), b.Bytes(), "files differ for %s", name)
		}
	}
}

func TestSetOperationsInRudd(t *testing.T) {
	g0, g2 := sets3x3(t)
	o, _ := NamedOrder("natural", 3, 3, 6)
	k0, k2 := project(g0, 6), project(g2, 6)
	r0, err := BuildRudd(k0, o)
	require.NoError(t, err)
	d2, err := Build(k2, o, false)
	require.NoError(t, err)
	r2, err := r0.Import(d2)
	require.NoError(t, err)
	sub, err := r0.SubsetOf(r2)
	require.NoError(t, err)
	assert.True(t, sub, "Gap0_6 within Gap2_6")
	sub, err = r2.SubsetOf(r0)
	require.NoError(t, err)
	assert.False(t, sub)
	diff, err := r2.Difference(r0)
	require.NoError(t, err)
	assert.Equal(t, int64(len(k2)-len(k0)), diff.Satcount().Int64())
	u, err := r2.Union(r0)
	require.NoError(t, err)
	eq, err := u.Equal(r2)
	require.NoError(t, err)
	assert.True(t, eq)
	eq, err = diff.Equal(r2)
	require.NoError(t, err)
	assert.False(t, eq)

	other, err := BuildRudd(k0, o) // a second BDD: its nodes mean nothing in r0's
	require.NoError(t, err)
	_, err = r2.Union(other)
	assert.ErrorIs(t, err, errOtherBDD)
	_, err = r2.SubsetOf(other)
	assert.ErrorIs(t, err, errOtherBDD)
	_, err = other.Equal(r0)
	assert.ErrorIs(t, err, errOtherBDD)
}

func TestFileRoundTrip(t *testing.T) {
	g0, g2 := sets3x3(t)
	dir := t.TempDir()
	rng := rand.New(rand.NewPCG(7, 8))
	for _, k := range []int{5, 9} {
		for gi, set := range [][]uint64{g0, g2} {
			keys := project(set, k)
			for _, name := range []string{"natural", "lsb", "column-reverse"} {
				o, _ := NamedOrder(name, 3, 3, k)
				d, err := Build(keys, o, false)
				require.NoError(t, err)
				path := filepath.Join(dir, "x.bdd")
				in, err := Save(path, d, Meta{Rows: 3, Cols: 3, Cells: k, Gap: 2 * gi, ZDDNodes: 7})
				require.NoError(t, err)
				st, _ := os.Stat(path)
				assert.Equal(t, st.Size(), in.FileSize)

				back, in2, err := Load(path)
				require.NoError(t, err)
				assert.Equal(t, in, in2)
				file, err := os.ReadFile(path)
				require.NoError(t, err)
				var again bytes.Buffer
				_, err = Encode(&again, back, Meta{Rows: 3, Cols: 3, Cells: k, Gap: 2 * gi, ZDDNodes: 7})
				require.NoError(t, err)
				assert.Equal(t, file, again.Bytes(), "the file is canonical: the decoded diagram writes it again")
				assert.Equal(t, uint64(7), in2.ZDDNodes)
				assert.Equal(t, name, in2.Order.Name)
				checkMembership(t, rng, back, keys, k, 3, 3)

				r, err := back.ToRudd()
				require.NoError(t, err)
				assert.Equal(t, int64(len(keys)), r.Satcount().Int64())
				assert.Equal(t, d.NodeCount(), r.NodeCount())

				s, err := Open(path)
				require.NoError(t, err)
				for _, key := range set { // full boards: projection inside
					require.True(t, s.Contains(key))
				}
				for i := 0; i < 2000; i++ {
					b := encode.Random(rng, 3, 3)
					require.Equal(t, member(keys, encode.Project(b.Key(), k)), s.Contains(b.Key()))
				}
			}
		}
	}
	ents, _ := os.ReadDir(dir)
	assert.Len(t, ents, 1, "no temporary files left")
}

// The cursor must answer exactly like Contains along a random walk.
func TestCursorFollowsWalk(t *testing.T) {
	_, g2 := sets3x3(t)
	rng := rand.New(rand.NewPCG(9, 10))
	for _, name := range []string{"natural", "reverse", "planes"} {
		o, _ := NamedOrder(name, 3, 3, 9)
		d, err := Build(g2, o, false)
		require.NoError(t, err)
		s, err := NewSet(d, Info{})
		require.NoError(t, err)
		c := s.NewCursor()
		b := encode.Random(rng, 3, 3)
		for i := 0; i < 20000; i++ {
			next, _ := b.Successors()
			b = next[rng.IntN(len(next))]
			require.Equal(t, member(g2, b.Key()), c.Contains(b.Key()))
			require.Equal(t, member(g2, b.Key()), s.Contains(b.Key()))
			if i%100 == 0 {
				require.Equal(t, member(g2, b.Key()), c.Contains(b.Key()), "repeat")
			}
		}
		assert.Positive(t, c.Skipped)
	}
}

func TestCorruptFilesAreRefused(t *testing.T) {
	g0, _ := sets3x3(t)
	o, _ := NamedOrder("natural", 3, 3, 9)
	d, err := Build(g0, o, false)
	require.NoError(t, err)
	var buf bytes.Buffer
	_, err = Encode(&buf, d, Meta{Rows: 3, Cols: 3, Cells: 9})
	require.NoError(t, err)
	rng := rand.New(rand.NewPCG(11, 12))
	for _, data := range [][]byte{buf.Bytes(), encodeV2File(d, Meta{Rows: 3, Cols: 3, Cells: 9})} {
		_, _, err = Decode(data)
		require.NoError(t, err)
		for n := 0; n < len(data); n += 1 + n/7 {
			_, _, err := Decode(data[:n])
			require.ErrorIs(t, err, ErrFormat, "truncated to %d", n)
		}
		for i := 0; i < 300; i++ {
			bad := bytes.Clone(data)
			bad[rng.IntN(len(bad))] ^= byte(1 + rng.IntN(255))
			_, _, err := Decode(bad)
			require.ErrorIs(t, err, ErrFormat)
		}
	}
	// A wrong board size in the header is refused even with a good checksum.
	dir := t.TempDir()
	_, err = Save(filepath.Join(dir, "a.bdd"), d, Meta{Rows: 3, Cols: 3, Cells: 8})
	assert.ErrorContains(t, err, "variables")
	_, err = ReadInfo(filepath.Join(dir, "missing.bdd"))
	assert.Error(t, err)
}

// FuzzDecode: no input may panic the reader; anything it accepts must be a
// consistent diagram (versions 4, 3 and 2 seeded).
func FuzzDecode(f *testing.F) {
	o, _ := NamedOrder("natural", 2, 2, 4)
	for _, keys := range [][]uint64{{}, {0x1230}, {0x0123, 0x1230, 0x3210}} {
		d, err := Build(keys, o, false)
		if err != nil {
			f.Fatal(err)
		}
		var buf bytes.Buffer
		if _, err := Encode(&buf, d, Meta{Rows: 2, Cols: 2, Cells: 4, PeakMemory: 1 << 20, OutOfCore: true}); err != nil {
			f.Fatal(err)
		}
		f.Add(buf.Bytes())
		f.Add(asV3(f, buf.Bytes()))
		f.Add(encodeV2File(d, Meta{Rows: 2, Cols: 2, Cells: 4}))
	}
	f.Add([]byte("GAPBDD\x00\x00"))
	f.Fuzz(func(t *testing.T, data []byte) {
		// Half the time repair the checksum, so the fuzzer reaches the
		// header and payload checks behind it.
		if len(data) > 4 && data[len(data)-1]&1 == 0 {
			data = bytes.Clone(data)
			binary.LittleEndian.PutUint32(data[len(data)-4:], crc32.Checksum(data[:len(data)-4], castagnoli))
		}
		d, in, err := Decode(data)
		if err != nil {
			return
		}
		if n, err := d.SatCount(); err != nil || n != in.Count {
			t.Fatalf("accepted a file whose count is wrong")
		}
		if in.Version >= bddVersion && (widest(diagramView{d}) != in.WidestLevel || in.RefBytes != 4) {
			t.Fatalf("accepted a version %d header that disagrees with its diagram", in.Version)
		}
	})
}

// Sets where whole cells are "don't care" make the BDD skip cell
// boundaries; the cell-wise layout must still answer right.
func TestCellLayoutWithSkippedCells(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 14))
	for trial := 0; trial < 30; trial++ {
		// keys over 4 nibbles: nibbles 1 and 3 free for some prefixes.
		seen := map[uint64]bool{}
		for i := 0; i < 40; i++ {
			a, c := rng.Uint64N(16), rng.Uint64N(16)
			free := rng.IntN(3)
			for b := uint64(0); b < 16; b++ {
				for d := uint64(0); d < 16; d++ {
					if (free == 0 && d != c) || (free == 1 && b != a) {
						continue
					}
					seen[a<<12|b<<8|c<<4|d] = true
				}
			}
		}
		var keys []uint64
		for k := range seen {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, name := range []string{"natural", "reverse-lsb", "planes"} {
			o, _ := NamedOrder(name, 2, 2, 4)
			d, err := Build(keys, o, false)
			require.NoError(t, err)
			s, err := NewSet(d, Info{})
			require.NoError(t, err)
			assert.Equal(t, name != "planes", s.cells != nil)
			if s.cells != nil {
				require.Len(t, s.cells, 2+cellCount(d), "the 16-way nodes counted beforehand")
			}
			c := s.NewCursor()
			for k := uint64(0); k < 1<<16; k++ {
				if seen[k] != s.Contains(k) || seen[k] != c.Contains(k) {
					t.Fatalf("%s: key %#x: member %v, Contains %v", name, k, seen[k], s.Contains(k))
				}
			}
		}
	}
}

// An approximated set (a superset of the gap set, as gapset approx writes)
// keeps its flag through a file and a rewrite, and is named with an "a".
func TestApproxFlagRoundTrip(t *testing.T) {
	g0, _ := sets3x3(t)
	keys := project(g0, 5)
	o, _ := NamedOrder("natural", 3, 3, 5)
	d, err := Build(keys, o, false)
	require.NoError(t, err)
	path := filepath.Join(t.TempDir(), "a.bdd")
	in, err := Save(path, d, Meta{Rows: 3, Cols: 3, Cells: 5, Gap: 4, Approx: true})
	require.NoError(t, err)
	assert.Equal(t, "Gap4_5a", in.Name())
	_, back, err := Load(path)
	require.NoError(t, err)
	assert.True(t, back.Approx)
	assert.True(t, back.Meta().Approx, "a rewrite keeps the flag")
	assert.Equal(t, "Gap4_5a", back.Name())

	exact, err := Save(filepath.Join(t.TempDir(), "e.bdd"), d, Meta{Rows: 3, Cols: 3, Cells: 5, Gap: 4})
	require.NoError(t, err)
	assert.False(t, exact.Approx)
	assert.Equal(t, "Gap4_5", exact.Name())
}
