package main

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/gapset/gapset/bdd"
	"github.com/gapset/gapset/encode"
	"github.com/gapset/gapset/keyset"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// gapset order finds an order no worse than its start; build takes it back
// as @FILE and as an inline list and gives a set with the same members.
func TestOrderThenBuild(t *testing.T) {
	dir := t.TempDir()
	var keys []uint64
	for _, k := range gapKeys3x3(t, 2) {
		keys = append(keys, encode.Project(k, 6))
	}
	slices.Sort(keys)
	keys = slices.Compact(keys)
	kpath := filepath.Join(dir, "g2_6.keys")
	require.NoError(t, keyset.WriteFile(kpath, keyset.Header{Rows: 3, Cols: 3, Cells: 6, Gap: 2, Count: uint64(len(keys))}, keys))

	opath := filepath.Join(dir, "best.order")
	saved := filepath.Join(dir, "found.bdd")
	code, stdout, stderr := runCmd(t, "", "order", "-q", "--keys", kpath, "--start", "natural", "--method", "sift",
		"--budget", "1m", "--out", opath, "--save", saved, "--levels", filepath.Join(dir, "levels.csv"), "--chart", filepath.Join(dir, "levels.png"))
	require.Equal(t, 0, code, stderr)
	m := regexp.MustCompile(`start_nodes=(\d+) nodes=(\d+)`).FindStringSubmatch(stdout)
	require.NotNil(t, m, stdout)
	start, _ := strconv.Atoi(m[1])
	found, _ := strconv.Atoi(m[2])
	assert.LessOrEqual(t, found, start)

	// A cap below the start diagram cannot be kept: refused, nothing written.
	capped := filepath.Join(dir, "capped.order")
	code, _, stderr = runCmd(t, "", "order", "-q", "--keys", kpath, "--start", "natural", "--method", "sift",
		"--budget", "1m", "--max-nodes", "1", "--out", capped)
	assert.Equal(t, 2, code, stderr)
	assert.Contains(t, stderr, fmt.Sprintf("below the start diagram's %d nodes", start))
	_, err := os.Stat(capped)
	assert.True(t, os.IsNotExist(err))

	text, err := os.ReadFile(opath)
	require.NoError(t, err)
	o, err := bdd.ParseOrder(string(text), 3, 3, 6)
	require.NoError(t, err)
	assert.Equal(t, "sift:natural", o.Name)
	inline := ""
	for i, b := range o.Bits {
		if i > 0 {
			inline += ","
		}
		inline += strconv.Itoa(int(b))
	}
	for _, arg := range []string{"@" + opath, inline} {
		out := filepath.Join(dir, "b.bdd")
		code, _, stderr := runCmd(t, "", "build", "-q", "--keys", kpath, "--order", arg, "--out", out)
		require.Equal(t, 0, code, stderr)
		d, in, err := bdd.Load(out)
		require.NoError(t, err)
		assert.Equal(t, uint64(found), in.Nodes, "the found order rebuilt from the keys")
		assert.Equal(t, o.Bits, in.Order.Bits)
		assert.Equal(t, uint64(len(keys)), in.Count)
		for _, k := range keys {
			require.True(t, d.Contains(k))
		}
	}
	csv, err := os.ReadFile(filepath.Join(dir, "levels.csv"))
	require.NoError(t, err)
	assert.Equal(t, 1+4*6, strings.Count(string(csv), "\n"), "a header and one line per level")
	pngData, err := os.ReadFile(filepath.Join(dir, "levels.png"))
	require.NoError(t, err)
	assert.Equal(t, "\x89PNG", string(pngData[:4]))
	_, in, err := bdd.Load(saved)
	require.NoError(t, err)
	assert.Equal(t, uint64(found), in.Nodes)
	assert.Positive(t, in.ZDDNodes)

	for _, bad := range [][]string{
		{"order", "--keys", kpath, "--out", opath, "--method", "nope"},
		{"order", "--keys", kpath, "--bdd", saved, "--out", opath},
		{"order", "--keys", kpath, "--start", "1,2,3", "--out", opath},
		{"build", "--keys", kpath, "--order", "@" + filepath.Join(dir, "missing"), "--out", filepath.Join(dir, "x.bdd")},
		{"build", "--keys", kpath, "--order", "0,0,1", "--out", filepath.Join(dir, "x.bdd")},
	} {
		code, _, stderr := runCmd(t, "", bad...)
		assert.Equal(t, 2, code, "%v: %s", bad, stderr)
	}
}

// build and order take --encoding tiles for whole boards; the file answers
// ordinary board keys and report names the encoding.
func TestTilesEncodingThroughTheCommands(t *testing.T) {
	dir := t.TempDir()
	keys := gapKeys3x3(t, 0)
	kpath := filepath.Join(dir, "g0.keys")
	require.NoError(t, keyset.WriteFile(kpath, keyset.Header{Rows: 3, Cols: 3, Cells: 9, Gap: 0}, keys))
	for _, enc := range []string{"tiles", "ranks", "ranks-reverse"} {
		out := filepath.Join(dir, enc+".bdd")
		code, stdout, stderr := runCmd(t, "", "build", "-q", "--keys", kpath, "--encoding", enc, "--order", "natural", "--out", out)
		require.Equal(t, 0, code, stderr)
		assert.Contains(t, stdout, "patterns="+strconv.Itoa(len(keys)))
		s, err := bdd.Open(out)
		require.NoError(t, err)
		for _, k := range keys {
			require.True(t, s.Contains(k))
		}
		assert.False(t, s.Contains(0x123456870), "goal with tiles 7 and 8 swapped: unsolvable")
		code, stdout, stderr = runCmd(t, "", "report", "--verify", out)
		require.Equal(t, 0, code, stderr)
		assert.Contains(t, stdout, "natural ("+enc+")")

		// gapset zdd rewrites the file: the encoding must survive
		bare := filepath.Join(dir, enc+".nozdd.bdd")
		code, _, stderr = runCmd(t, "", "build", "-q", "--keys", kpath, "--encoding", enc, "--zdd=false", "--out", bare)
		require.Equal(t, 0, code, stderr)
		code, _, stderr = runCmd(t, "", "zdd", "-q", bare)
		require.Equal(t, 0, code, stderr)
		s, err = bdd.Open(bare)
		require.NoError(t, err)
		assert.Equal(t, enc, s.Info().Encoding.String())
		assert.Positive(t, s.Info().ZDDNodes)
		for _, k := range keys {
			require.True(t, s.Contains(k))
		}

		code, stdout, stderr = runCmd(t, "", "order", "-q", "--keys", kpath, "--encoding", enc, "--start", "natural",
			"--method", "window", "--out", filepath.Join(dir, enc+".order"))
		require.Equal(t, 0, code, stderr)
		assert.Contains(t, stdout, "encoding="+enc)
	}

	var proj []uint64
	for _, k := range keys {
		proj = append(proj, encode.Project(k, 6))
	}
	slices.Sort(proj)
	proj = slices.Compact(proj)
	ppath := filepath.Join(dir, "p.keys")
	require.NoError(t, keyset.WriteFile(ppath, keyset.Header{Rows: 3, Cols: 3, Cells: 6, Gap: 0}, proj))
	code, _, stderr := runCmd(t, "", "build", "-q", "--keys", ppath, "--encoding", "tiles", "--out", filepath.Join(dir, "p.bdd"))
	assert.Equal(t, 2, code, stderr)
	assert.Contains(t, stderr, "whole boards")
}
