package ida_test

import (
	"fmt"

	"github.com/gapset/gapset/encode"
	"github.com/gapset/gapset/ida"
)

// Parse a board and solve it optimally. This 8-puzzle board is one of the
// two that need 31 moves, the most any 3x3 board needs.
func ExampleSolve() {
	b, err := encode.Parse("8 6 7 2 5 4 3 0 1", 3, 3)
	if err != nil {
		fmt.Println(err)
		return
	}
	res, err := ida.Solve(b, ida.Manhattan{}, ida.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	end, _ := b.Replay(res.Moves)
	fmt.Println("Manhattan distance:", b.Manhattan())
	fmt.Println("optimal length:", res.Length, "reaches the goal:", end.IsGoal())
	// Output:
	// Manhattan distance: 21
	// optimal length: 31 reaches the goal: true
}
