package ida

import (
	"math/rand/v2"
	"testing"

	"github.com/gapset/gapset/encode"
	"github.com/gapset/gapset/internal/slowtest"
	"github.com/gapset/gapset/memset"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// boardTruth is every board of a small board's BFS with its gap, and the
// true sets of gap <= 2i for i = 0..4, made from the BFS alone.
type boardTruth struct {
	rows, cols int
	dist       map[uint64]int
	gap        map[uint64]int
	sets       [5][]uint64
}

func newBoardTruth(rows, cols int) *boardTruth {
	tr := &boardTruth{rows: rows, cols: cols, dist: encode.Distances(rows, cols), gap: map[uint64]int{}}
	for key, d := range tr.dist {
		b, _ := encode.FromKey(key, rows, cols)
		g := d - b.Manhattan()
		tr.gap[key] = g
		for i := range tr.sets {
			if g <= 2*i {
				tr.sets[i] = append(tr.sets[i], key)
			}
		}
	}
	return tr
}

func (tr *boardTruth) levels(n, k int) []Set {
	var out []Set
	for i := 0; i < n; i++ {
		out = append(out, memset.New(tr.sets[i], k))
	}
	return out
}

func (tr *boardTruth) position(key uint64) Position {
	b, _ := encode.FromKey(key, tr.rows, tr.cols)
	p := Position{Rows: tr.rows, Cols: tr.cols, MD: b.Manhattan(), Blank: b.Blank()}
	copy(p.Tiles[:], b.Tiles)
	return p
}

// h_G:2N for N up to 4 on every board of the 3x3 and 2x4 puzzles: the bound
// never exceeds the distance, equals min(distance, M + 2N + 2) with exact
// sets, and the oracle's answers are the bound's.
func TestGapUpTo8BoundOnEveryBoard(t *testing.T) {
	for _, sz := range [][2]int{{3, 3}, {2, 4}} {
		tr := newBoardTruth(sz[0], sz[1])
		n := sz[0] * sz[1]
		// gaps 6 and 8 exist on both boards, so every level matters
		require.Less(t, len(tr.sets[3]), len(tr.sets[4]))
		require.Less(t, len(tr.sets[4]), len(tr.dist))
		for _, levels := range []int{5} {
			for _, k := range []int{n, n - 2} {
				h := Gap{Levels: tr.levels(levels, k)}
				ev, err := h.NewEvaluator(sz[0], sz[1])
				require.NoError(t, err)
				or, err := h.NewOracle(sz[0], sz[1])
				require.NoError(t, err)
				top := 2 * levels
				require.Equal(t, top, or.Max())
				for key, d := range tr.dist {
					p := tr.position(key)
					got := ev.Root(&p)
					if got > d || got < p.MD {
						t.Fatalf("%dx%d levels %d cells %d: %#x bound %d, distance %d", sz[0], sz[1], levels, k, key, got, d)
					}
					ex := or.Excess(key)
					require.Equal(t, got-p.MD, ex)
					gap := tr.gap[key]
					if k == n {
						require.Equal(t, min(gap, top), ex, "exact levels %d: %#x", levels, key)
					}
					for slack := -1; slack <= top; slack++ {
						cut := or.Exceeds(key, slack)
						if cut && gap <= slack {
							t.Fatalf("oracle cuts %#x at slack %d but its gap is %d", key, slack, gap)
						}
						if k == n && slack < top {
							require.Equal(t, gap > slack, cut, "%#x slack %d", key, slack)
						}
					}
				}
			}
		}
	}
}

// Solving every 2x4 board and every 3x3 board (GAPSET_SLOW=1; by default one
// in 50) with h_G:8 gives the BFS lengths, with exact and projected levels;
// and levels that are supersets but not nested, and the search without
// skipping, on every fourth of those boards. With exact sets h_G:8 expands
// far fewer nodes than h_G:2.
func TestGap8SolvesOptimally(t *testing.T) {
	big := slowtest.On()
	for _, sz := range [][2]int{{2, 4}, {3, 3}} {
		tr := newBoardTruth(sz[0], sz[1])
		n := sz[0] * sz[1]
		rng := rand.New(rand.NewPCG(8, uint64(n)))
		// supersets that are not nested: each level gets its own random
		// extra boards, so a board may be in level 1 but not in level 2
		var loose []Set
		for i := range 5 {
			keys := append([]uint64(nil), tr.sets[i]...)
			for key := range tr.dist {
				if rng.IntN(4) == 0 {
					keys = append(keys, key)
				}
			}
			loose = append(loose, memset.New(dedupSorted(keys), n))
		}
		hs := []Heuristic{
			Gap{Levels: tr.levels(5, n)},
			Gap{Levels: tr.levels(5, n-3)},
			Gap{Levels: loose},
			Gap{Levels: tr.levels(5, n), NoSkip: true},
		}
		var nodes8, nodes2 int64
		h2 := Gap{Levels: tr.levels(2, n)}
		i := 0
		for key, d := range tr.dist {
			if n == 9 && !big && i%50 != 0 { // every 50th 3x3 board (map order: a random sample)
				i++
				continue
			}
			i++
			b, _ := encode.FromKey(key, sz[0], sz[1])
			for j, h := range hs {
				if j >= 2 && i%4 != 0 {
					break
				}
				r, err := Solve(b, h, Options{})
				require.NoError(t, err)
				require.Equal(t, d, r.Length, "%s with %s", b, h.Name())
				if j == 0 {
					nodes8 += r.Expanded
				}
			}
			r2, err := Solve(b, h2, Options{})
			require.NoError(t, err)
			nodes2 += r2.Expanded
		}
		assert.Less(t, nodes8, nodes2/2, "%dx%d: h_G:8 %d nodes, h_G:2 %d", sz[0], sz[1], nodes8, nodes2)
	}
}

func dedupSorted(keys []uint64) []uint64 {
	m := map[uint64]bool{}
	var out []uint64
	for _, k := range keys {
		if !m[k] {
			m[k] = true
			out = append(out, k)
		}
	}
	return out
}
