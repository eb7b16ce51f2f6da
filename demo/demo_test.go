package demo

import (
	"context"
	"fmt"
	"io"
	"regexp"
	"testing"

	"github.com/gapset/gapset/bench"
	"github.com/gapset/gapset/encode"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestInstances(t *testing.T) {
	korf := Instances(false)
	require.Len(t, korf, len(KorfIDs))
	for i, in := range korf {
		assert.Equal(t, KorfIDs[i], in.ID)
		assert.Equal(t, 4, in.Board.Rows)
	}
	small := Instances(true)
	require.Len(t, small, 20)
	assert.Equal(t, small, Instances(true), "the small boards come from a fixed seed")
	for _, in := range small {
		assert.Equal(t, 3, in.Board.Rows)
		assert.True(t, in.Board.Solvable(), in.ID)
	}
}

// Each step shows progress and ends; a line is read as the progress bar
// prints it ("done/total message"), so the only fraction on it is the
// count, and the step number is written "step N of 4".
func TestRunReportsEachStep(t *testing.T) {
	var updates, dones int
	steps := map[string]bool{}
	fraction := regexp.MustCompile(`\b\d+/\d+\b`)
	p := Progress{
		Update: func(done, total int64, force bool, format string, a ...any) {
			updates++
			line := fmt.Sprintf(format, a...)
			if total > 0 {
				line = fmt.Sprintf("%d/%d %s", done, total, line)
				assert.Len(t, fraction.FindAllString(line, -1), 1, "one count on %q", line)
				assert.NotRegexp(t, `^\d+/\d+ step`, line, "the count is not the step's")
			} else {
				assert.Empty(t, fraction.FindAllString(line, -1), "no count on %q", line)
			}
			steps[regexp.MustCompile(`step \d of 4`).FindString(line)] = true
		},
		Done: func() { dones++ },
	}
	require.NoError(t, Run(context.Background(), io.Discard, true, p))
	assert.Equal(t, 4, dones, "four steps, each ended")
	assert.Len(t, steps, 4, "every step shows progress")
	assert.NoError(t, Run(context.Background(), io.Discard, true, Progress{}), "nil fields show nothing")
}

func TestRunStopsWhenCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	assert.Error(t, Run(ctx, io.Discard, true, Progress{}))
}

func TestTruthIsChecked(t *testing.T) {
	small := Instances(true)
	want, err := truth(small, true)
	require.NoError(t, err)
	require.Len(t, want, len(small))
	for _, in := range small {
		assert.Positive(t, want[in.ID], "random boards are not the goal")
	}
	korf, err := truth(Instances(false), false)
	require.NoError(t, err)
	assert.Len(t, korf, len(KorfIDs))
	assert.Equal(t, 45, korf["12"], "Korf 12 is 45 moves")
	_, err = truth([]encode.Instance{{ID: "101"}}, false)
	assert.ErrorContains(t, err, "not one of Korf's 100")
	good := []bench.Record{{ID: "12", Heuristic: "md", Length: 45}}
	assert.NoError(t, checkLengths(good, korf))
	bad := []bench.Record{{ID: "12", Heuristic: "md", Length: 47}}
	assert.ErrorContains(t, checkLengths(bad, korf), "optimum is 45")
	unknown := []bench.Record{{ID: "13", Heuristic: "md", Length: 45}}
	assert.Error(t, checkLengths(unknown, korf))
}
