package memset

import (
	"math/rand/v2"
	"testing"

	"github.com/gapset/gapset/encode"
)

// BenchmarkRankedContains is the placement rank as a ranked set's lookup
// calls it: Contains on random 4x4 boards, the set on the last 6 cells (a
// 0.7 MB table, so the rank, not the memory, is timed). The benchmark is
// the same before and after the ranking moved to internal/placement:
//
//	go test -run '^$' -bench RankedContains -count 10 ./memset/
func BenchmarkRankedContains(b *testing.B) {
	r, err := NewRanked(16, 6)
	if err != nil {
		b.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(7, 8))
	probes := make([]uint64, 1<<12)
	for i := range probes {
		probes[i] = encode.Random(rng, 4, 4).Key()
		if i%2 == 0 {
			r.Add(probes[i])
		}
	}
	hits := 0
	for i := 0; b.Loop(); i++ {
		if r.Contains(probes[i&(len(probes)-1)]) {
			hits++
		}
	}
	if hits == 0 {
		b.Fatal("no hits")
	}
}
