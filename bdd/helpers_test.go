package bdd

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/gapset/gapset/encode"
)

// sets3x3 computes, by breadth-first search from the goal, the 3x3 gap
// sets: G0 (distance == Manhattan) and gap at most 2, as full keys.
func sets3x3(t testing.TB) (g0, g2 []uint64) {
	t.Helper()
	goal := encode.Goal(3, 3)
	dist := map[uint64]int{goal.Key(): 0}
	queue := []encode.Board{goal}
	for len(queue) > 0 {
		b := queue[0]
		queue = queue[1:]
		d := dist[b.Key()]
		next, _ := b.Successors()
		for _, s := range next {
			if _, ok := dist[s.Key()]; !ok {
				dist[s.Key()] = d + 1
				queue = append(queue, s)
			}
		}
	}
	if len(dist) != 181440 {
		t.Fatalf("BFS reached %d boards", len(dist))
	}
	for k, d := range dist {
		b, err := encode.FromKey(k, 3, 3)
		if err != nil {
			t.Fatal(err)
		}
		m := b.Manhattan()
		if d == m {
			g0 = append(g0, k)
		}
		if d <= m+2 {
			g2 = append(g2, k)
		}
	}
	slices.Sort(g0)
	slices.Sort(g2)
	return g0, g2
}

// project keeps the last k cells and removes duplicates.
func project(keys []uint64, k int) []uint64 {
	out := make([]uint64, len(keys))
	for i, key := range keys {
		out[i] = encode.Project(key, k)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// randomKeys returns n distinct random boards' keys of a rows x cols board,
// projected onto k cells, sorted.
func randomKeys(rng *rand.Rand, rows, cols, k, n int) []uint64 {
	seen := map[uint64]bool{}
	for len(seen) < n {
		seen[encode.Project(encode.Random(rng, rows, cols).Key(), k)] = true
	}
	var out []uint64
	for key := range seen {
		out = append(out, key)
	}
	slices.Sort(out)
	return out
}

func member(sorted []uint64, key uint64) bool {
	_, ok := slices.BinarySearch(sorted, key)
	return ok
}
