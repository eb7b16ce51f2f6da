package pipeline

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem/memfs"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/runners/prism"
	"github.com/gapset/gapset/gapset"
	"github.com/gapset/gapset/internal/slowtest"
	"github.com/gapset/gapset/internal/statedir"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestMain(m *testing.M) {
	flag.Parse()
	beam.Init()
	// Prism's log (set up by beam.Init) would bury the tests' output.
	slog.SetDefault(slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelError + 4})))
	os.Exit(m.Run())
}

// sameAsEnumerate runs gapset.Enumerate (every configuration) and the
// pipeline (in-process Prism) with the layout and checks that the key-set files are byte
// for byte the same and the summaries agree (layers, members, outputs).
// It returns the progress lines and the number of steps.
func sameAsEnumerate(t *testing.T, l gapset.Layout, opt Options) ([]string, int) {
	t.Helper()
	want := t.TempDir()
	full := l
	full.Transpose = false
	res, err := gapset.Enumerate(context.Background(), full.Config(want))
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
	steps := 0
	for _, c := range res.Layers {
		steps = max(steps, c.Manhattan+c.Gap+1)
	}
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
	if opt.WorkDir != "" && opt.WorkDir != opt.OutDir && !IsURL(opt.WorkDir) {
		left, err := os.ReadDir(opt.WorkDir)
		require.NoError(t, err)
		assert.Empty(t, left, "the work directory is removed at the end")
	}
	return lines, steps
}

// The pipeline writes Enumerate's files for each kind of layout: lanes,
// exact sets, packed files, prefix bits (none, many), pieces (Memory 1),
// transposed sets. The per-part API's own results are tested in the root
// module (gapset.TestPartAPIMatchesEnumerate); here its orchestration,
// one Beam job a step, so by default on the boards of fewest steps (2x3:
// 16; the transposed sets need a square board, 3x3: 27); the larger
// boards and gaps with GAPSET_SLOW=1.
func TestSmallBoardsMatchEnumerate(t *testing.T) {
	layouts := []gapset.Layout{
		{Rows: 2, Cols: 3, MaxGap: 4, Cells: []int{6, 4, 3}},
		{Rows: 2, Cols: 3, MaxGap: 2, Cells: []int{3}, PrefixBits: -1, Memory: 1},
		{Rows: 3, Cols: 3, MaxGap: 4, Exact: true, Cells: []int{4, 9}, PrefixBits: 6, Packed: true, Transpose: true, Memory: 1},
	}
	if slowtest.On() {
		layouts = append(layouts,
			gapset.Layout{Rows: 3, Cols: 3, MaxGap: 8, Cells: []int{9, 6, 4}},
			gapset.Layout{Rows: 3, Cols: 3, MaxGap: 4, Exact: true, Cells: []int{4, 9}, PrefixBits: 6, Packed: true},
			gapset.Layout{Rows: 2, Cols: 4, MaxGap: 8, Cells: []int{8, 5}, Packed: true},
			gapset.Layout{Rows: 2, Cols: 4, MaxGap: 2, Cells: []int{3}, PrefixBits: -1, Memory: 1},
			gapset.Layout{Rows: 3, Cols: 3, MaxGap: 8, Cells: []int{9, 6, 4}, Transpose: true},
		)
	}
	for _, l := range layouts {
		t.Run(fmt.Sprintf("%dx%d-gap%d-exact%v-transpose%v", l.Rows, l.Cols, l.MaxGap, l.Exact, l.Transpose), func(t *testing.T) {
			lines, steps := sameAsEnumerate(t, l, Options{Lanes: 1 + l.MaxGap/4})
			// One progress line per step (and the last step finds
			// nothing), one for the outputs.
			assert.Len(t, lines, steps+2)
		})
	}
}

// A run that fails at a step keeps the steps before it; the same
// enumeration run again continues after the last manifest (replaying the
// compactions of the projection runs: 8 runs fold into one, so the failure
// comes after step 9) and writes Enumerate's files; a run of another
// enumeration (or of the other --transpose mode) is refused until --fresh.
func TestResume(t *testing.T) {
	l := gapset.Layout{Rows: 3, Cols: 3, MaxGap: 2, Cells: []int{9, 6, 4}, Transpose: true}
	work := t.TempDir()
	// Part 1: tile 1 in cell 0, as in the goal.
	_, err := Enumerate(context.Background(), Options{Layout: l, OutDir: t.TempDir(), WorkDir: work, FailAt: "10/1/1"})
	require.ErrorContains(t, err, "step 10, part 1 of level 1: injected failure")
	manifests, err := filepath.Glob(filepath.Join(work, WorkName, "d*", manifestName))
	require.NoError(t, err)
	assert.Len(t, manifests, 10, "steps 0 to 9 are kept")

	gap4, full := l, l
	gap4.MaxGap, full.Transpose = 4, false
	for _, other := range []gapset.Layout{gap4, full} {
		_, err = Enumerate(context.Background(), Options{Layout: other, OutDir: t.TempDir(), WorkDir: work})
		require.ErrorIs(t, err, gapset.ErrArgs)
		require.ErrorContains(t, err, "give --fresh")
	}

	lines, steps := sameAsEnumerate(t, l, Options{WorkDir: work})
	require.NotEmpty(t, lines)
	assert.Contains(t, lines[0], "after step 9 (")
	assert.Contains(t, lines[1], "step  10:")
	assert.Len(t, lines, 1+(steps+1-10)+1, "resumed, steps 10 to the empty one, the outputs")

	// --fresh after a failure starts over.
	_, err = Enumerate(context.Background(), Options{Layout: l, OutDir: t.TempDir(), WorkDir: work, FailAt: "4/1/1"})
	require.ErrorContains(t, err, "injected failure")
	lines, steps = sameAsEnumerate(t, l, Options{WorkDir: work, Fresh: true})
	assert.Contains(t, lines[0], "step   0:")
	assert.Len(t, lines, steps+2)
}

// memfsUnder lists the memfs objects below url (memfs's * stops at '/':
// each depth is listed).
func memfsUnder(t *testing.T, url string) []string {
	t.Helper()
	fsys, err := filesystem.New(context.Background(), url)
	require.NoError(t, err)
	var all []string
	glob := strings.TrimSuffix(url, "/") + "/*"
	for range 5 {
		found, err := fsys.List(context.Background(), glob)
		require.NoError(t, err)
		all = append(all, found...)
		glob += "/*"
	}
	return all
}

// assertEmptyDir checks that a local directory holds nothing.
func assertEmptyDir(t *testing.T, dir, msg string) {
	t.Helper()
	left, err := os.ReadDir(dir)
	require.NoError(t, err)
	assert.Empty(t, left, msg)
}

// With the work location on an object store (memfs), the DoFns stage
// their files through the local scratch: Enumerate's files, nothing left
// in the scratch nor below the URL (the 3x3 and 3x4 boards with
// GAPSET_SLOW=1).
func TestObjectStoreMatchesEnumerate(t *testing.T) {
	layouts := []gapset.Layout{
		{Rows: 2, Cols: 3, MaxGap: 4, Cells: []int{6, 4, 3}},
		{Rows: 2, Cols: 3, MaxGap: 2, Cells: []int{6, 4}, Packed: true},
	}
	if slowtest.On() {
		layouts = append(layouts,
			gapset.Layout{Rows: 3, Cols: 3, MaxGap: 4, Cells: []int{9, 6, 4}},
			gapset.Layout{Rows: 3, Cols: 4, MaxGap: 2, Cells: []int{12, 8}, Packed: true})
	}
	for i, l := range layouts {
		t.Run(fmt.Sprintf("%dx%d-gap%d-packed%v", l.Rows, l.Cols, l.MaxGap, l.Packed), func(t *testing.T) {
			url := fmt.Sprintf("memfs://match%d/runs", i)
			scratch := t.TempDir()
			lines, steps := sameAsEnumerate(t, l, Options{WorkDir: url, LocalTmp: scratch, Lanes: 2})
			assert.Len(t, lines, steps+2)
			assertEmptyDir(t, scratch, "the scratch copies are removed")
			assert.Empty(t, memfsUnder(t, url), "the work location is emptied at the end")
		})
	}
}

// Resuming on an object store: the steps whose manifests the driver wrote
// are kept, the same enumeration continues after them, and --fresh starts
// over.
func TestObjectStoreResume(t *testing.T) {
	l := gapset.Layout{Rows: 2, Cols: 3, MaxGap: 4, Cells: []int{6, 4, 3}}
	url, scratch := "memfs://resume/runs", t.TempDir()
	_, err := Enumerate(context.Background(), Options{Layout: l, OutDir: t.TempDir(), WorkDir: url, LocalTmp: scratch, FailAt: "9/1/2"})
	require.ErrorContains(t, err, "step 9, part 2 of level 1: injected failure")
	assertEmptyDir(t, scratch, "the failed DoFn's scratch is removed too")
	var manifests, failed []string
	for _, name := range memfsUnder(t, url) {
		if strings.HasSuffix(name, "/"+manifestName) {
			manifests = append(manifests, name)
		}
		if strings.Contains(name, "/d000009/") {
			failed = append(failed, name)
		}
	}
	assert.Len(t, manifests, 9, "steps 0 to 8 are kept")
	assert.NotEmpty(t, failed, "the failed step's files were uploaded (and must be cleared)")
	assert.NotContains(t, manifests, url+"/"+WorkName+"/d000009/"+manifestName)

	lines, steps := sameAsEnumerate(t, l, Options{WorkDir: url, LocalTmp: scratch})
	require.NotEmpty(t, lines)
	assert.Contains(t, lines[0], "after step 8 (")
	assert.Contains(t, lines[1], "step   9:")
	assert.Len(t, lines, 1+(steps+1-9)+1, "resumed, steps 9 to the empty one, the outputs")
	assert.Empty(t, memfsUnder(t, url))

	_, err = Enumerate(context.Background(), Options{Layout: l, OutDir: t.TempDir(), WorkDir: url, LocalTmp: scratch, FailAt: "6/1/2"})
	require.ErrorContains(t, err, "injected failure")
	lines, steps = sameAsEnumerate(t, l, Options{WorkDir: url, LocalTmp: scratch, Fresh: true})
	assert.Contains(t, lines[0], "step   0:")
	assert.Len(t, lines, steps+2)
	assertEmptyDir(t, scratch, "")
}

// A file a manifest names with another size is refused when resuming.
func TestObjectStoreDamagedFile(t *testing.T) {
	l := gapset.Layout{Rows: 3, Cols: 3, MaxGap: 2, Cells: []int{9}}
	url := "memfs://damaged/runs"
	_, err := Enumerate(context.Background(), Options{Layout: l, OutDir: t.TempDir(), WorkDir: url, LocalTmp: t.TempDir(), FailAt: "10/1/1"})
	require.ErrorContains(t, err, "injected failure")
	var layer string
	for _, name := range memfsUnder(t, url) {
		if strings.Contains(name, "/d000009/L0-9.") {
			layer = name
		}
	}
	require.NotEmpty(t, layer, "step 9's layer of level 0")
	memfs.Write(layer, []byte("short"))
	_, err = Enumerate(context.Background(), Options{Layout: l, OutDir: t.TempDir(), WorkDir: url, LocalTmp: t.TempDir()})
	require.ErrorIs(t, err, gapset.ErrDamaged)
	require.ErrorContains(t, err, "has 5 bytes, the manifest says")
	require.ErrorContains(t, err, "give --fresh")
}

// A work location URL is marked as a local work directory is: a new one
// gets the marker first, one holding objects without it is refused (with
// --fresh too) and left as it was.
func TestObjectStoreMarker(t *testing.T) {
	l := gapset.Layout{Rows: 3, Cols: 3, MaxGap: 2, Cells: []int{9}}
	// Unique locations: memfs outlives a test (-count=N).
	id := time.Now().UnixNano()
	url := fmt.Sprintf("memfs://marker-%d/runs", id)
	_, err := Enumerate(context.Background(), Options{Layout: l, OutDir: t.TempDir(), WorkDir: url, LocalTmp: t.TempDir(), FailAt: "5/1/1"})
	require.ErrorContains(t, err, "injected failure")
	assert.Contains(t, memfsUnder(t, url), url+"/"+WorkName+"/"+statedir.MarkerName)

	theirs := fmt.Sprintf("memfs://theirs-%d/runs", id)
	precious := theirs + "/" + WorkName + "/precious.txt"
	memfs.Write(precious, []byte("mine\n"))
	for _, fresh := range []bool{false, true} {
		_, err = Enumerate(context.Background(), Options{Layout: l, OutDir: t.TempDir(), WorkDir: theirs, LocalTmp: t.TempDir(), Fresh: fresh})
		require.ErrorIs(t, err, gapset.ErrForeign)
		assert.ErrorContains(t, err, "holds no "+statedir.MarkerName+" marker")
		assert.Equal(t, []string{precious}, memfsUnder(t, theirs), "nothing removed or added")
	}
	memfs.Write(theirs+"/"+WorkName+"/"+statedir.MarkerName, statedir.Marker("checkpoint"))
	_, err = Enumerate(context.Background(), Options{Layout: l, OutDir: t.TempDir(), WorkDir: theirs, LocalTmp: t.TempDir()})
	require.ErrorIs(t, err, gapset.ErrForeign, "a marker of another kind")
}
