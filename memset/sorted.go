package memset

import (
	"slices"

	"github.com/gapset/gapset/encode"
)

// Sorted is the compact alternative to Set: the sorted keys themselves (8
// bytes a key, no slack) searched by binary search. It is kept to measure
// the trade (see BenchmarkContains); Set is the faster default.
type Sorted struct {
	mask uint64
	keys []uint64
}

// NewSorted projects, sorts and deduplicates keys (a copy; keys is kept).
func NewSorted(keys []uint64, cells int) *Sorted {
	mask := encode.ProjectMask(max(cells, 1))
	ks := make([]uint64, len(keys))
	for i, k := range keys {
		ks[i] = k & mask
	}
	slices.Sort(ks)
	return &Sorted{mask: mask, keys: slices.Compact(ks)}
}

// Contains reports whether the board with key projects to a member.
func (s *Sorted) Contains(key uint64) bool {
	_, ok := slices.BinarySearch(s.keys, key&s.mask)
	return ok
}

// Mask is the part of a board's key the set looks at.
func (s *Sorted) Mask() uint64 { return s.mask }

// Len is the number of distinct projected keys.
func (s *Sorted) Len() int { return len(s.keys) }
