package gapset_test

import (
	"context"
	"fmt"

	"github.com/gapset/gapset/gapset"
)

// Enumerate the 8-puzzle's G0 (the boards whose optimum equals their
// Manhattan distance) and its projection onto the last 4 cells, the small
// relative of the paper's Gap0_8.
func ExampleSets() {
	sets, err := gapset.Sets(context.Background(), 3, 3, 0, []int{9, 4}, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("Gap0:", len(sets[9]), "boards")
	fmt.Println("Gap0_4:", len(sets[4]), "patterns")
	// Output:
	// Gap0: 2351 boards
	// Gap0_4: 489 patterns
}
