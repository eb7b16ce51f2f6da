package search

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// grid is a walker on a w x h grid: a state is a cell, a move steps to an
// orthogonal neighbour (labels 0..3: up, left, right, down), so distances are
// Manhattan distances and everything can be checked by hand.
type grid struct{ w, h int }

func (g grid) Successors(c int, dst []Step[int]) []Step[int] {
	x, y := c%g.w, c/g.w
	if y > 0 {
		dst = append(dst, Step[int]{c - g.w, 0})
	}
	if x > 0 {
		dst = append(dst, Step[int]{c - 1, 1})
	}
	if x < g.w-1 {
		dst = append(dst, Step[int]{c + 1, 2})
	}
	if y < g.h-1 {
		dst = append(dst, Step[int]{c + g.w, 3})
	}
	return dst
}

func (g grid) Hash(c int) uint64 { return uint64(c) }

func (g grid) manhattan(a, b int) int {
	return abs(a%g.w-b%g.w) + abs(a/g.w-b/g.w)
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// toGoal is the Manhattan distance to a fixed cell, as a Bound.
type toGoal struct {
	g    grid
	goal int
}

func (b toGoal) Root(c int) int                       { return b.g.manhattan(c, b.goal) }
func (b toGoal) Child(_ int, _ int, st Step[int]) int { return b.g.manhattan(st.State, b.goal) }

func checkPath(t *testing.T, g grid, r Result[int], from, to int) {
	t.Helper()
	require.Equal(t, len(r.Path), len(r.Moves)+1)
	assert.Equal(t, from, r.Path[0])
	assert.Equal(t, to, r.Path[len(r.Path)-1])
	for i, m := range r.Moves {
		found := false
		for _, st := range g.Successors(r.Path[i], nil) {
			if st.State == r.Path[i+1] {
				assert.Equal(t, st.Move, m, "label of move %d", i+1)
				found = true
			}
		}
		assert.True(t, found, "step %d is a move", i+1)
	}
}

func TestAllAlgorithmsOnGrid(t *testing.T) {
	g := grid{5, 4}
	for _, d := range []Dedup{Map, Open, Linear} {
		for from := 0; from < 20; from++ {
			for _, to := range []int{0, 7, 19} {
				want := g.manhattan(from, to)
				isGoal := func(c int) bool { return c == to }
				r, err := BFS[int](g, from, isGoal, Options{Dedup: d})
				require.NoError(t, err)
				assert.Equal(t, want, r.Length())
				checkPath(t, g, r, from, to)
				r, err = Bidirectional[int](g, from, to, Options{Dedup: d, NoUndo: true})
				require.NoError(t, err)
				assert.Equal(t, want, r.Length(), "bidir %d->%d %v", from, to, d)
				checkPath(t, g, r, from, to)
				for _, lb := range []Bound[int]{nil, toGoal{g, to}} {
					r, err = IterativeDeepening[int](g, from, isGoal, lb, DeepenOptions{NoUndo: true, MaxDepth: 10})
					require.NoError(t, err)
					assert.Equal(t, want, r.Length())
					checkPath(t, g, r, from, to)
				}
			}
		}
	}
}

func TestFarthestOnGrid(t *testing.T) {
	g := grid{5, 4}
	for _, d := range []Dedup{Map, Open, Linear} {
		l, err := Farthest[int](g, 0, Options{Dedup: d})
		require.NoError(t, err)
		assert.Equal(t, 7, l.Depth())
		assert.Equal(t, []int{19}, l.Farthest)
		assert.Equal(t, 20, l.Reached)
		assert.Equal(t, []int{1, 2, 3, 4, 4, 3, 2, 1}, l.Sizes)
		assert.Equal(t, 20, l.Work.Stored)
		assert.Equal(t, int64(20), l.Work.Expanded)
		// Every edge is looked at from both ends: 2 * (4*4 + 5*3).
		assert.Equal(t, int64(62), l.Work.Generated)
	}
	// From the centre of a 3x3 grid the corners are farthest.
	l, err := Farthest[int](grid{3, 3}, 4, Options{})
	require.NoError(t, err)
	assert.ElementsMatch(t, []int{0, 2, 6, 8}, l.Farthest)
}

func TestCountsAndLimits(t *testing.T) {
	g := grid{5, 4}
	isGoal := func(c int) bool { return c == 19 }
	r, err := BFS[int](g, 0, isGoal, Options{})
	require.NoError(t, err)
	assert.Equal(t, 20, r.Stored, "the goal is the last cell found")
	r0, err := BFS[int](g, 0, func(c int) bool { return c == 0 }, Options{})
	require.NoError(t, err)
	assert.Equal(t, 0, r0.Length())
	assert.Equal(t, int64(0), r0.Generated)

	_, err = BFS[int](g, 0, isGoal, Options{MaxStates: 5})
	assert.ErrorIs(t, err, ErrLimit)
	// A limit equal to the number of states is never exceeded.
	l, err := Farthest[int](g, 0, Options{MaxStates: 20})
	require.NoError(t, err)
	assert.Equal(t, 20, l.Reached)
	_, err = Farthest[int](g, 0, Options{MaxStates: 19})
	assert.ErrorIs(t, err, ErrLimit)
	_, err = BFS[int](g, 0, func(int) bool { return false }, Options{})
	assert.ErrorIs(t, err, ErrNotFound)
	_, err = IterativeDeepening[int](g, 0, isGoal, nil, DeepenOptions{MaxDepth: 6})
	assert.ErrorIs(t, err, ErrNotFound)
	_, err = IterativeDeepening[int](g, 0, isGoal, nil, DeepenOptions{MaxDepth: 20, MaxNodes: 10})
	assert.ErrorIs(t, err, ErrLimit)
	_, err = BFS[int](g, 0, isGoal, Options{Dedup: Dedup(9)})
	assert.Error(t, err)

	// NoUndo removes exactly the move back to the parent.
	a, err := Farthest[int](g, 0, Options{})
	require.NoError(t, err)
	b, err := Farthest[int](g, 0, Options{NoUndo: true})
	require.NoError(t, err)
	assert.Equal(t, a.Work.Generated-19, b.Work.Generated, "19 non-root states each skip one move")
	assert.Equal(t, a.Sizes, b.Sizes)

	// Iterative deepening counts: limits 0..7 from corner to corner.
	r, err = IterativeDeepening[int](g, 0, isGoal, toGoal{g, 19}, DeepenOptions{NoUndo: true, MaxDepth: 10})
	require.NoError(t, err)
	require.Len(t, r.Iterations, 1, "the bound is exact on an empty grid")
	assert.Equal(t, 7, r.Iterations[0].Limit)
}

func TestParseDedup(t *testing.T) {
	for _, d := range []Dedup{Map, Open, Linear} {
		got, err := ParseDedup(d.String())
		require.NoError(t, err)
		assert.Equal(t, d, got)
	}
	_, err := ParseDedup("tree")
	assert.Error(t, err)
	assert.Equal(t, "Dedup(7)", Dedup(7).String())
}

// TestOpenIndexGrows fills the open-addressing table well past its first
// size and reads every value back.
func TestOpenIndexGrows(t *testing.T) {
	o := newOpenIndex(func(k uint64) uint64 { return k }, 0)
	for i := 0; i < 5000; i++ {
		v, seen := o.findOrAdd(uint64(i)*16, int32(i))
		require.False(t, seen)
		require.Equal(t, int32(i), v)
	}
	for i := 0; i < 5000; i++ {
		v, seen := o.findOrAdd(uint64(i)*16, -7)
		require.True(t, seen)
		require.Equal(t, int32(i), v)
	}
	assert.Equal(t, 5000, o.count)
	assert.LessOrEqual(t, 2*o.count, len(o.slots))
}
