package ida

import (
	"maps"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/gapset/gapset/encode"
	"github.com/gapset/gapset/internal/slowtest"
)

// searchedBoards are the boards of a small board size and their BFS
// distances, in key order, for the tests that solve every board: all
// of them for boards of at most 20,160 (2x3, 2x4), and on larger ones (the
// 3x3 board's 181,440) every eighth plus every board of the two largest
// distances unless GAPSET_SLOW=1 asks for all of them.
func searchedBoards(rows, cols int) (keys []uint64, dist map[uint64]int) {
	dist = encode.Distances(rows, cols)
	far := slices.Max(slices.Collect(maps.Values(dist)))
	all := slowtest.On() || len(dist) <= 20160
	for i, key := range slices.Sorted(maps.Keys(dist)) {
		if all || i%8 == 0 || dist[key] >= far-1 {
			keys = append(keys, key)
		}
	}
	return keys, dist
}

// walkEvaluator plays 2000 random pushes and pops (one in three a pop) of a
// 4x4 position from Korf 12 through ev, after Root, calling check after each
// step: for tests that an evaluator's incremental state follows the path.
func walkEvaluator(t *testing.T, ev Evaluator, seed uint64, check func(step int, p *Position)) {
	b := korf(t, 12)
	p := Position{Rows: 4, Cols: 4, Blank: b.Blank(), MD: b.Manhattan()}
	copy(p.Tiles[:], b.Tiles)
	ev.Root(&p)
	rng := rand.New(rand.NewPCG(seed, seed))
	type step struct{ tile, from, to int }
	var path []step
	for i := 0; i < 2000; i++ {
		if len(path) > 0 && rng.IntN(3) == 0 {
			s := path[len(path)-1]
			path = path[:len(path)-1]
			p.Tiles[s.from], p.Tiles[s.to] = uint8(s.tile), 0
			p.Blank = s.to
			p.Depth--
			ev.Pop(&p, uint8(s.tile), s.from, s.to)
		} else {
			nb := encode.Neighbors(4, 4, p.Blank)
			c := nb[rng.IntN(len(nb))]
			s := step{int(p.Tiles[c]), c, p.Blank}
			p.Tiles[s.to], p.Tiles[s.from] = uint8(s.tile), 0
			p.Blank = s.from
			p.Depth++
			ev.Push(&p, uint8(s.tile), s.from, s.to, 1<<20)
			path = append(path, s)
		}
		check(i, &p)
	}
}
