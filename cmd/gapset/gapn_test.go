package main

import (
	"context"
	"path/filepath"
	"slices"
	"testing"

	"github.com/gapset/gapset/bdd"
	"github.com/gapset/gapset/gapset"
	"github.com/gapset/gapset/keyset"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The heuristic flags reach the resolver: each combination solves (exit 0)
// or is refused (exit 2), and where a flag decides the heuristic's name the
// output shows it. What the heuristics then do (lengths, nodes, counters)
// is tested in package heuristic.
func TestSolveHeuristicFlags(t *testing.T) {
	dir := t.TempDir()
	sets, err := gapset.Sets(context.Background(), 3, 3, 0, []int{5}, nil)
	require.NoError(t, err)
	keys := filepath.Join(dir, "g0_5.keys")
	require.NoError(t, keyset.WriteFile(keys, keyset.Header{Rows: 3, Cols: 3, Cells: 5, Gap: 0}, sets[5]))
	order, err := bdd.NamedOrder("natural", 3, 3, 5)
	require.NoError(t, err)
	d, err := bdd.Build(slices.Clone(sets[5]), order, false)
	require.NoError(t, err)
	diagram := filepath.Join(dir, "g0_5.bdd")
	_, err = bdd.Save(diagram, d, bdd.Meta{Rows: 3, Cols: 3, Cells: 5, Gap: 0})
	require.NoError(t, err)

	on3x3 := []string{"--rows", "3", "--cols", "3", "-i", "-"}
	on3x4 := []string{"--rows", "3", "--cols", "4", "1 2 3 4 5 6 7 8 9 10 0 11"}
	on4x4 := []string{"1 2 3 4 5 6 7 8 9 10 11 12 13 14 0 15"}
	for _, c := range []struct {
		board, args []string
		code        int
		name        string
	}{
		{on3x3, []string{"-H", "gap0", "--cells", "9"}, 0, "gap0(Gap0)"},
		{on3x3, []string{"-H", "gap0:4", "--cells", "4", "--cells", "9", "--no-skip"}, 0, "gap0(Gap0_4)-noskip"},
		{on3x3, []string{"-H", "gap2:9/4", "--cells", "4", "--cells", "9", "--max-gap", "2"}, 0, "gap2(Gap0[Gap0_4]+Gap2[Gap2_4])"},
		{on3x3, []string{"-H", "gap8:7", "--cells", "9", "--cells", "7", "--max-gap", "8"}, 0, "gap8(Gap0_7+Gap2_7+Gap4_7+Gap6_7+Gap8_7)"},
		{on3x3, []string{"-H", "gap8", "--cells", "9", "--max-gap", "4"}, 2, ""},
		{on3x3, []string{"-H", "gap4r:6", "--cells", "6", "--max-gap", "4"}, 0, ""},
		{on3x4, []string{"-H", "gap0r", "--cells", "6"}, 2, ""},
		{on3x3, []string{"-H", "gap0", "--keys", keys}, 0, "gap0(Gap0_5)"},
		{on4x4, []string{"-H", "gap0", "--keys", keys}, 2, ""},
		{on3x3, []string{"-H", "gap0", "--bdd", diagram, "--dense", "2", "--dense", "3"}, 0, "gap0(Gap0_5.bdd<2,3>)"},
		{on3x3, []string{"-H", "gap0", "--bdd", diagram, "--dense", "0"}, 0, "gap0(Gap0_5.bdd<none>)"},
		{on3x3, []string{"-H", "gap0:9/5", "--bdd", diagram, "--cells", "9"}, 0, "gap0(Gap0[Gap0_5.bdd])"},
		{on3x3, []string{"-H", "gap2", "--cells", "9", "--max-gap", "2", "--all-solutions"}, 0, "optimal solutions"},
		{on4x4, []string{"-H", "wdlc"}, 0, "wdlc"},
	} {
		args := append(append([]string{"solve", "-q"}, c.board...), c.args...)
		code, out, errs := runCmd(t, boards3x3, args...)
		assert.Equal(t, c.code, code, "%v: %s", args, errs)
		assert.Contains(t, out, c.name, "%v", args)
	}
}
