package docs

import (
	"encoding/json"
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// runSummary is the part of an enumeration's JSON summary (`gapset
// enumerate --format json`) the docs tests read.
type runSummary struct {
	Rows, Cols, Gap int
	Base            string `json:"base"`
	Members         int64  `json:"members"`
	Layers          []struct {
		Gap, Manhattan int
		Count          int64
	} `json:"layers"`
	Outputs []struct {
		Name  string `json:"name"`
		Count int64  `json:"count"`
	} `json:"outputs"`
}

func readRun(t *testing.T, path string) runSummary {
	t.Helper()
	f, err := os.Open(path)
	require.NoError(t, err)
	defer f.Close()
	var r runSummary
	require.NoError(t, json.NewDecoder(f).Decode(&r), path)
	return r
}

// checkResidualRun checks a residual run's summary against its own claims
// and Manhattan's gap layers (the gap <= 4 run's): its base and bound, no
// layer above the bound, the layers adding up to the members, and at least
// as many members as Gap<=gap, which every base between Manhattan distance
// and the optimum holds (optimum - h <= optimum - Manhattan).
func checkResidualRun(t *testing.T, r runSummary, base string, gap int) {
	t.Helper()
	require.Equal(t, base, r.Base)
	require.Equal(t, gap, r.Gap)
	var total, gapTotal int64
	for _, l := range r.Layers {
		assert.LessOrEqual(t, l.Gap, gap)
		total += l.Count
	}
	for k, n := range readLayers(t, layersPath(4)) {
		if k[0] <= gap {
			gapTotal += n
		}
	}
	assert.Equal(t, r.Members, total, "R<=%d: the layers add up to the members", gap)
	assert.GreaterOrEqual(t, r.Members, gapTotal, "R<=%d holds Gap<=%d", gap, gap)
}

// The 4x4 residual sets of walking distance (docs/residual/4x4-wd): each
// run checks by itself (checkResidualRun; Manhattan <= wd <= the optimum),
// R<=2's layers of r = 0 are R<=0's run's, and each projection of R<=0 is
// within R<=2's.
func TestWalkingDistanceResidualRuns(t *testing.T) {
	r0 := readRun(t, "residual/4x4-wd/wd0.json")
	r2 := readRun(t, "residual/4x4-wd/wd2.json")
	checkResidualRun(t, r0, "wd", 0)
	checkResidualRun(t, r2, "wd", 2)
	zero := map[int]int64{}
	for _, l := range r0.Layers {
		zero[l.Manhattan] = l.Count
	}
	seen := 0
	for _, l := range r2.Layers {
		if l.Gap == 0 {
			assert.Equal(t, zero[l.Manhattan], l.Count, "layer r = 0, wd = %d", l.Manhattan)
			seen++
		}
	}
	assert.Equal(t, len(zero), seen, "R<=2 has every layer of R<=0")
	counts := map[string]int64{}
	for _, o := range r2.Outputs {
		counts[o.Name] = o.Count
	}
	require.Len(t, r0.Outputs, 2)
	for _, o := range r0.Outputs {
		name := "Res2" + o.Name[len("Res0"):]
		require.Contains(t, counts, name)
		assert.LessOrEqual(t, o.Count, counts[name], "%s within %s", o.Name, name)
	}
}

// The R<=0 of the blank-aware 6-6-3 databases with the transpose's max
// (docs/residual/4x4-663b) checks by itself (checkResidualRun: each group's
// entry counts its tiles' moves, at least their Manhattan distances, so
// Manhattan <= h <= optimum), and no projection holds more patterns than
// the set has members. (Walking distance's R<=0 is not compared: neither
// base bounds the other.)
func TestBlankAware663ResidualRun(t *testing.T) {
	r := readRun(t, "residual/4x4-663b/b663r0.json")
	checkResidualRun(t, r, "pdbbr:6-6-3", 0)
	require.Len(t, r.Outputs, 2)
	for _, o := range r.Outputs {
		assert.LessOrEqual(t, o.Count, r.Members, o.Name)
	}
}
