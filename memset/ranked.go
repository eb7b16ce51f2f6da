package memset

import (
	"fmt"

	"github.com/gapset/gapset/encode"
	"github.com/gapset/gapset/internal/hugemem"
	"github.com/gapset/gapset/internal/placement"
	"github.com/gapset/gapset/keyset"
)

// Ranked is a set of patterns on the last k of n cells held as one bit per
// placement: the pattern's rank among the n!/(n-k)! fillings of k cells
// with distinct values indexes the bit. It serves the large exact sets on
// 9 to 12 cells, where a hash table of the keys would be larger: Gap4_10
// (1.43e9 patterns) takes 3.6 GB here against 17 GB as a hash table.
type Ranked struct {
	words []uint64
	n, k  int
	mask  uint64
	count int
	name  string
}

// MaxRankedBytes bounds a ranked set's table (12 of 16 cells: 109 GB is
// beyond any machine this runs on).
const MaxRankedBytes = 1 << 36

// HashBytes is the table size of a hash set (New, Load) of count keys on
// cells cells.
func HashBytes(count, cells int) int64 {
	size := int64(slotsFor(count))
	if cells <= 8 {
		return 4 * size
	}
	return 8 * size
}

// NewRanked makes an empty ranked set on the last k of n cells.
func NewRanked(n, k int) (*Ranked, error) {
	if k < 1 || k > n || n > encode.MaxCells {
		return nil, fmt.Errorf("ranked set on %d of %d cells", k, n)
	}
	if b := placement.Bytes(n, k); b > MaxRankedBytes {
		return nil, fmt.Errorf("a ranked set on %d of %d cells takes %d GB", k, n, b>>30)
	}
	r := &Ranked{words: make([]uint64, placement.Bytes(n, k)/8), n: n, k: k, mask: encode.ProjectMask(k)}
	hugemem.Words(r.words)
	return r, nil
}

// index is the placement rank of the key's last k cells
// (placement.RankKey). It grows with the key, so sorted keys fill the table
// in order.
func (r *Ranked) index(key uint64) int { return int(placement.RankKey(key, r.n, r.k)) }

// Add inserts a pattern (a key of at least k cells; the last k are kept).
// The pattern's values must be distinct and below n (keyset.ValidKey).
func (r *Ranked) Add(key uint64) {
	x := r.index(key & r.mask)
	w, b := &r.words[x>>6], uint64(1)<<(x&63)
	if *w&b == 0 {
		*w |= b
		r.count++
	}
}

// Contains reports whether the board's projection is in the set.
func (r *Ranked) Contains(key uint64) bool {
	x := r.index(key & r.mask)
	return r.words[x>>6]&(1<<(x&63)) != 0
}

// Mask is the part of a key the set looks at.
func (r *Ranked) Mask() uint64 { return r.mask }

// Len is the number of patterns.
func (r *Ranked) Len() int { return r.count }

// Bytes is the memory held by the table.
func (r *Ranked) Bytes() int64 { return int64(len(r.words)) * 8 }

// Name is the set's name when it came from a file, else "".
func (r *Ranked) Name() string { return r.name }

// LoadRanked reads a key-set file into a ranked set, and its projections
// into the dense sets given (on fewer cells), in the same pass: a ranked
// set cannot be projected cheaply afterwards.
func LoadRanked(path string, dense ...*Dense) (*Ranked, keyset.Header, error) {
	f, err := keyset.Open(path)
	if err != nil {
		return nil, keyset.Header{}, err
	}
	defer f.Close()
	h := f.Header()
	r, err := NewRanked(h.Rows*h.Cols, h.Cells)
	if err != nil {
		return nil, h, fmt.Errorf("%s: %w", path, err)
	}
	for {
		k, ok := f.Next()
		if !ok {
			break
		}
		r.Add(k)
		for _, d := range dense {
			d.Add(k)
		}
	}
	if err := f.Err(); err != nil {
		return nil, h, err
	}
	r.name = h.Name()
	return r, h, nil
}
