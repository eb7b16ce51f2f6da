package main

import (
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/gapset/gapset/encode"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The residual chain on 3x3: enumerate --base writes Res sets recording the
// base, gapset gapdb makes a ResDB of them, and solve with res4:6 (and its
// max with the gap bound) finds the BFS lengths; the gap readers refuse
// the residual sets.
func TestResidualChain(t *testing.T) {
	dir, pdbDir := t.TempDir(), t.TempDir()
	code, _, errs := runCmd(t, "", "pdb", "build", "-q", "--blank", "--partition", "4-4", "--rows", "3", "--cols", "3", "--out", pdbDir)
	require.Equal(t, 0, code, errs)
	base := "pdbbr:4-4"
	var levels []string
	for _, g := range []string{"0", "2", "4"} {
		code, out, errs := runCmd(t, "", "enumerate", "--rows", "3", "--cols", "3", "--gap", g, "--cells", "6", "--base", base, "--pdb", pdbDir, "--out-dir", dir)
		require.Equal(t, 0, code, errs)
		assert.Contains(t, out, "# 3x3, r <= "+g+" (r = optimum - h, h the base pdbbr:4-4)")
		assert.Contains(t, out, "r    h ")
		levels = append(levels, filepath.Join(dir, "Res"+g+"_6.keys"))
	}
	code, out, errs := runCmd(t, "", "count", levels[2])
	require.Equal(t, 0, code, errs)
	assert.Contains(t, out, "Res4_6 3x3 cells 6 gap 4 exact false")
	assert.Contains(t, out, " base pdbbr:4-4 ")

	db := filepath.Join(dir, "r.gapdb")
	code, _, errs = runCmd(t, "", append([]string{"gapdb", "--out", db}, prefixEach("--keys", levels)...)...)
	require.Equal(t, 0, code, errs)
	truth := encode.Distances(3, 3)
	for _, spec := range []string{"res4r:6", "res4:6"} {
		code, out, errs = runCmd(t, "", "solve", "--rows", "3", "--cols", "3", "-H", spec, "--gapdb", db, "--pdb", pdbDir, "--format", "csv", "8 7 6 5 4 3 2 1 0")
		require.Equal(t, 0, code, errs)
		bd, err := encode.Parse("8 7 6 5 4 3 2 1 0", 3, 3)
		require.NoError(t, err)
		assert.Contains(t, out, ","+strconv.Itoa(truth[bd.Key()])+",", spec)
	}

	// The readers of gap sets refuse a residual set, with exit status 2.
	for _, args := range [][]string{
		{"solve", "--rows", "3", "--cols", "3", "-H", "gap4:6", "--keys", levels[0], "--keys", levels[1], "--keys", levels[2], "1 2 3 4 5 6 7 8 0"},
		{"build", "--keys", levels[0], "--out", filepath.Join(dir, "x.bdd")},
	} {
		code, _, errs = runCmd(t, "", args...)
		assert.Equal(t, 2, code, "%v: %s", args, errs)
		assert.Contains(t, errs, "a residual set", "%v", args)
	}
}

// Residual and gap level files of the same cells given to gapset gapdb
// together make a database of both levels: report and verify know it,
// solve with both and bothr finds the BFS length; a build of two key sets
// of other cells and a search with another base's tables (none in --pdb)
// are refused with one line and exit status 2.
func TestBothChain(t *testing.T) {
	dir, pdbDir := t.TempDir(), t.TempDir()
	code, _, errs := runCmd(t, "", "pdb", "build", "-q", "--blank", "--partition", "4-4", "--rows", "3", "--cols", "3", "--out", pdbDir)
	require.Equal(t, 0, code, errs)
	var files []string
	for _, g := range []string{"0", "2", "4"} {
		code, _, errs := runCmd(t, "", "enumerate", "-q", "--rows", "3", "--cols", "3", "--gap", g, "--cells", "6", "--out-dir", dir)
		require.Equal(t, 0, code, errs)
		files = append(files, filepath.Join(dir, "Gap"+g+"_6.keys"))
	}
	for _, g := range []string{"0", "2"} {
		code, _, errs := runCmd(t, "", "enumerate", "-q", "--rows", "3", "--cols", "3", "--gap", g, "--cells", "6", "--base", "pdbbr:4-4", "--pdb", pdbDir, "--out-dir", dir)
		require.Equal(t, 0, code, errs)
		files = append(files, filepath.Join(dir, "Res"+g+"_6.keys"))
	}
	db := filepath.Join(dir, "both.gapdb")
	code, out, errs := runCmd(t, "", append([]string{"gapdb", "-q", "--out", db}, prefixEach("--keys", files)...)...)
	require.Equal(t, 0, code, errs)
	assert.Contains(t, out, "BothDB4+2_6 levels=3 res_levels=2 ")
	code, out, errs = runCmd(t, "", "report", db)
	require.Equal(t, 0, code, errs)
	assert.Contains(t, out, "gap <= 4 and r <= 2 (base pdbbr:4-4)")
	code, out, errs = runCmd(t, "", "verify", db)
	require.Equal(t, 0, code, errs)
	assert.Contains(t, out, "equal to the table its level files build")

	truth := encode.Distances(3, 3)
	bd, err := encode.Parse("8 7 6 5 4 3 2 1 0", 3, 3)
	require.NoError(t, err)
	for _, spec := range []string{"both:6", "bothr:6"} {
		code, out, errs = runCmd(t, "", "solve", "--rows", "3", "--cols", "3", "-H", spec, "--gapdb", db, "--pdb", pdbDir, "--format", "csv", bd.String())
		require.Equal(t, 0, code, errs)
		assert.Contains(t, out, ","+strconv.Itoa(truth[bd.Key()])+",", spec)
	}

	code, _, errs = runCmd(t, "", "solve", "--rows", "3", "--cols", "3", "-H", "both:6", "--gapdb", db, "--pdb", t.TempDir(), bd.String())
	assert.Equal(t, 2, code, errs)
	assert.Equal(t, 1, strings.Count(errs, "\n"), errs)
	code, _, errs = runCmd(t, "", "enumerate", "-q", "--rows", "3", "--cols", "3", "--gap", "0", "--cells", "5", "--base", "pdbbr:4-4", "--pdb", pdbDir, "--out-dir", dir)
	require.Equal(t, 0, code, errs)
	other := append(files[:3:3], filepath.Join(dir, "Res0_5.keys"))
	code, _, errs = runCmd(t, "", append([]string{"gapdb", "-q", "--out", filepath.Join(dir, "x.gapdb")}, prefixEach("--keys", other)...)...)
	assert.Equal(t, 2, code, errs)
	assert.Contains(t, errs, "one database holds the levels of one projection")
	assert.Equal(t, 1, strings.Count(errs, "\n"), errs)
}

// Bad bases are bad input: unknown, minimised over the blank, transposed
// off a square board; so are --pdb and --samples without --base and an
// asymmetric base with --transpose given.
func TestEnumerateBaseBadInput(t *testing.T) {
	dir := t.TempDir()
	for _, blank := range []string{"", "--blank"} {
		args := []string{"pdb", "build", "-q", "--partition", "4-4", "--rows", "3", "--cols", "3", "--out", dir}
		if blank != "" {
			args = append(args, blank)
		}
		code, _, errs := runCmd(t, "", args...)
		require.Equal(t, 0, code, errs)
	}
	for _, c := range []struct {
		args []string
		msg  string
	}{
		{[]string{"--rows", "3", "--cols", "3", "--base", "nosuch"}, "bad base heuristic"},
		{[]string{"--rows", "3", "--cols", "3", "--base", "pdb44", "--pdb", dir}, "minimum over the blank"},
		{[]string{"--rows", "3", "--cols", "3", "--base", "pdbb:4-4", "--pdb", t.TempDir()}, "pdb build"},
		{[]string{"--rows", "2", "--cols", "4", "--base", "pdbbr:1-4/5-7", "--pdb", dir}, "square board"},
		{[]string{"--rows", "3", "--cols", "3", "--pdb", dir}, "--pdb applies to --base only"},
		{[]string{"--rows", "3", "--cols", "3", "--samples", "5"}, "--samples applies to --base only"},
		{[]string{"--rows", "3", "--cols", "3", "--base", "pdbb:4-4", "--pdb", dir, "--transpose"}, "symmetric"},
	} {
		code, _, errs := runCmd(t, "", append([]string{"enumerate", "--out-dir", filepath.Join(dir, "o")}, c.args...)...)
		assert.Equal(t, 2, code, "%v: %s", c.args, errs)
		assert.Contains(t, errs, c.msg, "%v", c.args)
	}
	// The default --transpose gives way to an asymmetric base.
	code, _, errs := runCmd(t, "", "enumerate", "-q", "--rows", "3", "--cols", "3", "--base", "pdbb:4-4", "--pdb", dir, "--out-dir", filepath.Join(dir, "ok"))
	assert.Equal(t, 0, code, errs)
}

func prefixEach(flag string, vals []string) []string {
	var out []string
	for _, v := range vals {
		out = append(out, flag, v)
	}
	return out
}
