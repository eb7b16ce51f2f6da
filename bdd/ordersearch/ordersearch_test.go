package ordersearch

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gapset/gapset/bdd"
	"github.com/gapset/gapset/encode"
	"github.com/gapset/gapset/keyset"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// gap0Keys is the 3x3 Gap0 set projected onto the last 6 cells.
func gap0Keys(t *testing.T) (keyset.Header, []uint64) {
	t.Helper()
	var keys []uint64
	for _, k := range encode.GapKeys(3, 3, encode.Distances(3, 3), 0, 0) {
		keys = append(keys, encode.Project(k, 6))
	}
	slices.Sort(keys)
	return keyset.Header{Rows: 3, Cols: 3, Cells: 6, Gap: 0}, slices.Compact(keys)
}

// From keys in a bad order, the search finds a smaller BDD of the same
// set, and every output holds it.
func TestSearchFromKeys(t *testing.T) {
	h, keys := gap0Keys(t)
	want := slices.Clone(keys)
	o, err := bdd.NamedOrder("lsb", 3, 3, 6)
	require.NoError(t, err)
	start, err := FromKeys(h, keys, o, bdd.Cells, nil)
	require.NoError(t, err)
	assert.Equal(t, "Gap0_6", start.Name)
	startNodes := start.Diagram.NodeCount()
	var statuses []string
	res, err := Run(start, Options{Method: "block-sift", Budget: time.Minute, Progress: func(s string) { statuses = append(statuses, s) }})
	require.NoError(t, err)
	assert.NotEmpty(t, statuses)
	assert.True(t, strings.HasPrefix(statuses[0], "Gap0_6 "), statuses[0])
	assert.Equal(t, startNodes, res.Start)
	assert.Less(t, res.Diagram.NodeCount(), startNodes, "lsb is a bad order for this set")
	assert.Equal(t, "block-sift:lsb", res.Diagram.Order.Name)
	assert.Equal(t, startNodes, sum(res.StartSizes))
	assert.Equal(t, res.Diagram.NodeCount(), sum(res.LevelSizes))
	for _, k := range want {
		require.True(t, res.Diagram.Contains(k))
	}

	dir := t.TempDir()
	out := func(name string) string { return filepath.Join(dir, name) }
	require.NoError(t, res.WriteFiles(context.Background(), out("o.order"), "", out("levels.png"), "", nil))
	assert.NoFileExists(t, out("levels.csv"))
	assert.Zero(t, res.ZDDNodes, "not saved")
	var saving []string
	require.NoError(t, res.WriteFiles(context.Background(), "", out("levels.csv"), "", out("g.bdd"), func(s string) { saving = append(saving, s) }))
	assert.Equal(t, []string{"Gap0_6: counting the ZDD", "Gap0_6: saving"}, saving)
	back, err := bdd.ParseOrderArg("@"+out("o.order"), 3, 3, 6)
	require.NoError(t, err)
	assert.Equal(t, res.Diagram.Order, back)
	csv, err := os.ReadFile(out("levels.csv"))
	require.NoError(t, err)
	assert.True(t, strings.HasPrefix(string(csv), "level,lsb,block-sift:lsb\n"), string(csv))
	png, err := os.ReadFile(out("levels.png"))
	require.NoError(t, err)
	assert.True(t, strings.HasPrefix(string(png), "\x89PNG"))

	// the saved BDD starts a new search in the found order
	again, err := Load(out("g.bdd"))
	require.NoError(t, err)
	assert.Equal(t, res.Diagram.NodeCount(), again.Diagram.NodeCount())
	assert.Equal(t, "block-sift:lsb", again.Diagram.Order.Name)
	assert.Zero(t, again.Meta.ZDDNodes, "the next search counts its own")
	in, err := bdd.ReadInfo(out("g.bdd"))
	require.NoError(t, err)
	assert.Equal(t, uint64(res.ZDDNodes), in.ZDDNodes)
	assert.NotZero(t, in.ZDDNodes)

	line := res.Summary("o.order")
	assert.Contains(t, line, "Gap0_6 encoding=cells method=block-sift start=lsb ")
	assert.Contains(t, line, " -> o.order\n")
	assert.Contains(t, line, "name block-sift:lsb")
}

func TestLoadRefusesZDD(t *testing.T) {
	h, keys := gap0Keys(t)
	o, err := bdd.NamedOrder("natural", 3, 3, 6)
	require.NoError(t, err)
	z, err := bdd.Build(keys, o, true)
	require.NoError(t, err)
	path := filepath.Join(t.TempDir(), "z.bdd")
	_, err = bdd.Save(path, z, bdd.Meta{Rows: h.Rows, Cols: h.Cols, Cells: h.Cells})
	require.NoError(t, err)
	_, err = Load(path)
	assert.ErrorIs(t, err, ErrZDD)
	assert.EqualError(t, err, path+" holds a ZDD: order search works on BDDs")
	_, err = Load(path + ".missing")
	assert.ErrorIs(t, err, os.ErrNotExist)
}

func TestOrderName(t *testing.T) {
	assert.Equal(t, "sift:reverse", orderName("sift", "reverse"))
	assert.Len(t, orderName("block-window", "block-sift:block-window:reverse"), 32)
}

func sum(s []int) int {
	n := 0
	for _, v := range s {
		n += v
	}
	return n
}

// Open starts from a .bdd file or from a key file's keys in the start order
// and encoding asked; what the files or options rule out is ErrInput, its
// text unchanged.
func TestOpen(t *testing.T) {
	dir := t.TempDir()
	h, keys := gap0Keys(t)
	kpath := filepath.Join(dir, "g.keys")
	require.NoError(t, keyset.WriteFile(kpath, h, keys))
	var stages []string
	progress := func(set, stage string, _, _ uint64) { stages = append(stages, set+" "+stage) }
	s, err := Open("", kpath, "reverse", "cells", func(string) { t.Fatal("no file to load") }, progress)
	require.NoError(t, err)
	assert.Equal(t, "Gap0_6", s.Name)
	assert.Equal(t, "reverse", s.Diagram.Order.Name)
	assert.NotEmpty(t, stages)
	for _, st := range stages {
		assert.True(t, strings.HasPrefix(st, "Gap0_6 "), st)
	}

	path := filepath.Join(dir, "g.bdd")
	_, err = bdd.Save(path, s.Diagram, s.Meta)
	require.NoError(t, err)
	var status []string
	s, err = Open(path, "", "", "", func(m string) { status = append(status, m) }, progress)
	require.NoError(t, err)
	assert.Equal(t, []string{path + ": loading"}, status)
	assert.Equal(t, "reverse", s.Diagram.Order.Name)

	for _, c := range []struct{ bddPath, keys, order, enc, msg string }{
		{filepath.Join(dir, "none.bdd"), "", "", "", "none.bdd"},
		{"", filepath.Join(dir, "none.keys"), "reverse", "cells", "none.keys"},
		{"", kpath, "sideways", "cells", "--start: "},
		{"", kpath, "reverse", "tiles", "--encoding tiles needs whole boards"},
	} {
		_, err := Open(c.bddPath, c.keys, c.order, c.enc, func(string) {}, progress)
		assert.ErrorIs(t, err, ErrInput, "%+v", c)
		assert.ErrorContains(t, err, c.msg)
	}
}
