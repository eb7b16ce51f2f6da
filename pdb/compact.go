package pdb

import (
	"fmt"
	"math/bits"
	"sync/atomic"

	"github.com/gapset/gapset/encode"
)

// Compact coding of a set's tables: 4 bits per placement instead of 8.
//
// A group's value v and its tiles' Manhattan distance m have the same
// parity (every move of a group tile changes the count by one and m by
// one), and v >= m; so (v - m) / 2 is a whole number, and on the 4x4
// partitions it stays below 16 (the 7-8 tables: at most 11, NOTES.md). The
// compact entry of rank r is that number, in the low (r even) or high
// nibble of byte r/2. When the groups cover every tile, the sum of their m
// is the board's Manhattan distance, which the search keeps anyway: the
// additive bound is MD + 2 * (the sum of the entries), with no per-group
// distance to track. The dual boards, whose groups in use are a subset,
// add their groups' distances at the lookup.

// Compact returns the set with its tables in the compact coding (Nibbles;
// Tables nil), converted on workers goroutines. It fails when the groups
// leave a tile out or an entry does not fit in 4 bits.
func (s *Set) Compact(workers int) (*Set, error) {
	p := s.Part
	n := p.Rows * p.Cols
	covered := 0
	for _, g := range p.Groups {
		covered += len(g)
		if len(g) >= n-1 {
			return nil, fmt.Errorf("compact coding: group %v holds every tile", g)
		}
	}
	if covered != n-1 {
		return nil, fmt.Errorf("compact coding: partition %s covers %d of the %d tiles", p.Name, covered, n-1)
	}
	geo, err := encode.NewGeometry(p.Rows, p.Cols)
	if err != nil {
		return nil, err
	}
	out := &Set{Part: p, Steps: s.Steps, Nibbles: make([][]uint8, len(p.Groups))}
	for gi, g := range p.Groups {
		nib, err := compactTable(geo, g, s.Tables[gi], workers)
		if err != nil {
			return nil, fmt.Errorf("compact coding of group %v: %w", g, err)
		}
		out.Nibbles[gi] = nib
	}
	return out, nil
}

// compactTable codes one group's table; blocks of placements sharing the
// first k-1 tiles are walked with an odometer, so a placement's distance
// costs one addition.
func compactTable(geo *encode.Geometry, group []uint8, table []uint8, workers int) ([]uint8, error) {
	n, k := geo.Rows*geo.Cols, len(group)
	last := n - k + 1
	blocks := len(table) / last
	nib := make([]uint8, (len(table)+1)/2)
	hugeHint(nib)
	const chunk = 1 << 12 // blocks; even, so no byte is shared by two chunks
	var bad atomic.Int64
	bad.Store(-1)
	parallel(max(workers, 1), (blocks+chunk-1)/chunk, func(_, c int) {
		lo, hi := c*chunk, min((c+1)*chunk, blocks)
		o := odometer{n: n, m: k - 1}
		o.seek(lo)
		pos := make([]uint8, k)
		var before [17]uint32
		lastTile := group[k-1]
		for b := lo; b < hi; b++ {
			if b > lo {
				o.next()
			}
			o.cells(pos, &before)
			m := 0
			for i := 0; i < k-1; i++ {
				m += int(geo.Dist[group[i]][pos[i]])
			}
			free := ^before[k-1]
			for d := 0; d < last; d++ {
				cell := bits.TrailingZeros32(free)
				free &= free - 1
				r := b*last + d
				e := int(table[r]) - m - int(geo.Dist[lastTile][cell])
				if e < 0 || e&1 != 0 || e > 30 {
					bad.CompareAndSwap(-1, int64(r))
					return
				}
				nib[r>>1] |= uint8(e>>1) << (uint(r&1) << 2)
			}
		}
	})
	if r := bad.Load(); r >= 0 {
		return nil, fmt.Errorf("entry %d (%d) is not its Manhattan distance plus an even number up to 30", r, table[r])
	}
	return nib, nil
}

// nibble is the compact entry of rank r.
func nibble(nib []uint8, r int) uint8 { return nib[r>>1] >> (uint(r&1) << 2) & 15 }
