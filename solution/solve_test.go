package solution

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/gapset/gapset/encode"
	"github.com/gapset/gapset/ida"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// status records what Solve shows.
type status struct{ updates, clears, dones int }

func (s *status) Update(int64, int64, bool, string, ...any) { s.updates++ }
func (s *status) Clear()                                    { s.clears++ }
func (s *status) Done()                                     { s.dones++ }

// Solve writes a row a board in order; a board over the node limit is
// written unsolved and the next one searched; a cancelled search stops
// with the board named.
func TestSolve(t *testing.T) {
	var insts []encode.Instance
	for i, s := range []string{"1 2 3 4 5 6 7 0 8", "8 6 7 2 5 4 3 0 1", "1 2 3 4 5 6 0 7 8"} {
		b, err := encode.Parse(s, 3, 3)
		require.NoError(t, err)
		insts = append(insts, encode.Instance{ID: string(rune('a' + i)), Line: i + 1, Board: b})
	}
	var out bytes.Buffer
	w := NewWriter(&out, "json", 1000, false)
	st := &status{}
	require.NoError(t, Solve(insts, ida.Manhattan{}, ida.Options{MaxNodes: 1000}, w, st))
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	require.Len(t, lines, 3)
	var rows []Row
	for _, l := range lines {
		var r Row
		require.NoError(t, json.Unmarshal([]byte(l), &r))
		rows = append(rows, r)
	}
	assert.Equal(t, []string{"a", "b", "c"}, []string{rows[0].ID, rows[1].ID, rows[2].ID})
	assert.Equal(t, 1, rows[0].Length)
	assert.True(t, rows[1].Unsolved, "the 8-puzzle's farthest board takes more than 1000 nodes")
	assert.Equal(t, "md", rows[1].Heuristic)
	assert.Equal(t, 2, rows[2].Length)
	assert.Equal(t, 1, w.Unsolved)
	assert.GreaterOrEqual(t, st.updates, 3)
	assert.Equal(t, 3, st.clears)
	assert.Equal(t, 1, st.dones)

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	err := Solve(insts[1:], ida.Manhattan{}, ida.Options{Context: ctx}, NewWriter(&out, "json", 0, false), &status{})
	assert.ErrorIs(t, err, context.Canceled)
	assert.ErrorContains(t, err, "board b (line 2)")
}
