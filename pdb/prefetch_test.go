package pdb

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/gapset/gapset/encode"
	"github.com/gapset/gapset/ida"
)

// The ranks the tracker keeps move by move (and Prefetch reads for the
// children) equal the ranks computed from the cells, direct and mirrored,
// along random walks that go down and back up, and every bound on the way
// equals a fresh tracker's on the same board.
func TestTrackedRanksMatchFresh(t *testing.T) {
	for _, c := range []struct {
		part       string
		rows, cols int
	}{{"5-5-5", 4, 4}, {"3-5", 3, 3}, {"1,5/2,3,6/4,7,8", 3, 3}} {
		set := buildSet(t, c.part, c.rows, c.cols)
		geo, err := encode.NewGeometry(c.rows, c.cols)
		require.NoError(t, err)
		rng := rand.New(rand.NewPCG(7, 7))
		for _, refl := range []bool{false, true} {
			h := &Heuristic{Set: set, Reflect: refl, Dual: refl}
			tr, err := h.NewTracker(c.rows, c.cols)
			require.NoError(t, err)
			pt := tr.(*tracker)
			fresh, err := h.NewTracker(c.rows, c.cols)
			require.NoError(t, err)
			for walk := 0; walk < 40; walk++ {
				b := encode.Goal(c.rows, c.cols)
				for j := 0; j < 50; j++ {
					_, tiles := b.Successors()
					require.NoError(t, b.Move(tiles[rng.IntN(len(tiles))]))
				}
				p := position(b)
				pt.Reset(&p)
				type step struct {
					tile     uint8
					from, to int
				}
				var path []step
				for k := 0; k < 200; k++ {
					if len(path) > 0 && rng.IntN(3) == 0 { // back up one move
						st := path[len(path)-1]
						path = path[:len(path)-1]
						p.Tiles[st.from], p.Tiles[st.to] = st.tile, 0
						p.Blank = st.to
						p.Depth--
						pt.Undo(&p, st.tile, st.from, st.to)
					} else {
						blank := p.Blank
						cs := geo.Nbr[blank][:geo.NbrN[blank]]
						from := int(cs[rng.IntN(len(cs))])
						tile := p.Tiles[from]
						g := int(pt.grpOf[tile])
						want := pt.rk[g] + pt.rankDelta(g, int(pt.idxIn[tile]), from, blank, &p.Tiles)
						p.Tiles[blank], p.Tiles[from] = tile, 0
						p.Blank = from
						p.Depth++
						pt.Move(&p, tile, from, blank)
						require.Equal(t, want, pt.rk[g])
						path = append(path, step{tile, from, blank})
					}
					for g := range pt.groups {
						require.Equal(t, pt.index(g, &pt.pos), pt.rk[g], "%s group %d", c.part, g)
						require.Equal(t, pt.index(g, &pt.rpos), pt.rr[g], "%s mirrored group %d", c.part, g)
					}
					root := p
					root.Depth = 0
					fresh.Reset(&root)
					require.Equal(t, fresh.Bound(&root, 1<<30), pt.Bound(&p, 1<<30), "%s reflect %v", c.part, refl)
				}
			}
		}
	}
}

// position is the solver's view of board b at the root.
func position(b encode.Board) ida.Position {
	p := ida.Position{Rows: b.Rows, Cols: b.Cols, Blank: b.Blank(), MD: b.Manhattan()}
	copy(p.Tiles[:], b.Tiles)
	return p
}

// Prefetching changes no decision: the same lengths, moves, nodes and
// iterations with and without it, in every loop that evaluates through a
// tracker (plain, BPMX, the automaton, two threads with every solution, a
// max of two sets) on 4x4 boards, and with the dual lookups on 3x3.
func TestPrefetchSameSearch(t *testing.T) {
	s555 := buildSet(t, "5-5-5", 4, 4)
	s663 := buildSet(t, "6-6-3", 4, 4)
	insts := korf(t)
	fsm := ida.DefaultFSM()
	opts := map[string]ida.Options{
		"plain":   {},
		"bpmx":    {BPMX: true},
		"fsm":     {FSM: fsm},
		"threads": {Threads: 2, AllSolutions: true},
	}
	heur := func(noPF bool) map[string]ida.Heuristic {
		return map[string]ida.Heuristic{
			"555":     &Heuristic{Set: s555, Reflect: true, NoPrefetch: noPF},
			"555-dir": &Heuristic{Set: s555, NoPrefetch: noPF},
			"max": ida.Max{Parts: []ida.Heuristic{
				&Heuristic{Set: s555, Reflect: true, NoPrefetch: noPF},
				&Heuristic{Set: s663, Reflect: true, NoPrefetch: noPF}}},
		}
	}
	on, off := heur(false), heur(true)
	for _, id := range []int{12, 42, 55, 79, 97} {
		b := insts[id-1].Board
		for on1, o := range opts {
			for name := range on {
				a, err := ida.Solve(b, on[name], o)
				require.NoError(t, err)
				z, err := ida.Solve(b, off[name], o)
				require.NoError(t, err)
				require.Equal(t, z.Length, a.Length, "korf %d %s %s", id, name, on1)
				require.Equal(t, z.Iterations, a.Iterations, "korf %d %s %s", id, name, on1)
				if o.Threads <= 1 {
					require.Equal(t, z.Moves, a.Moves, "korf %d %s %s", id, name, on1)
					require.Equal(t, z.Expanded, a.Expanded, "korf %d %s %s", id, name, on1)
				}
			}
		}
	}
	// the dual lookups (not prefetched) beside the prefetched direct ones
	set := buildSet(t, "3-5", 3, 3)
	dist := encode.Distances(3, 3)
	n := 0
	for key, d := range dist {
		if n++; n%97 != 0 {
			continue
		}
		b, _ := encode.FromKey(key, 3, 3)
		for _, o := range []ida.Options{{}, {BPMX: true}} {
			a, err := ida.Solve(b, &Heuristic{Set: set, Reflect: true, Dual: true}, o)
			require.NoError(t, err)
			z, err := ida.Solve(b, &Heuristic{Set: set, Reflect: true, Dual: true, NoPrefetch: true}, o)
			require.NoError(t, err)
			require.Equal(t, d, a.Length)
			require.Equal(t, z.Expanded, a.Expanded, "%s", b)
			require.Equal(t, z.Iterations, a.Iterations, "%s", b)
		}
	}
}
