package bdd

import "math/bits"

// The cell-wise layout: when the order tests the four bits of each cell
// one after the other (every named order but the bit planes), four levels
// of the BDD collapse into one 16-way node, exactly one 64-byte cache line,
// indexed by the cell's nibble. A query then makes one memory access per
// cell instead of one per bit.

type cnode [16]uint32

// cellShifts returns, for each group of four levels, the shift of the
// nibble it tests, or nil when the order does not keep cells together.
func cellShifts(o Order) []uint8 {
	if len(o.Bits)%4 != 0 {
		return nil
	}
	var sh []uint8
	for j := 0; j < len(o.Bits); j += 4 {
		nib := o.Bits[j] / 4
		for _, b := range o.Bits[j : j+4] {
			if b/4 != nib {
				return nil
			}
		}
		sh = append(sh, 4*nib)
	}
	return sh
}

// buildCells turns a BDD into the 16-way layout. A 16-way node stands for a
// BDD node met at the start of cell step j; it is usually a node of that
// step's first levels, or one further down when whole cells are skipped
// (those few get a map). Children are numbered in depth-first order.
func buildCells(d *Diagram, shifts []uint8) (nodes []cnode, root uint32) {
	steps := len(shifts)
	own := make([]uint32, len(d.Nodes)) // BDD node met at its own step -> id
	far := map[uint64]uint32{}          // (node, step) for skipped cells -> id
	nodes = make([]cnode, 2, 2+cellCount(d))
	level := func(n uint32) int { return int(d.Nodes[n].Level) }
	lookup := func(n uint32, j int) (uint32, bool) {
		if level(n)/4 == j {
			return own[n], own[n] != 0
		}
		id, ok := far[uint64(n)<<8|uint64(j)]
		return id, ok
	}
	assign := func(n uint32, j int) uint32 {
		id := uint32(len(nodes))
		nodes = append(nodes, cnode{})
		if level(n)/4 == j {
			own[n] = id
		} else {
			far[uint64(n)<<8|uint64(j)] = id
		}
		return id
	}
	// child walks the four levels of step j from BDD node n with nibble v.
	child := func(n uint32, j int, v uint64) uint32 {
		for n > 1 && level(n) < 4*j+4 {
			nd := d.Nodes[n]
			if v>>(d.Order.Bits[nd.Level]%4)&1 != 0 {
				n = nd.Hi
			} else {
				n = nd.Lo
			}
		}
		return n
	}
	if d.Root < 2 {
		return nodes, d.Root
	}
	type item struct {
		n  uint32
		j  int
		id uint32
	}
	root = assign(d.Root, 0)
	stack := []item{{d.Root, 0, root}}
	for len(stack) > 0 {
		it := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		var kids cnode
		var fresh []item
		for v := uint64(0); v < 16; v++ {
			m := child(it.n, it.j, v)
			if m < 2 || it.j+1 >= steps {
				kids[v] = m // a full walk always ends in a terminal
				continue
			}
			id, ok := lookup(m, it.j+1)
			if !ok {
				id = assign(m, it.j+1)
				fresh = append(fresh, item{m, it.j + 1, id})
			}
			kids[v] = id
		}
		nodes[it.id] = kids
		for i := len(fresh) - 1; i >= 0; i-- {
			stack = append(stack, fresh[i])
		}
	}
	return nodes, root
}

// cellCount is the number of 16-way nodes buildCells makes, counted in one
// pass over the BDD so that their array is allocated once (it is the
// biggest thing a query structure holds; growing it by copies would
// double it for a while): the BDD nodes where a path enters a cell step
// (the root; a child in a later step than its parent), and the steps a
// child skipping whole cells is entered at before its own.
func cellCount(d *Diagram) int {
	if d.Root < 2 {
		return 0
	}
	step := func(r uint32) int { return int(d.Nodes[r].Level) / 4 }
	entry := make([]uint64, (len(d.Nodes)+63)/64)
	far := map[uint64]struct{}{}
	enter := func(c uint32, from int) { // c reached from the end of step from-1
		if c < 2 || step(c) < from {
			return
		}
		for j := from; j < step(c); j++ {
			far[uint64(c)<<8|uint64(j)] = struct{}{}
		}
		entry[c/64] |= 1 << (c % 64)
	}
	enter(d.Root, 0)
	for i := 2; i < len(d.Nodes); i++ {
		nd := d.Nodes[i]
		next := int(nd.Level)/4 + 1
		enter(nd.Lo, next)
		enter(nd.Hi, next)
	}
	n := len(far)
	for _, w := range entry {
		n += bits.OnesCount64(w)
	}
	return n
}
