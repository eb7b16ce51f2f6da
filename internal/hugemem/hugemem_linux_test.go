package hugemem

import (
	"testing"

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
