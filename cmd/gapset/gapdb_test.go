package main

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/gapset/gapset/gapdb"
	"github.com/gapset/gapset/internal/cmdline"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// nodes lists the "nodes" fields of solve's text output.
func nodesOf(out string) []string {
	var ns []string
	for _, m := range regexp.MustCompile(`([0-9]+) nodes`).FindAllStringSubmatch(out, -1) {
		ns = append(ns, m[1])
	}
	return ns
}

// The 3x3 levels on 6 cells as key files, the database from them, and
// solve reading it: the same nodes as the key files give, verify builds it
// again, report describes it; bad input exits 2 with one line.
func TestGapDBCommand(t *testing.T) {
	dir := t.TempDir()
	var keys []string
	for _, g := range []string{"4", "0", "2"} {
		code, _, errs := runCmd(t, "", "enumerate", "-q", "--rows", "3", "--cols", "3", "--gap", g, "--cells", "6", "--out-dir", dir)
		require.Equal(t, 0, code, errs)
		keys = append(keys, "--keys", filepath.Join(dir, "Gap"+g+"_6.keys"))
	}
	db := filepath.Join(dir, "g.gapdb")
	code, out, errs := runCmd(t, "", append([]string{"gapdb", "-q", "--out", db}, keys...)...)
	require.Equal(t, 0, code, errs)
	assert.Contains(t, out, "GapDB4_6 levels=3 bits=2 entries=60480")

	solve := []string{"solve", "-q", "--rows", "3", "--cols", "3", "-i", "-", "-H", "gap4:6"}
	for _, h := range []string{"gap4:6", "gap4r:6"} {
		solve[len(solve)-1] = h
		code, fromKeys, errs := runCmd(t, boards3x3, append(solve, keys...)...)
		require.Equal(t, 0, code, errs)
		code, fromDB, errs := runCmd(t, boards3x3, append(solve, "--gapdb", db)...)
		require.Equal(t, 0, code, errs)
		require.Len(t, nodesOf(fromDB), 4, fromDB) // 3 boards and the total
		assert.Equal(t, nodesOf(fromKeys), nodesOf(fromDB))
		assert.Contains(t, fromDB, "(GapDB4_6)")
	}
	solve[len(solve)-1] = "gap4:6"

	// with a filter of the last 3 cells: the same nodes, verify and report know it
	fdb := filepath.Join(dir, "f.gapdb")
	code, out, errs = runCmd(t, "", append([]string{"gapdb", "-q", "--filter-cells", "3", "--out", fdb}, keys...)...)
	require.Equal(t, 0, code, errs)
	assert.Contains(t, out, "filter_cells=3")
	for _, h := range []string{"gap4:6", "gap4r:6"} {
		code, plain, errs := runCmd(t, boards3x3, "solve", "-q", "--rows", "3", "--cols", "3", "-i", "-", "-H", h, "--gapdb", db)
		require.Equal(t, 0, code, errs)
		code, filtered, errs := runCmd(t, boards3x3, "solve", "-q", "--rows", "3", "--cols", "3", "-i", "-", "-H", h, "--gapdb", fdb)
		require.Equal(t, 0, code, errs)
		assert.Equal(t, nodesOf(plain), nodesOf(filtered))
		code, off, errs := runCmd(t, boards3x3, "solve", "-q", "--rows", "3", "--cols", "3", "-i", "-", "-H", h, "--gapdb", fdb, "--dense", "0")
		require.Equal(t, 0, code, errs)
		assert.Equal(t, nodesOf(plain), nodesOf(off))
		assert.Contains(t, off, "(GapDB4_6)-nofilter")
	}
	// bench names the databases it mapped and how much of them has 2 MiB pages
	bout := filepath.Join(dir, "bench")
	code, _, errs = runCmd(t, boards3x3, "bench", "-q", "--rows", "3", "--cols", "3", "-i", "-", "-H", "gap4r:6", "--gapdb", fdb, "--out", bout)
	require.Equal(t, 0, code, errs)
	sum, err := os.ReadFile(filepath.Join(bout, "summary.md"))
	require.NoError(t, err)
	assert.Contains(t, string(sum), "Gap databases (mapped):")
	assert.Regexp(t, `\| GapDB4_6 \| f.gapdb \| \d+ \| 3 \| (\d+%|not known) \|`, string(sum))

	for _, c := range []struct{ path, verified, reported string }{
		{fdb, "counts and filter valid; equal to the table its level files build", "a filter of its last 3 cells"},
		{db, "equal to the table its level files build", "gap database GapDB4_6, 3x3, cells 3,4,5,6,7,8, gap <= 4 in 2 bits"},
	} {
		code, out, errs = runCmd(t, "", "verify", c.path)
		require.Equal(t, 0, code, errs)
		assert.Contains(t, out, c.verified)
		code, out, errs = runCmd(t, "", "report", c.path)
		require.Equal(t, 0, code, errs)
		assert.Contains(t, out, c.reported)
	}
	code, out, _ = runCmd(t, "", "report", "--format", "json", db)
	require.Equal(t, 0, code)
	assert.Contains(t, out, `"name":"GapDB4_6"`)

	raw, err := os.ReadFile(db)
	require.NoError(t, err)
	raw[len(raw)-20] ^= 1
	bad := filepath.Join(dir, "bad.gapdb")
	require.NoError(t, os.WriteFile(bad, raw, 0o644))
	for _, c := range []struct {
		args []string
		msg  string
	}{
		{[]string{"gapdb", "--out", filepath.Join(dir, "x.gapdb"), keys[0], keys[1], keys[4], keys[5]}, "no level file of gap 0"},
		{[]string{"gapdb", "--out", filepath.Join(dir, "x.gapdb")}, "give the level files"},
		{append([]string{"gapdb", "--filter-cells", "7", "--out", filepath.Join(dir, "x.gapdb")}, keys...), "--filter-cells 7: want 0 (none) to 6"},
		{append([]string{"gapdb", "--filter-cells", "6", "--out", filepath.Join(dir, "x.gapdb")}, keys...), "a filter of 6 cells for a projection of 6"},
		{[]string{"gapdb", "--out", filepath.Join(dir, "x.gapdb"), "--keys", db}, "bad key-set file"},
		{append(solve, "--gapdb", bad), "does not match its CRC"},
		{append(append(solve, "--gapdb", db), keys[:2]...), "give the gap levels one way"},
		{[]string{"solve", "-q", "--rows", "3", "--cols", "3", "-i", "-", "-H", "gap6:6", "--gapdb", db}, "gap6 needs a gap database of gap <= 6; the largest given holds gap <= 4"},
		{[]string{"solve", "-q", "--rows", "3", "--cols", "3", "-i", "-", "-H", "gap4:6/4", "--gapdb", db}, "filter sets do not apply"},
		{[]string{"solve", "-q", "--rows", "3", "--cols", "3", "-i", "-", "-H", "gap4:5", "--gapdb", db}, "no gap database on 5 cells"},
		{[]string{"solve", "-q", "-H", "gap4:6", "--gapdb", db, "1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "11", "12", "13", "14", "0", "15"}, "a 3x3 database, but the boards are 4x4"},
		{append(append(solve, "--gapdb", db), "--dense", "4"), "a gap database's filter is chosen when it is built"},
		{[]string{"verify", bad}, "does not match its CRC"},
		{[]string{"report", bad}, "does not match its CRC"},
	} {
		code, _, errs := runCmd(t, boards3x3, c.args...)
		assert.Equal(t, 2, code, "%v: %s", c.args, errs)
		assert.Contains(t, errs, c.msg, "%v", c.args)
		assert.Equal(t, 1, strings.Count(errs, "\n"), "%v: %s", c.args, errs)
	}
	_, err = os.Stat(filepath.Join(dir, "x.gapdb"))
	assert.ErrorIs(t, err, os.ErrNotExist)
}

// The levels of a cell set, written by enumerate --cells @SET, make a gap
// database of those cells: verify builds it again from them, solve reads it
// (the lengths of md), and files of another cell set are refused.
func TestGapDBCellSet(t *testing.T) {
	dir := t.TempDir()
	var keys []string
	for _, g := range []string{"0", "2", "4"} {
		code, _, errs := runCmd(t, "", "enumerate", "-q", "--rows", "3", "--cols", "3", "--gap", g, "--cells", "@0-2+6-8,@0-3", "--out-dir", dir)
		require.Equal(t, 0, code, errs)
		keys = append(keys, "--keys", filepath.Join(dir, "Gap"+g+"_6c01C7.keys"))
	}
	db := filepath.Join(dir, "rows02.gapdb")
	code, out, errs := runCmd(t, "", append([]string{"gapdb", "-q", "--out", db}, keys...)...)
	require.Equal(t, 0, code, errs)
	assert.Contains(t, out, "GapDB4_{0,1,2,6,7,8} levels=3 bits=2 entries=60480")
	code, out, errs = runCmd(t, "", "verify", db)
	require.Equal(t, 0, code, errs)
	assert.Contains(t, out, "equal to the table its level files build")
	code, fromDB, errs := runCmd(t, boards3x3, "solve", "-q", "--rows", "3", "--cols", "3", "-i", "-", "-H", "gap4r:6", "--gapdb", db)
	require.Equal(t, 0, code, errs)
	code, md, errs := runCmd(t, boards3x3, "solve", "-q", "--rows", "3", "--cols", "3", "-i", "-", "-H", "md")
	require.Equal(t, 0, code, errs)
	lengths := regexp.MustCompile(`length ([0-9]+)|([0-9]+) moves`)
	assert.Equal(t, lengths.FindAllString(md, -1), lengths.FindAllString(fromDB, -1))
	assert.NotEmpty(t, lengths.FindAllString(md, -1))

	mixed := append(slices.Clone(keys[:4]), "--keys", filepath.Join(dir, "Gap4_4c000F.keys"))
	code, _, errs = runCmd(t, "", append([]string{"gapdb", "-q", "--out", filepath.Join(dir, "mixed.gapdb")}, mixed...)...)
	assert.Equal(t, 2, code, errs)
	assert.Contains(t, errs, "on the cells 0-3")
	assert.NoFileExists(t, filepath.Join(dir, "mixed.gapdb"))
}

// Before reading a key, gapdb says what the build takes (the table's
// memory, the file, the keys), and refuses with exit 3 a table the
// available memory or a file the free disk cannot hold.
func TestGapDBSaysAndFits(t *testing.T) {
	dir := t.TempDir()
	var keys []string
	for _, g := range []string{"0", "2"} {
		code, _, errs := runCmd(t, "", "enumerate", "-q", "--rows", "3", "--cols", "3", "--gap", g, "--cells", "6", "--out-dir", dir)
		require.Equal(t, 0, code, errs)
		keys = append(keys, filepath.Join(dir, "Gap"+g+"_6.keys"))
	}
	code, _, errs := runCmd(t, "", "gapdb", "--out", filepath.Join(dir, "g.gapdb"), "--keys", keys[0], "--keys", keys[1])
	require.Equal(t, 0, code, errs)
	// 60,480 patterns of 6 cells of 9 at 1 bit (two levels and "above": 2 bits)
	assert.Regexp(t, `gapset: GapDB2_6: 60480 patterns at 2 bits; [0-9]+ keys to read; 0\.0 GiB of memory, a 0\.0 GiB file; about 0s`, errs)

	plan, err := gapdb.PlanKeyFiles(keys, 0)
	require.NoError(t, err)
	b, err := plan.Build(context.Background(), nil)
	require.NoError(t, err)
	assert.Equal(t, uint64(len(b.Table())+len(b.Filter())), plan.Memory())
	st, err := os.Stat(filepath.Join(dir, "g.gapdb"))
	require.NoError(t, err)
	assert.Equal(t, uint64(st.Size()), plan.FileBytes(), "the plan's file is the file written")
	assert.NoError(t, plan.Fits(plan.Memory(), int64(plan.FileBytes()), dir))
	assert.NoError(t, plan.Fits(0, -1, dir), "unknown figures do not refuse")
	err = plan.Fits(plan.Memory()-1, -1, dir)
	assert.Equal(t, 3, cmdline.ExitCode(err, limitErrors...))
	assert.ErrorContains(t, err, "GapDB2_6: the table takes")
	err = plan.Fits(0, int64(plan.FileBytes())-1, dir)
	assert.Equal(t, 3, cmdline.ExitCode(err, limitErrors...))
	assert.ErrorContains(t, err, "GapDB2_6: the file takes")
}
