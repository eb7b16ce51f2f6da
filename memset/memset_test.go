package memset

import (
	"math/rand/v2"
	"path/filepath"
	"slices"
	"testing"

	"github.com/gapset/gapset/encode"
	"github.com/gapset/gapset/keyset"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func randomKeys(rng *rand.Rand, n int) []uint64 {
	keys := make([]uint64, n)
	for i := range keys {
		keys[i] = encode.Random(rng, 4, 4).Key()
	}
	return keys
}

// Both structures answer exactly like a Go map of the projected keys, for
// members, non-members and every projection width.
func TestSetsAgreeWithAMap(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	members := randomKeys(rng, 20000)
	probes := append(randomKeys(rng, 20000), members...)
	for _, k := range []int{1, 2, 3, 8, 12, 16} {
		mask := encode.ProjectMask(k)
		want := map[uint64]bool{}
		for _, m := range members[:len(members)/(17-k)] {
			want[m&mask] = true
		}
		var in []uint64
		for m := range want {
			in = append(in, m)
		}
		in = append(in, in[:len(in)/3]...) // duplicates are allowed
		hs, ss := New(in, k), NewSorted(in, k)
		assert.Equal(t, len(want), hs.Len(), "cells %d", k)
		assert.Equal(t, len(want), ss.Len(), "cells %d", k)
		hits := 0
		for _, p := range probes {
			w := want[p&mask]
			if w {
				hits++
			}
			require.Equal(t, w, hs.Contains(p), "cells %d key %#x", k, p)
			require.Equal(t, w, ss.Contains(p), "cells %d key %#x", k, p)
		}
		assert.Positive(t, hits)
		if k > 2 { // one or two cells: few enough patterns that all are members
			assert.Less(t, hits, len(probes), "cells %d: probes must include non-members", k)
		}
	}
}

// One cell: the blank in the last cell projects to key 0, which the table
// keeps apart from its empty slots.
func TestZeroKey(t *testing.T) {
	s := New([]uint64{0x10, 0x20}, 1)
	assert.True(t, s.Contains(0x123456789abcdef0))
	assert.False(t, s.Contains(0x12345678))
	assert.Equal(t, 1, s.Len())
	empty := New(nil, 4)
	assert.False(t, empty.Contains(0))
	assert.False(t, empty.Contains(0x1234))
	assert.Equal(t, 0, empty.Len())
}

func TestLoadKeySetFile(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	keys := randomKeys(rng, 5000)
	for i := range keys {
		keys[i] &= encode.ProjectMask(8)
	}
	slices.Sort(keys)
	keys = slices.Compact(keys)
	path := filepath.Join(t.TempDir(), "g.keys")
	h := keyset.Header{Rows: 4, Cols: 4, Cells: 8, Gap: 0, Count: uint64(len(keys))}
	require.NoError(t, keyset.WriteFile(path, h, keys))
	s, got, err := Load(path)
	require.NoError(t, err)
	assert.Equal(t, 8, got.Cells)
	assert.Equal(t, "Gap0_8", s.Name())
	assert.Equal(t, len(keys), s.Len())
	for _, k := range keys {
		require.True(t, s.Contains(0xfedcba9800000000|k))
	}
	assert.False(t, s.Contains(0x0fffffff))

	_, _, err = Load(filepath.Join(t.TempDir(), "missing.keys"))
	assert.Error(t, err)
}

func TestDenseProjection(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	keys := randomKeys(rng, 20000)
	s := New(keys, 8)
	d, err := s.Project(3)
	require.NoError(t, err)
	want := map[uint64]bool{}
	for _, k := range keys {
		want[k&0xfff] = true
	}
	assert.Equal(t, len(want), d.Len())
	for p := uint64(0); p < 1<<12; p++ {
		require.Equal(t, want[p], d.Contains(p|rng.Uint64()<<12), "%#x", p)
	}
	words, mask := d.Bits()
	assert.Equal(t, uint64(0xfff), mask)
	assert.Len(t, words, 64)

	_, err = s.Project(8)
	assert.Error(t, err, "not fewer cells")
	_, err = NewDense(MaxDenseCells + 1)
	assert.Error(t, err)
}
