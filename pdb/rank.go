package pdb

import "math/bits"

// rank numbers a placement of k distinct cells (pos[i] = cell of the group's
// i-th tile) on n cells densely in 0..n!/(n-k)!-1: digit i is pos[i] counted
// among the cells not used by tiles 0..i-1, in radix n-i, tile 0 the most
// significant.
func rank(pos []uint8, n int) int {
	var used uint32
	r := 0
	for i, c := range pos {
		r, used = rankDigit(r, used, c, n-i)
	}
	return r
}

// rankDigit appends cell c, counted among the cells not in used, as the next
// digit (in radix radix) of the rank r: the one step of rank that the
// heuristic's lookup, which reads the cells through the tiles, shares.
func rankDigit(r int, used uint32, c uint8, radix int) (int, uint32) {
	return r*radix + int(c) - bits.OnesCount32(used&(1<<c-1)), used | 1<<c
}

// odometer walks the placements of a group's first m tiles in rank order
// (the blocks of the build), recomputing only the cells whose digits
// changed: usually the last one.
type odometer struct {
	n, m  int
	dig   [16]int
	stale int // cells from this digit on are out of date
}

// seek sets the odometer to rank r.
func (o *odometer) seek(r int) {
	for i := o.m - 1; i >= 0; i-- {
		radix := o.n - i
		o.dig[i] = r % radix
		r /= radix
	}
	o.stale = 0
}

// next advances to the following rank (not past the last).
func (o *odometer) next() {
	i := o.m - 1
	for ; i > 0 && o.dig[i] == o.n-i-1; i-- {
		o.dig[i] = 0
	}
	o.dig[i]++
	o.stale = min(o.stale, i)
}

// cells brings pos[:m] up to date, with before[i+1] = before[i] | cell of
// tile i (before[0] is 0).
func (o *odometer) cells(pos []uint8, before *[17]uint32) {
	for i := o.stale; i < o.m; i++ {
		c := selectFree(before[i], o.dig[i])
		pos[i] = uint8(c)
		before[i+1] = before[i] | 1<<c
	}
	o.stale = o.m
}

// unrank is the inverse of rank: it fills pos and returns the used cells.
func unrank(r int, pos []uint8, n int) uint32 {
	k := len(pos)
	var digits [16]int
	for i := k - 1; i >= 0; i-- {
		radix := n - i
		digits[i] = r % radix
		r /= radix
	}
	var used uint32
	for i := 0; i < k; i++ {
		c := selectFree(used, digits[i])
		pos[i] = uint8(c)
		used |= 1 << c
	}
	return used
}

// selectFree returns the d-th (from 0) cell not in used.
func selectFree(used uint32, d int) int {
	free := ^used
	for ; d > 0; d-- {
		free &= free - 1
	}
	return bits.TrailingZeros32(free)
}

// compress maps the cells of set (a subset of within) to bit positions
// counted among within's cells (a software PEXT).
func compress(set, within uint32) uint32 {
	var out uint32
	for s := set; s != 0; s &= s - 1 {
		b := s & -s
		out |= 1 << bits.OnesCount32(within&(b-1))
	}
	return out
}
