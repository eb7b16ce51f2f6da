package bdd

import (
	"math/rand/v2"
	"slices"
	"sync"
	"testing"

	"github.com/gapset/gapset/encode"
)

// sets3x3 computes, by breadth-first search from the goal, the 3x3 gap
// sets: G0 (distance == Manhattan) and gap at most 2, as full keys. The
// search runs once per test binary; callers must not modify the slices.
func sets3x3(t testing.TB) (g0, g2 []uint64) {
	t.Helper()
	cached3x3.once.Do(func() { cached3x3.g0, cached3x3.g2 = bfs3x3(t) })
	return cached3x3.g0, cached3x3.g2
}

var cached3x3 struct {
	once   sync.Once
	g0, g2 []uint64
}

func bfs3x3(t testing.TB) (g0, g2 []uint64) {
	dist := encode.Distances(3, 3)
	if len(dist) != 181440 {
		t.Fatalf("BFS reached %d boards", len(dist))
	}
	return encode.GapKeys(3, 3, dist, 0, 0), encode.GapKeys(3, 3, dist, 0, 2)
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
