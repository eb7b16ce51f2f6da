// Package memset holds a gap set exactly in memory for fast membership
// queries: an open-addressing hash table of the set's projected keys.
//
// It is the exact counterpart of a BDD: the same keys, the same answers, so
// the two can be compared for speed and size. Queries take the key of the
// whole board and project it onto the set's cells themselves.
package memset

import (
	"fmt"
	"math/bits"

	"github.com/gapset/gapset/encode"
	"github.com/gapset/gapset/keyset"
)

// Set is an immutable set of projected keys; safe for concurrent readers.
type Set struct {
	mask    uint64
	shift   uint     // 64 - log2(len(slots))
	slots   []uint64 // keys of more than 8 cells
	slots32 []uint32 // keys of at most 8 cells: half the memory, fewer cache misses
	hasZero bool     // key 0 (possible for one cell) cannot be stored in slots
	count   int
	name    string
}

// fib is 2^64 / golden ratio: multiplicative (Fibonacci) hashing spreads
// keys that differ only in their low nibbles over the whole table.
const fib = 0x9E3779B97F4A7C15

// New builds a set of keys that keep the last cells cells (keys already
// projected, or whole keys that are projected here). Duplicates are fine.
// The table is a power of two at most 2/3 full, linear probing.
func New(keys []uint64, cells int) *Set {
	s := newSized(len(keys), cells)
	for _, k := range keys {
		s.add(k & s.mask)
	}
	return s
}

// slotsFor is the table size for n keys: a power of two at least 16 and
// at most 2/3 full.
func slotsFor(n int) int {
	size := 1 << 4
	for size*2 < n*3 {
		size <<= 1
	}
	return size
}

// newSized makes an empty table for n keys.
func newSized(n, cells int) *Set {
	if cells < 1 {
		cells = 1
	}
	size := slotsFor(n)
	s := &Set{mask: encode.ProjectMask(cells), shift: uint(64 - bits.TrailingZeros(uint(size)))}
	if cells <= 8 {
		s.slots32 = make([]uint32, size)
	} else {
		s.slots = make([]uint64, size)
	}
	return s
}

func (s *Set) add(k uint64) {
	if k == 0 {
		if !s.hasZero {
			s.hasZero = true
			s.count++
		}
		return
	}
	if s.slots32 != nil {
		m := uint64(len(s.slots32) - 1)
		for i := (k * fib) >> s.shift; ; i = (i + 1) & m {
			switch s.slots32[i] {
			case 0:
				s.slots32[i] = uint32(k)
				s.count++
				return
			case uint32(k):
				return
			}
		}
	}
	m := uint64(len(s.slots) - 1)
	for i := (k * fib) >> s.shift; ; i = (i + 1) & m {
		switch s.slots[i] {
		case 0:
			s.slots[i] = k
			s.count++
			return
		case k:
			return
		}
	}
}

// Contains reports whether the board with key (whole-board key) projects to
// a member of the set.
func (s *Set) Contains(key uint64) bool {
	k := key & s.mask
	if k == 0 {
		return s.hasZero
	}
	if s.slots32 != nil {
		m := uint64(len(s.slots32) - 1)
		for i := (k * fib) >> s.shift; ; i = (i + 1) & m {
			switch s.slots32[i] {
			case uint32(k):
				return true
			case 0:
				return false
			}
		}
	}
	m := uint64(len(s.slots) - 1)
	for i := (k * fib) >> s.shift; ; i = (i + 1) & m {
		switch s.slots[i] {
		case k:
			return true
		case 0:
			return false
		}
	}
}

// Mask is the part of a board's key the set looks at (the last cells).
func (s *Set) Mask() uint64 { return s.mask }

// Len is the number of distinct projected keys (the paper's "patterns").
func (s *Set) Len() int { return s.count }

// Bytes is the memory held by the table.
func (s *Set) Bytes() int64 { return int64(len(s.slots))*8 + int64(len(s.slots32))*4 }

// Name is the set's name when it came from a file (Gap0_8, ...), else "".
func (s *Set) Name() string { return s.name }

// Load reads a key-set file (package gapset) into a set; the header gives
// the cells.
// The keys stream into the table, so the file is never held twice.
func Load(path string) (*Set, keyset.Header, error) {
	r, err := keyset.Open(path)
	if err != nil {
		return nil, keyset.Header{}, err
	}
	defer r.Close()
	h := r.Header()
	if h.Count > 1<<32 {
		return nil, h, fmt.Errorf("%s: %d keys is more than an in-memory set holds", path, h.Count)
	}
	s := newSized(int(h.Count), h.Cells)
	for {
		k, ok := r.Next()
		if !ok {
			break
		}
		s.add(k & s.mask)
	}
	if err := r.Err(); err != nil {
		return nil, h, err
	}
	s.name = h.Name()
	return s, h, nil
}
