package bdd

import (
	"math/rand/v2"
	"path/filepath"
	"slices"
	"testing"

	"github.com/gapset/gapset/encode"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestTileKeyIsTheInversePermutation(t *testing.T) {
	rng := rand.New(rand.NewPCG(31, 32))
	for _, size := range [][2]int{{3, 3}, {4, 4}, {2, 3}} {
		n := size[0] * size[1]
		for i := 0; i < 500; i++ {
			b := encode.Random(rng, size[0], size[1])
			k := b.Key()
			tk := TileKey(k, n)
			for c, tile := range b.Tiles {
				require.Equal(t, uint64(c), tk>>(4*uint(n-1-int(tile)))&15, "tile %d is on cell %d", tile, c)
			}
			require.Equal(t, k, TileKey(tk, n), "an involution on boards")
		}
	}
	goal := encode.Goal(4, 4).Key()
	assert.Equal(t, uint64(0xf0123456789abcde), TileKey(goal, 16), "blank on cell 15, tile t on cell t-1")
	assert.Equal(t, uint64(0x1111111111111110), RankKey(goal, 16, 16), "only the blank is below each tile")
}

// fromRanks decodes the ranks encoding the slow way: cell c takes the
// r-th smallest tile left.
func fromRanks(rk uint64, n int) []int {
	var left []int
	for i := 0; i < n; i++ {
		left = append(left, i)
	}
	tiles := make([]int, n)
	for c := 0; c < n; c++ {
		r := int(rk >> (4 * uint(n-1-c)) & 15)
		tiles[c] = left[r]
		left = append(left[:r], left[r+1:]...)
	}
	return tiles
}

func TestRankKeyIsTheLehmerCode(t *testing.T) {
	rng := rand.New(rand.NewPCG(35, 36))
	for _, size := range [][2]int{{3, 3}, {4, 4}, {2, 4}} {
		n := size[0] * size[1]
		for i := 0; i < 500; i++ {
			b := encode.Random(rng, size[0], size[1])
			rk := RankKey(b.Key(), n, n)
			assert.Zero(t, rk&15, "the last cell has one tile left")
			require.Equal(t, toInts(b.Tiles), fromRanks(rk, n))
			rev := func(k uint64) uint64 { // cell c <-> cell n-1-c
				var out uint64
				for j := 0; j < n; j++ {
					out |= (k >> (4 * uint(j)) & 15) << (4 * uint(n-1-j))
				}
				return out
			}
			require.Equal(t, rev(RankKey(rev(b.Key()), n, n)), RankKeyReverse(b.Key(), n, n), "ranks-reverse is ranks of the mirrored board")
			for _, k := range []int{1, n / 2, n} {
				back, ok := FromRanksReverse(RankKeyReverse(b.Key(), n, k), n, k)
				require.True(t, ok)
				require.Equal(t, encode.Project(b.Key(), k), back, "FromRanksReverse inverts RankKeyReverse on %d cells", k)
			}
		}
	}
	// not a board (tile 5 twice): no rank of a board
	rk := RankKey(0x123455780, 9, 9)
	assert.Equal(t, uint64(15), rk>>(4*3)&15)
	enc, err := ParseEncoding("ranks")
	require.NoError(t, err)
	assert.Equal(t, Ranks, enc)
	assert.Equal(t, "tiles", Tiles.String())
	_, err = ParseEncoding("bits")
	assert.Error(t, err)
}

// A file in another encoding answers queries given ordinary board keys.
func TestEncodedSetsAnswerBoardKeys(t *testing.T) {
	g0, g2 := sets3x3(t)
	rng := rand.New(rand.NewPCG(33, 34))
	dir := t.TempDir()
	for gi, set := range [][]uint64{g0, g2} {
		for _, enc := range []Encoding{Tiles, Ranks, RanksReverse} {
			tk := make([]uint64, len(set))
			for i, k := range set {
				tk[i] = enc.Convert(k, 9, 9)
			}
			slices.Sort(tk)
			for _, name := range []string{"natural", "reverse", "planes"} {
				o, _ := NamedOrder(name, 3, 3, 9)
				d, err := Build(tk, o, false)
				require.NoError(t, err)
				path := filepath.Join(dir, "t.bdd")
				_, err = Save(path, d, Meta{Rows: 3, Cols: 3, Cells: 9, Gap: 2 * gi, Encoding: enc})
				require.NoError(t, err)
				s, err := Open(path)
				require.NoError(t, err)
				assert.Equal(t, enc, s.Info().Encoding)
				c := s.NewCursor()
				for _, k := range set {
					require.True(t, s.Contains(k))
					require.True(t, c.Contains(k))
				}
				for i := 0; i < 3000; i++ {
					k := encode.Random(rng, 3, 3).Key()
					require.Equal(t, member(set, k), s.Contains(k))
					require.Equal(t, member(set, k), c.Contains(k))
				}
				if name != "planes" && enc != RanksReverse { // ranks-reverse: TestProjectEncodings
					assert.ErrorIs(t, s.Project(4, func(uint64) {}), ErrNotProjectable, "no projection onto cells of a %v set", enc)
				}
			}
		}
	}
	// ranks on 6 of the cells: queries take whole board keys
	for _, set := range [][]uint64{g0, g2} {
		for _, enc := range []Encoding{Ranks, RanksReverse} {
			keys := project(set, 6)
			rk := make([]uint64, len(keys))
			for i, k := range keys {
				rk[i] = enc.Convert(k, 9, 6)
			}
			slices.Sort(rk)
			require.Len(t, slices.Compact(slices.Clone(rk)), len(rk), "one rank key per pattern")
			o, _ := NamedOrder("reverse", 3, 3, 6)
			d, err := Build(rk, o, false)
			require.NoError(t, err)
			s, err := NewSet(d, Info{Rows: 3, Cols: 3, Cells: 6, Encoding: enc})
			require.NoError(t, err)
			for _, k := range set {
				require.True(t, s.Contains(k))
			}
			for i := 0; i < 3000; i++ {
				b := encode.Random(rng, 3, 3).Key()
				require.Equal(t, member(keys, encode.Project(b, 6)), s.Contains(b))
			}
		}
	}
	o, _ := NamedOrder("natural", 3, 3, 6)
	d, err := Build(project(g0, 6), o, false)
	require.NoError(t, err)
	_, err = Save(filepath.Join(dir, "bad.bdd"), d, Meta{Rows: 3, Cols: 3, Cells: 6, Encoding: Tiles})
	assert.ErrorContains(t, err, "whole boards")
}

func toInts[T ~uint8 | ~int](xs []T) []int {
	out := make([]int, len(xs))
	for i, x := range xs {
		out[i] = int(x)
	}
	return out
}

// KeepsOrder says which encodings keep the order of sorted board keys:
// the 3x3 gap <= 2 set on 9, 6 and 2 cells and sorted random 4x4 boards
// (whole, and on 10 cells) stay strictly increasing in
// the cells and ranks encodings, and some pair is swapped in the others.
func TestEncodingKeepsOrder(t *testing.T) {
	_, g2 := sets3x3(t)
	rng := rand.New(rand.NewPCG(41, 42))
	var boards16 []uint64
	for range 20000 {
		boards16 = append(boards16, encode.Random(rng, 4, 4).Key())
	}
	for _, enc := range []Encoding{Cells, Tiles, Ranks, RanksReverse} {
		swapped := 0
		for _, c := range []struct {
			n, k int
			keys []uint64
		}{{9, 9, g2}, {9, 6, g2}, {9, 2, g2}, {16, 16, boards16}, {16, 10, boards16}} {
			if enc == Tiles && c.k != c.n {
				continue
			}
			keys := slices.Clone(project(c.keys, c.k))
			slices.Sort(keys)
			keys = slices.Compact(keys)
			require.Greater(t, len(keys), 50)
			for i := 1; i < len(keys); i++ {
				a, b := enc.Convert(keys[i-1], c.n, c.k), enc.Convert(keys[i], c.n, c.k)
				if a >= b {
					require.False(t, enc.KeepsOrder(), "%s, %d of %d cells: %#x < %#x become %#x, %#x", enc, c.k, c.n, keys[i-1], keys[i], a, b)
					swapped++
				}
			}
		}
		assert.Equal(t, enc.KeepsOrder(), swapped == 0, "%s: %d pairs swapped", enc, swapped)
	}
	// the examples of KeepsOrder's comment
	assert.Greater(t, TileKey(0x120, 3), TileKey(0x201, 3))
	assert.Greater(t, RankKeyReverse(0x01, 3, 2), RankKeyReverse(0x10, 3, 2))
}

// EncodingFor takes every encoding for whole boards and all but tiles for
// fewer cells.
func TestEncodingFor(t *testing.T) {
	for _, name := range []string{"cells", "ranks", "ranks-reverse", "tiles"} {
		enc, err := EncodingFor(name, 9, 9)
		require.NoError(t, err, name)
		assert.Equal(t, name, enc.String())
		_, err = EncodingFor(name, 9, 6)
		if name == "tiles" {
			assert.EqualError(t, err, "--encoding tiles needs whole boards, not 6 of 9 cells")
		} else {
			assert.NoError(t, err, name)
		}
	}
	_, err := EncodingFor("bits", 9, 9)
	assert.ErrorContains(t, err, "unknown encoding")
}
