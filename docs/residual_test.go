package docs

import (
	"encoding/json"
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// residualRun is the part of an enumeration's JSON summary these tests read.
type residualRun struct {
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

func readRun(t *testing.T, path string) residualRun {
	t.Helper()
	f, err := os.Open(path)
	require.NoError(t, err)
	defer f.Close()
	var r residualRun
	require.NoError(t, json.NewDecoder(f).Decode(&r), path)
	return r
}

// The 4x4 residual sets of walking distance (docs/residual/4x4-wd): each
// summary's layers add up to its members, R<=2's layers of r = 0 are R<=0's
// run's, each projection of R<=0 is within R<=2's, and each set holds at
// least the Manhattan gap set of the same bound (Manhattan <= wd <= the
// optimum, so optimum - wd <= optimum - Manhattan), whose layers the gap
// <= 4 run committed.
func TestWalkingDistanceResidualRuns(t *testing.T) {
	r0 := readRun(t, "residual/4x4-wd/wd0.json")
	r2 := readRun(t, "residual/4x4-wd/wd2.json")
	gaps := readLayers(t, layersPath(4))
	for _, c := range []struct {
		run residualRun
		gap int
	}{{r0, 0}, {r2, 2}} {
		r := c.run
		require.Equal(t, "wd", r.Base)
		require.Equal(t, c.gap, r.Gap)
		var total, gapTotal int64
		for _, l := range r.Layers {
			assert.LessOrEqual(t, l.Gap, c.gap)
			total += l.Count
		}
		for k, n := range gaps {
			if k[0] <= c.gap {
				gapTotal += n
			}
		}
		assert.Equal(t, r.Members, total, "R<=%d: the layers add up to the members", c.gap)
		assert.GreaterOrEqual(t, r.Members, gapTotal, "R<=%d holds Gap<=%d", c.gap, c.gap)
	}
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
// (docs/residual/4x4-663b): its layers add up to its members, and it holds
// Gap0, since each group's entry counts its tiles' moves, at least their
// Manhattan distances, so Manhattan <= h <= optimum. (Walking distance's
// R<=0 is not compared: neither base bounds the other.)
func TestBlankAware663ResidualRun(t *testing.T) {
	r := readRun(t, "residual/4x4-663b/b663r0.json")
	require.Equal(t, "pdbbr:6-6-3", r.Base)
	require.Equal(t, 0, r.Gap)
	var total, gap0 int64
	for _, l := range r.Layers {
		require.Equal(t, 0, l.Gap)
		total += l.Count
	}
	for k, n := range readLayers(t, layersPath(4)) {
		if k[0] == 0 {
			gap0 += n
		}
	}
	assert.Equal(t, r.Members, total, "the layers add up to the members")
	assert.GreaterOrEqual(t, r.Members, gap0, "R<=0 holds Gap0")
	require.Len(t, r.Outputs, 2)
	for _, o := range r.Outputs {
		assert.LessOrEqual(t, o.Count, r.Members, o.Name)
	}
}
