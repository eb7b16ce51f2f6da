package solution

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/gapset/gapset/encode"
	"github.com/gapset/gapset/ida"
	"github.com/gapset/gapset/internal/safe"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestRow(t *testing.T) {
	b, err := encode.Parse("1 2 3 4 5 6 0 7 8", 3, 3)
	require.NoError(t, err)
	in := encode.Instance{ID: "102", Line: 2, Board: b}
	res, err := ida.Solve(b, ida.Manhattan{}, ida.Options{})
	require.NoError(t, err)
	res.Elapsed = 1234 * time.Millisecond
	s := New(in, res, false)
	assert.Equal(t, []int{7, 8}, s.Moves)
	assert.Equal(t, "102: length 2, "+itoa(s.Nodes)+" nodes, 1.234s, md\n  board: "+b.String()+"\n  moves: 7 8\n", s.Text(0, false))
	assert.Contains(t, s.Text(0, true), "length 2, 1 optimal solutions,")
	assert.Equal(t, []string{"102", b.String(), "2", itoa(s.Nodes), itoa(s.Generated), "1.234", "md", "7 8"}, s.CSV())
	assert.Len(t, CSVHeader, len(s.CSV()))

	line, err := json.Marshal(s)
	require.NoError(t, err)
	assert.NotContains(t, string(line), "unsolved")

	gave := New(in, res, true)
	assert.Zero(t, gave.Length)
	assert.Nil(t, gave.Moves)
	assert.Equal(t, "unsolved", gave.CSV()[2])
	assert.True(t, strings.HasPrefix(gave.Text(99, false), "102: unsolved: --max-nodes 99 reached, "), gave.Text(99, false))
	line, err = json.Marshal(gave)
	require.NoError(t, err)
	assert.Contains(t, string(line), `"unsolved":true`)
}

// The writer renders each format as Row does, sums the boards, and
// closes text with a line of totals.
func TestWriter(t *testing.T) {
	var sols []Row
	for i, text := range []string{"1 2 3 4 5 6 0 7 8", "1 2 3 4 5 6 7 0 8"} {
		b, err := encode.Parse(text, 3, 3)
		require.NoError(t, err)
		res, err := ida.Solve(b, ida.Manhattan{}, ida.Options{})
		require.NoError(t, err)
		s := New(encode.Instance{ID: itoa(int64(i + 1)), Board: b}, res, i == 1)
		s.Seconds = float64(i+1) / 4
		sols = append(sols, s)
	}
	for _, format := range []string{"text", "csv", "json"} {
		var out bytes.Buffer
		w := NewWriter(&out, format, 7, false)
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
			assert.Equal(t, []string{strings.Join(CSVHeader, ","), strings.Join(sols[0].CSV(), ","), strings.Join(sols[1].CSV(), ",")}, lines)
		case "json":
			assert.Len(t, lines, 2)
			assert.Contains(t, lines[1], `"unsolved":true`)
		}
	}
	var one bytes.Buffer
	w := NewWriter(&one, "text", 0, false)
	require.NoError(t, w.Write(sols[0]))
	require.NoError(t, w.Close())
	assert.Equal(t, sols[0].Text(0, false), one.String(), "no totals for one board")
}

func itoa(n int64) string {
	b, _ := json.Marshal(n)
	return string(b)
}

// A held writer writes nothing, the CSV header included, while a check
// runs; everything kept, in order, once it passes; and nothing ever when
// it fails (a CheckFailed from the Write that sees it, and from Release).
func TestHeldWriter(t *testing.T) {
	b, err := encode.Parse("1 2 3 4 5 6 0 7 8", 3, 3)
	require.NoError(t, err)
	res, err := ida.Solve(b, ida.Manhattan{}, ida.Options{})
	require.NoError(t, err)
	row := New(encode.Instance{ID: "1", Board: b}, res, false)
	want := strings.Join(CSVHeader, ",") + "\n" + strings.Join(row.CSV(), ",") + "\n"

	release := make(chan struct{})
	check := safe.Start(func() error { <-release; return nil })
	var out bytes.Buffer
	w := NewHeldWriter(&out, "csv", 0, false, []*safe.Pending{check})
	require.NoError(t, w.Write(row))
	assert.Empty(t, out.String(), "held while the check runs")
	close(release)
	require.NoError(t, check.Wait()) // passed: the next row releases what was kept
	require.NoError(t, w.Write(row))
	assert.Equal(t, want+strings.Join(row.CSV(), ",")+"\n", out.String())
	require.NoError(t, w.Close())

	bad := safe.Start(func() error { return errors.New("checksum mismatch") })
	out.Reset()
	w = NewHeldWriter(&out, "csv", 0, false, []*safe.Pending{bad})
	require.Error(t, bad.Wait()) // done before the first row
	err = w.Write(row)
	assert.ErrorAs(t, err, new(CheckFailed))
	assert.ErrorAs(t, w.Close(), new(CheckFailed))
	assert.ErrorIs(t, err, ErrCheckFailed, "a CheckFailed is ErrCheckFailed")
	assert.Empty(t, out.String())
}
