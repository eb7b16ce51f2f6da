package bdd

import (
	"math/rand/v2"
	"testing"

	"github.com/gapset/gapset/encode"
)

// BenchmarkRankKey is the placement ranking as the ranks encodings call
// it, on random 4x4 boards (the last 12 cells), both directions and the
// inverse. The same before and after the ranking moved to
// internal/placement:
//
//	go test -run '^$' -bench RankKey -count 10 ./bdd/
func BenchmarkRankKey(b *testing.B) {
	rng := rand.New(rand.NewPCG(9, 10))
	keys := make([]uint64, 1<<12)
	for i := range keys {
		keys[i] = encode.Random(rng, 4, 4).Key()
	}
	var sink uint64
	b.Run("forward", func(b *testing.B) {
		for i := 0; b.Loop(); i++ {
			sink += RankKey(keys[i&(len(keys)-1)], 16, 12)
		}
	})
	b.Run("reverse", func(b *testing.B) {
		for i := 0; b.Loop(); i++ {
			sink += RankKeyReverse(keys[i&(len(keys)-1)], 16, 12)
		}
	})
	rev := make([]uint64, len(keys))
	for i, k := range keys {
		rev[i] = RankKeyReverse(k, 16, 12)
	}
	b.Run("inverse", func(b *testing.B) {
		for i := 0; b.Loop(); i++ {
			k, _ := FromRanksReverse(rev[i&(len(rev)-1)], 16, 12)
			sink += k
		}
	})
	if sink == 0 {
		b.Fatal("nothing ranked")
	}
}
