package pdb

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/gapset/gapset/data"
	"github.com/gapset/gapset/encode"
	"github.com/gapset/gapset/ida"
)

// Prefetching changes no decision: the same lengths, moves, nodes and
// iterations with and without it, in every loop that evaluates through a
// tracker (plain, BPMX, the automaton, two threads with every solution, a
// max of two sets) on 4x4 boards, and with the dual lookups on 3x3.
func TestPrefetchSameSearch(t *testing.T) {
	s555 := buildSet(t, "5-5-5", 4, 4)
	s663 := buildSet(t, "6-6-3", 4, 4)
	fsm := ida.DefaultFSM()
	opts := map[string]ida.Options{
		"plain":   {},
		"bpmx":    {BPMX: true},
		"fsm":     {FSM: fsm},
		"threads": {Threads: 2, AllSolutions: true},
	}
	heur := func(noPF bool) map[string]ida.Heuristic {
		return map[string]ida.Heuristic{
			"555":     &Heuristic{DBs: s555, Transpose: true, NoPrefetch: noPF},
			"555-dir": &Heuristic{DBs: s555, NoPrefetch: noPF},
			"max": ida.Max{Parts: []ida.Heuristic{
				&Heuristic{DBs: s555, Transpose: true, NoPrefetch: noPF},
				&Heuristic{DBs: s663, Transpose: true, NoPrefetch: noPF}}},
		}
	}
	on, off := heur(false), heur(true)
	for _, id := range korfQuick {
		b := data.KorfInstance(id).Board
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
			a, err := ida.Solve(b, &Heuristic{DBs: set, Transpose: true, Dual: true}, o)
			require.NoError(t, err)
			z, err := ida.Solve(b, &Heuristic{DBs: set, Transpose: true, Dual: true, NoPrefetch: true}, o)
			require.NoError(t, err)
			require.Equal(t, d, a.Length)
			require.Equal(t, z.Expanded, a.Expanded, "%s", b)
			require.Equal(t, z.Iterations, a.Iterations, "%s", b)
		}
	}
}
