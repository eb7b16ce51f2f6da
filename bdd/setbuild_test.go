package bdd

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"testing"

	"github.com/gapset/gapset/keyset"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A set build from a key file, from keys enumerated in memory and out of
// core writes the same diagram; its line names the file, the mapped
// form's line its size, and an out-of-core build says so.
func TestSetBuild(t *testing.T) {
	g0, _ := bfs3x3(t)
	keys := project(g0, 6)
	dir := t.TempDir()
	h := keyset.Header{Rows: 3, Cols: 3, Cells: 6, Gap: 0}
	kpath := filepath.Join(dir, "g0_6.keys")
	require.NoError(t, keyset.WriteFile(kpath, h, keys))
	h, err := keyset.ReadHeader(kpath)
	require.NoError(t, err)
	order, err := NamedOrder("natural", 3, 3, 6)
	require.NoError(t, err)
	kb := KeysBuild{Order: order, Encoding: Cells, Count: h.Count, ZDD: true}

	for i, sb := range []SetBuild{
		{KeyFile: kpath},
		{Enumerate: func() ([]uint64, error) { return slices.Clone(keys), nil }},
		{KeyFile: kpath, OutOfCore: &OutOfCore{Memory: 64 << 20, TempDir: dir}},
	} {
		sb.Header, sb.Keys = h, kb
		sb.Out = filepath.Join(dir, fmt.Sprintf("%d.bdd", i))
		sb.Map = filepath.Join(dir, fmt.Sprintf("%d.bddmap", i))
		saving := 0
		sb.Saving = func(nodes int) { saving = nodes }
		lines, err := sb.Run(context.Background())
		require.NoError(t, err, "%d", i)
		in, err := ReadInfo(sb.Out)
		require.NoError(t, err)
		assert.Equal(t, int(in.Nodes), saving, "told the nodes before saving")
		require.Len(t, lines, 2)
		assert.Regexp(t, fmt.Sprintf(`^Gap0_6 order=natural patterns=%d nodes=%d zdd_nodes=%d bytes=%d build=`, len(keys), in.Nodes, in.ZDDNodes, in.FileSize), lines[0])
		assert.Equal(t, sb.OutOfCore != nil, regexp.MustCompile(`out_of_core=\d+_parts bottom_levels=\d+ -> `).MatchString(lines[0]), lines[0])
		st, err := os.Stat(sb.Map)
		require.NoError(t, err)
		assert.Equal(t, fmt.Sprintf("Gap0_6 mapped nodes=%d bytes=%d -> %s", in.Nodes, st.Size(), sb.Map), lines[1])
	}
	in0, err := ReadInfo(filepath.Join(dir, "0.bdd"))
	require.NoError(t, err)
	for i := 1; i < 3; i++ {
		in, err := ReadInfo(filepath.Join(dir, fmt.Sprintf("%d.bdd", i)))
		require.NoError(t, err)
		assert.Equal(t, in0.Nodes, in.Nodes, "%d", i)
		assert.Equal(t, in0.Count, in.Count, "%d", i)
	}

	_, err = SetBuild{Enumerate: func() ([]uint64, error) { return nil, context.Canceled }, Header: h, Keys: kb, Out: filepath.Join(dir, "x.bdd")}.Run(context.Background())
	assert.ErrorIs(t, err, context.Canceled)
	assert.NoFileExists(t, filepath.Join(dir, "x.bdd"))
}
