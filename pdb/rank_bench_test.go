package pdb

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/gapset/gapset/encode"
)

// BenchmarkRankValue is the placement rank as the lookup calls it from
// scratch: Value on random 4x4 boards ranks every group of a 3-3-3-3-3
// partition (tables small enough to stay in cache) directly and in the
// transpose, then sums the entries. The same before and after the ranking
// moved to internal/placement:
//
//	go test -run '^$' -bench RankValue -count 10 ./pdb/
func BenchmarkRankValue(b *testing.B) {
	part, err := ParsePartition("1,2,3/4,5,6/7,8,9/10,11,12/13,14,15", 4, 4)
	if err != nil {
		b.Fatal(err)
	}
	set, err := BuildSet(context.Background(), part, 1, nil)
	if err != nil {
		b.Fatal(err)
	}
	h := &Heuristic{DBs: set, Transpose: true}
	rng := rand.New(rand.NewPCG(13, 14))
	boards := make([]encode.Board, 1<<10)
	for i := range boards {
		boards[i] = encode.Random(rng, 4, 4)
	}
	sum := 0
	for i := 0; b.Loop(); i++ {
		v, err := h.Value(boards[i&(len(boards)-1)])
		if err != nil {
			b.Fatal(err)
		}
		sum += v
	}
	if sum == 0 {
		b.Fatal("no bounds")
	}
}
