package ida

import "github.com/gapset/gapset/encode"

// tables are the per-size constants of the search loops.
type tables struct {
	rows, cols int
	nbrN       [encode.MaxCells]uint8
	nbr        [encode.MaxCells][4]uint8
	md         [encode.MaxCells][encode.MaxCells]int8 // md[tile][cell]
	// kids[blank][prev+1]: the cells the blank can move to from blank,
	// except prev (the cell it just left; prev = -1 at the root), unless
	// the tables keep undo moves.
	kids [encode.MaxCells][encode.MaxCells + 1]struct {
		n uint8
		c [4]uint8
	}
	// delta[tile][from][to]: change of Manhattan distance when tile moves
	// from cell from to the adjacent cell to.
	delta [encode.MaxCells][encode.MaxCells][encode.MaxCells]int8
	mul   [encode.MaxCells][encode.MaxCells]uint64 // keyFlips
}

func newTables(rows, cols int, keepUndo bool) *tables {
	t := &tables{rows: rows, cols: cols}
	n := rows * cols
	for c := 0; c < n; c++ {
		nb := encode.Neighbors(rows, cols, c)
		t.nbrN[c] = uint8(len(nb))
		for i, x := range nb {
			t.nbr[c][i] = uint8(x)
		}
	}
	for c := 0; c < n; c++ {
		for prev := -1; prev < n; prev++ {
			k := &t.kids[c][prev+1]
			for _, x := range encode.Neighbors(rows, cols, c) {
				if x != prev || keepUndo {
					k.c[k.n] = uint8(x)
					k.n++
				}
			}
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
	t.mul = keyFlips(n)
	return t
}

// keyFlips gives, for a board of n cells, the multipliers by which a tile
// t moving between cells a and c flips Position.Key: the key changes by
// t*flips[a][c] (xor), because the blank's nibble is 0 and the two nibbles
// never carry into each other.
func keyFlips(n int) (flips [encode.MaxCells][encode.MaxCells]uint64) {
	for a := 0; a < n; a++ {
		for c := 0; c < n; c++ {
			flips[a][c] = 1<<(4*(n-1-a)) | 1<<(4*(n-1-c))
		}
	}
	return flips
}

func absInt(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
