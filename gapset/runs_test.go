package gapset

import (
	"bytes"
	"context"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Delta-coded runs read back exactly, in chunks of any size, and refuse a
// truncated file.
func TestDeltaRunsRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 5))
	dir := t.TempDir()
	for _, n := range []int{0, 1, 1000, 100000} {
		keys := make([]uint64, n)
		for i := range keys {
			keys[i] = rng.Uint64() >> uint(rng.IntN(64))
		}
		slices.Sort(keys)
		keys = slices.Compact(keys)
		raw, err := writeRun(filepath.Join(dir, "raw"), keys, coding{})
		require.NoError(t, err)
		del, err := writeRun(filepath.Join(dir, "delta"), keys, coding{delta: true})
		require.NoError(t, err)
		assert.Equal(t, 8*int64(len(keys)), raw.bytes)
		st, err := os.Stat(del.path)
		require.NoError(t, err)
		assert.Equal(t, st.Size(), del.bytes)
		for _, chunk := range []int{1, 7, 1 << 16} {
			for _, r := range []run{raw, del} {
				var got []uint64
				require.NoError(t, forEachChunk(r, chunk, func(a []uint64) error { got = append(got, a...); return nil }))
				assert.Equal(t, len(keys), len(got))
				if len(keys) > 0 {
					assert.Equal(t, keys, got, "n=%d chunk=%d delta=%v", n, chunk, r.delta)
				}
			}
		}
		if n == 100000 {
			// dense keys compress: sorted 100,000 keys of a 64-bit space
			// still take under 8 bytes each
			assert.Less(t, del.bytes, raw.bytes)
			require.NoError(t, os.Truncate(del.path, del.bytes-3))
			err := forEachChunk(del, 1<<10, func([]uint64) error { return nil })
			assert.ErrorContains(t, err, "truncated or damaged")
		}
	}
	_, err := writeRun(filepath.Join(dir, "bad"), []uint64{5, 3}, coding{delta: true})
	assert.Error(t, err, "delta runs must be sorted")
}

// The enumeration writes byte-identical key-set files with raw, delta-coded
// and rank-coded runs (spilling and compacting too), with less scratch disk
// each time.
func TestEnumerateDeltaRunsSameFiles(t *testing.T) {
	var peak [3]int64
	var files [3][][]byte
	for i, c := range []Config{{RawRuns: true}, {}, {RankRuns: true}} {
		dir := t.TempDir()
		c.Rows, c.Cols, c.MaxGap, c.Cells, c.Dir, c.Memory = 3, 3, 4, []int{9, 7, 5}, dir, 1
		res, err := enumerate(context.Background(), c, 128)
		require.NoError(t, err)
		assert.Positive(t, res.Spills)
		peak[i] = res.PeakDisk
		for _, out := range res.Outputs {
			b, err := os.ReadFile(out.Path)
			require.NoError(t, err)
			files[i] = append(files[i], b)
		}
	}
	for i := 1; i < 3; i++ {
		require.Len(t, files[i], 3)
		for j := range files[0] {
			assert.True(t, bytes.Equal(files[0][j], files[i][j]), "coding %d: output %d differs", i, j)
		}
	}
	assert.Less(t, peak[1], peak[0]/2, "delta-coded runs: peak scratch %d against %d raw", peak[1], peak[0])
	assert.Less(t, peak[2], peak[1], "rank-coded runs: peak scratch %d against %d delta-coded", peak[2], peak[1])
	t.Logf("peak scratch disk: raw %d, delta %d, rank %d", peak[0], peak[1], peak[2])
}
