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
func check(t *testing.T, p *Puzzle, r search.Result[uint64]) {
	t.Helper()
	require.Equal(t, len(r.Path), len(r.Moves)+1)
	b, err := p.Board(r.Path[0])
	require.NoError(t, err)
	for i, m := range r.Moves {
		require.NoError(t, b.Move(m), "move %d", i+1)
		require.Equal(t, r.Path[i+1], b.Key(), "after move %d", i+1)
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
		got := p.Successors(b.Key(), nil)
		require.Len(t, got, len(boards))
		for k := range got {
			assert.Equal(t, boards[k].Key(), got[k].State)
			assert.Equal(t, tiles[k], got[k].Move)
		}
		assert.Equal(t, b.Manhattan(), p.Manhattan().Root(b.Key()))
	}
	_, err = New(5, 5)
	assert.ErrorIs(t, err, encode.ErrSize)
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
			l, err := search.Farthest[uint64](p, p.Goal(), search.Options{Dedup: d})
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
		isGoal := func(k uint64) bool { return k == goal }
		for i := 0; i < 20; i++ {
			b := encode.Random(rng, size[0], size[1])
			want, err := ida.Solve(b, ida.Manhattan{}, ida.Options{})
			require.NoError(t, err)
			for _, d := range []search.Dedup{search.Map, search.Open} {
				r, err := search.BFS[uint64](p, b.Key(), isGoal, search.Options{Dedup: d})
				require.NoError(t, err)
				assert.Equal(t, want.Length, r.Length(), "bfs %s", b)
				check(t, p, r)
				r, err = search.Bidirectional[uint64](p, b.Key(), goal, search.Options{Dedup: d})
				require.NoError(t, err)
				assert.Equal(t, want.Length, r.Length(), "bidir %s", b)
				check(t, p, r)
			}
			r, err := search.IterativeDeepening[uint64](p, b.Key(), isGoal, p.Manhattan(), search.DeepenOptions{NoUndo: true, MaxDepth: 40})
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
				r, err := search.IterativeDeepening[uint64](p, b.Key(), isGoal, nil, search.DeepenOptions{NoUndo: true, MaxDepth: 40})
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
	bad := uint64(0x213450) // 2 1 3 4 5 _: one swap away from the goal
	goal := p.Goal()
	r, err := search.BFS[uint64](p, bad, func(k uint64) bool { return k == goal }, search.Options{})
	assert.ErrorIs(t, err, search.ErrNotFound)
	assert.Equal(t, 360, r.Stored)
	_, err = search.Bidirectional[uint64](p, bad, goal, search.Options{Dedup: search.Open})
	assert.ErrorIs(t, err, search.ErrNotFound)
	_, err = search.IterativeDeepening[uint64](p, bad, func(k uint64) bool { return k == goal }, p.Manhattan(), search.DeepenOptions{NoUndo: true, MaxDepth: 25})
	assert.ErrorIs(t, err, search.ErrNotFound)
}
