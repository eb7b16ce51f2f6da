package gapdb

import (
	"math/rand/v2"
	"testing"
)

// The cost of one entry read on a table of the 8-cell 4x4 size (518,918,400
// entries: 195 MB at 3 bits, 259 MB at 4), random entries, each read
// depending on the one before (a miss at a time, as a search without
// prefetch waits): the 3-bit read (two bytes, a shift by x*3 mod 8)
// against the 4-bit nibble read. Opt-in (-bench Lookup): it allocates
// both tables.
func BenchmarkLookup(b *testing.B) {
	const n = 518918400
	rng := rand.New(rand.NewPCG(1, 2))
	for _, bits := range []int{3, 4} {
		table := make([]byte, (n*bits+7)/8+tablePad)
		for i := range table[:len(table)-tablePad] {
			table[i] = byte(rng.Uint32())
		}
		b.Run(map[int]string{3: "3bit", 4: "4bit-nibble"}[bits], func(b *testing.B) {
			x := uint64(12345)
			var v uint16
			for i := 0; i < b.N; i++ {
				if bits == 3 {
					v = entryAt(table, x, 3, 7)
				} else {
					v = uint16(table[x>>1]>>(x&1*4)) & 15
				}
				x = (x*0x9E3779B97F4A7C15 + uint64(v)) % n
			}
		})
	}
}

// The rank of an 8-cell pattern (placement.RankKey over the last cells, and
// over cells that are not the last, gathered first).
func BenchmarkIndex(b *testing.B) {
	for _, c := range []struct {
		name  string
		cells []int
	}{{"last8", []int{8, 9, 10, 11, 12, 13, 14, 15}}, {"gathered8", []int{0, 1, 4, 5, 8, 9, 12, 13}}} {
		p := newProjector(16, c.cells)
		key := uint64(0xFEDCBA9876543210)
		b.Run(c.name, func(b *testing.B) {
			s := uint64(0)
			for i := 0; i < b.N; i++ {
				s += p.index(key ^ uint64(i&1)*0x11)
			}
			_ = s
		})
	}
}
