package ida

import (
	"math/rand/v2"
	"testing"

	"github.com/gapset/gapset/encode"
	"github.com/gapset/gapset/memset"
	"github.com/stretchr/testify/require"
)

// The combined evaluator's keys (the board's and its mirror image's) follow
// the position through pushes and pops along a random walk.
func TestCombinedKeysFollowThePath(t *testing.T) {
	h := Combined{Base: WalkingDistance{}, Gap: Gap{Levels: []Set{memset.New(nil, 8)}}, Mirror: true}
	ev, err := h.NewEvaluator(4, 4)
	require.NoError(t, err)
	ce := ev.(*combinedEval)
	b := korf(t, 12)
	p := Position{Rows: 4, Cols: 4, Blank: b.Blank(), MD: b.Manhattan()}
	copy(p.Tiles[:], b.Tiles)
	ev.Root(&p)
	rng := rand.New(rand.NewPCG(2, 2))
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
		require.Equal(t, p.Key(), ce.key, "step %d", i)
		require.Equal(t, ce.mirrorKey(&p), ce.rkey, "step %d", i)
	}
}
