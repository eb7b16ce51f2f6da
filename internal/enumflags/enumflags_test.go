package enumflags

import (
	"testing"

	"github.com/gapset/gapset/gapset"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/urfave/cli/v2"
)

// parse runs the shared flags over args and returns what Layout reads.
func parse(t *testing.T, args ...string) (gapset.Layout, error) {
	t.Helper()
	var l gapset.Layout
	var lerr error
	app := &cli.App{Flags: Flags("the state"), Action: func(c *cli.Context) error {
		l, lerr = Layout(c)
		return nil
	}}
	require.NoError(t, app.Run(append([]string{"enumerate"}, args...)))
	return l, lerr
}

// The shared flags read into a layout: the whole board by default, the
// projections asked for, the flags' values; a transpose asked for on a
// board that is not square is refused.
func TestLayout(t *testing.T) {
	l, err := parse(t, "--rows", "3", "--cols", "4", "--gap", "4")
	require.NoError(t, err)
	assert.Equal(t, gapset.Layout{Rows: 3, Cols: 4, MaxGap: 4, Cells: []int{12}, Transpose: true}, l)
	l, err = parse(t, "--rows", "3", "--cols", "3", "--gap", "2", "--exact", "--cells", "9,5", "--packed", "--rank-runs", "--transpose=false")
	require.NoError(t, err)
	assert.Equal(t, gapset.Layout{Rows: 3, Cols: 3, MaxGap: 2, Exact: true, Cells: []int{9, 5}, Packed: true, RankRuns: true}, l)
	_, err = parse(t, "--rows", "3", "--cols", "4", "--transpose")
	assert.ErrorContains(t, err, "--transpose needs a square board, not 3x4")
	_, err = parse(t, "--rows", "3", "--cols", "3", "--cells", "x")
	assert.Error(t, err)
	var names []string
	for _, f := range Flags("the state") {
		names = append(names, f.Names()[0])
	}
	assert.Equal(t, []string{"rows", "cols", "gap", "exact", "cells", "packed", "transpose", "rank-runs", "out-dir", "format", "quiet", "fresh"}, names)
}
