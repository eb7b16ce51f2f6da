package ida

import (
	"math/rand/v2"
	"testing"

	"github.com/gapset/gapset/encode"
)

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
