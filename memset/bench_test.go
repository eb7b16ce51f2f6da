package memset

import (
	"math/rand/v2"
	"testing"
)

// BenchmarkContains compares the hash table with binary search over sorted
// keys at the size of Gap0_8 (4.2M projected keys), half the probes members.
//
//	go test -run '^$' -bench Contains -count 3 ./memset/
func BenchmarkContains(b *testing.B) {
	rng := rand.New(rand.NewPCG(5, 6))
	keys := randomKeys(rng, 4_233_704)
	probes := append(randomKeys(rng, 1<<16), keys[:1<<16]...)
	rng.Shuffle(len(probes), func(i, j int) { probes[i], probes[j] = probes[j], probes[i] })
	for _, c := range []struct {
		name string
		set  interface{ Contains(uint64) bool }
	}{{"hash", New(keys, 16)}, {"sorted", NewSorted(keys, 16)}} {
		b.Run(c.name, func(b *testing.B) {
			hits := 0
			for i := 0; b.Loop(); i++ {
				if c.set.Contains(probes[i&(len(probes)-1)]) {
					hits++
				}
			}
			if hits == 0 {
				b.Fatal("no hits")
			}
		})
	}
}
