package bench

import (
	"os"
	"path/filepath"
	"testing"
	"time"

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
	r.Included, r.SetNotes, r.DBNotes = nil, nil, []string{"| GapDB8_8 | a.gapdb | 9 | 6 | 84% |"}
	assert.Equal(t, []string{"", "Gap databases (mapped):", "", "| GapDB8_8 | a.gapdb | 9 | 6 | 84% |", ""}, r.Notes()[1:])
	r.DBNotes = nil
	r.Ready, r.Done = 1500*time.Millisecond, 62*time.Second
	assert.Equal(t, []string{"", "Wall time from the start: heuristics ready (files loaded and checked) at 1.500 s, the last search done at 62.000 s."}, r.Notes()[1:])
	r.Solved = false
	assert.Equal(t, []string{"3 instances from i.txt; nothing solved in this run."}, r.Notes(), "a run that only combines records has no times of its own")
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
