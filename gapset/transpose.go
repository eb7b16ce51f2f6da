package gapset

import (
	"sync/atomic"

	"github.com/gapset/gapset/encode"
)

// A square board's goal is its own transpose (encode.Transposition: the
// mirror image in the main diagonal, tiles renamed), and the transpose
// keeps the Manhattan distance and the optimal length, so every layer of
// the enumeration is closed under it. The canonical enumerator stores and
// expands one key of each transposed pair, the smaller (canonical) one:
// the children of a transposed key are the transposes of its children,
// so canonicalising every child gives the next layer's canonical keys, and
// subtracting canonical lower layers keeps the layers exact. Projections
// are written for both members, so the key-set files are those of the
// whole enumeration. docs/enumeration-layout.md describes the files.

// transposer transposes whole-board keys by table: each byte of the key
// (two cells) looks up its two renamed tiles already in their transposed
// places, so a key costs one load and OR per byte.
type transposer struct {
	tab [8][256]uint64 // tab[i][b]: byte i of a key holding b, transposed
}

// newTransposer returns the transposer of a square board, nil for others
// (their transpose is another board: they keep the full enumeration).
func newTransposer(rows, cols int) *transposer {
	t, err := encode.NewSquareTransposition(rows, cols)
	if err != nil {
		return nil
	}
	n := t.N
	shift := func(c int) uint { return uint(4 * (n - 1 - c)) }
	x := &transposer{}
	for i := 0; i < (n+1)/2; i++ { // the bytes of the key's 4n bits
		lo, hi := n-1-2*i, n-2-2*i // the cells of byte i's low and high nibbles
		for b := 0; b < 256; b++ {
			v := uint64(t.Tile[b&15]) << shift(int(t.Cell[lo]))
			if hi >= 0 {
				v |= uint64(t.Tile[b>>4]) << shift(int(t.Cell[hi]))
			}
			x.tab[i][b] = v
		}
	}
	return x
}

// key returns the transpose of key. The bytes above a smaller board's
// key are zero, and so are their table entries for zero.
func (x *transposer) key(k uint64) uint64 {
	return x.tab[0][byte(k)] | x.tab[1][byte(k>>8)] | x.tab[2][byte(k>>16)] | x.tab[3][byte(k>>24)] |
		x.tab[4][byte(k>>32)] | x.tab[5][byte(k>>40)] | x.tab[6][byte(k>>48)] | x.tab[7][byte(k>>56)]
}

// canonAll replaces every key of a by its canonical key.
func (x *transposer) canonAll(a []uint64) {
	for i, k := range a {
		a[i] = min(k, x.key(k))
	}
}

// mirrorAll writes the transpose of each key of a into out (len(out)
// >= len(a)).
func (x *transposer) mirrorAll(a, out []uint64) {
	for i, k := range a {
		out[i] = x.key(k)
	}
}

// selfCount counts the self-transposed keys of a (a layer has members
// 2*canonical - self).
func (x *transposer) selfCount(a []uint64, n *atomic.Int64) {
	c := 0
	for _, k := range a {
		if x.key(k) == k {
			c++
		}
	}
	n.Add(int64(c))
}
