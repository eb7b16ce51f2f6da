package ida

import "github.com/gapset/gapset/encode"

// tables are the per-size constants of the search loops: copies of the
// board model's tables (encode.Geometry) laid out as the loops read them,
// plus the move lists that depend on the search's undo rule.
type tables struct {
	rows, cols int
	nbrN       [encode.MaxCells]uint8
	nbr        [encode.MaxCells][4]uint8
	// nbrDir[c][i] is the direction (dirUp ... dirDown) of the blank's
	// move from c to nbr[c][i], for the duplicate-move automaton.
	nbrDir [encode.MaxCells][4]uint8
	md     [encode.MaxCells][encode.MaxCells]int8 // md[tile][cell]
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
	mul   [encode.MaxCells][encode.MaxCells]uint64 // encode.Geometry.Flip
	// dpair[from][to][tile] = delta[tile][from][to]: one row per move,
	// for the generated 4x4 loop (md4_gen.go).
	dpair [encode.MaxCells][encode.MaxCells][encode.MaxCells]int8
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
		for i, x := range g.Nbr[c][:g.NbrN[c]] {
			t.nbrDir[c][i] = direction(cols, c, int(x))
		}
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
	for tile := range g.N {
		for a := range g.N {
			for b := range g.N {
				t.dpair[a][b][tile] = t.delta[tile][a][b]
			}
		}
	}
	return t
}

// direction is the direction of the blank's move from cell a to the
// adjacent cell b on a board cols wide.
func direction(cols, a, b int) uint8 {
	switch b - a {
	case -cols:
		return dirUp
	case -1:
		return dirLeft
	case 1:
		return dirRight
	}
	return dirDown
}
