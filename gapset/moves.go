package gapset

import (
	"math/bits"

	"github.com/gapset/gapset/encode"
)

// geometry holds the move tables of an R x C board in the key encoding
// (4 bits per cell, cell 0 in the most significant nibble of the board).
// A reverse move slides a tile from a neighbour of the blank into the blank;
// on sliding-tile boards every move changes the Manhattan distance by exactly
// one, so each move either raises or lowers it.
type geometry struct {
	rows, cols, n int
	mask          uint64    // the low 4n bits
	ones          uint64    // 0x1 in every nibble
	highs         uint64    // 0x8 in every nibble
	shift         [16]uint8 // bit offset of cell c
	nbr           [16][4]int8
	nnbr          [16]int8
	// raise[b][i] has bit t set when tile t moving from nbr[b][i] into the
	// blank at b raises the Manhattan distance.
	raise [16][4]uint16
	goal  uint64
}

func newGeometry(rows, cols int) (*geometry, error) {
	if err := encode.CheckSize(rows, cols); err != nil {
		return nil, err
	}
	g := &geometry{rows: rows, cols: cols, n: rows * cols}
	g.mask = encode.ProjectMask(g.n)
	g.ones = 0x1111111111111111
	g.highs = 0x8888888888888888
	dist := func(t, c int) int { // distance of tile t in cell c from its home t-1
		h := t - 1
		return abs(h/cols-c/cols) + abs(h%cols-c%cols)
	}
	for c := 0; c < g.n; c++ {
		g.shift[c] = uint8(4 * (g.n - 1 - c))
		for i, nb := range encode.Neighbors(rows, cols, c) {
			g.nbr[c][i] = int8(nb)
			g.nnbr[c]++
			for t := 1; t < g.n; t++ {
				if dist(t, c) > dist(t, nb) {
					g.raise[c][i] |= 1 << t
				}
			}
		}
	}
	g.goal = encode.Goal(rows, cols).Key()
	return g, nil
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// blank returns the blank's cell in key.
func (g *geometry) blank(key uint64) int {
	v := key | ^g.mask // cells beyond the board read as 0xF, never blank
	z := (v - g.ones) &^ v & g.highs
	// The lowest flagged nibble is exact (no borrow reaches below it).
	return g.n - 1 - bits.TrailingZeros64(z)/4
}

// manhattan returns the Manhattan distance of key.
func (g *geometry) manhattan(key uint64) int {
	m := 0
	for c := 0; c < g.n; c++ {
		t := int(key>>g.shift[c]) & 15
		if t != 0 {
			h := t - 1
			m += abs(h/g.cols-c/g.cols) + abs(h%g.cols-c%g.cols)
		}
	}
	return m
}

// successors calls fn for every successor of key, telling whether the move
// raises the Manhattan distance.
func (g *geometry) successors(key uint64, fn func(next uint64, raise bool)) {
	b := g.blank(key)
	sb := g.shift[b]
	for i := 0; i < int(g.nnbr[b]); i++ {
		sn := g.shift[g.nbr[b][i]]
		t := key >> sn & 15
		fn(key-t<<sn+t<<sb, g.raise[b][i]>>t&1 != 0)
	}
}

// expandRaise writes the raising successors of keys into out, which must
// have room for 4 per key, and returns the number written.
func (g *geometry) expandRaise(keys, out []uint64) int {
	j := 0
	for _, key := range keys {
		b := g.blank(key)
		sb := g.shift[b]
		for i := 0; i < int(g.nnbr[b]); i++ {
			sn := g.shift[g.nbr[b][i]]
			t := key >> sn & 15
			if g.raise[b][i]>>t&1 != 0 {
				out[j] = key - t<<sn + t<<sb
				j++
			}
		}
	}
	return j
}

// expandLower is expandRaise for the moves that lower the distance.
func (g *geometry) expandLower(keys, out []uint64) int {
	j := 0
	for _, key := range keys {
		b := g.blank(key)
		sb := g.shift[b]
		for i := 0; i < int(g.nnbr[b]); i++ {
			sn := g.shift[g.nbr[b][i]]
			t := key >> sn & 15
			if g.raise[b][i]>>t&1 == 0 {
				out[j] = key - t<<sn + t<<sb
				j++
			}
		}
	}
	return j
}
