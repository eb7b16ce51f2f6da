package gapset

import (
	"testing"

	"github.com/gapset/gapset/internal/statedir"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Boards pass; a key with a tile twice, a cell past the board, or bits
// above the board is refused as damage.
func TestCheckBoards(t *testing.T) {
	g, err := newGeometry(3, 3)
	require.NoError(t, err)
	keys := []uint64{g.goal}
	g.successors(g.goal, func(k uint64, _ bool) { keys = append(keys, k) })
	require.NoError(t, g.checkBoards(keys))
	for _, bad := range []uint64{
		g.goal ^ 1,            // a tile twice (and one missing)
		g.goal | 0xf,          // a nibble beyond the tiles
		g.goal | 1<<36,        // a bit above the board
		0,                     // no tiles at all
		g.goal ^ g.goal&0xf0f, // two blanks
	} {
		assert.ErrorIs(t, g.checkBoards([]uint64{g.goal, bad}), ErrDamaged, "%#x", bad)
	}
}

// BenchmarkCheckBoards is the board check's cost per key of a 4x4 layer
// (the enumeration pays it once per member, as it is expanded).
func BenchmarkCheckBoards(b *testing.B) {
	g, err := newGeometry(4, 4)
	require.NoError(b, err)
	keys := make([]uint64, 1<<12)
	k := g.goal
	for i := range keys {
		keys[i] = k
		g.successors(k, func(n uint64, _ bool) { k = n })
	}
	b.SetBytes(8 * int64(len(keys)))
	for b.Loop() {
		if err := g.checkBoards(keys); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkRunChecksum is the CRC-32C's cost per byte of run written or
// verified.
func BenchmarkRunChecksum(b *testing.B) {
	buf := make([]byte, 1<<16)
	for i := range buf {
		buf[i] = byte(i * 7)
	}
	b.SetBytes(int64(len(buf)))
	var sum uint32
	for b.Loop() {
		sum = statedir.Update(sum, buf)
	}
	_ = sum
}
