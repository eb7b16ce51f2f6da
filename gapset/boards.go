package gapset

import "fmt"

// checkBoards refuses keys that are not boards of g: a run read back
// (a resumed checkpoint's layers, a part another worker wrote) is
// trusted only as far as its checksum, and expanding a key without exactly
// one blank would index the move tables out of range. A key's N cells must
// hold each of 0..N-1 (so each once) and the bits above them nothing.
// Runs this process wrote are not checked: their keys come from boards.
func (g *geometry) checkBoards(keys []uint64) error {
	all := uint32(1)<<g.N - 1
	for _, k := range keys {
		var seen uint32
		v := k
		for range g.N {
			seen |= 1 << (v & 15)
			v >>= 4
		}
		if v != 0 || seen != all {
			return fmt.Errorf("%w: key %#x is no board of %d cells", ErrDamaged, k, g.N)
		}
	}
	return nil
}
