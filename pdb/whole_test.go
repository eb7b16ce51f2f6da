package pdb

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/gapset/gapset/encode"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// raised is a coherent forgery: 2 added to every non-zero entry. It keeps
// the one 0, every parity and the Manhattan bound, and the change along
// most moves: the sampled checks pass it, though it overestimates.
func raised(table []uint8) []uint8 {
	out := append([]uint8(nil), table...)
	for i, v := range out {
		if v != 0 {
			out[i] = v + 2
		}
	}
	return out
}

// A forged table of a named partition's group is refused by its digest,
// in either coding, though it passes the sampled checks; the genuine files
// load whole.
func TestLoadRefusesForgedNamedGroup(t *testing.T) {
	part, err := ParsePartition("4-4", 3, 3)
	require.NoError(t, err)
	for _, compact := range []bool{false, true} {
		dir := t.TempDir()
		require.NoError(t, BuildFiles(context.Background(), part, dir, 1, compact, nil, nil))
		s, err := Load(dir, part)
		require.NoError(t, err)
		assert.Empty(t, s.Sampled, "named groups are checked whole")
		for gi, g := range part.Groups {
			path := part.Paths(dir)[gi]
			good, err := os.ReadFile(path)
			require.NoError(t, err)
			table, step, err := Build(context.Background(), 3, 3, g, 1, nil)
			require.NoError(t, err)
			// the stored step raised by 2 as well: the goal of 5-6-7-8 has a
			// neighbour of 7, the step
			bad, badStep := raised(table), step+2
			require.NoError(t, Check(3, 3, g, bad, badStep), "the sampled checks pass the forgery")
			if compact {
				geo, err := encode.NewGeometry(3, 3)
				require.NoError(t, err)
				nib, err := compactTable(geo, g, bad, 1)
				require.NoError(t, err)
				require.NoError(t, WriteCompact(path, 3, 3, g, nib, badStep))
			} else {
				require.NoError(t, Write(path, 3, 3, g, bad, badStep))
			}
			_, err = Load(dir, part)
			assert.ErrorIs(t, err, ErrCorrupt)
			assert.ErrorContains(t, err, "not the file gapset builds")
			assert.ErrorContains(t, err, "rebuild it with")
			_, _, err = Read(path, 3, 3, g)
			assert.ErrorIs(t, err, ErrCorrupt)
			// a larger step alone (the payload genuine) is refused too
			if !compact {
				require.NoError(t, Write(path, 3, 3, g, table, step+1))
				_, err = Load(dir, part)
				assert.ErrorIs(t, err, ErrCorrupt)
			}
			require.NoError(t, os.WriteFile(path, good, 0o644))
		}
	}
}

// A small table of a group no named partition has is built again at load:
// the same forgery is refused, with the entry it differs at.
func TestLoadRebuildsSmallUnknownGroup(t *testing.T) {
	part, err := ParsePartition("1,2/3,4,5,6,7,8", 3, 3)
	require.NoError(t, err)
	dir := t.TempDir()
	require.NoError(t, BuildFiles(context.Background(), part, dir, 1, false, nil, nil))
	s, err := Load(dir, part)
	require.NoError(t, err)
	assert.Empty(t, s.Sampled)
	g := part.Groups[1]
	table, step, err := Build(context.Background(), 3, 3, g, 1, nil)
	require.NoError(t, err)
	require.NoError(t, Write(part.Paths(dir)[1], 3, 3, g, raised(table), step))
	_, err = Load(dir, part)
	assert.ErrorIs(t, err, ErrCorrupt)
	assert.ErrorContains(t, err, "the table built again has")
}

// A large table of an unknown group is checked by samples only, and Load
// says which: here a 7-tile group of the 3x4 board (3,991,680 entries).
func TestLoadReportsSampledGroups(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a 4-million-entry table")
	}
	part, err := ParsePartition("1,2,3,4,5,6,7/8,9,10,11", 3, 4)
	require.NoError(t, err)
	dir := t.TempDir()
	require.NoError(t, BuildFiles(context.Background(), part, dir, 2, false, nil, nil))
	s, err := Load(dir, part)
	require.NoError(t, err)
	assert.Equal(t, []string{filepath.Join(dir, FileName(3, 4, part.Groups[0]))}, s.Sampled)
}
