package pdb

import (
	"context"
	"fmt"
	"math/bits"

	"github.com/gapset/gapset/encode"
)

// unknown marks a placement the search has not reached.
const unknown = 0xff

// Progress reports a finished BFS layer: cost, placements reached so far and
// the total.
type Progress func(layer int, reached, total int64)

// Build computes the database of one group of tiles on a rows x cols board:
// value[rank(placement)] = fewest moves of the group's tiles bringing them
// home, minimised over the blank's position.
//
// It is a breadth-first search over (placement, blank) states in which moving
// a group tile costs 1 and moving any other tile costs 0. Zero-cost moves only
// carry the blank around the region of free cells it is in, so a state is
// added together with its whole region and the layers are exact costs. The
// visited states of a placement are a bit mask over its free cells (the same
// order as the blank's digit in the placement-plus-blank rank), so memory is
// 4 bytes per placement with up to 8 free cells, else 8, plus one byte for
// the result.
//
// It also returns the table's step: the largest change of value along one
// move of a group tile. Values are minimised over the blank, so a move can
// change them by more than 1 (the blank may be walled into another region);
// lower-bound-check skipping must know by how much.
//
// workers > 1 runs the search on that many goroutines when the group leaves
// at most 8 free cells (the large databases); the result is the same.
func Build(ctx context.Context, rows, cols int, group []uint8, workers int, prog Progress) (table []uint8, step int, err error) {
	if err := encode.CheckSize(rows, cols); err != nil {
		return nil, 0, err
	}
	n := rows * cols
	k := len(group)
	if k == 0 || k >= n {
		return nil, 0, fmt.Errorf("group of %d tiles on %d cells", k, n)
	}
	if n-k <= 8 && k >= 2 && workers > 1 {
		return buildParallel(ctx, rows, cols, group, prog, workers)
	}
	if n-k <= 8 {
		return build[uint8](ctx, rows, cols, group, prog)
	}
	return build[uint16](ctx, rows, cols, group, prog)
}

type grid struct {
	n   int
	all uint32
	nb  [encode.MaxCells]uint32
}

func newGrid(rows, cols int) *grid {
	g := &grid{n: rows * cols, all: 1<<(rows*cols) - 1}
	for c := 0; c < g.n; c++ {
		for _, x := range encode.Neighbors(rows, cols, c) {
			g.nb[c] |= 1 << x
		}
	}
	return g
}

// region returns the cells of free connected to cell c (c in free).
func (g *grid) region(c int, free uint32) uint32 {
	r := uint32(1) << c
	for {
		nr := r
		for s := r; s != 0; s &= s - 1 {
			nr |= g.nb[bits.TrailingZeros32(s)]
		}
		nr &= free
		if nr == r {
			return r
		}
		r = nr
	}
}

// entry is the search state of one placement, kept together so that a
// generated placement costs one cache miss: visited blank cells, the blank
// cells of the layers being expanded and generated (by layer parity) and the
// value.
type entry[M uint8 | uint16] struct {
	visited M
	layer   [2]M
	dist    uint8
}

func build[M uint8 | uint16](ctx context.Context, rows, cols int, group []uint8, prog Progress) ([]uint8, int, error) {
	g := newGrid(rows, cols)
	n, k := g.n, len(group)
	total := Entries(n, k)
	st := make([]entry[M], total)
	for i := range st {
		st[i].dist = unknown
	}

	// Start: tiles at home, blank region around the blank's home (cell n-1).
	pos := make([]uint8, k)
	var used uint32
	for i, t := range group {
		pos[i] = t - 1
		used |= 1 << (t - 1)
	}
	free := g.all &^ used
	r0 := rank(pos, n)
	m0 := M(compress(g.region(n-1, free), free))
	st[r0].visited, st[r0].layer[0], st[r0].dist = m0, m0, 0
	reached := int64(1)

	// Every move of a group tile is generated once from each end, when that
	// state is expanded, and both ends' values are final by then (the new end
	// is at most one layer later): so step is exact.
	step := 0
	last := n - k + 1 // radix of the last tile's digit
	for layer := 0; ; layer++ {
		if err := ctx.Err(); err != nil {
			return nil, 0, err
		}
		if prog != nil {
			prog(layer, reached, int64(total))
		}
		any := false
		nd := uint8(layer + 1)
		cl, nl := layer&1, (layer+1)&1
		for base := 0; base < total; base += last {
			blk := st[base : base+last]
			nz := false
			for i := range blk {
				if blk[i].layer[cl] != 0 {
					nz = true
					break
				}
			}
			if !nz {
				continue
			}
			any = true
			prefUsed := uint32(0)
			if k > 1 {
				prefUsed = unrank(base/last, pos[:k-1], n)
			}
			for d := range blk {
				m := blk[d].layer[cl]
				if m == 0 {
					continue
				}
				blk[d].layer[cl] = 0
				dp := int(blk[d].dist)
				c := selectFree(prefUsed, d)
				pos[k-1] = uint8(c)
				used := prefUsed | 1<<c
				free := g.all &^ used
				blanks := expand(uint32(m), free)
				for i := 0; i < k; i++ {
					from := int(pos[i])
					for to := g.nb[from] & blanks; to != 0; to &= to - 1 {
						b := bits.TrailingZeros32(to)
						pos[i] = uint8(b)
						e := &st[rank(pos, n)]
						nfree := free&^(1<<b) | 1<<from
						bit := M(1) << bits.OnesCount32(nfree&(1<<from-1))
						if e.visited&bit == 0 {
							reg := M(compress(g.region(from, nfree), nfree))
							if e.visited == 0 {
								e.dist = nd
								reached++
							}
							e.visited |= reg
							e.layer[nl] |= reg
						}
						if x := int(e.dist) - dp; x > step {
							step = x
						} else if -x > step {
							step = -x
						}
					}
					pos[i] = uint8(from)
				}
			}
		}
		if !any {
			break
		}
	}
	// With every tile in the group only the solvable half is reachable.
	if reached != int64(total) && !(k == n-1 && 2*reached == int64(total)) {
		return nil, 0, fmt.Errorf("internal error: %d of %d placements reached", reached, total)
	}
	dist := make([]uint8, total)
	for i := range st {
		dist[i] = st[i].dist
	}
	return dist, step, nil
}
