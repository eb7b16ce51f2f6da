package gapset

import (
	"bytes"
	"context"
	"encoding/json"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/gapset/gapset/encode"
	"github.com/gapset/gapset/internal/slowtest"
	"github.com/gapset/gapset/internal/statedir"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// readOutputs returns the files of a finished run's directory by name.
func readOutputs(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	for _, e := range entries {
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		require.NoError(t, err)
		out[e.Name()] = b
	}
	return out
}

// A run stopped at random moments (between and inside steps, and while the
// key-set files are written) and started again as often as it takes writes
// the same bytes as a run never stopped, and leaves no checkpoint behind.
// One run stopped a case by default, three with GAPSET_SLOW=1.
func TestCheckpointResumeIsByteIdentical(t *testing.T) {
	trials := 1
	if slowtest.On() {
		trials = 3
	}
	for _, tc := range []struct {
		rows, cols, gap int
		exact           bool
		cells           []int
		inChunk         int
		transpose       bool // the runs stopped are canonical; the reference is not
		sets            []encode.CellSet
	}{
		{3, 3, 4, false, []int{9, 6, 4}, 1 << 20, false, nil}, // the whole board keeps every layer
		{3, 3, 4, true, []int{5, 7}, 64, false, nil},          // tiny chunks: spills inside steps
		{2, 4, 6, false, []int{6, 8}, 1 << 20, false, nil},
		{3, 3, 4, false, []int{9, 5}, 64, true, nil},                                      // the whole board from projection runs
		{3, 3, 4, false, []int{5}, 64, true, []encode.CellSet{0x1C7, 0x49}},               // cell sets: their runs in the checkpoint
		{2, 4, 6, false, nil, 1 << 20, false, []encode.CellSet{0x0C3, 0x055, 0x0F0 >> 1}}, // cell sets alone
	} {
		base := Config{Rows: tc.rows, Cols: tc.cols, MaxGap: tc.gap, Exact: tc.exact, Cells: tc.cells, Sets: tc.sets, Memory: 1 << 24, Packed: true}
		ref := base
		ref.Dir = t.TempDir()
		_, err := enumerate(context.Background(), ref, tc.inChunk)
		require.NoError(t, err)
		want := readOutputs(t, ref.Dir)

		rng := rand.New(rand.NewPCG(uint64(tc.rows*100+tc.gap), 7))
		totalResumes := 0
		for trial := 0; trial < trials; trial++ {
			cfg := base
			cfg.Transpose = tc.transpose
			cfg.Dir = t.TempDir()
			cfg.Checkpoint = filepath.Join(cfg.Dir, CheckpointName)
			stops, resumes := 0, 0
			cfg.OnResume = func(r Resumed) {
				resumes++
				assert.Positive(t, r.Members)
			}
			var res Result
			for attempt := 0; ; attempt++ {
				require.Less(t, attempt, 200, "no progress")
				ctx, cancel := context.WithCancel(context.Background())
				reports, stopAt := 0, 1+rng.IntN(40)
				c := cfg
				c.RankRuns = attempt%2 == 1 // a checkpoint holds runs of both codings
				// Projection tables asked for or not: a checkpoint's choice stands.
				c.Tables = (trial+attempt/2)%2 == 0
				c.Progress = func(Progress) {
					if reports++; reports == stopAt {
						cancel()
					}
				}
				res, err = enumerate(ctx, c, tc.inChunk)
				cancel()
				if err == nil {
					break
				}
				require.ErrorIs(t, err, context.Canceled)
				stops++
			}
			got := readOutputs(t, cfg.Dir)
			for name, b := range want {
				assert.True(t, bytes.Equal(b, got[name]), "%+v trial %d: %d stops: %s differs (%d bytes, want %d)", tc, trial, stops, name, len(got[name]), len(b))
			}
			assert.Len(t, got, len(want), "%+v trial %d: %d stops", tc, trial, stops)
			assert.NoDirExists(t, cfg.Checkpoint)
			assert.LessOrEqual(t, resumes, stops, "a stop before the first checkpoint starts over")
			totalResumes += resumes
			var members int64
			for _, l := range res.Layers {
				members += l.Count
			}
			assert.Equal(t, members, res.Members, "the layer counts add up across processes")
		}
		assert.Positive(t, totalResumes, "%+v: some stops came after a checkpoint", tc)
	}
}

// A checkpoint of another enumeration is refused, with the arguments in
// the message, and left alone.
func TestCheckpointMismatchRefused(t *testing.T) {
	dir := t.TempDir()
	cp := filepath.Join(dir, CheckpointName)
	stopAfter(t, Config{Rows: 3, Cols: 3, MaxGap: 2, Cells: []int{9}, Dir: dir, Checkpoint: cp}, 12)
	manifest, err := os.ReadFile(filepath.Join(cp, manifestName))
	require.NoError(t, err)
	for _, other := range []Config{
		{Rows: 3, Cols: 3, MaxGap: 4, Cells: []int{9}},
		{Rows: 3, Cols: 3, MaxGap: 2, Exact: true, Cells: []int{9}},
		{Rows: 3, Cols: 3, MaxGap: 2, Cells: []int{9, 6}},
		{Rows: 3, Cols: 3, MaxGap: 2, Cells: []int{9}, Packed: true},
		{Rows: 2, Cols: 4, MaxGap: 2, Cells: []int{8}},
		{Rows: 3, Cols: 3, MaxGap: 2, Cells: []int{9}, Transpose: true},
		{Rows: 3, Cols: 3, MaxGap: 2, Cells: []int{9}, Sets: []encode.CellSet{0x7}},
	} {
		other.Dir, other.Checkpoint = dir, cp
		_, err := Enumerate(context.Background(), other)
		require.ErrorIs(t, err, ErrCheckpoint, "%+v", other)
		assert.ErrorIs(t, err, ErrArgs)
		assert.ErrorContains(t, err, "--fresh")
		after, err := os.ReadFile(filepath.Join(cp, manifestName))
		require.NoError(t, err)
		assert.Equal(t, manifest, after, "the checkpoint is untouched")
	}
	// The same enumeration with other buffers resumes and finishes.
	_, err = Enumerate(context.Background(), Config{Rows: 3, Cols: 3, MaxGap: 2, Cells: []int{9}, Dir: dir, Checkpoint: cp, Memory: 1 << 20})
	require.NoError(t, err)
	assert.NoDirExists(t, cp)
}

// Two processes never work on one checkpoint.
func TestCheckpointLocked(t *testing.T) {
	dir := t.TempDir()
	cp := filepath.Join(dir, CheckpointName)
	unlock, err := openCheckpoint(cp)
	require.NoError(t, err)
	defer unlock()
	_, err = Enumerate(context.Background(), Config{Rows: 2, Cols: 3, MaxGap: 0, Cells: []int{6}, Dir: dir, Checkpoint: cp})
	assert.ErrorContains(t, err, "is in use by")
}

// A manifest whose runs do not fit its step is refused as damaged, not
// resumed into wrong layers.
func TestCheckpointShapeChecked(t *testing.T) {
	dir := t.TempDir()
	cp := filepath.Join(dir, CheckpointName)
	cfg := Config{Rows: 3, Cols: 3, MaxGap: 2, Cells: []int{9, 5}, Dir: dir, Checkpoint: cp, CheckpointEvery: 0}
	stopAfter(t, cfg, 20)
	path := filepath.Join(cp, manifestName)
	good, err := os.ReadFile(path)
	require.NoError(t, err)
	for name, damage := range map[string]func(m map[string]any){
		"a level missing": func(m map[string]any) { m["runs"] = m["runs"].([]any)[:1] },
		"a step too far":  func(m map[string]any) { m["step"] = m["step"].(float64) + 1 },
		"a foreign projection": func(m map[string]any) {
			m["projections"] = map[string]any{"7": []any{}}
		},
		"a foreign cell set": func(m map[string]any) {
			m["cell_set_projections"] = map[string]any{"0007": []any{}}
		},
		"a cell set misspelt": func(m map[string]any) {
			m["cell_set_projections"] = map[string]any{"7": []any{}}
		},
		"a run coded for another board": func(m map[string]any) {
			for _, level := range m["runs"].([]any) {
				for _, r := range level.([]any) {
					parts, _ := r.(map[string]any)["parts"].([]any)
					for _, p := range parts {
						p.(map[string]any)["cells"] = 16
					}
				}
			}
		},
	} {
		var env map[string]any
		require.NoError(t, json.Unmarshal(good, &env))
		d := env["payload"].(map[string]any)
		damage(d)
		b, err := json.Marshal(env)
		require.NoError(t, err)
		require.NoError(t, os.WriteFile(path, b, 0o644))
		_, err = Enumerate(context.Background(), cfg)
		assert.ErrorIs(t, err, ErrDamaged, name)
		assert.ErrorContains(t, err, "fails its checksum", name)
		// Behind a checksum made to fit, the shape is still checked.
		reseal(t, path, d)
		_, err = Enumerate(context.Background(), cfg)
		assert.ErrorIs(t, err, ErrDamaged, name)
		assert.ErrorContains(t, err, "--fresh", name)
	}
	require.NoError(t, os.WriteFile(path, good, 0o644))
	_, err = Enumerate(context.Background(), cfg)
	require.NoError(t, err, "the undamaged checkpoint resumes")
	assert.NoDirExists(t, cp)
}

// reseal writes the manifest payload d at path with its checksum made to
// fit (what only a deliberate forgery does).
func reseal(t *testing.T, path string, d map[string]any) {
	t.Helper()
	out, err := statedir.Seal(checkpointFormat, d)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(path, out, 0o644))
}

// A forged checkpoint (a layer's key changed, its run's checksum and the
// manifest's made to fit) is still refused: the layers' keys must be
// boards. Such a flip once panicked in expandRaise.
func TestCheckpointNonBoardRefused(t *testing.T) {
	dir := t.TempDir()
	cp := filepath.Join(dir, CheckpointName)
	cfg := Config{Rows: 3, Cols: 3, MaxGap: 2, Cells: []int{9}, Dir: dir, Checkpoint: cp, RawRuns: true}
	stopAfter(t, cfg, 20)
	path := filepath.Join(cp, manifestName)
	m, ok, err := readManifest(cp)
	require.NoError(t, err)
	require.True(t, ok)
	ls := m.Runs[0]
	rec := &ls[len(ls)-1].Parts[0] // the newest level-0 layer
	run := filepath.Join(cp, rec.Name)
	keys, err := os.ReadFile(run)
	require.NoError(t, err)
	keys[0] ^= 0x0f // a blank no more
	require.NoError(t, os.WriteFile(run, keys, 0o644))
	rec.Sum = statedir.Update(0, keys)
	out, err := statedir.Seal(checkpointFormat, &m)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(path, out, 0o644))
	_, err = Enumerate(context.Background(), cfg)
	assert.ErrorIs(t, err, ErrDamaged)
	assert.ErrorContains(t, err, "no board")
	assert.NoFileExists(t, cfg.OutputPath(9))
}

// stopAfter runs the enumeration cfg and stops it at its n-th progress
// report: a run killed in the middle (its checkpoint left).
func stopAfter(t *testing.T, cfg Config, n int) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	cfg.Progress = func(Progress) {
		if n--; n == 0 {
			cancel()
		}
	}
	_, err := Enumerate(ctx, cfg)
	require.ErrorIs(t, err, context.Canceled)
}

// dirFiles reads every file of dir by name.
func dirFiles(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	for _, e := range entries {
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		require.NoError(t, err)
		out[e.Name()] = b
	}
	return out
}

// dropPart removes the last part of the first record of rs with more than
// one, and lowers the record's count to match: the manifest still adds up.
func dropPart(t *testing.T, rs []partsRecord) {
	t.Helper()
	for i := len(rs) - 1; i >= 0; i-- {
		if n := len(rs[i].Parts); n > 1 {
			rs[i].N -= rs[i].Parts[n-1].N
			rs[i].Parts = rs[i].Parts[:n-1]
			return
		}
	}
	t.Fatal("no run of several parts")
}

// A part dropped from a layer's run in the manifest, the run's count
// lowered to match and the checksum made to fit: the run no longer holds
// the boards the layer's count (recorded when the layer was found) says.
// The resume is refused before anything in the checkpoint is touched, the
// runs of the step that did not complete included, and no key-set file is
// written. The whole board made from projection runs (canonical layers)
// whose run lost a part passes the resume's checks; its file's count is
// then not the layers' total, and it is not written.
func TestCheckpointCountsChecked(t *testing.T) {
	for _, c := range []struct {
		name      string
		transpose bool
		drop      func(m *manifest)
		says      string
	}{
		{"a layer's part", false, func(m *manifest) { dropPart(t, m.Runs[0]) }, "but its count is"},
		{"a projection's part", true, func(m *manifest) { dropPart(t, m.Proj[9]) }, "the layers hold"},
	} {
		dir := t.TempDir()
		cp := filepath.Join(dir, CheckpointName)
		cfg := Config{Rows: 3, Cols: 3, MaxGap: 2, Cells: []int{9, 5}, Transpose: c.transpose, Dir: dir, Checkpoint: cp}
		stopAfter(t, cfg, 40)
		m, ok, err := readManifest(cp)
		require.NoError(t, err)
		require.True(t, ok)
		c.drop(&m)
		b, err := statedir.Seal(checkpointFormat, &m)
		require.NoError(t, err)
		require.NoError(t, os.WriteFile(filepath.Join(cp, manifestName), b, 0o644))
		// a run of a step that did not complete
		require.NoError(t, os.WriteFile(filepath.Join(cp, "999999-L0-99.p000"), []byte("x"), 0o644))
		before := dirFiles(t, cp)
		_, err = Enumerate(context.Background(), cfg)
		assert.ErrorIs(t, err, ErrDamaged, c.name)
		assert.ErrorContains(t, err, c.says, c.name)
		for _, k := range cfg.Cells {
			assert.NoFileExists(t, cfg.OutputPath(k), c.name)
		}
		if !c.transpose { // refused at the resume: nothing touched
			assert.Equal(t, before, dirFiles(t, cp), c.name)
		}
	}
}

// A resume refused for a damaged run leaves the checkpoint as it was: the
// runs of the step that did not complete are removed only from a
// checkpoint that passed every check.
func TestRefusedResumeTouchesNothing(t *testing.T) {
	dir := t.TempDir()
	cp := filepath.Join(dir, CheckpointName)
	cfg := Config{Rows: 3, Cols: 3, MaxGap: 2, Cells: []int{9, 5}, Dir: dir, Checkpoint: cp}
	stopAfter(t, cfg, 40)
	m, ok, err := readManifest(cp)
	require.NoError(t, err)
	require.True(t, ok)
	rs := m.Runs[0]
	run := filepath.Join(cp, rs[len(rs)-1].Parts[0].Name)
	b, err := os.ReadFile(run)
	require.NoError(t, err)
	b[len(b)/2] ^= 1
	require.NoError(t, os.WriteFile(run, b, 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(cp, "999999-L0-99.p000"), []byte("x"), 0o644))
	before := dirFiles(t, cp)
	_, err = Enumerate(context.Background(), cfg)
	assert.ErrorIs(t, err, ErrDamaged)
	assert.Equal(t, before, dirFiles(t, cp))
}
