package gapset

import (
	"context"
	"crypto/sha256"
	"testing"

	"github.com/gapset/gapset/encode"
	"github.com/gapset/gapset/internal/placement"
	"github.com/gapset/gapset/keyset"
	"github.com/gapset/gapset/pdb"
	"github.com/stretchr/testify/require"
)

// testBase is a blank-aware additive pattern database built here, by a
// 0-1 breadth-first search, for the tests of the residual enumeration on
// small boards, independent of package pdb's (TestTestBaseIsPDBBlank): d_G(the cells of G's tiles and of the blank) is the fewest
// moves of G's tiles that bring them home with the blank in its goal cell,
// moves of other tiles free. h = the sum over the groups. With minBlank it
// is the usual additive database instead, min over the blank's cell of
// d_G, which a move can change by 3; with transpose, the maximum with the
// transpose's value (square boards).
type testBase struct {
	rows, cols int
	groups     [][]uint8 // tiles of each group
	tables     [][]uint8 // by the rank of (blank's cell, tiles' cells)
	minBlank   bool
	tp         *encode.Transposition
	spec       string
}

// newTestBase builds the groups' tables of a rows x cols board.
func newTestBase(t testing.TB, rows, cols int, groups [][]uint8) *testBase {
	n := rows * cols
	b := &testBase{rows: rows, cols: cols, groups: groups, spec: "test-bpdb"}
	for _, grp := range groups {
		k := len(grp) + 1
		tab := make([]uint8, placement.Size(n, k))
		for i := range tab {
			tab[i] = 0xFF
		}
		pos := make([]uint8, k)
		pos[0] = uint8(n - 1)
		for i, tile := range grp {
			pos[i+1] = tile - 1
		}
		// 0-1 BFS: a deque of ranks, free moves in front.
		start := placement.Rank(pos, n)
		tab[start] = 0
		deque := []int{start}
		head := 0
		for head < len(deque) {
			r := deque[head]
			head++
			d := tab[r]
			placement.Unrank(r, pos, n)
			blank := int(pos[0])
			for _, c := range encode.Neighbors(rows, cols, blank) {
				next := make([]uint8, k)
				copy(next, pos)
				next[0] = uint8(c)
				cost := uint8(0)
				for i := 1; i < k; i++ {
					if int(pos[i]) == c {
						next[i] = uint8(blank)
						cost = 1
					}
				}
				nr := placement.Rank(next, n)
				if tab[nr] <= d+cost {
					continue
				}
				tab[nr] = d + cost
				if cost == 0 {
					// in front: a free move keeps the distance
					if head > 0 {
						head--
						deque[head] = nr
					} else {
						deque = append([]int{nr}, deque...)
					}
				} else {
					deque = append(deque, nr)
				}
			}
		}
		for _, v := range tab {
			if v == 0xFF {
				t.Fatalf("group %v: a pattern not reached", grp)
			}
		}
		b.tables = append(b.tables, tab)
	}
	return b
}

// symmetric returns b with its maximum over the board and its transpose.
func (b *testBase) symmetric(t testing.TB) *testBase {
	tp, err := encode.NewSquareTransposition(b.rows, b.cols)
	require.NoError(t, err)
	c := *b
	c.tp, c.spec = tp, b.spec+"r"
	return &c
}

// min returns b with each group's entry its minimum over the blank's cell.
func (b *testBase) min() *testBase {
	c := *b
	c.minBlank, c.spec = true, b.spec+"-min"
	return &c
}

func (b *testBase) h(key uint64) int {
	n := b.rows * b.cols
	var cell [16]uint8
	for c := 0; c < n; c++ {
		cell[key>>(4*uint(n-1-c))&15] = uint8(c)
	}
	sum := 0
	var pos [16]uint8
	for g, grp := range b.groups {
		k := len(grp) + 1
		for i, tile := range grp {
			pos[i+1] = cell[tile]
		}
		if !b.minBlank {
			pos[0] = cell[0]
			sum += int(b.tables[g][placement.Rank(pos[:k], n)])
			continue
		}
		best := 255
		for c := 0; c < n; c++ {
			free := true
			for i := 1; i < k; i++ {
				free = free && int(pos[i]) != c
			}
			if free {
				pos[0] = uint8(c)
				best = min(best, int(b.tables[g][placement.Rank(pos[:k], n)]))
			}
		}
		sum += best
	}
	return sum
}

// H implements Base.
func (b *testBase) H(key uint64) int {
	h := b.h(key)
	if b.tp != nil {
		h = max(h, b.h(b.tp.Key(key)))
	}
	return h
}

// ID implements Base.
func (b *testBase) ID() keyset.Base {
	s := sha256.New()
	for _, tab := range b.tables {
		s.Write(tab)
	}
	s.Write([]byte(b.spec))
	id := keyset.Base{Spec: b.spec}
	copy(id.Digest[:], s.Sum(nil))
	return id
}

// Symmetric implements Base.
func (b *testBase) Symmetric() bool { return b.tp != nil }

// testSplits are the groups of the small boards' tests: two halves of the
// tiles (3x4: the split of docs/residual, 1-6 and 7-11).
var testSplits = map[[2]int][][]uint8{
	{3, 3}: {{1, 2, 3, 4}, {5, 6, 7, 8}},
	{2, 4}: {{1, 2, 3, 4}, {5, 6, 7}},
	{3, 4}: {{1, 2, 3, 4, 5, 6}, {7, 8, 9, 10, 11}},
}

// The test base is the blank-aware database of package pdb, computed
// another way: they agree on every board of 3x3 (also with the transpose)
// and 2x4.
func TestTestBaseIsPDBBlank(t *testing.T) {
	for _, sz := range [][2]int{{3, 3}, {2, 4}} {
		rows, cols := sz[0], sz[1]
		part := pdb.Partition{Name: "test", Rows: rows, Cols: cols, Groups: testSplits[sz], Blank: true}
		set, err := pdb.BuildBlankSet(context.Background(), part, 2, nil)
		require.NoError(t, err)
		b := newTestBase(t, rows, cols, testSplits[sz])
		bases := map[bool]*testBase{false: b}
		if rows == cols {
			bases[true] = b.symmetric(t)
		}
		for transpose, tb := range bases {
			look, err := set.NewLookup(transpose)
			require.NoError(t, err)
			for k := range encode.Distances(rows, cols) {
				require.Equal(t, look.Key(k), tb.H(k), "%dx%d transpose %v %#x", rows, cols, transpose, k)
			}
		}
	}
}
