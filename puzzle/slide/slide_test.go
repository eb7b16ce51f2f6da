package slide

import (
	"math/rand/v2"
	"testing"

	"github.com/gapset/gapset/encode"
	"github.com/gapset/gapset/ida"
	"github.com/gapset/gapset/search"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// check replays the moves on the encode board (an implementation
// independent of this package) and compares each state.
func check(t *testing.T, p *Puzzle, r search.Result[State]) {
	t.Helper()
	require.Equal(t, len(r.Path), len(r.Moves)+1)
	b, err := p.Board(r.Path[0])
	require.NoError(t, err)
	for i, m := range r.Moves {
		require.NoError(t, b.Move(m), "move %d", i+1)
		require.Equal(t, r.Path[i+1], p.State(b), "after move %d", i+1)
	}
	require.True(t, b.IsGoal(), "ends at %s", b)
}

func TestSuccessorsMatchEncode(t *testing.T) {
	p, err := New(3, 3)
	require.NoError(t, err)
	rng := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < 200; i++ {
		b := encode.Random(rng, 3, 3)
		boards, tiles := b.Successors()
		got := p.Successors(p.State(b), nil)
		require.Len(t, got, len(boards))
		for k := range got {
			assert.Equal(t, p.State(boards[k]), got[k].State)
			assert.Equal(t, tiles[k], got[k].Move)
		}
		assert.Equal(t, b.Manhattan(), p.Manhattan().Root(p.State(b)))
	}
	_, err = New(5, 5)
	assert.ErrorIs(t, err, encode.ErrSize)
	for _, s := range [][2]int{{1 << 62, 4}, {1 << 32, 1 << 32}, {-4, -4}} { // products that wrap or turn positive
		_, err = New(s[0], s[1])
		assert.ErrorIs(t, err, encode.ErrSize, "%dx%d", s[0], s[1])
	}
}

// TestFarthest computes the farthest positions of the 2x3 and 3x3 boards
// and checks them against IDA* (package ida, an independent solver).
func TestFarthest(t *testing.T) {
	cases := []struct {
		rows, cols, reached, depth int
	}{
		{2, 3, 360, 21},
		{3, 3, 181440, 31},
	}
	for _, c := range cases {
		p, err := New(c.rows, c.cols)
		require.NoError(t, err)
		dedups := []search.Dedup{search.Map, search.Open}
		if c.reached < 1000 {
			dedups = append(dedups, search.Linear)
		}
		for _, d := range dedups {
			l, err := search.Farthest[State](p, p.Goal(), search.Options{Dedup: d})
			require.NoError(t, err)
			assert.Equal(t, c.reached, l.Reached, "%dx%d %v", c.rows, c.cols, d)
			assert.Equal(t, c.depth, l.Depth(), "%dx%d %v", c.rows, c.cols, d)
			for _, key := range l.Farthest {
				b, err := p.Board(key)
				require.NoError(t, err)
				res, err := ida.Solve(b, ida.Manhattan{}, ida.Options{})
				require.NoError(t, err)
				assert.Equal(t, c.depth, res.Length, "ida on %s", b)
			}
		}
	}
}

// TestLengthsAgree compares BFS, bidirectional BFS, iterative deepening with
// and without the Manhattan bound, and ida.Solve on random boards.
func TestLengthsAgree(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, size := range [][2]int{{2, 3}, {3, 3}} {
		p, err := New(size[0], size[1])
		require.NoError(t, err)
		goal := p.Goal()
		isGoal := func(k State) bool { return k == goal }
		for i := 0; i < 20; i++ {
			b := encode.Random(rng, size[0], size[1])
			want, err := ida.Solve(b, ida.Manhattan{}, ida.Options{})
			require.NoError(t, err)
			for _, d := range []search.Dedup{search.Map, search.Open} {
				r, err := search.BFS[State](p, p.State(b), isGoal, search.Options{Dedup: d})
				require.NoError(t, err)
				assert.Equal(t, want.Length, r.Length(), "bfs %s", b)
				check(t, p, r)
				r, err = search.Bidirectional[State](p, p.State(b), goal, search.Options{Dedup: d})
				require.NoError(t, err)
				assert.Equal(t, want.Length, r.Length(), "bidir %s", b)
				check(t, p, r)
			}
			r, err := search.IterativeDeepening[State](p, p.State(b), isGoal, p.Manhattan(), search.DeepenOptions{NoUndo: true, MaxDepth: 40})
			require.NoError(t, err)
			assert.Equal(t, want.Length, r.Length(), "id+md %s", b)
			check(t, p, r)
			// Manhattan distance changes by one per move, so depth + bound
			// changes by 0 or 2: the limits skip the hopeless odd passes,
			// as ida.Solve's do.
			require.Len(t, r.Iterations, len(want.Iterations), "%s", b)
			for k, it := range r.Iterations {
				assert.Equal(t, want.Iterations[k].Limit, it.Limit)
			}
			if want.Length <= 16 {
				r, err := search.IterativeDeepening[State](p, p.State(b), isGoal, nil, search.DeepenOptions{NoUndo: true, MaxDepth: 40})
				require.NoError(t, err)
				assert.Equal(t, want.Length, r.Length(), "id %s", b)
				check(t, p, r)
			}
		}
	}
}

// TestUnreachable: a key of the wrong parity half never reaches the goal.
func TestUnreachable(t *testing.T) {
	p, err := New(2, 3)
	require.NoError(t, err)
	bad := State{Key: 0x213450, Blank: 5} // 2 1 3 4 5 _: one swap away from the goal
	goal := p.Goal()
	r, err := search.BFS[State](p, bad, func(k State) bool { return k == goal }, search.Options{})
	assert.ErrorIs(t, err, search.ErrNotFound)
	assert.Equal(t, 360, r.Stored)
	_, err = search.Bidirectional[State](p, bad, goal, search.Options{Dedup: search.Open})
	assert.ErrorIs(t, err, search.ErrNotFound)
	_, err = search.IterativeDeepening[State](p, bad, func(k State) bool { return k == goal }, p.Manhattan(), search.DeepenOptions{NoUndo: true, MaxDepth: 25})
	assert.ErrorIs(t, err, search.ErrNotFound)
}

// walk returns the board n random moves from the goal (never undoing the
// last move).
func walk(rng *rand.Rand, rows, cols, n int) encode.Board {
	b := encode.Goal(rows, cols)
	last := -1
	for i := 0; i < n; i++ {
		boards, tiles := b.Successors()
		k := rng.IntN(len(boards))
		if tiles[k] == last {
			k = (k + 1) % len(boards)
		}
		b, last = boards[k], tiles[k]
	}
	return b
}

// TestSameSearchAsIDA: the generic iterative deepening with the Manhattan
// bound and the never-undo rule visits exactly the nodes of ida.Solve's
// specialised loop (same successor order, same counting), pass by pass, on
// 2x3, 3x3 and 4x4 boards.
func TestSameSearchAsIDA(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for _, c := range []struct{ rows, cols, walk int }{{2, 3, 40}, {3, 3, 60}, {4, 4, 36}} {
		p, err := New(c.rows, c.cols)
		require.NoError(t, err)
		goal := p.Goal()
		for i := 0; i < 8; i++ {
			b := walk(rng, c.rows, c.cols, c.walk)
			want, err := ida.Solve(b, ida.Manhattan{}, ida.Options{})
			require.NoError(t, err)
			got, err := search.IterativeDeepening[State](p, p.State(b), func(k State) bool { return k == goal }, p.Manhattan(), search.DeepenOptions{NoUndo: true, MaxDepth: 80})
			require.NoError(t, err)
			assert.Equal(t, want.Moves, got.Moves, "%s", b)
			require.Len(t, got.Iterations, len(want.Iterations), "%s", b)
			for k, it := range got.Iterations {
				w := want.Iterations[k]
				assert.Equal(t, search.Iteration{Limit: w.Limit, Expanded: w.Expanded, Generated: w.Generated}, it, "%s pass %d", b, k)
			}
		}
	}
}

// OneGoal reads a board of its size, names it in messages, refuses a
// board of another size and a hostile size.
func TestOneGoal(t *testing.T) {
	p, err := OneGoal(2, 3)
	require.NoError(t, err)
	assert.Equal(t, "board (6 numbers, blank 0)", p.What)
	s, err := p.Parse("1 2 3 4 0 5")
	require.NoError(t, err)
	rec, err := p.BFS(s, search.Options{})
	require.NoError(t, err)
	assert.Equal(t, 1, rec.Length)
	_, err = p.Parse("1 2 3 0")
	assert.Error(t, err)
	_, err = OneGoal(5, 5)
	assert.Error(t, err)
}
