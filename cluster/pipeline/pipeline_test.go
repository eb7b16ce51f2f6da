package pipeline

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/runners/prism"
	"github.com/gapset/gapset/gapset"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestMain(m *testing.M) {
	flag.Parse()
	beam.Init()
	os.Exit(m.Run())
}

// sameAsEnumerate runs gapset.Enumerate and the pipeline (in-process
// Prism) with the same layout and checks that the key-set files are byte
// for byte the same and the summaries agree (layers, members, outputs).
func sameAsEnumerate(t *testing.T, l gapset.Layout, opt Options) gapset.Result {
	t.Helper()
	want := t.TempDir()
	res, err := gapset.Enumerate(context.Background(), l.Config(want))
	require.NoError(t, err)
	opt.Layout, opt.OutDir = l, t.TempDir()
	var lines []string
	opt.Progress = func(s string) { lines = append(lines, s) }
	got, err := Enumerate(context.Background(), opt)
	require.NoError(t, err)
	assert.Equal(t, res.Layers, got.Layers)
	assert.Equal(t, res.Members, got.Members)
	require.Len(t, got.Outputs, len(res.Outputs))
	for i, o := range res.Outputs {
		g := got.Outputs[i]
		assert.Equal(t, o.Cells, g.Cells, "outputs in Enumerate's order")
		assert.Equal(t, o.Name, g.Name)
		assert.Equal(t, o.Count, g.Count)
		assert.Equal(t, filepath.Join(opt.OutDir, filepath.Base(o.Path)), g.Path)
		a, err := os.ReadFile(o.Path)
		require.NoError(t, err)
		b, err := os.ReadFile(g.Path)
		require.NoError(t, err)
		assert.True(t, bytes.Equal(a, b), "%s differs from gapset.Enumerate's", o.Name)
	}
	// One progress line per step (and the last step finds nothing), one
	// for the outputs.
	steps := 0
	for _, c := range res.Layers {
		steps = max(steps, c.Manhattan+c.Gap+1)
	}
	assert.Len(t, lines, steps+2)
	// Only the key-set files are left: the work directory is gone.
	left, err := os.ReadDir(opt.OutDir)
	require.NoError(t, err)
	var names []string
	for _, e := range left {
		names = append(names, e.Name())
	}
	slices.Sort(names)
	var wantNames []string
	for _, o := range res.Outputs {
		wantNames = append(wantNames, filepath.Base(o.Path))
	}
	slices.Sort(wantNames)
	assert.Equal(t, wantNames, names)
	return got
}

func TestSmallBoardsMatchEnumerate(t *testing.T) {
	for _, l := range []gapset.Layout{
		{Rows: 3, Cols: 3, MaxGap: 8, Cells: []int{9, 6, 4}},
		{Rows: 3, Cols: 3, MaxGap: 4, Exact: true, Cells: []int{4, 9}, PrefixBits: 8, Packed: true},
		{Rows: 2, Cols: 4, MaxGap: 8, Cells: []int{8, 5}, Packed: true},
		{Rows: 2, Cols: 4, MaxGap: 2, Cells: []int{3}, PrefixBits: -1, Memory: 1},
	} {
		t.Run(fmt.Sprintf("%dx%d-gap%d-exact%v", l.Rows, l.Cols, l.MaxGap, l.Exact), func(t *testing.T) {
			sameAsEnumerate(t, l, Options{})
		})
	}
}
