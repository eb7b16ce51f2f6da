package bdd

import (
	"fmt"
	"math/bits"
)

// reorderer holds a BDD in a form that allows swapping adjacent levels in
// place (Rudell's swap): nodes keep their ids while their level and
// children change, so the parents of a node never need touching. Each level
// keeps a list of its node ids; reference counts find the nodes a swap
// leaves dead. No unique table is kept between swaps: a swap of levels i and
// i+1 only ever creates nodes on level i+1, and it builds a hash index of
// that level for its own use.
type reorderer struct {
	L     int
	vars  []uint8    // vars[level]: key bit tested at that level
	n     []rnode    // nodes by id; 0 and 1 the terminals (level L)
	byLv  [][]uint32 // node ids per level
	free  []uint32   // dead ids for reuse
	live  int
	root  uint32
	count uint64 // members, for the export
	slots []uint32
	swaps int
	// reuse is the level whose dead nodes' ids may be reused: those of the
	// level a swap is rebuilding. Nodes dying elsewhere would leave stale
	// entries in their level's list, so their ids are not reused.
	reuse uint8
}

// rnode is one node of the reorderer: all its fields in 16 bytes, so that
// a visit costs one cache miss (the swaps are bound by them).
type rnode struct {
	lo, hi, refs uint32
	level        uint8 // L for the terminals, L+1 when dead
}

// newReorderer copies a BDD (not a ZDD: level swaps keep the BDD rule only).
func newReorderer(d *Diagram) (*reorderer, error) {
	if d.ZDD {
		return nil, fmt.Errorf("reordering works on BDDs, not ZDDs")
	}
	L := d.Order.Vars()
	n := len(d.Nodes)
	r := &reorderer{L: L, vars: append([]uint8(nil), d.Order.Bits...),
		n:    make([]rnode, n),
		byLv: make([][]uint32, L), live: n - 2, root: d.Root, count: d.Count, reuse: uint8(L + 2)}
	r.n[False].level, r.n[True].level = uint8(L), uint8(L)
	for i := 2; i < n; i++ {
		nd := d.Nodes[i]
		r.n[i].lo, r.n[i].hi, r.n[i].level = nd.Lo, nd.Hi, nd.Level
		r.n[nd.Lo].refs++
		r.n[nd.Hi].refs++
		r.byLv[nd.Level] = append(r.byLv[nd.Level], uint32(i))
	}
	r.n[d.Root].refs++
	return r, nil
}

// size is the number of live decision nodes.
func (r *reorderer) size() int { return r.live }

// levelSizes returns the node count of every level.
func (r *reorderer) levelSizes() []int {
	s := make([]int, r.L)
	for i, l := range r.byLv {
		s[i] = len(l)
	}
	return s
}

func (r *reorderer) order(name string) Order {
	return Order{Name: name, Bits: append([]uint8(nil), r.vars...)}
}

func (r *reorderer) newNode(lv uint8, lo, hi uint32) uint32 {
	var id uint32
	if n := len(r.free); n > 0 {
		id = r.free[n-1]
		r.free = r.free[:n-1]
		r.n[id] = rnode{lo: lo, hi: hi, level: lv}
	} else {
		id = uint32(len(r.n))
		r.n = append(r.n, rnode{lo: lo, hi: hi, level: lv})
	}
	r.n[lo].refs++
	r.n[hi].refs++
	r.live++
	return id
}

// deref drops one reference to n and frees it (and, in turn, what only it
// kept alive) when none is left. Freed nodes stay in their level's list
// until the next swap of that level filters them out (refs 0, level L+1).
func (r *reorderer) deref(n uint32) {
	for n > 1 {
		nd := &r.n[n]
		nd.refs--
		if nd.refs != 0 {
			return
		}
		lo, hi := nd.lo, nd.hi
		if nd.level == r.reuse {
			r.free = append(r.free, n)
		}
		nd.level = uint8(r.L + 1) // dead
		r.live--
		r.deref(lo)
		n = hi
	}
}

// cof returns the cofactors of n with respect to the variable at level lv.
func (r *reorderer) cof(n uint32, lv uint8) (uint32, uint32) {
	if nd := &r.n[n]; nd.level == lv {
		return nd.lo, nd.hi
	}
	return n, n
}

func slotHash(lo, hi uint32) uint64 {
	h := uint64(lo)<<32 | uint64(hi)
	h *= 0x9E3779B97F4A7C15
	return h ^ h>>31
}

// swap exchanges the variables at levels i and i+1.
func (r *reorderer) swap(i int) {
	r.swaps++
	x, y := uint8(i), uint8(i+1)
	A := r.byLv[i][:0:0]
	for _, n := range r.byLv[i] {
		if r.n[n].level == x {
			A = append(A, n)
		}
	}
	B := r.byLv[i+1][:0:0]
	for _, n := range r.byLv[i+1] {
		if r.n[n].level == y {
			B = append(B, n)
		}
	}
	// The new level i+1 tests the old x. Index it (open addressing over
	// node ids) with room for the moved nodes and two new ones per
	// rewritten node.
	need := 2 * (len(A) + 2*len(A) + 8)
	sz := 1 << bits.Len(uint(need))
	if cap(r.slots) < sz {
		r.slots = make([]uint32, sz)
	}
	slots := r.slots[:sz]
	clear(slots)
	shift := uint(64 - bits.TrailingZeros(uint(sz)))
	mask := uint64(sz - 1)
	insert := func(id uint32) {
		j := slotHash(r.n[id].lo, r.n[id].hi) >> shift
		for slots[j] != 0 {
			j = (j + 1) & mask
		}
		slots[j] = id
	}
	var low, high []uint32 // new levels i+1 and i
	var dep []uint32       // nodes of A that depend on y
	for _, n := range A {
		nd := &r.n[n]
		if r.n[nd.lo].level != y && r.n[nd.hi].level != y {
			nd.level = y // does not test y: moves down unchanged
			low = append(low, n)
			insert(n)
		} else {
			dep = append(dep, n)
		}
	}
	mkX := func(lo, hi uint32) uint32 {
		if lo == hi {
			return lo
		}
		j := slotHash(lo, hi) >> shift
		for {
			id := slots[j]
			if id == 0 {
				break
			}
			if nd := &r.n[id]; nd.lo == lo && nd.hi == hi {
				return id
			}
			j = (j + 1) & mask
		}
		id := r.newNode(y, lo, hi)
		slots[j] = id
		low = append(low, id)
		return id
	}
	var old []uint32
	for _, f := range dep {
		f0, f1 := r.n[f].lo, r.n[f].hi
		f00, f01 := r.cof(f0, y)
		f10, f11 := r.cof(f1, y)
		g0 := mkX(f00, f10)
		g1 := mkX(f01, f11)
		r.n[g0].refs++
		r.n[g1].refs++
		r.n[f].lo, r.n[f].hi = g0, g1 // f now tests y at level i
		old = append(old, f0, f1)
		high = append(high, f)
	}
	r.reuse = y
	for _, c := range old {
		r.deref(c)
	}
	r.reuse = uint8(r.L + 2)
	for _, n := range B {
		if r.n[n].refs != 0 {
			r.n[n].level = x
			high = append(high, n)
		}
	}
	r.byLv[i], r.byLv[i+1] = high, low
	r.vars[i], r.vars[i+1] = r.vars[i+1], r.vars[i]
}

// export returns the diagram in children-first order (deepest level first).
func (r *reorderer) export(name string) *Diagram {
	id := make([]uint32, len(r.n))
	id[True] = True
	nodes := make([]Node, 2, r.live+2)
	for lv := r.L - 1; lv >= 0; lv-- {
		for _, n := range r.byLv[lv] {
			nd := r.n[n]
			if nd.level != uint8(lv) {
				continue
			}
			id[n] = uint32(len(nodes))
			nodes = append(nodes, Node{Lo: id[nd.lo], Hi: id[nd.hi], Level: uint8(lv)})
		}
	}
	return &Diagram{Order: r.order(name), Nodes: nodes, Root: id[r.root], Count: r.count}
}

// compact renumbers the live nodes level by level (root's level first),
// dropping the dead ones: swaps create nodes at the end of the array and
// scatter each level over it, and a swap's cost is its cache misses.
func (r *reorderer) compact() {
	id := make([]uint32, len(r.n))
	id[True] = True
	next := uint32(2)
	for lv := range r.byLv {
		for _, n := range r.byLv[lv] {
			if r.n[n].level == uint8(lv) {
				id[n] = next
				next++
			}
		}
	}
	nodes := make([]rnode, next)
	nodes[False], nodes[True] = r.n[False], r.n[True]
	for lv := range r.byLv {
		list := r.byLv[lv][:0]
		for _, n := range r.byLv[lv] {
			nd := r.n[n]
			if nd.level != uint8(lv) {
				continue
			}
			nd.lo, nd.hi = id[nd.lo], id[nd.hi]
			nodes[id[n]] = nd
			list = append(list, id[n])
		}
		r.byLv[lv] = list
	}
	r.n = nodes
	r.root = id[r.root]
	r.free = r.free[:0]
}
