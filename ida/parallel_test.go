package ida

import (
	"context"
	"errors"
	"testing"

	"github.com/gapset/gapset/data"
	"github.com/gapset/gapset/encode"
	"github.com/gapset/gapset/memset"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// With several threads every 3x3 board gets its BFS distance, with a
// replayed solution (Solve replays it), and every iteration before the last
// expands exactly the sequential search's nodes. An eighth of the boards
// and the farthest by default, all with GAPSET_SLOW=1 (searchedBoards).
func TestParallelOptimalOnEvery3x3Board(t *testing.T) {
	if testing.Short() {
		t.Skip("181,440 boards")
	}
	keys, dist := searchedBoards(3, 3)
	for _, key := range keys {
		d := dist[key]
		b, err := encode.FromKey(key, 3, 3)
		require.NoError(t, err)
		par, err := Solve(b, Manhattan{}, Options{Threads: 2, splitMin: -1})
		require.NoError(t, err)
		if par.Length != d {
			t.Fatalf("%s: parallel length %d, BFS distance %d", b, par.Length, d)
		}
	}
}

// parallelHeuristics are the loops a parallel search runs below its
// frontier: Manhattan, one gap level with dense tables, two levels, and
// the general Evaluator loop.
func parallelHeuristics(t *testing.T) []Heuristic {
	tr := truthOnce()
	hg := Gap{Levels: tr.levels(1, 9)}
	d, err := hg.Levels[0].(*memset.Set).Project(3)
	require.NoError(t, err)
	hg.Dense = [][]BitTable{{d}}
	gap := Gap{Levels: tr.levels(2, 5)}
	return []Heuristic{Manhattan{}, hg, gap, opaque{gap}, Max{Parts: []Heuristic{WalkingDistance{}, LinearConflict{}}}}
}

// With AllSolutions nothing depends on which worker is first: the nodes of
// every iteration, the number of optimal solutions and (for the loops that
// follow no path with the evaluator) the counters equal the sequential
// search's, for 2 and 3 threads; only the memos' hits differ (each worker
// has its own).
func TestParallelAllSolutionsMatchesSequential(t *testing.T) {
	tr := truthOnce()
	boards, dists := sample3x3(tr, 60)
	for _, h := range parallelHeuristics(t) {
		for i, b := range boards {
			seq, err := Solve(b, h, Options{AllSolutions: true})
			require.NoError(t, err)
			for _, n := range []int{2, 3} {
				par, err := Solve(b, h, Options{AllSolutions: true, Threads: n, splitMin: -1})
				require.NoError(t, err)
				require.Equal(t, dists[i], par.Length, "%s %s", h.Name(), b)
				require.Equal(t, seq.Iterations, par.Iterations, "%s %s threads %d", h.Name(), b, n)
				require.Equal(t, seq.Solutions, par.Solutions, "%s %s", h.Name(), b)
				if _, general := h.(opaque); !general && h.Name() != "max(wd,lc)" {
					delete(seq.Counters, "memo_hits")
					delete(par.Counters, "memo_hits")
					require.Equal(t, seq.Counters, par.Counters, "%s %s", h.Name(), b)
				}
			}
		}
	}
}

// Stopping at the first goal: the length is the optimum and every
// iteration but the last is the sequential one.
func TestParallelFirstSolution(t *testing.T) {
	tr := truthOnce()
	boards, dists := sample3x3(tr, 100)
	for _, h := range parallelHeuristics(t) {
		for i, b := range boards {
			seq, err := Solve(b, h, Options{})
			require.NoError(t, err)
			par, err := Solve(b, h, Options{Threads: 2, splitMin: -1})
			require.NoError(t, err)
			require.Equal(t, dists[i], par.Length, "%s %s", h.Name(), b)
			require.Equal(t, int64(1), par.Solutions)
			k := len(seq.Iterations) - 1
			require.Len(t, par.Iterations, k+1)
			require.Equal(t, seq.Iterations[:k], par.Iterations[:k], "%s %s", h.Name(), b)
			require.Equal(t, seq.Iterations[k].Limit, par.Iterations[k].Limit)
		}
	}
}

// Korf instances: the published lengths with two threads, and the nodes of
// the iterations before the last unchanged.
func TestParallelKorf(t *testing.T) {
	for _, id := range []int{12, 55, 79} {
		b := korf(t, id)
		seq, err := Solve(b, Manhattan{}, Options{})
		require.NoError(t, err)
		par, err := Solve(b, Manhattan{}, Options{Threads: 2, splitMin: -1})
		require.NoError(t, err)
		assert.Equal(t, data.KorfLength(id), par.Length, "korf %d", id)
		k := len(seq.Iterations) - 1
		assert.Equal(t, seq.Iterations[:k], par.Iterations[:k], "korf %d", id)
		// by default the first iterations, below splitNodes, run alone
		def, err := Solve(b, Manhattan{}, Options{Threads: 2})
		require.NoError(t, err)
		assert.Equal(t, data.KorfLength(id), def.Length, "korf %d", id)
		assert.Equal(t, seq.Iterations[:k], def.Iterations[:k], "korf %d", id)
	}
	// a search that never reaches splitNodes is the sequential search, to
	// the last node
	b, err := encode.Parse("8 6 7 2 5 4 3 0 1", 3, 3)
	require.NoError(t, err)
	seq, err := Solve(b, Manhattan{}, Options{})
	require.NoError(t, err)
	require.Less(t, seq.Expanded, int64(splitNodes))
	def, err := Solve(b, Manhattan{}, Options{Threads: 2})
	require.NoError(t, err)
	assert.Equal(t, seq.Iterations, def.Iterations)
	assert.Equal(t, seq.Moves, def.Moves)
}

func TestParallelNodeLimitAndCancel(t *testing.T) {
	res, err := Solve(korf(t, 1), Manhattan{}, Options{MaxNodes: 1 << 20, Threads: 2})
	assert.True(t, errors.Is(err, ErrNodeLimit), "%v", err)
	assert.GreaterOrEqual(t, res.Expanded, int64(1<<20), "the work done before giving up is reported")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err = Solve(korf(t, 1), Manhattan{}, Options{Context: ctx, Threads: 2})
	assert.ErrorIs(t, err, context.Canceled)
	res, err = Solve(encode.Goal(4, 4), Manhattan{}, Options{Threads: 2})
	require.NoError(t, err)
	assert.Zero(t, res.Length)
}
