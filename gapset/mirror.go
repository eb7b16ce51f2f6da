package gapset

import (
	"fmt"

	"github.com/gapset/gapset/encode"
)

// Transposer maps a square board's key to the key of its transpose: the
// board mirrored in the main diagonal, each tile renamed to the tile whose
// home is the mirror of its own home. The goal (blank in the last cell)
// maps to itself and every move to a move, with Manhattan distance and
// optimal length preserved: a configuration and its transpose have the
// same gap, so a gap set's superset must hold both.
type Transposer struct {
	n     int
	cell  [16]uint8 // cell c goes to cell[c]
	tile  [16]uint8 // tile t becomes tile[t]
	shift [16]uint8
}

// NewTransposer returns the transposition of a size x size board.
func NewTransposer(rows, cols int) (*Transposer, error) {
	if err := encode.CheckSize(rows, cols); err != nil {
		return nil, err
	}
	if rows != cols {
		return nil, fmt.Errorf("transposing needs a square board, not %dx%d", rows, cols)
	}
	n := rows * cols
	t := &Transposer{n: n}
	for c := 0; c < n; c++ {
		r, k := c/cols, c%cols
		t.cell[c] = uint8(k*cols + r)
		t.shift[c] = uint8(4 * (n - 1 - c))
	}
	for v := 1; v < n; v++ {
		t.tile[v] = t.cell[v-1] + 1 // home v-1 mirrors to home cell[v-1]
	}
	return t, nil
}

// Key returns the transposed board's key.
func (t *Transposer) Key(key uint64) uint64 {
	var out uint64
	for c := 0; c < t.n; c++ {
		v := key >> t.shift[c] & 15
		out |= uint64(t.tile[v]) << t.shift[t.cell[c]]
	}
	return out
}

// Set is a membership test on whole-board keys (ida.Set).
type Set interface {
	Contains(key uint64) bool
}

// Mirrored is a gap set that holds a board only when the inner set holds
// both the board and its transpose: still a superset of the gap set (a
// board of gap <= 2i and its transpose, of the same gap, are both in the
// inner set), and smaller, since a projected set sees other cells of the
// transpose. It costs a second question and a transposition per query.
type Mirrored struct {
	Inner Set
	T     *Transposer
}

// Contains implements ida.Set.
func (m Mirrored) Contains(key uint64) bool {
	return m.Inner.Contains(key) && m.Inner.Contains(m.T.Key(key))
}
