package gapdb

import "github.com/gapset/gapset/internal/placement"

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
// index is the pattern's rank among the n!/(n-k)! placements, as
// memset.Ranked ranks its patterns (the one ranking: internal/placement).
func (p *projector) index(key uint64) uint64 { return placement.RankKey(p.pattern(key), p.n, p.k) }
