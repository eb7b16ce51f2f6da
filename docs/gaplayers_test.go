package docs

import (
	"encoding/csv"
	"fmt"
	"os"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// readLayers reads a layers CSV (gap, manhattan, count).
func readLayers(t *testing.T, path string) map[[2]int]int64 {
	t.Helper()
	f, err := os.Open(path)
	require.NoError(t, err)
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	require.NoError(t, err)
	require.Equal(t, []string{"gap", "manhattan", "count"}, rows[0], path)
	out := map[[2]int]int64{}
	for _, r := range rows[1:] {
		g, err1 := strconv.Atoi(r[0])
		m, err2 := strconv.Atoi(r[1])
		n, err3 := strconv.ParseInt(r[2], 10, 64)
		require.NoError(t, err1)
		require.NoError(t, err2)
		require.NoError(t, err3)
		out[[2]int{g, m}] = n
	}
	return out
}

// enumerations are the committed 4x4 runs, each a summary
// (gapN-enumeration.json, `gapset enumerate --format json`) and its layers
// as CSV (gapN-layers.csv, docs/gap-bound/layers.go); gap <= 8 joins when
// its run finishes (issue 53).
var enumerations = []int{4, 6, 8}

func layersPath(gap int) string { return fmt.Sprintf("gap-bound/gap%d-layers.csv", gap) }

// committed reports whether the run of gap <= gap has its files here.
func committed(t *testing.T, gap int) bool {
	t.Helper()
	_, err1 := os.Stat(layersPath(gap))
	_, err2 := os.Stat(fmt.Sprintf("gap-bound/gap%d-enumeration.json", gap))
	require.Equal(t, os.IsNotExist(err1), os.IsNotExist(err2), "gap <= %d: commit the layers CSV and the summary together", gap)
	return err1 == nil
}

// The layers CSV is the run's own: its rows are the summary's layers and
// they add up to the members the run counted.
func TestLayersAreTheRunsOwn(t *testing.T) {
	for _, g := range enumerations {
		if !committed(t, g) {
			continue
		}
		sum := readRun(t, fmt.Sprintf("gap-bound/gap%d-enumeration.json", g))
		require.Equal(t, g, sum.Gap)
		csvLayers := readLayers(t, layersPath(g))
		require.Len(t, csvLayers, len(sum.Layers), "gap <= %d", g)
		var total int64
		for _, l := range sum.Layers {
			assert.Equal(t, l.Count, csvLayers[[2]int{l.Gap, l.Manhattan}], "gap <= %d: layer gap %d, Manhattan %d", g, l.Gap, l.Manhattan)
			assert.LessOrEqual(t, l.Gap, g)
			total += l.Count
		}
		assert.Equal(t, sum.Members, total, "gap <= %d: the layers add up to the members", g)
	}
}

// The layers of a larger enumeration contain the smaller one's layer by
// layer: the gap <= 6 run's layers of gap 0, 2 and 4 are those of the gap
// <= 4 run, and the gap <= 8 run's of gap <= 6 those of the gap <= 6 run.
func TestLargerEnumerationsExtendSmaller(t *testing.T) {
	for i := 1; i < len(enumerations); i++ {
		small, large := enumerations[i-1], enumerations[i]
		if !committed(t, small) || !committed(t, large) {
			continue
		}
		a, b := readLayers(t, layersPath(small)), readLayers(t, layersPath(large))
		for k, n := range a {
			assert.Equal(t, n, b[k], "gap <= %d against gap <= %d: layer gap %d, Manhattan %d", large, small, k[0], k[1])
		}
		for k := range b {
			if k[0] <= small {
				_, ok := a[k]
				assert.True(t, ok, "layer gap %d, Manhattan %d of gap <= %d is not in gap <= %d's", k[0], k[1], large, small)
			}
		}
	}
}
