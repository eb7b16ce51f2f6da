package gapset

import (
	"context"
	"io/fs"
	"path/filepath"
	"slices"
	"testing"

	"github.com/gapset/gapset/internal/statedir"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Every layer's part runs are sorted, free of repeats, hold only keys
// whose top bits name their part, and together are exactly the layer
// the in-memory enumeration finds: with several part widths, and with
// buffers so small that candidate pieces spill and are merged per part.
func TestLayerParts(t *testing.T) {
	for _, tc := range []struct {
		rows, cols, gap, bits int
		memory                int64
		inChunk               int
	}{
		{3, 3, 2, 3, 1, 128}, // tiny buffers: pieces spill
		{3, 3, 4, 1, 1 << 24, 1 << 20},
		{3, 4, 2, 5, 1, 512},
		{3, 4, 0, 8, 1 << 24, 1 << 20},
		{2, 4, 4, -1, 1, 16}, // one part: the unsplit layout
	} {
		mem, err := memLayers(context.Background(), tc.rows, tc.cols, tc.gap, -1, nil)
		require.NoError(t, err)
		want := map[[2]int][]uint64{}
		for _, l := range mem {
			want[[2]int{l.level, l.step}] = l.keys
		}
		n := tc.rows * tc.cols
		width, bits := 4*n, max(0, tc.bits)
		seen := map[[2]int]bool{}
		onLayer := func(j, d int, l parts) {
			var all []uint64
			if l.n > 0 {
				require.Len(t, l.runs, 1<<bits, "%+v layer %d/%d", tc, j, d)
			}
			for p, r := range l.runs {
				if r.path == "" {
					assert.Zero(t, r.n, "an empty part has no file")
					continue
				}
				require.Positive(t, r.n, "%+v: part %d of layer %d/%d has a file but no keys", tc, p, j, d)
				var keys []uint64
				require.NoError(t, forEachChunk(r, 7, func(a []uint64) error { keys = append(keys, a...); return nil }))
				require.Len(t, keys, int(r.n))
				for i, k := range keys {
					require.Equal(t, p, int(k>>uint(width-bits)), "%+v: key %#x in part %d", tc, k, p)
					if i > 0 {
						require.Less(t, keys[i-1], k, "sorted without repeats")
					}
				}
				all = append(all, keys...)
			}
			assert.Equal(t, int64(len(all)), l.n)
			assert.True(t, slices.IsSorted(all), "parts in order make the layer in order")
			assert.Equal(t, want[[2]int{j, d}], all, "%+v layer %d at step %d", tc, j, d)
			if l.n > 0 {
				seen[[2]int{j, d}] = true
			}
		}
		cfg := Config{Rows: tc.rows, Cols: tc.cols, MaxGap: tc.gap, Cells: []int{n, n - 2}, Dir: t.TempDir(),
			Memory: tc.memory, PrefixBits: tc.bits}
		res, err := enumerateWith(context.Background(), cfg, tc.inChunk, onLayer)
		require.NoError(t, err)
		assert.Len(t, seen, len(want), "%+v: every layer seen", tc)
		if tc.memory == 1 {
			assert.Positive(t, res.Spills, "%+v: the tiny buffers should have spilled", tc)
		}
	}
}

// partBounds splits sorted keys at the part boundaries.
func TestPartBounds(t *testing.T) {
	a := []uint64{0x01, 0x0f, 0x10, 0x35, 0x36, 0xf0}
	assert.Equal(t, []int{0, 2, 3, 3, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 6}, partBounds(a, 8, 4))
	assert.Equal(t, []int{0, 5, 6}, partBounds(a, 8, 1))
	assert.Equal(t, []int{0, 6}, partBounds(a, 8, 0))
	assert.Equal(t, []int{0, 0, 0}, partBounds(nil, 8, 1))
}

// The manifest records the splitting, and a run resumed with another
// PrefixBits keeps the checkpoint's and writes the same files.
func TestCheckpointKeepsItsParts(t *testing.T) {
	base := Config{Rows: 3, Cols: 3, MaxGap: 2, Cells: []int{9, 5}, Memory: 1 << 24, Packed: true}
	ref := base
	ref.Dir = t.TempDir()
	_, err := Enumerate(context.Background(), ref)
	require.NoError(t, err)
	want := readOutputs(t, ref.Dir)

	cfg := base
	cfg.Dir = t.TempDir()
	cfg.Checkpoint = filepath.Join(cfg.Dir, CheckpointName)
	cfg.PrefixBits = 3
	stopAfter(t, cfg, 30)
	m, ok, err := readManifest(cfg.Checkpoint)
	require.NoError(t, err)
	require.True(t, ok, "a checkpoint was written before the stop")
	assert.Equal(t, 3, m.PrefixBits)
	assert.Equal(t, 3, m.ProjectionBits)
	files := 0
	for _, ls := range m.Runs {
		for _, l := range ls {
			var sum int64
			for i, r := range l.Parts {
				assert.Less(t, r.P, 8)
				if i > 0 {
					assert.Less(t, l.Parts[i-1].P, r.P, "parts in order")
				}
				assert.Positive(t, r.N, "an empty part has no file")
				sum += r.N
				files++
			}
			assert.Equal(t, l.N, sum)
		}
	}
	assert.Positive(t, files)

	resumed := false
	cfg.PrefixBits = 5
	cfg.OnResume = func(Resumed) { resumed = true }
	_, err = Enumerate(context.Background(), cfg)
	require.NoError(t, err)
	assert.True(t, resumed)
	assert.Equal(t, want, readOutputs(t, cfg.Dir))
}

// The summary's peak disk counts every run file: at each finished layer the
// scratch and checkpoint files on the disk (whole parts, projections,
// spilled pieces, in both run codings) are at most the peak reported.
func TestPeakDiskCountsEveryRun(t *testing.T) {
	for _, tc := range []struct {
		name string
		cfg  Config
	}{
		{"spilling, key differences", Config{Rows: 3, Cols: 4, MaxGap: 0, Cells: []int{12, 8}, Memory: 1, PrefixBits: 4}},
		{"rank-coded, checkpointed", Config{Rows: 3, Cols: 4, MaxGap: 2, Cells: []int{12, 6}, Memory: 1 << 20, PrefixBits: 3, RankRuns: true}},
		{"raw runs, one part", Config{Rows: 3, Cols: 3, MaxGap: 4, Cells: []int{9, 5}, Memory: 1, PrefixBits: -1, RawRuns: true}},
	} {
		cfg := tc.cfg
		cfg.Dir = t.TempDir()
		if cfg.RankRuns {
			cfg.Checkpoint = filepath.Join(cfg.Dir, CheckpointName)
		}
		var most int64
		onLayer := func(j, d int, l parts) {
			var on int64
			require.NoError(t, filepath.WalkDir(cfg.Dir, func(path string, de fs.DirEntry, err error) error {
				if err != nil || de.IsDir() || de.Name() == manifestName || de.Name() == statedir.MarkerName {
					return err
				}
				info, err := de.Info()
				if err == nil {
					on += info.Size()
				}
				return err
			}))
			most = max(most, on)
		}
		res, err := enumerateWith(context.Background(), cfg, 64, onLayer)
		require.NoError(t, err)
		require.Positive(t, most, tc.name)
		assert.GreaterOrEqual(t, res.PeakDisk, most, "%s: run files on the disk beyond the peak counted", tc.name)
	}
}
