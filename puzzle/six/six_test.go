package six

import (
	"sort"
	"testing"

	"github.com/gapset/gapset/search"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var dedups = []search.Dedup{search.Map, search.Open, search.Linear}

// replay checks that moves lead from start through path to the goal.
func replay(t *testing.T, start Board, path []Board, moves []int) {
	t.Helper()
	require.Equal(t, len(path), len(moves)+1)
	require.Equal(t, start, path[0])
	b := start
	for i, m := range moves {
		var err error
		b, err = b.Move(m)
		require.NoError(t, err, "move %d", i+1)
		require.Equal(t, path[i+1], b, "after move %d", i+1)
	}
	require.Equal(t, Goal(), b)
}

func isGoal(b Board) bool { return b == Goal() }

func TestParse(t *testing.T) {
	b, err := Parse("(1 5 2 6 3 4 0)")
	require.NoError(t, err)
	assert.Equal(t, "(1 5 2 6 3 4 0)", b.String())
	assert.Equal(t, 6, b.Blank())
	assert.Equal(t, []int{1, 5, 2, 6, 3, 4, 0}, b.Pieces())
	g, err := Parse("1 2 3 4 5 6 0")
	require.NoError(t, err)
	assert.Equal(t, g, Goal())
	b2, err := Parse("1,5,2,6,3,4,0")
	require.NoError(t, err)
	assert.Equal(t, b, b2)

	for in, want := range map[string]error{
		"1 2 3 4 5 6":     ErrCount,
		"1 2 3 4 5 6 0 0": ErrCount,
		"1 2 3 4 5 6 7":   ErrSymbol,
		"1 2 3 4 5 x 0":   ErrSymbol,
		"1 2 3 4 5 5 0":   ErrRepeat,
		"":                ErrCount,
	} {
		_, err := Parse(in)
		assert.ErrorIs(t, err, want, "%q", in)
	}
}

func TestMoveAndSuccessors(t *testing.T) {
	g := Goal()
	succ := Puzzle{}.Successors(g, nil)
	require.Len(t, succ, 3) // position 6 touches 3, 4 and 5
	var got []string
	for _, st := range succ {
		got = append(got, st.State.String())
		back, err := st.State.Move(st.Move)
		require.NoError(t, err)
		assert.Equal(t, g, back, "moving the same piece again undoes the move")
	}
	assert.Equal(t, []string{"(1 2 3 0 5 6 4)", "(1 2 3 4 0 6 5)", "(1 2 3 4 5 0 6)"}, got)
	_, err := g.Move(1)
	assert.Error(t, err)
}

func TestDistancesFromGraph(t *testing.T) {
	d := Distances()
	// The page's table, row per piece, column per position.
	seed := [Cells][Cells]int{
		1: {0, 1, 1, 1, 2, 2, 2},
		2: {1, 0, 2, 1, 1, 2, 2},
		3: {1, 2, 0, 1, 2, 1, 2},
		4: {1, 1, 1, 0, 1, 1, 1},
		5: {2, 1, 2, 1, 0, 2, 1},
		6: {2, 2, 1, 1, 2, 0, 1},
	}
	lb := NewBound()
	for p := 1; p < Cells; p++ {
		for c := 0; c < Cells; c++ {
			assert.Equal(t, seed[p][c], lb.Cost(p, c), "piece %d at %d", p, c)
			assert.Equal(t, d[c][p-1], d[p-1][c])
		}
	}
	assert.Equal(t, 10, lb.Root(MustParse("4 6 5 1 3 2 0")), "the page's bound of its hardest start")
}

func TestBFSSolvesSeedBoard(t *testing.T) {
	start := MustParse("1 5 2 6 3 4 0")
	for _, d := range dedups {
		r, err := search.BFS[Board](Puzzle{}, start, isGoal, search.Options{Dedup: d})
		require.NoError(t, err, d)
		assert.Equal(t, 11, r.Length(), d)
		replay(t, start, r.Path, r.Moves)
		// Same order as the page: its queue's last slot is number 2818.
		assert.Equal(t, 2819, r.Stored, d)
		// The page's printed path, state by state.
		assert.Equal(t, "(2 5 1 3 0 4 6)", r.Path[5].String())

		rb, err := search.Bidirectional[Board](Puzzle{}, start, Goal(), search.Options{Dedup: d})
		require.NoError(t, err, d)
		assert.Equal(t, 11, rb.Length(), d)
		replay(t, start, rb.Path, rb.Moves)
		assert.Equal(t, 342, rb.Stored, d)
		assert.Less(t, rb.Generated*10, r.Generated, "bidirectional search does a tenth of the work")
	}
}

func TestFarthest(t *testing.T) {
	for _, d := range dedups {
		for _, noUndo := range []bool{false, true} {
			l, err := search.Farthest[Board](Puzzle{}, Goal(), search.Options{Dedup: d, NoUndo: noUndo})
			require.NoError(t, err)
			assert.Equal(t, 15, l.Depth())
			assert.Len(t, l.Farthest, 24)
			assert.Equal(t, 5040, l.Reached)
			sum := 0
			for _, n := range l.Sizes {
				sum += n
			}
			assert.Equal(t, 5040, sum)
			var names []string
			for _, b := range l.Farthest {
				names = append(names, b.String())
			}
			assert.Contains(t, names, "(4 6 5 1 3 2 0)")
			assert.Contains(t, names, "(2 1 5 4 3 0 6)")
		}
	}
}

// TestDistancesAgree checks every arrangement: the BFS layer of each from
// the goal equals the length found by BFS, bidirectional BFS and iterative
// deepening with the bound from it (the graph is undirected).
func TestDistancesAgree(t *testing.T) {
	layer := map[Board]int{Goal(): 0}
	frontier := []Board{Goal()}
	for d := 1; len(frontier) > 0; d++ {
		var next []Board
		for _, b := range frontier {
			for _, st := range (Puzzle{}).Successors(b, nil) {
				if _, ok := layer[st.State]; !ok {
					layer[st.State] = d
					next = append(next, st.State)
				}
			}
		}
		frontier = next
	}
	require.Len(t, layer, 5040)
	var boards []Board
	for b := range layer {
		boards = append(boards, b)
	}
	sort.Slice(boards, func(i, j int) bool { return boards[i] < boards[j] })
	lb := NewBound()
	for i, b := range boards {
		assert.LessOrEqual(t, lb.Root(b), layer[b], "bound admissible at %s", b)
		if i%7 != 0 { // every seventh keeps the test fast
			continue
		}
		rb, err := search.Bidirectional[Board](Puzzle{}, b, Goal(), search.Options{})
		require.NoError(t, err)
		assert.Equal(t, layer[b], rb.Length(), "bidirectional %s", b)
		replay(t, b, rb.Path, rb.Moves)
		ri, err := search.IterativeDeepening[Board](Puzzle{}, b, isGoal, lb, search.DeepenOptions{NoUndo: true, MaxDepth: 20})
		require.NoError(t, err)
		assert.Equal(t, layer[b], ri.Length(), "ida %s", b)
		replay(t, b, ri.Path, ri.Moves)
	}
}

func TestIterativeDeepening(t *testing.T) {
	start := MustParse("4 6 5 1 3 2 0")
	plain, err := search.IterativeDeepening[Board](Puzzle{}, start, isGoal, nil, search.DeepenOptions{NoUndo: true, MaxDepth: 20})
	require.NoError(t, err)
	assert.Equal(t, 15, plain.Length())
	replay(t, start, plain.Path, plain.Moves)
	require.Len(t, plain.Iterations, 16) // limits 0..15

	bounded, err := search.IterativeDeepening[Board](Puzzle{}, start, isGoal, NewBound(), search.DeepenOptions{NoUndo: true, MaxDepth: 20})
	require.NoError(t, err)
	assert.Equal(t, 15, bounded.Length())
	replay(t, start, bounded.Path, bounded.Moves)
	assert.Equal(t, 10, bounded.Iterations[0].Limit, "the limit starts at the bound")
	// Both find the page's solution (the same search order).
	assert.Equal(t, []int{1, 3, 1, 2, 5, 3, 6, 1, 2, 5, 6, 4, 1, 2, 5}, plain.Moves)
	assert.Equal(t, plain.Moves, bounded.Moves)
	assert.Greater(t, plain.Generated, 1000*bounded.Generated, "the bound cuts the work by over 1000x")

	_, err = search.IterativeDeepening[Board](Puzzle{}, start, isGoal, NewBound(), search.DeepenOptions{NoUndo: true, MaxDepth: 14})
	assert.ErrorIs(t, err, search.ErrNotFound)
	_, err = search.IterativeDeepening[Board](Puzzle{}, start, isGoal, nil, search.DeepenOptions{NoUndo: true, MaxDepth: 20, MaxNodes: 1000})
	assert.ErrorIs(t, err, search.ErrLimit)
}

// FuzzParse: Parse never panics, and what it accepts prints and parses back
// to the same board, a permutation of 0..6.
func FuzzParse(f *testing.F) {
	for _, s := range []string{"(1 5 2 6 3 4 0)", "1,2,3,4,5,6,0", "1 2 3", "", "((((", "-1 2 3 4 5 6 0", "9999999999999999999 1 2 3 4 5 0"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		b, err := Parse(s)
		if err != nil {
			return
		}
		back, err := Parse(b.String())
		require.NoError(t, err)
		require.Equal(t, b, back)
		seen := map[int]bool{}
		for _, p := range b.Pieces() {
			seen[p] = true
		}
		require.Len(t, seen, Cells)
		require.Equal(t, 0, int(b.At(b.Blank())))
	})
}
