package gapdb

import (
	"github.com/gapset/gapset/encode"
	"github.com/gapset/gapset/internal/placement"
)

// projector takes a board's key (or a key projected onto the last cells,
// when the database's are the last ones too) to its entry: the cells'
// nibbles gathered (encode.Projector, the one home of gathering) and
// ranked.
type projector struct {
	n, k int
	encode.Projector
}

func newProjector(n int, cells []int) projector {
	return projector{n: n, k: len(cells), Projector: encode.CellSetOf(cells).Projector(n)}
}

// pattern gathers the cells' nibbles.
func (p *projector) pattern(key uint64) uint64 { return p.Gather(key) }

// index is the entry of the board with this key.
// index is the pattern's rank among the n!/(n-k)! placements, as
// memset.Ranked ranks its patterns (the one ranking: internal/placement).
func (p *projector) index(key uint64) uint64 { return placement.RankKey(p.pattern(key), p.n, p.k) }
