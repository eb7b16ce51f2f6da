package placement

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
)

// allPlacements lists the placements of k distinct values below n as keys
// (RankKey's), in increasing order.
func allPlacements(n, k int) []uint64 {
	var out []uint64
	var rec func(key uint64, used uint32, depth int)
	rec = func(key uint64, used uint32, depth int) {
		if depth == k {
			out = append(out, key)
			return
		}
		for v := 0; v < n; v++ {
			if used&(1<<v) == 0 {
				rec(key<<4|uint64(v), used|1<<v, depth+1)
			}
		}
	}
	rec(0, 0, 0)
	return out
}

// values unpacks a key of k values, the most significant nibble first.
func values(key uint64, k int) []uint8 {
	pos := make([]uint8, k)
	for i := range pos {
		pos[i] = uint8(key >> (4 * uint(k-1-i)) & 15)
	}
	return pos
}

// Size counts n!/(n-k)!, and Bytes rounds the bits up to whole words.
func TestSize(t *testing.T) {
	require.Equal(t, int64(518918400), Size(16, 8)) // 16!/8!
	require.Equal(t, int64(362880), Size(9, 9))
	require.Equal(t, int64(1), Size(9, 0))
	require.Equal(t, int64(20922789888000), Size(16, 16))
	require.Equal(t, int64(16), Bytes(6, 3)) // 120 bits: two words
	require.Equal(t, int64(8), Bytes(4, 1))
}

// Every ranking numbers the placements 0..n!/(n-k)!-1 in increasing key
// order (the order listed independently above), and Unrank, the Ranker's
// and the Prefix's ranks and SetRank (from scratch) agree with it.
func TestRankIsTheIndexInKeyOrder(t *testing.T) {
	for _, c := range []struct{ n, k int }{{1, 1}, {6, 3}, {9, 4}, {8, 7}, {8, 8}, {12, 5}, {16, 2}} {
		keys := allPlacements(c.n, c.k)
		require.Equal(t, Size(c.n, c.k), int64(len(keys)))
		r := NewRanker(c.n, c.k)
		pos := make([]uint8, c.k)
		for i, key := range keys {
			want := values(key, c.k)
			require.Equal(t, uint64(i), RankKey(key, c.n, c.k), "n=%d k=%d %#x", c.n, c.k, key)
			require.Equal(t, uint64(i), r.Rank(key))
			require.Equal(t, i, Rank(want, c.n))
			used := Unrank(i, pos, c.n)
			require.Equal(t, want, pos)
			var u uint32
			for _, v := range want {
				u |= 1 << v
			}
			require.Equal(t, u, used)
			fresh := NewPrefix(r)
			fresh.SetRank(uint64(i))
			require.Equal(t, key, fresh.Key())
		}
	}
}

// Digit and SelectFree invert each other, and the Ranker's table select
// agrees with SelectFree.
func TestDigitAndSelectFree(t *testing.T) {
	r := NewRanker(16, 16)
	rng := rand.New(rand.NewPCG(3, 4))
	for range 5000 {
		used := uint32(rng.Uint64()) & 0xffff
		for d := 0; d < 16-popcount(used); d++ {
			v := SelectFree(used, d)
			require.Less(t, v, 16)
			require.Zero(t, used&(1<<v))
			require.Equal(t, d, Digit(used, uint(v)))
			require.Equal(t, v, r.selectFree(used, uint64(d)))
		}
	}
}

// valid reports whether key holds k distinct values below n.
func valid(key uint64, n, k int) bool {
	var used uint32
	for _, v := range values(key, k) {
		if int(v) >= n || used&(1<<v) != 0 {
			return false
		}
		used |= 1 << v
	}
	return true
}

func popcount(x uint32) int {
	n := 0
	for ; x != 0; x &= x - 1 {
		n++
	}
	return n
}

// The Prefix unranks from the previous placement in any order, and its
// incremental rank from a parent agrees with the full one for any
// placement, and for a parent's successor (one value replaced).
func TestPrefix(t *testing.T) {
	for _, c := range []struct{ n, k int }{{6, 3}, {9, 4}, {8, 7}, {12, 5}} {
		r := NewRanker(c.n, c.k)
		keys := allPlacements(c.n, c.k)
		rng := rand.New(rand.NewPCG(uint64(c.n), uint64(c.k)))
		p := NewPrefix(r)
		for range 2000 {
			i := rng.IntN(len(keys))
			p.SetRank(uint64(i))
			require.Equal(t, keys[i], p.Key())
			require.Equal(t, uint64(i), p.Rank(keys[i]))
		}
		for range 2000 {
			p.Set(keys[rng.IntN(len(keys))])
			q := keys[rng.IntN(len(keys))]
			require.Equal(t, r.Rank(q), p.Rank(q))
			sh := 4 * uint(rng.IntN(c.k))
			q = p.Key()&^(15<<sh) | uint64(rng.IntN(c.n))<<sh
			if valid(q, c.n, c.k) {
				require.Equal(t, r.Rank(q), p.Rank(q))
			}
		}
	}
}

// The reciprocals divide every rank of up to 16 values exactly.
func TestRankerDiv(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	top := uint64(Size(16, 16)) // 16! < 2^45
	for n := 2; n <= 16; n++ {
		r := NewRanker(n, n)
		for i := 0; i < n; i++ {
			for _, x := range []uint64{0, 1, top - 1, top, uint64(n - i), uint64(n-i) - 1, uint64(n-i)*1e9 - 1} {
				require.Equal(t, x/uint64(n-i), r.div(x, i), "%d/%d", x, n-i)
			}
			for range 10000 {
				x := rng.Uint64N(top)
				require.Equal(t, x/uint64(n-i), r.div(x, i), "%d/%d", x, n-i)
			}
		}
	}
}

// Rank and Unrank invert each other on large tables (sampled).
func TestRankRoundTrip(t *testing.T) {
	for _, nk := range [][2]int{{9, 1}, {9, 4}, {9, 8}, {16, 5}, {16, 12}} {
		n, k := nk[0], nk[1]
		pos := make([]uint8, k)
		size := int(Size(n, k))
		for r := 0; r < size; r += max(1, size/5000) {
			used := Unrank(r, pos, n)
			var u uint32
			for _, c := range pos {
				require.Less(t, int(c), n)
				require.Zero(t, u&(1<<c), "value repeated")
				u |= 1 << c
			}
			require.Equal(t, u, used)
			require.Equal(t, r, Rank(pos, n))
		}
	}
}

// The Odometer visits the placements in rank order, as Unrank gives them,
// from any starting rank.
func TestOdometerMatchesUnrank(t *testing.T) {
	for _, nm := range [][2]int{{9, 3}, {16, 7}, {15, 6}, {6, 0}} {
		n, m := nm[0], nm[1]
		want := make([]uint8, m)
		pos := make([]uint8, m)
		var before [MaxValues + 1]uint32
		size := int(Size(n, m))
		for _, start := range []int{0, 1, size / 3} {
			if start >= size {
				continue
			}
			o := Odometer{N: n, M: m}
			o.Seek(start)
			for r := start; r < min(start+3000, size); r++ {
				if r > start {
					o.Next()
				}
				o.Values(pos, &before)
				used := Unrank(r, want, n)
				require.Equal(t, want, pos, "n %d rank %d", n, r)
				require.Equal(t, used, before[m])
			}
		}
	}
}
