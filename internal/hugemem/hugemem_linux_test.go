package hugemem

import (
	"testing"
	"unsafe"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A released range of a mapped table reads as zero where it covers whole
// pages; the entries around it keep their values.
func TestAllocRelease(t *testing.T) {
	n := Min / 4
	st, free, release := Alloc[uint32](n)
	defer free()
	for i := range st {
		st[i] = uint32(i) | 1
	}
	lo, hi := 3<<20/4+5, 7<<20/4+3 // not on page boundaries
	release(lo, hi)
	release(n-2048, n) // the last two pages
	for i, x := range st {
		switch {
		case i >= lo+1024 && i < hi-1024 || i >= n-2048:
			if x != 0 {
				require.Zero(t, x, "entry %d", i)
			}
		case i < lo || i >= hi:
			if x != uint32(i)|1 {
				require.Equal(t, uint32(i)|1, x, "entry %d", i)
			}
		}
	}
}

// Mapped finds the mapping of a table (on the heap, or mapped outside it)
// and reports no more huge bytes than the mapping has; nil finds nothing.
func TestMapped(t *testing.T) {
	heap := make([]byte, 1<<20)
	huge, ok := Mapped(heap)
	assert.True(t, ok)
	assert.GreaterOrEqual(t, huge, int64(0))
	w, free, _ := Alloc[uint64](Min / 8 * 2)
	defer free()
	for i := range w {
		w[i] = uint64(i)
	}
	b := unsafe.Slice((*byte)(unsafe.Pointer(&w[0])), 8*len(w))
	huge, ok = Mapped(b)
	assert.True(t, ok)
	assert.LessOrEqual(t, huge, int64(len(b)))
	_, ok = Mapped(nil)
	assert.False(t, ok)
}
