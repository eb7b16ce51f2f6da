package bdd

import (
	"errors"
	"fmt"
	"math/bits"
)

// The lean decode: a version 3 or 4 BDD payload read from a stream
// straight into the Diagram's nodes, allocated once at their count, with
// the checks Decode makes done in bitmaps and one pass, so that a diagram
// of 775 M nodes loads in about 12 bytes a node where Load and NewSet
// take 40 and more (the file image, per-node marks and counts, the
// layout's renumbering). What it holds besides the nodes: while reading,
// the ids of the shared nodes (4 bytes each, in blocks: no growing slice
// copies itself, which on a heap this size would leave gigabytes of
// garbage behind); then two bits a node to check the shared flags; then
// 8 bytes a shared node for the member count.

// idBlock is the block size of idList.
const idBlock = 1 << 16

// idList is a list of node ids grown in blocks.
type idList struct {
	blocks [][]uint32
	n      uint64
}

func (l *idList) add(id uint32) {
	k := len(l.blocks) - 1
	if k < 0 || len(l.blocks[k]) == idBlock {
		c := idBlock
		if k < 0 {
			c = 16 // the first block grows as a slice does: small levels stay small
		}
		l.blocks = append(l.blocks, make([]uint32, 0, c))
		k++
	}
	l.blocks[k] = append(l.blocks[k], id)
	l.n++
}

func (l *idList) at(i uint64) uint32 { return l.blocks[i/idBlock][i%idBlock] }

// leanPeak is the most memory decodeLean holds for a diagram of n nodes,
// shared of them reached from more than one parent (at most n).
func leanPeak(n, shared uint64) uint64 {
	nodes := 12 * (n + 2)
	flags := (n + 2 + 63) / 64 * 8
	reading := 4*shared + flags
	checking := 2 * flags
	counting := 8*shared + flags + flags/2 // the counts and their rank directory
	return nodes + flags + max(reading, checking, counting)
}

// decodeLean reads a version 3 or 4 payload of a BDD from br into a
// Diagram (Order, Root and Count from in) and checks what Decode checks:
// the structure, the shared flags, the member count and the widest level.
// It stops with ErrTooBig once its shared nodes take it past limit bytes
// (leanPeak; 0: no limit).
func decodeLean(br *bitReader, in Info, limit uint64) (*Diagram, error) {
	if in.ZDD || in.Version < bddV3 {
		return nil, fmt.Errorf("the lean decode reads BDDs of format 3 and 4, not a ZDD or version %d", in.Version)
	}
	n := in.Nodes
	// A node takes at least 2 bits: refuse counts the payload cannot hold
	// before allocating for them.
	if n > 8*in.PayloadSize || n > maxNarrow {
		return nil, fmt.Errorf("%d nodes cannot fit in %d payload bytes", n, in.PayloadSize)
	}
	L := in.Order.Vars()
	var rank [2]ranking
	var err error
	for i := range rank {
		if rank[i], err = readRanking(br); err != nil {
			return nil, err
		}
	}
	newC, backC := readCoder(br), readCoder(br)
	idx := make([]coder, L)
	for i := range idx {
		idx[i] = readCoder(br)
	}
	if br.err != nil {
		return nil, br.err
	}
	d := &Diagram{Order: in.Order, Count: in.Count, Root: uint32(in.Root)}
	d.Nodes = make([]Node, 2, n+2)
	flags := make([]uint64, (n+2+63)/64) // shared, by id
	shared := make([]idList, L)
	width := make([]uint64, L)
	var started, S uint64 // nodes begun, shared nodes read
	errBad := errors.New("bad node stream")
	var node func(lv int) uint32
	node = func(lv int) uint32 {
		if started++; started > n { // before the nodes' array would have to grow
			br.err = fmt.Errorf("more nodes than the header's %d", n)
			return 0
		}
		isShared := br.read(1) == 1
		var kids [2]uint32
		for e := range kids {
			switch rank[e].get(br) {
			case edgeFalse:
				kids[e] = False
			case edgeTrue:
				kids[e] = True
			case edgeNew:
				cl := lv + 1 + int(newC.get(br))
				if br.err != nil || cl >= L || cl <= lv {
					br.err = errBad
					return 0
				}
				kids[e] = node(cl)
			case edgeBack:
				cl := lv + 1 + int(backC.get(br))
				if br.err != nil || cl >= L || cl <= lv {
					br.err = errBad
					return 0
				}
				i := idx[cl].get(br)
				if br.err != nil || i >= shared[cl].n {
					br.err = errBad
					return 0
				}
				kids[e] = shared[cl].at(shared[cl].n - 1 - i)
			}
			if br.err != nil {
				return 0
			}
		}
		if kids[0] == kids[1] {
			br.err = fmt.Errorf("level %d: both branches equal (not reduced)", lv)
			return 0
		}
		id := uint32(len(d.Nodes))
		d.Nodes = append(d.Nodes, Node{Lo: kids[0], Hi: kids[1], Level: uint8(lv)})
		width[lv]++
		if isShared {
			shared[lv].add(id)
			flags[id/64] |= 1 << (id % 64)
			if S++; S%idBlock == 0 && limit > 0 && leanPeak(n, S) > limit {
				br.err = fmt.Errorf("%w: %d of its %d nodes read, %d of them shared, the load passes %.1f GiB",
					ErrTooBig, len(d.Nodes)-2, n, S, float64(limit)/(1<<30))
				return 0
			}
		}
		return id
	}
	if n > 0 {
		lv := newC.get(br)
		if br.err != nil || lv >= uint64(L) {
			return nil, errBad
		}
		root := node(int(lv))
		if br.err != nil {
			return nil, br.err
		}
		if limit > 0 && leanPeak(n, S) > limit {
			return nil, fmt.Errorf("%w: %d of its nodes shared, the load would pass %.1f GiB", ErrTooBig, S, float64(limit)/(1<<30))
		}
		if d.Root != root {
			return nil, fmt.Errorf("root is node %d, header says %d", root, d.Root)
		}
	}
	if !br.rest() {
		return nil, errors.New("payload has trailing data")
	}
	if uint64(len(d.Nodes)-2) != n {
		return nil, fmt.Errorf("payload holds %d nodes, header says %d", len(d.Nodes)-2, n)
	}
	shared = nil // the ids go before the next bitmaps come
	if err := checkShared(d, flags); err != nil {
		return nil, err
	}
	c, err := leanCount(d, flags)
	if err != nil {
		return nil, fmt.Errorf("counting the members: %v", err)
	}
	if c != in.Count {
		return nil, fmt.Errorf("the diagram holds %d members, header says %d", c, in.Count)
	}
	if w := maxOf(width); in.Version >= bddVersion && w != in.WidestLevel {
		return nil, fmt.Errorf("the widest level holds %d nodes, header says %d", w, in.WidestLevel)
	}
	return d, nil
}

func maxOf(s []uint64) uint64 {
	var m uint64
	for _, x := range s {
		m = max(m, x)
	}
	return m
}

// checkShared checks the canonical form: a node is flagged shared exactly
// when it has more than one parent (the root has the header for one).
func checkShared(d *Diagram, flags []uint64) error {
	one := make([]uint64, len(flags))
	two := make([]uint64, len(flags))
	mark := func(c uint32) {
		if c < 2 {
			return
		}
		k, b := c/64, uint64(1)<<(c%64)
		two[k] |= one[k] & b
		one[k] |= b
	}
	for _, nd := range d.Nodes[2:] {
		mark(nd.Lo)
		mark(nd.Hi)
	}
	mark(d.Root)
	for k := range flags {
		if x := two[k] ^ flags[k]; x != 0 {
			return fmt.Errorf("node %d: shared flag disagrees with its parents", 64*k+bits.TrailingZeros64(x))
		}
	}
	return nil
}

// leanCount counts the members of a diagram in the stream's order (each
// node after its children, the root last) with a count kept per shared
// node only: a node with one parent is its parent's new child, completed
// just before its parent or before its parent's other new child, so its
// count waits on a stack (high child on top) until the parent takes it.
// A node's count is kept scaled to the root's variable, times 2^level: the
// count a parent at level l sees, times 2^l, is then half its child's,
// whatever the levels between, and the parent's is the sum of the halves,
// so no child's level is read (on a diagram of gigabytes every read of a
// child is a cache miss). A node of level l holds at most 2^(L-l) - 1
// assignments, so the scaled count stays below 2^L: no sum overflows, and
// the root's is the set's member count.
func leanCount(d *Diagram, flags []uint64) (uint64, error) {
	L := d.Order.Vars()
	dir := make([]uint32, len(flags)) // shared nodes before each word of flags
	var S uint64
	for k, w := range flags {
		dir[k] = uint32(S)
		S += uint64(bits.OnesCount64(w))
	}
	cnt := make([]uint64, S)
	slot := func(id uint32) (uint64, bool) {
		w := flags[id/64]
		return uint64(dir[id/64]) + uint64(bits.OnesCount64(w&(1<<(id%64)-1))), w>>(id%64)&1 != 0
	}
	trueHalf := uint64(1) << (L - 1) // True seen from any level, halved
	var stack []uint64
	errOrder := errors.New("a node's children out of the stream's order")
	half := func(c uint32) (uint64, error) {
		switch c {
		case False:
			return 0, nil
		case True:
			return trueHalf, nil
		}
		if i, ok := slot(c); ok {
			return cnt[i] / 2, nil
		}
		if len(stack) == 0 {
			return 0, errOrder
		}
		x := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		return x / 2, nil
	}
	for id := uint32(2); id < uint32(len(d.Nodes)); id++ {
		nd := d.Nodes[id]
		h, err1 := half(nd.Hi) // the high child is on top
		lo, err2 := half(nd.Lo)
		if err := errors.Join(err1, err2); err != nil {
			return 0, err
		}
		if i, ok := slot(id); ok {
			cnt[i] = lo + h
		} else {
			stack = append(stack, lo+h)
		}
	}
	switch {
	case d.Root >= 2 && len(stack) != 1 || d.Root < 2 && len(stack) != 0:
		return 0, errors.New("nodes left over from the stream's order")
	case d.Root == False:
		return 0, nil
	case d.Root == True && L >= 64:
		return 0, errOverflow
	case d.Root == True:
		return 1 << L, nil
	}
	return stack[0], nil
}
