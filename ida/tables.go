package ida

import "github.com/gapset/gapset/encode"

// tables are the per-size constants of the search loops: copies of the
// board model's tables (encode.Geometry) laid out as the loops read them,
// plus the move lists that depend on the search's undo rule.
type tables struct {
	rows, cols int
	nbrN       [encode.MaxCells]uint8
	nbr        [encode.MaxCells][4]uint8
	md         [encode.MaxCells][encode.MaxCells]int8 // md[tile][cell]
	// kids[blank][prev+1]: the cells the blank can move to from blank,
	// except prev (the cell it just left; prev = -1 at the root), unless
	// the tables keep undo moves.
	kids [encode.MaxCells][32]struct { // 32, not 17: a mask bounds the index
		n uint8
		c [4]uint8
	}
	// delta[tile][from][to]: change of Manhattan distance when tile moves
	// from cell from to the adjacent cell to.
	delta [encode.MaxCells][encode.MaxCells][encode.MaxCells]int8
	mul   [encode.MaxCells][encode.MaxCells]uint64 // encode.Geometry.Flip
	// ops[blank<<5 | prev+1] is kids[blank][prev+1] with each child's
	// row in dflat, off = c<<4 | blank, so that the explicit-stack loop
	// finds a move's Manhattan change at dflat[tile<<8 | off].
	ops   [encode.MaxCells * 32]mdOps
	dflat [encode.MaxCells * encode.MaxCells * encode.MaxCells]int8
}

// mdOps are the moves of the blank from one cell.
type mdOps struct {
	n      uint8
	c, off [4]uint8
}

// newTables takes an R x C board the caller has checked with
// encode.CheckSize.
func newTables(rows, cols int, keepUndo bool) *tables {
	g, err := encode.NewGeometry(rows, cols)
	if err != nil {
		panic(err) // Solve checks the size first
	}
	t := &tables{rows: rows, cols: cols, nbrN: g.NbrN, nbr: g.Nbr, md: g.Dist, delta: g.Delta, mul: g.Flip}
	for c := 0; c < g.N; c++ {
		for prev := -1; prev < g.N; prev++ {
			k := &t.kids[c][prev+1]
			for _, x := range g.Nbr[c][:g.NbrN[c]] {
				if int(x) != prev || keepUndo {
					k.c[k.n] = x
					k.n++
				}
			}
		}
	}
	for blank := 0; blank < g.N; blank++ {
		for p1 := 0; p1 <= g.N; p1++ {
			k, o := &t.kids[blank][p1], &t.ops[blank<<5|p1]
			o.n, o.c = k.n, k.c
			for i := range k.n {
				o.off[i] = k.c[i]<<4 | uint8(blank)
			}
		}
	}
	for tile := range g.N {
		for a := range g.N {
			for b := range g.N {
				t.dflat[tile<<8|a<<4|b] = t.delta[tile][a][b]
			}
		}
	}
	return t
}
