package encode

import "fmt"

// Transposition maps an R x C board to its transpose, a C x R board: the
// tile in row r, column k goes to row k, column r, renamed to the tile
// whose home is the image of its own home. The goal (blank in the last
// cell) maps to the goal and every move to a move, so Manhattan distance
// and optimal length are preserved. Read on the R x C board, Cell is the
// column-major order; on a square board the transpose is the image in the
// main diagonal, a board of the same puzzle with the same gap.
type Transposition struct {
	Rows, Cols, N int // of the board mapped (the image is Cols x Rows)
	// Cell[c] is where cell c goes: its place in column-major order.
	Cell [MaxCells]uint8
	// Order[j] is the cell read j-th in column-major order (Order[Cell[c]]
	// = c).
	Order [MaxCells]uint8
	// Tile[t] is what tile t becomes (Tile[0] = 0: the blank stays blank).
	Tile  [MaxCells]uint8
	shift [MaxCells]uint8
}

// NewTransposition returns the transposition of an R x C board.
func NewTransposition(rows, cols int) (*Transposition, error) {
	if err := CheckSize(rows, cols); err != nil {
		return nil, err
	}
	n := rows * cols
	t := &Transposition{Rows: rows, Cols: cols, N: n}
	for c := 0; c < n; c++ {
		t.Cell[c] = uint8(c%cols*rows + c/cols)
		t.Order[t.Cell[c]] = uint8(c)
		t.shift[c] = uint8(4 * (n - 1 - c))
	}
	for v := 1; v < n; v++ {
		t.Tile[v] = t.Cell[v-1] + 1 // tile v's home v-1 goes to the home of tile Cell[v-1]+1
	}
	return t, nil
}

// NewSquareTransposition returns the transposition of a square board onto
// itself: its image in the main diagonal, a board of the same puzzle.
func NewSquareTransposition(rows, cols int) (*Transposition, error) {
	if rows != cols {
		return nil, fmt.Errorf("the transpose needs a square board, not %dx%d", rows, cols)
	}
	return NewTransposition(rows, cols)
}

// Key returns the key of the transposed board (a Cols x Rows key).
func (t *Transposition) Key(key uint64) uint64 {
	var out uint64
	for c := 0; c < t.N; c++ {
		v := key >> t.shift[c] & 15
		out |= uint64(t.Tile[v]) << t.shift[t.Cell[c]]
	}
	return out
}
