package search_test

import (
	"fmt"

	"github.com/gapset/gapset/search"
)

// doubling is a number puzzle: from n, add one (move 1) or double (move 2),
// never beyond max.
type doubling struct{ max int }

func (d doubling) Successors(n int, dst []search.Step[int]) []search.Step[int] {
	if n+1 <= d.max {
		dst = append(dst, search.Step[int]{State: n + 1, Move: 1})
	}
	if 2*n <= d.max {
		dst = append(dst, search.Step[int]{State: 2 * n, Move: 2})
	}
	return dst
}

func (doubling) Hash(n int) uint64 { return uint64(n) }

// From 1 to 10: the states one, two and three moves away are {2}, {3, 4}
// and {5, 6, 8}, so four moves are needed; 10 is 5 doubled, 5 is 4 plus
// one, 4 is 2 doubled, and 2 is first reached by adding one (the first
// successor listed).
func ExampleBFS() {
	res, err := search.BFS[int](doubling{max: 100}, 1, func(n int) bool { return n == 10 }, search.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(res.Length(), res.Path, res.Moves)
	// Output: 4 [1 2 4 5 10] [1 2 1 2]
}

// ring is a cycle of n states; a move steps to either neighbour.
type ring int

func (r ring) Successors(s int, dst []search.Step[int]) []search.Step[int] {
	n := int(r)
	return append(dst, search.Step[int]{State: (s + 1) % n, Move: 1}, search.Step[int]{State: (s + n - 1) % n, Move: -1})
}

func (ring) Hash(s int) uint64 { return uint64(s) }

// On a cycle of 6 the farthest state from 0 is the opposite one, 3 moves
// away; the layers hold 1, 2, 2 and 1 states.
func ExampleFarthest() {
	l, err := search.Farthest[int](ring(6), 0, search.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(l.Depth(), l.Sizes, l.Farthest, l.Reached)
	// Output: 3 [1 2 2 1] [3] 6
}
