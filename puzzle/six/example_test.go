package six_test

import (
	"fmt"

	"github.com/gapset/gapset/puzzle/six"
	"github.com/gapset/gapset/search"
)

// Solving the pages' board three ways with the generic search core.
func Example() {
	start := six.MustParse("(1 5 2 6 3 4 0)")
	goal := six.Goal()
	isGoal := func(b six.Board) bool { return b == goal }

	bfs, _ := search.BFS[six.Board](six.Puzzle{}, start, isGoal, search.Options{Dedup: search.Open})
	bidir, _ := search.Bidirectional[six.Board](six.Puzzle{}, start, goal, search.Options{})
	ida, _ := search.IterativeDeepening[six.Board](six.Puzzle{}, start, isGoal, six.NewBound(), search.DeepenOptions{NoUndo: true, MaxDepth: 20})
	fmt.Println(bfs.Length(), bidir.Length(), ida.Length())
	fmt.Println(bfs.Moves)
	// Output:
	// 11 11 11
	// [6 1 2 1 3 5 2 1 3 4 6]
}
