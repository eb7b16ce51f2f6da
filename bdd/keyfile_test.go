package bdd

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/gapset/gapset/keyset"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestBuildFromKeyFile(t *testing.T) {
	g0, _ := sets3x3(t)
	keys := project(g0, 5)
	path := filepath.Join(t.TempDir(), "Gap0_5.keys")
	require.NoError(t, keyset.WriteFile(path, keyset.Header{Rows: 3, Cols: 3, Cells: 5, Gap: 0}, keys))
	natural, err := NamedOrder("natural", 3, 3, 5)
	require.NoError(t, err)

	want, err := BuildInPlace(slices.Clone(keys), natural, false, nil)
	require.NoError(t, err)
	got, err := BuildFromFile(path, natural, false, nil)
	require.NoError(t, err)
	assert.True(t, bytes.Equal(encoded(t, want), encoded(t, got)), "streamed and in-memory builds differ")
	require.NoError(t, got.CheckCount(uint64(len(keys))))
	assert.ErrorContains(t, got.CheckCount(uint64(len(keys))+1), "members from a file of")
	require.NoError(t, CheckRudd(path, natural, got))
	other, err := BuildInPlace(project(g0, 4), mustOrder(t, "natural", 4), false, nil)
	require.NoError(t, err)
	assert.ErrorContains(t, CheckRudd(path, natural, other), "rudd built")

	// a pass reads the whole file each time; converted, it feeds the encoding
	var n int
	require.NoError(t, FilePass(path)(func(uint64) { n++ }))
	assert.Equal(t, len(keys), n)
	conv := slices.Clone(keys)
	Ranks.ConvertAll(conv, 9, 5)
	var passed []uint64
	require.NoError(t, Ranks.ConvertPass(FilePass(path), 9, 5)(func(k uint64) { passed = append(passed, k) }))
	assert.Equal(t, conv, passed)
	assert.NotEqual(t, keys, conv)
	same := slices.Clone(keys)
	Cells.ConvertAll(same, 9, 5)
	assert.Equal(t, keys, same)

	// damage is found by the end-of-file check
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	b[len(b)-1] ^= 1
	require.NoError(t, os.WriteFile(path, b, 0o644))
	_, err = BuildFromFile(path, natural, false, nil)
	assert.ErrorIs(t, err, keyset.ErrFormat)
	assert.ErrorIs(t, FilePass(path)(func(uint64) {}), keyset.ErrFormat)
}

func mustOrder(t *testing.T, name string, k int) Order {
	t.Helper()
	o, err := NamedOrder(name, 3, 3, k)
	require.NoError(t, err)
	return o
}

func TestBuildKeyFileEveryPathAgrees(t *testing.T) {
	_, g2 := sets3x3(t)
	keys := project(g2, 5)
	path := filepath.Join(t.TempDir(), "Gap2_5.keys")
	require.NoError(t, keyset.WriteFile(path, keyset.Header{Rows: 3, Cols: 3, Cells: 5, Gap: 2}, keys))
	for _, name := range []string{"natural", "reverse"} {
		o := mustOrder(t, name, 5)
		mem, err := BuildKeys(slices.Clone(keys), 9, 5, KeysBuild{Order: o, Count: uint64(len(keys)), ZDD: true})
		require.NoError(t, err)
		require.Positive(t, mem.ZDDNodes)
		for _, b := range []KeysBuild{
			{Order: o, ZDD: true},              // natural: streamed; reverse: passes
			{Order: o, ZDD: true, MaxKeys: 97}, // many passes
			{Order: o, ZDD: true, Rudd: true},  // whole, checked against rudd
		} {
			got, err := BuildKeyFile(path, 9, 5, b)
			require.NoError(t, err, "%s %+v", name, b)
			assert.True(t, bytes.Equal(encoded(t, mem.BDD), encoded(t, got.BDD)), "%s %+v", name, b)
			assert.Equal(t, mem.ZDDNodes, got.ZDDNodes, "%s %+v", name, b)
		}
		noZDD, err := BuildKeyFile(path, 9, 5, KeysBuild{Order: o})
		require.NoError(t, err)
		assert.Zero(t, noZDD.ZDDNodes)
	}
	// ranks keep the keys' order: the natural order streams them, and gives
	// what the in-memory build gives (BDD bytes, ZDD nodes)
	for _, enc := range []Encoding{Ranks, RanksReverse} {
		kb := KeysBuild{Order: mustOrder(t, "natural", 5), Encoding: enc, ZDD: true}
		ranks, err := BuildKeyFile(path, 9, 5, kb)
		require.NoError(t, err)
		assert.Equal(t, uint64(len(keys)), ranks.BDD.Count)
		mem, err := BuildKeys(slices.Clone(keys), 9, 5, kb)
		require.NoError(t, err)
		assert.True(t, bytes.Equal(encoded(t, mem.BDD), encoded(t, ranks.BDD)), "%v", enc)
		assert.Equal(t, mem.ZDDNodes, ranks.ZDDNodes, "%v", enc)
	}
	conv := slices.Clone(keys)
	Ranks.ConvertAll(conv, 9, 5)
	assert.True(t, slices.IsSorted(conv), "ranks keep the order of the keys")

	_, err := BuildKeys(slices.Clone(keys), 9, 5, KeysBuild{Order: mustOrder(t, "natural", 5), Count: uint64(len(keys)) + 1})
	assert.ErrorContains(t, err, "members from a file of")
}
