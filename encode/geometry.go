package encode

// Geometry is the move model of an R x C board, built once per size: which
// cells are adjacent, how far each tile stands from its goal cell, how a move
// changes that distance and how it changes the key. Every package that moves
// tiles (the solver, the enumerator, the generic puzzle, the pattern
// databases) reads these tables instead of working the board's shape out
// again; the arrays are fixed-size so that hot loops index them directly.
type Geometry struct {
	Rows, Cols, N int
	// Nbr[c][:NbrN[c]] are the cells adjacent to c, in Neighbors order
	// (up, left, right, down).
	NbrN [MaxCells]uint8
	Nbr  [MaxCells][4]uint8
	// Dist[t][c] is the Manhattan distance of tile t in cell c from its goal
	// cell t-1; row 0 (the blank) is all zero.
	Dist [MaxCells][MaxCells]int8
	// Delta[t][a][b] is Dist[t][b] - Dist[t][a] for adjacent cells a and b:
	// the change of Manhattan distance when tile t slides from a to b. It is
	// always +1 or -1 (0 for cells that are not adjacent).
	Delta [MaxCells][MaxCells][MaxCells]int8
	// Shift[c] is the bit offset of cell c's nibble in a key (cell 0 is the
	// most significant).
	Shift [MaxCells]uint8
	// A tile t sliding between cells a and b (one of them holding the blank)
	// changes the key by xor with t*Flip[a][b]: the blank's nibble is 0, so
	// the two nibbles never carry into each other.
	Flip [MaxCells][MaxCells]uint64
}

// NewGeometry returns the model of an R x C board.
func NewGeometry(rows, cols int) (*Geometry, error) {
	if err := CheckSize(rows, cols); err != nil {
		return nil, err
	}
	n := rows * cols
	g := &Geometry{Rows: rows, Cols: cols, N: n}
	for c := 0; c < n; c++ {
		nb := Neighbors(rows, cols, c)
		g.NbrN[c] = uint8(len(nb))
		for i, x := range nb {
			g.Nbr[c][i] = uint8(x)
		}
		g.Shift[c] = uint8(4 * (n - 1 - c))
	}
	for t := 1; t < n; t++ {
		for c := 0; c < n; c++ {
			g.Dist[t][c] = int8(distance(cols, t, c))
		}
	}
	for t := 1; t < n; t++ {
		for a := 0; a < n; a++ {
			for _, b := range g.Nbr[a][:g.NbrN[a]] {
				g.Delta[t][a][b] = g.Dist[t][b] - g.Dist[t][a]
			}
		}
	}
	for a := 0; a < n; a++ {
		for b := 0; b < n; b++ {
			g.Flip[a][b] = 1<<g.Shift[a] | 1<<g.Shift[b]
		}
	}
	return g, nil
}

// distance is the Manhattan distance of tile t (t >= 1) in cell c from its
// goal cell t-1 on a board cols wide.
func distance(cols, t, c int) int {
	h := t - 1
	return abs(c/cols-h/cols) + abs(c%cols-h%cols)
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// Manhattan returns the Manhattan distance of a key.
func (g *Geometry) Manhattan(key uint64) int {
	m := 0
	for c := 0; c < g.N; c++ {
		m += int(g.Dist[key>>g.Shift[c]&15][c])
	}
	return m
}

// KeyOf packs the tiles of a board, cell 0 first, into its key (see
// Board.Key).
func KeyOf(tiles []uint8) uint64 {
	var k uint64
	for _, t := range tiles {
		k = k<<4 | uint64(t)
	}
	return k
}
