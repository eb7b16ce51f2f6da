package main

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/gapset/gapset/bdd"
	"github.com/gapset/gapset/bench"
	"github.com/gapset/gapset/encode"
	"github.com/gapset/gapset/gapset"
	"github.com/gapset/gapset/keyset"
	"github.com/gapset/gapset/solution"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// 3x3 boards with known optimal lengths (BFS-checked by the ida tests).
const boards3x3 = "101 8 6 7 2 5 4 3 0 1\n102 1 2 3 4 5 6 0 7 8\n103 8 1 3 4 0 2 7 6 5\n"

func TestDemoSmall(t *testing.T) {
	code, out, errs := runCmd(t, "", "demo", "-q", "--small")
	require.Equal(t, 0, code, errs)
	assert.Contains(t, out, "Gap0 of the 3x3 puzzle has 2351 configurations")
	assert.Contains(t, out, "| Gap0_4 (here")
	assert.Contains(t, out, "## Table 2 comparison")
	assert.Contains(t, out, "| h_G (Gap0_8), paper (300 random) | 3.44e+07 | 22.3 | 0.261 | 0.431 |")
	assert.Contains(t, out, "| 1 | 22 |")
	// h_G searches fewer nodes than Manhattan distance: node ratio 0.xxx.
	assert.Regexp(t, `\| h_G \(Gap0_4 BDD\), here \| [0-9]+ \| [0-9.]+ \| 0\.[0-9]{3} \|`, out)
	assert.Regexp(t, `\| h_G \(Gap0_4 exact\), here \| [0-9]+ \| [0-9.]+ \| 0\.[0-9]{3} \|`, out)
}

func TestSolveWithGap0(t *testing.T) {
	var lengths [5][]int
	for i, args := range [][]string{
		{"-H", "md"},
		{"-H", "gap0", "--cells", "9"},
		{"-H", "gap0:4", "--cells", "4", "--cells", "9", "--no-skip"},
		{"-H", "gap2:5", "--cells", "5", "--cells", "9", "--max-gap", "2"},
		{"-H", "gap2:9/4", "--cells", "4", "--cells", "9", "--max-gap", "2"},
	} {
		code, out, errs := runCmd(t, boards3x3, append([]string{"solve", "-q", "--rows", "3", "--cols", "3", "-i", "-", "-f", "json"}, args...)...)
		require.Equal(t, 0, code, errs)
		for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
			var rec solution.Row
			require.NoError(t, json.Unmarshal([]byte(line), &rec))
			lengths[i] = append(lengths[i], rec.Length)
			if i > 0 {
				assert.Positive(t, rec.Counters["queries"])
			}
			if i == 2 {
				assert.Equal(t, "gap0(Gap0_4)-noskip", rec.Heuristic)
				assert.Zero(t, rec.Counters["skipped"])
			}
			if i == 3 {
				assert.Equal(t, "gap2(Gap0_5+Gap2_5)", rec.Heuristic)
			}
			if i == 4 {
				assert.Equal(t, "gap2(Gap0[Gap0_4]+Gap2[Gap2_4])", rec.Heuristic)
				assert.Contains(t, rec.Counters, "filtered")
			}
		}
	}
	assert.Equal(t, []int{31, 2}, lengths[0][:2]) // 31: BFS-checked in the ida tests
	assert.Len(t, lengths[0], 3)
	assert.Equal(t, lengths[0], lengths[1])
	assert.Equal(t, lengths[0], lengths[2])
	assert.Equal(t, lengths[0], lengths[3])
	assert.Equal(t, lengths[0], lengths[4])
}

// Key-set files feed the same heuristic; gap2 takes a Gap0 and a Gap2 file.
func TestSolveWithKeyFiles(t *testing.T) {
	dir := t.TempDir()
	// Gap2 superset for the test: every 3x3 board (admissible, adds nothing)
	var all []uint64
	for _, p := range permutations9() {
		b, err := encode.New(3, 3, p)
		if err == nil {
			all = append(all, b.Key())
		}
	}
	slices.Sort(all)
	g2 := filepath.Join(dir, "g2.keys")
	require.NoError(t, keyset.WriteFile(g2, keyset.Header{Rows: 3, Cols: 3, Cells: 9, Gap: 2, Count: uint64(len(all))}, all))
	g0 := filepath.Join(dir, "g0.keys")
	// all boards again as the Gap0 superset (admissible: h = M everywhere)
	require.NoError(t, keyset.WriteFile(g0, keyset.Header{Rows: 3, Cols: 3, Cells: 9, Gap: 0, Count: uint64(len(all))}, all))
	code, out, errs := runCmd(t, boards3x3, "solve", "-q", "--rows", "3", "--cols", "3", "-i", "-", "-H", "gap2", "--keys", g0, "--keys", g2)
	require.Equal(t, 0, code, errs)
	assert.Contains(t, out, "101: length 31")
	assert.Contains(t, out, "gap2(Gap0+Gap2)")

	code, _, errs = runCmd(t, "", "solve", "-q", "-H", "gap0", "--keys", g0, "1 2 3 4 5 6 7 8 9 10 11 12 13 14 0 15")
	assert.Equal(t, 2, code)
	assert.Contains(t, errs, "a 3x3 set")
}

func permutations9() [][]int {
	var out [][]int
	p := []int{0, 1, 2, 3, 4, 5, 6, 7, 8}
	var rec func(int)
	rec = func(i int) {
		if i == len(p) {
			out = append(out, slices.Clone(p))
			return
		}
		for j := i; j < len(p); j++ {
			p[i], p[j] = p[j], p[i]
			rec(i + 1)
			p[i], p[j] = p[j], p[i]
		}
	}
	rec(0)
	return out
}

func TestGapHeuristicErrors(t *testing.T) {
	for _, c := range []struct {
		args []string
		msg  string
	}{
		{[]string{"-H", "gap0"}, "no Gap0 set given"},
		{[]string{"-H", "gap2", "--cells", "9"}, "no Gap2 set given"},
		{[]string{"-H", "gap2", "--cells", "9", "--max-gap", "1"}, "must be even"},
		{[]string{"-H", "gap0", "--cells", "9", "--cells", "4"}, "several Gap0 sets"},
		{[]string{"-H", "gap0:x", "--cells", "9"}, "bad heuristic"},
		{[]string{"-H", "gap1:4", "--cells", "4"}, "unknown heuristic"},
		{[]string{"-H", "gap0:4/x", "--cells", "4"}, "bad heuristic"},
		{[]string{"-H", "gap0:4/9", "--cells", "4", "--cells", "9"}, "fewer cells"},
		{[]string{"-H", "gap0", "--cells", "10"}, "out of range"},
		{[]string{"-H", "gap0", "--bdd", "/nonexistent/x.bdd"}, "x.bdd"},
		{[]string{"-H", "gap0", "--keys", "/nonexistent/x.keys"}, "x.keys"},
		{[]string{"-H", "nope"}, "unknown heuristic"},
		{[]string{"-H", "gap0", "--cells", "9", "--dense", "8"}, "--dense 8"},
	} {
		code, _, errs := runCmd(t, boards3x3, append([]string{"solve", "-q", "--rows", "3", "--cols", "3", "-i", "-"}, c.args...)...)
		assert.Equal(t, 2, code, "%v: %s", c.args, errs)
		assert.Contains(t, errs, c.msg, "%v", c.args)
		assert.Equal(t, 1, strings.Count(errs, "\n"), "%v: %s", c.args, errs)
	}
}

func TestBenchCommand(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "in.txt")
	require.NoError(t, os.WriteFile(in, []byte(boards3x3+"104 0 8 7 6 5 4 3 2 1\n"), 0o644))
	out := filepath.Join(dir, "out")
	code, stdout, errs := runCmd(t, "", "bench", "-q", "--rows", "3", "--cols", "3", "-i", in, "--limit", "3", "-j", "2",
		"-H", "md,gap0:9,gap0:4", "--cells", "9", "--cells", "4", "--out", out, "--title", "tiny", "--repeat", "2")
	require.Equal(t, 0, code, errs)
	assert.Contains(t, stdout, "## tiny")
	assert.Contains(t, stdout, "| Gap0 | 2351 |")
	assert.Contains(t, stdout, "| gap0(Gap0_4) |")
	assert.Contains(t, stdout, "Instances solved by every heuristic: 3.")
	assert.Contains(t, stdout, "Times are the fastest of 2 solves.")
	for _, f := range []string{"results.csv", "results.jsonl", "summary.md", "nodes.png"} {
		st, err := os.Stat(filepath.Join(out, f))
		require.NoError(t, err, f)
		assert.Positive(t, st.Size(), f)
	}
	csv, err := os.ReadFile(filepath.Join(out, "results.csv"))
	require.NoError(t, err)
	assert.Equal(t, 10, strings.Count(string(csv), "\n")) // header + 3 x 3

	for _, c := range []struct {
		args []string
		msg  string
	}{
		{[]string{"-H", "md,md"}, "given twice"},
		{[]string{"-H", ","}, "names no heuristic"},
		{[]string{"-j", "0"}, "--jobs"},
		{[]string{"--repeat", "0"}, "--repeat"},
		{[]string{"-H", "gap0"}, "no Gap0 set"},
	} {
		code, _, errs := runCmd(t, "", append([]string{"bench", "-q", "--rows", "3", "--cols", "3", "-i", in, "--out", filepath.Join(dir, "x")}, c.args...)...)
		assert.Equal(t, 2, code, "%v: %s", c.args, errs)
		assert.Contains(t, errs, c.msg)
		_, err := os.Stat(filepath.Join(dir, "x"))
		assert.True(t, os.IsNotExist(err), "no output on bad input")
	}
	code, _, errs = runCmd(t, "", "bench", "-q", "-i", in)
	assert.Equal(t, 2, code, errs)
}

// Runs made apart can be combined: the second run includes the first's
// records, and a run with no heuristics only combines.
func TestBenchInclude(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "in.txt")
	require.NoError(t, os.WriteFile(in, []byte(boards3x3), 0o644))
	base := []string{"bench", "-q", "--rows", "3", "--cols", "3", "-i", in}
	code, _, errs := runCmd(t, "", append(base, "-H", "md", "--out", filepath.Join(dir, "a"))...)
	require.Equal(t, 0, code, errs)
	code, _, errs = runCmd(t, "", append(base, "-H", "gap0", "--cells", "9", "--out", filepath.Join(dir, "b"))...)
	require.Equal(t, 0, code, errs)
	code, out, errs := runCmd(t, "", append(base, "-H", "", "--include", filepath.Join(dir, "a", "results.jsonl"),
		"--include", filepath.Join(dir, "b", "results.jsonl"), "--out", filepath.Join(dir, "c"))...)
	require.Equal(t, 0, code, errs)
	assert.Contains(t, out, "Instances solved by every heuristic: 3. Ratios are to md.")
	assert.Regexp(t, `\| gap0\(Gap0\) \| .* \| 0\.[0-9]{3} \|`, out)
	recs, err := bench.ReadJSONL(filepath.Join(dir, "c", "results.jsonl"))
	require.NoError(t, err)
	require.Len(t, recs, 6)
	assert.Equal(t, "101", recs[0].ID)
	assert.Equal(t, "md", recs[0].Heuristic)
	assert.Equal(t, "gap0(Gap0)", recs[1].Heuristic)

	other := filepath.Join(dir, "other.txt")
	require.NoError(t, os.WriteFile(other, []byte("101 1 2 3 4 5 6 7 0 8\n"), 0o644))
	code, _, errs = runCmd(t, "", "bench", "-q", "--rows", "3", "--cols", "3", "-i", other, "-H", "",
		"--include", filepath.Join(dir, "a", "results.jsonl"), "--out", filepath.Join(dir, "d"))
	assert.Equal(t, 2, code)
	assert.Contains(t, errs, "is for board")
}

// A BDD file feeds h_G like a key-set file, with the same lengths and nodes
// as the exact set it was built from.
func TestSolveWithBDD(t *testing.T) {
	sets, err := gapset.Sets(context.Background(), 3, 3, 0, []int{5}, nil)
	require.NoError(t, err)
	order, err := bdd.NamedOrder("natural", 3, 3, 5)
	require.NoError(t, err)
	d, err := bdd.BuildInPlace(slices.Clone(sets[5]), order, false, nil)
	require.NoError(t, err)
	path := filepath.Join(t.TempDir(), "g0_5.bdd")
	_, err = bdd.Save(path, d, bdd.Meta{Rows: 3, Cols: 3, Cells: 5, Gap: 0})
	require.NoError(t, err)
	base := []string{"solve", "-q", "--rows", "3", "--cols", "3", "-i", "-", "-f", "json"}
	_, viaBDD, errs := runCmd(t, boards3x3, append(base, "-H", "gap0", "--bdd", path)...)
	require.NotEmpty(t, viaBDD, errs)
	_, viaKeys, errs := runCmd(t, boards3x3, append(base, "-H", "gap0", "--cells", "5")...)
	require.NotEmpty(t, viaKeys, errs)
	// the BDD projected onto 2 and 3 cells as dense tables in front of it
	_, viaDense, errs := runCmd(t, boards3x3, append(base, "-H", "gap0", "--bdd", path, "--dense", "2", "--dense", "3")...)
	require.NotEmpty(t, viaDense, errs)
	a, b := strings.Split(strings.TrimSpace(viaBDD), "\n"), strings.Split(strings.TrimSpace(viaKeys), "\n")
	c := strings.Split(strings.TrimSpace(viaDense), "\n")
	require.Len(t, a, 3)
	var denied int64
	for i := range a {
		var x, y, z solution.Row
		require.NoError(t, json.Unmarshal([]byte(a[i]), &x))
		require.NoError(t, json.Unmarshal([]byte(b[i]), &y))
		require.NoError(t, json.Unmarshal([]byte(c[i]), &z))
		assert.Equal(t, y.Length, x.Length)
		assert.Equal(t, y.Nodes, x.Nodes)
		assert.Equal(t, y.Nodes, z.Nodes)
		assert.Equal(t, y.Counters["queries"], z.Counters["queries"])
		assert.Equal(t, "gap0(Gap0_5.bdd)", x.Heuristic)
		assert.Equal(t, "gap0(Gap0_5.bdd<2,3>)", z.Heuristic)
		denied += z.Counters["dense_no"]
	}
	assert.Positive(t, denied)
}

// Every admissible heuristic finds the same number of optimal solutions when
// the last iteration is finished.
func TestAllSolutionsAgree(t *testing.T) {
	var counts [2][]int64
	for i, h := range [][]string{{"-H", "md"}, {"-H", "gap2", "--cells", "9", "--max-gap", "2"}} {
		code, out, errs := runCmd(t, boards3x3, append([]string{"solve", "-q", "--rows", "3", "--cols", "3", "-i", "-", "-f", "json", "--all-solutions"}, h...)...)
		require.Equal(t, 0, code, errs)
		for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
			var rec solution.Row
			require.NoError(t, json.Unmarshal([]byte(line), &rec))
			counts[i] = append(counts[i], rec.Solutions)
		}
	}
	assert.Len(t, counts[0], 3)
	assert.Equal(t, counts[0], counts[1])
	assert.Greater(t, counts[0][0], int64(1))
}

// A BDD whose order interleaves cells (bit planes) cannot give dense
// tables; it is used without them.
func TestBDDWithoutDenseTables(t *testing.T) {
	sets, err := gapset.Sets(context.Background(), 3, 3, 0, []int{9}, nil)
	require.NoError(t, err)
	order, err := bdd.NamedOrder("planes", 3, 3, 9)
	require.NoError(t, err)
	d, err := bdd.BuildInPlace(slices.Clone(sets[9]), order, false, nil)
	require.NoError(t, err)
	path := filepath.Join(t.TempDir(), "g0.planes.bdd")
	_, err = bdd.Save(path, d, bdd.Meta{Rows: 3, Cols: 3, Cells: 9, Gap: 0})
	require.NoError(t, err)
	code, out, errs := runCmd(t, boards3x3, "solve", "-q", "--rows", "3", "--cols", "3", "-i", "-", "-f", "json", "-H", "gap0", "--bdd", path)
	require.Equal(t, 0, code, errs)
	var rec solution.Row
	require.NoError(t, json.Unmarshal([]byte(strings.Split(out, "\n")[0]), &rec))
	assert.Equal(t, 31, rec.Length)
	assert.NotContains(t, rec.Counters, "dense_no")
	assert.Positive(t, rec.Counters["queries"])
}

// A BDD in any encoding feeds h_G with the nodes of the cells encoding;
// ranks-reverse sets give dense tables too (projected back to cells),
// ranks and tiles sets are used without them, unless a filter set on fewer
// cells gives them.
func TestSolveWithEncodedBDDs(t *testing.T) {
	sets, err := gapset.Sets(context.Background(), 3, 3, 0, []int{5, 9}, nil)
	require.NoError(t, err)
	filter := filepath.Join(t.TempDir(), "g0_5.keys")
	require.NoError(t, keyset.WriteFile(filter, keyset.Header{Rows: 3, Cols: 3, Cells: 5, Gap: 0}, sets[5]))
	order, err := bdd.NamedOrder("natural", 3, 3, 9)
	require.NoError(t, err)
	var nodes []int64
	for _, enc := range []bdd.Encoding{bdd.Cells, bdd.Ranks, bdd.RanksReverse, bdd.Tiles} {
		keys := slices.Clone(sets[9])
		enc.ConvertAll(keys, 9, 9)
		d, err := bdd.Build(keys, order, false)
		require.NoError(t, err)
		path := filepath.Join(t.TempDir(), "g0.bdd")
		_, err = bdd.Save(path, d, bdd.Meta{Rows: 3, Cols: 3, Cells: 9, Gap: 0, Encoding: enc})
		require.NoError(t, err)
		code, out, errs := runCmd(t, boards3x3, "solve", "-q", "--rows", "3", "--cols", "3", "-i", "-", "-f", "json", "-H", "gap0", "--bdd", path)
		require.Equal(t, 0, code, "%v: %s", enc, errs)
		var sum int64
		for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
			var rec solution.Row
			require.NoError(t, json.Unmarshal([]byte(line), &rec))
			sum += rec.Nodes
			if enc == bdd.Cells || enc == bdd.RanksReverse {
				assert.Contains(t, rec.Counters, "dense_no", "%v", enc)
			} else {
				assert.NotContains(t, rec.Counters, "dense_no", "%v", enc)
			}
		}
		nodes = append(nodes, sum)
		code, out, errs = runCmd(t, boards3x3, "solve", "-q", "--rows", "3", "--cols", "3", "-i", "-", "-f", "json", "-H", "gap0:9/5",
			"--bdd", path, "--keys", filter, "--dense", "2", "--dense", "3")
		require.Equal(t, 0, code, "%v: %s", enc, errs)
		sum = 0
		var denied int64
		for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
			var rec solution.Row
			require.NoError(t, json.Unmarshal([]byte(line), &rec))
			sum += rec.Nodes
			denied += rec.Counters["dense_no"]
		}
		assert.Positive(t, denied, "%v with a filter: dense tables", enc)
		nodes = append(nodes, sum)
	}
	for _, n := range nodes[1:] {
		assert.Equal(t, nodes[0], n)
	}
}
