package gapdb

import "math/bits"

// placementRank is the rank of a pattern of k distinct values below n
// (pattern: k nibbles, the first cell's most significant) among the n!/(n-k)!
// placements, as memset.Ranked ranks its patterns: digit i is the value
// counted among the values not used before it, in radix n-i. It is the one
// place this package ranks, so that moving to the shared ranking package
// is a change of this line.
func placementRank(n, k int, pattern uint64) uint64 {
	var used uint32
	x := uint64(0)
	for i := 0; i < k; i++ {
		v := uint(pattern>>(4*uint(k-1-i))) & 15
		x = x*uint64(n-i) + uint64(v) - uint64(bits.OnesCount32(used&(1<<v-1)))
		used |= 1 << v
	}
	return x
}

// projector takes a board's key (or a key projected onto cells that
// include the database's) to its pattern: the nibbles of the cells, in
// order, the first most significant.
type projector struct {
	n, k   int
	last   bool   // the cells are the last k: the pattern is key & mask
	mask   uint64 // with last
	shifts [16]uint8
}

func newProjector(n int, cells []int) projector {
	p := projector{n: n, k: len(cells), last: cells[0] == n-len(cells)}
	p.mask = ^uint64(0) >> (64 - 4*uint(p.k))
	for i, c := range cells {
		p.shifts[i] = uint8(4 * (n - 1 - c))
	}
	return p
}

// pattern gathers the cells' nibbles.
func (p *projector) pattern(key uint64) uint64 {
	if p.last {
		return key & p.mask
	}
	var x uint64
	for i := 0; i < p.k; i++ {
		x = x<<4 | key>>p.shifts[i]&15
	}
	return x
}

// index is the entry of the board with this key.
func (p *projector) index(key uint64) uint64 { return placementRank(p.n, p.k, p.pattern(key)) }
