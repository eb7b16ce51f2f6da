package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/gapset/gapset/solution"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// h_G:4 ... h_G:8 from sets enumerated in memory find md's lengths with
// fewer nodes than h_G:2.
func TestSolveWithGap8Cells(t *testing.T) {
	nodes := map[string]int64{}
	var lengths [][]int
	for _, h := range []string{"md", "gap2:9", "gap4:9", "gap6:9", "gap8", "gap8:7"} {
		cells := []string{"--max-gap", "8", "--cells", "9", "--cells", "7"}
		switch h {
		case "gap8":
			cells = cells[:4]
		case "md":
			cells = nil
		}
		code, out, errs := runCmd(t, boards3x3, append([]string{"solve", "-q", "--rows", "3", "--cols", "3", "-i", "-", "-f", "json",
			"-H", h}, cells...)...)
		require.Equal(t, 0, code, errs)
		var ls []int
		for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
			var rec solution.Row
			require.NoError(t, json.Unmarshal([]byte(line), &rec))
			ls = append(ls, rec.Length)
			nodes[h] += rec.Nodes
			if h == "gap8:7" {
				assert.Equal(t, "gap8(Gap0_7+Gap2_7+Gap4_7+Gap6_7+Gap8_7)", rec.Heuristic)
			}
		}
		lengths = append(lengths, ls)
	}
	for _, ls := range lengths[1:] {
		assert.Equal(t, lengths[0], ls)
	}
	assert.Less(t, nodes["gap8"], nodes["gap2:9"])
	code, _, errs := runCmd(t, boards3x3, "solve", "-q", "--rows", "3", "--cols", "3", "-i", "-", "-H", "gap8", "--cells", "9", "--max-gap", "4")
	assert.Equal(t, 2, code)
	assert.Contains(t, errs, "no Gap6 set")
}

// gapGr asks every level about the transposed board too: same lengths,
// no more nodes; refused on a board that is not square.
func TestSolveWithMirroredGapSets(t *testing.T) {
	var nodes [2]int64
	var lengths [2][]int
	for i, h := range []string{"gap8:6", "gap8r:6"} {
		code, out, errs := runCmd(t, boards3x3, "solve", "-q", "--rows", "3", "--cols", "3", "-i", "-", "-f", "json", "-H", h, "--cells", "6", "--max-gap", "8")
		require.Equal(t, 0, code, errs)
		for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
			var rec solution.Row
			require.NoError(t, json.Unmarshal([]byte(line), &rec))
			lengths[i] = append(lengths[i], rec.Length)
			nodes[i] += rec.Nodes
		}
	}
	assert.Equal(t, lengths[0], lengths[1])
	assert.LessOrEqual(t, nodes[1], nodes[0])
	code, _, errs := runCmd(t, "", "solve", "-q", "--rows", "3", "--cols", "4", "-H", "gap0r", "--cells", "6", "1 2 3 4 5 6 7 8 9 10 0 11")
	assert.Equal(t, 2, code)
	assert.Contains(t, errs, "square")
}
