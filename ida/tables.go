package ida

import "github.com/gapset/gapset/encode"

// tables are the per-size constants of the search loops.
type tables struct {
	rows, cols int
	nbrN       [encode.MaxCells]uint8
	nbr        [encode.MaxCells][4]uint8
	md         [encode.MaxCells][encode.MaxCells]int8 // md[tile][cell]
	// delta[tile][from][to]: change of Manhattan distance when tile moves
	// from cell from to the adjacent cell to.
	delta [encode.MaxCells][encode.MaxCells][encode.MaxCells]int8
}

func newTables(rows, cols int) *tables {
	t := &tables{rows: rows, cols: cols}
	n := rows * cols
	for c := 0; c < n; c++ {
		nb := encode.Neighbors(rows, cols, c)
		t.nbrN[c] = uint8(len(nb))
		for i, x := range nb {
			t.nbr[c][i] = uint8(x)
		}
	}
	for tile := 1; tile < n; tile++ {
		home := tile - 1
		for c := 0; c < n; c++ {
			t.md[tile][c] = int8(absInt(c/cols-home/cols) + absInt(c%cols-home%cols))
		}
	}
	for tile := 1; tile < n; tile++ {
		for a := 0; a < n; a++ {
			for _, b := range encode.Neighbors(rows, cols, a) {
				t.delta[tile][a][b] = t.md[tile][b] - t.md[tile][a]
			}
		}
	}
	return t
}

func absInt(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
