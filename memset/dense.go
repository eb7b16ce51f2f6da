package memset

import (
	"fmt"

	"github.com/gapset/gapset/encode"
)

// MaxDenseCells bounds a dense set: 16^7 bits is 32 MiB; more cells would
// no longer be a cheap table.
const MaxDenseCells = 7

// Dense is a set of patterns on the last few cells held as one bit per
// possible pattern (16^k bits: 2 MiB for 6 cells). A lookup is a mask, a
// shift and one load from a table small enough to stay in the cache, so it
// serves as a fast first "no" in front of a larger set (see ida.Gap.Dense).
type Dense struct {
	words []uint64
	mask  uint64
	count int
}

// NewDense makes an empty dense set on the last cells cells (1..7).
func NewDense(cells int) (*Dense, error) {
	if cells < 1 || cells > MaxDenseCells {
		return nil, fmt.Errorf("dense set on %d cells: want 1 to %d", cells, MaxDenseCells)
	}
	return &Dense{words: make([]uint64, (1<<(4*cells)+63)/64), mask: encode.ProjectMask(cells)}, nil
}

// Add inserts the projection of key (a whole-board key or a longer pattern).
func (d *Dense) Add(key uint64) {
	k := key & d.mask
	w, b := &d.words[k>>6], uint64(1)<<(k&63)
	if *w&b == 0 {
		*w |= b
		d.count++
	}
}

// Contains reports whether the board's projection is in the set.
func (d *Dense) Contains(key uint64) bool {
	k := key & d.mask
	return d.words[k>>6]&(1<<(k&63)) != 0
}

// Mask is the part of a key the set looks at.
func (d *Dense) Mask() uint64 { return d.mask }

// Bits exposes the table (read only) so a search loop can test a bit inline.
func (d *Dense) Bits() ([]uint64, uint64) { return d.words, d.mask }

// Len is the number of patterns.
func (d *Dense) Len() int { return d.count }

// Project returns the set's projection onto its last cells cells (fewer than
// its own) as a dense set: a superset filter for it.
func (s *Set) Project(cells int) (*Dense, error) {
	if m := encode.ProjectMask(cells); m&s.mask != m || m == s.mask {
		return nil, fmt.Errorf("cannot project a set of mask %#x onto %d cells", s.mask, cells)
	}
	d, err := NewDense(cells)
	if err != nil {
		return nil, err
	}
	if s.hasZero {
		d.Add(0)
	}
	for _, k := range s.slots32 {
		if k != 0 {
			d.Add(uint64(k))
		}
	}
	for _, k := range s.slots {
		if k != 0 {
			d.Add(k)
		}
	}
	return d, nil
}
