package bdd

import "slices"

// refTable is the plainest unique table, the reference the level-by-level
// table is tested against: nodes in creation order (children first) in one
// array, as the builder kept them before, and a Go map over them.
type refTable struct {
	nodes []Node
	index map[Node]uint32
	zdd   bool
}

func (t *refTable) mk(level int, lo, hi uint32) uint32 {
	if (t.zdd && hi == False) || (!t.zdd && lo == hi) {
		return lo
	}
	nd := Node{Lo: lo, Hi: hi, Level: uint8(level)}
	if id, ok := t.index[nd]; ok {
		return id
	}
	id := uint32(len(t.nodes))
	t.nodes = append(t.nodes, nd)
	t.index[nd] = id
	return id
}

// refBuild builds with the reference table (keys: any order, projected
// onto the order's bits).
func refBuild(keys []uint64, o Order, zdd bool) (*Diagram, error) {
	t := &refTable{nodes: make([]Node, 2), index: map[Node]uint32{}, zdd: zdd}
	inc := newIncremental[uint32](t, o.Vars(), False, True)
	p := newPermuter(o)
	s := make([]uint64, len(keys))
	for i, k := range keys {
		if o.Vars() < 64 {
			k &= 1<<uint(o.Vars()) - 1
		}
		s[i] = p.apply(k)
	}
	slices.Sort(s)
	for _, k := range s {
		if err := inc.add(k); err != nil {
			return nil, err
		}
	}
	root := inc.finish()
	return &Diagram{Order: o, Nodes: t.nodes, Root: root, ZDD: zdd, Count: inc.count}, nil
}
