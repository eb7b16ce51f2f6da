package pdb

import "math/bits"

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
