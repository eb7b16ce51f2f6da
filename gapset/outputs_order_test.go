package gapset

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The summary lists the key-set files by count, smallest first, and equal
// counts by cells, fewest first, whatever the order of --cells: on the 2x3
// board the projection onto 5 cells holds as many patterns as the whole
// board has members (the sixth cell follows from the other five), and a
// pipeline that lists them must list them the same way (cluster/).
func TestOutputsListedByCountThenCells(t *testing.T) {
	for _, cells := range [][]int{{6, 5, 3}, {3, 5, 6}, {5, 3, 6}} {
		res, err := Enumerate(context.Background(), Config{Rows: 2, Cols: 3, MaxGap: 2, Cells: cells, Dir: t.TempDir()})
		require.NoError(t, err, "cells %v", cells)
		require.Len(t, res.Outputs, 3)
		assert.Equal(t, res.Outputs[1].Count, res.Outputs[2].Count, "the 5- and 6-cell files hold as many keys")
		var got []int
		for _, o := range res.Outputs {
			got = append(got, o.Cells)
		}
		assert.Equal(t, []int{3, 5, 6}, got, "cells %v", cells)
	}
}
