package bench

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/gapset/gapset/encode"
	"github.com/gapset/gapset/ida"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestSolution(t *testing.T) {
	b, err := encode.Parse("1 2 3 4 5 6 0 7 8", 3, 3)
	require.NoError(t, err)
	in := encode.Instance{ID: "102", Line: 2, Board: b}
	res, err := ida.Solve(b, ida.Manhattan{}, ida.Options{})
	require.NoError(t, err)
	res.Elapsed = 1234 * time.Millisecond
	s := NewSolution(in, res, false)
	assert.Equal(t, []int{7, 8}, s.Moves)
	assert.Equal(t, "102: length 2, "+itoa(s.Nodes)+" nodes, 1.234s, md\n  board: "+b.String()+"\n  moves: 7 8\n", s.Text(0, false))
	assert.Contains(t, s.Text(0, true), "length 2, 1 optimal solutions,")
	assert.Equal(t, []string{"102", b.String(), "2", itoa(s.Nodes), itoa(s.Generated), "1.234", "md", "7 8"}, s.CSV())
	assert.Len(t, SolutionCSVHeader, len(s.CSV()))

	line, err := json.Marshal(s)
	require.NoError(t, err)
	assert.NotContains(t, string(line), "unsolved")

	gave := NewSolution(in, res, true)
	assert.Zero(t, gave.Length)
	assert.Nil(t, gave.Moves)
	assert.Equal(t, "unsolved", gave.CSV()[2])
	assert.True(t, strings.HasPrefix(gave.Text(99, false), "102: unsolved: --max-nodes 99 reached, "), gave.Text(99, false))
	line, err = json.Marshal(gave)
	require.NoError(t, err)
	assert.Contains(t, string(line), `"unsolved":true`)
}

func itoa(n int64) string {
	b, _ := json.Marshal(n)
	return string(b)
}
