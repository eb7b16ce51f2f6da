package gapset

import (
	"math/bits"
	"sync/atomic"

	"github.com/gapset/gapset/encode"
)

// geometry is the board model (encode.Geometry) with what the enumerator's
// expansion adds in the key encoding (4 bits per cell, cell 0 in the most
// significant nibble of the board). A reverse move slides a tile from a
// neighbour of the blank into the blank; on sliding-tile boards every move
// changes the Manhattan distance by exactly one, so each move either raises
// or lowers it (or, with a base, the base: base.go).
type geometry struct {
	encode.Geometry
	mask  uint64 // the low 4n bits
	ones  uint64 // 0x1 in every nibble
	highs uint64 // 0x8 in every nibble
	// raise[b][i] has bit t set when tile t moving from Nbr[b][i] into the
	// blank at b raises the Manhattan distance.
	raise [16][4]uint16
	goal  uint64
	// base, when set, layers the enumeration in Manhattan distance's
	// place (base.go): each move's direction is computed, and bad records
	// the first move that changed it by other than 1.
	base Base
	bad  *atomic.Pointer[violation] // set with base
}

func newGeometry(rows, cols int) (*geometry, error) {
	geo, err := encode.NewGeometry(rows, cols)
	if err != nil {
		return nil, err
	}
	g := &geometry{Geometry: *geo}
	g.mask = encode.ProjectMask(g.N)
	g.ones = 0x1111111111111111
	g.highs = 0x8888888888888888
	for c := 0; c < g.N; c++ {
		for i, nb := range g.Nbr[c][:g.NbrN[c]] {
			for t := 1; t < g.N; t++ {
				if g.Delta[t][nb][c] > 0 {
					g.raise[c][i] |= 1 << t
				}
			}
		}
	}
	g.goal = encode.Goal(rows, cols).Key()
	return g, nil
}

// blank returns the blank's cell in key.
func (g *geometry) blank(key uint64) int {
	v := key | ^g.mask // cells beyond the board read as 0xF, never blank
	z := (v - g.ones) &^ v & g.highs
	// The lowest flagged nibble is exact (no borrow reaches below it).
	return g.N - 1 - bits.TrailingZeros64(z)/4
}

// successors calls fn for every successor of key, telling whether the move
// raises the Manhattan distance.
func (g *geometry) successors(key uint64, fn func(next uint64, raise bool)) {
	b := g.blank(key)
	sb := g.Shift[b]
	for i := 0; i < int(g.NbrN[b]); i++ {
		sn := g.Shift[g.Nbr[b][i]]
		t := key >> sn & 15
		fn(key-t<<sn+t<<sb, g.raise[b][i]>>t&1 != 0)
	}
}

// expandRaise writes the raising successors of keys into out, which must
// have room for 4 per key, and returns the number written.
func (g *geometry) expandRaise(keys, out []uint64) int {
	if g.base != nil {
		return g.expandBase(keys, out, true)
	}
	j := 0
	for _, key := range keys {
		b := g.blank(key)
		sb := g.Shift[b]
		for i := 0; i < int(g.NbrN[b]); i++ {
			sn := g.Shift[g.Nbr[b][i]]
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
	if g.base != nil {
		return g.expandBase(keys, out, false)
	}
	j := 0
	for _, key := range keys {
		b := g.blank(key)
		sb := g.Shift[b]
		for i := 0; i < int(g.NbrN[b]); i++ {
			sn := g.Shift[g.Nbr[b][i]]
			t := key >> sn & 15
			if g.raise[b][i]>>t&1 == 0 {
				out[j] = key - t<<sn + t<<sb
				j++
			}
		}
	}
	return j
}
