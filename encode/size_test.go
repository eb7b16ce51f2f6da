package encode

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Sizes whose product wraps around (2^62 x 4 is 2^64, 0 as an int; 2^32 x
// 2^32 likewise; 2^31 x 2 overflows int32) are refused like any other
// unsupported size, as are huge, negative and degenerate ones; every
// supported size from 2x2 to 2x8 passes.
func TestCheckSizeHostile(t *testing.T) {
	bad := [][2]int{
		{1 << 62, 4}, {4, 1 << 62}, {1 << 32, 1 << 32}, {1 << 31, 2}, {math.MaxInt, math.MaxInt},
		{math.MaxInt, 2}, {math.MinInt, math.MinInt}, {-4, -4}, {-1, -16}, {0, 0}, {1, 1}, {1, 16},
		{0, 4}, {5, 4}, {17, 1}, {3, 6}, {2, 9},
	}
	for _, s := range bad {
		assert.ErrorIs(t, CheckSize(s[0], s[1]), ErrSize, "%dx%d", s[0], s[1])
		_, err := NewGeometry(s[0], s[1])
		assert.ErrorIs(t, err, ErrSize, "NewGeometry %dx%d", s[0], s[1])
	}
	for rows := 2; rows <= 8; rows++ {
		for cols := 2; rows*cols <= MaxCells; cols++ {
			require.NoError(t, CheckSize(rows, cols), "%dx%d", rows, cols)
		}
	}
}
