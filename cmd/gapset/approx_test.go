package main

import (
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/gapset/gapset/internal/slowtest"
	"github.com/gapset/gapset/keyset"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// approx writes supersets above the exact levels, and h_G:8 with them
// keeps md's lengths with fewer nodes than h_G:2.
func TestApproxCommand(t *testing.T) {
	dir := t.TempDir()
	for _, g := range []string{"0", "2"} {
		code, _, errs := runCmd(t, "", "enumerate", "-q", "--rows", "3", "--cols", "3", "--gap", g, "--cells", "6", "--out-dir", dir)
		require.Equal(t, 0, code, errs)
	}
	exact := []string{"--exact", filepath.Join(dir, "Gap0_6.keys"), "--exact", filepath.Join(dir, "Gap2_6.keys")}
	code, out, errs := runCmd(t, "", append([]string{"approx", "-q", "--rows", "3", "--cols", "3", "--cells", "6", "--max-gap", "8", "--out-dir", dir}, exact...)...)
	require.Equal(t, 0, code, errs)
	assert.Contains(t, out, "| Gap2_6 | 6285 |")
	h, keys, err := keyset.ReadAll(filepath.Join(dir, "Gap8_6a.keys"))
	require.NoError(t, err)
	assert.True(t, h.Approx)
	assert.Greater(t, len(keys), 6285)
	// --packed: the same sets, delta-coded
	pdir := t.TempDir()
	code, _, errs = runCmd(t, "", append([]string{"approx", "-q", "--rows", "3", "--cols", "3", "--cells", "6", "--max-gap", "8", "--packed", "--out-dir", pdir}, exact...)...)
	require.Equal(t, 0, code, errs)
	hp, pkeys, err := keyset.ReadAll(filepath.Join(pdir, "Gap8_6a.keys"))
	require.NoError(t, err)
	assert.True(t, hp.Packed && hp.Approx)
	assert.Equal(t, keys, pkeys)
	files := []string{"--keys", filepath.Join(dir, "Gap0_6.keys"), "--keys", filepath.Join(dir, "Gap2_6.keys")}
	for _, g := range []string{"4", "6", "8"} {
		files = append(files, "--keys", filepath.Join(dir, "Gap"+g+"_6a.keys"))
	}
	code, md, errs := runCmd(t, boards3x3, "solve", "-q", "--rows", "3", "--cols", "3", "-i", "-", "-f", "csv", "-H", "md")
	require.Equal(t, 0, code, errs)
	code, g8, errs := runCmd(t, boards3x3, append([]string{"solve", "-q", "--rows", "3", "--cols", "3", "-i", "-", "-f", "csv", "-H", "gap8"}, files...)...)
	require.Equal(t, 0, code, errs)
	assert.Contains(t, g8, "Gap8_6a")
	assert.Equal(t, column(md, "length"), column(g8, "length"))
	// a BDD of an approximated set says so (report, verify) and serves h_G:8 as the keys do
	bddFile := filepath.Join(dir, "Gap8_6a.bdd")
	code, _, errs = runCmd(t, "", "build", "-q", "--keys", filepath.Join(dir, "Gap8_6a.keys"), "--out", bddFile)
	require.Equal(t, 0, code, errs)
	code, rep, errs := runCmd(t, "", "report", bddFile)
	require.Equal(t, 0, code, errs)
	assert.Contains(t, rep, "| Gap8_6a |")
	code, ver, errs := runCmd(t, "", "verify", bddFile)
	require.Equal(t, 0, code, errs)
	assert.Contains(t, ver, "a superset of the set enumerated again")
	files[len(files)-1] = filepath.Join(dir, "Gap8_6a.keys")
	code, g8b, errs := runCmd(t, boards3x3, append([]string{"solve", "-q", "--rows", "3", "--cols", "3", "-i", "-", "-f", "csv", "-H", "gap8", "--bdd", bddFile}, files[:len(files)-2]...)...)
	require.Equal(t, 0, code, errs)
	assert.Equal(t, column(g8, "nodes"), column(g8b, "nodes"), "the BDD answers as the key set does")
	// bad input: the exact files out of order
	code, _, errs = runCmd(t, "", "approx", "-q", "--rows", "3", "--cols", "3", "--cells", "6", "--out-dir", dir, "--exact", exact[3])
	assert.Equal(t, 2, code)
	assert.Contains(t, errs, "not the exact gap <= 0 set")
}

// Above 8 cells approx holds its sets as one bit per placement rank: 9
// cells of the 3x4 board, seeded with the exact Gap0_9, give a Gap2_9a that
// holds the enumerated Gap2_9; 11 of 16 cells are refused before work.
func TestApproxCommandRanked(t *testing.T) {
	dir := t.TempDir()
	for _, g := range []string{"0", "2"} {
		code, _, errs := runCmd(t, "", "enumerate", "-q", "--rows", "3", "--cols", "4", "--gap", g, "--cells", "9", "--out-dir", dir)
		require.Equal(t, 0, code, errs)
	}
	out := t.TempDir()
	code, _, errs := runCmd(t, "", "approx", "--rows", "3", "--cols", "4", "--cells", "9", "--max-gap", "2", "--exact", filepath.Join(dir, "Gap0_9.keys"), "--out-dir", out)
	require.Equal(t, 0, code, errs)
	assert.Contains(t, errs, "approx: 2 search tables and 1 exact tables (placement-rank bits) of 9.5 MiB each") // 12!/3! bits
	_, exact, err := keyset.ReadAll(filepath.Join(dir, "Gap2_9.keys"))
	require.NoError(t, err)
	h, approx, err := keyset.ReadAll(filepath.Join(out, "Gap2_9a.keys"))
	require.NoError(t, err)
	assert.True(t, h.Approx)
	assert.Greater(t, len(approx), len(exact))
	assert.True(t, isSubsetOf(exact, approx), "Gap2_9a misses an enumerated pattern")

	// seeded with the exact levels to gap 4 (GAPSET_SLOW=1: to gap 6, as on
	// the 4x4 board, four times the work): only the top one is loaded,
	// Gap6_9a (Gap8_9a) holds Gap4_9 (Gap6_9) and more (that it holds the
	// enumerated Gap8_9: gapset's TestApproximateRankedSameFiles), and h_G:6
	// (h_G:8) with it keeps md's lengths on random 3x4 boards
	seedGaps := []string{"0", "2", "4"}
	if slowtest.On() {
		seedGaps = append(seedGaps, "6")
	}
	top := seedGaps[len(seedGaps)-1]
	topN, _ := strconv.Atoi(top)
	maxGap := strconv.Itoa(topN + 2)
	for _, g := range seedGaps[2:] {
		code, _, errs := runCmd(t, "", "enumerate", "-q", "--rows", "3", "--cols", "4", "--gap", g, "--cells", "9", "--out-dir", dir)
		require.Equal(t, 0, code, errs)
	}
	seeds := []string{"approx", "--rows", "3", "--cols", "4", "--cells", "9", "--max-gap", maxGap, "--out-dir", out}
	for _, g := range seedGaps {
		seeds = append(seeds, "--exact", filepath.Join(dir, "Gap"+g+"_9.keys"))
	}
	code, table, errs := runCmd(t, "", seeds...)
	require.Equal(t, 0, code, errs)
	assert.Contains(t, errs, fmt.Sprintf("1 exact tables (placement-rank bits) of 9.5 MiB each: 28.6 MiB (only the top one of the %d exact levels is loaded)", len(seedGaps)))
	assert.Regexp(t, fmt.Sprintf(`level %d \(gap %s\): \d+ patterns so far \(0\.\d{4} of all\)`, len(seedGaps)-1, top), errs, "progress during the first level")
	_, gTop, err := keyset.ReadAll(filepath.Join(dir, "Gap"+top+"_9.keys"))
	require.NoError(t, err)
	assert.Contains(t, table, fmt.Sprintf("| Gap%s_9 | %d |", top, len(gTop)), "the table starts at the top seed")
	assert.NotContains(t, table, "| Gap"+seedGaps[len(seedGaps)-2]+"_9 |")
	_, approxTop, err := keyset.ReadAll(filepath.Join(out, "Gap"+maxGap+"_9a.keys"))
	require.NoError(t, err)
	assert.Greater(t, len(approxTop), len(gTop))
	assert.True(t, isSubsetOf(gTop, approxTop), "Gap%s_9a misses a pattern of Gap%s_9", maxGap, top)
	code, boards, errs := runCmd(t, "", "gen", "--rows", "3", "--cols", "4", "--count", "12", "--seed", "7")
	require.Equal(t, 0, code, errs)
	keys := []string{"--keys", filepath.Join(out, "Gap"+maxGap+"_9a.keys")}
	for _, g := range seedGaps {
		keys = append(keys, "--keys", filepath.Join(dir, "Gap"+g+"_9.keys"))
	}
	code, md, errs := runCmd(t, boards, "solve", "-q", "--rows", "3", "--cols", "4", "-i", "-", "-f", "csv", "-H", "md")
	require.Equal(t, 0, code, errs)
	code, gk, errs := runCmd(t, boards, append([]string{"solve", "-q", "--rows", "3", "--cols", "4", "-i", "-", "-f", "csv", "-H", "gap" + maxGap + ":9"}, keys...)...)
	require.Equal(t, 0, code, errs)
	assert.Equal(t, column(md, "length"), column(gk, "length"))
	assert.Less(t, sum(t, column(gk, "nodes")), sum(t, column(md, "nodes")))

	code, _, errs = runCmd(t, "", "approx", "--cells", "11", "--out-dir", out)
	assert.Equal(t, 2, code)
	assert.Equal(t, "gapset: --cells 11: an approximation on 11 of 16 cells holds 2 tables of 20.3 GiB (40.6 GiB), more than the 16 GiB limit\n", errs)
}

// column returns one CSV column's values.
func column(csv, name string) []string {
	lines := strings.Split(strings.TrimSpace(csv), "\n")
	head := strings.Split(lines[0], ",")
	col := -1
	for i, h := range head {
		if h == name {
			col = i
		}
	}
	var out []string
	for _, l := range lines[1:] {
		out = append(out, strings.Split(l, ",")[col])
	}
	return out
}

// isSubsetOf reports whether every key of the sorted a is in the sorted b.
func isSubsetOf(a, b []uint64) bool {
	i := 0
	for _, k := range a {
		for i < len(b) && b[i] < k {
			i++
		}
		if i == len(b) || b[i] != k {
			return false
		}
	}
	return true
}

// sum adds a column of integers.
func sum(t *testing.T, col []string) int64 {
	var s int64
	for _, v := range col {
		n, err := strconv.ParseInt(v, 10, 64)
		require.NoError(t, err)
		s += n
	}
	return s
}
