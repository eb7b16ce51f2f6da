package bdd

import (
	"math/bits"
	"slices"
	"testing"
)

func lehmer(key uint64, n int) uint64 {
	rem := uint32(1<<uint(n) - 1)
	var out uint64
	for c := 0; c < n; c++ {
		t := uint(key >> (4 * uint(n-1-c)) & 15)
		r := bits.OnesCount32(rem & (1<<t - 1))
		rem &^= 1 << t
		out |= uint64(r) << (4 * uint(n-1-c))
	}
	return out
}

func TestZZLehmer(t *testing.T) {
	g0, g2 := sets3x3(t)
	for si, set := range [][]uint64{g0, g2} {
		lk := make([]uint64, len(set))
		for i, k := range set {
			lk[i] = lehmer(k, 9)
		}
		slices.Sort(lk)
		for ei, keys := range [][]uint64{set, lk} {
			for _, name := range []string{"natural", "reverse", "lsb"} {
				o, _ := NamedOrder(name, 3, 3, 9)
				d, _ := Build(keys, o, false)
				z, _ := Build(keys, o, true)
				res2, _ := OrderSearch(d, SearchOptions{Method: "block-sift"})
				t.Logf("set %d enc %d %s: %d zdd %d block %d", si, ei, name, d.NodeCount(), z.NodeCount(), res2.Diagram.NodeCount())
			}
		}
	}
}
