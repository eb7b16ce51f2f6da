package memset

import (
	"math/rand/v2"
	"path/filepath"
	"slices"
	"testing"

	"github.com/gapset/gapset/internal/placement"
	"github.com/gapset/gapset/keyset"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The rank is a bijection of the k-cell patterns onto 0..n!/(n-k)!-1 that
// keeps the keys' order; a ranked set answers as the hash set does.
func TestRanked(t *testing.T) {
	// every 3-cell pattern of a 2x3 board: ranks 0..119 in key order
	r, err := NewRanked(6, 3)
	require.NoError(t, err)
	var keys []uint64
	for a := uint64(0); a < 6; a++ {
		for b := uint64(0); b < 6; b++ {
			for c := uint64(0); c < 6; c++ {
				if a != b && b != c && a != c {
					keys = append(keys, a<<8|b<<4|c)
				}
			}
		}
	}
	for i, k := range keys {
		require.Equal(t, i, r.index(k), "%#x", k)
	}
	assert.Equal(t, int64(16), placement.Bytes(6, 3))

	// random 7-cell patterns of the 4x4 board against a hash set, through
	// a key-set file; whole-board keys are projected
	rng := rand.New(rand.NewPCG(4, 4))
	var in []uint64
	for len(in) < 5000 {
		perm := rng.Perm(16)
		var k uint64
		for _, v := range perm[:7] {
			k = k<<4 | uint64(v)
		}
		in = append(in, k)
	}
	slices.Sort(in)
	in = slices.Compact(in)
	p := filepath.Join(t.TempDir(), "s.keys")
	require.NoError(t, keyset.WriteFile(p, keyset.Header{Rows: 4, Cols: 4, Cells: 7, Gap: 4, Packed: true}, in))
	d4, err := NewDense(4)
	require.NoError(t, err)
	rs, h, err := LoadRanked(p, d4)
	require.NoError(t, err)
	assert.Equal(t, "Gap4_7", rs.Name())
	assert.Equal(t, len(in), rs.Len())
	assert.Equal(t, int64(16*15*14*13*12*11*10+63)/64*8, rs.Bytes())
	hs := New(in, h.Cells)
	want4, err := hs.Project(4)
	require.NoError(t, err)
	w1, _ := want4.Bits()
	w2, _ := d4.Bits()
	assert.Equal(t, w1, w2, "the dense projection made while loading")
	for i := 0; i < 20000; i++ {
		perm := rng.Perm(16)
		var whole uint64
		for _, v := range perm {
			whole = whole<<4 | uint64(v)
		}
		if i%4 == 0 { // a member, with other tiles on the first 6 cells
			whole = whole&^rs.Mask() | in[rng.IntN(len(in))]
			if !validWhole(whole) {
				continue
			}
		}
		require.Equal(t, hs.Contains(whole), rs.Contains(whole), "%#x", whole)
	}
	_, err = NewRanked(16, 12)
	assert.ErrorContains(t, err, "GB")
	// the hash table of Gap4_10 would be 4.7x the ranked one
	assert.Greater(t, HashBytes(1428073614, 10), 4*placement.Bytes(16, 10))
}

// validWhole: a whole 4x4 key whose 16 nibbles are distinct.
func validWhole(k uint64) bool { return keyset.ValidKey(k, 16, 16) }
