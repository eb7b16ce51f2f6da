// Package placement numbers the placements of k distinct values below
// n <= 16 (k tiles on n cells, or the tiles on k cells) densely in
// 0 .. n!/(n-k)!-1, the one ranking that the pattern databases (pdb), the
// ranked sets (memset, gapset's approximations), the run files' rank codes
// (gapset) and the BDD ranks encodings (bdd) share.
//
// Digit i of a placement v_0 .. v_{k-1} is v_i counted among the values
// not among v_0 .. v_{i-1}, in radix n-i, v_0 the most significant: ranks
// grow with the placement read as a number, so sorted keys fill a ranked
// table in order and rank codes sort as keys do.
package placement

import "math/bits"

// MaxValues is the largest n: values are nibbles of a 64-bit key.
const MaxValues = 16

// Size is the number of placements of k distinct values below n,
// n!/(n-k)!.
func Size(n, k int) int64 {
	p := int64(1)
	for i := 0; i < k; i++ {
		p *= int64(n - i)
	}
	return p
}

// Bytes is the size of a table of one bit per placement, in whole 64-bit
// words.
func Bytes(n, k int) int64 { return (Size(n, k) + 63) / 64 * 8 }

// Digit is v counted among the values not in used: the digit v gives after
// the values of used.
func Digit(used uint32, v uint) int { return int(v) - bits.OnesCount32(used&(1<<v-1)) }

// Step appends v, counted among the values not in used, as the next digit
// (in radix radix) of the rank r: the one step of every rank here, for the
// callers that read the values in their own way.
func Step(r int, used uint32, v uint8, radix int) (int, uint32) {
	return r*radix + int(v) - bits.OnesCount32(used&(1<<v-1)), used | 1<<v
}

// Rank is the rank of the placement pos (pos[i] the i-th value, say the
// cell of a group's i-th tile) among the placements of len(pos) values
// below n.
func Rank(pos []uint8, n int) int {
	var used uint32
	r := 0
	for i, v := range pos {
		r, used = Step(r, used, v, n-i)
	}
	return r
}

// RankKey is the rank of the placement held in the low 4k bits of key, one
// value a nibble, the most significant nibble first (the last k cells of a
// board's key); key holds nothing above them.
func RankKey(key uint64, n, k int) uint64 {
	var used uint32
	x := uint64(0)
	for i := 0; i < k; i++ {
		v := uint(key>>(4*uint(k-1-i))) & 15
		x = x*uint64(n-i) + uint64(v) - uint64(bits.OnesCount32(used&(1<<v-1)))
		used |= 1 << v
	}
	return x
}

// Unrank is the inverse of Rank: it fills pos with the placement of rank r
// and returns the values used.
func Unrank(r int, pos []uint8, n int) uint32 {
	k := len(pos)
	var digits [MaxValues]int
	for i := k - 1; i >= 0; i-- {
		radix := n - i
		digits[i] = r % radix
		r /= radix
	}
	var used uint32
	for i := 0; i < k; i++ {
		v := SelectFree(used, digits[i])
		pos[i] = uint8(v)
		used |= 1 << v
	}
	return used
}

// SelectFree returns the d-th (from 0) value not in used: the value whose
// digit after used is d.
func SelectFree(used uint32, d int) int {
	free := ^used
	for ; d > 0; d-- {
		free &= free - 1
	}
	return bits.TrailingZeros32(free)
}
