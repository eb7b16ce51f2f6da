package bench

import (
	"bufio"
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"image/png"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gapset/gapset/encode"
	"github.com/gapset/gapset/gapset"
	"github.com/gapset/gapset/ida"
	"github.com/gapset/gapset/internal/atomicfile"
	"github.com/gapset/gapset/memset"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func instances3x3(n int) []encode.Instance {
	rng := rand.New(rand.NewPCG(9, 9))
	var out []encode.Instance
	for i := 0; i < n; i++ {
		out = append(out, encode.Instance{ID: string(rune('a' + i)), Line: i + 1, Board: encode.Random(rng, 3, 3)})
	}
	return out
}

func gap0(t *testing.T) ida.Heuristic {
	sets, err := gapset.Sets(context.Background(), 3, 3, 0, []int{9}, nil)
	require.NoError(t, err)
	return ida.Gap{Levels: []ida.Set{memset.New(sets[9], 9)}}
}

func TestRunSummaryAndFiles(t *testing.T) {
	insts := instances3x3(12)
	hs := []ida.Heuristic{ida.Manhattan{}, gap0(t)}
	var calls int
	recs, err := Run(context.Background(), insts, hs, Options{Jobs: 2, Progress: func(done, total int, r Record) {
		calls++
		assert.Equal(t, 24, total)
	}})
	require.NoError(t, err)
	require.Len(t, recs, 24)
	assert.Equal(t, 24, calls)
	for i, r := range recs {
		assert.Equal(t, insts[i/2].ID, r.ID)
		assert.Equal(t, hs[i%2].Name(), r.Heuristic)
		assert.Empty(t, r.Error)
		want, err := ida.Solve(insts[i/2].Board, ida.Manhattan{}, ida.Options{})
		require.NoError(t, err)
		assert.Equal(t, want.Length, r.Length)
		if r.Heuristic == "md" {
			assert.Equal(t, want.Expanded, r.Nodes)
			assert.Equal(t, want.Iterations[len(want.Iterations)-1].Expanded, r.LastIteration)
			assert.Zero(t, r.Queries)
		} else {
			assert.LessOrEqual(t, r.Nodes, want.Expanded)
			assert.Positive(t, r.Queries+r.Skipped)
		}
	}

	s := Summarize(recs, "md")
	assert.Equal(t, 12, s.Instances)
	assert.Empty(t, s.Mismatches)
	require.Len(t, s.Rows, 2)
	assert.InDelta(t, 1.0, s.Rows[0].NodeRatio, 1e-12)
	var md, g float64
	for _, r := range recs {
		if r.Heuristic == "md" {
			md += float64(r.Nodes)
		} else {
			g += float64(r.Nodes)
		}
	}
	assert.InDelta(t, md/12, s.Rows[0].AvgNodes, 1e-9)
	assert.InDelta(t, g/md, s.Rows[1].NodeRatio, 1e-9)
	assert.Less(t, s.Rows[1].NodeRatio, 1.0)

	dir := filepath.Join(t.TempDir(), "out")
	require.NoError(t, WriteAll(context.Background(), dir, recs, s, "test run", []string{"note line"}))
	f, err := os.Open(filepath.Join(dir, CSVFile))
	require.NoError(t, err)
	rows, err := csv.NewReader(f).ReadAll()
	f.Close()
	require.NoError(t, err)
	assert.Len(t, rows, 25)
	assert.Equal(t, "nodes", rows[0][4])

	jf, err := os.ReadFile(filepath.Join(dir, JSONLFile))
	require.NoError(t, err)
	sc := bufio.NewScanner(bytes.NewReader(jf))
	n := 0
	for sc.Scan() {
		var r Record
		require.NoError(t, json.Unmarshal(sc.Bytes(), &r))
		assert.Equal(t, recs[n], r)
		n++
	}
	assert.Equal(t, 24, n)

	md2, err := os.ReadFile(filepath.Join(dir, SummaryFile))
	require.NoError(t, err)
	assert.Contains(t, string(md2), "## test run")
	assert.Contains(t, string(md2), "| gap0 |")
	assert.Contains(t, string(md2), "h_G:2 (Gap0_8 / Gap2_8) | 8.65e+06")

	pf, err := os.Open(filepath.Join(dir, ChartFile))
	require.NoError(t, err)
	img, err := png.Decode(pf)
	pf.Close()
	require.NoError(t, err)
	assert.Greater(t, img.Bounds().Dx(), 400)
}

func TestNodeLimitAndMismatch(t *testing.T) {
	insts := instances3x3(3)
	recs, err := Run(context.Background(), insts, []ida.Heuristic{ida.Manhattan{}}, Options{MaxNodes: 1})
	require.NoError(t, err)
	unsolved := 0
	for _, r := range recs {
		if r.Error != "" {
			unsolved++
			assert.Equal(t, -1, r.Length)
		}
	}
	assert.Positive(t, unsolved)
	s := Summarize(recs, "md")
	assert.Len(t, s.Unsolved, unsolved)
	assert.Equal(t, 3-unsolved, s.Instances)

	bad := []Record{{ID: "1", Heuristic: "md", Length: 10, Nodes: 5}, {ID: "1", Heuristic: "x", Length: 12, Nodes: 3}}
	s = Summarize(bad, "md")
	require.Len(t, s.Mismatches, 1)
	assert.Contains(t, s.Mismatches[0], "md 10, x 12")
	var b strings.Builder
	require.NoError(t, s.Markdown(&b, "t", nil))
	assert.Contains(t, b.String(), "Lengths differ")
}

func TestCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := Run(ctx, instances3x3(4), []ida.Heuristic{ida.Manhattan{}}, Options{})
	assert.Error(t, err)
}

// A run whose every solve hit the node limit keeps its records and
// summary; there is no chart to draw, and none is written.
func TestWriteAllKeepsUnsolvedRecords(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "o")
	recs := []Record{{ID: "1", Heuristic: "md", Length: -1, Nodes: 10, Error: "node limit"}}
	require.NoError(t, WriteAll(context.Background(), dir, recs, Summarize(recs, "md"), "t", nil))
	back, err := ReadJSONL(filepath.Join(dir, JSONLFile))
	require.NoError(t, err)
	assert.Equal(t, recs, back)
	md, err := os.ReadFile(filepath.Join(dir, SummaryFile))
	require.NoError(t, err)
	assert.NotContains(t, string(md), ChartFile)
	_, statErr := os.Stat(filepath.Join(dir, ChartFile))
	assert.True(t, os.IsNotExist(statErr))
}

// Publish writes the files and prints the summary the files hold, under
// the title given or, without one, the default title; GaveUp counts the
// solves over the node limit.
func TestPublishAndGaveUp(t *testing.T) {
	recs := []Record{{ID: "1", Heuristic: "md", Length: 2, Nodes: 3}, {ID: "2", Heuristic: "md", Length: -1, Nodes: 10, Error: "node limit"}}
	assert.Equal(t, 1, GaveUp(recs))
	assert.Zero(t, GaveUp(recs[:1]))
	for _, title := range []string{"mine", ""} {
		dir := filepath.Join(t.TempDir(), "o")
		var out bytes.Buffer
		s, err := Publish(context.Background(), dir, &out, recs, "md", title, "in.txt", []string{"a note"})
		require.NoError(t, err)
		assert.Equal(t, Summarize(recs, "md"), s)
		want := title
		if title == "" {
			want = s.DefaultTitle("in.txt", time.Now())
		}
		var md bytes.Buffer
		require.NoError(t, s.Markdown(&md, want, []string{"a note"}))
		assert.Equal(t, md.String(), out.String())
		file, err := os.ReadFile(filepath.Join(dir, SummaryFile))
		require.NoError(t, err)
		assert.True(t, strings.HasPrefix(string(file), md.String()), "the file holds the summary printed")
		back, err := ReadJSONL(filepath.Join(dir, JSONLFile))
		require.NoError(t, err)
		assert.Equal(t, recs, back)
	}
}

// Merge refuses included records no solve could have written.
func TestMergeRefusesImpossibleRecords(t *testing.T) {
	insts := instances3x3(1)
	md := insts[0].Board.Manhattan()
	good := Record{ID: insts[0].ID, Board: insts[0].Board.String(), Heuristic: "md", Length: md + 2, RootBound: md, Nodes: 9}
	_, err := Merge(insts, []Record{good}, nil)
	require.NoError(t, err)
	for name, edit := range map[string]func(*Record){
		"below md":      func(r *Record) { r.Length = md - 2 },
		"negative":      func(r *Record) { r.Length = -5 },
		"odd parity":    func(r *Record) { r.Length = md + 1 },
		"nodes":         func(r *Record) { r.Nodes = -1 },
		"bound":         func(r *Record) { r.RootBound = r.Length + 2 },
		"time":          func(r *Record) { r.Seconds = -1 },
		"queries":       func(r *Record) { r.Queries = -3 },
		"generated":     func(r *Record) { r.Generated = -3 },
		"negative root": func(r *Record) { r.RootBound = -1 },
	} {
		r := good
		edit(&r)
		_, err := Merge(insts, []Record{r}, nil)
		assert.ErrorContains(t, err, "impossible", name)
	}
	// A given-up solve has no length to check.
	r := good
	r.Length, r.Error = -1, "node limit"
	_, err = Merge(insts, []Record{r}, nil)
	assert.NoError(t, err)
}

// Repeat solves every pair several times and keeps the fastest times; the
// nodes and lengths are those of a single run, and progress counts pairs.
func TestRunRepeatKeepsFastest(t *testing.T) {
	insts := instances3x3(6)
	hs := []ida.Heuristic{ida.Manhattan{}, gap0(t)}
	once, err := Run(context.Background(), insts, hs, Options{Jobs: 1})
	require.NoError(t, err)
	var calls int
	rep, err := Run(context.Background(), insts, hs, Options{Jobs: 2, Repeat: 3, Progress: func(done, total int, r Record) {
		calls++
		assert.Equal(t, 12, total)
		assert.LessOrEqual(t, done, total)
	}})
	require.NoError(t, err)
	assert.Equal(t, 12, calls)
	require.Len(t, rep, len(once))
	for i := range once {
		assert.Equal(t, once[i].ID, rep[i].ID)
		assert.Equal(t, once[i].Heuristic, rep[i].Heuristic)
		assert.Equal(t, once[i].Nodes, rep[i].Nodes)
		assert.Equal(t, once[i].Length, rep[i].Length)
		assert.Equal(t, once[i].Queries, rep[i].Queries)
	}

	a := Record{ID: "x", Heuristic: "md", Nodes: 10, Length: 4, Seconds: 2, CPU: 1.5}
	b := a
	b.Seconds, b.CPU = 3, 1.0
	f, err := fastest(a, b)
	require.NoError(t, err)
	assert.Equal(t, 2.0, f.Seconds)
	assert.Equal(t, 1.0, f.CPU)
	b.Nodes = 11
	_, err = fastest(a, b)
	assert.ErrorContains(t, err, "differ")
}

// A run with no --title is named for its heuristics, instances and day.
func TestDefaultTitle(t *testing.T) {
	recs := []Record{
		{ID: "1", Heuristic: "md", Length: 10, Nodes: 50},
		{ID: "1", Heuristic: "gap0(Gap0_8)", Length: 10, Nodes: 9},
		{ID: "2", Heuristic: "md", Length: 12, Nodes: 70},
		{ID: "2", Heuristic: "gap0(Gap0_8)", Length: 12, Nodes: 11},
	}
	day := time.Date(2026, 11, 22, 15, 0, 0, 0, time.UTC)
	assert.Equal(t, "md, gap0(Gap0_8) on 2 instances of random300.txt, 2026-11-22",
		Summarize(recs, "md").DefaultTitle("data/random300.txt", day))
}

// A run's files take their names together or not at all: when one cannot
// (here summary.md's place is held by a directory), or the run was
// interrupted before its files were in place, the previous run's files
// stay as they were and no temporary remains.
func TestWriteAllAllOrNothing(t *testing.T) {
	old := []Record{{ID: "1", Heuristic: "md", Length: 2, Nodes: 3}}
	recs := []Record{{ID: "1", Heuristic: "md", Length: 2, Nodes: 5}}
	for _, c := range []struct {
		name    string
		blocked bool
		cancel  bool
	}{{"blocked summary", true, false}, {"interrupted", false, true}} {
		dir := t.TempDir()
		require.NoError(t, WriteAll(context.Background(), dir, old, Summarize(old, "md"), "old", nil), c.name)
		before, err := os.ReadFile(filepath.Join(dir, CSVFile))
		require.NoError(t, err)
		if c.blocked {
			require.NoError(t, os.Remove(filepath.Join(dir, SummaryFile)))
			require.NoError(t, os.Mkdir(filepath.Join(dir, SummaryFile), 0o755))
		}
		ctx, stop := atomicfile.Interruptible(context.Background())
		if c.cancel {
			stop()
		}
		assert.Error(t, WriteAll(ctx, dir, recs, Summarize(recs, "md"), "new", nil), c.name)
		stop()
		after, err := os.ReadFile(filepath.Join(dir, CSVFile))
		require.NoError(t, err)
		assert.Equal(t, string(before), string(after), "%s: the previous run's results.csv", c.name)
		entries, err := os.ReadDir(dir)
		require.NoError(t, err)
		for _, e := range entries {
			assert.NotContains(t, e.Name(), ".tmp-", "%s: a temporary left", c.name)
		}
	}
}
