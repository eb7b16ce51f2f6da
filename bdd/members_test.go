package bdd

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Members lists exactly the set a diagram was built from, in increasing
// level order, under every named order and encoding, on the 3x3 gap sets
// (sparse and dense projections, the empty set and one member); a
// diagram skipping variables lists both values of each.
func TestMembersListTheSet(t *testing.T) {
	g0, g2 := sets3x3(t)
	for _, k := range []int{4, 6, 9} {
		for _, set := range [][]uint64{g0, g2, {}, g0[:1]} {
			keys := project(set, k)
			for _, name := range OrderNames() {
				for _, enc := range []Encoding{Cells, Ranks} {
					o, err := NamedOrder(name, 3, 3, k)
					require.NoError(t, err)
					b, err := BuildKeys(slices.Clone(keys), 9, k, KeysBuild{Order: o, Encoding: enc})
					require.NoError(t, err)
					d := b.BDD.Diagram()
					want := make([]uint64, len(keys))
					for i, key := range keys {
						want[i] = position(o, enc.Convert(key, 9, k))
					}
					slices.Sort(want)
					got := []uint64{}
					done, err := d.Members(func(p uint64) bool { got = append(got, p); return true })
					require.NoError(t, err)
					require.True(t, done)
					require.Equal(t, want, got, "k %d, %s, %s", k, name, enc)
					if len(got) > 2 { // stopped early: no more calls
						calls := 0
						done, err := d.Members(func(uint64) bool { calls++; return calls < 2 })
						require.NoError(t, err)
						assert.False(t, done)
						assert.Equal(t, 2, calls)
					}
				}
			}
		}
	}
	// every assignment of 3 variables, and of 2 of them with the third free
	o := Order{Name: "custom", Bits: []uint8{2, 1, 0}}
	d, err := Build([]uint64{0, 1, 2, 3, 4, 5, 6, 7}, o, false)
	require.NoError(t, err)
	require.Equal(t, uint32(True), d.Root)
	var got []uint64
	_, err = d.Members(func(p uint64) bool { got = append(got, p); return true })
	require.NoError(t, err)
	assert.Equal(t, []uint64{0, 1, 2, 3, 4, 5, 6, 7}, got)
	d, err = Build([]uint64{1, 3, 5, 7}, o, false) // bit 0 set: levels 0 and 1 skipped
	require.NoError(t, err)
	got = nil
	_, err = d.Members(func(p uint64) bool { got = append(got, p); return true })
	require.NoError(t, err)
	assert.Equal(t, []uint64{1, 3, 5, 7}, got)
	assert.True(t, Order{Bits: []uint8{2, 1, 0}}.IsKeyOrder())
	assert.False(t, Order{Bits: []uint8{1, 2, 0}}.IsKeyOrder())
	z, err := d.ZDDOf()
	require.NoError(t, err)
	_, err = z.Members(func(uint64) bool { return true })
	assert.Error(t, err)
}

// Members of random sets of 8 variables under random orders equal the
// sorted positions of the set (levels skipped anywhere: top, middle,
// bottom); the True root of 64 variables (2^64 members) is refused, not
// listed as none.
func TestMembersRandomSets(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	for range 300 {
		bits := []uint8{7, 6, 5, 4, 3, 2, 1, 0}
		rng.Shuffle(len(bits), func(i, j int) { bits[i], bits[j] = bits[j], bits[i] })
		o := Order{Name: "custom", Bits: bits}
		var keys []uint64
		density := rng.Float64()
		for k := range uint64(256) {
			if rng.Float64() < density {
				keys = append(keys, k)
			}
		}
		d, err := Build(keys, o, false)
		require.NoError(t, err)
		want := []uint64{}
		for _, k := range keys {
			want = append(want, position(o, k))
		}
		slices.Sort(want)
		got := []uint64{}
		done, err := d.Members(func(p uint64) bool { got = append(got, p); return true })
		require.NoError(t, err)
		require.True(t, done)
		require.Equal(t, want, got, "order %v, %d keys", bits, len(keys))
	}
	o64, err := NamedOrder("natural", 4, 4, 16)
	require.NoError(t, err)
	require.Equal(t, 64, o64.Vars())
	_, err = (&Diagram{Order: o64, Nodes: []Node{{}, {}}, Root: True}).Members(func(uint64) bool { return true })
	assert.ErrorIs(t, err, errOverflow)
}

// position is key's level-order number under o (what Members lists).
func position(o Order, key uint64) uint64 {
	var p uint64
	for _, b := range o.Bits {
		p = p<<1 | key>>b&1
	}
	return p
}
