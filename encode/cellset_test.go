package encode

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Cell sets parse and print alike, refuse what is not a set of cells, and
// know the last k cells of a board.
func TestCellSetParse(t *testing.T) {
	for str, cells := range map[string][]int{
		"0-3+8-11":     {0, 1, 2, 3, 8, 9, 10, 11},
		"0+3-4+7-9+11": {0, 3, 4, 7, 8, 9, 11},
		"5":            {5},
		"15":           {15},
		"0-15":         {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15},
	} {
		s, err := ParseCellSet(str)
		require.NoError(t, err, str)
		assert.Equal(t, cells, s.Cells(), str)
		assert.Equal(t, len(cells), s.Len(), str)
		assert.Equal(t, str, s.String(), str)
		assert.Equal(t, CellSetOf(cells), s, str)
	}
	for _, bad := range []string{"", "+", "1+", "a", "16", "-1", "3-1", "1-2-3", "01", "1+1", "0-3+2", " 1", "1,2"} {
		_, err := ParseCellSet(bad)
		assert.Error(t, err, bad)
	}
	assert.Equal(t, "0F0F", CellSetOf([]int{0, 1, 2, 3, 8, 9, 10, 11}).Hex())
	assert.Equal(t, CellSet(0xFF00), LastCells(16, 8))
	assert.Equal(t, CellSet(0x0FF0), LastCells(12, 8))
	assert.True(t, LastCells(9, 4).IsLast(9))
	assert.False(t, LastCells(9, 4).IsLast(10))
	assert.Equal(t, []int{5, 6, 7, 8}, LastCells(9, 4).Cells())
	assert.NoError(t, CellSet(0x1FF).Check(9))
	assert.Error(t, CellSet(0x200).Check(9))
	assert.Error(t, CellSet(0).Check(9))
}

// Gather picks the cells' nibbles in cell order, the last k cells as
// Project does, and Scatter puts them back.
func TestProjectorGather(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{8, 9, 12, 16} {
		for range 200 {
			s := CellSet(rng.IntN(1<<uint(n)-1) + 1)
			p := s.Projector(n)
			perm := perm8(rng, n)
			key := KeyOf(perm)
			// the slow way: the nibbles of the cells, first most significant
			var want uint64
			for _, c := range s.Cells() {
				want = want<<4 | uint64(perm[c])
			}
			got := p.Gather(key)
			require.Equal(t, want, got, "n %d set %s", n, s)
			back := p.Scatter(got)
			for c := 0; c < n; c++ {
				nib := back >> uint(4*(n-1-c)) & 15
				if s&(1<<uint(c)) != 0 {
					assert.Equal(t, uint64(perm[c]), nib)
				} else {
					assert.Zero(t, nib)
				}
			}
			assert.Equal(t, got, p.Gather(back))
		}
		for k := 1; k <= n; k++ {
			p := LastCells(n, k).Projector(n)
			assert.True(t, p.Last())
			key := KeyOf(perm8(rng, n))
			assert.Equal(t, Project(key, k), p.Gather(key))
		}
	}
}

func perm8(rng *rand.Rand, n int) []uint8 {
	out := make([]uint8, n)
	for i, v := range rng.Perm(n) {
		out[i] = uint8(v)
	}
	return out
}

// Within gathers a subset from keys gathered onto a superset: the same as
// gathering it from the board.
func TestProjectorWithin(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, n := range []int{9, 12, 16} {
		for range 300 {
			outer := CellSet(rng.IntN(1<<uint(n)-1) + 1)
			inner := outer & CellSet(rng.IntN(1<<uint(n)))
			if inner == 0 {
				continue
			}
			po, pi, pw := outer.Projector(n), inner.Projector(n), inner.Within(outer)
			key := KeyOf(perm8(rng, n))
			require.Equal(t, pi.Gather(key), pw.Gather(po.Gather(key)), "n %d %s within %s", n, inner, outer)
		}
	}
	// the last cells of the outer set: a mask
	p := CellSetOf([]int{8, 9}).Within(CellSetOf([]int{0, 1, 8, 9}))
	assert.True(t, p.Last())
	assert.Equal(t, uint64(0x34), p.Gather(0x1234))
}
