package bdd_test

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/gapset/gapset/bdd"
	"github.com/gapset/gapset/encode"
)

// Build the BDD of the 8-puzzle's G0 (the boards Manhattan distance solves
// exactly, found here by breadth-first search), save it, open the file and
// ask it about two boards.
func ExampleOpen() {
	dir, err := os.MkdirTemp("", "bdd-example")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer os.RemoveAll(dir)

	g0 := encode.GapKeys(3, 3, encode.Distances(3, 3), 0, 0)
	order, err := bdd.NamedOrder("natural", 3, 3, 9)
	if err != nil {
		fmt.Println(err)
		return
	}
	d, err := bdd.Build(g0, order, false)
	if err != nil {
		fmt.Println(err)
		return
	}
	path := filepath.Join(dir, "Gap0.bdd")
	if _, err := bdd.Save(path, d, bdd.Meta{Rows: 3, Cols: 3, Cells: 9}); err != nil {
		fmt.Println(err)
		return
	}

	set, err := bdd.Open(path)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(set.Info().Name(), "holds", set.Info().Count, "boards")
	// One move from the goal: Manhattan distance 1, solved in 1 move.
	near, _ := encode.Parse("1 2 3 4 5 6 7 0 8", 3, 3)
	// Needs 31 moves but has Manhattan distance 21: not in G0.
	far, _ := encode.Parse("8 6 7 2 5 4 3 0 1", 3, 3)
	fmt.Println(set.Contains(near.Key()), set.Contains(far.Key()))
	// Output:
	// Gap0 holds 2351 boards
	// true false
}
