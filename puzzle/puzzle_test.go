package puzzle_test

import (
	"testing"

	"github.com/gapset/gapset/puzzle"
	"github.com/gapset/gapset/puzzle/report"
	"github.com/gapset/gapset/puzzle/six"
	"github.com/gapset/gapset/search"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func sixPuzzle() puzzle.OneGoal[six.Board] { return six.OneGoal() }

// Every method finds the same optimal length and fills its record.
func TestOneGoalMethodsAgree(t *testing.T) {
	p := sixPuzzle()
	start := six.MustParse("1 5 2 6 3 4 0")
	opt := search.Options{Dedup: search.Open, NoUndo: true}
	bfs, err := p.BFS(start, opt)
	require.NoError(t, err)
	bidir, err := p.Bidirectional(start, opt)
	require.NoError(t, err)
	deep, err := p.Deepen(start, false, search.DeepenOptions{MaxDepth: 20, NoUndo: true})
	require.NoError(t, err)
	bound, err := p.Deepen(start, true, search.DeepenOptions{MaxDepth: 20, NoUndo: true})
	require.NoError(t, err)
	for _, rec := range []struct {
		method string
		length int
	}{{"bfs", bfs.Length}, {"bidir", bidir.Length}, {"iterative-deepening", deep.Length}, {"iterative-deepening", bound.Length}} {
		assert.Equal(t, 11, rec.length, rec.method)
	}
	assert.Equal(t, "bfs", bfs.Method)
	assert.Equal(t, "bidir", bidir.Method)
	assert.Equal(t, "open", bfs.Dedup)
	assert.True(t, bfs.NoUndo)
	assert.Equal(t, "(1 2 3 4 5 6 0)", bfs.Goal)
	assert.Equal(t, "(1 5 2 6 3 4 0)", bfs.Start)
	require.NotNil(t, bound.LowerBound)
	assert.True(t, *bound.LowerBound)
	assert.False(t, *deep.LowerBound)
	assert.Less(t, bound.Expanded, deep.Expanded, "the bound prunes")
}

func TestOneGoalFarthestAndLimits(t *testing.T) {
	p := sixPuzzle()
	far, err := p.Farthest(search.Options{})
	require.NoError(t, err)
	assert.Equal(t, 15, far.Depth)
	assert.Equal(t, 5040, far.Reached)
	_, err = p.Farthest(search.Options{MaxStates: 100})
	assert.ErrorIs(t, err, search.ErrLimit)
	_, err = p.Deepen(six.MustParse("4 6 5 1 3 2 0"), true, search.DeepenOptions{MaxDepth: 12})
	assert.ErrorIs(t, err, search.ErrNotFound)
	_, err = p.BFS(six.MustParse("4 6 5 1 3 2 0"), search.Options{MaxStates: 10})
	assert.ErrorIs(t, err, search.ErrLimit)
}

// Run runs each of Methods as the method of its name does.
func TestOneGoalRun(t *testing.T) {
	p := sixPuzzle()
	start, err := p.Parse("1 5 2 6 3 4 0")
	require.NoError(t, err)
	opt, dopt := search.Options{Dedup: search.Open}, search.DeepenOptions{MaxDepth: 20, NoUndo: true}
	bfs, err := p.BFS(start, opt)
	require.NoError(t, err)
	bidir, err := p.Bidirectional(start, opt)
	require.NoError(t, err)
	far, err := p.Farthest(opt)
	require.NoError(t, err)
	deep, err := p.Deepen(start, true, dopt)
	require.NoError(t, err)
	untimed := func(r puzzle.Record) puzzle.Record {
		switch v := r.(type) {
		case report.Path:
			v.Seconds = 0
			return v
		case report.Farthest:
			v.Seconds = 0
			return v
		}
		return r
	}
	for i, want := range []puzzle.Record{bfs, bidir, far, deep} {
		got, err := p.Run(puzzle.Methods[i], start, opt, dopt, true)
		require.NoError(t, err, puzzle.Methods[i])
		assert.Equal(t, untimed(want), untimed(got), puzzle.Methods[i])
	}
}
