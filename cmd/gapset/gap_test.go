package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/gapset/gapset/bench"
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
	// the load counts: ready (the --cells sets enumerated) before the last search ends
	m := regexp.MustCompile(`ready \(files loaded and checked\) at ([0-9.]+) s, the last search done at ([0-9.]+) s`).FindStringSubmatch(stdout)
	require.Len(t, m, 3, stdout)
	ready, _ := strconv.ParseFloat(m[1], 64)
	done, _ := strconv.ParseFloat(m[2], 64)
	assert.Positive(t, ready)
	assert.Greater(t, done, ready)
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
