package pdb

import (
	"context"
	"fmt"
	"math/bits"
	"unsafe"

	"github.com/gapset/gapset/encode"
	"github.com/gapset/gapset/internal/hugemem"
	"github.com/gapset/gapset/internal/placement"
)

// Progress reports a finished BFS layer: cost, placements reached so far and
// the total.
type Progress func(layer int, reached, total int64)

// Build computes the database of one group of tiles on a rows x cols board:
// value[rank(p)] = fewest moves of the group's tiles bringing them home from
// placement p (ranked by placement.Rank), minimised over the blank's position.
//
// It is a breadth-first search over (placement, blank) states in which moving
// a group tile costs 1 and moving any other tile costs 0. Zero-cost moves only
// carry the blank around the region of free cells it is in, so a state is
// added together with its whole region and the layers are exact costs. The
// visited states of a placement are a bit mask over its free cells (the same
// order as the blank's digit in the placement-plus-blank rank), so memory is
// 4 bytes per placement with up to 8 free cells, else 8; the result's byte
// per placement is filled as the table is given back (on Linux, for tables
// of 64 MiB or more), so it adds little to the peak.
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
		return build[uint32](ctx, newGrid(rows, cols), group, workers, prog, false)
	}
	return build[uint64](ctx, newGrid(rows, cols), group, workers, prog, false)
}

type grid struct {
	n, cols           int
	notFirst, notLast uint32 // the cells outside the first, the last column
	all               uint32
	nb                [encode.MaxCells]uint32
}

func newGrid(rows, cols int) *grid {
	g := &grid{n: rows * cols, cols: cols, all: 1<<(rows*cols) - 1}
	for c := 0; c < g.n; c++ {
		if c%cols != 0 {
			g.notFirst |= 1 << c
		}
		if c%cols != cols-1 {
			g.notLast |= 1 << c
		}
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

// freeCells are tables over the sets of free cells of a placement (masks
// with f bits set): id numbers them densely, and for the j-th free cell
// (counted from cell 0) of mask number i, cell[i*f+j] is the cell and
// region[i*f+j] its region of free cells, compressed to bit positions
// counted among the free cells (the word's mask coding). They replace a
// region search and a software PDEP per state, and fit in L2: with f = 8 on
// 16 cells, 12,870 masks.
type freeCells struct {
	f      int
	id     []uint16
	cell   []uint8
	region []uint16
}

func newFreeCells(g *grid, f int) *freeCells {
	t := &freeCells{f: f, id: make([]uint16, g.all+1)}
	for free := uint32(0); free <= g.all; free++ {
		if bits.OnesCount32(free) != f {
			continue
		}
		t.id[free] = uint16(len(t.cell) / f)
		for x := free; x != 0; x &= x - 1 {
			c := bits.TrailingZeros32(x)
			t.cell = append(t.cell, uint8(c))
			t.region = append(t.region, uint16(compress(g.region(c, free), free)))
		}
	}
	return t
}

// search is the state of one build. A placement's search state is one word
// (see word), so a generated placement costs one cache miss and workers
// update it with one compare-and-swap.
type search[W word] struct {
	g      *grid
	fc     *freeCells
	n, k   int
	last   int // radix of the last tile's digit: a block of placements sharing the other tiles
	blocks int
	weight []int // weight[i]: place value of tile i's digit in the rank
	st     []W
	lay    layout[W]
	// todo[p] marks the ranks holding states of a layer of parity p, so
	// sparse layers skip most of the table.
	todo [2]marks
	// vals, when set (BuildBlank), keeps every state's value: one plus it
	// at rank r*f + j for placement r with the blank on its j-th free cell
	// (the placement-plus-blank rank), 0 while not reached. A region's
	// entries are written by the one worker whose compare-and-swap adds it.
	vals []uint8
}

// chunkBlocks is the unit of work handed to a worker.
const chunkBlocks = 256

// maxLayer keeps values below 255, whose complement marks "not reached".
const maxLayer = 254

// build runs the search. With blank it returns the values of the
// (placement, blank) states, one plus each, at the placement-plus-blank
// rank (see search.vals), and the step is 1; else the table of Build.
func build[W word](ctx context.Context, g *grid, group []uint8, workers int, prog Progress, blank bool) ([]uint8, int, error) {
	n, k := g.n, len(group)
	total := Entries(n, k)
	st, free, release := hugemem.Alloc[W](total)
	defer free()
	s := &search[W]{g: g, fc: newFreeCells(g, n-k), n: n, k: k, last: n - k + 1, st: st, lay: newLayout[W]()}
	if blank {
		s.vals = make([]uint8, total*(n-k))
		hugemem.Hint(s.vals)
	}
	s.blocks = total / s.last
	s.weight = make([]int, k)
	for i, w := k-1, 1; i >= 0; i-- {
		s.weight[i] = w
		w *= n - i
	}
	chunks := (s.blocks + chunkBlocks - 1) / chunkBlocks
	s.todo = [2]marks{newMarks(total), newMarks(total)}
	ws := make([]*worker, workers)
	for i := range ws {
		ws[i] = &worker{pos: make([]uint8, k)}
	}

	// Start: tiles at home, blank region around the blank's home (cell n-1).
	pos := ws[0].pos
	var used uint32
	for i, t := range group {
		pos[i] = t - 1
		used |= 1 << (t - 1)
	}
	r0 := placement.Rank(pos, n)
	m0 := W(compress(g.region(n-1, g.all&^used), g.all&^used))
	st[r0] = m0 | m0<<s.lay.shift(0) | s.lay.value(0)
	s.keep(r0, m0, 0)
	s.todo[0].set(r0)
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
		todo := s.todo[layer&1]
		parallel(workers, chunks, func(w, c int) {
			if todo.any(c*chunkBlocks*s.last, min((c+1)*chunkBlocks, s.blocks)*s.last) {
				s.expandChunk(ws[w], c, layer)
				ws[w].expanded = true
			}
		})
		// Every state of this layer is expanded: its marks are free for
		// the layer after next.
		todo.clear()
		expanded := false
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
	if blank {
		return s.vals, 1, nil
	}
	// The values, read in spans of 2 MiB of the table, each given back to
	// the OS once read: the result and the table are not in memory whole at
	// the same time, so the result costs no memory beyond the table's.
	dist := make([]uint8, total)
	span := 2 << 20 / int(unsafe.Sizeof(W(0)))
	parallel(workers, (total+span-1)/span, func(_, c int) {
		lo, hi := c*span, min((c+1)*span, total)
		for i := lo; i < hi; i++ {
			dist[i] = s.lay.valueOf(st[i])
		}
		release(lo, hi)
	})
	return dist, step, nil
}

// child is a generated state waiting for its entry: rank of its placement,
// its free cells, the blank's position among them (the cell the moved tile
// left) and the parent's value.
type child struct {
	r     int
	nfree uint16
	j     uint8
	dp    uint8
}

// maxKids bounds the children of a block: each of its at most 16
// placements has at most 4 moves for each of min(k, n-k) <= 8 tiles or free
// cells.
const maxKids = 16 * 4 * 8

// worker is one goroutine's scratch space and tallies.
type worker struct {
	pos      []uint8
	odo      placement.Odometer          // the block's first k-1 tiles
	before   [encode.MaxCells + 1]uint32 // before[i]: cells of tiles 0..i-1
	wAt      [encode.MaxCells]int        // weight of the tile on a cell, 0 on a free cell
	kids     [2][maxKids]child           // the children of a block, and of the block before
	reached  int64
	step     int
	expanded bool
	sink     uint64
}

// expandChunk expands the states of the current layer in one chunk of
// blocks.
func (s *search[W]) expandChunk(w *worker, c, layer int) {
	g, k, lay, fc := s.g, s.k, s.lay, s.fc
	f, cols := fc.f, g.cols
	full := uint32(1)<<f - 1
	cs := lay.shift(layer)
	lo, hi := c*chunkBlocks, min((c+1)*chunkBlocks, s.blocks)
	w.odo = placement.Odometer{N: s.n, M: k - 1}
	w.odo.Seek(lo)
	w.wAt = [encode.MaxCells]int{}
	cur, prevN := 0, 0
	for b := lo; b < hi; b++ {
		if b > lo {
			w.odo.Next()
		}
		if !s.todo[layer&1].any(b*s.last, (b+1)*s.last) {
			continue
		}
		blk := s.st[b*s.last : (b+1)*s.last]
		var or W
		for i := range blk {
			or |= load(&blk[i])
		}
		if or>>cs&lay.mask == 0 {
			continue
		}
		for i := 0; i < k-1; i++ {
			w.wAt[w.pos[i]] = 0
		}
		w.odo.Values(w.pos, &w.before)
		for i := 0; i < k-1; i++ {
			w.wAt[w.pos[i]] = s.weight[i]
		}
		prefUsed := w.before[k-1]
		nk, kids := 0, &w.kids[cur]
		for d := range blk {
			x := load(&blk[d])
			m := uint32(x >> cs & lay.mask)
			if m == 0 {
				continue
			}
			and(&blk[d], ^(lay.mask << cs))
			dp := lay.valueOf(x)
			cell := placement.SelectFree(prefUsed, d)
			w.wAt[cell] = 1 // the last tile's weight
			used := prefUsed | 1<<cell
			free := g.all &^ used
			cells := fc.cell[int(fc.id[free])*f:][:f]
			blanks := free // the usual case: one region, or all of them
			if m != full {
				blanks = 0
				for ; m != 0; m &= m - 1 {
					blanks |= 1 << cells[bits.TrailingZeros32(m)]
				}
			}
			r := b*s.last + d
			// The tiles next to a blank cell move into it: right, left,
			// down, up. Along a row the rank changes by the tile's weight.
			for t := used & (blanks >> 1) & g.notLast; t != 0; t &= t - 1 {
				a := bits.TrailingZeros32(t)
				kids[nk] = newChild(free, a, a+1, r+w.wAt[a], dp)
				nk++
			}
			for t := used & (blanks << 1) & g.notFirst; t != 0; t &= t - 1 {
				a := bits.TrailingZeros32(t)
				kids[nk] = newChild(free, a, a-1, r-w.wAt[a], dp)
				nk++
			}
			for t := used & (blanks >> cols); t != 0; t &= t - 1 {
				a := bits.TrailingZeros32(t)
				kids[nk] = newChild(free, a, a+cols, r+w.column(w.wAt[a], a, cols), dp)
				nk++
			}
			for t := used & (blanks << cols); t != 0; t &= t - 1 {
				a := bits.TrailingZeros32(t)
				kids[nk] = newChild(free, a, a-cols, r-w.column(w.wAt[a], a-cols, cols), dp)
				nk++
			}
			w.wAt[cell] = 0
		}
		// Ask for the children's entries now and update them after the
		// next block is generated: the cache misses overlap, with each
		// other and with that work.
		prefetchKids(unsafe.Pointer(&s.st[0]), uint(bits.TrailingZeros(uint(unsafe.Sizeof(W(0))))), kids[:nk])
		s.visit(w, w.kids[cur^1][:prevN], layer)
		cur, prevN = cur^1, nk
	}
	s.visit(w, w.kids[cur^1][:prevN], layer)
}

// newChild is the child reached when the tile on cell from moves to the
// free cell to, of rank r.
func newChild(free uint32, from, to, r int, dp uint8) child {
	nfree := free ^ (1<<to | 1<<from)
	return child{r: r, nfree: uint16(nfree), j: uint8(bits.OnesCount32(nfree & (1<<from - 1))), dp: dp}
}

// column is the change of rank when a tile of weight wi moves down from
// cell lo to lo+cols (the negative when it moves up to lo): its digit grows
// by cols less the earlier tiles' cells passed over, and each later tile on
// a cell passed over gains one in its digit. A tile is earlier exactly when
// its weight is larger. No branch depends on the tiles.
func (w *worker) column(wi, lo, cols int) int {
	d := wi * cols
	for x := lo + 1; x < lo+cols; x++ {
		wx := w.wAt[x]
		earlier := (wi - wx) >> 63 // -1 when wx > wi
		d += wx&^earlier - wi&earlier
	}
	return d
}

// visit adds the blank regions of the children not seen yet to the next
// layer and updates the step with the children's values.
func (s *search[W]) visit(w *worker, kids []child, layer int) {
	lay := s.lay
	step := w.step
	for i := range kids {
		c := &kids[i]
		old := load(&s.st[c.r])
		if old>>c.j&1 == 0 {
			old = s.add(w, c, old, layer)
		}
		x := int(lay.valueOf(old)) - int(c.dp)
		step = max(step, x, -x)
	}
	w.step = step
}

// add adds a child's blank region to the next layer (old is its entry as
// read) and returns its new entry.
func (s *search[W]) add(w *worker, c *child, old W, layer int) W {
	lay := s.lay
	e := &s.st[c.r]
	reg := W(s.fc.region[int(s.fc.id[c.nfree])*s.fc.f+int(c.j)])
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
			s.keep(c.r, reg, layer+1)
			s.todo[(layer+1)&1].set(c.r)
			return nw
		}
		if old = load(e); old>>c.j&1 != 0 {
			return old
		}
	}
}

// keep records value v for the blank cells reg (the word's mask coding) of
// placement r, when the search keeps every state's value.
func (s *search[W]) keep(r int, reg W, v int) {
	if s.vals == nil {
		return
	}
	row := s.vals[r*s.fc.f:][:s.fc.f]
	for m := uint64(reg); m != 0; m &= m - 1 {
		row[bits.TrailingZeros64(m)] = uint8(v + 1)
	}
}
