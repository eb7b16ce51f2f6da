package gapset

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/gapset/gapset/keyset"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestEnumerateMatchesSets(t *testing.T) {
	for _, tc := range []struct {
		gap     int
		exact   bool
		memory  int64
		inChunk int
	}{
		{0, false, 1 << 24, 1 << 20},
		{2, false, 1 << 24, 1 << 20},
		{4, false, 1 << 24, 1 << 20},
		{2, false, 1, 128}, // tiny buffers: candidates spill and merge
		{2, true, 1, 128},
		{4, true, 1 << 24, 1 << 20},
	} {
		dir := t.TempDir()
		cells := []int{9, 6, 4}
		var reports []Progress
		res, err := enumerate(context.Background(), Config{Rows: 3, Cols: 3, MaxGap: tc.gap, Exact: tc.exact, Cells: cells, Dir: dir,
			Memory: tc.memory, Progress: func(p Progress) { reports = append(reports, p) }}, tc.inChunk)
		require.NoError(t, err, "%+v", tc)
		require.NotEmpty(t, reports)
		lo := 0
		if tc.exact {
			lo = tc.gap
		}
		layers, err := memLayers(context.Background(), 3, 3, tc.gap, -1, nil)
		require.NoError(t, err)
		var sel []memLayer
		var total int64
		for _, l := range layers {
			total += int64(len(l.keys))
			if 2*l.level >= lo {
				sel = append(sel, l)
			}
		}
		assert.Equal(t, total, res.Members)
		if tc.inChunk < 1<<20 {
			assert.Positive(t, res.Spills, "the tiny buffers should have spilled")
		}
		require.Len(t, res.Outputs, len(cells))
		for _, out := range res.Outputs {
			h, keys, err := keyset.ReadAll(out.Path)
			require.NoError(t, err)
			want, _ := unionProjected(sel, out.Cells, 9, nil)
			assert.Equal(t, want, keys, "%+v k=%d", tc, out.Cells)
			assert.Equal(t, uint64(len(want)), out.Count)
			assert.Equal(t, keyset.Header{Rows: 3, Cols: 3, Cells: out.Cells, Gap: tc.gap, Exact: tc.exact && tc.gap > 0, Count: uint64(len(want))}, h)
			assert.Equal(t, filepath.Join(dir, h.Name()+".keys"), out.Path)
		}
		// Only the key-set files remain: the scratch runs are gone.
		entries, err := os.ReadDir(dir)
		require.NoError(t, err)
		assert.Len(t, entries, len(cells))
	}
}

func TestEnumerateCancel(t *testing.T) {
	dir := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	n := 0
	_, err := Enumerate(ctx, Config{Rows: 3, Cols: 3, MaxGap: 2, Cells: []int{9}, Dir: dir, Memory: 1 << 20,
		Progress: func(Progress) {
			if n++; n == 10 {
				cancel()
			}
		}})
	assert.ErrorIs(t, err, context.Canceled)
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	assert.Empty(t, entries, "no partial output")
}
