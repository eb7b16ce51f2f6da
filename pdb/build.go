package pdb

import (
	"context"
	"fmt"
	"math/bits"

	"github.com/gapset/gapset/encode"
)

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
// workers goroutines share each layer; the result does not depend on their
// number.
func Build(ctx context.Context, rows, cols int, group []uint8, workers int, prog Progress) (table []uint8, step int, err error) {
	if err := encode.CheckSize(rows, cols); err != nil {
		return nil, 0, err
	}
	n := rows * cols
	k := len(group)
	if k == 0 || k >= n {
		return nil, 0, fmt.Errorf("group of %d tiles on %d cells", k, n)
	}
	workers = max(workers, 1)
	if n-k <= 8 {
		return build[uint32](ctx, newGrid(rows, cols), group, workers, prog)
	}
	return build[uint64](ctx, newGrid(rows, cols), group, workers, prog)
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

// search is the state of one build. A placement's search state is one word
// (see word), so a generated placement costs one cache miss and workers
// update it with one compare-and-swap.
type search[W word] struct {
	g      *grid
	n, k   int
	last   int // radix of the last tile's digit: a block of placements sharing the other tiles
	blocks int
	weight []int // weight[i]: place value of tile i's digit in the rank
	st     []W
	lay    layout[W]
	// todo[p][c] is set when chunk c of blocks holds states of a layer of
	// parity p, so sparse layers skip most of the table.
	todo [2][]flag
}

// chunkBlocks is the unit of work handed to a worker (and of todo).
const chunkBlocks = 256

// maxLayer keeps values below 255, whose complement marks "not reached".
const maxLayer = 254

func build[W word](ctx context.Context, g *grid, group []uint8, workers int, prog Progress) ([]uint8, int, error) {
	n, k := g.n, len(group)
	total := Entries(n, k)
	st, free := alloc[W](total)
	defer free()
	s := &search[W]{g: g, n: n, k: k, last: n - k + 1, st: st, lay: newLayout[W]()}
	s.blocks = total / s.last
	s.weight = make([]int, k)
	for i, w := k-1, 1; i >= 0; i-- {
		s.weight[i] = w
		w *= n - i
	}
	chunks := (s.blocks + chunkBlocks - 1) / chunkBlocks
	s.todo = [2][]flag{make([]flag, chunks), make([]flag, chunks)}
	ws := make([]*worker, workers)
	for i := range ws {
		ws[i] = &worker{pos: make([]uint8, k), kids: make([]child, 0, s.last*4*k)}
	}

	// Start: tiles at home, blank region around the blank's home (cell n-1).
	pos := ws[0].pos
	var used uint32
	for i, t := range group {
		pos[i] = t - 1
		used |= 1 << (t - 1)
	}
	r0 := rank(pos, n)
	m0 := W(compress(g.region(n-1, g.all&^used), g.all&^used))
	st[r0] = m0 | m0<<s.lay.shift(0) | s.lay.value(0)
	s.todo[0][r0/s.last/chunkBlocks].Store(1)
	reached := int64(1)

	// Every move of a group tile is generated once from each end, when that
	// state is expanded, and both ends' values are final by then (the new end
	// is at most one layer later): so step is exact.
	for layer := 0; ; layer++ {
		if err := ctx.Err(); err != nil {
			return nil, 0, err
		}
		if prog != nil {
			prog(layer, reached, int64(total))
		}
		if layer == maxLayer {
			return nil, 0, fmt.Errorf("more than %d layers", maxLayer)
		}
		expanded := false
		parallel(workers, chunks, func(w, c int) {
			if s.todo[layer&1][c].Load() != 0 {
				s.todo[layer&1][c].Store(0)
				s.expandChunk(ws[w], c, layer)
				ws[w].expanded = true
			}
		})
		for _, w := range ws {
			reached += w.reached
			w.reached = 0
			expanded = expanded || w.expanded
			w.expanded = false
		}
		if !expanded {
			break
		}
	}
	// With every tile in the group only the solvable half is reachable.
	if reached != int64(total) && !(k == n-1 && 2*reached == int64(total)) {
		return nil, 0, fmt.Errorf("internal error: %d of %d placements reached", reached, total)
	}
	step := 0
	for _, w := range ws {
		step = max(step, w.step)
	}
	dist := make([]uint8, total)
	parallel(workers, chunks, func(_, c int) {
		lo, hi := c*chunkBlocks*s.last, min((c+1)*chunkBlocks, s.blocks)*s.last
		for i := lo; i < hi; i++ {
			dist[i] = s.lay.valueOf(st[i])
		}
	})
	return dist, step, nil
}

// child is a generated state waiting for its entry: rank of its placement,
// its free cells, the cell the moved tile left (where the blank now is) and
// the parent's value.
type child struct {
	r     int
	nfree uint32
	from  uint8
	dp    uint8
}

// worker is one goroutine's scratch space and tallies.
type worker struct {
	pos      []uint8
	odo      odometer                    // the block's first k-1 tiles
	before   [encode.MaxCells + 1]uint32 // before[i]: cells of tiles 0..i-1
	tileAt   [encode.MaxCells]int8       // tile index at a cell (where pos puts one)
	kids     []child
	reached  int64
	step     int
	expanded bool
	sink     uint64
}

// expandChunk expands the states of the current layer in one chunk of blocks.
func (s *search[W]) expandChunk(w *worker, c, layer int) {
	g, n, k, lay := s.g, s.n, s.k, s.lay
	cs := lay.shift(layer)
	lo, hi := c*chunkBlocks, min((c+1)*chunkBlocks, s.blocks)
	w.odo = odometer{n: n, m: k - 1}
	w.odo.seek(lo)
	for b := lo; b < hi; b++ {
		if b > lo {
			w.odo.next()
		}
		blk := s.st[b*s.last : (b+1)*s.last]
		var or W
		for i := range blk {
			or |= load(&blk[i])
		}
		if or>>cs&lay.mask == 0 {
			continue
		}
		w.odo.cells(w.pos, &w.before)
		prefUsed := w.before[k-1]
		for i := 0; i < k-1; i++ {
			w.tileAt[w.pos[i]] = int8(i)
		}
		kids := w.kids[:0]
		for d := range blk {
			x := load(&blk[d])
			m := uint32(x >> cs & lay.mask)
			if m == 0 {
				continue
			}
			and(&blk[d], ^(lay.mask << cs))
			dp := lay.valueOf(x)
			cell := selectFree(prefUsed, d)
			w.pos[k-1] = uint8(cell)
			w.tileAt[cell] = int8(k - 1)
			used := prefUsed | 1<<cell
			w.before[k] = used
			free := g.all &^ used
			blanks := expand(m, free)
			r := b*s.last + d
			for i := 0; i < k; i++ {
				from := w.pos[i]
				for to := g.nb[from] & blanks; to != 0; to &= to - 1 {
					c := bits.TrailingZeros32(to)
					kids = append(kids, child{
						r:     childRank(r, s.weight[i], int(from), c, w.before[i], used&^w.before[i+1], &w.tileAt, s.weight),
						nfree: free&^(1<<c) | 1<<from, from: from, dp: dp})
				}
			}
		}
		// Read every child's entry before updating any: the reads do not
		// depend on each other, so their cache misses overlap.
		var sink W
		for i := range kids {
			sink |= load(&s.st[kids[i].r])
		}
		w.sink += uint64(sink)
		for i := range kids {
			s.visit(w, &kids[i], layer)
		}
		w.kids = kids
	}
}

// visit adds a child's blank region to the next layer unless it was seen,
// and updates the step with the child's value.
func (s *search[W]) visit(w *worker, c *child, layer int) {
	lay := s.lay
	e := &s.st[c.r]
	bit := W(1) << bits.OnesCount32(c.nfree&(1<<c.from-1))
	old := load(e)
	if old&bit == 0 {
		reg := W(compress(s.g.region(int(c.from), c.nfree), c.nfree))
		ns := lay.shift(layer + 1)
		for {
			nw := old | reg | reg<<ns
			if !lay.reached(old) {
				nw |= lay.value(layer + 1)
			}
			if cas(e, old, nw) {
				if !lay.reached(old) {
					w.reached++
				}
				if f := &s.todo[(layer+1)&1][c.r/s.last/chunkBlocks]; f.Load() == 0 {
					f.Store(1)
				}
				old = nw
				break
			}
			old = load(e)
			if old&bit != 0 {
				break
			}
		}
	}
	if x := int(lay.valueOf(old)) - int(c.dp); x > w.step {
		w.step = x
	} else if -x > w.step {
		w.step = -x
	}
}
