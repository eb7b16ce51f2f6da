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
func NewBuilder(o Order, zdd bool) (*Builder, error) {
	if err := o.Validate(); err != nil {
		return nil, err
	}
	L := o.Vars()
	t := newTable(zdd, L)
	mask := ^uint64(0)
	if L < 64 {
		mask = 1<<uint(L) - 1
	}
	return &Builder{order: o, perm: newPermuter(o), mask: mask, inc: newIncremental[uint32](t, L, False, True), tab: t}, nil
}

// AddPermuted adds a key already permuted into level order (see Permute);
// these must come strictly increasing.
func (b *Builder) AddPermuted(s uint64) error {
	if err := b.inc.add(s); err != nil {
		return err
	}
	return b.tab.err
}

// Permute maps a key (projected onto the order's bits) to its bit string in
// level order, the sort key the builder needs.
func (b *Builder) Permute(key uint64) uint64 { return b.perm.apply(key & b.mask) }

// Natural reports whether the order needs no permutation (increasing keys
// are already in level order).
func (b *Builder) Natural() bool { return b.perm.identity }

// Finish returns the diagram as the builder holds it (see Diagram to
// convert it). The builder must not be used afterwards.
func (b *Builder) Finish() (*LevelDiagram, error) {
	root := b.inc.finish()
	return b.tab.finish(b.order, root, b.inc.count)
}

// Build builds the BDD (or ZDD) of a set of keys (any order of the keys;
// duplicates are an error). Keys are projected onto the order's bits first.
func Build(keys []uint64, o Order, zdd bool) (*Diagram, error) {
	b, err := NewBuilder(o, zdd)
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
	return asDiagram(b.Finish())
}

// asDiagram converts a finished build into the one-array form.
func asDiagram(d *LevelDiagram, err error) (*Diagram, error) {
	if err != nil {
		return nil, err
	}
	return d.Diagram(), nil
}
