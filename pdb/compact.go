package pdb

import (
	"fmt"
	"math"
	"math/bits"
	"sync/atomic"

	"github.com/gapset/gapset/encode"
	"github.com/gapset/gapset/internal/hugemem"
	"github.com/gapset/gapset/internal/placement"
)

// Compact coding of a set's tables: 4 bits per placement instead of 8.
//
// A group's value v and its tiles' Manhattan distance m have the same
// parity (every move of a group tile changes the count by one and m by
// one), and v >= m; so (v - m) / 2 is a whole number, and on the 4x4
// partitions it stays below 16 (the 7-8 tables: at most 7 in the 7-tile
// group, 9 in the 8-tile one; docs/pattern-databases.md; the argument in
// docs/proofs.md#compact-database-entries). The compact entry of rank r is
// that number, in the low (r even) or high nibble of byte r/2. When the
// groups cover every tile, the sum of their m is the board's Manhattan
// distance, which the search keeps anyway: the additive bound is MD + 2 *
// (the sum of the entries), with no per-group distance to track. The dual
// boards, whose groups in use are a subset, add their groups' distances at
// the lookup.

// Compact returns the set with its tables in the compact coding (Nibbles;
// Tables nil), converted on workers goroutines. It fails when the groups
// leave a tile out or an entry does not fit in 4 bits.
func (s *Databases) Compact(workers int) (*Databases, error) {
	if s.Nibbles != nil {
		return s, nil
	}
	p := s.Part
	if err := p.checkCovers(); err != nil {
		return nil, err
	}
	geo, err := encode.NewGeometry(p.Rows, p.Cols)
	if err != nil {
		return nil, err
	}
	out := &Databases{Part: p, Steps: s.Steps, Nibbles: make([][]uint8, len(p.Groups))}
	for gi, g := range p.Groups {
		nib, err := compactTable(geo, g, s.Tables[gi], workers)
		if err != nil {
			return nil, fmt.Errorf("compact coding of group %v: %w", g, err)
		}
		out.Nibbles[gi] = nib
	}
	return out, nil
}

// compactTable codes one group's table.
func compactTable(geo *encode.Geometry, group []uint8, table []uint8, workers int) ([]uint8, error) {
	nib := make([]uint8, (len(table)+1)/2)
	hugemem.Hint(nib)
	bad := forBlocks(geo, group, len(table), workers, func(r0 int, md []int8) int {
		for d, m := range md {
			r := r0 + d
			e := int(table[r]) - int(m)
			if e < 0 || e&1 != 0 || e > 30 {
				return r
			}
			nib[r>>1] |= uint8(e>>1) << (uint(r&1) << 2)
		}
		return -1
	})
	if bad >= 0 {
		return nil, fmt.Errorf("entry %d (%d) is not its Manhattan distance plus an even number up to 30", bad, table[bad])
	}
	return nib, nil
}

// expandTable decodes a compact table into one byte per entry.
func expandTable(geo *encode.Geometry, group []uint8, nib []uint8, entries, workers int) []uint8 {
	table := make([]uint8, entries)
	forBlocks(geo, group, entries, workers, func(r0 int, md []int8) int {
		for d, m := range md {
			table[r0+d] = uint8(int(m) + 2*int(nibble(nib, r0+d)))
		}
		return -1
	})
	return table
}

// forBlocks walks the placements of group in rank order, a block at a time
// (the placements sharing the first k-1 tiles, walked with a placement.Odometer, so
// that a placement's Manhattan distance costs one addition), on workers
// goroutines: fn gets the block's first rank and its placements' distances
// and returns a rank to stop at (the smallest reported is returned), or -1.
// Chunks hold an even number of blocks, so that no byte of a compact table
// is written by two goroutines.
func forBlocks(geo *encode.Geometry, group []uint8, entries, workers int, fn func(r0 int, md []int8) int) int {
	n, k := geo.Rows*geo.Cols, len(group)
	last := n - k + 1
	blocks := entries / last
	const chunk = 1 << 12
	var bad atomic.Int64
	bad.Store(math.MaxInt64)
	parallel(max(workers, 1), (blocks+chunk-1)/chunk, func(_, c int) {
		lo, hi := c*chunk, min((c+1)*chunk, blocks)
		o := placement.Odometer{N: n, M: k - 1}
		o.Seek(lo)
		pos := make([]uint8, k)
		md := make([]int8, last)
		var before [placement.MaxValues + 1]uint32
		lastTile := &geo.Dist[group[k-1]]
		for b := lo; b < hi; b++ {
			if b > lo {
				o.Next()
			}
			o.Values(pos, &before)
			m := int8(0)
			for i := 0; i < k-1; i++ {
				m += geo.Dist[group[i]][pos[i]]
			}
			free := ^before[k-1]
			for d := range md {
				md[d] = m + lastTile[bits.TrailingZeros32(free)]
				free &= free - 1
			}
			if r := fn(b*last, md); r >= 0 {
				for old := bad.Load(); int64(r) < old && !bad.CompareAndSwap(old, int64(r)); old = bad.Load() {
				}
				return
			}
		}
	})
	if r := bad.Load(); r != math.MaxInt64 {
		return int(r)
	}
	return -1
}

// nibble is the compact entry of rank r.
func nibble(nib []uint8, r int) uint8 { return nib[r>>1] >> (uint(r&1) << 2) & 15 }
