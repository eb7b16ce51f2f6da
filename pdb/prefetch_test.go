package pdb

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gapset/gapset/encode"
	"github.com/gapset/gapset/ida"
)

// After Prefetch, each child's bound read through the prefetched indices is
// the bound a fresh tracker computes on the child's board, and Move finds
// the prefetched child (the path is taken).
func TestPrefetchedBoundsMatchFresh(t *testing.T) {
	set := buildSet(t, "5-5-5", 4, 4)
	rng := rand.New(rand.NewPCG(7, 7))
	geo, err := encode.NewGeometry(4, 4)
	require.NoError(t, err)
	hits := 0
	for _, refl := range []bool{false, true} {
		h := &Heuristic{Set: set, Reflect: refl}
		tr, err := h.NewTracker(4, 4)
		require.NoError(t, err)
		pt := tr.(*tracker)
		fresh, err := h.NewTracker(4, 4)
		require.NoError(t, err)
		for i := 0; i < 300; i++ {
			b := encode.Goal(4, 4)
			for j := 0; j < 80; j++ {
				_, tiles := b.Successors()
				require.NoError(t, b.Move(tiles[rng.IntN(len(tiles))]))
			}
			p := position(b)
			pt.Reset(&p)
			pt.Bound(&p, 1<<30)
			cs := geo.Nbr[p.Blank][:geo.NbrN[p.Blank]]
			pt.Prefetch(&p, cs)
			for _, c := range cs {
				tile, blank := p.Tiles[c], p.Blank
				q := p
				q.Tiles[blank], q.Tiles[c] = tile, 0
				q.Blank, q.Depth = int(c), 1
				q.MD = b.Manhattan() // not read by the tracker
				pt.Move(&q, tile, int(c), blank)
				if pt.pre[1].hit != 0 {
					hits++
				}
				got := pt.Bound(&q, 1<<30)
				root := q
				root.Depth = 0
				fresh.Reset(&root)
				require.Equal(t, fresh.Bound(&root, 1<<30), got, "reflect %v, %s, tile %d", refl, b, tile)
				pt.Undo(&p, tile, int(c), blank)
			}
		}
	}
	assert.Greater(t, hits, 1000)
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
