package bdd

import (
	"bytes"
	"encoding/binary"
	"hash/crc32"
	"math/bits"
	"math/rand/v2"
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
				assert.Equal(t, 3, in3.Version)
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
