package pdb

import (
	"bytes"
	"context"
	"crypto/sha256"
	"hash/crc32"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gapset/gapset/internal/placement"
)

// Check passes built tables and refuses the damage a recomputed checksum
// would hide: a zero moved away from the goal, a value below the Manhattan
// distance, a jump larger than the step.
func TestCheck(t *testing.T) {
	group := []uint8{1, 2, 3, 4}
	table, step, err := Build(context.Background(), 3, 3, group, 1, nil)
	require.NoError(t, err)
	require.NoError(t, Check(3, 3, group, table, step))
	goal := placement.Rank([]uint8{0, 1, 2, 3}, 9)

	bad := func(edit func([]uint8)) error {
		c := append([]uint8(nil), table...)
		edit(c)
		return Check(3, 3, group, c, step)
	}
	assert.ErrorContains(t, bad(func(c []uint8) { c[goal] = 1 }), "goal placement")
	assert.ErrorContains(t, bad(func(c []uint8) { c[goal+1] = 0 }), "entries are 0")
	// an entry raised far above its neighbours is caught when it or one of
	// its neighbours is in the sample: on this small table nearly always
	caught := 0
	for i := range table {
		if i != goal && bad(func(c []uint8) { c[i] = 200 }) != nil {
			caught++
		}
	}
	assert.Greater(t, float64(caught)/float64(len(table)-1), 0.95)
	assert.Error(t, bad(func(c []uint8) {
		for i := range c {
			if i != goal {
				c[i] = 1 // below the Manhattan distance of most placements
			}
		}
	}))
	assert.Error(t, Check(3, 3, group, table[:10], step))
}

// readSummed's chunked checksum, zero count and digest equal the one-pass
// ones, whatever the table's size against the chunk; a short source is an
// error.
func TestReadSummed(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for _, n := range []int{0, 1, readChunk - 1, readChunk, 2*readChunk + 12345} {
		src := make([]byte, n)
		for i := range src {
			src[i] = byte(rng.IntN(5)) // about a fifth are 0
		}
		table := make([]byte, n)
		sha := sha256.New()
		sum, zeros, err := readSummed(bytes.NewReader(src), table, 77, sha)
		require.NoError(t, err, n)
		assert.Equal(t, sha256.Sum256(src), [32]byte(sha.Sum(nil)), n)
		assert.Equal(t, src, table, n)
		assert.Equal(t, crc32.Update(77, castagnoli, src), sum, n)
		assert.Equal(t, bytes.Count(src, []byte{0}), zeros, n)
		if n > 0 {
			_, _, err = readSummed(bytes.NewReader(src[:n-1]), table, 0, nil)
			assert.Error(t, err, n)
		}
	}
}

// crc32Join joins two halves' checksums into the whole's at any split,
// from any initial value, as one pass over the whole gives.
func TestCRC32Join(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	data := make([]byte, 5000)
	for i := range data {
		data[i] = byte(rng.Uint32())
	}
	for _, cut := range []int{0, 1, 7, 8, 2500, 4999, 5000} {
		for _, start := range []uint32{0, 77, 0xffffffff} {
			head := crc32.Update(start, castagnoli, data[:cut])
			tail := crc32.Update(0, castagnoli, data[cut:])
			require.Equal(t, crc32.Update(start, castagnoli, data), crc32Join(head, tail, len(data)-cut), "cut %d start %d", cut, start)
		}
	}
	big := make([]byte, 3*splitSum+5) // sumMapped's split path
	for i := range big {
		big[i] = byte(i * 7)
	}
	sum, _ := sumMapped(big, 9, false, nil)
	require.Equal(t, crc32.Update(9, castagnoli, big), sum)
}
