package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gapset/gapset/bdd/report"
	"github.com/gapset/gapset/keyset"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestEnumerateAndCount(t *testing.T) {
	dir := t.TempDir()
	code, out, errs := runCmd(t, "", "enumerate", "--rows", "3", "--cols", "3", "--gap", "2", "--cells", "9,6", "--out-dir", dir)
	require.Equal(t, 0, code, errs)
	assert.Contains(t, out, "members 8922\n")
	assert.Contains(t, out, "set Gap2 cells 9 count 8922 file "+filepath.Join(dir, "Gap2.keys"))
	assert.Contains(t, out, "set Gap2_6 cells 6 ")
	assert.Contains(t, errs, "gap 0 M  0:")

	code, out, _ = runCmd(t, "", "count", filepath.Join(dir, "Gap2.keys"))
	require.Equal(t, 0, code)
	assert.Contains(t, out, "Gap2 3x3 cells 9 gap 2 exact false count 8922 checksum ok")

	// JSON summary, one file via --out, exact gap.
	p := filepath.Join(dir, "exact.keys")
	code, out, _ = runCmd(t, "", "enumerate", "-q", "--rows", "3", "--cols", "3", "--gap", "2", "--exact", "--cells", "9", "--out", p, "--format", "json")
	require.Equal(t, 0, code)
	var sum struct {
		Members int64 `json:"members"`
		Outputs []struct {
			Name  string `json:"name"`
			Path  string `json:"path"`
			Count uint64 `json:"count"`
		} `json:"outputs"`
		Layers []struct {
			Gap, Manhattan int
			Count          int64
		} `json:"layers"`
	}
	require.NoError(t, json.Unmarshal([]byte(out), &sum))
	require.Len(t, sum.Outputs, 1)
	assert.Equal(t, p, sum.Outputs[0].Path)
	assert.Equal(t, "G2x", sum.Outputs[0].Name)
	var g2 uint64
	for _, l := range sum.Layers {
		if l.Gap == 2 {
			g2 += uint64(l.Count)
		}
	}
	assert.Equal(t, g2, sum.Outputs[0].Count)
	code, out, _ = runCmd(t, "", "count", "--format", "json", p)
	require.Equal(t, 0, code)
	assert.Contains(t, out, `"exact":true`)
}

func TestEnumerateBadInput(t *testing.T) {
	dir := t.TempDir()
	for _, args := range [][]string{
		{"enumerate", "--gap", "1", "--out-dir", dir},
		{"enumerate", "--gap", "-2", "--out-dir", dir},
		{"enumerate", "--rows", "3", "--cols", "3", "--cells", "10", "--out-dir", dir},
		{"enumerate", "--cells", "x", "--out-dir", dir},
		{"enumerate", "--cells", "", "--out-dir", dir},
		{"enumerate", "--cells", "8,8", "--out-dir", dir},
		{"enumerate", "--cells", "8,10", "--out", filepath.Join(dir, "a.keys")},
		{"enumerate", "--rows", "5", "--out-dir", filepath.Join(dir, "missing")},
		{"enumerate", "--gap", "3", "--out-dir", filepath.Join(dir, "missing")},
		{"enumerate", "--rows", "5", "--out-dir", dir},
		{"enumerate", "--format", "xml", "--out-dir", dir},
		{"enumerate", "--memory", "1", "--out-dir", dir},
		{"enumerate", "--raw-runs", "--rank-runs", "--out-dir", dir},
		{"enumerate", "--rows", "3", "--cols", "4", "--transpose", "--out-dir", dir},
		{"count"},
		{"count", filepath.Join(dir, "missing.keys")},
	} {
		code, _, errs := runCmd(t, "", args...)
		assert.Equal(t, 2, code, "%v: %s", args, errs)
		assert.Equal(t, 1, strings.Count(errs, "\n"), "%v: one line: %q", args, errs)
	}
	entries, _ := os.ReadDir(dir)
	assert.Empty(t, entries, "nothing written")

	// A damaged file is refused.
	code, _, _ := runCmd(t, "", "enumerate", "-q", "--rows", "2", "--cols", "3", "--cells", "6", "--out-dir", dir)
	require.Equal(t, 0, code)
	p := filepath.Join(dir, "Gap0.keys")
	b, err := os.ReadFile(p)
	require.NoError(t, err)
	b[40] ^= 1
	require.NoError(t, os.WriteFile(p, b, 0o644))
	code, _, errs := runCmd(t, "", "count", p)
	assert.Equal(t, 2, code)
	assert.Contains(t, errs, "bad key-set file") // the flipped bit repeats a tile: refused before the checksum
}

// --packed writes the same sets delta-coded: smaller files that count,
// build and solve read as they read the 8-byte ones.
func TestEnumeratePacked(t *testing.T) {
	plain, packed := t.TempDir(), t.TempDir()
	for _, d := range []struct {
		dir   string
		extra []string
	}{{plain, nil}, {packed, []string{"--packed"}}} {
		for _, gap := range []string{"0", "2"} {
			args := append([]string{"enumerate", "-q", "--rows", "3", "--cols", "3", "--gap", gap, "--cells", "9,6", "--out-dir", d.dir}, d.extra...)
			code, _, errs := runCmd(t, "", args...)
			require.Equal(t, 0, code, errs)
		}
	}
	for _, name := range []string{"Gap2.keys", "Gap2_6.keys"} {
		hp, kp, err := keyset.ReadAll(filepath.Join(plain, name))
		require.NoError(t, err)
		hq, kq, err := keyset.ReadAll(filepath.Join(packed, name))
		require.NoError(t, err)
		assert.Equal(t, kp, kq, name)
		assert.False(t, hp.Packed)
		assert.True(t, hq.Packed)
		sp, _ := os.Stat(filepath.Join(plain, name))
		sq, _ := os.Stat(filepath.Join(packed, name))
		assert.Less(t, sq.Size(), sp.Size()/2, name)
	}
	code, out, errs := runCmd(t, "", "count", filepath.Join(packed, "Gap2.keys"))
	require.Equal(t, 0, code, errs)
	assert.Contains(t, out, "count 8922 checksum ok packed")
	solve := func(dir string) string {
		code, out, errs := runCmd(t, boards3x3, "solve", "-q", "--rows", "3", "--cols", "3", "-i", "-", "-f", "csv", "-H", "gap2",
			"--keys", filepath.Join(dir, "Gap0_6.keys"), "--keys", filepath.Join(dir, "Gap2_6.keys"))
		require.Equal(t, 0, code, errs)
		return out
	}
	assert.Equal(t, column(solve(plain), "nodes"), column(solve(packed), "nodes"))
	var reports []report.Row
	for _, dir := range []string{plain, packed} {
		out := filepath.Join(dir, "Gap2_6.bdd")
		code, _, errs := runCmd(t, "", "build", "-q", "--keys", filepath.Join(dir, "Gap2_6.keys"), "--out", out)
		require.Equal(t, 0, code, errs)
		code, rep, errs := runCmd(t, "", "report", "--format", "json", out)
		require.Equal(t, 0, code, errs)
		var rows []report.Row
		require.NoError(t, json.Unmarshal([]byte(rep), &rows))
		require.Len(t, rows, 1)
		// what the machine decides: the path, the build's time and memory
		rows[0].File, rows[0].BuildSeconds, rows[0].PeakMemory = "", 0, 0
		reports = append(reports, rows[0])
	}
	assert.Equal(t, "Gap2_6", reports[0].Set)
	assert.Equal(t, reports[0], reports[1], "the same diagram from either file")
}

// --cells takes cell sets (@SET) beside K: the files are named by the
// cells, count describes them, --out writes one, verify compares them with
// the set enumerated again, and the readers of the last K cells refuse them
// with one line and exit 2; a bad set is refused as it is parsed.
func TestEnumerateCellSets(t *testing.T) {
	dir := t.TempDir()
	code, out, errs := runCmd(t, "", "enumerate", "-q", "--rows", "3", "--cols", "3", "--gap", "2", "--cells", "6,@0-2+6-8", "--out-dir", dir)
	require.Equal(t, 0, code, errs)
	set := filepath.Join(dir, "Gap2_6c01C7.keys")
	assert.Contains(t, out, "set Gap2_6c01C7 cells 6 count 6330 file "+set)
	assert.Contains(t, out, "set Gap2_6 cells 6 ")
	code, out, _ = runCmd(t, "", "count", set)
	require.Equal(t, 0, code)
	assert.Contains(t, out, "Gap2_6c01C7 3x3 cells 6 (0-2+6-8) gap 2 exact false count 6330 checksum ok")
	code, out, _ = runCmd(t, "", "verify", set)
	require.Equal(t, 0, code)
	assert.Contains(t, out, "equal to the set enumerated again")

	p := filepath.Join(dir, "one.keys")
	code, _, errs = runCmd(t, "", "enumerate", "-q", "--rows", "3", "--cols", "3", "--gap", "2", "--cells", "@0-2+6-8", "--out", p)
	require.Equal(t, 0, code, errs)
	a, err := os.ReadFile(p)
	require.NoError(t, err)
	b, err := os.ReadFile(set)
	require.NoError(t, err)
	assert.Equal(t, b, a)

	for args, msg := range map[*[]string]string{
		{"solve", "--rows", "3", "--cols", "3", "-H", "gap2", "--keys", set, "1 2 3 4 5 6 0 7 8"}:                          "cells other than the last k",
		{"build", "--keys", set, "--out", filepath.Join(dir, "x.bdd")}:                                                     "cells other than the last k",
		{"approx", "-q", "--rows", "3", "--cols", "3", "--cells", "6", "--max-gap", "4", "--exact", set, "--out-dir", dir}: "is not the exact gap <= 0 set of a 3x3 board on 6 cells",
	} {
		code, _, errs := runCmd(t, "", *args...)
		assert.Equal(t, 2, code, "%v: %s", *args, errs)
		assert.Equal(t, 1, strings.Count(strings.TrimSpace(errs), "\n")+1, errs)
		assert.Contains(t, errs, msg, *args)
	}
	assert.NoFileExists(t, filepath.Join(dir, "x.bdd"))
	for spec, msg := range map[string]string{
		"@0-2,6-8": `"6-8" is not a number K nor @SET`,
		"@0-9":     "beyond the 9 of the board",
		"@1+1":     "cell 1 given twice",
		"@6-8":     "", // the last 3 cells: 3
	} {
		code, out, errs := runCmd(t, "", "enumerate", "-q", "--rows", "3", "--cols", "3", "--gap", "0", "--cells", spec, "--out-dir", t.TempDir())
		if msg == "" {
			require.Equal(t, 0, code, errs)
			assert.Contains(t, out, "set Gap0_3 cells 3 ")
			continue
		}
		assert.Equal(t, 2, code, spec)
		assert.Contains(t, errs, msg, spec)
	}
}

// approx --cells @SET approximates on a cell set from its exact levels:
// the files name the cells, verify finds each a superset of the set
// enumerated again, and gapdb builds the database of the cells from them.
func TestApproxCellSet(t *testing.T) {
	dir := t.TempDir()
	code, _, errs := runCmd(t, "", "enumerate", "-q", "--rows", "3", "--cols", "3", "--gap", "0", "--cells", "@0-2+6-8", "--out-dir", dir)
	require.Equal(t, 0, code, errs)
	gap0 := filepath.Join(dir, "Gap0_6c01C7.keys")
	code, out, errs := runCmd(t, "", "approx", "-q", "--rows", "3", "--cols", "3", "--cells", "@0-2+6-8", "--max-gap", "4", "--exact", gap0, "--out-dir", dir)
	require.Equal(t, 0, code, errs)
	assert.Contains(t, out, "| Gap4_6c01C7a |")
	keys := []string{"--keys", gap0}
	for _, name := range []string{"Gap2_6c01C7a.keys", "Gap4_6c01C7a.keys"} {
		p := filepath.Join(dir, name)
		code, out, errs = runCmd(t, "", "verify", p)
		require.Equal(t, 0, code, errs)
		assert.Contains(t, out, "a superset of the set enumerated again")
		keys = append(keys, "--keys", p)
	}
	code, out, errs = runCmd(t, "", append([]string{"gapdb", "-q", "--out", filepath.Join(dir, "a.gapdb")}, keys...)...)
	require.Equal(t, 0, code, errs)
	assert.Contains(t, out, "GapDB4_{0,1,2,6,7,8} levels=3")
	code, _, errs = runCmd(t, "", "approx", "-q", "--rows", "3", "--cols", "3", "--cells", "@0-2+6-8,5", "--out-dir", dir)
	assert.Equal(t, 2, code)
	assert.Contains(t, errs, "one projection")
}
