package gapset

import (
	"math/rand/v2"
	"testing"

	"github.com/gapset/gapset/encode"
)

// BenchmarkRank is the placement ranking as gapset calls it: a ranked
// approximation table's lookup (Has, 9 of 12 cells), its walk in rank order
// (Each: the incremental unrank), and the run files' rank code (code, key)
// on 4x4 boards. The same before and after the ranking moved to
// internal/placement:
//
//	go test -run '^$' -bench 'Rank$' -count 10 ./gapset/
func BenchmarkRank(b *testing.B) {
	rng := rand.New(rand.NewPCG(11, 12))
	set := newRankedBits(12, 9)
	probes := make([]uint64, 1<<12)
	for i := range probes {
		probes[i] = encode.Random(rng, 3, 4).Key()
		if i%2 == 0 {
			set.set(set.index(probes[i] & encode.ProjectMask(9)))
		}
	}
	b.Run("has", func(b *testing.B) {
		hits := 0
		for i := 0; b.Loop(); i++ {
			if set.Has(probes[i&(len(probes)-1)]) {
				hits++
			}
		}
		if hits == 0 {
			b.Fatal("no hits")
		}
	})
	dense := newRankedBits(12, 6) // 665,280 patterns, a third of them in the set
	for i := range dense.words {
		dense.words[i] = 0x9249249249249249
	}
	b.Run("each", func(b *testing.B) {
		n := 0
		for b.Loop() {
			_ = dense.Each(func(k []uint64) error { n += len(k); return nil })
		}
		b.ReportMetric(float64(n)/b.Elapsed().Seconds(), "keys/s")
	})
	keys := randomKeys(rng, 16, 1<<12)
	rc := newRankCoder(16)
	codes := make([]uint64, len(keys))
	for i, k := range keys {
		codes[i] = rc.code(k)
	}
	var sink uint64
	b.Run("code", func(b *testing.B) {
		for i := 0; b.Loop(); i++ {
			sink += rc.code(keys[i&(len(keys)-1)])
		}
	})
	b.Run("decode", func(b *testing.B) {
		d := &rankDecoder{rankCoder: rc}
		for i := 0; b.Loop(); i++ {
			k, err := d.key(codes[i&(len(codes)-1)])
			if err != nil {
				b.Fatal(err)
			}
			sink += k
		}
	})
	if sink == 0 {
		b.Fatal("nothing coded")
	}
}
