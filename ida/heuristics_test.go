package ida

import (
	"math/rand/v2"
	"testing"

	"github.com/gapset/gapset/encode"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func position(b encode.Board) *Position {
	p := &Position{Rows: b.Rows, Cols: b.Cols, Blank: b.Blank(), MD: b.Manhattan()}
	copy(p.Tiles[:], b.Tiles)
	return p
}

// rootValue is the bound a heuristic gives a board.
func rootValue(t testing.TB, h Heuristic, b encode.Board) int {
	ev, err := h.NewEvaluator(b.Rows, b.Cols)
	require.NoError(t, err)
	if ev == nil {
		return b.Manhattan()
	}
	return ev.Root(position(b))
}

func newHeuristics() []Heuristic {
	return []Heuristic{
		LinearConflict{}, WalkingDistance{}, InversionDistance{},
		Max{Parts: []Heuristic{WalkingDistance{}, InversionDistance{}}},
		Max{Parts: []Heuristic{WalkingDistance{}, LinearConflict{}, InversionDistance{}}},
	}
}

func TestWDTableSize(t *testing.T) {
	// The 15-puzzle's vertical walking-distance graph has 24,964 states.
	assert.Len(t, getWDTable(4, 4).dist, 24964)
	maxd := 0
	for _, d := range getWDTable(4, 4).dist {
		maxd = max(maxd, int(d))
	}
	// The transposed goal needs WD 40, 20 per axis (the walking-distance
	// author's pages). The table's farthest state is 35 moves away, so WD
	// never exceeds 70, below the 15-puzzle's diameter of 80.
	b, err := encode.Parse("1 5 9 13 2 6 10 14 3 7 11 15 4 8 12 0", 4, 4)
	require.NoError(t, err)
	assert.Equal(t, 40, rootValue(t, WalkingDistance{}, b))
	assert.Equal(t, 35, maxd)
}

// On every reachable board of 2x3, 3x2 and 3x3: each heuristic is admissible
// (never above the BFS distance), at least Manhattan distance where it
// claims so, and the consistent ones change by at most 1 per move (what
// lower-bound-check skipping relies on).
func TestHeuristicsAdmissibleOnEverySmallBoard(t *testing.T) {
	for _, sz := range [][2]int{{2, 3}, {3, 2}, {3, 3}} {
		rows, cols := sz[0], sz[1]
		dist := encode.Distances(rows, cols)
		for _, h := range newHeuristics() {
			ev, err := h.NewEvaluator(rows, cols) // Root resets it: reused for speed
			require.NoError(t, err)
			value := func(b encode.Board) int { return ev.Root(position(b)) }
			tighter := 0
			for key, d := range dist {
				b, _ := encode.FromKey(key, rows, cols)
				v := value(b)
				if v > d {
					t.Fatalf("%s on %s: bound %d above distance %d", h.Name(), b, v, d)
				}
				if v > b.Manhattan() {
					tighter++
				}
				if _, ok := h.(InversionDistance); !ok && v < b.Manhattan() {
					t.Fatalf("%s on %s: bound %d below Manhattan %d", h.Name(), b, v, b.Manhattan())
				}
				if _, ok := h.(TrackerMaker); ok && key%7 == 0 {
					next, _ := b.Successors()
					for _, nb := range next {
						if dv := value(nb) - v; dv > 1 || dv < -1 {
							t.Fatalf("%s: %s -> %s changes by %d", h.Name(), b, nb, dv)
						}
					}
				}
			}
			if _, ok := h.(InversionDistance); !ok {
				assert.Greater(t, tighter, 0, "%s never beats Manhattan on %dx%d", h.Name(), rows, cols)
			}
		}
	}
}

// The incremental evaluators must agree with a fresh evaluation at every
// node of a random walk (Push/Pop bookkeeping), with skipping off.
func TestIncrementalMatchesFresh(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, sz := range [][2]int{{3, 3}, {4, 4}, {3, 4}} {
		rows, cols := sz[0], sz[1]
		for _, h := range []Heuristic{LinearConflict{}, WalkingDistance{NoSkip: true}, InversionDistance{NoSkip: true},
			Max{Parts: []Heuristic{WalkingDistance{}, InversionDistance{}}, NoSkip: true}} {
			b := encode.Random(rng, rows, cols)
			ev, err := h.NewEvaluator(rows, cols)
			require.NoError(t, err)
			p := position(b)
			ev.Root(p)
			type step struct {
				tile     uint8
				from, to int
			}
			var path []step
			for i := 0; i < 400; i++ {
				if len(path) > 0 && rng.IntN(3) == 0 { // back up one move
					s := path[len(path)-1]
					path = path[:len(path)-1]
					require.NoError(t, b.Move(int(s.tile)))
					p.Tiles[s.from], p.Tiles[s.to] = s.tile, 0
					p.Blank, p.MD, p.Depth = s.to, b.Manhattan(), p.Depth-1
					ev.Pop(p, s.tile, s.from, s.to)
					continue
				}
				_, tiles := b.Successors()
				tile := uint8(tiles[rng.IntN(len(tiles))])
				from := -1
				for c, x := range b.Tiles {
					if x == tile {
						from = c
					}
				}
				to := b.Blank()
				require.NoError(t, b.Move(int(tile)))
				p.Tiles[to], p.Tiles[from] = tile, 0
				p.Blank, p.MD, p.Depth = from, b.Manhattan(), p.Depth+1
				got := ev.Push(p, tile, from, to, 1<<30) // nothing cut: exact values
				require.Equal(t, rootValue(t, h, b), got, "%s after %d steps at %s", h.Name(), i, b)
				path = append(path, step{tile, from, to})
			}
		}
	}
}

func randomWalk(rng *rand.Rand, rows, cols, n int) encode.Board {
	b := encode.Goal(rows, cols)
	for j := 0; j < n; j++ {
		_, tiles := b.Successors()
		_ = b.Move(tiles[rng.IntN(len(tiles))])
	}
	return b
}

// IDA* with each heuristic finds the Manhattan-only optimum (3x3 boards, 4x4
// random walks, easy Korf instances), and lower-bound-check skipping changes
// neither nodes nor lengths.
func TestHeuristicsOptimalAndSkippingExact(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 9))
	var boards []encode.Board
	for i := 0; i < 80; i++ {
		boards = append(boards, encode.Random(rng, 3, 3))
	}
	for i := 0; i < 15; i++ {
		boards = append(boards, randomWalk(rng, 4, 4, 50+i))
	}
	for _, id := range []int{12, 42, 55, 79} {
		boards = append(boards, korf(t, id))
	}
	type pair struct{ skip, noSkip Heuristic }
	pairs := []pair{
		{WalkingDistance{}, WalkingDistance{NoSkip: true}},
		{InversionDistance{}, InversionDistance{NoSkip: true}},
		{Max{Parts: []Heuristic{WalkingDistance{}, InversionDistance{}}}, Max{Parts: []Heuristic{WalkingDistance{}, InversionDistance{}}, NoSkip: true}},
		{Max{Parts: []Heuristic{WalkingDistance{}, LinearConflict{}}}, Max{Parts: []Heuristic{WalkingDistance{NoSkip: true}, LinearConflict{}}}},
		{LinearConflict{}, LinearConflict{}},
	}
	skipped := map[string]int64{}
	for _, b := range boards {
		want, err := Solve(b, Manhattan{}, Options{})
		require.NoError(t, err)
		for _, pr := range pairs {
			a, err := Solve(b, pr.skip, Options{})
			require.NoError(t, err)
			require.Equal(t, want.Length, a.Length, "%s on %s", pr.skip.Name(), b)
			c, err := Solve(b, pr.noSkip, Options{})
			require.NoError(t, err)
			require.Equal(t, a.Length, c.Length)
			require.Equal(t, a.Iterations, c.Iterations, "%s on %s: skipping changed the search", pr.skip.Name(), b)
			for k, v := range a.Counters {
				skipped[pr.skip.Name()+" "+k] += v
			}
		}
	}
	for _, name := range []string{"wd skipped", "id skipped", "max(wd,id) skipped", "max(wd,lc) wd.skipped"} {
		assert.Greater(t, skipped[name], int64(0), name)
	}
	t.Logf("counters: %v", skipped)
}
