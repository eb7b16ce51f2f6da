package pdb

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/gapset/gapset/encode"
	"github.com/gapset/gapset/ida"
	"github.com/gapset/gapset/internal/placement"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// blankValue decodes entry (placement pos, blank) of a blank-aware table.
func blankValue(geo *encode.Geometry, group []uint8, nib []uint8, pos []uint8, blank int) int {
	n := geo.N
	var used uint32
	r, m := 0, 0
	for i, c := range pos {
		r, used = placement.Step(r, used, c, n-i)
		m += int(geo.Dist[group[i]][c])
	}
	return m + 2*int(nibble(nib, r*(n-len(pos))+placement.Digit(used, uint(blank))))
}

// Every entry of a blank-aware table is the naive search's distance of
// its (placement, blank) state, on boards and groups covering both word
// layouts and split blank regions.
func TestBlankMatchesNaiveSearch(t *testing.T) {
	for _, tc := range []struct {
		rows, cols int
		group      []uint8
	}{
		{3, 3, []uint8{1, 2, 3}},
		{3, 3, []uint8{2, 5, 8}},
		{2, 4, []uint8{1, 2, 3, 5, 6}},
		{2, 3, []uint8{1, 5}},
		{2, 4, []uint8{3, 4, 7}},
		{2, 4, []uint8{1, 2, 6, 7}},
		{3, 4, []uint8{2, 6, 7}},
		{4, 4, []uint8{11, 12, 15}},
	} {
		geo, err := encode.NewGeometry(tc.rows, tc.cols)
		require.NoError(t, err)
		nib, err := BuildBlank(context.Background(), tc.rows, tc.cols, tc.group, 2, nil)
		require.NoError(t, err)
		n, k := tc.rows*tc.cols, len(tc.group)
		require.Len(t, nib, (BlankEntries(n, k)+1)/2)
		ref := naiveStates(tc.rows, tc.cols, tc.group)
		require.Len(t, ref, BlankEntries(n, k))
		pos := make([]uint8, k)
		for st, d := range ref {
			for i, tile := range tc.group {
				pos[i] = uint8(strings.IndexByte(st, byte(tile)))
			}
			blank := strings.IndexByte(st, 0)
			require.Equal(t, d, blankValue(geo, tc.group, nib, pos, blank), "%dx%d group %v placement %v blank %d", tc.rows, tc.cols, tc.group, pos, blank)
		}
	}
}

// A group that leaves fewer than two tiles out is refused, as is an empty
// group.
func TestBlankRefusesFullGroups(t *testing.T) {
	for _, g := range [][]uint8{{1, 2, 3, 4, 5, 6, 7, 8}, {1, 2, 3, 4, 5, 6, 7}} {
		_, err := BuildBlank(context.Background(), 3, 3, g, 1, nil)
		assert.ErrorContains(t, err, "two tiles outside the group")
	}
	_, err := BuildBlank(context.Background(), 3, 3, nil, 1, nil)
	assert.ErrorContains(t, err, "at least one tile")
}

// blankSet builds the blank-aware databases of a partition.
func blankSet(t testing.TB, name string, rows, cols int) *Databases {
	t.Helper()
	part, err := ParsePartition(name, rows, cols)
	require.NoError(t, err)
	part.Blank = true
	set, err := BuildSet(context.Background(), part, 2, nil)
	require.NoError(t, err)
	require.True(t, set.Blank)
	return set
}

// moveChanges adds to hist, for each move of the board, the change of
// value(board) it makes (the board is restored).
func moveChanges(b encode.Board, value func([]uint8) int, hist map[int]int) {
	h := value(b.Tiles)
	blank := b.Blank()
	for _, c := range encode.Neighbors(b.Rows, b.Cols, blank) {
		b.Tiles[blank], b.Tiles[c] = b.Tiles[c], 0
		hist[value(b.Tiles)-h]++
		b.Tiles[c], b.Tiles[blank] = b.Tiles[blank], 0
	}
}

// On every board of 3x3 and 2x4, for several partitions, with and without
// the transpose: the blank-aware sum is at most the BFS distance, at least
// the blank-minimised sum, has Manhattan distance's parity and changes by
// exactly one on every move; the search's tracker gives the lookup's value
// at every root.
func TestBlankUnitStepOnEveryBoard(t *testing.T) {
	for _, tc := range []struct {
		rows, cols int
		part       string
	}{
		{3, 3, "4-4"},
		{3, 3, "3-5"},
		{3, 3, "1,5/2,3,6/4,7,8"},
		{2, 4, "1,2,3,4/5,6,7"},
		{2, 4, "1,2,5,6/3,4,7"},
		{2, 4, "1,5/2,6/3,7/4"},
	} {
		dist := encode.Distances(tc.rows, tc.cols)
		set := blankSet(t, tc.part, tc.rows, tc.cols)
		minimised := buildSet(t, tc.part, tc.rows, tc.cols)
		for _, transpose := range []bool{false, true} {
			if transpose && tc.rows != tc.cols {
				continue
			}
			name := fmt.Sprintf("%dx%d %s transpose %v", tc.rows, tc.cols, tc.part, transpose)
			look, err := set.NewLookup(transpose)
			require.NoError(t, err)
			low, err := minimised.NewLookup(transpose)
			require.NoError(t, err)
			h := &Heuristic{DBs: set, Transpose: transpose}
			require.NoError(t, UnitStep(h))
			tr, err := h.NewTracker(tc.rows, tc.cols)
			require.NoError(t, err)
			hist := map[int]int{}
			above := 0
			for key, d := range dist {
				b, err := encode.FromKey(key, tc.rows, tc.cols)
				require.NoError(t, err)
				v := look.Value(b.Tiles)
				require.LessOrEqual(t, v, d, "%s: board %s", name, b)
				w := low.Value(b.Tiles)
				require.GreaterOrEqual(t, v, w, "%s: board %s", name, b)
				if v > w {
					above++
				}
				require.Zero(t, (v-b.Manhattan())&1, "%s: board %s", name, b)
				moveChanges(b, look.Value, hist)
				p := ida.Position{Rows: b.Rows, Cols: b.Cols, Blank: b.Blank(), MD: b.Manhattan()}
				copy(p.Tiles[:], b.Tiles)
				tr.Reset(&p)
				require.Equal(t, v, tr.Bound(&p, 1<<30), "%s: board %s", name, b)
			}
			assert.Equal(t, []int{-1, 1}, keys(hist), "%s: changes along moves", name)
			assert.Positive(t, above, "%s: never above the blank-minimised sum", name)
		}
	}
}

func keys(m map[int]int) []int {
	var out []int
	for k := range m {
		out = append(out, k)
	}
	for i := range out {
		for j := i + 1; j < len(out); j++ {
			if out[j] < out[i] {
				out[i], out[j] = out[j], out[i]
			}
		}
	}
	return out
}

// The tracker follows moves (with and without the children's entries
// prefetched first): along random walks its bound is the lookup's of the
// board reached, direct and transposed.
func TestBlankTrackerFollowsMoves(t *testing.T) {
	set := blankSet(t, "1,2,5/3,4,6,7,8", 3, 3)
	rng := rand.New(rand.NewPCG(1, 2))
	for _, transpose := range []bool{false, true} {
		look, err := set.NewLookup(transpose)
		require.NoError(t, err)
		for _, noPre := range []bool{false, true} {
			h := &Heuristic{DBs: set, Transpose: transpose, NoPrefetch: noPre}
			tr, err := h.NewTracker(3, 3)
			require.NoError(t, err)
			pf, _ := tr.(ida.TrackerPrefetcher)
			for walk := 0; walk < 50; walk++ {
				b := encode.Random(rng, 3, 3)
				p := ida.Position{Rows: 3, Cols: 3, Blank: b.Blank(), MD: b.Manhattan()}
				copy(p.Tiles[:], b.Tiles)
				tr.Reset(&p)
				type move struct {
					tile     uint8
					from, to int
				}
				var path []move
				for step := 0; step < 40; step++ {
					nb := encode.Neighbors(3, 3, p.Blank)
					if pf != nil {
						cells := make([]uint8, len(nb))
						for i, c := range nb {
							cells[i] = uint8(c)
						}
						pf.Prefetch(&p, cells)
					}
					from := nb[rng.IntN(len(nb))]
					tile, to := p.Tiles[from], p.Blank
					p.Tiles[to], p.Tiles[from] = tile, 0
					p.Blank = from
					p.MD = boardMD(&p)
					p.Depth++
					tr.Move(&p, tile, from, to)
					path = append(path, move{tile, from, to})
					require.Equal(t, look.Value(p.Tiles[:9]), tr.Bound(&p, 1<<30), "transpose %v, walk %d step %d", transpose, walk, step)
				}
				for i := len(path) - 1; i >= 0; i-- { // undo back to the root
					m := path[i]
					p.Tiles[m.from], p.Tiles[m.to] = m.tile, 0
					p.Blank = m.to
					p.MD = boardMD(&p)
					p.Depth--
					tr.Undo(&p, m.tile, m.from, m.to)
				}
				require.Equal(t, look.Value(b.Tiles), tr.Bound(&p, 1<<30), "after the undos")
			}
		}
	}
}

func boardMD(p *ida.Position) int {
	b := encode.Board{Rows: p.Rows, Cols: p.Cols, Tiles: p.Tiles[:p.Rows*p.Cols]}
	return b.Manhattan()
}

// IDA* with the blank-aware databases finds the BFS lengths (the
// evaluator's skipping and the prefetch included).
func TestBlankSolvesOptimally(t *testing.T) {
	dist := encode.Distances(3, 3)
	set := blankSet(t, "4-4", 3, 3)
	for _, transpose := range []bool{false, true} {
		h := &Heuristic{DBs: set, Transpose: transpose}
		i := 0
		for key, d := range dist {
			if i++; i%97 != 0 {
				continue
			}
			b, _ := encode.FromKey(key, 3, 3)
			res, err := ida.Solve(b, h, ida.Options{})
			require.NoError(t, err)
			require.Equal(t, d, res.Length, "board %s", b)
		}
	}
}

// UnitStep accepts Manhattan distance, blank-aware databases and maxima
// of them; it refuses the blank-minimised databases, the dual lookup and
// any other heuristic, each with ErrNotUnitStep and the reason.
func TestUnitStepRefuses(t *testing.T) {
	blank := blankSet(t, "4-4", 3, 3)
	minimised := buildSet(t, "4-4", 3, 3)
	ok := []ida.Heuristic{
		ida.Manhattan{},
		&Heuristic{DBs: blank},
		&Heuristic{DBs: blank, Transpose: true},
		ida.Max{Parts: []ida.Heuristic{ida.Manhattan{}, &Heuristic{DBs: blank, Transpose: true}}},
	}
	for _, h := range ok {
		assert.NoError(t, UnitStep(h), h.Name())
	}
	for _, tc := range []struct {
		h   ida.Heuristic
		why string
	}{
		{&Heuristic{DBs: minimised}, "minimum over the blank's cell"},
		{&Heuristic{DBs: minimised, Transpose: true}, "gapset pdb build --blank"},
		{&Heuristic{DBs: blank, Dual: true}, "dual boards"},
		{ida.LinearConflict{}, "lc is not known to have the property"},
		{ida.Max{Parts: []ida.Heuristic{&Heuristic{DBs: blank}, &Heuristic{DBs: minimised}}}, "minimum over the blank's cell"},
	} {
		err := UnitStep(tc.h)
		require.ErrorIs(t, err, ErrNotUnitStep, tc.h.Name())
		assert.ErrorContains(t, err, tc.why)
	}
}
