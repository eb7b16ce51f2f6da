package ida

import (
	"math/rand/v2"
	"slices"
	"sync"
	"testing"

	"github.com/gapset/gapset/encode"
	"github.com/gapset/gapset/memset"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// truth3x3 is the exact BFS distance of every 3x3 board and the true gap sets
// (gap <= 2i) made from it, independent of any enumerator.
type truth3x3 struct {
	dist map[uint64]int
	gaps [3][]uint64 // gaps[i]: keys with distance <= M + 2i
}

var truthOnce = sync.OnceValue(func() *truth3x3 {
	tr := &truth3x3{dist: encode.Distances(3, 3)}
	for key, d := range tr.dist {
		b, _ := encode.FromKey(key, 3, 3)
		for i := range tr.gaps {
			if d <= b.Manhattan()+2*i {
				tr.gaps[i] = append(tr.gaps[i], key)
			}
		}
	}
	return tr
})

// levels returns the first n true gap sets projected onto the last k cells.
func (tr *truth3x3) levels(n, k int) []Set {
	var out []Set
	for i := 0; i < n; i++ {
		out = append(out, memset.New(tr.gaps[i], k))
	}
	return out
}

func TestTruthSetsOf3x3(t *testing.T) {
	tr := truthOnce()
	// G0 by definition contains the goal and every board one Manhattan
	// transition from it; each level contains the one below.
	assert.Contains(t, tr.gaps[0], encode.Goal(3, 3).Key())
	assert.Less(t, len(tr.gaps[0]), len(tr.gaps[1]))
	assert.Less(t, len(tr.gaps[1]), len(tr.gaps[2]))
	assert.Less(t, len(tr.gaps[2]), len(tr.dist))
}

// sample3x3 is a deterministic sample of 3x3 boards with their distances.
func sample3x3(tr *truth3x3, n int) ([]encode.Board, []int) {
	keys := make([]uint64, 0, len(tr.dist))
	for k := range tr.dist {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	rng := rand.New(rand.NewPCG(6, 6))
	rng.Shuffle(len(keys), func(i, j int) { keys[i], keys[j] = keys[j], keys[i] })
	var bs []encode.Board
	var ds []int
	for _, k := range keys[:n] {
		b, _ := encode.FromKey(k, 3, 3)
		bs = append(bs, b)
		ds = append(ds, tr.dist[k])
	}
	return bs, ds
}

// The bound never exceeds the true distance, on every 3x3 board, for exact
// and projected sets, with one to three levels; and it equals M + the true
// gap (capped) when the sets are exact.
func TestGapBoundIsAdmissibleOnEvery3x3Board(t *testing.T) {
	tr := truthOnce()
	for _, n := range []int{1, 2, 3} {
		for _, k := range []int{9, 4} {
			h := Gap{Levels: tr.levels(n, k)}
			ev, err := h.NewEvaluator(3, 3)
			require.NoError(t, err)
			for key, d := range tr.dist {
				b, _ := encode.FromKey(key, 3, 3)
				p := Position{Rows: 3, Cols: 3, MD: b.Manhattan(), Blank: b.Blank()}
				copy(p.Tiles[:], b.Tiles)
				got := ev.Root(&p)
				if got > d || got < p.MD {
					t.Fatalf("levels %d cells %d: %s bound %d, distance %d, M %d", n, k, b, got, d, p.MD)
				}
				if k == 9 {
					want := min(d, p.MD+2*n)
					if got != want {
						t.Fatalf("exact levels %d: %s bound %d, want %d", n, b, got, want)
					}
				}
			}
		}
	}
}

// Skipping changes neither the lengths nor the nodes, only the queries; and
// the lengths are the BFS distances.
func TestGapSolveOptimalAndSkippingChangesNoNode(t *testing.T) {
	tr := truthOnce()
	boards, dists := sample3x3(tr, 800)
	for _, n := range []int{1, 2} {
		for _, k := range []int{9, 5} {
			levels := tr.levels(n, k)
			var md, skipQ, fullQ, skipped int64
			for i, b := range boards {
				ref, err := Solve(b, Manhattan{}, Options{})
				require.NoError(t, err)
				full, err := Solve(b, Gap{Levels: levels, NoSkip: true}, Options{})
				require.NoError(t, err)
				skip, err := Solve(b, Gap{Levels: levels}, Options{})
				require.NoError(t, err)
				require.Equal(t, dists[i], full.Length, "%s", b)
				require.Equal(t, dists[i], skip.Length, "%s", b)
				require.Equal(t, full.Iterations, skip.Iterations, "levels %d cells %d %s", n, k, b)
				require.Equal(t, full.Moves, skip.Moves, "%s", b)
				require.LessOrEqual(t, full.Expanded, ref.Expanded, "%s", b)
				md += ref.Expanded
				fullQ += full.Counters["queries"]
				skipQ += skip.Counters["queries"]
				skipped += skip.Counters["skipped"]
				assert.Zero(t, full.Counters["skipped"])
			}
			assert.Less(t, skipQ, fullQ/2, "levels %d cells %d: skipping should save most queries", n, k)
			assert.Positive(t, skipped)
			t.Logf("levels %d cells %d: queries %d with skipping (%d skipped), %d without", n, k, skipQ, skipped, fullQ)
		}
	}
}

// Exact sets cut more than projected ones, and more levels cut more.
func TestGapSetsReduceNodes(t *testing.T) {
	tr := truthOnce()
	boards, _ := sample3x3(tr, 400)
	total := func(h Heuristic) int64 {
		var s int64
		for _, b := range boards {
			r, err := Solve(b, h, Options{})
			require.NoError(t, err)
			s += r.Expanded
		}
		return s
	}
	md := total(Manhattan{})
	g0 := total(Gap{Levels: tr.levels(1, 9)})
	g0p := total(Gap{Levels: tr.levels(1, 4)})
	g2 := total(Gap{Levels: tr.levels(2, 9)})
	t.Logf("nodes: md %d, gap0 %d, gap0_4 %d, gap2 %d", md, g0, g0p, g2)
	assert.Less(t, g0, md)
	assert.LessOrEqual(t, g0, g0p)
	assert.LessOrEqual(t, g0p, md)
	assert.Less(t, g2, g0)
}

func TestGapHeuristicNamesAndErrors(t *testing.T) {
	tr := truthOnce()
	assert.Equal(t, "gap0", Gap{Levels: tr.levels(1, 9)}.Name())
	assert.Equal(t, "gap2", Gap{Levels: tr.levels(2, 9)}.Name())
	assert.Equal(t, "x", Gap{Label: "x"}.Name())
	_, err := Gap{}.NewEvaluator(3, 3)
	assert.Error(t, err)
	_, err = Gap{Levels: []Set{nil}}.NewEvaluator(3, 3)
	assert.Error(t, err)
	_, err = Solve(encode.Goal(3, 3), Gap{}, Options{})
	assert.Error(t, err)
}

// The evaluator's incremental key follows the position through pushes and
// pops along a random walk.
func TestGapKeyFollowsThePath(t *testing.T) {
	ev, err := Gap{Levels: []Set{memset.New(nil, 8)}}.NewEvaluator(4, 4)
	require.NoError(t, err)
	ge := ev.(*gapEval)
	walkEvaluator(t, ev, 1, func(i int, p *Position) {
		require.Equal(t, p.Key(), ge.key, "step %d", i)
	})
}

// opaque hides the evaluator's type, so Solve runs the general loop.
type opaque struct{ h Heuristic }

func (o opaque) Name() string { return o.h.Name() }
func (o opaque) NewEvaluator(r, c int) (Evaluator, error) {
	ev, err := o.h.NewEvaluator(r, c)
	return opaqueEval{ev}, err
}

type opaqueEval struct{ Evaluator }

func (o opaqueEval) Counters() map[string]int64 { return o.Evaluator.(CounterReporter).Counters() }

// The specialised loop visits the same nodes, asks the same questions and
// finds the same solutions as the general Evaluator loop.
func TestGapLoopMatchesGeneralLoop(t *testing.T) {
	tr := truthOnce()
	boards, _ := sample3x3(tr, 300)
	for _, n := range []int{1, 2} {
		for _, v := range []struct{ noSkip, dense bool }{{false, false}, {false, true}, {true, true}} {
			h := Gap{Levels: tr.levels(n, 5), NoSkip: v.noSkip}
			if v.dense {
				for _, s := range h.Levels {
					d, err := s.(*memset.Set).Project(3)
					require.NoError(t, err)
					h.Dense = append(h.Dense, []BitTable{d})
				}
			}
			for _, b := range boards {
				fast, err := Solve(b, h, Options{})
				require.NoError(t, err)
				gen, err := Solve(b, opaque{h}, Options{})
				require.NoError(t, err)
				require.Equal(t, gen.Iterations, fast.Iterations, "%s", b)
				require.Equal(t, gen.Moves, fast.Moves, "%s", b)
				require.Equal(t, gen.Counters, fast.Counters, "%s", b)
			}
		}
	}
}

// A filter (the level's own projection) changes no node and no answer; it
// only answers some questions in place of the full set.
func TestGapFiltersChangeNothingButLookups(t *testing.T) {
	tr := truthOnce()
	boards, dists := sample3x3(tr, 300)
	full := tr.levels(2, 9)
	filters := tr.levels(2, 4)
	var vetoed int64
	for i, b := range boards {
		plain, err := Solve(b, Gap{Levels: full}, Options{})
		require.NoError(t, err)
		filt, err := Solve(b, Gap{Levels: full, Filters: filters}, Options{})
		require.NoError(t, err)
		require.Equal(t, dists[i], filt.Length)
		require.Equal(t, plain.Iterations, filt.Iterations, "%s", b)
		require.Equal(t, plain.Counters["queries"], filt.Counters["queries"])
		vetoed += filt.Counters["filtered"]
	}
	assert.Positive(t, vetoed)
	_, err := Gap{Levels: full, Filters: filters[:1]}.NewEvaluator(3, 3)
	assert.Error(t, err)
}

// Dense tables in front of the levels answer some questions "no" without
// the sets, and change nothing else: the same nodes, counts and lengths.
func TestGapDenseTablesChangeNothingButLookups(t *testing.T) {
	tr := truthOnce()
	boards, dists := sample3x3(tr, 300)
	full := tr.levels(2, 9)
	var dense [][]BitTable
	for _, s := range full {
		var tabs []BitTable
		for _, k := range []int{2, 4} {
			d, err := s.(*memset.Set).Project(k)
			require.NoError(t, err)
			tabs = append(tabs, d)
		}
		dense = append(dense, tabs)
	}
	var denied int64
	for i, b := range boards {
		plain, err := Solve(b, Gap{Levels: full}, Options{})
		require.NoError(t, err)
		withDense, err := Solve(b, Gap{Levels: full, Dense: dense}, Options{})
		require.NoError(t, err)
		require.Equal(t, dists[i], withDense.Length)
		require.Equal(t, plain.Expanded, withDense.Expanded, "%s", b)
		require.Equal(t, plain.Generated, withDense.Generated, "%s", b)
		require.Equal(t, plain.Counters["queries"], withDense.Counters["queries"])
		denied += withDense.Counters["dense_no"]
	}
	assert.Positive(t, denied)
	_, err := Gap{Levels: full, Dense: dense[:1]}.NewEvaluator(3, 3)
	assert.Error(t, err)
}

// With AllSolutions the last iteration runs to its end and counts every
// optimal solution: exactly the number of shortest paths, counted here on
// the BFS distances, for Manhattan (fast loop), h_G:2 (gap loop), h_G with
// a dense table (one-level loop) and the general loop; the first solution
// is still optimal and replayed.
func TestAllSolutionsCountsEveryShortestPath(t *testing.T) {
	tr := truthOnce()
	paths := map[uint64]int64{}
	var count func(b encode.Board) int64
	count = func(b encode.Board) int64 {
		k := b.Key()
		if n, ok := paths[k]; ok {
			return n
		}
		var n int64
		if tr.dist[k] == 0 {
			n = 1
		}
		next, _ := b.Successors()
		for _, s := range next {
			if tr.dist[s.Key()] == tr.dist[k]-1 {
				n += count(s)
			}
		}
		paths[k] = n
		return n
	}
	boards, dists := sample3x3(tr, 60)
	gap := Gap{Levels: tr.levels(2, 9)}
	hg := Gap{Levels: tr.levels(1, 9)}
	d, err := hg.Levels[0].(*memset.Set).Project(3)
	require.NoError(t, err)
	hg.Dense = [][]BitTable{{d}} // the one-level loop
	var many int
	for i, b := range boards {
		want := count(b)
		if want > 1 {
			many++
		}
		for _, h := range []Heuristic{Manhattan{}, gap, opaque{gap}, hg} {
			first, err := Solve(b, h, Options{})
			require.NoError(t, err)
			all, err := Solve(b, h, Options{AllSolutions: true})
			require.NoError(t, err)
			require.Equal(t, dists[i], all.Length, "%s %s", h.Name(), b)
			require.Equal(t, want, all.Solutions, "%s %s", h.Name(), b)
			require.Equal(t, int64(1), first.Solutions)
			require.GreaterOrEqual(t, all.Expanded, first.Expanded)
			require.Equal(t, first.Moves, all.Moves, "the first solution is kept")
		}
	}
	assert.Greater(t, many, 30, "boards with several optimal solutions")
}

// KeepUndo generates more nodes but finds the same optimal solutions, in
// all three loops.
func TestKeepUndoSameSolutions(t *testing.T) {
	tr := truthOnce()
	boards, dists := sample3x3(tr, 40)
	gap := Gap{Levels: tr.levels(2, 9)}
	for i, b := range boards {
		for _, h := range []Heuristic{Manhattan{}, gap, opaque{gap}} {
			pruned, err := Solve(b, h, Options{AllSolutions: true})
			require.NoError(t, err)
			kept, err := Solve(b, h, Options{AllSolutions: true, KeepUndo: true})
			require.NoError(t, err)
			require.Equal(t, dists[i], kept.Length)
			require.Equal(t, pruned.Solutions, kept.Solutions, "%s %s", h.Name(), b)
			if dists[i] > 2 {
				require.Greater(t, kept.Generated, pruned.Generated, "%s %s", h.Name(), b)
			}
		}
	}
}
