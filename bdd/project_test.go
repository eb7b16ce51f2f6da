package bdd

import (
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The projection of a BDD equals the projection of its keys, for every order
// that keeps cells together, from every set size onto every smaller one.
func TestProjectEqualsKeyProjection(t *testing.T) {
	g0, g2 := sets3x3(t)
	for _, set := range [][]uint64{g0, g2} {
		for _, from := range []int{5, 9} {
			keys := project(set, from)
			for _, name := range OrderNames() {
				o, err := NamedOrder(name, 3, 3, from)
				require.NoError(t, err)
				d, err := Build(keys, o, false)
				require.NoError(t, err)
				s, err := NewSet(d, Info{})
				require.NoError(t, err)
				if s.cells != nil {
					require.Len(t, s.cells, 2+cellCount(d), "the 16-way nodes counted beforehand")
				}
				for _, k := range []int{1, 3, from - 1, from} {
					var got []uint64
					err := s.Project(k, func(p uint64) { got = append(got, p) })
					if s.cells == nil {
						assert.Error(t, err, name)
						continue
					}
					require.NoError(t, err, name)
					slices.Sort(got)
					require.Equal(t, project(keys, k), slices.Compact(got), "%s %d -> %d cells", name, from, k)
				}
			}
		}
	}
}

// A set in the ranks-reverse encoding projects onto the cells encoding;
// ranks and tiles are refused with ErrNotProjectable.
func TestProjectEncodings(t *testing.T) {
	_, g2 := sets3x3(t)
	for _, from := range []int{6, 9} {
		cells := project(g2, from)
		for _, enc := range []Encoding{RanksReverse, Ranks, Tiles} {
			if enc == Tiles && from != 9 {
				continue
			}
			keys := slices.Clone(cells)
			enc.ConvertAll(keys, 9, from)
			o, err := NamedOrder("reverse", 3, 3, from)
			require.NoError(t, err)
			d, err := Build(keys, o, false)
			require.NoError(t, err)
			s, err := NewSet(d, Info{Rows: 3, Cols: 3, Cells: from, Encoding: enc})
			require.NoError(t, err)
			for _, k := range []int{2, 4, from} {
				var got []uint64
				err := s.Project(k, func(p uint64) { got = append(got, p) })
				if enc != RanksReverse {
					assert.ErrorIs(t, err, ErrNotProjectable)
					continue
				}
				require.NoError(t, err)
				slices.Sort(got)
				require.Equal(t, project(cells, k), slices.Compact(got), "%v %d -> %d cells", enc, from, k)
			}
		}
	}
	_, ok := FromRanksReverse(0xF, 9, 1)
	assert.False(t, ok, "rank 15 of 9 tiles")
}

func TestProjectRefusesBadCells(t *testing.T) {
	g0, _ := sets3x3(t)
	o, _ := NamedOrder("natural", 3, 3, 9)
	d, err := Build(g0, o, false)
	require.NoError(t, err)
	s, err := NewSet(d, Info{})
	require.NoError(t, err)
	assert.Error(t, s.Project(0, func(uint64) {}))
	assert.Error(t, s.Project(16, func(uint64) {}))
}
