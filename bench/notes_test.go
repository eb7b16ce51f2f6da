package bench

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gapset/gapset/encode"
	"github.com/gapset/gapset/ida"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestRunInfoNotes(t *testing.T) {
	r := RunInfo{Instances: 3, Input: "i.txt", Heuristics: "md,gap0", Solved: true, Jobs: 2, Cores: 4, Repeat: 1}
	assert.Equal(t, []string{"3 instances from i.txt, heuristics md,gap0, 2 parallel searches on 4 cores."}, r.Notes())
	r.Repeat, r.Included, r.SetNotes = 3, []string{"a.jsonl", "b.jsonl"}, []string{"- Gap0_8: 1 key"}
	assert.Equal(t, []string{
		"3 instances from i.txt, heuristics md,gap0, 2 parallel searches on 4 cores. Times are the fastest of 3 solves.",
		"", "Records included from earlier runs: a.jsonl, b.jsonl.",
		"", "Gap sets (exact, in memory):", "", "- Gap0_8: 1 key", "",
	}, r.Notes())
	r.Solved = false
	assert.Equal(t, "3 instances from i.txt; nothing solved in this run.", r.Notes()[0])
}

func TestReadRecords(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a.jsonl"), filepath.Join(dir, "b.jsonl")
	require.NoError(t, os.WriteFile(a, JSONL([]Record{{ID: "1", Heuristic: "md"}}), 0o644))
	require.NoError(t, os.WriteFile(b, JSONL([]Record{{ID: "2", Heuristic: "md"}, {ID: "3", Heuristic: "md"}}), 0o644))
	recs, err := ReadRecords([]string{a, b})
	require.NoError(t, err)
	require.Len(t, recs, 3)
	assert.Equal(t, []string{"1", "2", "3"}, []string{recs[0].ID, recs[1].ID, recs[2].ID})
	_, err = ReadRecords([]string{a, filepath.Join(dir, "missing")})
	assert.ErrorIs(t, err, os.ErrNotExist)
	assert.Equal(t, []string{"d/results.csv", "d/results.jsonl", "d/nodes.png", "d/summary.md"}, Paths("d"))
	none, err := ReadRecords(nil)
	assert.NoError(t, err)
	assert.Empty(t, none)
}

// The writer renders each format as Solution does, sums the boards, and
// closes text with a line of totals.
func TestSolutionWriter(t *testing.T) {
	var sols []Solution
	for i, text := range []string{"1 2 3 4 5 6 0 7 8", "1 2 3 4 5 6 7 0 8"} {
		b, err := encode.Parse(text, 3, 3)
		require.NoError(t, err)
		res, err := ida.Solve(b, ida.Manhattan{}, ida.Options{})
		require.NoError(t, err)
		s := NewSolution(encode.Instance{ID: itoa(int64(i + 1)), Board: b}, res, i == 1)
		s.Seconds = float64(i+1) / 4
		sols = append(sols, s)
	}
	for _, format := range []string{"text", "csv", "json"} {
		var out bytes.Buffer
		w := NewSolutionWriter(&out, format, 7, false)
		for _, s := range sols {
			require.NoError(t, w.Write(s))
		}
		require.NoError(t, w.Close())
		assert.Equal(t, 2, w.Boards, format)
		assert.Equal(t, 1, w.Unsolved, format)
		assert.Equal(t, sols[0].Nodes+sols[1].Nodes, w.Nodes, format)
		lines := strings.Split(strings.TrimSpace(out.String()), "\n")
		switch format {
		case "text":
			assert.Equal(t, sols[0].Text(7, false)+sols[1].Text(7, false)+"solved 1 boards: "+itoa(w.Nodes)+" nodes, 0.750s\n", out.String())
		case "csv":
			assert.Equal(t, []string{strings.Join(SolutionCSVHeader, ","), strings.Join(sols[0].CSV(), ","), strings.Join(sols[1].CSV(), ",")}, lines)
		case "json":
			assert.Len(t, lines, 2)
			assert.Contains(t, lines[1], `"unsolved":true`)
		}
	}
	var one bytes.Buffer
	w := NewSolutionWriter(&one, "text", 0, false)
	require.NoError(t, w.Write(sols[0]))
	require.NoError(t, w.Close())
	assert.Equal(t, sols[0].Text(0, false), one.String(), "no totals for one board")
}
