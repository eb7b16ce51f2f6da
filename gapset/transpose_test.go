package gapset

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/gapset/gapset/encode"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The table transposer agrees with encode's, on random boards of both
// square sizes, and canonical keys are the smaller of each pair.
func TestTransposerMatchesEncode(t *testing.T) {
	for _, n := range []int{3, 4} {
		want, err := encode.NewSquareTransposition(n, n)
		require.NoError(t, err)
		x := newTransposer(n, n)
		require.NotNil(t, x)
		rng := rand.New(rand.NewPCG(uint64(n), 1))
		for range 2000 {
			k := encode.Random(rng, n, n).Key()
			tk := x.key(k)
			require.Equal(t, want.Key(k), tk, "%dx%d %x", n, n, k)
			require.Equal(t, k, x.key(tk), "an involution")
			a := []uint64{k, tk}
			x.canonAll(a)
			assert.Equal(t, []uint64{min(k, tk), min(k, tk)}, a)
		}
		goal := encode.Goal(n, n).Key()
		assert.Equal(t, goal, x.key(goal), "the goal is its own transpose")
	}
	assert.Nil(t, newTransposer(3, 4), "a non-square board has no transposer")
}

// files runs the enumeration of cfg and returns its summary and its
// key-set files by name.
func enumerateFiles(t *testing.T, cfg Config, inChunk int) (Result, map[string][]byte) {
	t.Helper()
	cfg.Dir = t.TempDir()
	res, err := enumerate(context.Background(), cfg, inChunk)
	require.NoError(t, err, "%+v", cfg)
	return res, readOutputs(t, cfg.Dir)
}

// The canonical enumerator writes the same key-set files, counts the same
// layers and members, and on the 3x3 board stores about half the keys:
// every gap up to the largest (the whole state space), whole boards and
// projections, exact sets, tiny buffers (spills and compactions), each
// run coding.
func TestTransposeSameFiles(t *testing.T) {
	const states = 181440 // the 3x3 board's configurations
	all := false
	for _, tc := range []struct {
		gap     int
		exact   bool
		cells   []int
		memory  int64
		inChunk int
		raw     bool
		rank    bool
		bits    int
	}{
		{0, false, []int{9, 6, 4}, 1 << 24, 1 << 20, false, false, 0},
		{2, false, []int{8, 5}, 1, 64, false, false, 0}, // spills, the layers read back to project
		{4, true, []int{9, 7, 5}, 1 << 24, 1 << 20, false, true, 0},
		{4, true, []int{9, 3}, 1, 64, true, false, 0},
		{6, false, []int{9, 6, 4}, 1 << 24, 1 << 20, false, false, 8},
		{18, false, []int{9, 6, 4}, 1 << 24, 1 << 20, false, false, 1}, // the largest gap: every configuration
	} {
		cfg := Config{Rows: 3, Cols: 3, MaxGap: tc.gap, Exact: tc.exact, Cells: tc.cells, Memory: tc.memory,
			RawRuns: tc.raw, RankRuns: tc.rank, Packed: tc.gap%4 == 0, PrefixBits: tc.bits}
		name := fmt.Sprintf("%+v", tc)
		want, wantFiles := enumerateFiles(t, cfg, tc.inChunk)
		cfg.Transpose = true
		var canonical int64
		cfg.Dir = t.TempDir()
		got, err := enumerateWith(context.Background(), cfg, tc.inChunk, func(_, _ int, l parts) { canonical += l.n })
		require.NoError(t, err, name)
		gotFiles := readOutputs(t, cfg.Dir)
		require.Equal(t, len(wantFiles), len(gotFiles), name)
		for f, b := range wantFiles {
			assert.True(t, bytes.Equal(b, gotFiles[f]), "%s: %s differs", name, f)
		}
		assert.Equal(t, want.Layers, got.Layers, name)
		assert.Equal(t, want.Members, got.Members, name)
		require.Len(t, got.Outputs, len(want.Outputs), name)
		for i, o := range want.Outputs {
			assert.Equal(t, [2]uint64{uint64(o.Cells), o.Count}, [2]uint64{uint64(got.Outputs[i].Cells), got.Outputs[i].Count}, name)
		}
		if want.Members > 1000 {
			assert.InDelta(t, 0.5, float64(canonical)/float64(want.Members), 0.02, "%s: %d canonical keys of %d", name, canonical, want.Members)
		}
		if !tc.exact && want.Members == states {
			all = true
		}
	}
	assert.True(t, all, "the largest gap holds every configuration")
}

// Boards that are not square keep the full enumeration: Transpose changes
// nothing.
func TestTransposeIgnoredOffSquare(t *testing.T) {
	for _, b := range [][2]int{{2, 3}, {3, 4}} {
		cfg := Config{Rows: b[0], Cols: b[1], MaxGap: 2, Cells: []int{b[0] * b[1], 4}, Memory: 1 << 24}
		if b == [2]int{3, 4} {
			cfg.MaxGap = 0
		}
		want, wantFiles := enumerateFiles(t, cfg, 1<<20)
		cfg.Transpose = true
		var n int64
		cfg.Dir = t.TempDir()
		got, err := enumerateWith(context.Background(), cfg, 1<<20, func(_, _ int, l parts) { n += l.n })
		require.NoError(t, err)
		assert.Equal(t, wantFiles, readOutputs(t, cfg.Dir), "%v", b)
		assert.Equal(t, want.Members, n, "%v: every member stored", b)
		assert.Equal(t, want.Layers, got.Layers)
	}
}

// canonBench is a sample of 4x4 parents: a layer of the gap-0 set.
func canonBench(b *testing.B) (*geometry, *transposer, []uint64) {
	g, err := newGeometry(4, 4)
	require.NoError(b, err)
	rng := rand.New(rand.NewPCG(5, 5))
	keys := make([]uint64, 1<<16)
	for i := range keys {
		keys[i] = encode.Random(rng, 4, 4).Key()
	}
	return g, newTransposer(4, 4), keys
}

// What canonicalising the children costs (go test -bench Canon ./gapset/):
// expand, then transpose each child by table, against expanding alone.
// Carrying the parent's transpose through each move instead measured
// slower (NOTES.md, 2026-11-26).
func BenchmarkCanonTable(b *testing.B) {
	g, x, keys := canonBench(b)
	out := make([]uint64, 4*len(keys))
	b.ResetTimer()
	for range b.N {
		n := g.expandRaise(keys, out)
		x.canonAll(out[:n])
		n = g.expandLower(keys, out)
		x.canonAll(out[:n])
	}
}

func BenchmarkCanonNone(b *testing.B) {
	g, _, keys := canonBench(b)
	out := make([]uint64, 4*len(keys))
	b.ResetTimer()
	for range b.N {
		g.expandRaise(keys, out)
		g.expandLower(keys, out)
	}
}
