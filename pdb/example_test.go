package pdb_test

import (
	"context"
	"fmt"

	"github.com/gapset/gapset/encode"
	"github.com/gapset/gapset/ida"
	"github.com/gapset/gapset/pdb"
)

// A group of k tiles on n cells has n!/(n-k)! placements, one entry each:
// 9*8*7*6 for a 4-tile group of the 8-puzzle, 16!/8! for the 8-tile group
// of the 15-puzzle's 7-8 partition.
func ExampleEntries() {
	fmt.Println(pdb.Entries(9, 4), pdb.Entries(16, 8))
	// Output: 3024 518918400
}

// The 4-4 databases of the 8-puzzle, built in memory, solve one of its two
// hardest positions (31 moves, the 8-puzzle's diameter). Their bound lies
// between the board's Manhattan distance (21: the eight tiles are 3, 2,
// 4, 2, 0, 2, 4 and 4 moves from home) and the optimum.
func Example() {
	part, err := pdb.ParsePartition("4-4", 3, 3)
	if err != nil {
		fmt.Println(err)
		return
	}
	set, err := pdb.BuildSet(context.Background(), part, 1, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	h := &pdb.Heuristic{DBs: set}
	hard, err := encode.Parse("8 6 7 2 5 4 3 0 1", 3, 3)
	if err != nil {
		fmt.Println(err)
		return
	}
	bound, err := h.Value(hard)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("21 <= bound <= 31:", 21 <= bound && bound <= 31)
	res, err := ida.Solve(hard, h, ida.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("length", res.Length)
	// Output:
	// 21 <= bound <= 31: true
	// length 31
}
