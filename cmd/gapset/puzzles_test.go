package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

type pathOut struct {
	Method    string   `json:"method"`
	Start     string   `json:"start"`
	Length    int      `json:"length"`
	Moves     []int    `json:"moves"`
	Path      []string `json:"path"`
	Generated int64    `json:"generated"`
	Stored    int      `json:"stored"`
	Extra     struct {
		Reachable int `json:"reachable"`
	} `json:"extra"`
	Iterations []struct {
		Limit int `json:"limit"`
	} `json:"iterations"`
}

type farthestOut struct {
	Depth     int      `json:"depth"`
	Count     int      `json:"count"`
	Positions []string `json:"positions"`
	Reached   int      `json:"reached"`
	Layers    []int    `json:"layers"`
}

func runJSON(t *testing.T, out any, args ...string) {
	t.Helper()
	code, stdout, stderr := runCmd(t, "", args...)
	require.Equal(t, 0, code, "%v: %s", args, stderr)
	require.NoError(t, json.Unmarshal([]byte(stdout), out), stdout)
}

func TestSixCommands(t *testing.T) {
	for _, dedup := range []string{"map", "open", "linear"} {
		var bfs, bidir pathOut
		runJSON(t, &bfs, "six", "solve", "--format", "json", "--dedup", dedup, "1 5 2 6 3 4 0")
		assert.Equal(t, 11, bfs.Length)
		assert.Equal(t, 2819, bfs.Stored)
		assert.Len(t, bfs.Path, 12)
		assert.Equal(t, "(1 2 3 4 5 6 0)", bfs.Path[11])
		runJSON(t, &bidir, "six", "bidir", "--format", "json", "--dedup", dedup, "(1", "5", "2", "6", "3", "4", "0)")
		assert.Equal(t, 11, bidir.Length)
		assert.Equal(t, 342, bidir.Stored)
	}
	var far farthestOut
	runJSON(t, &far, "six", "farthest", "--format", "json")
	assert.Equal(t, 15, far.Depth)
	assert.Equal(t, 24, far.Count)
	assert.Equal(t, 5040, far.Reached)
	assert.Contains(t, far.Positions, "(4 6 5 1 3 2 0)")

	var plain, bounded pathOut
	runJSON(t, &plain, "six", "ida", "--format", "json", "4 6 5 1 3 2 0")
	runJSON(t, &bounded, "six", "ida", "--lower-bound", "--format", "json", "4 6 5 1 3 2 0")
	assert.Equal(t, 15, plain.Length)
	assert.Equal(t, 15, bounded.Length)
	assert.Equal(t, 0, plain.Iterations[0].Limit)
	assert.Equal(t, 10, bounded.Iterations[0].Limit)
	assert.Greater(t, plain.Generated, 1000*bounded.Generated)

	code, out, _ := runCmd(t, "", "six", "solve", "1 5 2 6 3 4 0")
	require.Equal(t, 0, code)
	assert.Contains(t, out, "length 11, ")
	assert.Contains(t, out, " 11  (1 2 3 4 5 6 0)")
}

func TestOshidoriCommand(t *testing.T) {
	cases := []struct {
		args []string
		want int
	}{
		{nil, 4},
		{[]string{"--goal", "W W W B B B _ _"}, 4},
		{[]string{"--free-gap"}, 3},
		{[]string{"--bidir"}, 4},
		{[]string{"--bidir", "--goal", "WWWBBB__"}, 4},
		{[]string{"--dedup", "linear"}, 4},
	}
	for _, c := range cases {
		var r pathOut
		runJSON(t, &r, append([]string{"oshidori", "--format", "json"}, c.args...)...)
		assert.Equal(t, c.want, r.Length, "%v", c.args)
		assert.Equal(t, 140, r.Extra.Reachable)
		assert.Equal(t, "B W B W B W _ _", r.Start)
	}
	code, out, _ := runCmd(t, "", "oshidori", "--goal", "BW__", "B", "W", "_", "_")
	require.Equal(t, 0, code)
	assert.Contains(t, out, "length 0")
}

func TestSlideCommands(t *testing.T) {
	var f23, f33 farthestOut
	runJSON(t, &f23, "slide", "--rows", "2", "--cols", "3", "farthest", "--format", "json")
	assert.Equal(t, 21, f23.Depth)
	assert.Equal(t, []string{"4 5 0 1 2 3"}, f23.Positions)
	assert.Equal(t, 360, f23.Reached)
	runJSON(t, &f33, "slide", "farthest", "--format", "json", "--dedup", "open")
	assert.Equal(t, 31, f33.Depth)
	assert.ElementsMatch(t, []string{"8 6 7 2 5 4 3 0 1", "6 4 7 8 5 0 3 2 1"}, f33.Positions)
	assert.Equal(t, 181440, f33.Reached)

	for _, m := range []string{"solve", "bidir", "ida"} {
		var r pathOut
		args := []string{"slide", m, "--format", "json"}
		if m == "ida" {
			args = append(args, "--lower-bound")
		}
		runJSON(t, &r, append(args, "8 6 7 2 5 4 3 0 1")...)
		assert.Equal(t, 31, r.Length, m)
	}
	code, out, _ := runCmd(t, "", "slide", "--rows", "2", "--cols", "3", "ida", "4 5 0 1 2 3")
	require.Equal(t, 0, code)
	assert.Contains(t, out, "length 21")
}

func TestPuzzleBadInput(t *testing.T) {
	cases := [][]string{
		{"six", "solve", "1 2 3"},           // too short
		{"six", "solve", "1 2 3 4 5 6 0 0"}, // too long
		{"six", "bidir", "1 2 3 4 5 5 0"},   // repeated
		{"six", "ida", "1 2 3 4 5 x 0"},     // unknown symbol
		{"six", "ida", "1 2 3 4 5 9 0"},     // out of range
		{"six", "solve"},                    // nothing
		{"six", "solve", "--format", "xml", "1 5 2 6 3 4 0"},
		{"six", "solve", "--dedup", "tree", "1 5 2 6 3 4 0"},
		{"six", "farthest", "1 2 3 4 5 6 0"},
		{"oshidori", "--goal", "B B W W W W _ _"}, // other stone counts
		{"oshidori", "--goal", "B B B W W W X _"},
		{"oshidori", "B W B W B W _ _ _"},
		{"oshidori", "B W B _ W B W _"},
		{"oshidori", "--goal", "W B _ _", "B W _ _"}, // same counts, never reached
		{"oshidori", "--bidir", "--free-gap"},
		{"slide", "solve", "1 2 3"},
		{"slide", "--rows", "2", "--cols", "3", "solve", "2 1 3 4 5 0"}, // wrong parity half
		{"slide", "solve", "1 2 3 4 5 6 7 7 0"},
		{"slide", "--rows", "9", "--cols", "9", "farthest"},
		{"slide", "ida", "--nope", "1 2 3 4 5 6 7 0 8"},
	}
	for _, args := range cases {
		code, out, errs := runCmd(t, "", args...)
		assert.Equal(t, 2, code, "%v: %s", args, errs)
		assert.Empty(t, out, "%v", args)
		assert.True(t, strings.HasPrefix(errs, "gapset: "), "%v: %s", args, errs)
		assert.Equal(t, 1, strings.Count(errs, "\n"), "%v: one line: %s", args, errs)
	}
}

func TestPuzzleLimitsExitThree(t *testing.T) {
	code, _, errs := runCmd(t, "", "six", "ida", "--max-depth", "12", "4 6 5 1 3 2 0") // no solution that short
	assert.Equal(t, 3, code, errs)
	assert.Contains(t, errs, "depth limit reached")
	for _, args := range [][]string{
		{"slide", "--rows", "3", "--cols", "4", "farthest", "--max-states", "1000"},
		{"six", "ida", "--max-nodes", "100", "4 6 5 1 3 2 0"},
	} {
		code, out, errs := runCmd(t, "", args...)
		assert.Equal(t, 3, code, "%v: %s", args, errs)
		assert.Empty(t, out)
		assert.Contains(t, errs, "search limit reached")
	}
}
