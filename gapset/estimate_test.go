package gapset

import (
	"context"
	"github.com/gapset/gapset/encode"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The estimate of a measured board's run bounds what the run really
// writes; levels beyond the measurements grow by the measured decay.
func TestEstimateRun(t *testing.T) {
	cfg := Config{Rows: 3, Cols: 3, MaxGap: 4, Cells: []int{9, 6}, Dir: t.TempDir(), Memory: 1 << 24}
	res, err := Enumerate(context.Background(), cfg)
	require.NoError(t, err)
	est := EstimateRun(cfg)
	require.True(t, est.Known)
	assert.GreaterOrEqual(t, est.Members, float64(res.Members))
	for i, out := range res.Outputs {
		assert.GreaterOrEqual(t, est.Projected[i], float64(out.Count), "k=%d", out.Cells)
	}
	assert.GreaterOrEqual(t, est.Disk(), float64(res.PeakDisk))

	// 3x4: every level up to gap 8 is measured
	e34 := EstimateRun(Config{Rows: 3, Cols: 4, MaxGap: 8, Cells: []int{12}})
	assert.InDelta(t, 43580233, e34.Members, 1)
	// 4x4 gap <= 4 and gap <= 6 are measured (their projections on 8 and
	// 10 cells too); gap 8 extrapolated: G8 / G6 below G6 / G4
	g4 := EstimateRun(Config{Rows: 4, Cols: 4, MaxGap: 4, Cells: []int{8, 10}})
	assert.InDelta(t, 11412543925, g4.Members, 1)
	assert.InDelta(t, 122333832, g4.Projected[0], 1)
	assert.InDelta(t, 1428073614, g4.Projected[1], 1)
	// the run measured 10.3 GB of peak disk (docs/resuming.md): within a factor 2
	assert.InDelta(t, 10275397219, g4.Disk(), 10275397219)
	g6 := EstimateRun(Config{Rows: 4, Cols: 4, MaxGap: 6, Cells: []int{8, 10}})
	assert.InDelta(t, 67608948549, g6.Members, 1)
	assert.InDelta(t, 272692796, g6.Projected[0], 1)
	assert.InDelta(t, 4974483135, g6.Projected[1], 1)
	// the gap <= 6 run onto the last 10 cells and the 9 of
	// @0-3+5+12-15 (2026-11-28): 42,829,236,385 bytes of peak disk by its
	// own count, 12,340 s of CPU, and the 9-cell set 1,442,740,507 keys
	two := EstimateRun(Config{Rows: 4, Cols: 4, MaxGap: 6, Cells: []int{10}, Sets: []encode.CellSet{0xF02F}, Packed: true, Transpose: true})
	assert.GreaterOrEqual(t, two.Disk(), 42829236385.0)
	assert.Less(t, two.Disk(), 1.25*42829236385)
	assert.InEpsilon(t, 12340, two.CPU.Seconds(), 0.1)
	assert.InEpsilon(t, 1442740507, two.Projected[1], 0.3, "9 cells: between the 8- and 10-cell shares")
	e := EstimateRun(Config{Rows: 4, Cols: 4, MaxGap: 8, Cells: []int{8, 10, 12}})
	require.Len(t, e.Levels, 5)
	assert.InDelta(t, 1243092017, e.Levels[1], 1)
	assert.InDelta(t, 56196404624, e.Levels[3], 1)
	assert.Less(t, e.Levels[4]/e.Levels[3], e.Levels[3]/e.Levels[2])
	assert.Greater(t, e.Levels[4], e.Levels[3])
	assert.Less(t, e.Projected[0], g6.Projected[0]*e.Members/g6.Members, "the 8-cell share falls")
	assert.LessOrEqual(t, e.Projected[0], Patterns(16, 8))
	raw := EstimateRun(Config{Rows: 4, Cols: 4, MaxGap: 8, Cells: []int{8, 10, 12}, RawRuns: true})
	assert.Greater(t, raw.ScratchBytes, e.ScratchBytes)
	// packed outputs: 1 to 8 bytes per key (Gap4_8 packed measured 1.02)
	packed := EstimateRun(Config{Rows: 4, Cols: 4, MaxGap: 8, Cells: []int{8, 10, 12}, Packed: true})
	assert.Less(t, packed.OutputBytes, e.OutputBytes)
	assert.Greater(t, packed.OutputBytes, e.OutputBytes/8)
	assert.InDelta(t, 1.67, packedBytes(16, 12, 830504340), 0.1)
	// the CPU of the split gap-4 run (2,130 s with 8 and 10 cells),
	// as measured, plus what 12 cells added to the first enumerator's
	// (1,855 s); rank-coded runs 1.23x
	assert.InDelta(t, 2130, g4.CPU.Seconds(), 1)
	g412 := EstimateRun(Config{Rows: 4, Cols: 4, MaxGap: 4, Cells: []int{8, 10, 12}, Packed: true})
	assert.InDelta(t, 2130+1855, g412.CPU.Seconds(), 1)
	ranked := EstimateRun(Config{Rows: 4, Cols: 4, MaxGap: 4, Cells: []int{8, 10}, RankRuns: true})
	assert.InDelta(t, 2130*1.23, ranked.CPU.Seconds(), 1)
	assert.Less(t, ranked.ScratchBytes, g4.ScratchBytes)
	assert.InDelta(t, 3.13, packedBytes(16, 16, 1331820797), 0.1)
	// canonical layers: the measured CPU ratio, half the layers' scratch;
	// boards that are not square are not canonical
	canon := EstimateRun(Config{Rows: 4, Cols: 4, MaxGap: 4, Cells: []int{8, 10}, Transpose: true})
	assert.InDelta(t, 2130*0.83, canon.CPU.Seconds(), 1)
	assert.InDelta(t, g4.ScratchBytes-g4.ProjectionBytes, 2*(canon.ScratchBytes-canon.ProjectionBytes), 1)
	assert.Equal(t, g4.ProjectionBytes, canon.ProjectionBytes)
	assert.Equal(t, e34, EstimateRun(Config{Rows: 3, Cols: 4, MaxGap: 8, Cells: []int{12}, Transpose: true}))
	assert.Contains(t, e.String(), "peak disk")
	assert.False(t, EstimateRun(Config{Rows: 3, Cols: 5, MaxGap: 2, Cells: []int{15}}).Known)
	// a cell set: the outputs and scratch of as many last cells, and the
	// CPU of its gather and sort
	sets := EstimateRun(Config{Rows: 4, Cols: 4, MaxGap: 4, Cells: []int{8, 10}, Sets: []encode.CellSet{0x0F0F}, Transpose: true})
	only8 := EstimateRun(Config{Rows: 4, Cols: 4, MaxGap: 4, Cells: []int{8}, Transpose: true})
	assert.Equal(t, []int{8, 10, 8}, sets.Cells)
	assert.InDelta(t, canon.OutputBytes+only8.OutputBytes, sets.OutputBytes, 1)
	assert.InDelta(t, canon.ProjectionBytes+only8.ProjectionBytes, sets.ProjectionBytes, 1)
	assert.Greater(t, sets.CPU, canon.CPU)
	// the run measured: gap <= 4, three 8-cell sets alone, 2,603 s of CPU
	three := EstimateRun(Config{Rows: 4, Cols: 4, MaxGap: 4, Sets: []encode.CellSet{0x0F0F, 0xF0F0, 0xF00F}, Transpose: true})
	assert.InEpsilon(t, 2603, three.CPU.Seconds(), 0.05)
	assert.InDelta(t, 3*(sets.CPU-canon.CPU).Seconds(), (three.CPU - canon.CPU).Seconds(), 1, "each set costs the same")
	g0 := EstimateRun(Config{Rows: 4, Cols: 4, MaxGap: 0, Cells: []int{8}, Sets: []encode.CellSet{0x0F0F, 0x9999}, Transpose: true})
	g0plain := EstimateRun(Config{Rows: 4, Cols: 4, MaxGap: 0, Cells: []int{8}, Transpose: true})
	assert.Greater(t, g0.CPU, g0plain.CPU)
}

func TestSoftMemoryLimit(t *testing.T) {
	assert.Equal(t, int64(5<<30+1<<30), Config{Memory: 4 << 30}.SoftMemoryLimit())
}

// The estimate of a run longer than one process may live says how it
// survives a stop; a short one does not, and both give the memory.
func TestEstimateSaysWhenToResume(t *testing.T) {
	long := EstimateRun(Config{Rows: 4, Cols: 4, MaxGap: 6, Cells: []int{8, 10}, Packed: true, Memory: 8 << 30})
	require.True(t, long.Known)
	assert.Greater(t, long.CPU, longRun)
	assert.Contains(t, long.String(), "resumes it")
	assert.InDelta(t, 14.0e9, long.RSS, 1.5e9, "the gap <= 4 run's measured peak at --memory 8192")
	short := EstimateRun(Config{Rows: 3, Cols: 4, MaxGap: 4, Cells: []int{12}})
	assert.NotContains(t, short.String(), "resumes")
	assert.Contains(t, short.String(), "memory ")
}
