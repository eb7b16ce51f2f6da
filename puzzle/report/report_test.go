package report_test

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/gapset/gapset/puzzle/oshidori"
	"github.com/gapset/gapset/puzzle/report"
	"github.com/gapset/gapset/puzzle/six"
	"github.com/gapset/gapset/search"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func sixSolution(t *testing.T) search.Result[six.Board] {
	t.Helper()
	b, err := six.Parse("1 5 2 6 3 4 0")
	require.NoError(t, err)
	goal := six.Goal()
	r, err := search.BFS[six.Board](six.Puzzle{}, b, func(s six.Board) bool { return s == goal }, search.Options{MaxStates: 1 << 20})
	require.NoError(t, err)
	return r
}

func TestVerifyCatchesBrokenPaths(t *testing.T) {
	spec := six.Spec()
	r := sixSolution(t)
	require.NoError(t, spec.Verify(r))

	short := r
	short.Moves = r.Moves[:len(r.Moves)-1]
	assert.ErrorContains(t, spec.Verify(short), "path of 12 states for 10 moves")

	swapped := r
	swapped.Moves = append([]int(nil), r.Moves...)
	swapped.Moves[0], swapped.Moves[1] = swapped.Moves[1], swapped.Moves[0]
	assert.ErrorContains(t, spec.Verify(swapped), "does not replay")

	early := r
	early.Moves, early.Path = r.Moves[:3], r.Path[:4]
	assert.ErrorContains(t, spec.Verify(early), "not a goal")
	_, err := spec.Path(report.Path{}, early)
	assert.Error(t, err)
}

func TestPathText(t *testing.T) {
	rec, err := six.Spec().Path(report.Path{Method: "bfs", Dedup: "map"}, sixSolution(t))
	require.NoError(t, err)
	var buf bytes.Buffer
	require.NoError(t, rec.Write(&buf, "text"))
	lines := strings.Split(strings.TrimSuffix(buf.String(), "\n"), "\n")
	require.Len(t, lines, 3+12) // header, work, moves, one line per state
	assert.Equal(t, "six bfs: (1 5 2 6 3 4 0)", lines[0])
	assert.Regexp(t, `^length 11, \d+ states generated, 2819 stored, \d+ expanded, \d+\.\d{3}s, dedup map$`, lines[1])
	assert.Len(t, strings.Fields(strings.TrimPrefix(lines[2], "moves: ")), 11)
	assert.Equal(t, "  0  (1 5 2 6 3 4 0)", lines[3])
	assert.Equal(t, " 11  (1 2 3 4 5 6 0)", lines[14])
}

func TestPathJSONLeavesTextFieldsOut(t *testing.T) {
	start, err := oshidori.Parse("B W B W B W _ _")
	require.NoError(t, err)
	target, err := oshidori.Parse("B B B W W W _ _")
	require.NoError(t, err)
	isGoal, err := oshidori.Goal(start, target, false)
	require.NoError(t, err)
	r, err := search.BFS[oshidori.Row](oshidori.Puzzle{}, start, isGoal, search.Options{MaxStates: 1 << 20})
	require.NoError(t, err)
	rec, err := oshidori.Spec(isGoal).Path(report.Path{Method: "bfs"}, r)
	require.NoError(t, err)
	var buf bytes.Buffer
	require.NoError(t, rec.Write(&buf, "json"))
	var got map[string]any
	require.NoError(t, json.Unmarshal(buf.Bytes(), &got))
	assert.Equal(t, "oshidori", got["puzzle"])
	assert.EqualValues(t, len(r.Moves), got["length"])
	assert.NotContains(t, got, "grids")
	assert.NotContains(t, got, "moveNames")
	assert.True(t, strings.HasSuffix(buf.String(), "}\n"))
}

func TestFarthestText(t *testing.T) {
	l, err := search.Farthest[six.Board](six.Puzzle{}, six.Goal(), search.Options{NoUndo: true})
	require.NoError(t, err)
	var buf bytes.Buffer
	require.NoError(t, six.Spec().Farthest(six.Goal(), l, search.Options{NoUndo: true}).Write(&buf, "text"))
	out := buf.String()
	assert.True(t, strings.HasPrefix(out, "six farthest from (1 2 3 4 5 6 0): 15 moves, 24 positions\n"), out)
	assert.Contains(t, out, "reached 5040 states;")
	assert.Contains(t, out, "\n  (4 6 5 1 3 2 0)\n")
}
