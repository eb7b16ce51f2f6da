package bench

import (
	"context"
	"testing"
	"time"

	"github.com/gapset/gapset/ida"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Every round runs until it has taken its share of MinTime; timings come in
// instance order, heuristics in the order given.
func TestTime(t *testing.T) {
	insts := instances3x3(3)
	hs := []ida.Heuristic{ida.Manhattan{}, gap0(t)}
	var calls []int
	opt := TimeOptions{MinTime: 15 * time.Millisecond, Rounds: 3, Progress: func(done, total int) {
		assert.Equal(t, 6, total)
		calls = append(calls, done)
	}}
	ts, err := Time(context.Background(), insts, hs, opt)
	require.NoError(t, err)
	require.Len(t, ts, 6)
	assert.Equal(t, []int{2, 4, 6}, calls)
	for i, tm := range ts {
		assert.Equal(t, insts[i/2].ID, tm.ID)
		assert.Equal(t, hs[i%2].Name(), tm.Heuristic)
		require.Len(t, tm.Rounds, 3)
		for _, r := range tm.Rounds {
			assert.GreaterOrEqual(t, r.Seconds, 0.005, "a round takes its share")
			assert.Positive(t, r.Solves)
		}
		assert.Positive(t, tm.Median())
	}
	_, err = Time(context.Background(), insts, hs, TimeOptions{})
	assert.ErrorContains(t, err, "MinTime")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err = Time(ctx, insts, hs, opt)
	assert.Error(t, err)
}

// Hand-computed: medians per instance averaged; ratios per round, their
// median and range.
func TestSummarizeTimes(t *testing.T) {
	rounds := func(per ...float64) []Round {
		var rs []Round
		for i, p := range per {
			rs = append(rs, Round{Solves: i + 1, Seconds: p * float64(i+1)})
		}
		return rs
	}
	ts := []Timing{
		{ID: "a", Heuristic: "md", Rounds: rounds(1, 3)},
		{ID: "a", Heuristic: "h", Rounds: rounds(0.5, 1)},
		{ID: "b", Heuristic: "md", Rounds: rounds(2, 2)},
		{ID: "b", Heuristic: "h", Rounds: rounds(1, 2.5)},
	}
	rows := SummarizeTimes(ts, "md")
	require.Len(t, rows, 2)
	assert.Equal(t, "md", rows[0].Heuristic)
	assert.InDelta(t, 2, rows[0].Seconds, 1e-12)
	assert.InDelta(t, 1, rows[0].Ratio, 1e-12)
	assert.Equal(t, "h", rows[1].Heuristic)
	assert.InDelta(t, (0.75+1.75)/2, rows[1].Seconds, 1e-12)
	// round 0: 0.75 / 1.5; round 1: 1.75 / 2.5
	assert.InDelta(t, 0.6, rows[1].Ratio, 1e-12)
	assert.InDelta(t, 0.5, rows[1].RatioMin, 1e-12)
	assert.InDelta(t, 0.7, rows[1].RatioMax, 1e-12)
	none := SummarizeTimes(ts, "nope")
	assert.Zero(t, none[1].Ratio)
	assert.InDelta(t, 1.25, none[1].Seconds, 1e-12)
}

func TestFigure(t *testing.T) {
	for x, want := range map[float64]string{51.8: "51.8", 0.00512: "0.00512", 1234.6: "1235", 0.0000292: "0.0000292", 1: "1.00", 0: "0"} {
		assert.Equal(t, want, Figure(x), "%g", x)
	}
}
