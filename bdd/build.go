package bdd

import (
	"fmt"
	"math/bits"
)

// Terminal node references, shared by every representation in this package.
const (
	False uint32 = 0
	True  uint32 = 1
)

// Node is one decision node: it tests the variable at Level and continues at
// Lo when the bit is 0 and at Hi when it is 1. References 0 and 1 are the
// terminals False and True; others index Diagram.Nodes.
type Node struct {
	Lo, Hi uint32
	Level  uint8
}

// maker creates canonical (hash-consed, reduced) nodes for the incremental
// builder; the reduction rule (BDD or ZDD) is the maker's.
type maker[R any] interface {
	mk(level int, lo, hi R) R
}

// incremental turns strictly increasing bit strings of length L (level 0 in
// bit L-1) into a reduced diagram, one string at a time, in the manner of the
// incremental construction of minimal acyclic automata from sorted words:
// only the path of the previous string is open; when the next string leaves
// it at level d, the open nodes below d are final and get hash-consed,
// deepest first. Memory is the diagram plus O(L).
type incremental[R any] struct {
	m     maker[R]
	L     int
	f, t  R
	lo    []R // lo[i]: the finished 0-branch of the open node at level i (f if none)
	prev  uint64
	count uint64
}

func newIncremental[R any](m maker[R], L int, f, t R) *incremental[R] {
	b := &incremental[R]{m: m, L: L, f: f, t: t, lo: make([]R, L)}
	for i := range b.lo {
		b.lo[i] = f
	}
	return b
}

func (b *incremental[R]) add(s uint64) error {
	if b.L < 64 && s>>uint(b.L) != 0 {
		return fmt.Errorf("key %#x has more than %d bits", s, b.L)
	}
	if b.count > 0 {
		if s <= b.prev {
			return fmt.Errorf("keys not strictly increasing at key %d (%#x after %#x)", b.count, s, b.prev)
		}
		d := bits.LeadingZeros64(s^b.prev) - (64 - b.L) // first level where they differ
		b.lo[d] = b.close(d + 1)
	}
	b.prev = s
	b.count++
	return nil
}

// close finishes the open nodes at levels L-1..from of the previous string
// and returns the node at level from (or True below the last level).
func (b *incremental[R]) close(from int) R {
	child := b.t
	for i := b.L - 1; i >= from; i-- {
		if b.prev>>uint(b.L-1-i)&1 == 0 {
			child = b.m.mk(i, child, b.f)
		} else {
			child = b.m.mk(i, b.lo[i], child)
			b.lo[i] = b.f
		}
	}
	return child
}

func (b *incremental[R]) finish() R {
	if b.count == 0 {
		return b.f
	}
	return b.close(0)
}

// table is our own unique table: nodes in creation order (children first)
// and an open-addressing hash index over them. A slot holds the node id in
// its low 32 bits and 32 bits of the node's hash above, so probing a
// crowded neighbourhood rarely touches the node array (the cache misses
// there dominate the build).
type table struct {
	nodes []Node // nodes[0], nodes[1] stand for the terminals
	slots []uint64
	shift uint
	zdd   bool
	// recent is a small direct-mapped cache per level in front of the
	// table: the deep levels, where a sorted build asks most often, have
	// few distinct nodes, and the cache answers them from L1/L2.
	recent [64][recentSize]recentEntry
}

const recentSize = 256

type recentEntry struct{ lo, hi, id uint32 }

func newTable(zdd bool, hint int) *table {
	t := &table{zdd: zdd}
	t.nodes = make([]Node, 2, max(hint, 16))
	size := 1 << 10
	for size < 2*hint {
		size *= 2
	}
	t.resize(size)
	return t
}

func (t *table) resize(n int) {
	t.slots = make([]uint64, n)
	t.shift = uint(64 - bits.TrailingZeros(uint(n)))
	mask := uint64(n - 1)
	for id := 2; id < len(t.nodes); id++ {
		nd := t.nodes[id]
		h := hashNode(nd.Level, nd.Lo, nd.Hi)
		i := h >> t.shift
		for t.slots[i] != 0 {
			i = (i + 1) & mask
		}
		t.slots[i] = h<<32 | uint64(id)
	}
}

func hashNode(level uint8, lo, hi uint32) uint64 {
	h := (uint64(lo)<<32 | uint64(hi)) ^ uint64(level)<<56 ^ uint64(level)
	h *= 0x9E3779B97F4A7C15
	h ^= h >> 29
	h *= 0xBF58476D1CE4E5B9
	return h ^ h>>32
}

func (t *table) mk(level int, lo, hi uint32) uint32 {
	if t.zdd {
		if hi == False {
			return lo
		}
	} else if lo == hi {
		return lo
	}
	lv := uint8(level)
	r := &t.recent[lv][(lo*0x9E3779B1^hi*0x85EBCA77)>>24%recentSize]
	if r.id != 0 && r.lo == lo && r.hi == hi {
		return r.id
	}
	id := t.lookup(lv, lo, hi)
	*r = recentEntry{lo, hi, id}
	return id
}

func (t *table) lookup(lv uint8, lo, hi uint32) uint32 {
	mask := uint64(len(t.slots) - 1)
	h := hashNode(lv, lo, hi)
	fp := h << 32 // low hash bits: independent of the slot index (high bits)
	i := h >> t.shift
	for {
		s := t.slots[i]
		if s == 0 {
			break
		}
		if s&^0xFFFFFFFF == fp {
			id := uint32(s)
			if nd := &t.nodes[id]; nd.Lo == lo && nd.Hi == hi && nd.Level == lv {
				return id
			}
		}
		i = (i + 1) & mask
	}
	id := uint32(len(t.nodes))
	if id == ^uint32(0) {
		panic("bdd: more than 2^32-2 nodes") // unreachable on this machine's memory
	}
	t.nodes = append(t.nodes, Node{Lo: lo, Hi: hi, Level: lv})
	t.slots[i] = fp | uint64(id)
	if 2*(len(t.nodes)-2) > len(t.slots) {
		t.resize(2 * len(t.slots))
	}
	return id
}

// Builder builds a diagram from keys given in increasing order of their bit
// strings along the variable order (for the natural order: increasing keys).
// Use Build for keys in plain increasing order under any order.
type Builder struct {
	order Order
	perm  *permuter
	mask  uint64
	inc   *incremental[uint32]
	tab   *table
}

// NewBuilder starts a BDD (or, with zdd, a ZDD) over the given order.
// sizeHint is the expected node count (0 if unknown).
func NewBuilder(o Order, zdd bool, sizeHint int) (*Builder, error) {
	if err := o.Validate(); err != nil {
		return nil, err
	}
	t := newTable(zdd, sizeHint+2)
	L := o.Vars()
	mask := ^uint64(0)
	if L < 64 {
		mask = 1<<uint(L) - 1
	}
	return &Builder{order: o, perm: newPermuter(o), mask: mask, inc: newIncremental[uint32](t, L, False, True), tab: t}, nil
}

// AddPermuted adds a key already permuted into level order (see Permute);
// these must come strictly increasing.
func (b *Builder) AddPermuted(s uint64) error { return b.inc.add(s) }

// Permute maps a key (projected onto the order's bits) to its bit string in
// level order, the sort key the builder needs.
func (b *Builder) Permute(key uint64) uint64 { return b.perm.apply(key & b.mask) }

// Natural reports whether the order needs no permutation (increasing keys
// are already in level order).
func (b *Builder) Natural() bool { return b.perm.identity }

// Finish returns the diagram. The builder must not be used afterwards.
func (b *Builder) Finish() *Diagram {
	root := b.inc.finish()
	d := &Diagram{Order: b.order, Nodes: b.tab.nodes, Root: root, ZDD: b.tab.zdd, Count: b.inc.count}
	b.tab.slots = nil
	return d
}

// Build builds the BDD (or ZDD) of a set of keys (any order of the keys;
// duplicates are an error). Keys are projected onto the order's bits first.
func Build(keys []uint64, o Order, zdd bool) (*Diagram, error) {
	b, err := NewBuilder(o, zdd, len(keys)/2)
	if err != nil {
		return nil, err
	}
	s := make([]uint64, len(keys))
	for i, k := range keys {
		s[i] = b.Permute(k)
	}
	sortUint64(s)
	for _, k := range s {
		if err := b.AddPermuted(k); err != nil {
			return nil, err
		}
	}
	return b.Finish(), nil
}
