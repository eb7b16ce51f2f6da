package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/gapset/gapset/bdd"
	"github.com/gapset/gapset/bdd/report"
	"github.com/gapset/gapset/encode"
	"github.com/gapset/gapset/keyset"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// gapKeys3x3 returns the 3x3 boards with optimum <= Manhattan + gap, by BFS.
func gapKeys3x3(t *testing.T, gap int) []uint64 {
	dist := encode.Distances(3, 3)
	require.Len(t, dist, 181440)
	return encode.GapKeys(3, 3, dist, 0, gap)
}

func TestBuildAndReport3x3(t *testing.T) {
	dir := t.TempDir()
	keys := gapKeys3x3(t, 2)
	kpath := filepath.Join(dir, "g2.keys")
	require.NoError(t, keyset.WriteFile(kpath, keyset.Header{Rows: 3, Cols: 3, Cells: 9, Gap: 2}, keys))

	var files []string
	for _, order := range []string{"natural", "reverse"} {
		out := filepath.Join(dir, order+".bdd")
		code, stdout, stderr := runCmd(t, "", "build", "-q", "--rudd", "--keys", kpath, "--gap", "2", "--order", order, "--out", out)
		require.Equal(t, 0, code, stderr)
		assert.Contains(t, stdout, "Gap2 order="+order)
		files = append(files, out)

		s, err := bdd.Open(out)
		require.NoError(t, err)
		for _, k := range keys {
			require.True(t, s.Contains(k))
		}
		assert.False(t, s.Contains(0x123456870), "goal with 7 and 8 swapped is not even a board")
	}

	code, stdout, stderr := runCmd(t, "", "report", "--verify", "--format", "json", files[0], files[1])
	require.Equal(t, 0, code, stderr)
	var rows []report.Row
	require.NoError(t, json.Unmarshal([]byte(stdout), &rows))
	require.Len(t, rows, 2)
	for _, r := range rows {
		assert.Equal(t, "Gap2", r.Set)
		assert.Equal(t, uint64(len(keys)), r.Patterns)
		assert.Positive(t, r.Nodes)
		assert.Positive(t, r.ZDDNodes)
		st, _ := os.Stat(r.File)
		assert.Equal(t, st.Size(), r.FileSize)
		assert.Zero(t, r.PaperNodes, "no paper values for the 3x3")
	}
	assert.Equal(t, "reverse", rows[1].Order)

	code, stdout, _ = runCmd(t, "", "report", "--format", "csv", files[0])
	require.Equal(t, 0, code)
	lines := strings.Split(strings.TrimSpace(stdout), "\n")
	require.Len(t, lines, 2)
	assert.True(t, strings.HasPrefix(lines[1], files[0]+",Gap2,3x3,9,natural,"))

	code, stdout, _ = runCmd(t, "", "report", files[0])
	require.Equal(t, 0, code)
	assert.Contains(t, stdout, "| Gap2 | natural |")
}

// report --levels adds each file's nodes per level, read off the file in
// one pass, equal to the decoded diagram's; --chart draws them; a damaged
// file or a bad chart path is refused in one line, exit 2, nothing written.
func TestReportLevels(t *testing.T) {
	dir := t.TempDir()
	keys := gapKeys3x3(t, 2)
	kpath := filepath.Join(dir, "g2.keys")
	require.NoError(t, keyset.WriteFile(kpath, keyset.Header{Rows: 3, Cols: 3, Cells: 9, Gap: 2}, keys))
	var files []string
	var want [][]uint64
	for _, enc := range []string{"cells", "ranks"} {
		out := filepath.Join(dir, enc+".bdd")
		code, _, stderr := runCmd(t, "", "build", "-q", "--keys", kpath, "--encoding", enc, "--out", out)
		require.Equal(t, 0, code, stderr)
		d, _, err := bdd.Load(out)
		require.NoError(t, err)
		var w []uint64
		for _, n := range d.LevelSizes() {
			w = append(w, uint64(n))
		}
		files, want = append(files, out), append(want, w)
	}

	code, stdout, stderr := runCmd(t, "", "report", "--levels", "--format", "json", files[0], files[1])
	require.Equal(t, 0, code, stderr)
	var rows []report.Row
	require.NoError(t, json.Unmarshal([]byte(stdout), &rows))
	require.Len(t, rows, 2)
	for i, r := range rows {
		assert.Equal(t, want[i], r.LevelNodes, r.File)
	}

	code, stdout, _ = runCmd(t, "", "report", "--levels", "--verify", "--format", "csv", files[1], files[0])
	require.Equal(t, 0, code)
	lines := strings.Split(strings.TrimSpace(stdout), "\n")
	require.Len(t, lines, 3)
	head := strings.Split(lines[0], ",")
	require.Equal(t, "level_nodes", head[len(head)-1])
	for i, line := range lines[1:] {
		f := strings.Split(line, ",")
		var got []uint64
		for _, n := range strings.Split(f[len(f)-1], ";") {
			v, err := strconv.ParseUint(n, 10, 64)
			require.NoError(t, err)
			got = append(got, v)
		}
		assert.Equal(t, want[1-i], got, "csv row %d", i)
	}

	chart := filepath.Join(dir, "levels.png")
	code, stdout, stderr = runCmd(t, "", "report", "--chart", chart, files[0], files[1])
	require.Equal(t, 0, code, stderr)
	assert.NotContains(t, stdout, "nodes per level", "the table has levels only with --levels")
	png, err := os.ReadFile(chart)
	require.NoError(t, err)
	assert.Equal(t, "\x89PNG", string(png[:4]))

	code, stdout, _ = runCmd(t, "", "report", "--levels", files[0])
	require.Equal(t, 0, code)
	assert.Contains(t, stdout, "| level | "+files[0]+" |")
	assert.Contains(t, stdout, fmt.Sprintf("| %d | %s |", len(want[0])-1, report.Group(want[0][len(want[0])-1])))

	data, err := os.ReadFile(files[0])
	require.NoError(t, err)
	bad := filepath.Join(dir, "bad.bdd")
	data[len(data)/2] ^= 0x10
	require.NoError(t, os.WriteFile(bad, data, 0o644))
	badChart := filepath.Join(dir, "bad.png")
	for _, args := range [][]string{
		{"report", "--levels", bad},
		{"report", "--chart", badChart, files[0], bad},
		{"report", "--chart", dir, files[0]},
		{"report", "--chart", filepath.Join(dir, "none", "x.png"), files[0]},
	} {
		code, _, stderr := runCmd(t, "", args...)
		assert.Equal(t, 2, code, "%v: %s", args, stderr)
		assert.Equal(t, 1, strings.Count(stderr, "\n"), "one-line error for %v: %q", args, stderr)
	}
	_, err = os.Stat(badChart)
	assert.True(t, os.IsNotExist(err), "no chart after an error")
}

func TestBuildReportBadInput(t *testing.T) {
	dir := t.TempDir()
	kpath := filepath.Join(dir, "g0.keys")
	require.NoError(t, keyset.WriteFile(kpath, keyset.Header{Rows: 3, Cols: 3, Cells: 9, Gap: 0}, gapKeys3x3(t, 0)))
	out := filepath.Join(dir, "x.bdd")
	for _, args := range [][]string{
		{"build", "--out", out},
		{"build", "--keys", filepath.Join(dir, "none.keys"), "--out", out},
		{"build", "--keys", kpath, "--gap", "2", "--out", out},
		{"build", "--keys", kpath, "--cells", "8", "--out", out},
		{"build", "--keys", kpath, "--order", "sideways", "--out", out},
		{"build", "--keys", kpath, "--rows", "3", "--cols", "4", "--out", out},
		{"build", "--keys", kpath, "--rows", "4", "--out", out},
		{"report"},
		{"report", "--format", "xml", kpath},
		{"report", kpath},
	} {
		code, _, stderr := runCmd(t, "", args...)
		assert.Equal(t, 2, code, "%v: %s", args, stderr)
		assert.Equal(t, 1, strings.Count(stderr, "\n"), "one-line error for %v: %q", args, stderr)
	}
	_, err := os.Stat(out)
	assert.True(t, os.IsNotExist(err), "no output after errors")

	code, _, stderr := runCmd(t, "", "build", "-q", "--keys", kpath, "--out", out)
	require.Equal(t, 0, code, stderr)
	data, err := os.ReadFile(out)
	require.NoError(t, err)
	bad := filepath.Join(dir, "bad.bdd")
	require.NoError(t, os.WriteFile(bad, data[:len(data)-9], 0o644))
	code, _, stderr = runCmd(t, "", "report", bad)
	assert.Equal(t, 2, code)
	assert.Contains(t, stderr, "truncated")
	data[len(data)/2] ^= 0x40
	require.NoError(t, os.WriteFile(bad, data, 0o644))
	code, _, stderr = runCmd(t, "", "report", "--verify", bad)
	assert.Equal(t, 2, code)
	assert.Contains(t, stderr, "checksum")
}

// Enumerating inside build gives the same diagram as building from keys
// found by BFS.
func TestBuildEnumerates3x3(t *testing.T) {
	dir := t.TempDir()
	keys := gapKeys3x3(t, 2)
	proj := make([]uint64, len(keys))
	for i, k := range keys {
		proj[i] = encode.Project(k, 6)
	}
	slices.Sort(proj)
	proj = slices.Compact(proj)
	kpath := filepath.Join(dir, "g2_6.keys")
	require.NoError(t, keyset.WriteFile(kpath, keyset.Header{Rows: 3, Cols: 3, Cells: 6, Gap: 2}, proj))
	a, b := filepath.Join(dir, "a.bdd"), filepath.Join(dir, "b.bdd")
	code, _, stderr := runCmd(t, "", "build", "-q", "--rows", "3", "--cols", "3", "--gap", "2", "--cells", "6", "--order", "lsb", "--out", a)
	require.Equal(t, 0, code, stderr)
	code, _, stderr = runCmd(t, "", "build", "-q", "--keys", kpath, "--order", "lsb", "--out", b)
	require.Equal(t, 0, code, stderr)
	ia, err := bdd.ReadInfo(a)
	require.NoError(t, err)
	ib, err := bdd.ReadInfo(b)
	require.NoError(t, err)
	assert.Equal(t, uint64(len(proj)), ia.Count)
	assert.Equal(t, ib.Nodes, ia.Nodes)
	assert.Equal(t, ib.ZDDNodes, ia.ZDDNodes)
	assert.Equal(t, ib.FileSize, ia.FileSize)
	assert.Equal(t, "Gap2_6", ia.Name())

	code, _, stderr = runCmd(t, "", "build", "--gap", "2", "--cells", "8", "--out", a)
	assert.Equal(t, 2, code)
	assert.Contains(t, stderr, "--keys")
}

// build --gap takes any even gap, as its usage says: the 3x3 gap-4 set in
// memory, a gap-4 key file with --gap left out (the file's) or matching;
// a --gap the file does not hold is refused.
func TestBuildGapFlag(t *testing.T) {
	dir := t.TempDir()
	kpath := filepath.Join(dir, "g4.keys")
	require.NoError(t, keyset.WriteFile(kpath, keyset.Header{Rows: 3, Cols: 3, Cells: 9, Gap: 4}, gapKeys3x3(t, 4)))
	for i, args := range [][]string{
		{"--rows", "3", "--cols", "3", "--gap", "4", "--cells", "9"},
		{"--keys", kpath},
		{"--keys", kpath, "--gap", "4", "--cells", "9"},
	} {
		out := filepath.Join(dir, fmt.Sprintf("%d.bdd", i))
		code, _, stderr := runCmd(t, "", append([]string{"build", "-q", "--out", out}, args...)...)
		require.Equal(t, 0, code, "%v: %s", args, stderr)
		in, err := bdd.ReadInfo(out)
		require.NoError(t, err)
		assert.Equal(t, "Gap4", in.Name(), "%v", args)
	}
	code, _, stderr := runCmd(t, "", "build", "-q", "--keys", kpath, "--gap", "2", "--out", filepath.Join(dir, "x.bdd"))
	assert.Equal(t, 2, code)
	assert.Contains(t, stderr, "--gap 2 but")
	_, usage, _ := runCmd(t, "", "build", "--help")
	for _, line := range strings.Split(usage, "\n") {
		if strings.HasPrefix(strings.TrimSpace(line), "--gap ") {
			assert.NotContains(t, line, "(0 or 2)", "gap 4 and more are built too")
		}
	}
}

// The multi-pass build (a small --sort-mem) writes the same file as the
// in-memory build that --rudd takes, ZDD count included.
func TestBuildInPassesSameFile(t *testing.T) {
	dir := t.TempDir()
	keys := gapKeys3x3(t, 2)
	kpath := filepath.Join(dir, "g2.keys")
	require.NoError(t, keyset.WriteFile(kpath, keyset.Header{Rows: 3, Cols: 3, Cells: 9, Gap: 2}, keys))
	a, b := filepath.Join(dir, "a.bdd"), filepath.Join(dir, "b.bdd")
	require.Greater(t, len(keys), 3*2684, "room for 2684 keys at a time: several passes")
	code, _, stderr := runCmd(t, "", "build", "-q", "--keys", kpath, "--order", "reverse", "--sort-mem", "0.00002", "--out", a)
	require.Equal(t, 0, code, stderr)
	code, _, stderr = runCmd(t, "", "build", "-q", "--rudd", "--keys", kpath, "--order", "reverse", "--out", b)
	require.Equal(t, 0, code, stderr)
	da, err := os.ReadFile(a)
	require.NoError(t, err)
	db, err := os.ReadFile(b)
	require.NoError(t, err)
	ia, _ := bdd.ReadInfo(a)
	ib, _ := bdd.ReadInfo(b)
	assert.Positive(t, ia.ZDDNodes)
	assert.Equal(t, ib.ZDDNodes, ia.ZDDNodes)
	// Header fields differ only in the build time and memory; the rest must match.
	ia.BuildTime, ib.BuildTime, ia.PeakMemory, ib.PeakMemory = 0, 0, 0, 0
	assert.Equal(t, ib, ia)
	assert.Equal(t, payload(db, ib), payload(da, ia), "same nodes, same payload (the checksum covers the build time)")

	code, _, stderr = runCmd(t, "", "build", "--keys", kpath, "--order", "reverse", "--sort-mem", "-1", "--out", a)
	assert.Equal(t, 2, code)
	assert.Contains(t, stderr, "--sort-mem")
	code, _, stderr = runCmd(t, "", "build", "--keys", kpath, "--order", "reverse", "--sort-mem", "1e-9", "--out", a)
	assert.Equal(t, 3, code, "a memory budget is a limit")
	assert.Contains(t, stderr, "budget too small")
}

// gapset zdd stores the same ZDD count in a file built without one as
// build counts from the keys, and leaves the nodes alone.
func TestZDDCommand(t *testing.T) {
	dir := t.TempDir()
	keys := gapKeys3x3(t, 0)
	kpath := filepath.Join(dir, "g0.keys")
	require.NoError(t, keyset.WriteFile(kpath, keyset.Header{Rows: 3, Cols: 3, Cells: 9, Gap: 0}, keys))
	for _, order := range []string{"natural", "reverse"} {
		with, without := filepath.Join(dir, order+".z.bdd"), filepath.Join(dir, order+".bdd")
		code, _, stderr := runCmd(t, "", "build", "-q", "--keys", kpath, "--order", order, "--out", with)
		require.Equal(t, 0, code, stderr)
		code, _, stderr = runCmd(t, "", "build", "-q", "--keys", kpath, "--order", order, "--zdd=false", "--out", without)
		require.Equal(t, 0, code, stderr)
		iw, err := bdd.ReadInfo(with)
		require.NoError(t, err)
		before, err := bdd.ReadInfo(without)
		require.NoError(t, err)
		require.Zero(t, before.ZDDNodes)
		require.Positive(t, iw.ZDDNodes)

		code, stdout, stderr := runCmd(t, "", "zdd", "-q", "--dry-run", without)
		require.Equal(t, 0, code, stderr)
		assert.Contains(t, stdout, "zdd_nodes="+strconv.FormatUint(iw.ZDDNodes, 10))
		after, _ := bdd.ReadInfo(without)
		assert.Zero(t, after.ZDDNodes, "dry run")

		code, _, stderr = runCmd(t, "", "zdd", "-q", without)
		require.Equal(t, 0, code, stderr)
		after, err = bdd.ReadInfo(without)
		require.NoError(t, err)
		assert.Equal(t, iw.ZDDNodes, after.ZDDNodes)
		assert.Equal(t, before.Nodes, after.Nodes)
		assert.Equal(t, before.FileSize, after.FileSize)
		_, _, err = bdd.Load(without)
		require.NoError(t, err, "still a valid file")
	}
	for _, args := range [][]string{{"zdd"}, {"zdd", filepath.Join(dir, "none.bdd")}, {"zdd", kpath}} {
		code, _, stderr := runCmd(t, "", args...)
		assert.Equal(t, 2, code, "%v: %s", args, stderr)
	}
}

// The out-of-core build writes the file the in-memory build writes (but
// for the build time), prints its estimate and mode, leaves no scratch,
// and refuses what it cannot stream in one line, exit 2.
func TestBuildOutOfCoreSameFile(t *testing.T) {
	dir := t.TempDir()
	keys := gapKeys3x3(t, 2)
	kpath := filepath.Join(dir, "g2.keys")
	require.NoError(t, keyset.WriteFile(kpath, keyset.Header{Rows: 3, Cols: 3, Cells: 9, Gap: 2}, keys))
	scratch := t.TempDir()
	a, b := filepath.Join(dir, "a.bdd"), filepath.Join(dir, "b.bdd")
	code, _, stderr := runCmd(t, "", "build", "-q", "--keys", kpath, "--encoding", "ranks", "--out", a)
	require.Equal(t, 0, code, stderr)
	code, stdout, stderr := runCmd(t, "", "build", "--keys", kpath, "--encoding", "ranks", "--memory", "64", "--tmp", scratch, "--out", b)
	require.Equal(t, 0, code, stderr)
	assert.Contains(t, stderr, fmt.Sprintf("estimate: %d keys", len(keys)))
	assert.Contains(t, stdout, "out_of_core=1_parts bottom_levels=25") // 8,922 of 9! patterns (2.5%): below 25 bits 1,440 patterns, about 35 keys a group
	da, err := os.ReadFile(a)
	require.NoError(t, err)
	db, err := os.ReadFile(b)
	require.NoError(t, err)
	ia, _ := bdd.ReadInfo(a)
	ib, _ := bdd.ReadInfo(b)
	assert.Positive(t, ia.ZDDNodes)
	assert.False(t, ia.OutOfCore)
	assert.True(t, ib.OutOfCore)
	ia.BuildTime, ib.BuildTime, ia.PeakMemory, ib.PeakMemory, ib.OutOfCore = 0, 0, 0, 0, false
	assert.Equal(t, ia, ib)
	assert.Equal(t, payload(da, ia), payload(db, ib), "same nodes, same payload")
	left, err := os.ReadDir(scratch)
	require.NoError(t, err)
	assert.Empty(t, left, "no scratch left")
	code, stdout, stderr = runCmd(t, "", "build", "--keys", kpath, "--encoding", "ranks", "--out-of-core=false", "--out", b)
	require.Equal(t, 0, code, stderr)
	assert.NotContains(t, stdout, "out_of_core")
	assert.NotContains(t, stderr, "estimate")

	for _, args := range [][]string{
		{"--out-of-core", "--order", "reverse"},
		{"--out-of-core", "--encoding", "ranks-reverse"},
		{"--memory", "64", "--rudd"},
		{"--memory", "1"},
		{"--memory", "16777216"},
		{"--tmp", filepath.Join(dir, "none")},
		{"--out-of-core=false", "--memory", "64"},
	} {
		args = append([]string{"build", "--keys", kpath, "--out", filepath.Join(dir, "c.bdd")}, args...)
		code, _, stderr := runCmd(t, "", args...)
		assert.Equal(t, 2, code, "%v: %s", args, stderr)
		assert.Equal(t, 1, strings.Count(stderr, "\n"), "one-line error for %v: %q", args, stderr)
	}
	_, err = os.Stat(filepath.Join(dir, "c.bdd"))
	assert.True(t, os.IsNotExist(err), "no output after errors")
}

// payload is a .bdd file's payload (between the header and the checksum).
func payload(data []byte, in bdd.Info) []byte {
	return data[len(data)-4-int(in.PayloadSize) : len(data)-4]
}

// build --map writes the mapped form beside the .bdd, out of core too;
// solve takes either with the same lengths and nodes; verify checks it and
// compares it with the keys; --map naming --out is refused before any work.
func TestBuildMapSolves(t *testing.T) {
	dir := t.TempDir()
	var bdds, maps []string
	for _, gap := range []int{0, 2} {
		kpath := filepath.Join(dir, fmt.Sprintf("g%d.keys", gap))
		require.NoError(t, keyset.WriteFile(kpath, keyset.Header{Rows: 3, Cols: 3, Cells: 9, Gap: gap}, gapKeys3x3(t, gap)))
		out, m := filepath.Join(dir, fmt.Sprintf("g%d.bdd", gap)), filepath.Join(dir, fmt.Sprintf("g%d.bddmap", gap))
		args := []string{"build", "-q", "--keys", kpath, "--encoding", "ranks", "--out", out, "--map", m}
		if gap == 2 {
			args = append(args, "--out-of-core", "--memory", "64")
		}
		code, stdout, stderr := runCmd(t, "", args...)
		require.Equal(t, 0, code, stderr)
		assert.Contains(t, stdout, fmt.Sprintf("Gap%d mapped nodes=", gap))
		code, stdout, stderr = runCmd(t, "", "verify", "--keys", kpath, m)
		require.Equal(t, 0, code, stderr)
		assert.Contains(t, stdout, "the same set as")
		assert.Contains(t, stderr, "checking the mapped") // not a load's "12 bytes a node"
		code, stdout, stderr = runCmd(t, "", "verify", m)
		require.Equal(t, 0, code, stderr)
		assert.Contains(t, stdout, "structure and count ok")
		bdds, maps = append(bdds, out), append(maps, m)
	}
	boards := "8 6 7 2 5 4 3 0 1\n6 4 7 8 5 0 3 2 1\n1 2 3 4 5 6 0 7 8\n"
	solve := func(files []string) string {
		args := []string{"solve", "-q", "--rows", "3", "--cols", "3", "-H", "gap2", "--format", "csv", "--threads", "1", "-i", "-"}
		for _, f := range files {
			args = append(args, "--bdd", f)
		}
		code, stdout, stderr := runCmd(t, boards, args...)
		require.Equal(t, 0, code, stderr)
		var rows []string
		for _, line := range strings.Split(strings.TrimSpace(stdout), "\n") {
			f := strings.Split(line, ",")
			rows = append(rows, strings.Join(append(f[:4:4], f[6:]...), ",")) // without generated and seconds
		}
		return strings.Join(rows, "\n")
	}
	want := solve(bdds)
	assert.Contains(t, want, ",31,")
	assert.Equal(t, want, solve(maps))
	code, _, stderr := runCmd(t, "", "build", "-q", "--rows", "3", "--cols", "3", "--gap", "0", "--cells", "9", "--out", bdds[0], "--map", bdds[0])
	assert.Equal(t, 2, code)
	assert.Contains(t, stderr, "same file")
	code, _, stderr = runCmd(t, "", "report", maps[0])
	assert.Equal(t, 2, code)
	assert.Contains(t, stderr, "report its .bdd file")
}
