package memset_test

import (
	"fmt"

	"github.com/gapset/gapset/encode"
	"github.com/gapset/gapset/memset"
)

func board(s string) encode.Board {
	b, err := encode.Parse(s, 3, 3)
	if err != nil {
		panic(err)
	}
	return b
}

// A set on the last 2 cells of the 8-puzzle holding the goal's pattern
// there (tile 8, then the blank) answers for whole boards: every board
// ending in 8 and the blank is in it, whatever the other cells hold. The
// set looks at the last 2 cells, 4 bits each: the key's low byte.
func ExampleSet_Contains() {
	set := memset.New([]uint64{encode.Goal(3, 3).Key()}, 2)
	fmt.Println(set.Contains(board("1 2 3 4 5 6 7 8 0").Key()))
	fmt.Println(set.Contains(board("2 3 1 4 5 6 7 8 0").Key()))
	fmt.Println(set.Contains(board("1 2 3 4 5 6 7 0 8").Key()))
	fmt.Printf("%d pattern, mask %#x\n", set.Len(), set.Mask())
	// Output:
	// true
	// true
	// false
	// 1 pattern, mask 0xff
}

// Projected onto its last cell, the same set holds every board with the
// blank in the last cell: a cheap superset filter in front of it. Tiles 8,
// 6, 7 on cells 5, 6, 7 (a 3-cycle, so solvable) leave 7 before the blank:
// outside the set, inside its projection.
func ExampleSet_Project() {
	set := memset.New([]uint64{encode.Goal(3, 3).Key()}, 2)
	last, err := set.Project(1)
	if err != nil {
		fmt.Println(err)
		return
	}
	cycled := board("1 2 3 4 5 8 6 7 0").Key()
	fmt.Println(set.Contains(cycled), last.Contains(cycled))
	fmt.Println(last.Contains(board("1 2 3 4 5 6 7 0 8").Key()))
	fmt.Println(last.Len())
	// Output:
	// false true
	// false
	// 1
}
