package bdd

import (
	"bytes"
	"encoding/binary"
	"hash/crc32"
	"math/bits"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The version 2 writer, kept to make old files for the tests that check
// they are still read.

// encodeV2File writes d as a whole version 2 file.
func encodeV2File(d *Diagram, m Meta) []byte {
	c := d.canonical()
	payload := encodePayload(c)
	in := Info{Rows: m.Rows, Cols: m.Cols, Cells: m.Cells, Gap: m.Gap, Exact: m.Exact, ZDD: d.ZDD,
		Order: d.Order, Nodes: uint64(c.NodeCount()), Root: uint64(c.Root), Count: d.Count,
		BuildTime: m.BuildTime, ZDDNodes: m.ZDDNodes, PayloadSize: uint64(len(payload)), Version: bddV2}
	var b bytes.Buffer
	b.Write(in.header())
	b.Write(payload)
	var tail [4]byte
	binary.LittleEndian.PutUint32(tail[:], crc32.Checksum(b.Bytes(), castagnoli))
	b.Write(tail[:])
	return b.Bytes()
}

// canonical renumbers the nodes into the file's order: levels deepest
// first; within a level by the codes of their children (see code). Two
// builds of the same set and order give identical canonical diagrams.
func (d *Diagram) canonical() *Diagram {
	L := d.Order.Vars()
	byLevel := make([][]uint32, L)
	for i := 2; i < len(d.Nodes); i++ {
		lv := d.Nodes[i].Level
		byLevel[lv] = append(byLevel[lv], uint32(i))
	}
	newID := make([]uint32, len(d.Nodes))
	newID[True] = True
	out := make([]Node, 2, len(d.Nodes))
	type item struct {
		lo, hi uint64 // codes
		nd     Node
	}
	for lv := L - 1; lv >= 0; lv-- {
		S := uint32(len(out))
		items := make([]item, len(byLevel[lv]))
		for j, old := range byLevel[lv] {
			nd := d.Nodes[old]
			lo, hi := newID[nd.Lo], newID[nd.Hi]
			items[j] = item{code(lo, S), code(hi, S), Node{Lo: lo, Hi: hi, Level: uint8(lv)}}
			newID[old] = 0 // filled below
		}
		order := make([]int, len(items))
		for j := range order {
			order[j] = j
		}
		slices.SortFunc(order, func(a, b int) int {
			if items[a].lo != items[b].lo {
				if items[a].lo < items[b].lo {
					return -1
				}
				return 1
			}
			if items[a].hi < items[b].hi {
				return -1
			} else if items[a].hi > items[b].hi {
				return 1
			}
			return 0
		})
		for _, j := range order {
			newID[byLevel[lv][j]] = uint32(len(out))
			out = append(out, items[j].nd)
		}
		byLevel[lv] = nil
	}
	return &Diagram{Order: d.Order, Nodes: out, Root: newID[d.Root], ZDD: d.ZDD, Count: d.Count}
}

// code maps a child reference to a small number as seen from a level block
// starting at id S (all children are < S): terminals keep 0 and 1, other
// nodes count down from S-1, so children on the next level get the smallest
// codes.
func code(r, S uint32) uint64 {
	if r < 2 {
		return uint64(r)
	}
	return 2 + uint64(S-1-r)
}

func encodePayload(c *Diagram) []byte {
	L := c.Order.Vars()
	var bw bitWriter
	i := 2
	var los, his []uint64
	for lv := L - 1; lv >= 0; lv-- {
		j := i
		for j < len(c.Nodes) && int(c.Nodes[j].Level) == lv {
			j++
		}
		bw.gamma(uint64(j-i) + 1)
		if j > i {
			S := uint32(i)
			los, his = los[:0], his[:0]
			var prev uint64
			for _, nd := range c.Nodes[i:j] {
				lo := code(nd.Lo, S)
				los = append(los, lo-prev)
				prev = lo
				his = append(his, code(nd.Hi, S))
			}
			loc, hic := bestCoder(los), bestCoder(his)
			loc.header(&bw)
			hic.header(&bw)
			for k := range los {
				loc.put(&bw, los[k])
				hic.put(&bw, his[k])
			}
		}
		i = j
	}
	return bw.bytes()
}

func bestCoder(xs []uint64) coder {
	var maxv uint64
	var gammaCost uint64
	for _, x := range xs {
		maxv = max(maxv, x)
		gammaCost += uint64(2*bits.Len64(x+1) - 1)
	}
	w := uint(bits.Len64(maxv))
	best := coder{sel: selFixed, w: w}
	bestCost := uint64(len(xs))*uint64(w) + 6
	if gammaCost < bestCost {
		best, bestCost = coder{sel: selGamma}, gammaCost
	}
	for k := uint(0); k <= w && k < selGamma; k++ {
		cost := uint64(len(xs)) * uint64(k+1)
		for _, x := range xs {
			cost += x >> k
			if cost >= bestCost {
				break
			}
		}
		if cost < bestCost {
			best, bestCost = coder{sel: k}, cost
		}
	}
	return best
}

// Version 2 files are still read, give the same diagram as version 3, and
// are larger.
func TestVersion2FilesStillRead(t *testing.T) {
	g0, g2 := sets3x3(t)
	rng := rand.New(rand.NewPCG(21, 22))
	for _, k := range []int{6, 9} {
		for _, set := range [][]uint64{g0, g2} {
			keys := project(set, k)
			for _, name := range []string{"natural", "reverse", "planes"} {
				o, _ := NamedOrder(name, 3, 3, k)
				d, err := Build(keys, o, false)
				require.NoError(t, err)
				m := Meta{Rows: 3, Cols: 3, Cells: k, ZDDNodes: 5}
				old := encodeV2File(d, m)
				back, in, err := Decode(old)
				require.NoError(t, err)
				assert.Equal(t, 2, in.Version)
				assert.Equal(t, d.NodeCount(), back.NodeCount())
				checkMembership(t, rng, back, keys, k, 3, 3)
				var v3, again bytes.Buffer
				in3, err := Encode(&v3, d, m)
				require.NoError(t, err)
				assert.Equal(t, bddVersion, in3.Version)
				_, err = Encode(&again, back, m)
				require.NoError(t, err)
				assert.Equal(t, v3.Bytes(), again.Bytes(), "%s: old file, new file, same diagram", name)
				assert.Less(t, v3.Len(), len(old), "%s k=%d: version 3 is denser", name, k)
				t.Logf("%s k=%d: %d nodes, v2 %.2f, v3 %.2f bytes/node", name, k, d.NodeCount(),
					float64(len(old))/float64(d.NodeCount()), float64(v3.Len())/float64(d.NodeCount()))
			}
		}
	}
}

// asV3 rewrites a version 4 file as version 3: the same payload without
// the block after the order.
func asV3(t testing.TB, data []byte) []byte {
	t.Helper()
	in, err := parseHeader(data)
	require.NoError(t, err)
	require.Equal(t, bddVersion, in.Version)
	in.Version = bddV3
	out := append(in.header(), data[in.headerSize()+extSize:len(data)-4]...)
	return binary.LittleEndian.AppendUint32(out, crc32.Checksum(out, castagnoli))
}

// Version 3 files (no block after the order) are still read, give the
// same diagram as version 4, and are rewritten as version 4 by Encode;
// version 4 says how wide the widest level is, how the diagram was built
// and what reference width it needs.
func TestVersion3FilesStillRead(t *testing.T) {
	_, g2 := sets3x3(t)
	for _, k := range []int{6, 9} {
		keys := project(g2, k)
		o, _ := NamedOrder("natural", 3, 3, k)
		ld, err := buildInPlace(slices.Clone(keys), o, false, nil)
		require.NoError(t, err)
		m := Meta{Rows: 3, Cols: 3, Cells: k, ZDDNodes: 5, PeakMemory: 12345, OutOfCore: true}
		var v4 bytes.Buffer
		in4, err := Encode(&v4, ld, m)
		require.NoError(t, err)
		assert.Equal(t, uint64(slices.Max(ld.LevelSizes())), in4.WidestLevel)
		assert.Equal(t, 4, in4.RefBytes)
		d4, back4, err := Decode(v4.Bytes())
		require.NoError(t, err)
		assert.Equal(t, int64(12345), back4.PeakMemory)
		assert.True(t, back4.OutOfCore)
		assert.Equal(t, in4, back4)
		v3 := asV3(t, v4.Bytes())
		assert.Len(t, v3, v4.Len()-extSize)
		d3, in3, err := Decode(v3)
		require.NoError(t, err)
		assert.Equal(t, bddV3, in3.Version)
		assert.Zero(t, in3.WidestLevel)
		assert.Equal(t, d4, d3)
		assert.Equal(t, m.ZDDNodes, in3.ZDDNodes)
		var again bytes.Buffer
		_, err = Encode(&again, d3, in4.Meta())
		require.NoError(t, err)
		assert.Equal(t, v4.Bytes(), again.Bytes())
		path := filepath.Join(t.TempDir(), "v3.bdd")
		require.NoError(t, os.WriteFile(path, v3, 0o644))
		ri, err := ReadInfo(path)
		require.NoError(t, err)
		assert.Equal(t, in3, ri)

		// a header that disagrees with its payload or itself is refused
		for _, c := range []struct {
			off  int
			val  byte
			want error
		}{
			{0, 1, ErrFormat},     // widest level off by one
			{16, 8, ErrFormat},    // 8-byte references for a small diagram
			{17, 2, ErrFormat},    // unknown build flag
			{20, 1, ErrFormat},    // reserved byte
			{15, 0x80, ErrFormat}, // negative peak memory
		} {
			bad := bytes.Clone(v4.Bytes())
			bad[in4.headerSize()-extSize+c.off] ^= c.val
			binary.LittleEndian.PutUint32(bad[len(bad)-4:], crc32.Checksum(bad[:len(bad)-4], castagnoli))
			_, _, err := Decode(bad)
			assert.ErrorIs(t, err, c.want, "byte %d", c.off)
		}
	}
	// a diagram past 32-bit references is a limit, said as such
	in := Info{Rows: 3, Cols: 3, Cells: 9, Order: mustOrder(t, "natural", 9), Version: bddVersion,
		Nodes: 1 << 33, Root: 2, WidestLevel: 1 << 30, RefBytes: 8}
	_, err := parseHeader(in.header())
	assert.ErrorIs(t, err, ErrLevelFull)
	assert.ErrorContains(t, err, "8-byte references")
}
