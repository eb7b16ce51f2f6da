package bdd

import (
	"errors"
	"fmt"
)

// ErrNotCellwise is returned by Project for orders that interleave the bits
// of different cells (the bit planes).
var ErrNotCellwise = errors.New("projection needs a variable order that keeps each cell's bits together")

// ErrNotProjectable is returned by Project for sets in the ranks and tiles
// encodings, whose last cells' variables do not name the tiles on them.
var ErrNotProjectable = errors.New("projection onto cells needs the cells or ranks-reverse encoding")

// Project calls add once or more with every pattern of the set's
// projection onto the key's last k cells (the low 4k bits; a pattern is a
// key with the other bits 0): the patterns some member has there. It is an
// existential quantification of the other cells, done by a walk of the
// 16-way layout (a set in the ranks-reverse encoding gives its patterns in
// the cells encoding; ranks and tiles cannot be projected). The walk
// visits a node once while no projected cell has been read, and once per
// distinct partial pattern after that.
func (s *Set) Project(k int, add func(uint64)) error {
	if s.cells == nil {
		return ErrNotCellwise
	}
	switch s.enc {
	case Cells:
	case RanksReverse:
		// the last k cells' ranks name their tiles (ranked among the
		// tiles not on the cells after them): convert each pattern back
		inner, n := add, s.n
		add = func(p uint64) {
			if key, ok := FromRanksReverse(p, n, k); ok {
				inner(key)
			}
		}
	default:
		return fmt.Errorf("%w, not %v", ErrNotProjectable, s.enc)
	}
	if k < 1 || 4*k >= 64 {
		return fmt.Errorf("cannot project onto %d cells", k)
	}
	steps := len(s.shifts)
	proj := make([]bool, steps+1)
	first, last := steps, -1
	for j, sh := range s.shifts {
		if int(sh) < 4*k {
			proj[j] = true
			first, last = min(first, j), j
		}
	}
	if last < 0 {
		return fmt.Errorf("the set does not test the last %d cells", k)
	}
	seen := make([]uint64, (len(s.cells)+63)/64) // nodes met before any projected cell
	seenPat := map[uint64]struct{}{}             // (node, pattern) after the first projected cell
	// free enumerates the projected cells from step j on with any nibble.
	var free func(j int, pat uint64)
	free = func(j int, pat uint64) {
		for ; j <= last && !proj[j]; j++ {
		}
		if j > last {
			add(pat)
			return
		}
		for v := uint64(0); v < 16; v++ {
			free(j+1, pat|v<<s.shifts[j])
		}
	}
	var walk func(n uint32, j int, pat uint64)
	walk = func(n uint32, j int, pat uint64) {
		switch {
		case n == False:
			return
		case n == True || j > last:
			// a reduced BDD has a member under every node but False
			free(j, pat)
			return
		case j <= first:
			if seen[n/64]&(1<<(n%64)) != 0 {
				return
			}
			seen[n/64] |= 1 << (n % 64)
		default:
			id := uint64(n)<<(4*k) | pat
			if _, ok := seenPat[id]; ok {
				return
			}
			seenPat[id] = struct{}{}
		}
		kids := &s.cells[n]
		if proj[j] {
			for v := uint64(0); v < 16; v++ {
				walk(kids[v], j+1, pat|v<<s.shifts[j])
			}
			return
		}
		for v, c := range kids {
			if !repeats(kids, v, c) {
				walk(c, j+1, pat)
			}
		}
	}
	walk(s.root, 0, 0)
	return nil
}

// repeats reports whether child c appears among kids[:v].
func repeats(kids *cnode, v int, c uint32) bool {
	for _, x := range kids[:v] {
		if x == c {
			return true
		}
	}
	return false
}
